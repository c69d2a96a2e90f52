//! A ruleset named in a request: a built-in id, or a whole
//! ruleset document in JSON with the keys of the TOML files
//! (`rulesets/README.md`), optionally `"extends": "<id>"`; the document's
//! JSON Schema (`GET /v1/rulesets/schema`, the `RulesetDocument` component).
//! `POST /v1/rulesets/validate`'s body is in [`super::validate`]: this
//! module is below the request DTOs (they name a `RulesetRef`), not beside.
//!
//! The document stays the request's own bytes (`&RawValue`): the service
//! resolves it once per distinct document (a cache keyed by those bytes),
//! so a repeated document costs a lookup, not a parse.

use crate::core::pattern::{Condition, PatternId};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::borrow::Cow;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

/// `ruleset` in a request: an id, or a ruleset document.
#[derive(Clone, Debug)]
pub enum RulesetRef<'a> {
    /// A built-in ruleset's id (`GET /v1/rulesets`).
    Id(Cow<'a, str>),
    /// A ruleset document (a JSON object), exactly as sent.
    Document(&'a RawValue),
}

impl RulesetRef<'_> {
    /// The id, when the request names one.
    pub fn id(&self) -> Option<&str> {
        match self {
            RulesetRef::Id(id) => Some(id),
            RulesetRef::Document(_) => None,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for RulesetRef<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = raw.get();
        match text.as_bytes().first() {
            // A string without escapes is borrowed as it is.
            Some(b'"') if !text.contains('\\') => Ok(RulesetRef::Id(Cow::Borrowed(
                text.get(1..text.len() - 1).unwrap_or_default(),
            ))),
            Some(b'"') => serde_json::from_str::<String>(text)
                .map(|s| RulesetRef::Id(Cow::Owned(s)))
                .map_err(de::Error::custom),
            Some(b'{') => Ok(RulesetRef::Document(raw)),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Other(text.get(..text.len().min(20)).unwrap_or_default()),
                &"a ruleset id (a string) or a ruleset document (an object)",
            )),
        }
    }
}

impl PartialSchema for RulesetRef<'_> {
    fn schema() -> RefOr<Schema> {
        schema_of(json!({
            "oneOf": [
                {"type": "string", "description": "A built-in ruleset's id (GET /v1/rulesets lists them).", "example": "hkma"},
                {"$ref": "#/components/schemas/RulesetDocument"}
            ],
            "description": "A built-in ruleset's id, or a ruleset document (its JSON Schema: GET /v1/rulesets/schema). Problems of a document are 422s pointing under `/ruleset/...`."
        }))
    }
}

impl ToSchema for RulesetRef<'_> {
    /// `RulesetDocument` is not pushed here but listed once in the
    /// document's components (`http::openapi::ApiDoc`): utoipa collects a
    /// type's schemas again for every path and type that holds it, and the
    /// ruleset document's is large, so each copy cost heap at start-up
    /// (bench/hostile.md, "Start-up memory"). The committed
    /// openapi/openapi.json test shows the document is unchanged.
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("PatternId".into(), PatternIdSchema::schema()));
    }
}

/// A whole ruleset sent with a request: its schema (the type itself is
/// `serde_json::Value` read by `core::ruleset::resolve_document`).
pub struct RulesetDocument;

impl PartialSchema for RulesetDocument {
    fn schema() -> RefOr<Schema> {
        schema_of(document_schema())
    }
}

impl ToSchema for RulesetDocument {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("PatternId".into(), PatternIdSchema::schema()));
    }
}

/// Every pattern id (the engine's table, `core::pattern::PATTERNS`).
pub struct PatternIdSchema;

impl PartialSchema for PatternIdSchema {
    fn schema() -> RefOr<Schema> {
        schema_of(json!({
            "type": "string",
            "description": "A pattern id (docs/api.md; GET /v1/rulesets/{id} shows each with its names).",
            "enum": PatternId::ALL.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
        }))
    }
}

impl ToSchema for PatternIdSchema {
    fn name() -> Cow<'static, str> {
        "PatternId".into()
    }
}

/// A JSON Schema written as JSON, as utoipa's schema type (the test
/// `document_schema_survives_utoipa` checks nothing is lost on the way).
pub(crate) fn schema_of(v: Value) -> RefOr<Schema> {
    serde_json::from_value(v).unwrap_or_else(|_| RefOr::T(Schema::default()))
}

const PATTERN_ID_REF: &str = "#/components/schemas/PatternId";

