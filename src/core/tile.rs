//! Tiles and the MPSZ notation.
//!
//! The 34 tile kinds are numbered 0..34: `1m`..`9m` are 0..9, `1p`..`9p`
//! 9..18, `1s`..`9s` 18..27 and the honours `1z`..`7z` (East, South, West,
//! North, White, Green, Red) 27..34. Bonus tiles (`F1`..`F4` flowers,
//! `S1`..`S4` seasons) are a separate type because they never take part in
//! sets. The notation follows `api-contract.md` ("Tiles"): digits followed
//! by a suit letter, digits before a letter sharing it, whitespace ignored.

use std::fmt;
use std::str::FromStr;

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

    /// Lower-case name as used in the API.
    pub const fn name(self) -> &'static str {
        match self {
            Wind::East => "east",
            Wind::South => "south",
            Wind::West => "west",
            Wind::North => "north",
        }
    }
}

impl FromStr for Wind {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "east" => Ok(Wind::East),
            "south" => Ok(Wind::South),
            "west" => Ok(Wind::West),
            "north" => Ok(Wind::North),
            _ => Err(()),
        }
    }
}

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
    /// Exactly one tile, such as `5p`.
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

/// A parse error with the 0-based character position it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub position: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.position + 1)
    }
}

impl std::error::Error for ParseError {}

/// Parses MPSZ notation into tiles in written order.
///
/// Strict: an unknown character, a `0`, `8z`/`9z`, a suit letter with no
/// digits or digits with no suit letter is an error naming the position.
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, ParseError> {
    let mut out = Vec::with_capacity(s.len().min(64));
    parse_each(s, |t| out.push(t))?;
    Ok(out)
}

/// Parses MPSZ notation, handing each tile to `each` in written order
/// (no allocation); the rules and errors are those of [`parse_tiles`].
pub fn parse_each(s: &str, mut each: impl FnMut(Tile)) -> Result<(), ParseError> {
    if s.is_ascii() {
        return parse_ascii(s.as_bytes(), &mut each);
    }
    parse_chars(s, each)
}

/// [`parse_each`] on ASCII text: byte positions are character positions, so
/// each run of digits is re-read at its suit letter instead of buffered.
/// Same tiles, same order, same errors as [`parse_chars`].
fn parse_ascii(b: &[u8], each: &mut impl FnMut(Tile)) -> Result<(), ParseError> {
    let mut run_start = 0usize;
    let mut run_len = 0usize;
    for (pos, &c) in b.iter().enumerate() {
        match c {
            b'1'..=b'9' => {
                if run_len == PENDING {
                    return Err(ParseError {
                        position: pos,
                        message: format!("more than {PENDING} digits before a suit letter"),
                    });
                }
                if run_len == 0 {
                    run_start = pos;
                }
                run_len += 1;
            }
            b'm' | b'p' | b's' | b'z' => {
                if run_len == 0 {
                    return Err(ParseError {
                        position: pos,
                        message: format!("suit letter '{}' has no digits before it", c as char),
                    });
                }
                let suit = match c {
                    b'm' => Suit::Man,
                    b'p' => Suit::Pin,
                    b's' => Suit::Sou,
                    _ => Suit::Honor,
                };
                for (p, &d) in b[run_start..pos].iter().enumerate() {
                    if !d.is_ascii_digit() {
                        continue; // whitespace inside the run
                    }
                    match Tile::new(suit, d - b'0') {
                        Some(t) => each(t),
                        None => {
                            return Err(ParseError {
                                position: run_start + p,
                                message: format!(
                                    "'{}{}' is not a tile (honours are 1z..7z)",
                                    d - b'0',
                                    c as char
                                ),
                            })
                        }
                    }
                }
                run_len = 0;
            }
            _ => {
                let ch = c as char;
                if ch == '0' || !ch.is_whitespace() {
                    // '0' and any other character: the general parser's error.
                    return parse_chars(
                        std::str::from_utf8(&b[pos..pos + 1]).unwrap_or(""),
                        |_| {},
                    )
                    .map_err(|e| ParseError {
                        position: pos,
                        message: e.message,
                    });
                }
            }
        }
    }
    if run_len > 0 {
        return Err(ParseError {
            position: run_start,
            message: format!(
                "digit '{}' has no suit letter after it",
                b[run_start] - b'0'
            ),
        });
    }
    Ok(())
}

