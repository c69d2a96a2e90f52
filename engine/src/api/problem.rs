//! The one error type of the API, rendered as `application/problem+json`
//! (RFC 9457) by the HTTP layer and printed by the CLI.

use crate::core::echo::{echo, Echo, Quoted};
use crate::core::hand::HandRule;
use crate::core::settle::{Overflow, MAX_CENTS};
use crate::core::winners::TableError;
use crate::core::{FieldError, ScoreError};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

/// Media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// One broken rule: a JSON Pointer into the request and what is wrong there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"pointer": "/hand/tiles", "message": "5m appears 5 times across the hand and its melds; a set has only 4 of each tile", "code": "tile_over_four", "params": {"tile": "5m", "count": 5}}))]
pub struct ProblemError {
    /// JSON Pointer (RFC 6901) into the request body.
    pub pointer: String,
    /// What is wrong, in English.
    pub message: String,
    /// The rule broken, for the rules of a hand, of the circumstances of
    /// its win and of the table (settle and ledger: the players by name in
    /// `params`), and `not_winning`, `unknown_ruleset`, an amount too large
    /// (`money_unrepresentable`, `faan_overflow`, `base_points_overflow`): a
    /// stable code a client words in its own language with `params`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = code_schema)]
    pub code: Option<String>,
    /// The values the message names, by the names of the code's message
    /// (README, "Errors").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub params: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The most `errors` one problem lists (docs/api.md, "Bounds on what
/// one request may cost"); past it the detail counts the rest.
pub const MAX_ERRORS: usize = 32;

/// `n` with a comma between thousands: 9,968.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Codes a problem's error may carry besides the hand rules.
pub const OTHER_CODES: &[&str] = &[
    "not_winning",
    "unknown_ruleset",
    "money_unrepresentable",
    "faan_overflow",
    "base_points_overflow",
];

fn code_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    let codes: Vec<&str> = HandRule::CODES
        .iter()
        .copied()
        .chain(OTHER_CODES.iter().copied())
        .collect();
    super::document::schema_of(serde_json::json!({
        "type": "string",
        "enum": codes,
        "description": "The rule broken (absent where the problem has no code): clients word the message from it and `params`."
    }))
}

impl ProblemError {
    /// A problem without a code.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ProblemError {
            pointer: pointer.into(),
            message: message.into(),
            ..ProblemError::default()
        }
    }

    /// A problem with a code and its parameters; a parameter's text (a
    /// name, a tile as written) cut as every echo of the client's is
    /// (`core::echo`).
    fn coded(
        pointer: impl Into<String>,
        message: impl Into<String>,
        code: &str,
        mut params: serde_json::Map<String, serde_json::Value>,
    ) -> Self {
        for v in params.values_mut() {
            if let serde_json::Value::String(s) = v {
                if let std::borrow::Cow::Owned(cut) = echo(s) {
                    *s = cut;
                }
            }
        }
        ProblemError {
            pointer: pointer.into(),
            message: message.into(),
            code: Some(code.into()),
            params: Some(params),
        }
    }
}

impl From<FieldError> for ProblemError {
    fn from(e: FieldError) -> Self {
        match (&e.rule, e.params()) {
            (Some(rule), Some(params)) => {
                ProblemError::coded(e.pointer, e.message, rule.code(), params)
            }
            _ => ProblemError::new(e.pointer, e.message),
        }
    }
}

/// An error response (RFC 9457 problem details).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "/problems/invalid-request",
    "title": "The request breaks a rule",
    "status": 422,
    "detail": "/context/discarder: a self-drawn win has no discarder",
    "errors": [{"pointer": "/context/discarder", "message": "a self-drawn win has no discarder"}]
}))]
pub struct Problem {
    /// A URI reference naming the kind of problem: `/problems/<slug>`.
    #[serde(rename = "type")]
    pub type_: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// Every broken rule, each with a JSON Pointer into the request (may be empty).
    pub errors: Vec<ProblemError>,
}