/// The ruleset document's JSON Schema, as it sits in the OpenAPI
/// components (pattern ids by `$ref` to `PatternId`). Each pattern's entry
/// lists exactly the condition keys the pattern table gives it
/// ([`Condition`], one table).
pub fn document_schema() -> Value {
    let id_ref = json!({"$ref": PATTERN_ID_REF});
    let number = |d: &str| json!({"type": "number", "minimum": 0, "maximum": 64, "multipleOf": 0.125, "description": d});
    let mut patterns = serde_json::Map::new();
    for &p in PatternId::ALL {
        let mut props = serde_json::Map::new();
        props.insert("faan".into(), json!({
            "description": "A whole number of faan (ordinary faan that stack), or \"limit\" (a limit pattern worth the ruleset's limit_faan).",
            "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["limit"]}]
        }));
        props.insert("limit".into(), json!({"type": "boolean", "description": "true with a number: a limit pattern worth that number."}));
        props.insert(
            "guide_name".into(),
            json!({"type": "string", "description": "The guide's own wording."}),
        );
        props.insert(
            "guide_name_on_discard".into(),
            json!({"type": "string", "description": "The guide's wording when won on a discard."}),
        );
        props.insert("contains".into(), json!({"type": "array", "items": id_ref, "description": "Lines this pattern includes or replaces: when it scores, they do not."}));
        props.insert(
            "note".into(),
            json!({"type": "string", "description": "Stacking note shown in the chart."}),
        );
        for &c in p.info().conditions {
            props.insert(
                c.key().into(),
                json!({"type": "boolean", "default": c.default_value(), "description": c.doc()}),
            );
        }
        patterns.insert(
            p.as_str().into(),
            json!({
                "type": ["object", "null"],
                "description": format!("{} ({}). null (with extends): not scored.", p.name(), p.name_zh()),
                "properties": props,
                "additionalProperties": false,
            }),
        );
    }
    let conditions: Vec<&str> = Condition::ALL.iter().map(|c| c.key()).collect();
    json!({
        "type": "object",
        "title": "Ruleset document",
        "description": format!("A whole ruleset: the keys of a ruleset file (rulesets/README.md) in JSON. With `extends` (a built-in id) it is a JSON merge patch (RFC 7386) over that ruleset's document: every key is optional, objects merge key by key, null removes a key, arrays replace. Without `extends`, min_faan, limit, bonus_tiles, points, payment and table are required; id defaults to \"custom\", name to \"Custom ruleset\", version to 1, source, summary and notes to empty. Condition keys of a pattern: {}.", conditions.join(", ")),
        "additionalProperties": false,
        "properties": {
            "extends": {"type": "string", "description": "A built-in ruleset id to start from.", "example": "hkma"},
            "id": {"type": "string", "pattern": "^[a-z0-9-]{1,64}$", "description": "The id the answer's `ruleset` says."},
            "name": {"type": "string"},
            "name_zh": {"type": "string", "description": "The name in Traditional Chinese (a translation of `name`; not in `ruleset_hash`). A document that changes `name` without it drops the base's."},
            "version": {"type": "integer", "minimum": 0},
            "source": {"type": "array", "items": {"type": "string"}},
            "summary": {"type": "string"},
            "notes": {"type": "array", "items": {"type": "string"}},
            "notes_zh": {"type": "array", "items": {"type": "string"}, "description": "The notes in Traditional Chinese (a translation of `notes`; not in `ruleset_hash`). A document that changes `notes` without it drops the base's."},
            "min_faan": {"type": "integer", "minimum": 0},
            "min_faan_settings": {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "The minimum settings a house rule may choose (absent or empty: any)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 64, "description": "The cap on the total faan."},
            "limit_faan": {"type": "integer", "minimum": 0, "description": "What a limit pattern with faan \"limit\" scores (default: limit; above limit is refused)."},
            "bonus_tiles": {"type": "boolean", "description": "Flowers and seasons in play by default."},
            "limits_add": {"type": "boolean", "description": "A limit pattern's value adds to the other lines and the total has no cap."},
            "limits_pay": {"type": "string", "enum": ["per_limit", "once"], "default": "per_limit", "description": "How a total above the limit (only under limits_add) pays: per_limit, each whole limit pays the limit's base points and the faan left over their own; once, the limit's base points at most."},
            "exclusive": {"type": "array", "items": {"type": "array", "items": id_ref, "minItems": 2, "maxItems": 2}, "description": "Pairs of patterns that exclude each other (the higher scoring line is kept)."},
            "points": {
                "type": "object", "additionalProperties": false,
                "description": "curve, or table (base points for 0, 1, ... faan, at least up to the limit).",
                "properties": {
                    "curve": {"type": ["string", "null"], "enum": ["full_spicy", "half_spicy", "table", null]},
                    "table": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 0}},
                    "extend_last": {"type": ["boolean", "null"], "description": "Every faan beyond the table's end scores its last entry."}
                }
            },
            "payment": {
                "type": "object", "additionalProperties": false,
                "required": ["discard", "self_draw", "robbing_kong"],
                "properties": {
                    "discard": {"type": "object", "additionalProperties": false, "required": ["discarder", "others"],
                        "properties": {"discarder": number("The discarder pays this times B."), "others": number("Each of the two others pays this times B.")}},
                    "self_draw": number("Each of the three others pays this times B."),
                    "robbing_kong": {"type": "string", "enum": ["as_discard", "adder_pays_all"]}
                }
            },
            "money": {
                "type": ["object", "null"], "additionalProperties": false, "required": ["usd_per_100_chips"],
                "properties": {"usd_per_100_chips": {"type": "number", "minimum": 0}, "bonus_chips": {"type": "integer", "minimum": 0}}
            },
            "table": {
                "type": "object", "additionalProperties": false,
                "required": ["multiple_winners", "dealer_multiplier", "liable_discard", "dealer_keeps_on_win", "dealer_keeps_on_draw"],
                "properties": {
                    "multiple_winners": {"type": "string", "enum": ["all", "head_bump"]},
                    "dealer_multiplier": {"type": "number", "minimum": 1, "maximum": 64, "multipleOf": 0.125},
                    "stake": {"type": ["number", "null"], "exclusiveMinimum": 0, "maximum": 1_000_000},
                    "liable_discard": {"type": "string", "enum": ["as_usual", "pays_all", "liable_pays"]},
                    "dealer_keeps_on_win": {"type": "boolean"},
                    "dealer_keeps_on_draw": {"type": "boolean"},
                    "co_winners_pay": {"type": "boolean"},
                    "false_win": super::request::FalseWinDto::json()
                }
            },
            "patterns": {
                "type": "object",
                "description": "One entry per pattern the ruleset scores; a pattern not listed is not scored.",
                "properties": patterns,
                "additionalProperties": false
            }
        }
    })
}

