//! The typed pipeline: a resolved ruleset and checked hands in, typed
//! results out (`Scored`, `Settled`, `Played`, `Analyzed`), each carrying
//! the validated hand and context it was made from. No bytes, no JSON and
//! no wire DTO here: the wire layer (`service::wire`) parses bodies,
//! resolves their rulesets and house rules into core types
//! (`wire::resolve`), calls these and writes their results; the CLI
//! formats the results itself.
//!
//! ```text
//! Resolved::new (a ruleset, checked house rules applied) ─► Resolved
//! check (size, Hand/Context::try_from, hand_hash)         ─► Checked
//! score ─► Scored      settle ─► Settled      play ─► Played      analyze ─► Analyzed
//! ```

use super::error::ServiceError;
use super::key::{self, KeyBy, KeyHash};
use super::{Service, MAX_MELDS, MAX_TILE_DIGITS};
use crate::core::analysis::{self, Analysis, Ask};
use crate::core::hand::{Claim, Context, FieldError, Hand, HandRule, HandSpec};
use crate::core::ledger::{self, LedgerHandSpec, LedgerSpec};
use crate::core::settle::Overflow;
use crate::core::waits::WaitContext;
use crate::core::winners::{self, TableError, WinnerSpec};
use crate::core::{evaluate, ContextSpec, HouseRules, Ruleset, Score, ScoreError};
use std::sync::Arc;

/// A request's ruleset (a built-in, or a document resolved) with its house rules applied.
pub struct Resolved {
    /// The ruleset before house rules.
    pub base: Arc<Ruleset>,
    /// How the cache key names `base` (`key::KeyBy`).
    pub key_by: KeyBy,
    pub house: HouseRules,
    /// `base` with the house rules applied, when there are any.
    applied: Option<Ruleset>,
}

impl Resolved {
    /// `base` with checked house rules applied (as an overlay: the
    /// text and, unless changed, the patterns are shared), or every reason
    /// they do not apply to it.
    pub fn new(
        (base, key_by): (Arc<Ruleset>, KeyBy),
        house: HouseRules,
    ) -> Result<Resolved, Vec<FieldError>> {
        let applied = if house.is_empty() {
            None
        } else {
            Some(base.with_house_rules(&house)?)
        };
        Ok(Resolved {
            base,
            key_by,
            house,
            applied,
        })
    }

    /// The ruleset in force: `base`, or its copy with the house rules applied.
    pub fn ruleset(&self) -> &Ruleset {
        self.applied.as_ref().unwrap_or(&self.base)
    }
}

/// A hand checked under a resolved ruleset, and its cache key.
pub struct Checked {
    pub hand: Hand,
    pub context: Context,
    pub hand_hash: KeyHash,
}

/// A scored hand with everything its result is made from.
pub struct Scored {
    pub resolved: Resolved,
    pub hand: Hand,
    pub context: Context,
    pub score: Score,
    pub hand_hash: KeyHash,
}

/// An analysed hand with the ruleset it was analysed under.
pub struct Analyzed {
    pub resolved: Resolved,
    pub analysis: Analysis,
}

/// Several winners settled: each result holds its validated hand and
/// context (`winners::WinnerResult`).
pub struct Settled {
    pub resolved: Resolved,
    pub settlement: winners::Settlement,
    /// Each winner's `hand_hash`, in request order (none for a declared winner).
    pub hashes: Vec<Option<KeyHash>>,
}

/// A played match (`'r`: the request the names borrow from).
pub struct Played<'r> {
    pub resolved: Resolved,
    pub ledger: ledger::Ledger,
    /// The players, in request order.
    pub names: [&'r str; ledger::PLAYERS],
    /// Each change of rules as the answer shows it, in hand order.
    pub changes: Vec<crate::core::RuleChange>,
}

/// One hand played onto a night kept hand by hand: its row, the night
/// after it, and the new rules in force if it changed them.
pub struct Step {
    pub row: ledger::LedgerHand,
    pub state: ledger::LedgerState,
    pub changed: Option<Ruleset>,
}

/// Rejects hands of impossible size before the core sees them.
pub(crate) fn check_hand_size<S: AsRef<str>>(hand: &HandSpec<S>) -> Result<(), ServiceError> {
    check_hand_size_at(hand, &"")
}

/// [`check_hand_size`] for a hand found at `{at}/hand` of the request
/// (`at` is written out only for an error).
fn check_hand_size_at<S: AsRef<str>>(
    hand: &HandSpec<S>,
    at: &dyn std::fmt::Display,
) -> Result<(), ServiceError> {
    let digits = hand
        .tiles
        .as_ref()
        .bytes()
        .filter(u8::is_ascii_digit)
        .count();
    if digits > MAX_TILE_DIGITS {
        return Err(FieldError::rule(
            format!("{at}/hand/tiles"),
            HandRule::TooManyTiles {
                count: digits,
                max: MAX_TILE_DIGITS,
            },
        )
        .into());
    }
    if hand.melds.len() > MAX_MELDS {
        return Err(FieldError::rule(
            format!("{at}/hand/melds"),
            HandRule::TooManyMelds {
                got: hand.melds.len(),
            },
        )
        .into());
    }
    Ok(())
}

