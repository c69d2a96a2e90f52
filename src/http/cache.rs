//! The score cache: serialised response bodies keyed by the canonical form
//! of (ruleset id and version, house rules, validated hand, context).
//!
//! The key is computed after validation (the core's `Hand` is sorted, so
//! tile order in the request does not matter) and before scoring. Its
//! SHA-256 is the response's `hand_hash`: stable across restarts and builds.

use crate::core::hand::{Context, Hand};
use crate::core::tile::Bonus;
use crate::core::{HouseRules, PatternOverride, PointsSpec, Ruleset};
use actix_web::web::Bytes;
use moka::sync::Cache;
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::time::Duration;

/// SHA-256 of a canonical key.
pub type KeyHash = [u8; 32];

/// The canonical text of everything that decides a score.
pub fn canonical_key(ruleset: &Ruleset, house: &HouseRules, hand: &Hand, ctx: &Context) -> String {
    let mut s = String::with_capacity(256);
    let _ = write!(
        s,
        "faan-v1|ruleset={}@{}|house=",
        ruleset.id, ruleset.version
    );
    let opt = |s: &mut String, name: &str, v: Option<String>| {
        if let Some(v) = v {
            let _ = write!(s, "{name}:{v};");
        }
    };
    opt(&mut s, "min_faan", house.min_faan.map(|v| v.to_string()));
    opt(&mut s, "limit", house.limit.map(|v| v.to_string()));
    opt(&mut s, "flowers", house.flowers.map(|v| v.to_string()));
    opt(
        &mut s,
        "points",
        house.points.as_ref().map(|p| match p {
            PointsSpec::Table(t) => format!("{t:?}"),
            other => other.name().to_string(),
        }),
    );
    opt(
        &mut s,
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
    s.push_str("|hand=");
    for t in &hand.concealed {
        let _ = write!(s, "{t}");
    }
    s.push_str("|melds=");
    for m in &hand.melds {
        let _ = write!(
            s,
            "{}:{}:{}:{};",
            m.kind.name(),
            m.tile,
            m.concealed,
            m.added
        );
    }
    let _ = write!(
        s,
        "|win={}",
        hand.winning_tile.map(|t| t.to_string()).unwrap_or_default()
    );
    s.push_str("|flowers=");
    for b in (0..8)
        .filter_map(Bonus::from_index)
        .filter(|b| hand.has_bonus(*b))
    {
        let _ = write!(s, "{b}");
    }
    let w = |w: Option<crate::core::Wind>| w.map_or("-", |w| w.name());
    let _ = write!(
        s,
        "|ctx={}:{}:{}:{}:{:?}:{}:{}:{}:{}:{}:{}",
        ctx.win_by.name(),
        ctx.seat_wind.name(),
        ctx.round_wind.name(),
        w(ctx.discarder),
        ctx.replacement,
        ctx.double_kong,
        ctx.last_tile,
        ctx.heavenly,
        ctx.earthly,
        w(ctx.liable),
        ctx.flower_win,
    );
    s
}

pub fn hash(key: &str) -> KeyHash {
    Sha256::digest(key.as_bytes()).into()
}

pub fn hex(h: &KeyHash) -> String {
    let mut s = String::with_capacity(64);
    for b in h {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The bounded response cache (absent when its size is 0).
#[derive(Clone)]
pub struct ScoreCache {
    inner: Option<Cache<KeyHash, Bytes>>,
}

impl ScoreCache {
    pub fn new(max_entries: u64, ttl: Duration) -> Self {
        let inner = (max_entries > 0).then(|| {
            Cache::builder()
                .max_capacity(max_entries)
                .time_to_live(ttl)
                .build()
        });
        ScoreCache { inner }
    }

    pub fn get(&self, k: &KeyHash) -> Option<Bytes> {
        self.inner.as_ref()?.get(k)
    }

    pub fn insert(&self, k: KeyHash, body: Bytes) {
        if let Some(c) = &self.inner {
            c.insert(k, body);
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
