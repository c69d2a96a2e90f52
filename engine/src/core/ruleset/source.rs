//! A ruleset document's text: a file's TOML or a request's JSON into the
//! one JSON value of a document (a key repeated in JSON refused at its
//! path), and `extends` (a JSON merge patch over a built-in's canonical
//! document) before the document is read (`document`).

use super::super::pattern::{members, PatternId};
use super::canonical::TRANSLATIONS;
use super::error::{DocError, PathSeg};
use super::model::Ruleset;
use crate::core::echo::{serde_message, Echo, Quoted};
use std::fmt;

/// A ruleset file's TOML as the JSON value of a ruleset document.
pub fn toml_document(text: &str) -> Result<serde_json::Value, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| {
            text.get(..s.start)
                .map_or(1, |t| t.matches('\n').count() + 1)
        });
        let at = line.map_or(String::new(), |l| format!("line {l}: "));
        format!("{at}{}", e.message().trim())
    })?;
    serde_json::to_value(table).map_err(|e| e.to_string())
}

/// A ruleset document's JSON text as a value, refusing a key repeated in
/// any object at its path (`serde_json::Value` would keep the last one
/// silently). Any other failure is serde_json's message, at the document.
pub fn parse_document(bytes: &[u8]) -> Result<serde_json::Value, DocError> {
    use serde::de::DeserializeSeed;
    let mut repeated = None;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = Unique(&mut repeated)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    let mut doc = read.map_err(|e| match repeated {
        // Gathered leaf first while the error unwound.
        Some(mut path) => {
            path.reverse();
            let key = match path.last() {
                Some(PathSeg::Key(k)) => k.clone(),
                _ => String::new(),
            };
            DocError::new(
                path,
                format!("duplicate key {}: each key may appear once", Quoted(&key)),
            )
        }
        None => DocError::new(vec![], serde_message(&e.to_string()).into_owned()),
    })?;
    exact_stake(bytes, &mut doc)?;
    Ok(doc)
}

/// `table.stake` decided on the digits the client wrote
/// (`super::check::stake_decimal`), not on the double serde_json read: a
/// double cannot tell `0.1000000000000000000001` from `0.1`, and serde_json's
/// quick float reading may miss the nearest double by one unit. An exact
/// stake is put back as the double nearest to it, which `check::stake` takes.
fn exact_stake(bytes: &[u8], doc: &mut serde_json::Value) -> Result<(), DocError> {
    #[derive(serde::Deserialize)]
    struct Doc<'a> {
        #[serde(borrow, default)]
        table: Option<Table<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Table<'a> {
        #[serde(borrow, default)]
        stake: Option<&'a serde_json::value::RawValue>,
    }
    let Some(stake) = doc.pointer_mut("/table/stake").filter(|v| v.is_number()) else {
        return Ok(());
    };
    // Keys are each once (read above), so this is the number just read.
    let raw = serde_json::from_slice::<Doc<'_>>(bytes)
        .ok()
        .and_then(|d| d.table?.stake);
    let Some(raw) = raw else {
        return Ok(());
    };
    match super::check::stake_decimal(raw.get()) {
        Ok(s) => {
            *stake = s.as_number().into();
            Ok(())
        }
        Err(m) => Err(DocError::new(at!["table", "stake"], m)),
    }
}

/// A JSON value, its objects' keys each once; on a repeated key the path to
/// it is gathered into `.0` as the error unwinds (no path kept otherwise).
struct Unique<'p>(&'p mut Option<Vec<PathSeg>>);

impl<'de> serde::de::DeserializeSeed<'de> for Unique<'_> {
    type Value = serde_json::Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique<'_> {
    type Value = serde_json::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        loop {
            match seq.next_element_seed(Unique(&mut *self.0)) {
                Ok(Some(v)) => out.push(v),
                Ok(None) => return Ok(out.into()),
                Err(e) => {
                    if let Some(path) = self.0 {
                        path.push(PathSeg::Index(out.len()));
                    }
                    return Err(e);
                }
            }
        }
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match map.next_value_seed(Unique(&mut *self.0)) {
                Ok(_) if out.contains_key(&key) => {
                    *self.0 = Some(vec![PathSeg::Key(key)]);
                    return Err(serde::de::Error::custom("duplicate key"));
                }
                Ok(v) => {
                    out.insert(key, v);
                }
                Err(e) => {
                    if let Some(path) = self.0 {
                        path.push(PathSeg::Key(key));
                    }
                    return Err(e);
                }
            }
        }
        Ok(out.into())
    }
}

