//! `POST /v1/ledger`: a whole match, stateless (`docs/api.md`, "A whole
//! match, stateless"). The request names four players and every hand so far;
//! the answer maps seats to players, so deltas and balances are objects
//! keyed by player name, in player order.

use super::common::{borrowed, object_only, Amount};
use super::problem::{ApiError, ProblemError};
use super::request::{HandDto, HouseRulesDto};
use super::response::{lines_dto, HashHex, LineDto};
use super::settle::DeclaredDto;
use crate::core::evaluate::Declared;
use crate::core::hand::{FieldError, HandRule};
use crate::core::ledger::{
    Ledger, LedgerContext, LedgerHandSpec, LedgerSpec, LedgerWinnerSpec, Outcome, StartSpec,
    Transfer, PLAYERS,
};
use crate::core::winners::ClaimSpec;
use crate::core::{ContextSpec, Replacement, RobbedKong, WinBy, Wind};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use utoipa::ToSchema;

mod changes;
use crate::core::ruleset::RuleChange;
use crate::core::HouseRuleFields;

/// POST /v1/ledger: the players and every hand of the match so far, in order.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerRequest<'a> {
    /// A ruleset id (GET /v1/rulesets lists them) or a ruleset document.
    #[serde(borrow)]
    pub ruleset: super::document::RulesetRef<'a>,
    /// Overrides of the ruleset for the whole match (`dealer_keeps_on_win`, `dealer_keeps_on_draw`, `stake`, ...).
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
    /// Four distinct names of 1 to 32 characters, seated east, south, west, north for the first hand when `players[0]` deals.
    #[serde(borrow, deserialize_with = "borrowed::vec")]
    #[schema(schema_with = players_schema)]
    pub players: Vec<Cow<'a, str>>,
    /// Where the match starts (default: the east round, `players[0]` deals).
    #[serde(borrow, default, deserialize_with = "object_only::option")]
    pub start: Option<LedgerStartDto<'a>>,
    /// The hands in order (at most 2,000 by default: `--ledger-hands`).
    #[serde(borrow, deserialize_with = "object_only::vec")]
    pub hands: Vec<LedgerHandDto<'a>>,
}

fn players_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    use crate::core::ledger::MAX_NAME_CHARS;
    super::document::schema_of(serde_json::json!({
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARS},
        "minItems": PLAYERS,
        "maxItems": PLAYERS,
        "description": "Four distinct names of 1 to 32 characters, seated east, south, west, north for the first hand when `players[0]` deals.",
        "example": ["Ann", "Ben", "Cat", "Dan"]
    }))
}

/// Where the match starts.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerStartDto<'a> {
    #[serde(default)]
    pub round_wind: Option<Wind>,
    /// A player's name.
    #[serde(borrow, default, deserialize_with = "borrowed::option")]
    #[schema(value_type = Option<String>, example = "Ann")]
    pub dealer: Option<Cow<'a, str>>,
}

/// What a hand came to.
// Wire-only: the core's hands (`LedgerHandSpec`, `Outcome`) carry their
// winners or offender in the variant; this is the `result` tag alone.
#[derive(
    Clone, Copy, Debug, Deserialize, Serialize, ToSchema, PartialEq, Eq, strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum HandResultDto {
    /// One winner, or several on one discard (`winners`).
    Win,
    /// The wall played out (流局).
    Draw,
    /// A false win (詐糊) by `offender`.
    FalseWin,
    /// A change of rules (`house_rules`), from the next hand on.
    Rules,
    /// The next game, once the north round is over (`players`, `dealer`).
    NewGame,
}

