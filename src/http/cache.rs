//! The score cache: serialised response bodies keyed by the canonical form
//! of (ruleset id and version, house rules, validated hand, context).
//!
//! The key is computed after validation (the core's `Hand` is sorted, so
//! tile order in the request does not matter) and before scoring. Its
//! SHA-256 is the response's `hand_hash`: stable across restarts and builds.

use super::sink::{Cursor, Sink};
use crate::core::hand::{Context, Hand};
use crate::core::hash::quick_hash;
use crate::core::tile::{Wind, KINDS};
use crate::core::{HouseRules, PatternOverride, PointsSpec, Ruleset};
use actix_web::web::Bytes;
use moka::sync::Cache;
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// SHA-256 of a canonical key.
pub type KeyHash = [u8; 32];

/// The canonical key of everything that decides a score: the bytes
/// [`key_hash`] hashes (see [`write_key`] for the layout).
pub fn canonical_key(ruleset: &Ruleset, house: &HouseRules, hand: &Hand, ctx: &Context) -> Vec<u8> {
    let mut text = String::new();
    house_text(&mut text, house);
    let mut s = Vec::with_capacity(KEY_ROOM + text.len());
    write_key(&mut s, ruleset, text.as_bytes(), hand, ctx);
    s
}

/// SHA-256 of the canonical key: the cache key and `hand_hash`.
pub fn key_hash(ruleset: &Ruleset, house: &HouseRules, hand: &Hand, ctx: &Context) -> KeyHash {
    if house.is_empty() {
        // Nearly every request: the key on the stack. With a ruleset id of
        // up to 18 bytes it is at most 55 bytes, one SHA-256 block.
        let mut buf = [0u8; KEY_ROOM];
        let mut c = Cursor::new(&mut buf);
        write_key(&mut c, ruleset, b"", hand, ctx);
        if let Some(key) = c.written() {
            return Sha256::digest(key).into();
        }
    }
    Sha256::digest(canonical_key(ruleset, house, hand, ctx)).into()
}

/// Room for a key without house rules: a ruleset id of up to 64 bytes and
/// a validated hand (at most 4 melds).
const KEY_ROOM: usize = 2 + 1 + 64 + 5 + 1 + 17 + 1 + 2 * 4 + 1 + 1 + 4;

/// Writes the canonical key, version 2: a fixed layout of bytes, so two
/// different inputs never give the same key, and short (a text key took
/// three SHA-256 blocks and a third of a microsecond per request):
///
/// | bytes | what |
/// |---|---|
/// | 2 | `F2`, the format |
/// | varint + n | the ruleset id |
/// | varint | the ruleset version |
/// | varint + n | the house-rule text (empty without house rules) |
/// | 17 | the 34 concealed counts, two per byte (low nibble first) |
/// | 1 + 2 per meld | the melds in canonical order: tile index, then kind (0 chow, 1 pung, 2 kong) + 4 if concealed + 8 if added |
/// | 1 | the winning tile's index, 255 for none |
/// | 1 | the bonus tiles (bit set, F1 = bit 0 … S4 = bit 7) |
/// | 4 | win_by + 4 x replacement + 16 double_kong + 32 last_tile + 64 heavenly + 128 earthly; seat + 4 x round + 16 flower_win; discarder; liable (wind index, 4 for none) |
///
/// Counts of a validated hand are at most 4, so a nibble holds them.
pub fn write_key<S: Sink>(s: &mut S, ruleset: &Ruleset, house: &[u8], hand: &Hand, ctx: &Context) {
    s.put(b"F2");
    push_varint(s, ruleset.id.len() as u64);
    s.put(ruleset.id.as_bytes());
    push_varint(s, u64::from(ruleset.version));
    push_varint(s, house.len() as u64);
    s.put(house);
    let c = &hand.concealed_counts;
    let mut packed = [0u8; KINDS / 2];
    for (i, p) in packed.iter_mut().enumerate() {
        *p = c[2 * i].min(15) | c[2 * i + 1].min(15) << 4;
    }
    s.put(&packed);
    s.byte(hand.melds.len() as u8);
    for m in &hand.melds {
        s.put(&[
            m.tile.index() as u8,
            m.kind as u8 | u8::from(m.concealed) << 2 | u8::from(m.added) << 3,
        ]);
    }
    let wind = |w: Option<Wind>| w.map_or(4, |w| w.index() as u8);
    s.put(&[
        hand.winning_tile.map_or(255, |t| t.index() as u8),
        hand.flowers,
        ctx.win_by as u8
            | (ctx.replacement as u8) << 2
            | u8::from(ctx.double_kong) << 4
            | u8::from(ctx.last_tile) << 5
            | u8::from(ctx.heavenly) << 6
            | u8::from(ctx.earthly) << 7,
        ctx.seat_wind.index() as u8
            | (ctx.round_wind.index() as u8) << 2
            | u8::from(ctx.flower_win) << 4,
        wind(ctx.discarder),
        wind(ctx.liable),
    ]);
}

