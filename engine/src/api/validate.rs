//! `POST /v1/rulesets/validate`'s body: a ruleset and house rules. Not in
//! [`super::document`], which the request DTOs use (`RulesetRef`): a body
//! with both lives above them, so the imports run one way.

use super::common::object_only;
use super::document::RulesetRef;
use super::request::HouseRulesDto;
use serde::Deserialize;
use utoipa::ToSchema;

/// POST /v1/rulesets/validate: a ruleset (an id or a document) and house
/// rules to check against it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateRequest<'a> {
    #[serde(borrow)]
    pub ruleset: RulesetRef<'a>,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}
