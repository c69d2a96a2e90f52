//! The OpenAPI document's examples: JSON files under `openapi/examples/`,
//! built into the binary (`include_str!`) and parsed when the document is
//! built (once per process), instead of `json!` literals thousands of
//! characters long in the handlers' attributes. `tests/api/meta.rs` checks
//! the document is still `openapi/openapi.json`, and the API tests that the
//! answers shown are the real answers.

/// An example's JSON text as a value (`null` if it were not JSON: the drift
/// test would show it).
pub fn example(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_default()
}

/// The examples' whole ruleset document: five patterns, full-spicy points.
pub fn pub_rules() -> serde_json::Value {
    example(include_str!("../../openapi/examples/pub-rules.json"))
}

/// The chart of [`pub_rules`], as `POST /v1/rulesets/validate` answers it
/// (written by the core here; the API test checks the endpoint answers it).
pub fn pub_rules_chart() -> serde_json::Value {
    crate::core::ruleset::resolve_document(pub_rules(), |_| None)
        .ok()
        .and_then(|r| serde_json::to_value(crate::api::RulesetDetail::from(&r)).ok())
        .unwrap_or_default()
}