/// One hand of the match: a win with its `winners`, a draw, a false win with its `offender`, a change of rules with its `house_rules`, or a new game with its `players` and `dealer`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerHandDto<'a> {
    pub result: HandResultDto,
    /// A win: one to three winners (several share one discard or robbed kong).
    #[serde(borrow, default, deserialize_with = "object_only::vec")]
    pub winners: Vec<LedgerWinnerDto<'a>>,
    /// A false win: the player who declared it.
    #[serde(borrow, default, deserialize_with = "borrowed::option")]
    #[schema(value_type = Option<String>, example = "Dan")]
    pub offender: Option<Cow<'a, str>>,
    /// A change of rules: house rules merged key by key over those in force, from the next hand on; `null` restores the ruleset's own value of a key.
    #[serde(default)]
    #[schema(value_type = Option<HouseRulesDto>, example = json!({"stake": 1, "points": "half_spicy"}))]
    pub house_rules: Option<serde_json::Value>,
    /// A new game: the four players in their new seats, east, south, west, north (default: the seats as they are).
    #[serde(borrow, default, deserialize_with = "borrowed::option_vec")]
    #[schema(value_type = Option<Vec<String>>, example = json!(["Ben", "Ann", "Dan", "Cat"]))]
    pub players: Option<Vec<Cow<'a, str>>>,
    /// A new game: its first dealer, one of the players (default: the first of `players`, the east seat).
    #[serde(borrow, default, deserialize_with = "borrowed::option")]
    #[schema(value_type = Option<String>, example = "Dan")]
    pub dealer: Option<Cow<'a, str>>,
}

/// A winner of a ledger hand: its `hand`, or what the table `declared`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerWinnerDto<'a> {
    /// A player's name.
    #[serde(borrow)]
    #[schema(value_type = String, example = "Ben")]
    pub player: Cow<'a, str>,
    /// The tiles (exactly one of `hand` and `declared`).
    #[serde(borrow, default, deserialize_with = "object_only::option")]
    pub hand: Option<HandDto<'a>>,
    /// What the table counted, in place of the tiles.
    #[serde(borrow, default, deserialize_with = "object_only::option")]
    pub declared: Option<DeclaredDto<'a>>,
    #[serde(borrow, deserialize_with = "object_only::deserialize")]
    pub context: LedgerContextDto<'a>,
}

/// A score context whose seats the ledger knows: `discarder` and `liable`
/// name players; `seat_wind` and `round_wind` may be left out (if given,
/// they must be what the ledger derives).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerContextDto<'a> {
    pub win_by: WinBy,
    #[serde(default)]
    pub seat_wind: Option<Wind>,
    #[serde(default)]
    pub round_wind: Option<Wind>,
    /// The player who discarded (or added the robbed kong).
    #[serde(borrow, default, deserialize_with = "borrowed::option")]
    #[schema(value_type = Option<String>, example = "Cat")]
    pub discarder: Option<Cow<'a, str>>,
    #[serde(default)]
    pub replacement: Replacement,
    #[serde(default)]
    pub double_kong: bool,
    #[serde(default)]
    pub last_tile: bool,
    #[serde(default)]
    pub heavenly: bool,
    #[serde(default)]
    pub earthly: bool,
    /// The player who pays for everyone (包).
    #[serde(borrow, default, deserialize_with = "borrowed::option")]
    #[schema(value_type = Option<String>)]
    pub liable: Option<Cow<'a, str>>,
    #[serde(default)]
    pub flower_win: bool,
    /// As in a score request's context.
    #[serde(default)]
    pub robbed_kong: RobbedKong,
    #[serde(default)]
    pub last_of_its_kind: bool,
    #[serde(default)]
    pub first_replacement: Replacement,
    #[serde(default)]
    pub first_go_around: bool,
}

impl LedgerContextDto<'_> {
    fn to_core(&self) -> LedgerContext<&str> {
        LedgerContext {
            // The seats, the discarder and the liable seat are the ledger's to fill in.
            rest: ContextSpec {
                win_by: self.win_by,
                seat_wind: Wind::East,
                round_wind: Wind::East,
                discarder: None,
                replacement: self.replacement,
                double_kong: self.double_kong,
                last_tile: self.last_tile,
                heavenly: self.heavenly,
                earthly: self.earthly,
                liable: None,
                flower_win: self.flower_win,
                robbed_kong: self.robbed_kong,
                last_of_its_kind: self.last_of_its_kind,
                first_replacement: self.first_replacement,
                first_go_around: self.first_go_around,
            },
            seat_wind: self.seat_wind,
            round_wind: self.round_wind,
            discarder: self.discarder.as_deref(),
            liable: self.liable.as_deref(),
        }
    }
}