/// The defaults of a ruleset document sent without `extends`: only the
/// rules are required, not the descriptive keys.
pub const DOCUMENT_DEFAULTS: &[(&str, &str)] = &[
    ("id", "\"custom\""),
    ("name", "\"Custom ruleset\""),
    ("version", "1"),
    ("source", "[]"),
    ("summary", "\"\""),
    ("notes", "[]"),
];

/// A ruleset document sent with a request: with `"extends": "<id>"` it is
/// a JSON merge patch (RFC 7386) over that ruleset's document
/// ([`Ruleset::to_document`], found by `base`); without, the keys of
/// [`DOCUMENT_DEFAULTS`] may be left out. Then [`Ruleset::from_document`].
pub fn resolve_document(
    doc: serde_json::Value,
    base: impl FnOnce(&str) -> Option<serde_json::Value>,
) -> Result<Ruleset, Vec<DocError>> {
    let serde_json::Value::Object(mut patch) = doc else {
        return Err(vec![DocError::new(
            vec![],
            "a ruleset is an id (a string) or a ruleset document (an object)".into(),
        )]);
    };
    let full = match patch.remove("extends") {
        Some(serde_json::Value::String(id)) => match base(&id) {
            Some(mut b) => {
                // A new name without a Chinese one drops the base's: 香港麻雀協會
                // is not the name of a document that renamed HKMA's rules.
                for (key, zh) in TRANSLATIONS {
                    if patch.contains_key(*key) && !patch.contains_key(*zh) {
                        patch.insert((*zh).into(), serde_json::Value::Null);
                    }
                }
                house_contains_for_added(&b, &mut patch);
                json_patch::merge(&mut b, &serde_json::Value::Object(patch));
                b
            }
            None => {
                return Err(vec![DocError::new(
                    at!["extends"],
                    format!(
                        "no built-in ruleset {} to extend; GET /v1/rulesets lists them",
                        Quoted(&id)
                    ),
                )])
            }
        },
        Some(other) => {
            return Err(vec![DocError::new(
                at!["extends"],
                format!(
                    "extends names a built-in ruleset id (a string), got {}",
                    Echo(other)
                ),
            )])
        }
        None => {
            for (k, v) in DOCUMENT_DEFAULTS {
                if !patch.contains_key(*k) {
                    patch.insert((*k).into(), serde_json::from_str(v).unwrap_or_default());
                }
            }
            serde_json::Value::Object(patch)
        }
    };
    Ruleset::from_document(&full)
}

/// Under `extends`, a pattern the base does not score, added without a
/// `contains` key, contains what the pattern table's `house_contains` says:
/// the same pattern added by `house_rules.patterns` then scores the same
/// (the lead's reading, rulesets/README.md "Ruleset documents"). An explicit
/// `contains` (even `[]`) is kept. Anything malformed is left for
/// [`Ruleset::from_document`] to report at its path.
fn house_contains_for_added(
    base: &serde_json::Value,
    patch: &mut serde_json::Map<String, serde_json::Value>,
) {
    let Some(serde_json::Value::Object(added)) = patch.get_mut("patterns") else {
        return;
    };
    let scored = base.get("patterns").and_then(|p| p.as_object());
    for (key, table) in added.iter_mut() {
        let serde_json::Value::Object(t) = table else {
            continue;
        };
        if t.contains_key("contains") || scored.is_some_and(|s| s.contains_key(key)) {
            continue;
        }
        let Ok(id) = key.parse::<PatternId>() else {
            continue;
        };
        let ids: Vec<serde_json::Value> = members(id.info().house_contains)
            .map(|q| q.as_str().into())
            .collect();
        t.insert("contains".into(), ids.into());
    }
}
