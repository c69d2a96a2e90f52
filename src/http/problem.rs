//! Problems as HTTP answers: `ApiError` rendered as
//! `application/problem+json`, and the OpenAPI responses every body-reading
//! endpoint shares.

use crate::api::{ApiError, Problem, PROBLEM_JSON};
use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status()).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY)
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        if let ApiError::MethodNotAllowed { allowed, .. } = self {
            res.insert_header((header::ALLOW, *allowed));
        }
        res.body(self.to_json())
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
    /// Content-Type is not application/json
    #[response(status = 415, content_type = "application/problem+json")]
    UnsupportedMediaType(Problem),
}

/// An unknown ruleset id.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // a schema only: never built
pub enum RulesetProblem {
    /// Unknown ruleset (pointer `/ruleset`)
    #[response(status = 404, content_type = "application/problem+json")]
    UnknownRuleset(Problem),
}
