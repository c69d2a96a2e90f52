//! Reading a JSON body into a request type: syntax errors are 400, schema
//! errors 422 with the JSON pointer of the field.
//!
//! The decision is serde_json's own (`Error::classify`) and the pointer is
//! serde_path_to_error's path. One case needs help: serde_json reports a
//! non-string where an enum is expected as a syntax error, so a syntax error
//! in a body that is valid JSON is a schema error at the path reached.

use super::problem::ApiError;
pub use crate::core::ruleset::escape_pointer;
use serde::Deserialize;
use serde_json::error::Category;

/// Rejects JSON nested deeper than `max` arrays and objects (a 400), in one
/// pass over the bytes and before any parsing; strings are skipped.
pub fn check_depth(bytes: &[u8], max: usize) -> Result<(), ApiError> {
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            b'"' => i = string_end(bytes, i),
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

/// Where the string whose text starts at `i` ends: just after its closing
/// quote (escapes skipped), or the end of the bytes. Eight bytes at a time
/// while none is a quote or a backslash: a byte at a time cost more than
/// reading the body did (bench/ledger.md).
fn string_end(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::MAX / 255;
    loop {
        while let Some(chunk) = bytes.get(i..i + 8) {
            let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            let (q, s) = (w ^ (ONES * u64::from(b'"')), w ^ (ONES * u64::from(b'\\')));
            // The high bit of the first byte that is zero in `q` or `s`
            // (bits above it may be set by the borrow; they are not read).
            let found = ((q.wrapping_sub(ONES) & !q) | (s.wrapping_sub(ONES) & !s)) & (ONES << 7);
            if found != 0 {
                i += (found.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        match bytes.get(i) {
            None => return i,
            Some(b'"') => return i + 1,
            Some(b'\\') => i += 2,
            Some(_) => i += 1,
        }
    }
}

/// [`check_depth`], then [`parse`].
pub fn parse_checked<'a, T: Deserialize<'a>>(
    bytes: &'a [u8],
    max_depth: usize,
) -> Result<T, ApiError> {
    check_depth(bytes, max_depth)?;
    parse(bytes)
}

/// Deserialises a request body (an object). A valid body takes serde_json's
/// plain path; only a body that fails is read again with path tracking.
pub fn parse<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, ApiError> {
    // serde's derived structs also accept an array (fields by position).
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{') && is_json(bytes) {
        return Err(ApiError::field("", "invalid type: expected a JSON object"));
    }
    // The body's UTF-8 checked once, then read as a `str`: serde_json then
    // does not check each string again (a sixth of reading a ledger body).
    let read = match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str::<T>(text),
        Err(_) => serde_json::from_slice::<T>(bytes),
    };
    read.map_err(|_| explain::<T>(bytes))
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
        Category::Data => {
            let message = without_position(&inner);
            // A missing field is reported at its object, and serde names the
            // field only in its message: point at the field itself.
            if let Some(name) = message
                .strip_prefix("missing field `")
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
        // Strings long enough to be skipped eight bytes at a time, with a
        // quote or an escape at every place in the eight.
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
