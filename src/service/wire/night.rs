//! A night played hand by hand: what a shared table keeps between hands
//! ([`NightState`]) and the step that plays one hand onto it. A night's
//! rows and summary written this way are, joined, byte for byte what
//! `POST /v1/ledger` answers for the whole request (the tables' tests hold
//! them to it), while a change costs one hand whatever the night's length.

use super::render::NightWriter;
use crate::api::{ApiError, HouseRulesDto, LedgerHandDto, LedgerRequest};
use crate::core::ledger::{LedgerState, StartSpec, PLAYERS};
use crate::core::{HouseRuleFields, HouseRules, RuleChange, Ruleset};
use crate::service::pipeline::Resolved;
use crate::service::Service;
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
struct Night<'n> {
    resolved: Resolved,
    names: Vec<&'n str>,
    start: Option<StartSpec<&'n str>>,
}

impl<'n> Night<'n> {
    fn players(&self) -> Result<[&str; PLAYERS], ApiError> {
        let ruleset = self.resolved.ruleset();
        LedgerState::start(ruleset, &self.names, self.start.as_ref())
            .map(|(p, _)| p)
            .map_err(ApiError::from)
    }

    /// The rules in force at `state`.
    fn current(&self, state: &NightState) -> Result<Cow<'_, Ruleset>, ApiError> {
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

impl Service {
    fn night<'n>(&self, r: &'n LedgerRequest<'_>) -> Result<Night<'n>, ApiError> {
        Ok(Night {
            resolved: self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?,
            names: r.players.iter().map(|p| &**p).collect(),
            start: r.start.as_ref().map(|s| StartSpec {
                round_wind: s.round_wind,
                dealer: s.dealer.as_deref(),
            }),
        })
    }

    /// The night `r` (its `hands` not read) before its first hand: its
    /// state and summary, or the problem `POST /v1/ledger` answers.
    pub fn night_start(&self, r: &LedgerRequest<'_>) -> Result<(NightState, Vec<u8>), ApiError> {
        let night = self.night(r)?;
        let ruleset = night.resolved.ruleset();
        let (players, ledger) = LedgerState::start(ruleset, &night.names, night.start.as_ref())?;
        let summary = NightWriter::new(ruleset, &players)
            .summary(ruleset.id(), &ledger.ledger(Vec::new(), ruleset));
        Ok((
            NightState {
                ledger,
                in_force: None,
            },
            summary,
        ))
    }

    /// The summary of the night `r` at `state` (after an undo).
    pub fn night_summary(
        &self,
        r: &LedgerRequest<'_>,
        state: &NightState,
    ) -> Result<Vec<u8>, ApiError> {
        let night = self.night(r)?;
        let players = night.players()?;
        let current = night.current(state)?;
        let ruleset = night.resolved.ruleset();
        Ok(NightWriter::new(ruleset, &players)
            .summary(ruleset.id(), &state.ledger.ledger(Vec::new(), &current)))
    }

    /// Plays `hand` as the next hand of the night `r` (its `hands` not
    /// read) at `state`. A problem points at `/hands/{n}` as a ledger of
    /// the night's hands and this one would.
    pub fn night_play(
        &self,
        r: &LedgerRequest<'_>,
        state: &NightState,
        hand: &LedgerHandDto<'_>,
    ) -> Result<NightStep, ApiError> {
        let night = self.night(r)?;
        let players = night.players()?;
        let current = night.current(state)?;
        let mut in_force = state.in_force.clone();
        let mut errs = Vec::new();
        let built = hand.to_core(
            state.ledger.hands,
            r.house_rules.as_ref(),
            &mut in_force,
            &mut errs,
        );
        let (spec, change) = match built {
            Some(b) if errs.is_empty() => b,
            _ => return Err(ApiError::invalid(errs)),
        };
        let step = self.play_next(&night.resolved, &current, &players, &state.ledger, &spec)?;
        let after = step.changed.as_ref().unwrap_or(&current);
        let ruleset = night.resolved.ruleset();
        let w = NightWriter::new(ruleset, &players);
        let changes: Vec<RuleChange> = change.into_iter().collect();
        let row = w.row(&step.row, &changes);
        let summary = w.summary(ruleset.id(), &step.state.ledger(Vec::new(), after));
        Ok(NightStep {
            row,
            state: NightState {
                ledger: step.state,
                in_force,
            },
            summary,
        })
    }
}
