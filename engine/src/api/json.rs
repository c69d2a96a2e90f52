//! Reading a JSON body into a request type: syntax errors are 400, schema
//! errors 422 with the JSON pointer of the field.
//!
//! The decision is serde_json's own (`Error::classify`) and the pointer is
//! serde_path_to_error's path. One case needs help: serde_json reports a
//! non-string where an enum is expected as a syntax error, so a syntax error
//! in a body that is valid JSON is a schema error at the path reached.

use super::problem::ApiError;
use crate::core::echo::serde_message;
pub use crate::core::ruleset::escape_pointer;
use serde::Deserialize;
use serde_json::error::Category;

/// Rejects JSON nested deeper than `max` arrays and objects (a 400), in one
/// pass over the bytes without parsing them; strings are jumped over
/// with memchr to their next quote or backslash (a ruleset document is
/// mostly strings, and a byte-by-byte scan was the largest part of reading
/// one: bench/inline.md).
pub fn check_depth(bytes: &[u8], max: usize) -> Result<(), ApiError> {
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            b'"' => loop {
                match memchr::memchr2(b'"', b'\\', bytes.get(i..).unwrap_or_default()) {
                    // A backslash escapes the byte after it.
                    Some(k) if bytes.get(i + k) == Some(&b'\\') => i += k + 2,
                    Some(k) => {
                        i += k + 1;
                        break;
                    }
                    None => return Ok(()),
                }
            },
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Err(ApiError::MalformedJson {
                        detail: format!("the JSON is nested deeper than {max} levels"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Deserialises a request body (an object), refusing JSON nested deeper
/// than `max_depth` levels (a 400, [`check_depth`]).
///
/// The depth is checked only when the typed read fails: a read that
/// succeeds has its type's own depth, except for the raw values it keeps
/// (a ruleset document, a batch's items), which are checked where they are
/// read (`Service::resolve_document`, `Service::batch`). Checking every
/// body first read a ruleset document's bytes once more on every request
/// (bench/inline.md, run 6b).
pub fn parse_checked<'a, T: Deserialize<'a>>(
    bytes: &'a [u8],
    max_depth: usize,
) -> Result<T, ApiError> {
    read(bytes).or_else(|()| {
        check_depth(bytes, max_depth)?;
        Err(refusal::<T>(bytes))
    })
}

/// Deserialises a request body (an object). A valid body takes serde_json's
/// plain path; only a body that fails is read again with path tracking.
pub fn parse<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, ApiError> {
    read(bytes).map_err(|()| refusal::<T>(bytes))
}

/// serde_json's plain read of an object; `Err` says only that it failed.
fn read<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, ()> {
    // serde's derived structs also accept an array (fields by position).
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{') {
        return Err(());
    }
    // The body's UTF-8 checked once, then read as a `str`: serde_json then
    // does not check each string again (a sixth of reading a ledger body).
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str::<T>(text),
        Err(_) => serde_json::from_slice::<T>(bytes),
    }
    .map_err(drop)
}

/// Why a body cannot be read as `T`: not an object (422 at the root), or
/// [`explain`].
#[cold]
fn refusal<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> ApiError {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{') && is_json(bytes) {
        return ApiError::field("", "invalid type: expected a JSON object");
    }
    explain::<T>(bytes)
}

/// Whether the bytes are JSON (a `Value`, not `IgnoredAny`: that skips
/// strings and numbers without checking them).
fn is_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
}

/// The error of a body `T` cannot be read from, with its pointer.
#[cold]
fn explain<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> ApiError {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let e = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(_) => match de.end() {
            Ok(()) => {
                return ApiError::MalformedJson {
                    detail: "the body could not be read".into(),
                }
            }
            Err(e) => {
                return ApiError::MalformedJson {
                    detail: e.to_string(),
                }
            }
        },
        Err(e) => e,
    };
    let mut pointer = pointer_of(e.path());
    let inner = e.into_inner();
    match inner.classify() {
        // A value read as raw text (a ruleset document or id) is checked
        // only when read again: a body that is not JSON is still a 400.
        Category::Data if !is_json(bytes) => ApiError::MalformedJson {
            detail: serde_message(&inner.to_string()).into_owned(),
        },
        Category::Data => {
            let message = serde_message(&without_position(&inner)).into_owned();
            // A missing or a duplicate field is reported at its object, and
            // serde names the field only in its message: point at the field.
            if let Some(name) = ["missing field `", "duplicate field `"]
                .iter()
                .find_map(|p| message.strip_prefix(p))
                .and_then(|rest| rest.split('`').next())
            {
                pointer.push('/');
                pointer.push_str(&escape_pointer(name));
            }
            ApiError::field(pointer, message)
        }
        Category::Syntax if is_json(bytes) => ApiError::field(
            pointer,
            "invalid type: expected a string, one of the documented values",
        ),
        Category::Syntax | Category::Eof | Category::Io => ApiError::MalformedJson {
            detail: inner.to_string(),
        },
    }
}

/// serde_json's message without its " at line L column C" suffix.
fn without_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match full.strip_suffix(&suffix) {
        Some(m) if e.line() > 0 => m.to_string(),
        _ => full,
    }
}

