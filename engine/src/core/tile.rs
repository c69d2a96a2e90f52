//! Tiles and the MPSZ notation.
//!
//! The 34 tile kinds are numbered 0..34: `1m`..`9m` are 0..9, `1p`..`9p`
//! 9..18, `1s`..`9s` 18..27 and the honours `1z`..`7z` (East, South, West,
//! North, White, Green, Red) 27..34. Bonus tiles (`F1`..`F4` flowers,
//! `S1`..`S4` seasons) are a separate type because they never take part in
//! sets. The notation follows `docs/api.md` ("Tiles"): digits followed
//! by a suit letter, digits before a letter sharing it, whitespace ignored.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use strum::{EnumString, IntoStaticStr, VariantNames};

/// One of the 34 tile kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(u8);

/// Number of tile kinds.
pub const KINDS: usize = 34;

/// Suit of a tile: three numbered suits and the honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Characters, `m`.
    Man,
    /// Dots, `p`.
    Pin,
    /// Bamboo, `s`.
    Sou,
    /// Winds and dragons, `z`.
    Honor,
}

impl Suit {
    /// The MPSZ letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Man => 'm',
            Suit::Pin => 'p',
            Suit::Sou => 's',
            Suit::Honor => 'z',
        }
    }
}

/// A seat or a wind.
#[derive(Serialize, Deserialize, IntoStaticStr, VariantNames, EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wind {
    East,
    South,
    West,
    North,
}

impl Wind {
    /// All four, in seat order.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// 0 for East .. 3 for North.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wind tile (`1z`..`4z`).
    pub const fn tile(self) -> Tile {
        Tile(27 + self as u8)
    }
}

named!(Wind);

impl fmt::Display for Wind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Tile {
    /// White dragon, `5z`.
    pub const WHITE: Tile = Tile(31);
    /// Green dragon, `6z`.
    pub const GREEN: Tile = Tile(32);
    /// Red dragon, `7z`.
    pub const RED: Tile = Tile(33);
    /// `1p` (moon from the bottom of the sea).
    pub const P1: Tile = Tile(9);
    /// `4p` and `5p` (plum blossom on the roof).
    pub const P4: Tile = Tile(12);
    pub const P5: Tile = Tile(13);

    /// The tile with index `i` (0..34), or `None`.
    pub const fn from_index(i: usize) -> Option<Tile> {
        if i < KINDS {
            Some(Tile(i as u8))
        } else {
            None
        }
    }

    /// The tile of `suit` with face `n` (1..=9, or 1..=7 for honours).
    pub const fn new(suit: Suit, n: u8) -> Option<Tile> {
        let max = if matches!(suit, Suit::Honor) { 7 } else { 9 };
        if n == 0 || n > max {
            return None;
        }
        Some(Tile(suit as u8 * 9 + n - 1))
    }

    /// Index 0..34.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn suit(self) -> Suit {
        match self.0 / 9 {
            0 => Suit::Man,
            1 => Suit::Pin,
            2 => Suit::Sou,
            _ => Suit::Honor,
        }
    }

    /// Face number: 1..=9 for suits, 1..=7 for honours.
    pub const fn number(self) -> u8 {
        self.0 % 9 + 1
    }

    pub const fn is_honor(self) -> bool {
        self.0 >= 27
    }

    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 < 31
    }

    /// A suited 1 or 9.
    pub const fn is_terminal(self) -> bool {
        !self.is_honor() && (self.0.is_multiple_of(9) || self.0 % 9 == 8)
    }

    /// A terminal or an honour.
    pub const fn is_orphan(self) -> bool {
        self.is_honor() || self.is_terminal()
    }

    /// The tile `k` steps up in the same suit, if it is a suited tile that stays in the suit.
    pub const fn step(self, k: u8) -> Option<Tile> {
        if self.is_honor() || self.0 % 9 + k > 8 {
            None
        } else {
            Some(Tile(self.0 + k))
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number(), self.suit().letter())
    }
}

