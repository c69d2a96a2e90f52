//! Bodies that are not a JSON object, or come in the wrong framing: wrong
//! bytes, depth, content type or size.

use super::*;

pub(super) fn cases() -> Vec<Case> {
    let score = "/v1/score";
    let batch = "/v1/score/batch";
    let mut good_then = serde_json::to_vec(&good()).unwrap();
    good_then.extend_from_slice(b" {}");
    let mut bad_utf8 = br#"{"ruleset": ""#.to_vec();
    bad_utf8.extend_from_slice(&[0xff, 0xfe, 0xfd]);
    bad_utf8.extend_from_slice(br#"", "hand": {"tiles": "1m"}, "context": {}}"#);
    let mut bom = vec![0xef, 0xbb, 0xbf];
    bom.extend_from_slice(&serde_json::to_vec(&good()).unwrap());
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
    ]
}
