//! The read-only answers: `GET /v1/patterns`, `/v1/rulesets`,
//! `/v1/rulesets/{id}` and `/v1/rulesets/schema`. The server and the
//! WebAssembly module both answer them from here, so their bytes agree.

use super::{to_json, Service};
use crate::api::{ApiError, PatternTable, RulesetDetail, RulesetList, RulesetSummary};

impl Service {
    /// The body of `GET /v1/patterns` (`api::PatternTable`), written once
    /// per process: it is compiled in, and nothing a request sends changes it.
    pub fn patterns(&self) -> &'static [u8] {
        static BODY: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        BODY.get_or_init(|| to_json(&PatternTable::build()))
    }

    /// The body of `GET /v1/rulesets`: every ruleset, in the registry's order.
    pub fn rulesets(&self) -> Vec<u8> {
        to_json(&RulesetList {
            rulesets: self
                .registry
                .all()
                .iter()
                .map(|r| RulesetSummary::from(r.as_ref()))
                .collect(),
        })
    }

    /// The body of `GET /v1/rulesets/{id}`, or the 404 of an unknown id.
    pub fn ruleset_chart(&self, id: &str) -> Result<Vec<u8>, ApiError> {
        let r = self
            .registry
            .get(id)
            .ok_or_else(|| ApiError::UnknownRuleset {
                id: id.to_string(),
                pointer: String::new(),
            })?;
        Ok(to_json(&RulesetDetail::from(r.as_ref())))
    }

    /// The body of `GET /v1/rulesets/schema`, written once per process.
    pub fn ruleset_schema(&self) -> &'static [u8] {
        static BODY: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        BODY.get_or_init(|| to_json(&crate::api::document::standalone_schema()))
    }
}