impl FromStr for Tile {
    type Err = ParseError;
    /// Exactly one tile, such as `5p` or `🀝`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let (mut first, mut n) = (None, 0usize);
        parse_each(s, |t| {
            first = first.or(Some(t));
            n += 1;
        })?;
        match (first, n) {
            (Some(t), 1) => Ok(t),
            _ => Err(ParseError {
                position: 0,
                message: format!("expected exactly one tile, found {n}"),
            }),
        }
    }
}

/// A parse error with the 0-based character position it concerns (its
/// message names the position counted from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub position: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The tile a Unicode mahjong character stands for (U+1F000..U+1F021, the
/// mapping of `docs/api.md`, "Names in two languages, and more ways to
/// write tiles"): winds, then red, green and white dragons, then
/// characters, bamboo and dots, each 1..9.
pub const fn unicode_tile(c: char) -> Option<Tile> {
    let u = c as u32;
    let i = match u {
        0x1F000..=0x1F003 => 27 + (u - 0x1F000),
        0x1F004 => 33,
        0x1F005 => 32,
        0x1F006 => 31,
        0x1F007..=0x1F00F => u - 0x1F007,
        0x1F010..=0x1F018 => 18 + (u - 0x1F010),
        0x1F019..=0x1F021 => 9 + (u - 0x1F019),
        _ => return None,
    };
    Some(Tile(i as u8))
}

/// Parses tiles, handing each to `each` in written order (no allocation).
///
/// The one tile parser: MPSZ (digits followed by a suit letter, digits
/// before a letter sharing it, whitespace ignored) and the Unicode mahjong
/// tiles, alone or mixed. Strict: an unknown character, a `0`, `8z`/`9z`,
/// a suit letter with no digits, digits with no suit letter or a bonus tile
/// is an error naming the character's position. It walks the bytes: a run
/// of digits is read again at its suit letter rather than buffered, and a
/// position is counted in characters only for an error.
pub fn parse_each(s: &str, mut each: impl FnMut(Tile)) -> Result<(), ParseError> {
    let b = s.as_bytes();
    let err = |pos: usize, what: String| ParseError {
        position: s.get(..pos).map_or(0, |t| t.chars().count()),
        message: what,
    };
    let at = |at: usize| {
        let n = s.get(..at).map_or(0, |t| t.chars().count()) + 1;
        let c = s.get(at..).and_then(|t| t.chars().next()).unwrap_or(' ');
        format!("character {n} ({c:?})")
    };
    // The digits waiting for their suit letter: from byte `run_start`, `run_len` of them.
    let (mut run_start, mut run_len) = (0usize, 0usize);
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'1'..=b'9' => {
                if run_len == PENDING {
                    return Err(err(
                        i,
                        format!("{}: more than {PENDING} digits before a suit letter", at(i)),
                    ));
                }
                if run_len == 0 {
                    run_start = i;
                }
                run_len += 1;
                i += 1;
            }
            b'm' | b'p' | b's' | b'z' => {
                if run_len == 0 {
                    return Err(err(
                        i,
                        format!("{} is a suit letter with no digits before it", at(i)),
                    ));
                }
                let suit = match c {
                    b'm' => Suit::Man,
                    b'p' => Suit::Pin,
                    b's' => Suit::Sou,
                    _ => Suit::Honor,
                };
                for (k, &d) in b[run_start..i].iter().enumerate() {
                    if !d.is_ascii_digit() {
                        continue; // whitespace inside the run
                    }
                    match Tile::new(suit, d - b'0') {
                        Some(t) => each(t),
                        None => {
                            let p = run_start + k;
                            return Err(err(
                                p,
                                format!(
                                    "{}: '{}{}' is not a tile (honours are 1z..7z)",
                                    at(p),
                                    d - b'0',
                                    c as char
                                ),
                            ));
                        }
                    }
                }
                run_len = 0;
                i += 1;
            }
            b'0' => {
                return Err(err(
                    i,
                    format!("{} is not a tile number (red fives are not used)", at(i)),
                ))
            }
            _ => {
                let ch = s.get(i..).and_then(|t| t.chars().next()).unwrap_or('\0');
                if ch.is_whitespace() {
                    i += ch.len_utf8();
                    continue;
                }
                let Some(t) = unicode_tile(ch) else {
                    let why = if unicode_bonus(ch).is_some() {
                        "is a bonus tile: bonus tiles go in flowers"
                    } else {
                        "is not a tile: write digits followed by m, p, s or z, or the Unicode mahjong tiles"
                    };
                    return Err(err(i, format!("{} {why}", at(i))));
                };
                if run_len > 0 {
                    break; // digits before a whole tile: reported below
                }
                each(t);
                i += ch.len_utf8();
            }
        }
    }
    if run_len > 0 {
        return Err(err(
            run_start,
            format!("{} is a digit with no suit letter after it", at(run_start)),
        ));
    }
    Ok(())
}