impl LedgerRequest<'_> {
    /// The core's match spec, strings borrowed. A hand whose fields do not
    /// fit its `result` is a 422 at the field; every such error is reported.
    pub fn to_core(&self) -> Result<LedgerSpec<&str>, ApiError> {
        self.to_core_with_changes().map(|(spec, _)| spec)
    }

    /// [`LedgerRequest::to_core`] with each change of rules as the answer
    /// shows it (in hand order).
    pub fn to_core_with_changes(&self) -> Result<(LedgerSpec<&str>, Vec<RuleChange>), ApiError> {
        let mut errs = Vec::new();
        let mut hands = Vec::with_capacity(self.hands.len());
        let mut changes = Vec::new();
        // The house rules in force: the night's, then after each change.
        let mut in_force: Option<HouseRuleFields> = None;
        for (h, hand) in self.hands.iter().enumerate() {
            if let Some((spec, change)) =
                hand.to_core(h, self.house_rules.as_ref(), &mut in_force, &mut errs)
            {
                hands.push(spec);
                changes.extend(change);
            }
        }
        if !errs.is_empty() {
            return Err(ApiError::invalid(errs));
        }
        let spec = LedgerSpec {
            players: self.players.iter().map(|p| &**p).collect(),
            start: self.start.as_ref().map(|s| StartSpec {
                round_wind: s.round_wind,
                dealer: s.dealer.as_deref(),
            }),
            hands,
        };
        Ok((spec, changes))
    }
}

impl LedgerHandDto<'_> {
    /// Hand `h` of a night whose own house rules are `night`, as the core's
    /// hand, with its change of rules as the answer shows it. `in_force` is
    /// the house rules in force before it (`None`: the night's, untouched),
    /// and after a change of rules, those after it. A field that does not
    /// fit the `result` is pushed to `errs` (every one is reported) and
    /// `None` answered where the hand cannot be built.
    pub fn to_core(
        &self,
        h: usize,
        night: Option<&HouseRulesDto>,
        in_force: &mut Option<HouseRuleFields>,
        errs: &mut Vec<ProblemError>,
    ) -> Option<(LedgerHandSpec<&str>, Option<RuleChange>)> {
        let hand = self;
        let result = hand.result.into();
        let mut wrong = |field: &str, rule: HandRule| {
            let at = format!("/hands/{h}/{field}");
            errs.push(ProblemError::from(FieldError::rule(at, rule)));
        };
        if hand.result != HandResultDto::Win && !hand.winners.is_empty() {
            wrong("winners", HandRule::WinnersNotWin { result });
        }
        if hand.result != HandResultDto::FalseWin && hand.offender.is_some() {
            wrong("offender", HandRule::OffenderNotFalseWin { result });
        }
        if hand.result != HandResultDto::Rules && hand.house_rules.is_some() {
            wrong("house_rules", HandRule::HouseRulesNotRules { result });
        }
        if hand.result != HandResultDto::NewGame {
            if hand.players.is_some() {
                wrong("players", HandRule::SeatsNotNewGame { result });
            }
            if hand.dealer.is_some() {
                wrong("dealer", HandRule::SeatsNotNewGame { result });
            }
        }
        Some(match hand.result {
            HandResultDto::Draw => (LedgerHandSpec::Draw, None),
            HandResultDto::NewGame => (
                LedgerHandSpec::NewGame {
                    players: hand
                        .players
                        .as_ref()
                        .map(|ps| ps.iter().map(|p| &**p).collect()),
                    dealer: hand.dealer.as_deref(),
                },
                None,
            ),
            HandResultDto::FalseWin => match hand.offender.as_deref() {
                Some(offender) => (LedgerHandSpec::FalseWin { offender }, None),
                None => {
                    wrong("offender", HandRule::OffenderRequired);
                    return None;
                }
            },
            HandResultDto::Rules => {
                let sent = match changes::change_of(hand.house_rules.as_ref(), h) {
                    Ok(sent) => sent,
                    Err(e) => {
                        errs.push(e);
                        return None;
                    }
                };
                let rules = in_force
                    .get_or_insert_with(|| night.map(HouseRulesDto::to_fields).unwrap_or_default());
                if let Some(change) = &sent {
                    *rules = rules.merged(change);
                }
                (
                    LedgerHandSpec::Rules {
                        in_force: rules.clone(),
                    },
                    Some(RuleChange {
                        hand: h,
                        sent,
                        in_force: rules.clone(),
                    }),
                )
            }
            HandResultDto::Win => {
                let mut winners = Vec::with_capacity(hand.winners.len());
                for (i, w) in hand.winners.iter().enumerate() {
                    let at = format!("/hands/{h}/winners/{i}");
                    match claim(w.hand.as_ref(), w.declared.as_ref(), &at) {
                        Ok(claim) => winners.push(LedgerWinnerSpec {
                            player: &*w.player,
                            claim,
                            context: w.context.to_core(),
                        }),
                        Err(e) => errs.push((*e).into()),
                    }
                }
                (LedgerHandSpec::Win { winners }, None)
            }
        })
    }
}