/// Everything that can go wrong in a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// The body is not JSON (syntax error, truncated, trailing characters).
    MalformedJson {
        detail: String,
    },
    /// Valid JSON that breaks the request schema or the rules (wrong type,
    /// missing or unknown field, unknown enum value, a rule of the hand).
    Invalid {
        detail: String,
        errors: Vec<ProblemError>,
    },
    /// The tiles form no winning hand under the ruleset; `pointer` names
    /// them (`/hand/tiles`, or `/winners/1/hand/tiles` in a settlement).
    NotWinning {
        tiles: usize,
        detail: String,
        pointer: String,
        /// The winner, where it has a name (a ledger's): `params.player`.
        player: Option<String>,
    },
    /// No ruleset with this id; `pointer` is where the id was given.
    UnknownRuleset {
        id: String,
        pointer: String,
    },
    /// The body is over the limit for this route.
    PayloadTooLarge {
        limit: usize,
    },
    /// The body did not arrive within the body timeout.
    RequestTimeout {
        limit_ms: u64,
    },
    /// A batch with more requests than allowed.
    BatchTooLarge {
        got: usize,
        max: usize,
    },
    /// The body is not `application/json`.
    UnsupportedMediaType {
        got: Option<String>,
    },
    /// The body has a `Content-Encoding` other than identity (none is decoded).
    UnsupportedEncoding {
        got: String,
    },
    /// The server is at one of its bounds (buffered bytes, or the blocking
    /// pool's queue); the client may retry after `retry_after` seconds.
    Overloaded {
        what: Overload,
        retry_after: u64,
    },
    NotFound {
        path: String,
    },
    MethodNotAllowed {
        method: String,
        allowed: &'static str,
    },
}

/// Which bound a 503 met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overload {
    /// `--max-buffered-bytes`: bodies being read and answers not yet sent.
    Buffered,
    /// `--blocking-queue`: heavy requests waiting for a blocking thread.
    Queue,
}

impl ApiError {
    /// One field error as a 422.
    pub fn field(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::invalid(vec![ProblemError::new(pointer, message)])
    }

    /// A total or an amount too large to answer exactly, refused at `pointer`
    /// (a 422 like every broken rule, with the overflow's code).
    pub fn overflow(what: Overflow, pointer: impl Into<String>) -> Self {
        let params = match what {
            Overflow::Money => serde_json::Map::from_iter([("max_cents".into(), MAX_CENTS.into())]),
            Overflow::Faan(p) | Overflow::BasePoints(p) => {
                serde_json::Map::from_iter([("pattern".into(), p.as_str().into())])
            }
        };
        ApiError::invalid(vec![ProblemError::coded(
            pointer,
            what.explain(),
            what.code(),
            params,
        )])
    }

    /// Several field errors as a 422: at most [`MAX_ERRORS`] of them listed,
    /// the detail saying how many more there were (one mistake repeated
    /// 10,000 times is not a 1.7 MB answer). A pointer holds the client's
    /// keys: `errors[].pointer` has it whole (it is the address of the
    /// field), the detail cut (`core::echo`).
    pub fn invalid(mut errors: Vec<ProblemError>) -> Self {
        let more = errors.len().saturating_sub(MAX_ERRORS);
        errors.truncate(MAX_ERRORS);
        let parts: Vec<String> = errors
            .iter()
            .map(|e| format!("{}: {}", Echo(&e.pointer), e.message))
            .collect();
        let mut detail = parts.join("; ");
        if more > 0 {
            let s = if more == 1 { "" } else { "s" };
            detail.push_str(&format!("; ... and {} more error{s}", thousands(more)));
        }
        ApiError::Invalid { detail, errors }
    }

