//! What a table endpoint answers besides the ledger's own problems, as
//! `application/problem+json`.

use crate::api::tables::TableConflict;
use crate::api::{ApiError, Problem, PROBLEM_JSON};
use crate::tables::hub::Full;
use crate::tables::{self, Failure};
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

/// What a table endpoint can answer besides the ledger's own problems.
#[derive(Debug)]
pub enum TableProblem {
    Disabled,
    NoSuchTable,
    NoSuchGroup,
    Unauthorized,
    Forbidden,
    PreconditionRequired,
    /// The version moved: the current `TABLE`.
    Conflict(Vec<u8>),
    TablesFull,
    GroupsFull,
    RateLimited(u64),
    Streams(Full),
    Store,
    Api(ApiError),
}

impl From<ApiError> for TableProblem {
    fn from(e: ApiError) -> Self {
        TableProblem::Api(e)
    }
}

impl From<Failure> for TableProblem {
    fn from(f: Failure) -> Self {
        match f {
            Failure::Store | Failure::Random => TableProblem::Store,
        }
    }
}

impl std::fmt::Display for TableProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (_, slug, title, detail) = self.parts();
        write!(f, "{title} ({slug}): {detail}")
    }
}

impl TableProblem {
    /// Status, slug, title, detail.
    fn parts(&self) -> (u16, &'static str, &'static str, String) {
        match self {
            TableProblem::Disabled => (404, "tables-disabled", "Shared tables are off",
                "this server keeps no tables (--store none)".into()),
            TableProblem::NoSuchTable => (404, "no-such-table", "No such table",
                "no table has this id (it may have been deleted)".into()),
            TableProblem::NoSuchGroup => (404, "no-such-group", "No such group",
                "no group has this id (it may have been deleted)".into()),
            TableProblem::Unauthorized => (401, "unauthorized", "A key is needed",
                "a change needs the table's key: Authorization: Bearer {key}".into()),
            TableProblem::Forbidden => (403, "forbidden", "Wrong key",
                "the key given is not this one's key".into()),
            TableProblem::PreconditionRequired => (428, "precondition-required", "If-Match is needed",
                "a change needs If-Match: \"v{version}\", the version it was made from".into()),
            TableProblem::Conflict(_) => (412, "version-conflict", "The table has changed",
                "the table has moved on since that version; `table` is the current one".into()),
            TableProblem::TablesFull => (503, "tables-full", "No room for another table",
                "the server holds as many tables as it may (--tables-max)".into()),
            TableProblem::GroupsFull => (503, "groups-full", "No room for another group",
                "the server holds as many groups as it may (--groups-max)".into()),
            TableProblem::RateLimited(s) => (429, "rate-limited", "Too many new tables",
                format!("this address made as many as it may this hour (--tables-per-hour); retry after {s} s")),
            TableProblem::Streams(Full::Table) => (503, "streams-full", "Too many streams on this table",
                "this table has as many event streams as it may (--events-per-table)".into()),
            TableProblem::Streams(Full::All) => (503, "streams-full", "Too many event streams",
                "the server has as many event streams as it may (--events-max)".into()),
            TableProblem::Store => (503, "store-unavailable", "The store does not answer",
                "the table store could not be reached; nothing was changed".into()),
            TableProblem::Api(e) => (e.status(), e.slug(), "", String::new()),
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            TableProblem::TablesFull | TableProblem::GroupsFull => Some(tables::RETRY_AFTER_FULL),
            TableProblem::RateLimited(s) => Some(*s),
            TableProblem::Streams(_) => Some(tables::RETRY_AFTER_STREAMS),
            TableProblem::Store => Some(tables::RETRY_AFTER_STORE),
            _ => None,
        }
    }
}

impl ResponseError for TableProblem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.parts().0).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        if let TableProblem::Api(e) = self {
            return super::super::problem::Refusal(e.clone()).error_response();
        }
        let (status, slug, title, detail) = self.parts();
        let problem = Problem {
            type_: format!("/problems/{slug}"),
            title: title.into(),
            status,
            detail,
            errors: vec![],
        };
        let mut body = serde_json::to_vec(&problem).unwrap_or_default();
        // The current table as an extension member, after the problem's own.
        if let (TableProblem::Conflict(table), Some(b'}')) = (self, body.last()) {
            body.pop();
            body.extend_from_slice(b",\"table\":");
            body.extend_from_slice(table);
            body.push(b'}');
        }
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        if let Some(s) = self.retry_after() {
            res.insert_header((header::RETRY_AFTER, s.to_string()));
        }
        if let TableProblem::Unauthorized = self {
            res.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        res.body(body)
    }
}

/// A change's key problems, common to the endpoints that change a table.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // a schema only: never built
pub enum KeyProblems {
    /// No key (`/problems/unauthorized`): `Authorization: Bearer {key}`
    #[response(status = 401, content_type = "application/problem+json")]
    Unauthorized(Problem),
    /// A key that is not this table's (`/problems/forbidden`)
    #[response(status = 403, content_type = "application/problem+json")]
    Forbidden(Problem),
}

/// An id that names no table, or a server without tables.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // a schema only: never built
pub enum NoTable {
    /// No table has this id (`/problems/no-such-table`), or the server keeps no tables (`/problems/tables-disabled`)
    #[response(status = 404, content_type = "application/problem+json")]
    NoSuchTable(Problem),
}

/// A change made from a version that is not the current one.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code, clippy::large_enum_variant)] // a schema only: never built
pub enum VersionProblems<'a> {
    /// The version has moved (`/problems/version-conflict`): the body carries the current table
    #[response(status = 412, content_type = "application/problem+json")]
    Conflict(TableConflict<'a>),
    /// No `If-Match` (`/problems/precondition-required`)
    #[response(status = 428, content_type = "application/problem+json")]
    PreconditionRequired(Problem),
}