/// A winner's claim: exactly one of its hand and what was declared (else
/// a 422 at the winner, `at`).
pub(crate) fn claim<'a>(
    hand: Option<&'a HandDto<'_>>,
    declared: Option<&'a DeclaredDto<'_>>,
    at: &str,
) -> Result<ClaimSpec<&'a str>, Box<FieldError>> {
    match (hand, declared) {
        (Some(h), None) => Ok(ClaimSpec::Tiles(h.to_core())),
        (None, Some(d)) => d.to_core(at).map(ClaimSpec::Declared),
        _ => Err(Box::new(FieldError::rule(at, HandRule::HandOrDeclared))),
    }
}

// ---------------------------------------------------------------- answer

/// Values by player, written as a JSON object keyed by name, in player order.
#[derive(Clone, Copy, Debug)]
pub struct ByPlayer<'a, T> {
    pub names: &'a [&'a str; PLAYERS],
    pub values: [T; PLAYERS],
}

impl<T: Serialize> Serialize for ByPlayer<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(PLAYERS))?;
        for (n, v) in self.names.iter().zip(&self.values) {
            m.serialize_entry(n, v)?;
        }
        m.end()
    }
}

/// POST /v1/ledger, 200.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LedgerResponse<'a> {
    pub ruleset: &'a str,
    pub hands: Vec<LedgerHandOut<'a>>,
    /// The deal after the last hand.
    pub next: NextDto<'a>,
    /// Points by player at the end.
    #[schema(value_type = HashMap<String, i64>, example = json!({"Ann": -32, "Ben": 96, "Cat": -32, "Dan": -32}))]
    pub balances: ByPlayer<'a, i64>,
    /// All four, best first; equal balances share a rank.
    pub standings: Vec<StandingDto<'a>>,
    /// The fewest payments that settle every balance (找數; at most three).
    pub transfers: Vec<TransferDto<'a>>,
    /// Where there is a stake or a chip rate: the balances and transfers in money.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<LedgerMoneyDto<'a>>,
    /// Each player's night in figures, in player order.
    pub stats: Vec<StatsDto<'a>>,
}

/// A player's night in figures.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StatsDto<'a> {
    #[schema(value_type = String)]
    pub player: &'a str,
    /// Hands won and paid.
    pub hands_won: u32,
    pub self_draws: u32,
    /// Paid wins on a discard or a robbed kong.
    pub wins_on_discard: u32,
    /// Hands in which this player's discard (or added kong) paid a winner, once a hand.
    pub dealt_in: u32,
    pub false_wins: u32,
    /// The player's largest paid win (the first of equals), or null.
    pub biggest: Option<BiggestDto>,
    /// The player's balance in points.
    pub points: i64,
    /// The balance in money, where there is a stake or a chip rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub money: Option<Amount>,
}

/// A player's largest win.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct BiggestDto {
    /// The hand's index.
    pub hand: usize,
    /// Its faan as paid.
    pub faan: u32,
}

