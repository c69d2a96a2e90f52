//! The v1 wire model (`docs/api.md`): request and response
//! bodies with their OpenAPI schemas, the problem document, and reading JSON
//! into them. No HTTP here: the service pipeline, the HTTP layer and the CLI
//! all speak these types.

pub mod analyze;
pub mod common;
pub mod document;
pub mod json;
pub mod ledger;
pub mod patterns;
pub mod penalty;
pub mod problem;
pub mod request;
pub mod response;
pub mod rulesets;
pub mod settle;
pub mod tables;
pub mod validate;
pub mod waits;

pub use analyze::{AnalyzeRequest, AnalyzeResponse};
pub use common::*;
pub use document::{RulesetDocument, RulesetRef};
pub use ledger::*;
pub use patterns::{ConditionInfoDto, PatternInfoDto, PatternTable};
pub use penalty::*;
pub use problem::{ApiError, Overload, Problem, ProblemError, PROBLEM_JSON};
pub use request::*;
pub use response::*;
pub use rulesets::*;
pub use settle::*;
pub use validate::ValidateRequest;
pub use waits::*;
