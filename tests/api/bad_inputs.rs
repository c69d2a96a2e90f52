//! The bad-input catalogue: malformed and hostile requests, each answered
//! quickly with the right status, problem type and JSON pointer, and the
//! server still healthy afterwards.

use crate::helpers::spawn_app;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn good() -> Value {
    json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

/// `good()` with the value at `path` replaced.
fn with(path: &[&str], value: Value) -> Vec<u8> {
    let mut v = good();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at[path[path.len() - 1]] = value;
    serde_json::to_vec(&v).unwrap()
}

/// `good()` without the field at `path`.
fn without(path: &[&str]) -> Vec<u8> {
    let mut v = good();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at.as_object_mut().unwrap().remove(path[path.len() - 1]);
    serde_json::to_vec(&v).unwrap()
}

fn bytes(v: Value) -> Vec<u8> {
    serde_json::to_vec(&v).unwrap()
}

fn nested(open: &str, close: &str, n: usize) -> Vec<u8> {
    format!("{}{}", open.repeat(n), close.repeat(n)).into_bytes()
}

struct Case {
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    status: u16,
    ty: &'static str,
    pointer: Option<&'static str>,
}

const JSON: Option<&str> = Some("application/json");
const MALFORMED: &str = "/problems/malformed-json";
const INVALID: &str = "/problems/invalid-request";

fn case(
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
    status: u16,
    ty: &'static str,
    pointer: Option<&'static str>,
) -> Case {
    Case {
        name,
        path,
        body,
        content_type: JSON,
        status,
        ty,
        pointer,
    }
}

fn catalogue() -> Vec<Case> {
    let score = "/v1/score";
    let batch = "/v1/score/batch";
    let mut good_then = serde_json::to_vec(&good()).unwrap();
    good_then.extend_from_slice(b" {}");
    let mut bad_utf8 = br#"{"ruleset": ""#.to_vec();
    bad_utf8.extend_from_slice(&[0xff, 0xfe, 0xfd]);
    bad_utf8.extend_from_slice(br#"", "hand": {"tiles": "1m"}, "context": {}}"#);
    let mut bom = vec![0xef, 0xbb, 0xbf];
    bom.extend_from_slice(&serde_json::to_vec(&good()).unwrap());
    let over_batch: Vec<Value> = (0..1001).map(|_| json!({})).collect();
    let big_batch = json!({"requests": [{"pad": "x".repeat(1024 * 1024)}]});
    vec![
        // --- not JSON, or not a JSON object
        case("empty body", score, vec![], 400, MALFORMED, None),
        case(
            "whitespace only",
            score,
            b"   \n ".to_vec(),
            400,
            MALFORMED,
            None,
        ),
        case(
            "truncated object",
            score,
            br#"{"ruleset": "hkma", "hand": {"#.to_vec(),
            400,
            MALFORMED,
            None,
        ),
        case(
            "trailing data after the object",
            score,
            good_then,
            400,
            MALFORMED,
            None,
        ),
        case(
            "single quotes",
            score,
            b"{'ruleset': 'hkma'}".to_vec(),
            400,
            MALFORMED,
            None,
        ),
        case(
            "non-UTF-8 bytes in a string",
            score,
            bad_utf8,
            400,
            MALFORMED,
            None,
        ),
        case(
            "raw binary body",
            score,
            vec![0x00, 0x9f, 0x92, 0x96, 0xff, 0x01],
            400,
            MALFORMED,
            None,
        ),
        case("UTF-8 byte order mark", score, bom, 400, MALFORMED, None),
        case(
            "lone surrogate escape",
            score,
            br#"{"ruleset": "\ud800", "hand": {"tiles": "1m"}, "context": {}}"#.to_vec(),
            400,
            MALFORMED,
            None,
        ),
        case(
            "number too large for JSON",
            score,
            br#"{"ruleset": "hkma", "house_rules": {"min_faan": 1e400}}"#.to_vec(),
            400,
            MALFORMED,
            None,
        ),
        case(
            "top-level null",
            score,
            b"null".to_vec(),
            422,
            INVALID,
            None,
        ),
        case("top-level array", score, b"[]".to_vec(), 422, INVALID, None),
        case(
            "top-level number",
            score,
            b"42".to_vec(),
            422,
            INVALID,
            None,
        ),
        case(
            "top-level string",
            score,
            br#""hkma""#.to_vec(),
            422,
            INVALID,
            None,
        ),
        case(
            "top-level boolean",
            score,
            b"true".to_vec(),
            422,
            INVALID,
            None,
        ),
        // --- nesting
        case(
            "30k nested arrays (score)",
            score,
            nested("[", "]", 30_000),
            400,
            MALFORMED,
            None,
        ),
        case(
            "100k nested arrays (batch)",
            batch,
            nested("[", "]", 100_000),
            400,
            MALFORMED,
            None,
        ),
        case(
            "100k nested objects in a batch item",
            batch,
            [
                b"{\"requests\": [".to_vec(),
                "{\"a\":".repeat(100_000).into_bytes(),
                b"1".to_vec(),
                "}".repeat(100_000).into_bytes(),
                b"]}".to_vec(),
            ]
            .concat(),
            400,
            MALFORMED,
            None,
        ),
        case(
            "nesting just over the limit in a field",
            score,
            with(
                &["hand", "tiles"],
                serde_json::from_slice(&nested("[", "]", 40)).unwrap(),
            ),
            400,
            MALFORMED,
            None,
        ),
        case(
            "nesting under the limit, wrong type",
            score,
            with(
                &["hand", "tiles"],
                serde_json::from_slice(&nested("[", "]", 10)).unwrap(),
            ),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        // --- content type and size
        case_ct(
            "text/plain content type",
            score,
            serde_json::to_vec(&good()).unwrap(),
            Some("text/plain"),
            415,
            "/problems/unsupported-media-type",
        ),
        case_ct(
            "no content type",
            score,
            serde_json::to_vec(&good()).unwrap(),
            None,
            415,
            "/problems/unsupported-media-type",
        ),
        case_ct(
            "XML content type",
            score,
            b"<hand/>".to_vec(),
            Some("application/xml"),
            415,
            "/problems/unsupported-media-type",
        ),
        case_ct(
            "form content type",
            batch,
            b"requests=1".to_vec(),
            Some("application/x-www-form-urlencoded"),
            415,
            "/problems/unsupported-media-type",
        ),
        case(
            "score body over 64 KiB",
            score,
            with(&["hand", "tiles"], json!(" ".repeat(70 * 1024))),
            413,
            "/problems/payload-too-large",
            None,
        ),
        case(
            "batch body over 1 MiB",
            batch,
            bytes(big_batch),
            413,
            "/problems/payload-too-large",
            None,
        ),
        // --- fields: missing, unknown, wrong type
        case(
            "missing ruleset",
            score,
            without(&["ruleset"]),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "missing hand",
            score,
            without(&["hand"]),
            422,
            INVALID,
            Some("/hand"),
        ),
        case(
            "missing context",
            score,
            without(&["context"]),
            422,
            INVALID,
            Some("/context"),
        ),
        case(
            "missing tiles",
            score,
            without(&["hand", "tiles"]),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "missing win_by",
            score,
            without(&["context", "win_by"]),
            422,
            INVALID,
            Some("/context/win_by"),
        ),
        case(
            "unknown top-level field",
            score,
            with(&["bogus"], json!(1)),
            422,
            INVALID,
            Some("/bogus"),
        ),
        case(
            "unknown hand field",
            score,
            with(&["hand", "colour"], json!("red")),
            422,
            INVALID,
            Some("/hand/colour"),
        ),
        case(
            "unknown context field",
            score,
            with(&["context", "riichi"], json!(true)),
            422,
            INVALID,
            Some("/context/riichi"),
        ),
        case(
            "ruleset is a number",
            score,
            with(&["ruleset"], json!(7)),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "tiles is an array",
            score,
            with(&["hand", "tiles"], json!(["1m", "2m"])),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "melds is an object",
            score,
            with(&["hand", "melds"], json!({"kind": "pung"})),
            422,
            INVALID,
            Some("/hand/melds"),
        ),
        case(
            "seat wind is a number",
            score,
            with(&["context", "seat_wind"], json!(2)),
            422,
            INVALID,
            Some("/context/seat_wind"),
        ),
        case(
            "double_kong is a string",
            score,
            with(&["context", "double_kong"], json!("yes")),
            422,
            INVALID,
            Some("/context/double_kong"),
        ),
        case(
            "unknown win_by",
            score,
            with(&["context", "win_by"], json!("tsumo")),
            422,
            INVALID,
            Some("/context/win_by"),
        ),
        case(
            "unknown meld kind",
            score,
            with(
                &["hand", "melds"],
                json!([{"kind": "quad", "tiles": "1111m"}]),
            ),
            422,
            INVALID,
            Some("/hand/melds/0/kind"),
        ),
        case(
            "unknown meld field",
            score,
            with(
                &["hand", "melds"],
                json!([{"kind": "pung", "tiles": "111m", "colour": 1}]),
            ),
            422,
            INVALID,
            Some("/hand/melds/0/colour"),
        ),
        // --- tiles and counts
        case(
            "unknown ruleset",
            score,
            with(&["ruleset"], json!("riichi")),
            404,
            "/problems/unknown-ruleset",
            Some("/ruleset"),
        ),
        case(
            "empty ruleset id",
            score,
            with(&["ruleset"], json!("")),
            404,
            "/problems/unknown-ruleset",
            Some("/ruleset"),
        ),
        case(
            "ruleset with a NUL escape",
            score,
            with(&["ruleset"], json!("hkma\u{0}")),
            404,
            "/problems/unknown-ruleset",
            Some("/ruleset"),
        ),
        case(
            "60k digits of tiles",
            score,
            with(&["hand", "tiles"], json!("1".repeat(60_000))),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "60k-digit suited run",
            score,
            with(&["hand", "tiles"], json!("1".repeat(60_000) + "m")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "tile 0m",
            score,
            with(&["hand", "tiles"], json!("023456m789p23455s")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "tile 8z",
            score,
            with(&["hand", "tiles"], json!("123456m789p2345s8z")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "unknown suit letter",
            score,
            with(&["hand", "tiles"], json!("123456m789p2345x5s")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "emoji in tiles",
            score,
            with(&["hand", "tiles"], json!("123456m789p2345s😀")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "five of one tile",
            score,
            with(&["hand", "tiles"], json!("11111m456m789p234s")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "too few tiles",
            score,
            with(&["hand", "tiles"], json!("123m9p")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "too many tiles",
            score,
            with(&["hand", "tiles"], json!("123456m789p23455s1z")),
            422,
            INVALID,
            Some("/hand/tiles"),
        ),
        case(
            "winning tile not in the hand",
            score,
            with(&["hand", "winning_tile"], json!("7z")),
            422,
            INVALID,
            Some("/hand/winning_tile"),
        ),
        case(
            "winning tile 9z",
            score,
            with(&["hand", "winning_tile"], json!("9z")),
            422,
            INVALID,
            Some("/hand/winning_tile"),
        ),
        case(
            "1000 kongs",
            score,
            with(
                &["hand", "melds"],
                json!(vec![json!({"kind": "kong", "tiles": "1111m"}); 1000]),
            ),
            422,
            INVALID,
            None,
        ),
        case(
            "chow that is not a run",
            score,
            with(
                &["hand", "melds"],
                json!([{"kind": "chow", "tiles": "135m"}]),
            ),
            422,
            INVALID,
            Some("/hand/melds/0/tiles"),
        ),
        case(
            "flower F9",
            score,
            with(&["hand", "flowers"], json!(["F9"])),
            422,
            INVALID,
            Some("/hand/flowers/0"),
        ),
        case(
            "5000 flowers",
            score,
            with(&["hand", "flowers"], json!(vec!["F1"; 5000])),
            422,
            INVALID,
            None,
        ),
        case(
            "not a winning hand",
            score,
            with(&["hand", "tiles"], json!("123456m789p23459s")),
            422,
            "/problems/not-a-winning-hand",
            Some("/hand/tiles"),
        ),
        // --- contradictory context
        case(
            "discarder on a self-draw",
            score,
            with(&["context", "discarder"], json!("west")),
            422,
            INVALID,
            Some("/context/discarder"),
        ),
        case(
            "discard with no discarder",
            score,
            with(&["context", "win_by"], json!("discard")),
            422,
            INVALID,
            Some("/context/discarder"),
        ),
        case(
            "winner discarded to itself",
            score,
            bytes(json!({"ruleset": "wisteria-court",
            "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
            "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "south"}})),
            422,
            INVALID,
            Some("/context/discarder"),
        ),
        // --- house rules
        case(
            "negative house minimum",
            score,
            with(&["house_rules"], json!({"min_faan": -1})),
            422,
            INVALID,
            Some("/house_rules/min_faan"),
        ),
        case(
            "huge house limit",
            score,
            with(
                &["house_rules"],
                json!({"limit": 99_999_999_999_999_999u64}),
            ),
            422,
            INVALID,
            Some("/house_rules/limit"),
        ),
        case(
            "negative base points",
            score,
            with(&["house_rules"], json!({"points": [-1, 2, 4]})),
            422,
            INVALID,
            Some("/house_rules/points"),
        ),
        case(
            "unknown points curve",
            score,
            with(&["house_rules"], json!({"points": "quarter_spicy"})),
            422,
            INVALID,
            Some("/house_rules/points"),
        ),
        case(
            "unknown pattern id",
            score,
            with(&["house_rules"], json!({"patterns": {"riichi": 1}})),
            422,
            INVALID,
            Some("/house_rules/patterns/riichi"),
        ),
        case(
            "negative pattern faan",
            score,
            with(&["house_rules"], json!({"patterns": {"all_chows": -3}})),
            422,
            INVALID,
            Some("/house_rules/patterns/all_chows"),
        ),
        case(
            "unknown discard payment",
            score,
            with(&["house_rules"], json!({"discard_payment": "nobody_pays"})),
            422,
            INVALID,
            Some("/house_rules/discard_payment"),
        ),
        case(
            "unknown limits_pay house rule",
            score,
            with(
                &["house_rules"],
                json!({"limits_add": true, "limits_pay": "twice"}),
            ),
            422,
            INVALID,
            Some("/house_rules/limits_pay"),
        ),
        case(
            "house rules is a string",
            score,
            with(&["house_rules"], json!("none")),
            422,
            INVALID,
            Some("/house_rules"),
        ),
        case(
            "win_by is a list",
            score,
            with(&["context", "win_by"], json!(["discard"])),
            422,
            INVALID,
            Some("/context/win_by"),
        ),
        // --- batch, compare, waits, false win
        case(
            "batch over the limit",
            batch,
            bytes(json!({"requests": over_batch})),
            422,
            "/problems/batch-too-large",
            Some("/requests"),
        ),
        case(
            "batch requests not a list",
            batch,
            bytes(json!({"requests": {"a": 1}})),
            422,
            INVALID,
            Some("/requests"),
        ),
        case(
            "batch with no requests field",
            batch,
            bytes(json!({})),
            422,
            INVALID,
            Some("/requests"),
        ),
        case(
            "compare rulesets is a number",
            "/v1/compare",
            bytes(json!({"rulesets": 3,
            "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})),
            422,
            INVALID,
            Some("/rulesets"),
        ),
        case(
            "compare rulesets is another word",
            "/v1/compare",
            bytes(json!({"rulesets": "some",
            "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})),
            422,
            INVALID,
            Some("/rulesets"),
        ),
        case(
            "waits with a winning tile",
            "/v1/waits",
            bytes(json!({"ruleset": "hkma",
            "hand": {"tiles": "1112345678999m", "winning_tile": "1m"},
            "context": {"seat_wind": "south", "round_wind": "east"}})),
            422,
            INVALID,
            None,
        ),
        case(
            "false win with an unknown seat",
            "/v1/penalties/false-win",
            bytes(json!({"ruleset": "hkma", "offender": "centre"})),
            422,
            INVALID,
            Some("/offender"),
        ),
        // --- arrays where objects belong (serde's derive would read them by position)
        case(
            "house rules as an array",
            score,
            with(&["house_rules"], json!([1])),
            422,
            INVALID,
            Some("/house_rules"),
        ),
        case(
            "hand as an array",
            score,
            with(&["hand"], json!(["234m567m345p22s789s", [], "2s"])),
            422,
            INVALID,
            Some("/hand"),
        ),
        case(
            "a meld as an array",
            score,
            with(&["hand", "melds"], json!([["pung", "777z"]])),
            422,
            INVALID,
            Some("/hand/melds/0"),
        ),
        case(
            "the whole request as an array",
            score,
            bytes(json!(["hkma", {"tiles": "234m567m345p22s789s"}, {}])),
            422,
            INVALID,
            Some(""),
        ),
        case(
            "ruleset document: an unknown key",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "colour": "red"}),
            ),
            422,
            INVALID,
            Some("/ruleset/colour"),
        ),
        case(
            "ruleset document: a negative faan",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_simples": {"faan": -1}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_simples/faan"),
        ),
        case(
            "ruleset document: a fractional faan",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"faan": 1.5}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/faan"),
        ),
        case(
            "ruleset document: an unknown extends",
            score,
            with(&["ruleset"], json!({"extends": "riichi"})),
            422,
            INVALID,
            Some("/ruleset/extends"),
        ),
        case(
            "ruleset document: extends not a string",
            score,
            with(&["ruleset"], json!({"extends": ["hkma"]})),
            422,
            INVALID,
            Some("/ruleset/extends"),
        ),
        case(
            "ruleset document: a contains loop",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"contains": ["self_draw"]}, "self_draw": {"contains": ["all_chows"]}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/contains"),
        ),
        case(
            "ruleset document: a pattern id that does not exist",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"ping_wu": {"faan": 1}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/ping_wu"),
        ),
        case(
            "ruleset document: contains an unknown id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"contains": ["self_draw", "ping_wu"]}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/contains/1"),
        ),
        case(
            "ruleset document: points table too short",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "points": {"curve": null, "table": [1, 2, 4]}}),
            ),
            422,
            INVALID,
            Some("/ruleset/points/table"),
        ),
        case(
            "ruleset document: limit of the wrong type",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "limit": "ten"}),
            ),
            422,
            INVALID,
            Some("/ruleset/limit"),
        ),
        case(
            "ruleset document: limit above 64",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "limit": 65}),
            ),
            422,
            INVALID,
            Some("/ruleset/limit"),
        ),
        case(
            "ruleset document: an invalid id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "id": "My Table"}),
            ),
            422,
            INVALID,
            Some("/ruleset/id"),
        ),
        case(
            "ruleset document: exclusive of one id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "exclusive": [["all_chows"]]}),
            ),
            422,
            INVALID,
            Some("/ruleset/exclusive/0"),
        ),
        case(
            "ruleset document: exclusive of an unknown id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "exclusive": [["all_chows", "ping_wu"]]}),
            ),
            422,
            INVALID,
            Some("/ruleset/exclusive/0/1"),
        ),
        case(
            "ruleset document: a condition of another pattern",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"pure_only": true}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/pure_only"),
        ),
        case(
            "ruleset document: a condition not a boolean",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"concealed_hand": {"allow_concealed_kong": "no"}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/concealed_hand/allow_concealed_kong"),
        ),
        case(
            "ruleset document without extends: limit missing",
            score,
            with(&["ruleset"], json!({"min_faan": 0, "bonus_tiles": true})),
            422,
            INVALID,
            Some("/ruleset/limit"),
        ),
        case(
            "ruleset document: payment not in eighths",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "payment": {"self_draw": 1.1}}),
            ),
            422,
            INVALID,
            Some("/ruleset/payment/self_draw"),
        ),
        case(
            "ruleset document: over --ruleset-bytes",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "notes": ["x".repeat(33 * 1024)]}),
            ),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "ruleset is a list",
            score,
            with(&["ruleset"], json!(["hkma"])),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "validate: a broken document",
            "/v1/rulesets/validate",
            bytes(json!({"ruleset": {"extends": "hkma", "min_faan": 11}})),
            422,
            INVALID,
            Some("/ruleset/min_faan"),
        ),
        case(
            "validate: house rules against a document",
            "/v1/rulesets/validate",
            bytes(
                json!({"ruleset": {"extends": "hkma", "id": "mine"}, "house_rules": {"contains": {"seven_pairs": []}}}),
            ),
            422,
            INVALID,
            Some("/house_rules/contains/seven_pairs"),
        ),
        // The body is read without a depth check; the document is checked
        // where it is resolved (bench/inline.md): a 422 at the document.
        case(
            "ruleset document nested 40 deep (score)",
            score,
            with(
                &["ruleset"],
                json!({"extends": "hkma", "notes": serde_json::from_slice::<serde_json::Value>(&nested("[", "]", 40)).unwrap()}),
            ),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "ruleset document nested 40 deep (settle)",
            "/v1/settle",
            bytes(json!({
                "ruleset": {"extends": "hkma", "notes": serde_json::from_slice::<serde_json::Value>(&nested("[", "]", 40)).unwrap()},
                "winners": []
            })),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "validate: an unknown limits_pay in a document",
            "/v1/rulesets/validate",
            bytes(
                json!({"ruleset": {"extends": "hkma", "limits_add": true, "limits_pay": "twice"}}),
            ),
            422,
            INVALID,
            Some("/ruleset/limits_pay"),
        ),
        case(
            "settle under a broken document",
            "/v1/settle",
            bytes(
                json!({"ruleset": {"extends": "hkma", "table": {"multiple_winners": "most"}}, "winners": []}),
            ),
            422,
            INVALID,
            Some("/ruleset/table/multiple_winners"),
        ),
    ]
}