/// One hand of the answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LedgerHandOut<'a> {
    pub index: usize,
    /// The played hand's number from 1 (a win, a draw or a false win); null for a change of rules or a new game.
    pub number: Option<usize>,
    /// The game of the night, from 1.
    pub game: u32,
    pub round_wind: Wind,
    #[schema(value_type = String)]
    pub dealer: &'a str,
    /// The dealer's consecutive kept deals before this hand (連莊).
    pub dealer_streak: u32,
    /// Each player's seat wind in this hand.
    #[schema(value_type = HashMap<String, Wind>, example = json!({"Ann": "east", "Ben": "south", "Cat": "west", "Dan": "north"}))]
    pub seats: ByPlayer<'a, Wind>,
    pub result: HandResultDto,
    /// A win: each winner in request order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub winners: Vec<LedgerWinnerOut<'a>>,
    /// A false win: who declared it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub offender: Option<&'a str>,
    /// A change of rules: its house rules as sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub house_rules: Option<&'a Option<crate::core::HouseRuleChange>>,
    /// A change of rules: every house rule in force after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub in_force: Option<&'a HouseRuleFields>,
    /// The hand's payments by player (they sum to zero); none for a change of rules or a new game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<HashMap<String, i64>>)]
    pub deltas: Option<ByPlayer<'a, i64>>,
    /// The running sum of the deltas.
    #[schema(value_type = HashMap<String, i64>)]
    pub balances: ByPlayer<'a, i64>,
    /// The hand's money by player, to the cent, where there is a stake or a chip rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<HashMap<String, f64>>)]
    pub money: Option<ByPlayer<'a, Amount>>,
}

/// A winner of a hand: the score's chosen reading, in brief.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LedgerWinnerOut<'a> {
    #[schema(value_type = String)]
    pub player: &'a str,
    pub seat: Wind,
    /// The winner is paid (under `head_bump` only the first after the discarder).
    pub paid: bool,
    /// The chosen reading's form (none for a declared winner).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<&'static str>,
    pub lines: Vec<LineDto<'a>>,
    pub total_faan: u32,
    pub limit_hand: bool,
    pub base_points: u64,
    /// SHA-256 (hex) of the ruleset the hand was scored under (after `extends`, before house rules), as in a score result.
    #[schema(value_type = String)]
    pub ruleset_hash: HashHex,
    /// `tiles` (scored from its hand) or `declared`.
    #[schema(example = "tiles")]
    pub source: &'static str,
    /// The faan declared, as sent; `total_faan` is what was paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_faan: Option<u32>,
}

/// The deal after the last hand.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NextDto<'a> {
    pub round_wind: Wind,
    #[schema(value_type = String)]
    pub dealer: &'a str,
    pub dealer_streak: u32,
    /// The north round is over: no hand may follow.
    pub complete: bool,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StandingDto<'a> {
    #[schema(value_type = String)]
    pub player: &'a str,
    pub balance: i64,
    /// 1 for the best; equal balances share a rank (1, 2, 2, 4).
    pub rank: usize,
}

/// One payment of the settling up, in points.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TransferDto<'a> {
    #[schema(value_type = String)]
    pub from: &'a str,
    #[schema(value_type = String)]
    pub to: &'a str,
    pub amount: i64,
}

/// One payment of the settling up, in money.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoneyTransferDto<'a> {
    #[schema(value_type = String)]
    pub from: &'a str,
    #[schema(value_type = String)]
    pub to: &'a str,
    #[schema(value_type = f64)]
    pub amount: Amount,
}

/// The match in money, to the cent.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LedgerMoneyDto<'a> {
    /// Money per point, when a stake is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stake: Option<f64>,
    #[schema(value_type = HashMap<String, f64>)]
    pub balances: ByPlayer<'a, Amount>,
    pub transfers: Vec<MoneyTransferDto<'a>>,
}