/// Parses tiles into a list in written order (the rules and errors of [`parse_each`]).
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, ParseError> {
    let mut out = Vec::with_capacity(s.len().min(64));
    parse_each(s, |t| out.push(t))?;
    Ok(out)
}

/// The most digits one suit letter may take (a hand has at most 18 tiles).
const PENDING: usize = 32;

/// Formats tiles compactly (`123m55z`), in the order given but grouping runs of one suit.
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut s = String::with_capacity(tiles.len() + 4);
    let mut i = 0;
    while i < tiles.len() {
        let suit = tiles[i].suit();
        let start = i;
        // A suit letter at least every PENDING digits, so the text parses back.
        while i < tiles.len() && tiles[i].suit() == suit && i - start < PENDING {
            s.push((b'0' + tiles[i].number()) as char);
            i += 1;
        }
        s.push(suit.letter());
    }
    s
}

/// A xorshift generator for the unit tests' pseudo-random inputs.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Tile counts by kind.
pub type Counts = [u8; KINDS];

/// Bit i set for each terminal and honour kind (the thirteen orphans).
pub const ORPHANS: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < KINDS {
        if i >= 27 || i % 9 == 0 || i % 9 == 8 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};

/// The kinds held in `counts` as a bit set: bit i set when `counts[i] > 0`.
///
/// Eight counts at a time (SWAR): a byte's top bit ends up set when any of
/// its bits is, then one multiplication gathers the eight top bits.
#[inline]
pub fn kinds_held(counts: &Counts) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut mask = 0u64;
    for (k, chunk) in counts.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        // Top bit of each byte: set when the byte is not zero.
        let top = (((x & LOW7) + LOW7) | x) & !LOW7;
        mask |= ((top >> 7).wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    for (i, &n) in counts.iter().enumerate().skip(KINDS / 8 * 8) {
        mask |= u64::from(n > 0) << i;
    }
    mask
}

/// Counts of the given tiles.
pub fn counts_of(tiles: &[Tile]) -> Counts {
    let mut c = [0u8; KINDS];
    for t in tiles {
        // Saturating: a request may hold any number of one tile; validation rejects more than 4.
        c[t.index()] = c[t.index()].saturating_add(1);
    }
    c
}

/// A bonus tile: a flower (`F1`..`F4`) or a season (`S1`..`S4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bonus(u8);

impl Bonus {
    /// 0..4 flowers, 4..8 seasons.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn from_index(i: usize) -> Option<Bonus> {
        if i < 8 {
            Some(Bonus(i as u8))
        } else {
            None
        }
    }

    pub const fn is_flower(self) -> bool {
        self.0 < 4
    }

    /// The seat this bonus tile belongs to.
    pub const fn seat(self) -> Wind {
        Wind::ALL[(self.0 % 4) as usize]
    }
}

impl fmt::Display for Bonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = if self.is_flower() { 'F' } else { 'S' };
        write!(f, "{}{}", letter, self.0 % 4 + 1)
    }
}

/// The bonus tile a Unicode mahjong character stands for (U+1F022..U+1F029):
/// plum, orchid, bamboo, chrysanthemum, then spring..winter. The code points
/// put bamboo before chrysanthemum; the seats (`F3` chrysanthemum, `F4`
/// bamboo) follow `docs/api.md`.
pub const fn unicode_bonus(c: char) -> Option<Bonus> {
    let i = match c as u32 {
        0x1F022 => 0,
        0x1F023 => 1,
        0x1F024 => 3,
        0x1F025 => 2,
        u @ 0x1F026..=0x1F029 => 4 + (u - 0x1F026),
        _ => return None,
    };
    Some(Bonus(i as u8))
}