/// The JSON pointer (RFC 6901) of a serde path.
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&escape_pointer(key));
            }
            Segment::Enum { variant } => {
                pointer.push('/');
                pointer.push_str(&escape_pointer(variant));
            }
            Segment::Unknown => {}
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        a: u32,
        #[serde(default)]
        w: Option<Wind>,
        #[serde(default)]
        list: Vec<Body>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Wind {
        East,
    }

    fn pointer_and_status(body: &str) -> (String, u16) {
        let e = parse::<Body>(body.as_bytes()).unwrap_err();
        let p = e.problem();
        (
            p.errors
                .first()
                .map(|e| e.pointer.clone())
                .unwrap_or_default(),
            p.status,
        )
    }

    #[test]
    fn errors_are_classified_and_pointed() {
        let cases = [
            ("unknown field", r#"{"a":1,"z~/":2}"#, "/z~0~1", 422),
            ("missing field", r#"{"list":[{}]}"#, "/list/0/a", 422),
            (
                "duplicate field",
                r#"{"a":1,"list":[{"a":1,"a":2}]}"#,
                "/list/0/a",
                422,
            ),
            ("duplicate field at the top", r#"{"a":1,"a":2}"#, "/a", 422),
            ("number for an enum", r#"{"a":1,"w":5}"#, "/w", 422),
            ("unknown variant", r#"{"a":1,"w":"up"}"#, "/w", 422),
            ("wrong type", r#"{"a":"x"}"#, "/a", 422),
            ("array at the top", r#"[1]"#, "", 422),
            ("truncated", r#"{"a":1"#, "", 400),
            ("syntax", r#"{"a":}"#, "", 400),
            ("trailing characters", r#"{"a":1} x"#, "", 400),
        ];
        for (case, body, pointer, status) in cases {
            assert_eq!(
                pointer_and_status(body),
                (pointer.to_string(), status),
                "case {case}"
            );
        }
    }

    #[test]
    fn messages_lose_their_position_only() {
        let e = parse::<Body>(br#"{"a":"x"}"#).unwrap_err();
        assert_eq!(
            e.problem().errors[0].message,
            "invalid type: string \"x\", expected u32",
            "case: wrong type"
        );
    }

    #[test]
    fn depth_is_checked_before_parsing() {
        assert!(check_depth(b"[[[1]]]", 3).is_ok(), "case: three levels");
        assert_eq!(
            check_depth(b"[[[[1]]]]", 3).unwrap_err().status(),
            400,
            "case: four levels"
        );
        assert!(
            check_depth(br#"["[[[[["]"#, 3).is_ok(),
            "case: brackets in a string"
        );
        assert!(
            check_depth(br#"["\"[[[[", "\\", "[[[["]"#, 3).is_ok(),
            "case: escaped quote and backslash in strings"
        );
        assert_eq!(
            check_depth(br#"["\\"[[[[1]]]]]"#, 3).unwrap_err().status(),
            400,
            "case: an escaped backslash ends no string"
        );
        assert!(
            check_depth(br#"["abc\"#, 1).is_ok(),
            "case: a string cut after a backslash"
        );
    }

    /// The jump over strings agrees with a plain byte-by-byte scan (the
    /// first implementation) on every input: quotes, escapes and brackets
    /// anywhere.
    #[test]
    fn the_string_jump_agrees_with_the_byte_scan() {
        use proptest::prelude::*;
        fn reference(bytes: &[u8], max: usize) -> bool {
            let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
            for &b in bytes {
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        in_string = false;
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'[' | b'{' => {
                        depth += 1;
                        if depth > max {
                            return false;
                        }
                    }
                    b']' | b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            true
        }
        let alphabet = prop::sample::select(b"\"\\[]{}a ,:".to_vec());
        proptest!(ProptestConfig::with_cases(4000), |(bytes in prop::collection::vec(alphabet, 0..400), max in 0usize..8)| {
            prop_assert_eq!(check_depth(&bytes, max).is_ok(), reference(&bytes, max), "{:?}", String::from_utf8_lossy(&bytes));
        });
        // Corpus requests at every limit up to past their depth.
        let corpus = include_str!("../../../bench/corpus.jsonl");
        for line in corpus.lines().take(300) {
            for max in 0..6 {
                assert_eq!(
                    check_depth(line.as_bytes(), max).is_ok(),
                    reference(line.as_bytes(), max),
                    "{line} at {max}"
                );
            }
        }
    }

    #[test]
    fn long_strings_at_every_offset() {
        // Long strings with a quote or an escape at each of twelve offsets.
        for at in 0..12 {
            let pad = "x".repeat(at);
            for (case, body, ok) in [
                (
                    "a long string",
                    format!(r#"["{pad}[[[[[[[[[[[[[[[[" ]"#),
                    true,
                ),
                (
                    "an escaped quote",
                    format!(r#"["{pad}\"[[[[[[[[[[[[" ]"#),
                    true,
                ),
                (
                    "an escaped backslash",
                    format!(r#"["{pad}\\" [[[[ ]]]]]"#),
                    false,
                ),
                (
                    "a string ended early",
                    format!(r#"["{pad}" [[[[[[[[ ]]]]]]]]]"#),
                    false,
                ),
            ] {
                assert_eq!(
                    check_depth(body.as_bytes(), 3).is_ok(),
                    ok,
                    "case: {case}, after {at} bytes: {body}"
                );
            }
        }
    }
}