/// LEB128: seven bits a byte, low first, the top bit set on all but the last.
fn push_varint<S: Sink>(s: &mut S, mut n: u64) {
    while n >= 0x80 {
        s.byte(n as u8 | 0x80);
        n >>= 7;
    }
    s.byte(n as u8);
}

/// The house-rule part of the key (rare: only when a request sets some).
fn house_text(s: &mut String, house: &HouseRules) {
    let opt = |s: &mut String, name: &str, v: Option<String>| {
        if let Some(v) = v {
            let _ = write!(s, "{name}:{v};");
        }
    };
    opt(s, "min_faan", house.min_faan.map(|v| v.to_string()));
    opt(s, "limit", house.limit.map(|v| v.to_string()));
    opt(s, "flowers", house.flowers.map(|v| v.to_string()));
    opt(
        s,
        "points",
        house.points.as_ref().map(|p| match p {
            PointsSpec::Table(t) => format!("{t:?}"),
            other => other.name().to_string(),
        }),
    );
    opt(
        s,
        "discard_payment",
        house.discard_payment.map(|d| d.name().to_string()),
    );
    for (id, ov) in &house.patterns {
        let v = match ov {
            PatternOverride::Faan(n) => n.to_string(),
            PatternOverride::Limit => "limit".into(),
            PatternOverride::Off => "off".into(),
        };
        let _ = write!(s, "pattern:{id:?}={v};");
    }
}

pub fn hex(h: &KeyHash) -> String {
    let mut s = Vec::with_capacity(64);
    super::render::hex_into(&mut s, h);
    String::from_utf8(s).unwrap_or_default()
}

/// The bounded response cache (absent when its size is 0).
///
/// Two levels: the main cache maps the canonical key's hash to the body, so
/// the same hand in any tile order hits; in front of it, a small
/// direct-mapped table remembers the exact request bytes of recent bodies,
/// so a repeated request is answered before it is even parsed. Both hold
/// the same `Bytes` (one copy of each body) and both honour the TTL.
#[derive(Clone)]
pub struct ScoreCache {
    inner: Option<Cache<KeyHash, Bytes, BuildHasherDefault<KeyHasher>>>,
    front: Option<Arc<Front>>,
    ttl: Duration,
}

/// What an entry of the main cache costs beside its body (key, bookkeeping), in bytes.
pub const ENTRY_OVERHEAD: u64 = 96;

/// Requests longer than this are not remembered by their bytes (a score
/// request is about 250 bytes; this bounds the front's memory).
pub const FRONT_MAX_REQUEST: usize = 1024;
/// Bodies longer than this are not remembered by request bytes.
pub const FRONT_MAX_RESPONSE: usize = 8 * 1024;
/// Most slots of the front table (fewer when the cache is smaller).
pub const FRONT_SLOTS: usize = 2048;

/// The request-bytes table: slot = hash of the bytes, one entry per slot.
struct Front {
    slots: Box<[Mutex<Option<FrontEntry>>]>,
}

struct FrontEntry {
    hash: u64,
    request: Bytes,
    response: Bytes,
    at: Instant,
}