/// `GET /v1/rulesets/schema`: [`document_schema`] as a standalone JSON
/// Schema (2020-12): the `PatternId` component under `$defs`.
pub fn standalone_schema() -> Value {
    let text = document_schema()
        .to_string()
        .replace(PATTERN_ID_REF, "#/$defs/PatternId");
    let mut v: Value = serde_json::from_str(&text).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "$schema".into(),
            "https://json-schema.org/draft/2020-12/schema".into(),
        );
        let id = serde_json::to_value(PatternIdSchema::schema()).unwrap_or_default();
        o.insert("$defs".into(), json!({ "PatternId": id }));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn document_schema_survives_utoipa() {
        for (name, v) in [
            ("RulesetDocument", document_schema()),
            (
                "PatternId",
                serde_json::to_value(PatternIdSchema::schema()).unwrap(),
            ),
        ] {
            let through: Value = serde_json::to_value(schema_of(v.clone())).unwrap();
            assert!(
                through == v,
                "case {name}: utoipa keeps every keyword: {}",
                first_difference(&v, &through)
            );
        }
    }

    /// The fields serde's `deny_unknown_fields` names for the object at
    /// `at` of a document: an unknown key is put there and the refusal's
    /// "expected one of `a`, `b`" read back (RawRuleset and its parts are
    /// the document as the core reads it).
    fn raw_fields(base: &Value, at: &[&str]) -> BTreeSet<String> {
        let mut doc = base.clone();
        let mut o = &mut doc;
        for k in at {
            o = &mut o[*k];
        }
        o.as_object_mut()
            .unwrap_or_else(|| panic!("{at:?}: an object"))
            .insert("__probe".into(), json!(1));
        let errs = match crate::core::Ruleset::from_document(&doc) {
            Ok(_) => panic!("{at:?}: an unknown key is refused"),
            Err(errs) => errs,
        };
        let message = errs
            .iter()
            .map(|e| e.message.as_str())
            .find(|m| m.contains("unknown field `__probe`"))
            .unwrap_or_else(|| panic!("{at:?}: no unknown-field refusal in {errs:?}"));
        let expected = message.split_once("expected").map_or("", |(_, rest)| rest);
        expected
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    fn schema_fields(schema: &Value, at: &[&str]) -> BTreeSet<String> {
        let mut o = schema;
        for k in at {
            o = &o["properties"][*k];
        }
        o["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{at:?}: properties in the schema"))
            .keys()
            .cloned()
            .collect()
    }

    /// The hand-written schema and the typed document (`RawRuleset`) name
    /// the same keys at every level, on every built-in ruleset's document:
    /// a key in one and not the other fails here. `extends` is the one key
    /// the schema has and `RawRuleset` does not: the merge removes it first
    /// (`core::ruleset::resolve_document`). A pattern's keys are its
    /// shape's and the conditions the pattern table gives it.
    #[test]
    fn document_schema_names_the_keys_of_the_typed_document() {
        let schema = document_schema();
        let registry = crate::core::Registry::builtin().unwrap();
        for r in registry.all() {
            let doc = r.to_document();
            for at in [
                &[][..],
                &["points"],
                &["payment"],
                &["payment", "discard"],
                &["table"],
            ] {
                let mut want = schema_fields(&schema, at);
                if at.is_empty() {
                    assert!(want.remove("extends"), "case {}: extends", r.id());
                }
                assert_eq!(raw_fields(&doc, at), want, "case {} at {at:?}", r.id());
            }
            if doc.get("money").is_some_and(Value::is_object) {
                assert_eq!(
                    raw_fields(&doc, &["money"]),
                    schema_fields(&schema, &["money"]),
                    "case {} at money",
                    r.id()
                );
            }
            for (key, _) in doc["patterns"].as_object().unwrap() {
                let id: PatternId = key.parse().unwrap();
                let mut got = raw_fields(&doc, &["patterns", key]);
                got.extend(id.info().conditions.iter().map(|c| c.key().to_string()));
                assert_eq!(
                    got,
                    schema_fields(&schema, &["patterns", key]),
                    "case {} at patterns/{key}",
                    r.id()
                );
            }
            // And every key the document holds has its place in the schema.
            keys_in_schema(&doc, &schema, &mut String::new(), r.id());
        }
    }

    fn keys_in_schema(doc: &Value, schema: &Value, at: &mut String, case: &str) {
        let Value::Object(o) = doc else { return };
        let Some(props) = schema["properties"].as_object() else {
            return;
        };
        for (k, v) in o {
            let s = props
                .get(k)
                .unwrap_or_else(|| panic!("case {case}: {at}/{k} is not in the schema"));
            let len = at.len();
            at.push('/');
            at.push_str(k);
            keys_in_schema(v, s, at, case);
            at.truncate(len);
        }
    }

    /// Where two JSON values first differ (a pointer), for a short message.
    fn first_difference(a: &Value, b: &Value) -> String {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for k in x.keys().chain(y.keys()) {
                    match (x.get(k), y.get(k)) {
                        (Some(p), Some(q)) if p == q => {}
                        (Some(p), Some(q)) => return format!("/{k}{}", first_difference(p, q)),
                        _ => return format!("/{k} only on one side"),
                    }
                }
                String::new()
            }
            _ => format!(": {a:.80} != {b:.80}"),
        }
    }

    #[test]
    fn a_ruleset_is_an_id_or_a_document() {
        #[derive(Deserialize)]
        struct B<'a> {
            #[serde(borrow)]
            ruleset: RulesetRef<'a>,
        }
        let id = |text: &str| match serde_json::from_str::<B>(text).map(|b| b.ruleset) {
            Ok(RulesetRef::Id(id)) => Ok(id.into_owned()),
            Ok(RulesetRef::Document(d)) => Err(format!("document {}", d.get())),
            Err(e) => Err(e.to_string()),
        };
        assert_eq!(id(r#"{"ruleset": "hkma"}"#), Ok("hkma".into()), "case: id");
        assert_eq!(
            id(r#"{"ruleset": "hk\u006da"}"#),
            Ok("hkma".into()),
            "case: escaped id"
        );
        assert_eq!(
            id(r#"{"ruleset": {"extends": "hkma"}}"#),
            Err(r#"document {"extends": "hkma"}"#.into()),
            "case: document"
        );
        assert!(id(r#"{"ruleset": 7}"#).is_err(), "case: a number");
        assert!(id(r#"{"ruleset": ["hkma"]}"#).is_err(), "case: a list");
    }
}
