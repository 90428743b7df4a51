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

/// The width the REPL's own lines keep within: an 80-column terminal.
pub const COLUMNS: usize = 80;

/// `line` broken at spaces into lines of at most `width` characters, the lines after the
/// first indented by `indent` spaces; a word longer than that stays whole.
pub fn wrap_line(line: &str, width: usize, indent: usize) -> Vec<String> {
    let mut out = vec![];
    let mut rest = line.trim_end();
    let mut lead = String::new();
    while lead.len() + rest.chars().count() > width {
        let room = width - lead.len();
        // The last space within the room, past the line's own leading spaces.
        let start = rest.len() - rest.trim_start().len();
        let cut = rest.char_indices().take_while(|(i, _)| *i <= room).filter(|(i, c)| *c == ' ' && *i > start).last();
        let Some((at, _)) = cut else { break };
        out.push(format!("{lead}{}", rest[..at].trim_end()));
        rest = rest[at..].trim_start();
        lead = " ".repeat(indent.min(width / 2));
    }
    out.push(format!("{lead}{rest}"));
    out
}

/// The round of a turn as players count them: the engine counts each player's turn (red
/// plays turns 1, 5, 9 with four players), players count rounds of every player's turn
/// (red plays in rounds 1, 2, 3). None before the first turn (the set-up).
pub fn round(turn: u32, players: usize) -> Option<u32> {
    let players = u32::try_from(players).unwrap_or(u32::MAX).max(1);
    (turn > 0).then(|| (turn - 1) / players + 1)
}

/// `what` ending in a number, followed by `word` in the number's plural: "3 + 1 = 4
/// points", "1 point".
pub fn count_word(what: &str, word: &str) -> String {
    let last = what.rsplit(' ').next().unwrap_or("");
    if last == "1" {
        format!("{what} {word}")
    } else {
        format!("{what} {word}s")
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
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap_line("  red  2 pts  a b", 80, 4), ["  red  2 pts  a b"]);
        assert_eq!(wrap_line("  aaa bbb ccc", 9, 4), ["  aaa bbb", "    ccc"]);
        assert_eq!(wrap_line("  aaaaaaaaaaaa", 5, 2), ["  aaaaaaaaaaaa"]);
        for l in wrap_line(&"word ".repeat(40), 80, 17) {
            assert!(l.chars().count() <= 80, "{l}");
        }
    }

    #[test]
    fn rounds_count_every_players_turn_once() {
        assert_eq!(round(0, 4), None);
        assert_eq!([1, 4, 5, 9].map(|t| round(t, 4)), [Some(1), Some(1), Some(2), Some(3)]);
        assert_eq!(round(3, 2), Some(2));
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