/// The main cache's hasher: its keys are SHA-256 outputs, already uniform,
/// so the first eight bytes serve (SipHash over them again was a cost of
/// every lookup).
#[derive(Clone, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // A `[u8; 32]` hashes as its length, then its bytes: keep the first eight of the longest write.
        if bytes.len() >= 8 {
            self.0 = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
        } else {
            for &b in bytes {
                self.0 = self.0.rotate_left(8) ^ u64::from(b);
            }
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl ScoreCache {
    /// A cache of at most `max_entries` bodies and `max_bytes` bytes of
    /// them (whichever comes first; either 0 disables the cache).
    ///
    /// The main cache weighs each body by its bytes plus [`ENTRY_OVERHEAD`],
    /// but at least `max_bytes / max_entries`: its total weight stays within
    /// `max_bytes`, and no more than `max_entries` bodies fit in it.
    pub fn new(max_entries: u64, max_bytes: u64, ttl: Duration) -> Self {
        let on = max_entries > 0 && max_bytes > 0;
        let floor = (max_bytes / max_entries.max(1)).min(u64::from(u32::MAX));
        let inner = on.then(|| {
            Cache::builder()
                .max_capacity(max_bytes)
                .weigher(move |_k: &KeyHash, v: &Bytes| {
                    let w = (v.len() as u64 + ENTRY_OVERHEAD).max(floor);
                    u32::try_from(w).unwrap_or(u32::MAX)
                })
                .time_to_live(ttl)
                .build_with_hasher(BuildHasherDefault::default())
        });
        let front = on.then(|| {
            let n = (max_entries.min(FRONT_SLOTS as u64) as usize).next_power_of_two();
            Arc::new(Front {
                slots: (0..n).map(|_| Mutex::new(None)).collect(),
            })
        });
        ScoreCache { inner, front, ttl }
    }

    pub fn get(&self, k: &KeyHash) -> Option<Bytes> {
        self.inner.as_ref()?.get(k)
    }

    pub fn insert(&self, k: KeyHash, body: Bytes) {
        if let Some(c) = &self.inner {
            c.insert(k, body);
        }
    }

    /// The body answered to exactly these request bytes, if remembered and fresh.
    pub fn get_by_request(&self, request: &[u8]) -> Option<Bytes> {
        let front = self.front.as_ref()?;
        if request.len() > FRONT_MAX_REQUEST {
            return None;
        }
        let h = quick_hash(request);
        let slot = front.slots[h as usize & (front.slots.len() - 1)]
            .lock()
            .ok()?;
        let e = slot.as_ref()?;
        (e.hash == h && e.request == request && e.at.elapsed() < self.ttl)
            .then(|| e.response.clone())
    }

    /// Remembers that `request` (the exact bytes) was answered with `response`.
    pub fn remember_request(&self, request: &[u8], response: &Bytes) {
        let Some(front) = &self.front else { return };
        if request.len() > FRONT_MAX_REQUEST || response.len() > FRONT_MAX_RESPONSE {
            return;
        }
        let h = quick_hash(request);
        if let Ok(mut slot) = front.slots[h as usize & (front.slots.len() - 1)].lock() {
            *slot = Some(FrontEntry {
                hash: h,
                // A copy: the request `Bytes` may be a view into a larger read buffer.
                request: Bytes::copy_from_slice(request),
                response: response.clone(),
                at: Instant::now(),
            });
        }
    }

    /// Bytes the main cache counts against its bound now (bodies plus
    /// [`ENTRY_OVERHEAD`] each, at least the per-entry floor).
    pub fn weighted_bytes(&self) -> u64 {
        match &self.inner {
            None => 0,
            Some(c) => {
                c.run_pending_tasks();
                c.weighted_size()
            }
        }
    }

    /// Entries held now (after pending maintenance).
    pub fn entries(&self) -> u64 {
        match &self.inner {
            None => 0,
            Some(c) => {
                c.run_pending_tasks();
                c.entry_count()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::hand::{self, ContextSpec, HandSpec, MeldKind, MeldSpec, WinBy};
    use crate::core::{evaluate, Registry, Wind};

    #[test]
    fn the_front_answers_exactly_the_remembered_bytes() {
        let c = ScoreCache::new(100, 1 << 20, Duration::from_secs(60));
        let req = Bytes::from_static(br#"{"ruleset":"hkma"}"#);
        let body = Bytes::from_static(b"{\"total_faan\":3}");
        assert_eq!(c.get_by_request(&req), None, "nothing remembered yet");
        c.remember_request(&req, &body);
        assert_eq!(c.get_by_request(&req), Some(body.clone()), "same bytes");
        assert_eq!(
            c.get_by_request(br#"{"ruleset":"hkma" }"#),
            None,
            "one more space"
        );
        assert_eq!(
            c.get_by_request(br#"{"ruleset":"hkmb"}"#),
            None,
            "one byte differs"
        );
        // A slot holds one request: on a collision the newest wins and the other misses.
        let slots = 128; // 100 rounded up to a power of two
        let other = (0u32..)
            .map(|i| Bytes::from(format!("{{\"n\":{i}}}")))
            .find(|b| {
                quick_hash(b) as usize % slots == quick_hash(&req) as usize % slots && *b != req
            })
            .unwrap();
        c.remember_request(&other, &Bytes::from_static(b"{}"));
        assert_eq!(c.get_by_request(&req), None, "evicted by {other:?}");
        assert_eq!(c.get_by_request(&other), Some(Bytes::from_static(b"{}")));
    }

    #[test]
    fn hashes_spread_and_keys_hash_to_their_first_bytes() {
        use std::hash::BuildHasher;
        // The corpus bodies over 2,048 slots: about as many slots as a random
        // hash fills (2048 x (1 - e^(-2448/2048)) = 1427).
        let text = include_str!("../../bench/corpus.jsonl");
        let slots: std::collections::HashSet<u64> = text
            .lines()
            .map(|l| quick_hash(l.as_bytes()) % 2048)
            .collect();
        assert!(slots.len() >= 1350, "{} slots of 2048 used", slots.len());
        // One byte apart, anywhere (also in the tail): another hash.
        let base = text.lines().next().unwrap().as_bytes().to_vec();
        for i in [0, 7, 8, base.len() / 2, base.len() - 1] {
            let mut other = base.clone();
            other[i] ^= 1;
            assert_ne!(quick_hash(&other), quick_hash(&base), "byte {i} flipped");
        }
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&0x0123_4567_89ab_cdefu64.to_le_bytes());
        key[31] = 9;
        let b = BuildHasherDefault::<KeyHasher>::default();
        assert_eq!(
            b.hash_one(key),
            0x0123_4567_89ab_cdef,
            "the key's first eight bytes"
        );
    }

    #[test]
    fn the_main_cache_holds_to_both_bounds() {
        let key = |i: u32| -> KeyHash {
            let mut k = [0u8; 32];
            k[..4].copy_from_slice(&i.to_le_bytes());
            k
        };
        // Entries: 20 at most, small bodies (each weighs the floor, 1 MiB / 20).
        let c = ScoreCache::new(20, 1 << 20, Duration::from_secs(60));
        for i in 0..200 {
            c.insert(key(i), Bytes::from_static(b"{}"));
        }
        assert!(c.entries() <= 20, "{} entries of at most 20", c.entries());
        assert!(
            c.entries() >= 10,
            "{} entries: the cache still caches",
            c.entries()
        );
        assert!(
            c.weighted_bytes() <= 1 << 20,
            "{} bytes",
            c.weighted_bytes()
        );
        // Bytes: 64 KiB of 4 KiB bodies, though 1,000 entries are allowed.
        let c = ScoreCache::new(1000, 64 << 10, Duration::from_secs(60));
        for i in 0..200 {
            c.insert(key(i), Bytes::from(vec![b' '; 4096]));
        }
        let (n, bytes) = (c.entries(), c.weighted_bytes());
        assert!(bytes <= 64 << 10, "{bytes} bytes of at most 64 KiB");
        assert!(
            (8..=15).contains(&n),
            "{n} entries of 4 KiB + {ENTRY_OVERHEAD} in 64 KiB"
        );
        assert_eq!(
            bytes,
            n * (4096 + ENTRY_OVERHEAD),
            "each weighs its body and overhead"
        );
        // Either bound at 0 turns the cache off.
        let off = ScoreCache::new(1000, 0, Duration::from_secs(60));
        off.insert(key(1), Bytes::from_static(b"{}"));
        assert_eq!((off.get(&key(1)), off.entries()), (None, 0), "max bytes 0");
    }

    #[test]
    fn the_front_holds_nothing_when_off_stale_or_large() {
        let req = Bytes::from_static(b"{}");
        let body = Bytes::from_static(b"{}");
        let off = ScoreCache::new(0, 1 << 20, Duration::from_secs(60));
        off.remember_request(&req, &body);
        assert_eq!(off.get_by_request(&req), None, "cache size 0");
        let stale = ScoreCache::new(10, 1 << 20, Duration::ZERO);
        stale.remember_request(&req, &body);
        assert_eq!(stale.get_by_request(&req), None, "TTL 0");
        let c = ScoreCache::new(10, 1 << 20, Duration::from_secs(60));
        let long = Bytes::from(vec![b' '; FRONT_MAX_REQUEST + 1]);
        c.remember_request(&long, &body);
        assert_eq!(
            c.get_by_request(&long),
            None,
            "request over {FRONT_MAX_REQUEST} bytes"
        );
        let big = Bytes::from(vec![b' '; FRONT_MAX_RESPONSE + 1]);
        c.remember_request(&req, &big);
        assert_eq!(
            c.get_by_request(&req),
            None,
            "body over {FRONT_MAX_RESPONSE} bytes"
        );
    }

    #[test]
    fn stack_key_equals_the_vec_key_and_house_rules_change_it() {
        let reg = Registry::builtin().unwrap();
        let hands = [
            (
                "123456m789p23455s",
                vec![],
                "9p",
                vec![],
                WinBy::SelfDraw,
                None,
            ),
            (
                "234m567m22p",
                vec![("pung", "777z", false), ("kong", "1111s", true)],
                "2p",
                vec!["F1", "S3"],
                WinBy::Discard,
                Some(Wind::West),
            ),
        ];
        let houses = [
            HouseRules::default(),
            HouseRules {
                min_faan: Some(0),
                limit: Some(13),
                flowers: Some(true),
                ..HouseRules::default()
            },
        ];
        for id in ["hkma", "wisteria-court", "sc-hk13"] {
            let r = reg.get(id).unwrap();
            for (tiles, melds, win, flowers, win_by, discarder) in &hands {
                let spec = HandSpec {
                    tiles: tiles.to_string(),
                    melds: melds
                        .iter()
                        .map(|(k, t, c)| MeldSpec {
                            kind: if *k == "pung" {
                                MeldKind::Pung
                            } else {
                                MeldKind::Kong
                            },
                            tiles: t.to_string(),
                            concealed: *c,
                            added: false,
                        })
                        .collect(),
                    winning_tile: Some(win.to_string()),
                    flowers: flowers.iter().map(|f| f.to_string()).collect(),
                };
                let mut ctx = ContextSpec::new(*win_by, Wind::South, Wind::East, *discarder);
                ctx.last_tile = true;
                let mut allow = evaluate::allowances(r);
                allow.bonus_tiles = true;
                let (hand, ctx) = hand::validate(&spec, &ctx, allow).expect("valid");
                let keys = houses.each_ref().map(|house| {
                    let key = canonical_key(r, house, &hand, &ctx);
                    let digest: KeyHash = Sha256::digest(&key).into();
                    assert_eq!(
                        key_hash(r, house, &hand, &ctx),
                        digest,
                        "{id} {tiles}: {key:?}"
                    );
                    key
                });
                assert_ne!(keys[0], keys[1], "{id} {tiles}: house rules are in the key");
                assert!(
                    keys[0].len() <= 55,
                    "{id} {tiles}: {} bytes, one SHA-256 block",
                    keys[0].len()
                );
            }
        }
    }

    /// The README's hand, its key worked out byte by byte from the layout.
    #[test]
    fn the_key_of_a_worked_hand() {
        let reg = Registry::builtin().unwrap();
        let r = reg.get("wisteria-court").unwrap();
        let spec = HandSpec {
            tiles: "123456m789p23455s".to_string(),
            melds: vec![],
            winning_tile: Some("9p".to_string()),
            flowers: vec![],
        };
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
        let (hand, ctx) = hand::validate(&spec, &ctx, evaluate::allowances(r)).expect("valid");
        let mut want = b"F2\x0ewisteria-court\x01\x00".to_vec();
        // Counts by index, two a byte: 1m-6m (0-5), 7p-9p (15-17), 2s-4s (19-21), 5s x2 (22).
        want.extend_from_slice(&[
            0x11, 0x11, 0x11, 0x00, 0x00, 0x00, 0x00, 0x10, 0x11, 0x10, 0x11, 0x02, 0, 0, 0, 0, 0,
        ]);
        // No melds; winning tile 9p (17); no bonus tiles; self-draw, no
        // replacement, no flags; seat south (1), round east (0); no discarder, no liable seat.
        want.extend_from_slice(&[0, 17, 0, 0, 1, 4, 4]);
        let key = canonical_key(r, &HouseRules::default(), &hand, &ctx);
        assert_eq!(key, want, "{key:?}");
        assert_eq!(
            hex(&key_hash(r, &HouseRules::default(), &hand, &ctx)),
            "4e3ace6cdd3b8c65edd07044a10528eb4b4dea9dff1fc12da98dfb71ece69b51",
            "the README's hand_hash"
        );
    }

    /// Every value of every context field (one field varied at a time), and
    /// the hands of the whole benchmark corpus: different inputs, different
    /// keys, and the stack key is the `Vec` key.
    #[test]
    fn different_inputs_never_share_a_key() {
        use crate::core::hand::Replacement;
        let reg = Registry::builtin().unwrap();
        let r = reg.get("hkma").unwrap();
        let house = HouseRules::default();
        let spec = HandSpec {
            tiles: "234m567m22p".to_string(),
            melds: vec![
                MeldSpec {
                    kind: MeldKind::Chow,
                    tiles: "789s".to_string(),
                    concealed: false,
                    added: false,
                },
                MeldSpec {
                    kind: MeldKind::Kong,
                    tiles: "1111s".to_string(),
                    concealed: false,
                    added: true,
                },
            ],
            winning_tile: Some("2p".to_string()),
            flowers: vec![],
        };
        let mut allow = evaluate::allowances(r);
        allow.bonus_tiles = true;
        let base = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
        let (hand, _) = hand::validate(&spec, &base, allow).expect("valid");
        let winds = [Wind::East, Wind::South, Wind::West, Wind::North];
        let mut contexts = vec![base];
        for w in [WinBy::SelfDraw, WinBy::Discard, WinBy::RobbingKong] {
            contexts.push(ContextSpec { win_by: w, ..base });
        }
        for w in winds {
            contexts.push(ContextSpec {
                seat_wind: w,
                ..base
            });
            contexts.push(ContextSpec {
                round_wind: w,
                ..base
            });
        }
        for w in winds.map(Some).into_iter().chain([None]) {
            contexts.push(ContextSpec {
                discarder: w,
                ..base
            });
            contexts.push(ContextSpec { liable: w, ..base });
        }
        for rep in [Replacement::None, Replacement::Kong, Replacement::Flower] {
            contexts.push(ContextSpec {
                replacement: rep,
                ..base
            });
        }
        for b in [false, true] {
            contexts.push(ContextSpec {
                double_kong: b,
                ..base
            });
            contexts.push(ContextSpec {
                last_tile: b,
                ..base
            });
            contexts.push(ContextSpec {
                heavenly: b,
                ..base
            });
            contexts.push(ContextSpec { earthly: b, ..base });
            contexts.push(ContextSpec {
                flower_win: b,
                ..base
            });
        }
        let distinct: std::collections::HashSet<ContextSpec> = contexts.iter().copied().collect();
        let keys: std::collections::HashSet<Vec<u8>> = contexts
            .iter()
            .map(|ctx| canonical_key(r, &house, &hand, ctx))
            .collect();
        assert_eq!(keys.len(), distinct.len(), "one key per context");
        assert!(distinct.len() >= 20, "{} contexts", distinct.len());

        let corpus = include_str!("../../bench/corpus.jsonl");
        let mut checked = 0;
        let mut seen = std::collections::HashMap::new();
        for line in corpus.lines().filter(|l| !l.is_empty()) {
            let req: crate::http::dto::ScoreRequest = serde_json::from_str(line).unwrap();
            let r = reg.get(&req.ruleset).unwrap();
            let house = crate::http::dto::house_rules(&req.house_rules);
            let mut allow = evaluate::allowances(r);
            allow.bonus_tiles = true;
            let Ok((hand, ctx)) =
                hand::validate(&req.hand.to_core(), &req.context.to_core(), allow)
            else {
                continue;
            };
            let key = canonical_key(r, &house, &hand, &ctx);
            let digest: KeyHash = Sha256::digest(&key).into();
            assert_eq!(key_hash(r, &house, &hand, &ctx), digest, "{line}");
            let input = (req.ruleset.clone(), hand, ctx);
            if let Some(other) = seen.insert(key, input.clone()) {
                assert_eq!(other, input, "two inputs share a key: {line}");
            }
            checked += 1;
        }
        assert!(checked >= 2000, "only {checked} corpus hands checked");
        // The corpus repeats some hands under the same ruleset and context.
        assert!(seen.len() >= 2000, "{} distinct keys", seen.len());
    }
}
