//! What the pipeline refuses, in the core's terms. The wire maps each to
//! its problem (`wire::problem`): the pipeline names the field at fault
//! and never words an answer, so the CLI and HTTP report one refusal alike.

use crate::core::hand::FieldError;
use crate::core::settle::Overflow;
use crate::core::winners::TableError;
use crate::core::ScoreError;

/// Why the pipeline could not answer a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServiceError {
    /// Broken rules, each at its field (a hand too large, a hand or
    /// context that fails validation).
    Rules(Vec<FieldError>),
    /// The core refused a hand: a broken rule, or tiles that form no
    /// winning hand (at `/hand/tiles`).
    Score(ScoreError),
    /// The core refused a settlement's or a ledger's winners.
    Table(TableError),
    /// A total or an amount too large to answer exactly, at what set it.
    Overflow { what: Overflow, pointer: String },
}

impl From<FieldError> for ServiceError {
    fn from(e: FieldError) -> Self {
        ServiceError::Rules(vec![e])
    }
}

impl From<Vec<FieldError>> for ServiceError {
    fn from(errs: Vec<FieldError>) -> Self {
        ServiceError::Rules(errs)
    }
}

impl From<ScoreError> for ServiceError {
    fn from(e: ScoreError) -> Self {
        ServiceError::Score(e)
    }
}

impl From<TableError> for ServiceError {
    fn from(e: TableError) -> Self {
        ServiceError::Table(e)
    }
}