impl Service {
    /// Checks the hand's size, validates it under the resolved ruleset
    /// (`Hand`/`Context` made by `TryFrom`, the one way to get them) and
    /// keys it (`hand_hash`).
    pub(crate) fn check(
        &self,
        resolved: &Resolved,
        hand: &HandSpec<&str>,
        context: &ContextSpec,
    ) -> Result<Checked, ServiceError> {
        let (hand, context) = {
            let _span = tracing::debug_span!("validate").entered();
            check_hand_size(hand)?;
            <(Hand, Context)>::try_from(Claim {
                hand,
                context,
                allow: evaluate::allowances(resolved.ruleset()),
            })?
        };
        let hand_hash = key::key_hash(
            &resolved.base,
            resolved.key_by,
            &resolved.house,
            &hand,
            &context,
        );
        Ok(Checked {
            hand,
            context,
            hand_hash,
        })
    }

    /// Scores a checked hand (`ruleset_at`: where the request gave its
    /// ruleset, for an overflow's pointer). No cache: that is the wire's,
    /// which holds bodies.
    pub(crate) fn score_checked(
        &self,
        resolved: Resolved,
        ruleset_at: &str,
        checked: Checked,
    ) -> Result<Scored, ServiceError> {
        let score = {
            let _span = tracing::debug_span!("score").entered();
            match evaluate::score_hand(resolved.ruleset(), &checked.hand, &checked.context) {
                Ok(s) => s,
                Err(ScoreError::Overflow(what)) => {
                    return Err(overflow(&resolved, ruleset_at, what))
                }
                Err(e) => return Err(e.into()),
            }
        };
        Ok(Scored {
            resolved,
            hand: checked.hand,
            context: checked.context,
            score,
            hand_hash: checked.hand_hash,
        })
    }

    /// Several winners on one discard. Each winner is validated once, by
    /// the core's settlement, and keyed (`hand_hash`) from that validated
    /// hand as score keys it, so one winner answers what score does.
    pub(crate) fn settle_winners(
        &self,
        resolved: Resolved,
        winners: &[WinnerSpec<&str>],
    ) -> Result<Settled, ServiceError> {
        for (i, w) in winners.iter().enumerate() {
            if let Some(hand) = w.claim.hand() {
                check_hand_size_at(hand, &format_args!("/winners/{i}"))?;
            }
        }
        let settlement = winners::settle_winners(resolved.ruleset(), winners)
            .map_err(|e| table_error(&resolved, "/ruleset", e))?;
        let hashes = settlement
            .results
            .iter()
            .map(|w| match &w.source {
                winners::Source::Tiles(hand) => Some(key::key_hash(
                    &resolved.base,
                    resolved.key_by,
                    &resolved.house,
                    hand,
                    &w.context,
                )),
                winners::Source::Declared(_) => None,
            })
            .collect();
        Ok(Settled {
            resolved,
            settlement,
            hashes,
        })
    }

