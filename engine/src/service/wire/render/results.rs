//! The typed results as the wire shows them: each result's view in the
//! `api` schema types (`response`, the oracle the writers are held to) and
//! its body, written by this module's writers.

use super::{ledger_csv, ledger_json, score_json, settle_json, Lang, SettledParts};
use crate::api::{
    self, DeclaredResult, LedgerResponse, ScoreResponse, SettleResponse, SettledOut, SettledResult,
};
use crate::service::pipeline::{Analyzed, Played, Scored, Settled};
use bytes::Bytes;

impl Scored {
    /// The result as its wire view.
    pub fn response(&self) -> ScoreResponse<'_> {
        let r = self.resolved.ruleset();
        ScoreResponse::new(r.id(), r, &self.context, &self.score, self.hand_hash)
    }

    /// The JSON body of the result: the one production serializer of a
    /// score result (`score_json`, byte for byte what serde makes of
    /// [`Scored::response`]; bench/load.md has the A/B that keeps it).
    pub fn body(&self) -> Bytes {
        let _span = tracing::debug_span!("render").entered();
        let ruleset = self.resolved.ruleset();
        Bytes::from(score_json(
            ruleset.id(),
            ruleset,
            &self.context,
            &self.score,
            &self.hand_hash,
        ))
    }
}

impl Analyzed {
    /// The answer as its wire view: what `POST /v1/analyze` answers.
    pub fn response(&self) -> api::AnalyzeResponse<'_> {
        api::AnalyzeResponse::new(self.resolved.ruleset().id(), &self.analysis)
    }
}

impl Settled {
    /// The answer as its wire view: the schema, and the oracle of
    /// `settle_json`.
    pub fn response(&self) -> SettleResponse<'_> {
        let ruleset = self.resolved.ruleset();
        SettleResponse {
            ruleset: ruleset.id(),
            results: self
                .settlement
                .results
                .iter()
                .zip(&self.hashes)
                .map(|(w, hash)| match hash {
                    Some(hash) => SettledOut::Tiles(SettledResult {
                        score: ScoreResponse::new(
                            ruleset.id(),
                            ruleset,
                            &w.context,
                            &w.score,
                            *hash,
                        ),
                        paid: w.paid,
                        source: w.source.name(),
                    }),
                    None => SettledOut::Declared(DeclaredResult::new(ruleset.id(), ruleset, w)),
                })
                .collect(),
            payments: self.settlement.payments.into(),
            money: api::money_of(ruleset, self.settlement.money_cents),
        }
    }

    /// The body of `POST /v1/settle`, written by `settle_json`
    /// (each result the score writer's fields).
    pub fn body(&self) -> Vec<u8> {
        let results: Vec<SettledParts> = self
            .settlement
            .results
            .iter()
            .zip(&self.hashes)
            .map(|(w, hash)| SettledParts {
                context: &w.context,
                score: &w.score,
                hand_hash: hash.as_ref(),
                declared_faan: w.source.declared_faan(),
                paid: w.paid,
            })
            .collect();
        let ruleset = self.resolved.ruleset();
        settle_json(
            ruleset.id(),
            ruleset,
            &results,
            self.settlement.payments,
            self.settlement.money_cents,
        )
    }
}

impl Played<'_> {
    /// The answer as its wire view: the schema, and the oracle of
    /// `ledger_json`.
    pub fn response(&self) -> LedgerResponse<'_> {
        let ruleset = self.resolved.ruleset();
        LedgerResponse::new(
            ruleset.id(),
            ruleset,
            &self.names,
            &self.ledger,
            &self.changes,
        )
    }

    /// The body of `POST /v1/ledger`, written by `ledger_json`.
    pub fn body(&self) -> Vec<u8> {
        let ruleset = self.resolved.ruleset();
        ledger_json(
            ruleset.id(),
            ruleset,
            &self.names,
            &self.ledger,
            &self.changes,
        )
    }

    /// The night as CSV (`Accept: text/csv`) in `lang`, written by `ledger_csv`.
    pub fn csv(&self, lang: Lang) -> Vec<u8> {
        ledger_csv(&self.names, &self.ledger, &self.changes, lang)
    }
}
