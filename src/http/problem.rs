//! Problems as HTTP answers: `ApiError` rendered as
//! `application/problem+json`, and the OpenAPI responses every body-reading
//! endpoint shares.

use crate::api::{ApiError, Problem, PROBLEM_JSON};
use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};

/// An [`ApiError`] as an HTTP answer. The error is the engine's and the
/// trait actix's, so the answer is a type of this crate; `?` on an
/// `ApiError` makes one.
#[derive(Debug)]
pub struct Refusal(pub ApiError);

impl From<ApiError> for Refusal {
    fn from(e: ApiError) -> Self {
        Refusal(e)
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for Refusal {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.0.status()).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY)
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        match &self.0 {
            ApiError::MethodNotAllowed { allowed, .. } => {
                res.insert_header((header::ALLOW, *allowed));
            }
            ApiError::Overloaded { retry_after, .. } => {
                res.insert_header((header::RETRY_AFTER, retry_after.to_string()));
            }
            // RFC 7694: the codings the server accepts.
            ApiError::UnsupportedEncoding { .. } => {
                res.insert_header((header::ACCEPT_ENCODING, "identity"));
            }
            _ => {}
        }
        res.body(self.0.to_json())
    }
}

/// The problems of reading a JSON body, common to every POST endpoint.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // a schema only: never built
pub enum BodyProblems {
    /// Malformed JSON (syntax error, truncated, trailing characters, nested too deep)
    #[response(status = 400, content_type = "application/problem+json")]
    MalformedJson(Problem),
    /// The body did not arrive within the body timeout (10 s by default)
    #[response(status = 408, content_type = "application/problem+json")]
    RequestTimeout(Problem),
    /// Body over the endpoint's limit (64 KiB, or 1 MiB for batch and compare, by default)
    #[response(status = 413, content_type = "application/problem+json")]
    PayloadTooLarge(Problem),
    /// Content-Type is not application/json (`/problems/unsupported-media-type`), or the body has a Content-Encoding other than identity (`/problems/unsupported-content-encoding`)
    #[response(status = 415, content_type = "application/problem+json")]
    UnsupportedMediaType(Problem),
    /// Too many bodies and answers held at once (`--max-buffered-bytes`), or, for ledger, batch and compare, too many waiting for a blocking thread (`--blocking-queue`): `/problems/overloaded`, retry after `Retry-After` seconds
    #[response(status = 503, content_type = "application/problem+json",
        headers(("Retry-After" = u64, description = "Seconds to wait before retrying")))]
    Overloaded(Problem),
}

/// An unknown ruleset id.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // a schema only: never built
pub enum RulesetProblem {
    /// Unknown ruleset (pointer `/ruleset`)
    #[response(status = 404, content_type = "application/problem+json")]
    UnknownRuleset(Problem),
}
