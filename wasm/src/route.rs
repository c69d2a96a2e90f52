//! The operations and the routes: which `Service` method answers which
//! endpoint, with the endpoint's body limit, and `respond`, which routes a
//! whole request (method, path, body) as the server does.
//!
//! The server's routes are in `src/http/mod.rs` (actix): the differential
//! test (`tests/wasm.rs`) holds the two to the same answers, unknown paths
//! and wrong methods included.

use crate::answer;
use faan_engine::api::ApiError;
use faan_engine::service::{Service, BATCH_BODY_LIMIT, BODY_LIMIT, LEDGER_BODY_LIMIT};

/// An operation of `faan_call`. The numbers are the module's interface:
/// `web/pkg/faan.js` and any other host use them, so they never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A whole request: `METHOD SP PATH LF` then the body.
    Respond = 0,
    Score = 1,
    Batch = 2,
    Compare = 3,
    Settle = 4,
    Ledger = 5,
    Waits = 6,
    Analyze = 7,
    FalseWin = 8,
    Validate = 9,
    /// `GET /v1/rulesets`.
    Rulesets = 10,
    /// `GET /v1/rulesets/{id}`: the input is the id.
    Ruleset = 11,
    /// `GET /v1/patterns`.
    Patterns = 12,
    /// `GET /v1/rulesets/schema`.
    Schema = 13,
}

const OPS: [Op; 14] = [
    Op::Respond,
    Op::Score,
    Op::Batch,
    Op::Compare,
    Op::Settle,
    Op::Ledger,
    Op::Waits,
    Op::Analyze,
    Op::FalseWin,
    Op::Validate,
    Op::Rulesets,
    Op::Ruleset,
    Op::Patterns,
    Op::Schema,
];

/// The server's routes the module answers: path (`{id}` one segment),
/// operation, and the methods a 405 names. In the server's order: `schema`
/// and `validate` before `{id}`, which would take them for ids.
const ROUTES: [(&str, Op, &str); 13] = [
    ("/v1/score", Op::Score, "POST"),
    ("/v1/score/batch", Op::Batch, "POST"),
    ("/v1/compare", Op::Compare, "POST"),
    ("/v1/settle", Op::Settle, "POST"),
    ("/v1/ledger", Op::Ledger, "POST"),
    ("/v1/waits", Op::Waits, "POST"),
    ("/v1/analyze", Op::Analyze, "POST"),
    ("/v1/penalties/false-win", Op::FalseWin, "POST"),
    ("/v1/patterns", Op::Patterns, "GET, HEAD"),
    ("/v1/rulesets", Op::Rulesets, "GET, HEAD"),
    ("/v1/rulesets/schema", Op::Schema, "GET, HEAD"),
    ("/v1/rulesets/validate", Op::Validate, "POST"),
    ("/v1/rulesets/{id}", Op::Ruleset, "GET, HEAD"),
];

impl Op {
    pub fn from_u32(n: u32) -> Option<Op> {
        OPS.get(usize::try_from(n).ok()?).copied()
    }

    /// The body limit of a POST operation (the server's defaults).
    fn body_limit(self) -> usize {
        match self {
            Op::Ledger => LEDGER_BODY_LIMIT,
            Op::Batch | Op::Compare => BATCH_BODY_LIMIT,
            _ => BODY_LIMIT,
        }
    }

    /// Answers the operation on `input` (a body, or a ruleset id); `Respond`
    /// is [`respond`]'s, not this.
    pub fn run(self, s: &Service, input: &[u8]) -> Result<Vec<u8>, ApiError> {
        let post = |work: fn(&Service, &[u8]) -> Result<Vec<u8>, ApiError>| {
            let limit = self.body_limit();
            if input.len() > limit {
                return Err(ApiError::PayloadTooLarge { limit });
            }
            work(s, input)
        };
        match self {
            Op::Respond => Err(ApiError::NotFound {
                path: String::new(),
            }),
            Op::Score => post(|s, b| s.score_body(b).map(|(body, _)| body.to_vec())),
            Op::Batch => post(|s, b| s.batch(b)),
            Op::Compare => post(|s, b| s.compare(b)),
            Op::Settle => post(|s, b| s.settle(b)),
            Op::Ledger => post(|s, b| s.ledger(b)),
            Op::Waits => post(|s, b| s.waits(b)),
            Op::Analyze => post(|s, b| s.analyze(b)),
            Op::FalseWin => post(|s, b| s.false_win(b)),
            Op::Validate => post(|s, b| s.validate(b)),
            Op::Rulesets => Ok(s.rulesets()),
            Op::Ruleset => s.ruleset_chart(&String::from_utf8_lossy(input)),
            Op::Patterns => Ok(s.patterns().to_vec()),
            Op::Schema => Ok(s.ruleset_schema().to_vec()),
        }
    }
}

/// Answers a whole request, `METHOD SP PATH LF BODY`, as the server
/// answers it: the route by the percent-decoded path (actix's: `%2F`,
/// `%25` and `%2B` kept), a 405 naming the allowed methods, a 404 naming
/// the path as sent; HEAD as GET without the body.
pub fn respond(s: &Service, input: &[u8]) -> (u16, Vec<u8>) {
    let line_end = input
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(input.len());
    let (line, body) = input.split_at(line_end);
    let body = body.get(1..).unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let (method, target) = line.split_once(' ').unwrap_or((&line, ""));
    // The path without its query or fragment, as `HttpRequest::path()`.
    let raw = target.split(['?', '#']).next().unwrap_or_default();
    let path = requote(raw);
    let found = ROUTES
        .iter()
        .find_map(|&(pattern, op, allowed)| matches(pattern, &path).map(|id| (op, allowed, id)));
    let Some((op, allowed, id)) = found else {
        return answer(Err(ApiError::NotFound {
            path: raw.chars().take(200).collect(),
        }));
    };
    let head = method == "HEAD";
    let allowed_here = allowed.split(", ").any(|m| m == method);
    if !allowed_here {
        return answer(Err(ApiError::MethodNotAllowed {
            method: method.to_string(),
            allowed,
        }));
    }
    let (status, out) = answer(op.run(s, id.map_or(body, str::as_bytes)));
    (status, if head { Vec::new() } else { out })
}

/// `Some(None)` when `path` is `pattern`, `Some(Some(id))` when it fills
/// the pattern's `{id}` (one non-empty segment).
fn matches<'p>(pattern: &str, path: &'p str) -> Option<Option<&'p str>> {
    match pattern.strip_suffix("{id}") {
        None => (pattern == path).then_some(None),
        Some(prefix) => {
            let id = path.strip_prefix(prefix)?;
            (!id.is_empty() && !id.contains('/')).then_some(Some(id))
        }
    }
}

/// Percent-decodes `path` as actix's router does before it matches:
/// every valid `%XX` but those of `/`, `%` and `+`; bytes that are not
/// UTF-8 are replaced.
fn requote(path: &str) -> String {
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| char::from(c).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                let c = (h * 16 + l) as u8;
                if !matches!(c, b'/' | b'%' | b'+') {
                    out.push(c);
                    i += 3;
                    continue;
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