impl<'a> LedgerResponse<'a> {
    /// The answer to `l`, a match of the players `names` under `ruleset`
    /// (house rules applied), requested as `ruleset_id`, with its changes
    /// of rules as `changes` shows them.
    pub fn new(
        ruleset_id: &'a str,
        ruleset: &crate::core::Ruleset,
        names: &'a [&'a str; PLAYERS],
        l: &Ledger,
        changes: &'a [RuleChange],
    ) -> Self {
        let by = |values| ByPlayer { names, values };
        let money = |c: [i64; PLAYERS]| ByPlayer {
            names,
            values: c.map(Amount),
        };
        let hands = l
            .hands
            .iter()
            .map(|h| {
                let (winners, offender) = match &h.outcome {
                    Outcome::Win(ws) => (
                        ws.iter()
                            .map(|w| {
                                let best = w.score.best();
                                LedgerWinnerOut {
                                    player: names[w.player],
                                    seat: w.seat,
                                    paid: w.paid,
                                    form: w.declared.is_none().then(|| best.reading.form.name()),
                                    lines: lines_dto(best),
                                    total_faan: best.total_faan,
                                    limit_hand: best.limit_hand,
                                    base_points: w.score.base_points,
                                    ruleset_hash: HashHex(ruleset.hash()),
                                    source: if w.declared.is_some() {
                                        "declared"
                                    } else {
                                        "tiles"
                                    },
                                    declared_faan: match w.declared {
                                        Some(Declared::Faan(n)) => Some(n),
                                        _ => None,
                                    },
                                }
                            })
                            .collect(),
                        None,
                    ),
                    Outcome::Draw | Outcome::Rules | Outcome::NewGame => (Vec::new(), None),
                    Outcome::FalseWin { offender } => (Vec::new(), Some(names[*offender])),
                };
                let change = match h.outcome {
                    Outcome::Rules => change_at(changes, h.index),
                    _ => None,
                };
                LedgerHandOut {
                    index: h.index,
                    number: h.number,
                    game: h.game,
                    round_wind: h.round_wind,
                    dealer: names[h.dealer],
                    dealer_streak: h.dealer_streak,
                    seats: ByPlayer {
                        names,
                        values: h.seats,
                    },
                    result: match h.outcome {
                        Outcome::Win(_) => HandResultDto::Win,
                        Outcome::Draw => HandResultDto::Draw,
                        Outcome::FalseWin { .. } => HandResultDto::FalseWin,
                        Outcome::Rules => HandResultDto::Rules,
                        Outcome::NewGame => HandResultDto::NewGame,
                    },
                    winners,
                    offender,
                    house_rules: change.map(|c| &c.sent),
                    in_force: change.map(|c| &c.in_force),
                    deltas: h.outcome.played().then(|| by(h.deltas)),
                    balances: by(h.balances),
                    money: h.money_deltas.map(money),
                }
            })
            .collect();
        let transfer = |t: &Transfer| TransferDto {
            from: names[t.from],
            to: names[t.to],
            amount: t.amount,
        };
        LedgerResponse {
            ruleset: ruleset_id,
            hands,
            next: NextDto {
                round_wind: l.next.round_wind,
                dealer: names[l.next.dealer],
                dealer_streak: l.next.dealer_streak,
                complete: l.next.complete,
            },
            balances: by(l.balances),
            standings: l
                .standings
                .iter()
                .map(|s| StandingDto {
                    player: names[s.player],
                    balance: s.balance,
                    rank: s.rank,
                })
                .collect(),
            transfers: l.transfers.iter().map(transfer).collect(),
            money: l.money.as_ref().map(|m| LedgerMoneyDto {
                stake: m.stake.map(|s| s.as_number()),
                balances: money(m.balances),
                transfers: m
                    .transfers
                    .iter()
                    .map(|t| MoneyTransferDto {
                        from: names[t.from],
                        to: names[t.to],
                        amount: Amount(t.amount),
                    })
                    .collect(),
            }),
            stats: l
                .stats
                .iter()
                .enumerate()
                .map(|(p, s)| StatsDto {
                    player: names[p],
                    hands_won: s.hands_won,
                    self_draws: s.self_draws,
                    wins_on_discard: s.wins_on_discard,
                    dealt_in: s.dealt_in,
                    false_wins: s.false_wins,
                    biggest: s.biggest.map(|(hand, faan)| BiggestDto { hand, faan }),
                    points: l.balances[p],
                    money: l.money.as_ref().map(|m| Amount(m.balances[p])),
                })
                .collect(),
        }
    }
}

/// The change of rules at hand `index`, if `changes` has it.
pub fn change_at(changes: &[RuleChange], index: usize) -> Option<&RuleChange> {
    changes
        .binary_search_by_key(&index, |c| c.hand)
        .ok()
        .and_then(|i| changes.get(i))
}