fn parse_chars(s: &str, mut each: impl FnMut(Tile)) -> Result<(), ParseError> {
    // Digits waiting for their suit letter: (value, character position).
    let mut pending = Pending::default();
    for (pos, c) in s.chars().enumerate() {
        match c {
            '0' => {
                return Err(ParseError {
                    position: pos,
                    message: "'0' is not a tile number (red fives are not used)".into(),
                })
            }
            '1'..='9' => {
                if !pending.push(c as u8 - b'0', pos) {
                    return Err(ParseError {
                        position: pos,
                        message: format!("more than {PENDING} digits before a suit letter"),
                    });
                }
            }
            'm' | 'p' | 's' | 'z' => {
                let suit = match c {
                    'm' => Suit::Man,
                    'p' => Suit::Pin,
                    's' => Suit::Sou,
                    _ => Suit::Honor,
                };
                if pending.is_empty() {
                    return Err(ParseError {
                        position: pos,
                        message: format!("suit letter '{c}' has no digits before it"),
                    });
                }
                for &(n, p) in pending.as_slice() {
                    match Tile::new(suit, n) {
                        Some(t) => each(t),
                        None => {
                            return Err(ParseError {
                                position: p,
                                message: format!("'{n}{c}' is not a tile (honours are 1z..7z)"),
                            })
                        }
                    }
                }
                pending.clear();
            }
            c if c.is_whitespace() => {}
            other => {
                return Err(ParseError {
                    position: pos,
                    message: format!(
                        "unexpected character {other:?}: tiles are digits followed by m, p, s or z"
                    ),
                })
            }
        }
    }
    if let Some(&(n, p)) = pending.as_slice().first() {
        return Err(ParseError {
            position: p,
            message: format!("digit '{n}' has no suit letter after it"),
        });
    }
    Ok(())
}

/// The most digits one suit letter may take (a hand has at most 18 tiles).
const PENDING: usize = 32;

/// Digits waiting for their suit letter, in a fixed array.
struct Pending {
    buf: [(u8, usize); PENDING],
    len: usize,
}

impl Default for Pending {
    fn default() -> Self {
        Pending {
            buf: [(0, 0); PENDING],
            len: 0,
        }
    }
}

impl Pending {
    fn push(&mut self, n: u8, pos: usize) -> bool {
        if self.len == PENDING {
            return false;
        }
        self.buf[self.len] = (n, pos);
        self.len += 1;
        true
    }

    fn as_slice(&self) -> &[(u8, usize)] {
        &self.buf[..self.len]
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

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

impl FromStr for Bonus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let b = s.as_bytes();
        let bad = || format!("{s:?} is not a bonus tile: use F1..F4 (flowers) or S1..S4 (seasons)");
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

    /// The ASCII fast path gives the general parser's tiles and errors on
    /// 20,000 pseudo-random strings over digits, suit letters, spaces and junk.
    #[test]
    fn ascii_fast_path_equals_the_general_parser() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let mut oks = 0;
        for k in 0..20_000 {
            let len = (next() % 40) as usize;
            // Every other string without junk, so many parse.
            let range = if k % 2 == 0 { 94 } else { 100 };
            let text: String = (0..len)
                .map(|_| {
                    let r = next();
                    match r % range {
                        0..=59 => (b'1' + (r / 100 % 9) as u8) as char,
                        60..=87 => {
                            b"mpsz"[(r / 100 % if range == 94 { 3 } else { 4 }) as usize] as char
                        }
                        88..=93 => ' ',
                        94..=95 => '0',
                        96 => '\t',
                        97 => '\x0b',
                        _ => 'x',
                    }
                })
                .chain((k % 2 == 0).then_some('s'))
                .collect();
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            let rf = parse_ascii(text.as_bytes(), &mut |t| fast.push(t));
            let rs = parse_chars(&text, |t| slow.push(t));
            assert_eq!(rf, rs, "{text:?}");
            assert_eq!(fast, slow, "{text:?}");
            oks += usize::from(rf.is_ok() && !fast.is_empty());
        }
        assert!(
            (1_000..19_000).contains(&oks),
            "{oks} of 20,000 parsed: widen the mix"
        );
        let long = "1".repeat(40) + "m";
        assert_eq!(
            parse_ascii(long.as_bytes(), &mut |_| {}),
            parse_chars(&long, |_| {}),
            "{long}"
        );
    }

    #[test]
    fn parse_table() {
        let ok: &[(&str, &str)] = &[
            ("123m456p789s11z", "123m456p789s11z"),
            ("1 2 3m 5z", "123m5z"),
            ("7z1m", "7z1m"),
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
            ("12m🀄", 3),
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
        for s in ["F0", "F5", "X1", "S", "S12"] {
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