    /// The HTTP status of the problem.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::MalformedJson { .. } => 400,
            ApiError::Invalid { .. }
            | ApiError::NotWinning { .. }
            | ApiError::BatchTooLarge { .. } => 422,
            ApiError::UnknownRuleset { .. } | ApiError::NotFound { .. } => 404,
            ApiError::PayloadTooLarge { .. } => 413,
            ApiError::RequestTimeout { .. } => 408,
            ApiError::UnsupportedMediaType { .. } | ApiError::UnsupportedEncoding { .. } => 415,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::Overloaded { .. } => 503,
        }
    }

    /// The `/problems/<slug>` part of the problem type.
    pub fn slug(&self) -> &'static str {
        match self {
            ApiError::MalformedJson { .. } => "malformed-json",
            ApiError::Invalid { .. } => "invalid-request",
            ApiError::NotWinning { .. } => "not-a-winning-hand",
            ApiError::UnknownRuleset { .. } => "unknown-ruleset",
            ApiError::PayloadTooLarge { .. } => "payload-too-large",
            ApiError::RequestTimeout { .. } => "request-timeout",
            ApiError::BatchTooLarge { .. } => "batch-too-large",
            ApiError::UnsupportedMediaType { .. } => "unsupported-media-type",
            ApiError::UnsupportedEncoding { .. } => "unsupported-content-encoding",
            ApiError::Overloaded { .. } => "overloaded",
            ApiError::NotFound { .. } => "not-found",
            ApiError::MethodNotAllowed { .. } => "method-not-allowed",
        }
    }

    fn title(&self) -> &'static str {
        match self {
            ApiError::MalformedJson { .. } => "The body is not valid JSON",
            ApiError::Invalid { .. } => "The request breaks a rule",
            ApiError::NotWinning { .. } => "Not a winning hand",
            ApiError::UnknownRuleset { .. } => "Unknown ruleset",
            ApiError::PayloadTooLarge { .. } => "The body is too large",
            ApiError::RequestTimeout { .. } => "The body arrived too slowly",
            ApiError::BatchTooLarge { .. } => "Too many requests in one batch",
            ApiError::UnsupportedMediaType { .. } => "Unsupported media type",
            ApiError::UnsupportedEncoding { .. } => "Unsupported content encoding",
            ApiError::Overloaded { .. } => "The server is busy",
            ApiError::NotFound { .. } => "Not found",
            ApiError::MethodNotAllowed { .. } => "Method not allowed",
        }
    }

    /// The problem document.
    pub fn problem(&self) -> Problem {
        let (detail, errors) = match self {
            ApiError::MalformedJson { detail } => (detail.clone(), vec![]),
            ApiError::Invalid { detail, errors } => (detail.clone(), errors.clone()),
            ApiError::NotWinning {
                detail,
                pointer,
                tiles,
                player,
            } => {
                let mut params = serde_json::Map::from_iter([("tiles".into(), (*tiles).into())]);
                if let Some(p) = player {
                    params.insert("player".into(), p.clone().into());
                }
                (
                    detail.clone(),
                    vec![ProblemError::coded(
                        pointer.clone(),
                        detail.clone(),
                        "not_winning",
                        params,
                    )],
                )
            }
            ApiError::UnknownRuleset { id, pointer } => {
                let msg = format!(
                    "no ruleset {}; GET /v1/rulesets lists the ruleset ids",
                    Quoted(id)
                );
                (
                    msg.clone(),
                    vec![ProblemError::coded(
                        pointer.clone(),
                        msg,
                        "unknown_ruleset",
                        serde_json::Map::from_iter([("id".into(), echo(id).into())]),
                    )],
                )
            }
            ApiError::PayloadTooLarge { limit } => (
                format!(
                    "the request body is larger than the limit of {limit} bytes for this endpoint"
                ),
                vec![],
            ),
            ApiError::RequestTimeout { limit_ms } => (
                format!("the request body did not arrive within {limit_ms} ms"),
                vec![],
            ),
            ApiError::BatchTooLarge { got, max } => {
                let msg = format!("a batch holds at most {max} requests, got {got}");
                (msg.clone(), vec![ProblemError::new("/requests", msg)])
            }
            ApiError::UnsupportedMediaType { got } => (
                match got {
                    Some(ct) => format!("the body must be application/json, got {}", Echo(ct)),
                    None => "the body must be application/json: set the Content-Type header".into(),
                },
                vec![],
            ),
            ApiError::UnsupportedEncoding { got } => (
                format!(
                    "the body must not be encoded (Content-Encoding: identity), got {}",
                    Echo(got)
                ),
                vec![],
            ),
            ApiError::Overloaded { what, retry_after } => (
                match what {
                    Overload::Buffered => format!(
                        "too many request bodies and answers are held at once; retry after {retry_after} s"
                    ),
                    Overload::Queue => format!(
                        "too many ledger, batch and compare requests are waiting; retry after {retry_after} s"
                    ),
                },
                vec![],
            ),
            ApiError::NotFound { path } => (format!("no resource at {}", Echo(path)), vec![]),
            ApiError::MethodNotAllowed { method, allowed } => (
                format!("{} is not allowed here; allowed: {allowed}", Echo(method)),
                vec![],
            ),
        };
        Problem {
            type_: format!("/problems/{}", self.slug()),
            title: self.title().into(),
            status: self.status(),
            detail,
            errors,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.problem();
        write!(f, "{} ({}): {}", p.title, p.status, p.detail)
    }
}

