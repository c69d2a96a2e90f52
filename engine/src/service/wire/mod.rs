//! The wire side of the service: parse (request bodies into the DTOs of
//! `api`, read by `api::json`), resolve (`resolve`: a ruleset and house
//! rules into core types), render (response bodies: `render`, the
//! hand-written writer, and serde for the rest), and the byte-keyed cache
//! in front. What a body asks is done by the typed pipeline
//! (`service::pipeline`); this layer only reads, resolves and writes.

mod meta;
pub mod night;
mod problem;
pub mod render;
mod resolve;
mod sink;

use super::pipeline::{overflow, Analyzed, Played, Scored, Settled};
use super::{CacheStatus, Service};
use crate::api::json::{check_depth, parse_checked};
use crate::api::{
    AnalyzeRequest, ApiError, BatchRequest, CompareRequest, FalseWinRequest, FalseWinResponse,
    HouseRulesDto, LedgerHandDto, LedgerRequest, RulesetDetail, RulesetRef, RulesetsDto,
    ScoreRequest, SettleRequest, ValidateRequest, WaitsRequest, WaitsResponse, MAX_COMPARE,
};
use crate::core::hand::HandSpec;
use crate::core::ledger::LedgerState;
use crate::core::winners::WinnerSpec;
use crate::core::RuleChange;
use crate::core::{settle, ContextSpec, Ruleset};
use bytes::Bytes;
use night::{NightState, NightStep};
use render::NightWriter;
use resolve::with_house_rules;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Arc;

impl Service {
    /// One `POST /v1/score` body (or batch item): the result body.
    pub fn score_body(&self, body: &[u8]) -> Result<(Bytes, CacheStatus), ApiError> {
        if let Some(hit) = self.cache.get_by_request(body) {
            self.count(CacheStatus::Hit);
            return Ok((hit, CacheStatus::Hit));
        }
        let request: ScoreRequest = {
            let _span = tracing::debug_span!("parse").entered();
            parse_checked(body, self.limits.json_depth)?
        };
        let (result, status) = self.score(&request)?;
        self.cache.remember_request(body, &result);
        Ok((result, status))
    }

    /// A parsed score request: the result body.
    pub(crate) fn score(&self, r: &ScoreRequest<'_>) -> Result<(Bytes, CacheStatus), ApiError> {
        let base = self.ruleset(&r.ruleset, "/ruleset")?;
        self.score_spec(
            base,
            "/ruleset",
            &r.house_rules,
            &r.hand.to_core(),
            &r.context.to_core(),
        )
    }

    /// One hand resolved, checked and scored, without the cache: the CLI's
    /// way in (its table is made from the typed result).
    pub fn score_hand(
        &self,
        ruleset: &RulesetRef<'_>,
        house: &Option<HouseRulesDto>,
        hand: &HandSpec<&str>,
        context: &ContextSpec,
    ) -> Result<Scored, ApiError> {
        let resolved = self.resolve(ruleset, "/ruleset", house)?;
        let checked = self.check(&resolved, hand, context)?;
        Ok(self.score_checked(resolved, "/ruleset", checked)?)
    }

    /// Checks and keys, looks up the cache, and scores on a miss.
    fn score_spec(
        &self,
        base: (Arc<Ruleset>, super::key::KeyBy),
        ruleset_at: &str,
        house: &Option<HouseRulesDto>,
        hand: &HandSpec<&str>,
        ctx: &ContextSpec,
    ) -> Result<(Bytes, CacheStatus), ApiError> {
        let resolved = with_house_rules(base, house)?;
        let checked = self.check(&resolved, hand, ctx)?;
        if let Some(body) = self.cache.get(&checked.hand_hash) {
            self.count(CacheStatus::Hit);
            return Ok((body, CacheStatus::Hit));
        }
        self.count(CacheStatus::Miss);
        let hand_hash = checked.hand_hash;
        let body = self.score_checked(resolved, ruleset_at, checked)?.body();
        self.cache.insert(hand_hash, body.clone());
        Ok((body, CacheStatus::Miss))
    }

