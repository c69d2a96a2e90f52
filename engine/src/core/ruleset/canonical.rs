//! The canonical document of a ruleset (every key written, defaults too),
//! its bytes and `ruleset_hash`; the translations, the notes and the
//! guides cited, kept out of the hash.

use super::super::pattern::{members, Condition, PatternId};
use super::model::{FalseWin, LimitsPay, PointsSpec, Rules, Ruleset, Value};
use sha2::{Digest, Sha256};

/// Keys that translate another key of the document, each beside the key it
/// translates: shown on the Chinese page, never part of `ruleset_hash` (a
/// translation changes no answer, so every built-in kept its hash when it
/// gained one), and dropped under `extends` when the document gives the key
/// it translates without it (a renamed ruleset is not the base's 香港麻雀協會).
/// A new translation is a field of `About` and `RawRuleset`, a line of
/// [`document`] and an entry here.
pub const TRANSLATIONS: &[(&str, &str)] = &[("name", "name_zh"), ("notes", "notes_zh")];

impl Ruleset {
    /// The ruleset as a ruleset document with every key written (defaults
    /// too): its canonical form. [`Ruleset::from_document`] reads it back to
    /// this same ruleset; `hash` is the SHA-256 of its canonical bytes
    /// ([`canonical_bytes`]; the definition is in `rulesets/README.md`).
    pub fn to_document(&self) -> serde_json::Value {
        document(self.rules())
    }
}

/// Keys of the canonical document that change no score and no payment,
/// left out of `ruleset_hash` (so a client that pins a ruleset by its hash
/// keeps it when its prose changes): the notes and the guides cited,
/// beside the translations.
pub const UNHASHED: &[&str] = &["notes", "source"];

/// `ruleset_hash` of rules: SHA-256 of the canonical bytes of their document
/// less its [`TRANSLATIONS`] and [`UNHASHED`] keys.
pub(super) fn hash(rules: &Rules) -> [u8; 32] {
    let mut doc = document(rules);
    if let Some(m) = doc.as_object_mut() {
        for key in TRANSLATIONS.iter().map(|(_, zh)| zh).chain(UNHASHED) {
            m.remove(*key);
        }
    }
    Sha256::digest(canonical_bytes(&doc)).into()
}

/// The canonical bytes of a ruleset document: serde_json's compact writer,
/// object keys in byte order (serde_json's map without `preserve_order`).
pub fn canonical_bytes(doc: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(doc).unwrap_or_default()
}

/// A number as the canonical document writes it: whole numbers as integers.
fn num(v: f64) -> serde_json::Value {
    if v.fract() == 0.0 && v.abs() < 9e15 {
        (v as i64).into()
    } else {
        v.into()
    }
}

/// The canonical document of `r`.
fn document(r: &Rules) -> serde_json::Value {
    use serde_json::{json, Map};
    let about = &r.about;
    let x = |eighths: u32| num(f64::from(eighths) / 8.0);
    let points = match &r.points {
        PointsSpec::FullSpicy => json!({"curve": "full_spicy"}),
        PointsSpec::HalfSpicy => json!({"curve": "half_spicy"}),
        PointsSpec::Table(t) => json!({"table": t}),
        PointsSpec::TableThenLast(t) => json!({"table": t, "extend_last": true}),
    };
    let mut table = json!({
        "multiple_winners": r.table.multiple_winners.name(),
        "dealer_multiplier": x(r.table.dealer_multiplier),
        "liable_discard": r.table.liable_discard.name(),
        "dealer_keeps_on_win": r.table.dealer_keeps_on_win,
        "dealer_keeps_on_draw": r.table.dealer_keeps_on_draw,
    });
    if let Some(s) = r.table.stake {
        table["stake"] = num(s.as_number());
    }
    // Written only when set, so every ruleset_hash from before it stays.
    if r.table.co_winners_pay {
        table["co_winners_pay"] = true.into();
    }
    if r.table.false_win != FalseWin::Minimum {
        table["false_win"] = serde_json::to_value(r.table.false_win).unwrap_or_default();
    }
    let mut patterns = Map::new();
    for p in r.patterns.iter() {
        let mut m = Map::new();
        match p.value {
            Value::Faan(n) => m.insert("faan".into(), n.into()),
            Value::Limit(None) => m.insert("faan".into(), "limit".into()),
            Value::Limit(Some(n)) => {
                m.insert("limit".into(), true.into());
                m.insert("faan".into(), n.into())
            }
        };
        let contains: Vec<&str> = members(p.contains).map(PatternId::as_str).collect();
        m.insert("contains".into(), contains.into());
        for &c in p.id.info().conditions {
            // Written only when set, so every ruleset_hash from before it stays.
            if c == Condition::ScoresTheDraw && !p.conditions.get(c) {
                continue;
            }
            m.insert(c.key().into(), p.conditions.get(c).into());
        }
        for (k, v) in [
            ("guide_name", &p.guide_name),
            ("guide_name_on_discard", &p.guide_name_on_discard),
            ("note", &p.note),
        ] {
            if let Some(v) = v {
                m.insert(k.into(), (**v).into());
            }
        }
        patterns.insert(p.id.as_str().into(), serde_json::Value::Object(m));
    }
    let mut doc = json!({
        "id": about.id,
        "name": about.name,
        "version": about.version,
        "source": about.source,
        "summary": about.summary,
        "notes": about.notes,
        "min_faan": r.min_faan,
        "min_faan_settings": about.min_faan_settings,
        "limit": r.limit,
        "limit_faan": r.limit_faan,
        "bonus_tiles": r.bonus_tiles,
        "limits_add": r.limits_add,
        "exclusive": r.exclusive.iter().map(|(a, b)| [a.as_str(), b.as_str()]).collect::<Vec<_>>(),
        "points": points,
        "payment": {
            "discard": {"discarder": x(r.payment.discarder), "others": x(r.payment.others)},
            "self_draw": x(r.payment.self_draw),
            "robbing_kong": r.payment.robbing_kong.name(),
        },
        "table": table,
        "patterns": patterns,
    });
    // Written only when not the default (as `stake`): every built-in's
    // hash stays what it was.
    if r.limits_pay != LimitsPay::default() {
        doc["limits_pay"] = r.limits_pay.name().into();
    }
    // The translations (`TRANSLATIONS`), only when given.
    if let Some(n) = &about.name_zh {
        doc["name_zh"] = n.as_str().into();
    }
    if let Some(n) = &about.notes_zh {
        doc["notes_zh"] = n.clone().into();
    }
    if let Some(m) = r.money {
        doc["money"] = json!({
            "usd_per_100_chips": num(f64::from(m.cents_per_100_chips) / 100.0),
            "bonus_chips": m.bonus_chips,
        });
    }
    doc
}
