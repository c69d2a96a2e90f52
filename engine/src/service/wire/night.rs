//! A night played hand by hand: what a shared table keeps between hands
//! ([`NightState`]) and the step that plays one hand onto it. A night's
//! rows and summary written this way are, joined, byte for byte what
//! `POST /v1/ledger` answers for the whole request (the tables' tests hold
//! them to it), while a change costs one hand whatever the night's length.

use crate::api::{ApiError, HouseRulesDto};
use crate::core::ledger::{LedgerState, StartSpec, PLAYERS};
use crate::core::{HouseRuleFields, HouseRules, Ruleset};
use crate::service::pipeline::Resolved;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// What a night holds between two hands: the ledger's running state and
/// the house rules in force after its last change of rules (`None`: the
/// night's own, never changed), kept as the answer's `in_force` writes
/// them and read back as a request's house rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NightState {
    pub ledger: LedgerState,
    #[serde(deserialize_with = "stored_rules")]
    pub in_force: Option<HouseRuleFields>,
}

/// House rules kept as a request sends them, read as a request's.
fn stored_rules<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<HouseRuleFields>, D::Error> {
    Option::<HouseRulesDto>::deserialize(d).map(|h| h.as_ref().map(HouseRulesDto::to_fields))
}

/// One hand played: the row it adds, the night after it, and the answer's
/// summary (`{"ruleset":…,"next":…}`, the answer without `hands`).
pub struct NightStep {
    pub row: Vec<u8>,
    pub state: NightState,
    pub summary: Vec<u8>,
}

/// The night's request with its parts borrowed as the core takes them.
pub(super) struct Night<'n> {
    pub(super) resolved: Resolved,
    pub(super) names: Vec<&'n str>,
    pub(super) start: Option<StartSpec<&'n str>>,
}

impl<'n> Night<'n> {
    pub(super) fn players(&self) -> Result<[&str; PLAYERS], ApiError> {
        let ruleset = self.resolved.ruleset();
        LedgerState::start(ruleset, &self.names, self.start.as_ref())
            .map(|(p, _)| p)
            .map_err(ApiError::from)
    }

    /// The rules in force at `state`.
    pub(super) fn current(&self, state: &NightState) -> Result<Cow<'_, Ruleset>, ApiError> {
        let Some(in_force) = &state.in_force else {
            return Ok(Cow::Borrowed(self.resolved.ruleset()));
        };
        // Merged by the change that made it, from checked house rules.
        HouseRules::try_from(in_force.clone())
            .and_then(|h| self.resolved.base.with_house_rules(&h))
            .map(Cow::Owned)
            .map_err(|errs| ApiError::invalid(errs.into_iter().map(Into::into).collect()))
    }
}