fn case_ct(
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    status: u16,
    ty: &'static str,
) -> Case {
    Case {
        name,
        path,
        body,
        content_type,
        status,
        ty,
        pointer: None,
    }
}

/// The request as text for assert messages (long bodies shortened).
fn shown(c: &Case) -> String {
    let text = String::from_utf8_lossy(&c.body);
    let short: String = text.chars().take(160).collect();
    format!(
        "[{}] POST {} ({:?}, {} bytes): {short}{}",
        c.name,
        c.path,
        c.content_type,
        c.body.len(),
        if text.chars().count() > 160 {
            "…"
        } else {
            ""
        }
    )
}

#[tokio::test]
async fn bad_inputs_get_precise_problems() {
    let app = spawn_app().await;
    let cases = catalogue();
    assert!(cases.len() >= 40, "catalogue has {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let input = shown(c);
        let r = app.post_raw(c.path, c.body.clone(), c.content_type).await;
        let v: Value = serde_json::from_slice(&r.bytes).unwrap_or(Value::Null);
        let mut wrong = Vec::new();
        if r.status != c.status {
            wrong.push(format!("status {} (want {})", r.status, c.status));
        }
        if r.header("content-type").as_deref() != Some("application/problem+json") {
            wrong.push(format!("content type {:?}", r.header("content-type")));
        }
        if v["type"] != c.ty {
            wrong.push(format!("type {} (want {})", v["type"], c.ty));
        }
        if v["status"] != c.status {
            wrong.push(format!("problem status {}", v["status"]));
        }
        match (v["errors"].as_array(), c.pointer) {
            (None, _) => wrong.push("no errors list".into()),
            (Some(errors), Some(p)) if !errors.iter().any(|e| e["pointer"] == p) => {
                wrong.push(format!("no pointer {p}"))
            }
            _ => {}
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "{input}\n    {}\n    answer: {}",
                wrong.join("; "),
                r.text()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    let r = app.get("/healthz").await;
    assert_eq!(r.status, 200, "the server is still up after the catalogue");
    // And it still scores.
    let r = app.post("/v1/score", &good()).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

/// With a depth limit above serde_json's own (128), deep nesting still ends
/// in a 400 or 422 problem, not a stack overflow.
#[tokio::test]
async fn serde_recursion_limit_still_answers_400() {
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        json_depth_limit: 1_000_000,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    for (path, body) in [
        ("/v1/score", nested("[", "]", 30_000)),
        ("/v1/score/batch", nested("[", "]", 100_000)),
        (
            "/v1/score/batch",
            [
                b"{\"requests\": [".to_vec(),
                "[".repeat(200_000).into_bytes(),
                "]".repeat(200_000).into_bytes(),
                b"]}".to_vec(),
            ]
            .concat(),
        ),
        (
            "/v1/compare",
            [b"{\"rulesets\": ".to_vec(), nested("{\"a\":", "}", 50_000)].concat(),
        ),
    ] {
        let r = app
            .post_raw(path, body.clone(), Some("application/json"))
            .await;
        // A batch whose item is deep: the batch is well formed, so the item
        // gets its problem in place (an array where a request belongs).
        if r.status == 200 && path == "/v1/score/batch" {
            let results = r.json()["results"].clone();
            assert_eq!(
                results.as_array().map(Vec::len),
                Some(1),
                "{path}: {results}"
            );
            let item = results[0].clone();
            assert!(
                item["status"] == 400 || item["status"] == 422,
                "{path} ({} bytes): item {item}",
                body.len()
            );
            continue;
        }
        // 400 from serde_json's recursion limit, or 422 where the typed
        // parse stops first (an array where a string belongs): a problem either way.
        assert!(
            r.status == 400 || r.status == 422,
            "{path} ({} bytes): {} {}",
            body.len(),
            r.status,
            r.text()
        );
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json"),
            "{path}"
        );
    }
    assert_eq!(app.get("/healthz").await.status, 200);
}

/// Pipelined requests (sent in one write, answered in turn) are read whole,
/// and a pipelined body that stalls still gets its 408: it is read after the
/// request before it, not when its head arrives, and the handler waiting for
/// it is woken by its worker's ticker (`http::body_wait`).
#[tokio::test]
async fn pipelined_bodies_are_read_and_a_stalled_one_times_out() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        body_timeout_ms: 300,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let body = r#"{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#;
    let request = |close: bool| {
        format!(
            "POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{}\r\n{body}",
            body.len(),
            if close { "Connection: close\r\n" } else { "" }
        )
    };
    let read_all = |mut s: tokio::net::TcpStream| async move {
        let mut got = Vec::new();
        tokio::time::timeout(Duration::from_secs(6), s.read_to_end(&mut got))
            .await
            .expect("the server answers and closes")
            .ok();
        String::from_utf8_lossy(&got).into_owned()
    };

    // Three whole requests in one write.
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let three = format!("{}{}{}", request(false), request(false), request(true));
    s.write_all(three.as_bytes()).await.unwrap();
    let text = read_all(s).await;
    assert_eq!(text.matches("HTTP/1.1 200 OK").count(), 3, "{text}");
    assert_eq!(
        text.matches("\"payments\":{\"east\":-32,").count(),
        3,
        "{text}"
    );

    // A whole request, then one whose body stops after 20 bytes.
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let stalled = request(true);
    let cut = stalled.len() - body.len() + 20;
    let two = format!("{}{}", request(false), &stalled[..cut]);
    s.write_all(two.as_bytes()).await.unwrap();
    let text = read_all(s).await;
    assert!(text.starts_with("HTTP/1.1 200 OK"), "first: {text}");
    assert_eq!(
        text.matches("HTTP/1.1 408").count(),
        1,
        "stalled second: {text}"
    );
    assert!(text.contains("/problems/request-timeout"), "{text}");
    // Body timeout (0.3 s) after one to two ticks of 1 s.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(app.get("/healthz").await.status, 200);
}

/// Slow clients are cut off: headers that never finish (slowloris) get a
/// 408 and a closed connection; a body that stalls gets a 408 problem.
#[tokio::test]
async fn slow_clients_get_408() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        client_request_timeout_ms: 300,
        body_timeout_ms: 300,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_string();

    // Headers that never end.
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(b"POST /v1/score HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        .await
        .unwrap();
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut got))
        .await
        .expect("the server closes a slowloris connection")
        .ok();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "slow headers: {text:?}");
    assert!(started.elapsed() < Duration::from_secs(3));

    // A body that stalls halfway.
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        client_request_timeout_ms: 5000,
        body_timeout_ms: 300,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"ruleset\":",
    )
    .await
    .unwrap();
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut got))
        .await
        .expect("the server answers a stalled body")
        .ok();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "stalled body: {text:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "stalled body answered in time"
    );
    assert!(
        text.contains("/problems/request-timeout") && text.contains("application/problem+json"),
        "stalled body: {text:?}"
    );
    assert_eq!(app.get("/healthz").await.status, 200);
}
