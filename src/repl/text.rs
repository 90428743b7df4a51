//! Player-facing wording of the REPL that knows no game: plurals, the closest name to a
//! mistyped one, long lists of legal actions grouped so that a player can read them.

/// "1 card", "3 cards": `word` is the singular.
pub fn count(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Edit distance (insertions, deletions, substitutions, and swaps of two neighbours):
/// optimal string alignment, so the common typo `lgo` for `log` is one edit. `strsim`'s,
/// a maintained crate already in the build (clap's suggestions), rather than a copy of our
/// own. Also used by `catan check`'s lints.
pub fn distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

/// The name closest to `typed`, if one is near enough to be a typing slip (a third of its
/// letters, at least one), or one starts with it.
pub fn closest<'n>(typed: &str, names: &'n [String]) -> Option<&'n str> {
    let typed = typed.to_ascii_lowercase();
    names
        .iter()
        .filter(|n| **n != typed)
        .map(|n| (if n.starts_with(&typed) && typed.len() >= 3 { 0 } else { distance(&typed, n) }, n))
        .filter(|(d, n)| *d <= (n.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.as_str())
}

/// The words of a listed action before its arguments: `settlement 12` -> `settlement`,
/// `play monopoly ore` -> `play monopoly`, `build abbey K2` -> `build abbey`. An argument
/// is a word with a digit in it (labels, counts) or one of the seat's choices.
fn kind_of(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lead = words.iter().take_while(|w| !w.chars().any(|c| c.is_ascii_digit())).count();
    // At most two leading words, at least one.
    words[..lead.clamp(1, 2).min(words.len())].join(" ")
}

/// Groups a long list of legal actions so that a player can read it: actions of one kind
/// (`settlement 12`, `play merchant_caravan ...`, `build abbey K2`) that are many become
/// one line: the alternatives when only the last word differs (`settlement N for N in: 1
/// 4 5 ...`), else a count and a few examples; `legal WORDS` lists such a group whole.
pub fn group_legal(texts: &[String]) -> Vec<String> {
    const SHORT: usize = 24;
    const GROUP: usize = 6;
    if texts.len() <= SHORT {
        return texts.to_vec();
    }
    let mut order: Vec<String> = vec![];
    let mut groups: std::collections::HashMap<String, Vec<&String>> = std::collections::HashMap::new();
    for t in texts {
        let k = kind_of(t);
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(t);
    }
    let mut out = vec![];
    for k in order {
        let g = &groups[&k];
        let last_words: Option<Vec<&str>> =
            g.iter().map(|t| t.strip_prefix(&format!("{k} ")).filter(|rest| !rest.contains(' '))).collect();
        if g.len() <= GROUP {
            out.extend(g.iter().map(|t| t.to_string()));
        } else if let Some(words) = last_words {
            out.push(format!("{k} N for N in: {} ({} ways)", words.join(" "), g.len()));
        } else {
            let eg: Vec<&str> = g.iter().take(3).map(|t| t.as_str()).collect();
            out.push(format!("{k} ... ({} ways, e.g. `{}`; `legal {k}` lists them)", g.len(), eg.join("`, `")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(count(1, "card"), "1 card");
        assert_eq!(count(0, "card"), "0 cards");
        assert_eq!(count(25, "card"), "25 cards");
    }

    #[test]
    fn closest_names_for_slips_only() {
        let names: Vec<String> = ["roll", "road", "settlement", "play knight", "help"].map(String::from).to_vec();
        assert_eq!(closest("rol", &names), Some("roll"));
        assert_eq!(closest("setlement", &names), Some("settlement"));
        assert_eq!(closest("play knigth", &names), Some("play knight"));
        assert_eq!(closest("xyzzy", &names), None);
        assert_eq!(distance("ab", "ba"), 1);
    }

    #[test]
    fn one_word_choices_are_listed_on_one_line() {
        let texts: Vec<String> = (1..=30).map(|n| format!("settlement {n}")).collect();
        let out = group_legal(&texts);
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("settlement N for N in: 1 2 3"), "{out:?}");
        assert!(out[0].ends_with("30 (30 ways)"), "{out:?}");
        let mut texts: Vec<String> = (1..=30).map(|n| format!("road {n}-{}", n + 1)).collect();
        texts.extend((1..=8).map(|n| format!("trade {n} ore for brick")));
        let out = group_legal(&texts);
        assert!(out[0].starts_with("road N for N in: 1-2 2-3"), "{out:?}");
        assert!(out[1].starts_with("trade ... (8 ways, e.g. `trade 1 ore for brick`"), "{out:?}");
    }
}