impl std::error::Error for ApiError {}

impl From<ScoreError> for ApiError {
    fn from(e: ScoreError) -> Self {
        match e {
            ScoreError::Invalid(errs) => {
                ApiError::invalid(errs.into_iter().map(ProblemError::from).collect())
            }
            ScoreError::NotWinning { tiles, detail } => ApiError::NotWinning {
                tiles,
                detail,
                pointer: "/hand/tiles".into(),
                player: None,
            },
            // Where the caller does not name what set it (`service` does).
            ScoreError::Overflow(what) => ApiError::overflow(what, default_overflow_pointer(what)),
        }
    }
}

/// An overflow's pointer when nothing better is known: what a house rule
/// would lower (the stake, the pattern's value).
pub fn default_overflow_pointer(what: Overflow) -> String {
    match what {
        Overflow::Money => "/house_rules/stake".into(),
        Overflow::Faan(p) | Overflow::BasePoints(p) => format!("/house_rules/patterns/{p}"),
    }
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> Self {
        match e {
            TableError::Invalid(errs) => errs.into(),
            // The core names the hand; a score's problem names its tiles.
            TableError::NotWinning {
                pointer,
                tiles,
                detail,
                player,
            } => ApiError::NotWinning {
                tiles,
                detail,
                pointer: format!("{pointer}/tiles"),
                player,
            },
            TableError::Overflow { what, pointer } => {
                let pointer = pointer.unwrap_or_else(|| default_overflow_pointer(what));
                ApiError::overflow(what, pointer)
            }
        }
    }
}

impl ApiError {
    /// The same problem for a body that sits at `prefix` of a larger
    /// request (a table's appended hand is `/hands/{n}` of its ledger):
    /// every pointer moved under it.
    pub fn under(mut self, prefix: &str) -> ApiError {
        match &mut self {
            ApiError::Invalid { errors, .. } => {
                for e in errors {
                    e.pointer.insert_str(0, prefix);
                }
            }
            ApiError::NotWinning { pointer, .. } | ApiError::UnknownRuleset { pointer, .. } => {
                pointer.insert_str(0, prefix);
            }
            _ => {}
        }
        self
    }
}

impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> Self {
        ApiError::invalid(vec![e.into()])
    }
}

impl From<Vec<FieldError>> for ApiError {
    fn from(errs: Vec<FieldError>) -> Self {
        ApiError::invalid(errs.into_iter().map(ProblemError::from).collect())
    }
}

impl ApiError {
    /// The problem document as JSON bytes.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(&self.problem()).unwrap_or_else(|_| b"{}".to_vec())
    }
}