    /// A whole match. A bad hand fails it all.
    pub(crate) fn play<'r>(
        &self,
        resolved: Resolved,
        spec: &LedgerSpec<&'r str>,
    ) -> Result<Played<'r>, ServiceError> {
        if spec.hands.len() <= self.limits.ledger_hands {
            for (h, hand) in spec.hands.iter().enumerate() {
                if let LedgerHandSpec::Win { winners } = hand {
                    for (i, w) in winners.iter().enumerate() {
                        if let Some(hand) = w.claim.hand() {
                            check_hand_size_at(hand, &format_args!("/hands/{h}/winners/{i}"))?;
                        }
                    }
                }
            }
        }
        let ledger = ledger::ledger_over(
            &resolved.base,
            resolved.ruleset(),
            spec,
            self.limits.ledger_hands,
        )
        .map_err(|e| table_error(&resolved, "/ruleset", e))?;
        // The core checked there are four players.
        let names = std::array::from_fn(|p| spec.players.get(p).copied().unwrap_or_default());
        Ok(Played {
            resolved,
            ledger,
            names,
            changes: Vec::new(),
        })
    }

    /// Plays `hand` as the next hand of a night at `state` under `current`,
    /// the rules in force (a change of rules applies over `resolved.base`),
    /// with the checks [`Service::play`] makes of each hand: what a whole
    /// ledger of the night's hands answers for that hand, and no more work.
    pub(crate) fn play_next(
        &self,
        resolved: &Resolved,
        current: &Ruleset,
        players: &[&str; ledger::PLAYERS],
        state: &ledger::LedgerState,
        hand: &LedgerHandSpec<&str>,
    ) -> Result<Step, ServiceError> {
        let h = state.hands;
        if h >= self.limits.ledger_hands {
            return Err(ServiceError::from(FieldError::rule(
                "/hands",
                HandRule::LedgerTooManyHands {
                    max: self.limits.ledger_hands,
                    got: h + 1,
                },
            )));
        }
        if let LedgerHandSpec::Win { winners } = hand {
            for (i, w) in winners.iter().enumerate() {
                if let Some(hand) = w.claim.hand() {
                    check_hand_size_at(hand, &format_args!("/hands/{h}/winners/{i}"))?;
                }
            }
        }
        let (row, state, changed) = state
            .play(&resolved.base, current, players, hand)
            .map_err(|e| table_error(resolved, "/ruleset", e))?;
        Ok(Step {
            row,
            state,
            changed,
        })
    }

    /// A hand before the win: shanten, acceptance, each discard, and the
    /// chances where `ask` asks for them.
    pub(crate) fn analyze_hand(
        &self,
        resolved: Resolved,
        hand: &HandSpec<&str>,
        context: &WaitContext,
        seen: Option<&str>,
        ask: Option<Ask>,
    ) -> Result<Analyzed, ServiceError> {
        check_hand_size(hand)?;
        let analysis = analysis::analyze(resolved.ruleset(), hand, context, seen, ask)?;
        Ok(Analyzed { resolved, analysis })
    }
}

/// The 422 of a total or an amount too large to answer exactly, at what
/// set it: money at the stake (`/house_rules/stake` when the request sets
/// one or names a built-in ruleset; else the document's own stake or chip
/// rate under `ruleset_at`), a total at the pattern of its largest line (the
/// house rule that set its value, else the document's pattern; else the
/// house rules, which alone can push a built-in that far).
#[cold]
pub(super) fn overflow(resolved: &Resolved, ruleset_at: &str, what: Overflow) -> ServiceError {
    let house = resolved.house.fields();
    let document = resolved.key_by == KeyBy::Hash;
    let pointer = match what {
        Overflow::Money if house.stake.is_some() || !document => "/house_rules/stake".to_string(),
        Overflow::Money if resolved.ruleset().table().stake.is_some() => {
            format!("{ruleset_at}/table/stake")
        }
        Overflow::Money => format!("{ruleset_at}/money/usd_per_100_chips"),
        Overflow::Faan(p) | Overflow::BasePoints(p) => {
            if house.patterns.iter().any(|(k, _)| k == p.as_str()) {
                format!("/house_rules/patterns/{p}")
            } else if document {
                format!("{ruleset_at}/patterns/{p}")
            } else if house.limits_add.is_some() {
                "/house_rules/limits_add".to_string()
            } else {
                "/house_rules".to_string()
            }
        }
    };
    ServiceError::Overflow { what, pointer }
}

/// A settlement's or a ledger's error; an overflow the core did not place
/// (at a ledger hand) placed by [`overflow`].
fn table_error(resolved: &Resolved, ruleset_at: &str, e: TableError) -> ServiceError {
    match e {
        TableError::Overflow {
            what,
            pointer: None,
        } => overflow(resolved, ruleset_at, what),
        e => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Registry, WinBy, Wind};

    /// One winner settled is the hand score checks: the same validated
    /// hand and context (validated once, by the settlement) and so the
    /// same `hand_hash`.
    #[test]
    fn a_settled_winner_is_checked_and_keyed_as_its_score() {
        let service = Service::uncached(Registry::builtin().unwrap());
        let hand = HandSpec {
            tiles: "123456m789p23455s",
            melds: vec![],
            winning_tile: Some("9p"),
            flowers: vec![],
        };
        let context = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
        let resolved = || {
            let hkma = service.registry().get("hkma").expect("hkma is built in");
            Resolved::new((Arc::clone(hkma), KeyBy::Id), HouseRules::default()).unwrap()
        };
        let checked = service
            .check(&resolved(), &hand, &context)
            .expect("the hand is valid");
        let scored = service
            .score_checked(resolved(), "/ruleset", checked)
            .expect("hkma scores the hand");
        let settled = service
            .settle_winners(
                resolved(),
                &[WinnerSpec {
                    claim: hand.into(),
                    context,
                }],
            )
            .expect("one winner settles");
        let winner = &settled.settlement.results[0];
        assert_eq!(
            winner.source,
            winners::Source::Tiles(scored.hand.clone()),
            "the validated hand"
        );
        assert_eq!(winner.context, scored.context, "the validated context");
        assert_eq!(settled.hashes, vec![Some(scored.hand_hash)], "hand_hash");
        assert_eq!(winner.score, scored.score, "the score");
    }
}