    /// `POST /v1/score/batch`: `{"results": [...]}`, one result body or
    /// problem per item, in order. Each item is read like a score body
    /// (an inline ruleset repeated across items is resolved once).
    pub fn batch(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        // The items are kept raw, so the whole body's depth is checked first.
        check_depth(body, self.limits.json_depth)?;
        let batch: BatchRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        if batch.requests.len() > self.limits.batch {
            return Err(ApiError::BatchTooLarge {
                got: batch.requests.len(),
                max: self.limits.batch,
            });
        }
        let mut out = Vec::with_capacity(64 + batch.requests.len() * 1024);
        out.extend_from_slice(b"{\"results\":[");
        for (i, item) in batch.requests.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            match self.score_body(item.get().as_bytes()) {
                Ok((body, _)) => out.extend_from_slice(&body),
                Err(e) => out.extend_from_slice(&e.to_json()),
            }
        }
        out.extend_from_slice(b"]}");
        Ok(out)
    }

    /// `POST /v1/compare`: `{"results": {key: result or problem}}`. An id
    /// is its own key (a repeat is answered once); a document is keyed by
    /// its ruleset's id, or by its pointer (`/rulesets/<i>`) when that id
    /// is taken by another entry or the document does not resolve.
    pub fn compare(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: CompareRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let list: Vec<(RulesetRef<'_>, String)> = match &r.rulesets {
            RulesetsDto::Word(w) if w == "all" => self
                .registry
                .ids()
                .map(|id| (RulesetRef::Id(Cow::Borrowed(id)), "/rulesets".into()))
                .collect(),
            RulesetsDto::Word(w) => {
                return Err(ApiError::field(
                    "/rulesets",
                    format!(
                        "expected a list of ruleset ids or documents, or \"all\", got {}",
                        crate::core::echo::Quoted(w)
                    ),
                ))
            }
            RulesetsDto::TooMany(n) => {
                return Err(ApiError::field(
                    "/rulesets",
                    format!("a compare names at most {MAX_COMPARE} rulesets, got {n}"),
                ))
            }
            RulesetsDto::List(list) if list.is_empty() => {
                return Err(ApiError::field(
                    "/rulesets",
                    "give at least one ruleset id or document, or \"all\"",
                ))
            }
            RulesetsDto::List(list) => list
                .iter()
                .enumerate()
                .map(|(i, r)| (r.clone(), format!("/rulesets/{i}")))
                .collect(),
        };
        // Sets, not lists: looking each entry up in a list was the square
        // of the entries.
        let ids: HashSet<&str> = list.iter().filter_map(|(r, _)| r.id()).collect();
        let mut taken: HashSet<String> = HashSet::with_capacity(list.len());
        let mut keys: Vec<String> = Vec::with_capacity(list.len());
        let mut entries = Vec::with_capacity(list.len());
        for (r, pointer) in &list {
            let base = self.ruleset(r, pointer);
            let key = match (r, &base) {
                (RulesetRef::Id(id), _) => id.to_string(),
                (RulesetRef::Document(_), Ok((b, _)))
                    if !ids.contains(b.id()) && !taken.contains(b.id()) =>
                {
                    b.id().to_string()
                }
                (RulesetRef::Document(_), _) => pointer.clone(),
            };
            if taken.insert(key.clone()) {
                keys.push(key);
                entries.push((base, pointer.as_str()));
            }
        }
        let (hand, context) = (r.hand.to_core(), r.context.to_core());
        let mut out = Vec::with_capacity(64 + keys.len() * 1024);
        out.extend_from_slice(b"{\"results\":{");
        for (i, (key, (base, pointer))) in keys.iter().zip(entries).enumerate() {
            if i > 0 {
                out.push(b',');
            }
            // A key is a JSON string: serde_json's escaping.
            let _ = serde_json::to_writer(&mut out, key);
            out.push(b':');
            match base.and_then(|b| self.score_spec(b, pointer, &r.house_rules, &hand, &context)) {
                Ok((body, _)) => out.extend_from_slice(&body),
                Err(e) => out.extend_from_slice(&e.to_json()),
            }
        }
        out.extend_from_slice(b"}}");
        Ok(out)
    }

    /// `POST /v1/rulesets/validate`: the resolved chart (house rules
    /// applied, with `ruleset_hash`), or every problem.
    pub fn validate(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: ValidateRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        Ok(to_json(&RulesetDetail::from(resolved.ruleset())))
    }

    /// `POST /v1/waits`.
    pub fn waits(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: WaitsRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let ruleset = resolved.ruleset();
        let hand = r.hand.to_core();
        super::check_hand_size(&hand)?;
        let found = crate::core::waits::waits(ruleset, &hand, &r.context.to_core())?;
        Ok(to_json(&WaitsResponse::new(ruleset.id(), &found)))
    }

    /// `POST /v1/analyze`: a hand before the win (shanten, acceptance, each
    /// discard, and the chances where asked for).
    pub fn analyze(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: AnalyzeRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        Ok(to_json(&self.analyze_typed(&r)?.response()))
    }

    /// A parsed analyze request: the core's analysis with the ruleset it
    /// was made under (the CLI builds the request typed and calls this, so
    /// it never writes or re-reads a JSON body).
    pub fn analyze_typed(&self, r: &AnalyzeRequest<'_>) -> Result<Analyzed, ApiError> {
        let ask = match r.chances {
            Some(c) if !(1..=crate::core::chances::MAX_DRAWS).contains(&c.draws) => {
                return Err(ApiError::field(
                    "/chances/draws",
                    format!(
                        "draws is how many more tiles the player will draw: 1 to {}, got {}",
                        crate::core::chances::MAX_DRAWS,
                        c.draws
                    ),
                ))
            }
            Some(c) => Some(crate::core::analysis::Ask {
                draws: c.draws,
                discards: c.discards,
                changes: crate::core::hand_changes::Changes {
                    swaps: c.hand_changes,
                    shanten_down: c.shanten_down,
                },
                every_discard: c.every_discard,
            }),
            None => None,
        };
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        Ok(self.analyze_hand(
            resolved,
            &r.hand.to_core(),
            &r.context.to_core(),
            r.seen.as_deref(),
            ask,
        )?)
    }

    /// `POST /v1/settle`: several winners on one discard.
    pub fn settle(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: SettleRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        Ok(self.settle_request(&r)?.body())
    }

    /// Settles a parsed request, keeping the parts its body is written
    /// from (the ruleset and house rules resolved once).
    pub fn settle_request(&self, r: &SettleRequest<'_>) -> Result<Settled, ApiError> {
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let mut winners: Vec<WinnerSpec<&str>> = Vec::with_capacity(r.winners.len());
        let mut errs = Vec::new();
        for (i, w) in r.winners.iter().enumerate() {
            match w.to_core(&format!("/winners/{i}")) {
                Ok(w) => winners.push(w),
                Err(e) => errs.push(*e),
            }
        }
        if !errs.is_empty() {
            return Err(errs.into());
        }
        Ok(self.settle_winners(resolved, &winners)?)
    }

    /// `POST /v1/ledger`: a whole match. A bad hand fails it all.
    pub fn ledger(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: LedgerRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        Ok(self.ledger_request(&r)?.body())
    }

    /// `POST /v1/ledger` with `Accept: text/csv`: the night as CSV in `lang`.
    pub fn ledger_csv(&self, body: &[u8], lang: render::Lang) -> Result<Vec<u8>, ApiError> {
        let r: LedgerRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        Ok(self.ledger_request(&r)?.csv(lang))
    }

    /// Plays a parsed match, keeping the parts its body is written from.
    pub fn ledger_request<'r>(&self, r: &'r LedgerRequest<'_>) -> Result<Played<'r>, ApiError> {
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let (spec, changes) = r.to_core_with_changes()?;
        let mut played = self.play(resolved, &spec)?;
        played.changes = changes;
        Ok(played)
    }

    /// `POST /v1/penalties/false-win`.
    pub fn false_win(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: FalseWinRequest = parse_checked(body, self.limits.json_depth)?;
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let ruleset = resolved.ruleset();
        let offender = r.offender;
        let payments = settle::false_win(ruleset, offender);
        let cents = settle::money(ruleset, &payments)
            .map_err(|what| overflow(&resolved, "/ruleset", what))?;
        Ok(to_json(&FalseWinResponse::new(
            ruleset.id(),
            ruleset,
            offender,
            payments,
            cents,
        )))
    }

    /// The night `r` names, resolved, before any of its hands.
    fn night<'n>(&self, r: &'n LedgerRequest<'_>) -> Result<night::Night<'n>, ApiError> {
        Ok(night::Night {
            resolved: self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?,
            names: r.players.iter().map(|p| &**p).collect(),
            start: r.start.as_ref().map(|s| crate::core::ledger::StartSpec {
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

/// A response body by serde. The API's types always serialise (every map
/// key is a string), so there is no error to report.
pub fn to_json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}