impl FromStr for Bonus {
    type Err = String;
    /// `F1`..`F4`, `S1`..`S4` (either case), or one Unicode flower or season tile.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "{} is not a bonus tile: use F1..F4 (flowers), S1..S4 (seasons) or their Unicode tiles",
                crate::core::echo::Quoted(s)
            )
        };
        let mut chars = s.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return unicode_bonus(c).ok_or_else(bad);
        }
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(bad());
        }
        let base = match b[0] {
            b'F' | b'f' => 0,
            b'S' | b's' => 4,
            _ => return Err(bad()),
        };
        match b[1] {
            b'1'..=b'4' => Ok(Bonus(base + b[1] - b'1')),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_every_kind() {
        for i in 0..KINDS {
            let t = Tile::from_index(i).unwrap();
            let s = t.to_string();
            assert_eq!(s.parse::<Tile>().unwrap(), t, "round trip of {s}");
        }
    }

    #[test]
    fn parse_table() {
        let ok: &[(&str, &str)] = &[
            ("123m456p789s11z", "123m456p789s11z"),
            ("1 2 3m 5z", "123m5z"),
            ("7z1m", "7z1m"),
            ("🀇🀈🀉 456m", "123456m"),
            ("1m🀈3m🀄", "123m7z"),
            ("🀀　🀆", "15z"),
        ];
        for (input, want) in ok {
            let tiles = parse_tiles(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(format_tiles(&tiles), *want, "input {input:?}");
        }
        let bad: &[(&str, usize)] = &[
            ("123x", 3),
            ("0m", 0),
            ("8z", 0),
            ("19z", 1),
            ("123", 0),
            ("123m45", 4),
            ("m", 0),
            ("12mx", 3),
            ("🀇🀈🀉m", 3),
            ("12m\u{1F02A}", 3),
            ("🀇🀈x", 2),
            ("1🀄", 0),
            ("🀄🀢", 1),
            ("　1m 2z ü", 7),
        ];
        for (input, pos) in bad {
            let err = parse_tiles(input).expect_err(input);
            assert_eq!(
                err.position, *pos,
                "position for {input:?}: {}",
                err.message
            );
        }
    }

    /// Every Unicode mahjong tile as `docs/api.md` maps it ("Names in two
    /// languages, and more ways to write tiles"), written out one by one.
    #[test]
    fn unicode_tiles_map_as_the_contract_says() {
        let tiles: &[(char, &str)] = &[
            ('🀀', "1z"),
            ('🀁', "2z"),
            ('🀂', "3z"),
            ('🀃', "4z"),
            ('🀄', "7z"),
            ('🀅', "6z"),
            ('🀆', "5z"),
            ('🀇', "1m"),
            ('🀈', "2m"),
            ('🀉', "3m"),
            ('🀊', "4m"),
            ('🀋', "5m"),
            ('🀌', "6m"),
            ('🀍', "7m"),
            ('🀎', "8m"),
            ('🀏', "9m"),
            ('🀐', "1s"),
            ('🀑', "2s"),
            ('🀒', "3s"),
            ('🀓', "4s"),
            ('🀔', "5s"),
            ('🀕', "6s"),
            ('🀖', "7s"),
            ('🀗', "8s"),
            ('🀘', "9s"),
            ('🀙', "1p"),
            ('🀚', "2p"),
            ('🀛', "3p"),
            ('🀜', "4p"),
            ('🀝', "5p"),
            ('🀞', "6p"),
            ('🀟', "7p"),
            ('🀠', "8p"),
            ('🀡', "9p"),
        ];
        let bonus: &[(char, &str)] = &[
            ('🀢', "F1"),
            ('🀣', "F2"),
            ('🀥', "F3"),
            ('🀤', "F4"),
            ('🀦', "S1"),
            ('🀧', "S2"),
            ('🀨', "S3"),
            ('🀩', "S4"),
        ];
        assert_eq!(tiles.len() + bonus.len(), 42, "U+1F000..U+1F029");
        for &(c, mpsz) in tiles {
            let want: Tile = mpsz.parse().unwrap();
            assert_eq!(
                c.to_string().parse::<Tile>(),
                Ok(want),
                "{c} (U+{:X}) is {mpsz}",
                c as u32
            );
            assert_eq!(unicode_bonus(c), None, "{c} is no bonus tile");
        }
        for &(c, name) in bonus {
            let want: Bonus = name.parse().unwrap();
            assert_eq!(
                c.to_string().parse::<Bonus>(),
                Ok(want),
                "{c} (U+{:X}) is {name}",
                c as u32
            );
            let err = parse_tiles(&c.to_string()).expect_err("a bonus tile in the tiles");
            assert!(err.message.contains("bonus tile"), "{c}: {}", err.message);
        }
        // Every code point of the range is one of the two lists; its neighbours are neither.
        for u in 0x1F000..=0x1F029u32 {
            let c = char::from_u32(u).unwrap();
            let listed = tiles.iter().chain(bonus).filter(|(t, _)| *t == c).count();
            assert_eq!(listed, 1, "U+{u:X} listed once");
        }
        for u in [0x1EFFFu32, 0x1F02A, 0x1F02B] {
            let c = char::from_u32(u).unwrap();
            assert_eq!((unicode_tile(c), unicode_bonus(c)), (None, None), "U+{u:X}");
        }
    }

    #[test]
    fn errors_name_the_character() {
        let cases: &[(&str, &str)] = &[
            ("1234x", "character 5 ('x') is not a tile"),
            ("🀄🀄🀄x", "character 4 ('x') is not a tile"),
            ("12m🀢", "character 4 ('🀢') is a bonus tile"),
            ("11m0p", "character 4 ('0') is not a tile number"),
            (
                "1m45",
                "character 3 ('4') is a digit with no suit letter after it",
            ),
            ("19z", "character 2 ('9'): '9z' is not a tile"),
        ];
        for (input, want) in cases {
            let err = parse_tiles(input).expect_err(input);
            assert!(err.to_string().starts_with(want), "{input:?}: {err}");
        }
    }

    #[test]
    fn tile_properties() {
        let t: Tile = "9s".parse().unwrap();
        assert!(t.is_terminal() && t.is_orphan() && !t.is_honor());
        assert_eq!(t.step(1), None);
        let d: Tile = "6z".parse().unwrap();
        assert_eq!(d, Tile::GREEN);
        assert!(d.is_dragon() && !d.is_wind());
        assert_eq!(Wind::South.tile().to_string(), "2z");
    }

    #[test]
    fn bonus_tiles() {
        for (s, seat, flower) in [
            ("F1", Wind::East, true),
            ("S3", Wind::West, false),
            ("f4", Wind::North, true),
        ] {
            let b: Bonus = s.parse().unwrap();
            assert_eq!((b.seat(), b.is_flower()), (seat, flower), "bonus {s}");
        }
        for s in ["F0", "F5", "X1", "S", "S12", "🀄", "🀢🀣", "x"] {
            assert!(s.parse::<Bonus>().is_err(), "{s} should be rejected");
        }
    }

    #[test]
    fn kinds_held_matches_counts() {
        let mut counts = [0u8; KINDS];
        assert_eq!(kinds_held(&counts), 0, "no tiles");
        // Every kind alone, at every count a byte can hold.
        for i in 0..KINDS {
            for n in [1u8, 2, 4, 0x80, 0xff] {
                counts = [0; KINDS];
                counts[i] = n;
                assert_eq!(kinds_held(&counts), 1 << i, "kind {i} x{n}");
            }
        }
        // A pseudo-random mix against the plain definition.
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            for c in counts.iter_mut() {
                let seed = next();
                *c = if seed.is_multiple_of(3) {
                    (seed >> 20) as u8
                } else {
                    0
                };
            }
            let want = (0..KINDS).fold(0u64, |m, i| m | (u64::from(counts[i] > 0) << i));
            assert_eq!(kinds_held(&counts), want, "{counts:?}");
        }
    }
}
