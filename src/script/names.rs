//! The names of a game's zones, cards, pieces, grids and options as its Lua state interns
//! them.
//!
//! Lua keeps one string object per short string (up to 40 bytes) and never moves it, so
//! while the engine holds a string of each name, every script's `"hand"` or `"ore"` is that
//! very object: the getters find a name's index by the address of its bytes, with no
//! string compared. An address not in the index (a long name, a misspelling, a string made
//! in Rust) is looked up in the spec as before.

use crate::spec::Spec;

/// Which list of the spec a name indexes.
#[derive(Clone, Copy)]
pub(crate) enum NameKind {
    Zone = 0,
    Card = 1,
    Piece = 2,
    Grid = 3,
    Option = 4,
}

const KINDS: usize = 5;

const NONE: u16 = u16::MAX;

/// Open addressing by address: (address, length, index per `NameKind` or NONE); an empty
/// slot has address 0.
#[derive(Default)]
pub(crate) struct NameIndex {
    slots: Vec<(usize, usize, [u16; KINDS])>,
    shift: u32,
}

impl NameIndex {
    /// The index of the names in `spec`, given the address of each name's interned bytes.
    /// Names past `u16::MAX` in their list are left to the spec.
    pub(crate) fn new(spec: &Spec, address_of: impl Fn(&str) -> Option<usize>) -> NameIndex {
        let lists: [Vec<&str>; KINDS] = [
            spec.zones.iter().map(|z| z.name.as_str()).collect(),
            spec.cards.iter().map(|c| c.name.as_str()).collect(),
            spec.pieces.iter().map(|p| p.name.as_str()).collect(),
            spec.grids.iter().map(|g| g.name.as_str()).collect(),
            spec.options.iter().map(|o| o.name.as_str()).collect(),
        ];
        let mut entries: Vec<(usize, usize, [u16; KINDS])> = vec![];
        for (kind, list) in lists.iter().enumerate() {
            for (i, name) in list.iter().enumerate() {
                let (Some(addr), Ok(i)) = (address_of(name), u16::try_from(i)) else { continue };
                if i == NONE || addr == 0 {
                    continue;
                }
                match entries.iter_mut().find(|e| e.0 == addr && e.1 == name.len()) {
                    // The first of equal names, as the spec's own lookup finds it.
                    Some(e) if e.2[kind] == NONE => e.2[kind] = i,
                    Some(_) => {}
                    None => {
                        let mut idx = [NONE; KINDS];
                        idx[kind] = i;
                        entries.push((addr, name.len(), idx));
                    }
                }
            }
        }
        let size = (entries.len() * 2).next_power_of_two().max(16);
        let mut index = NameIndex { slots: vec![(0, 0, [NONE; KINDS]); size], shift: 64 - size.trailing_zeros() };
        for e in entries {
            let mut at = index.home(e.0);
            while index.slots[at].0 != 0 {
                at = (at + 1) & (size - 1);
            }
            index.slots[at] = e;
        }
        index
    }

    fn home(&self, addr: usize) -> usize {
        ((addr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Some(the index, or None when the name is not of that kind) if `name` is the bytes of
    /// one of the interned names; None if it is not (then ask the spec).
    #[inline]
    pub(crate) fn get(&self, name: &str, kind: NameKind) -> Option<Option<usize>> {
        if self.slots.is_empty() {
            return None;
        }
        let addr = name.as_ptr() as usize;
        let mask = self.slots.len() - 1;
        let mut at = self.home(addr);
        loop {
            let (a, len, idx) = &self.slots[at];
            if *a == addr && *len == name.len() {
                let i = idx[kind as usize];
                return Some((i != NONE).then_some(i as usize));
            }
            if *a == 0 {
                return None;
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_finds_its_name_and_another_finds_nothing() {
        let spec = crate::script::Script::load(&["base".to_string()]).expect("base loads").spec.clone();
        // Stand-in addresses: each name's own bytes in the spec (stable for the test).
        let index = NameIndex::new(&spec, |name| {
            let z = spec.zones.iter().find(|z| z.name == name).map(|z| z.name.as_ptr() as usize);
            z.or_else(|| spec.cards.iter().find(|c| c.name == name).map(|c| c.name.as_ptr() as usize))
                .or_else(|| spec.pieces.iter().find(|p| p.name == name).map(|p| p.name.as_ptr() as usize))
        });
        let hand = spec.zones.iter().find(|z| z.name == "hand").expect("a hand");
        assert_eq!(index.get(&hand.name, NameKind::Zone), Some(spec.zone("hand")));
        assert_eq!(index.get(&hand.name, NameKind::Card), Some(None), "hand is no card");
        let ore = spec.cards.iter().find(|c| c.name == "ore").expect("ore");
        assert_eq!(index.get(&ore.name, NameKind::Card), Some(spec.card("ore")));
        // The same text elsewhere, or a prefix of a known name, is not in the index.
        let copy = String::from("hand");
        assert_eq!(index.get(&copy, NameKind::Zone), None);
        assert_eq!(index.get(&hand.name[..2], NameKind::Zone), None);
    }
}
