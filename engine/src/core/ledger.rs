//! A whole match, stateless: the client sends the players and every hand so
//! far; the ledger seats them, scores and settles each hand, moves the deal
//! and the round wind, and answers the balances, the standings and the
//! fewest transfers that settle up (找數).
//!
//! `docs/api.md`, "A whole match, stateless"; `docs/rules.md`,
//! "Rounds and matches". The dealer sits East; the deal stays after the
//! dealer's own win ([`TableRules::dealer_keeps_on_win`]) or a draw
//! ([`TableRules::dealer_keeps_on_draw`]) and otherwise passes to South, every
//! seat wind moving one place; after four passes the round wind moves on;
//! after the north round the game is complete, and a `new_game` may start
//! the next (`ledger/games.rs`). A false win voids the hand: the penalty is paid
//! and the same dealer deals again. Every win is
//! settled by [`winners`](super::winners) (and so scored by
//! [`score_hand`](super::evaluate::score_hand)), so a ledger of one hand
//! answers what settle and score answer.
//!
//! [`TableRules::dealer_keeps_on_win`]: super::ruleset::TableRules::dealer_keeps_on_win
//! [`TableRules::dealer_keeps_on_draw`]: super::ruleset::TableRules::dealer_keeps_on_draw

use super::evaluate::{Declared, Score};
use super::hand::{ContextSpec, FieldError, HandRule, WinBy};
use super::ruleset::{HouseRuleFields, HouseRules, Ruleset, Stake};
use super::settle::{add_cents, false_win, money, stake, Overflow};
use super::tile::Wind;
use super::winners::{settle_at, ClaimSpec, Source, TableError};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

mod games;
mod settle_up;
pub use games::FIRST_SEATING;
pub use settle_up::{standings, transfers};

/// The longest player name, in characters: the answer repeats the four
/// names in every hand (docs/api.md, "Bounds on what one request may cost").
pub const MAX_NAME_CHARS: usize = 32;

/// The players at the table.
pub const PLAYERS: usize = 4;

/// A match as the client sends it (`S`: owned or borrowed strings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerSpec<S = String> {
    /// Four distinct names, seated east, south, west, north for the first hand
    /// when `players[0]` deals.
    pub players: Vec<S>,
    pub start: Option<StartSpec<S>>,
    pub hands: Vec<LedgerHandSpec<S>>,
}

/// Where the match starts (each absent part: the east round, `players[0]` deals).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartSpec<S = String> {
    pub round_wind: Option<Wind>,
    /// A player's name.
    pub dealer: Option<S>,
}

/// One hand of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LedgerHandSpec<S = String> {
    /// One winner, or several on one discard.
    Win { winners: Vec<LedgerWinnerSpec<S>> },
    /// The wall played out (流局): no payments.
    Draw,
    /// A false win (詐糊) by the named player.
    FalseWin { offender: S },
    /// A change of rules, from the next hand on: `in_force` is every house
    /// rule in force after it (the night's, then each change in order,
    /// merged by the caller), applied over the ruleset as it was before
    /// any house rule. Checked when the change is played, as a hand's
    /// tiles are.
    Rules { in_force: HouseRuleFields },
    /// The next game, once the north round is over: the four names in
    /// their new seats (east to north; by default as they sit) and its
    /// first dealer (by default the first of them). No payments.
    NewGame {
        players: Option<Vec<S>>,
        dealer: Option<S>,
    },
}

/// A winner of a ledger hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerWinnerSpec<S = String> {
    pub player: S,
    /// Its tiles, or what the table counted.
    pub claim: ClaimSpec<S>,
    pub context: LedgerContext<S>,
}

/// A score context whose seats are the ledger's to know: `discarder` and
/// `liable` name players; `seat_wind` and `round_wind`, when given, must be
/// what the ledger derives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerContext<S = String> {
    /// Every other circumstance of the win (`win_by`, `replacement`, ...);
    /// its `seat_wind`, `round_wind`, `discarder` and `liable` are ignored
    /// and replaced by the ledger's.
    pub rest: ContextSpec,
    pub seat_wind: Option<Wind>,
    pub round_wind: Option<Wind>,
    pub discarder: Option<S>,
    pub liable: Option<S>,
}

/// Where the deal stands. Players are indices into [`LedgerSpec::players`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub round_wind: Wind,
    pub dealer: usize,
    /// The dealer's consecutive kept deals (連莊).
    pub dealer_streak: u32,
    /// Times the deal has passed in this round (0 to 3).
    pub passes: u8,
    /// The north round is over: no hand may follow.
    pub complete: bool,
}

/// A winner of a settled ledger hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerWinner {
    pub player: usize,
    pub seat: Wind,
    pub paid: bool,
    /// The score as `POST /v1/score` answers it (lines, totals, the winner's own payments).
    pub score: Score,
    /// What the table declared, where the winner showed no tiles.
    pub declared: Option<Declared>,
    pub win_by: WinBy,
    /// The player who discarded (or added the robbed kong).
    pub discarder: Option<usize>,
}

/// What a hand came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Vec<LedgerWinner>),
    Draw,
    FalseWin {
        offender: usize,
    },
    /// A change of rules: no payments, and the deal does not move.
    Rules,
    /// The next game starts: no payments; the row's seats and dealer are
    /// the new game's.
    NewGame,
}

impl Outcome {
    /// The contract's `result`.
    pub const fn name(&self) -> &'static str {
        match self {
            Outcome::Win(_) => "win",
            Outcome::Draw => "draw",
            Outcome::FalseWin { .. } => "false_win",
            Outcome::Rules => "rules",
            Outcome::NewGame => "new_game",
        }
    }

    /// A played hand: a win, a draw or a false win (what `number` counts).
    pub const fn played(&self) -> bool {
        !matches!(self, Outcome::Rules | Outcome::NewGame)
    }
}

/// One hand of the answer. Arrays by player are indexed like [`LedgerSpec::players`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerHand {
    pub index: usize,
    /// The game of the night, from 1.
    pub game: u32,
    /// The played hand's number from 1; none for a change of rules or a
    /// new game.
    pub number: Option<usize>,
    pub round_wind: Wind,
    pub dealer: usize,
    /// The dealer's kept deals before this hand.
    pub dealer_streak: u32,
    /// Each player's seat wind in this hand.
    pub seats: [Wind; PLAYERS],
    pub outcome: Outcome,
    /// The hand's payments by player; they sum to zero.
    pub deltas: [i64; PLAYERS],
    /// The running sum of the deltas.
    pub balances: [i64; PLAYERS],
    /// The hand's money in cents by player, where there is a stake or a money rate.
    pub money_deltas: Option<[i64; PLAYERS]>,
}

/// A player's place at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: usize,
    pub balance: i64,
    /// 1 for the best; players with equal balances share a rank (1, 2, 2, 4).
    pub rank: usize,
}

/// One payment of the settling up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    pub amount: i64,
}

/// Money at the end of the match, in cents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerMoney {
    /// The stake in force at the end, where one is set.
    pub stake: Option<Stake>,
    pub balances: [i64; PLAYERS],
    pub transfers: Vec<Transfer>,
}

/// A player's night in figures (docs/api.md, "A night's statistics").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Hands in which the player won and was paid.
    pub hands_won: u32,
    pub self_draws: u32,
    /// Paid wins on a discard or a robbed kong.
    pub wins_on_discard: u32,
    /// Hands in which the player's discard (or added kong) paid a winner,
    /// once a hand however many it paid.
    pub dealt_in: u32,
    pub false_wins: u32,
    /// The player's largest paid win: (hand index, faan as paid), the
    /// first of equals.
    pub biggest: Option<(usize, u32)>,
}

/// The answer to a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ledger {
    pub hands: Vec<LedgerHand>,
    /// The deal after the last hand.
    pub next: Deal,
    pub balances: [i64; PLAYERS],
    /// All four, best first.
    pub standings: [Standing; PLAYERS],
    /// The fewest payments that settle every balance (at most three).
    pub transfers: Vec<Transfer>,
    /// Where there is a stake or a money rate.
    pub money: Option<LedgerMoney>,
    /// By player.
    pub stats: [PlayerStats; PLAYERS],
}

/// Plays the match `spec` under `ruleset` (house rules already applied:
/// [`Ruleset::with_house_rules`]), at most `max_hands` hands; a change of
/// rules applies over `ruleset` itself ([`ledger_over`] takes the base).
///
/// A bad hand fails the whole ledger: the error's pointer names it
/// (`/hands/3/winners/0/hand/tiles`); nothing is answered for the others.
pub fn ledger<S: AsRef<str>>(
    ruleset: &Ruleset,
    spec: &LedgerSpec<S>,
    max_hands: usize,
) -> Result<Ledger, TableError> {
    ledger_over(ruleset, ruleset, spec, max_hands)
}

/// [`ledger`] for a night that starts under `ruleset` (the night's house
/// rules over `base`); each change of rules applies its rules in force over
/// `base`, from the next hand on. A hand once played is never scored again.
///
/// It is [`LedgerState::play`] hand after hand, so a night kept hand by
/// hand (shared tables) answers exactly what it answers.
pub fn ledger_over<S: AsRef<str>>(
    base: &Ruleset,
    ruleset: &Ruleset,
    spec: &LedgerSpec<S>,
    max_hands: usize,
) -> Result<Ledger, TableError> {
    if spec.hands.len() > max_hands {
        return Err(TableError::rule(
            "/hands",
            HandRule::LedgerTooManyHands {
                max: max_hands,
                got: spec.hands.len(),
            },
        ));
    }
    let (players, mut state) = LedgerState::start(ruleset, &spec.players, spec.start.as_ref())?;
    // The rules in force: the night's, until a change replaces them.
    let mut current: Cow<'_, Ruleset> = Cow::Borrowed(ruleset);
    let mut hands = Vec::with_capacity(spec.hands.len());
    for hand in &spec.hands {
        let (row, next, changed) = state.play(base, &current, &players, hand)?;
        if let Some(r) = changed {
            current = Cow::Owned(r);
        }
        hands.push(row);
        state = next;
    }
    Ok(state.ledger(hands, &current))
}

/// A night between two hands: all the next hand and the answer's summary
/// need, so that a night kept hand by hand plays one hand per change.
/// The rules in force are the caller's to keep (a change of rules returns
/// them from [`LedgerState::play`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerState {
    /// The deal of the next hand.
    pub deal: Deal,
    /// Hands played so far (the next hand's index).
    pub hands: usize,
    /// Some rules in force so far set a stake or a money rate.
    pub any_money: bool,
    pub balances: [i64; PLAYERS],
    /// In cents.
    pub money_balances: [i64; PLAYERS],
    pub stats: [PlayerStats; PLAYERS],
    /// The game of the night, from 1 (a night stored before games: 1).
    #[serde(default = "games::first_game")]
    pub game: u32,
    /// Played hands so far (`None`: stored before it was kept, when every
    /// hand counted; [`LedgerState::played`]).
    #[serde(default)]
    pub played: Option<usize>,
    /// The seating order, east to north when its first deals: indices
    /// into the players (a night stored before games: their order).
    #[serde(default = "games::first_seating")]
    pub seating: [usize; PLAYERS],
}

impl LedgerState {
    /// Played hands so far: wins, draws and false wins.
    pub fn played(&self) -> usize {
        self.played.unwrap_or(self.hands)
    }

    /// The night before its first hand: the four names checked and the
    /// first deal.
    pub fn start<'s, S: AsRef<str>>(
        ruleset: &Ruleset,
        players: &'s [S],
        start: Option<&'s StartSpec<S>>,
    ) -> Result<([&'s str; PLAYERS], LedgerState), TableError> {
        let players = check_players(players)?;
        let deal = games::first_deal(start, &players)?;
        Ok((
            players,
            LedgerState {
                deal,
                hands: 0,
                any_money: stake(ruleset).is_some(),
                balances: [0; PLAYERS],
                money_balances: [0; PLAYERS],
                stats: [PlayerStats::default(); PLAYERS],
                game: 1,
                played: Some(0),
                seating: FIRST_SEATING,
            },
        ))
    }

    /// Plays the next hand under `ruleset`, the rules in force (`base`: the
    /// ruleset before any house rule, which a change of rules applies
    /// over). Answers the hand's row, the night after it, and the new rules
    /// in force if the hand changed them. An error points at
    /// `/hands/{index}`.
    pub fn play<S: AsRef<str>>(
        &self,
        base: &Ruleset,
        ruleset: &Ruleset,
        players: &[&str; PLAYERS],
        hand: &LedgerHandSpec<S>,
    ) -> Result<(LedgerHand, LedgerState, Option<Ruleset>), TableError> {
        let h = self.hands;
        let at = Pointer(h);
        let deal = self.deal;
        if let LedgerHandSpec::NewGame {
            players: seats,
            dealer,
        } = hand
        {
            let (row, next) =
                games::new_game(self, players, seats.as_deref(), dealer.as_ref(), at)?;
            return Ok((row, next, None));
        }
        // A change of rules may come between two games; a played hand may not.
        if deal.complete && !matches!(hand, LedgerHandSpec::Rules { .. }) {
            return Err(TableError::rule(
                at.to_string(),
                HandRule::MatchComplete {
                    last: h.saturating_sub(1),
                },
            ));
        }
        // The dealer sits East, the others in seating order.
        let seats = games::seats(&self.seating, deal.dealer);
        // Money that overflows is refused at this hand.
        let at_hand = |what: Overflow| TableError::Overflow {
            what,
            pointer: Some(at.to_string()),
        };
        let with_money = stake(ruleset).is_some();
        let (outcome, by_seat, money_by_seat) = match hand {
            LedgerHandSpec::Draw => (Outcome::Draw, [0; PLAYERS], Some([0; PLAYERS])),
            LedgerHandSpec::Rules { .. } | LedgerHandSpec::NewGame { .. } => {
                (Outcome::Rules, [0; PLAYERS], None)
            }
            LedgerHandSpec::FalseWin { offender } => {
                let o = find(players, offender.as_ref())
                    .ok_or_else(|| unknown(&format!("{at}/offender"), offender.as_ref()))?;
                let pay = false_win(ruleset, seats[o]);
                let cents = money(ruleset, &pay).map_err(at_hand)?;
                (Outcome::FalseWin { offender: o }, pay, cents)
            }
            LedgerHandSpec::Win { winners } => {
                win(ruleset, players, winners, &seats, deal.round_wind, at).map_err(
                    |e| match e {
                        TableError::Overflow {
                            what: Overflow::Money,
                            pointer: None,
                        } => at_hand(Overflow::Money),
                        e => e,
                    },
                )?
            }
        };
        let mut next = self.clone();
        next.hands = h + 1;
        let deltas: [i64; PLAYERS] = std::array::from_fn(|p| by_seat[seats[p].index()]);
        for (b, d) in next.balances.iter_mut().zip(deltas) {
            *b = b
                .checked_add(d)
                .ok_or_else(|| TableError::rule(at.to_string(), HandRule::BalanceOverflow))?;
        }
        let money_deltas = match money_by_seat.filter(|_| with_money) {
            Some(m) => {
                let d: [i64; PLAYERS] = std::array::from_fn(|p| m[seats[p].index()]);
                for (b, x) in next.money_balances.iter_mut().zip(d) {
                    *b = add_cents(*b, x).map_err(at_hand)?;
                }
                Some(d)
            }
            None => None,
        };
        count(&mut next.stats, h, &outcome);
        let dealer_won = match &outcome {
            Outcome::Win(ws) => ws.iter().any(|w| w.paid && w.player == deal.dealer),
            _ => false,
        };
        next.deal = match &outcome {
            Outcome::FalseWin { .. } | Outcome::Rules => deal,
            Outcome::Win(_) if dealer_won && ruleset.table().dealer_keeps_on_win => {
                games::keep(deal)
            }
            Outcome::Draw if ruleset.table().dealer_keeps_on_draw => games::keep(deal),
            _ => games::pass(
                deal,
                games::player_at(&self.seating, deal.dealer, Wind::South),
            ),
        };
        let changed = match hand {
            LedgerHandSpec::Rules { in_force } => {
                let r = HouseRules::try_from(in_force.clone())
                    .and_then(|house| base.with_house_rules(&house))
                    .map_err(|errs| {
                        TableError::Invalid(
                            errs.into_iter().map(|e| e.under(&at.to_string())).collect(),
                        )
                    })?;
                next.any_money |= stake(&r).is_some();
                Some(r)
            }
            _ => None,
        };
        let number = outcome.played().then(|| self.played() + 1);
        next.played = Some(number.unwrap_or(self.played()));
        let row = LedgerHand {
            index: h,
            game: self.game,
            number,
            round_wind: deal.round_wind,
            dealer: deal.dealer,
            dealer_streak: deal.dealer_streak,
            seats,
            outcome,
            deltas,
            balances: next.balances,
            money_deltas,
        };
        Ok((row, next, changed))
    }

    /// The answer of the night whose rows are `hands` and whose rules in
    /// force are `ruleset`; with no rows, its summary alone (what a night
    /// kept hand by hand writes beside its rows).
    pub fn ledger(&self, hands: Vec<LedgerHand>, ruleset: &Ruleset) -> Ledger {
        Ledger {
            hands,
            next: self.deal,
            balances: self.balances,
            standings: standings(&self.balances),
            transfers: transfers(&self.balances),
            money: self.any_money.then(|| LedgerMoney {
                stake: ruleset.table().stake,
                balances: self.money_balances,
                transfers: transfers(&self.money_balances),
            }),
            stats: self.stats,
        }
    }
}

/// Adds hand `h`'s outcome to the players' figures
/// (`docs/rules.md`, "Statistics": a discarder is dealt in once a
/// hand; a robbed kong counts against the player robbed).
fn count(stats: &mut [PlayerStats; PLAYERS], h: usize, outcome: &Outcome) {
    match outcome {
        Outcome::Win(ws) => {
            let mut dealt_in = [false; PLAYERS];
            for w in ws.iter().filter(|w| w.paid) {
                let s = &mut stats[w.player];
                s.hands_won += 1;
                if w.win_by == WinBy::SelfDraw {
                    s.self_draws += 1;
                } else {
                    s.wins_on_discard += 1;
                }
                let faan = w.score.total_faan();
                if s.biggest.is_none_or(|(_, f)| faan > f) {
                    s.biggest = Some((h, faan));
                }
                if let Some(d) = w.discarder {
                    dealt_in[d] = true;
                }
            }
            for (s, d) in stats.iter_mut().zip(dealt_in) {
                s.dealt_in += u32::from(d);
            }
        }
        Outcome::FalseWin { offender } => stats[*offender].false_wins += 1,
        Outcome::Draw | Outcome::Rules | Outcome::NewGame => {}
    }
}

/// A hand's outcome, payments by seat and money by seat.
type Settled = (Outcome, [i64; PLAYERS], Option<[i64; PLAYERS]>);

/// `/hands/{h}`, written out only for an error.
#[derive(Clone, Copy)]
struct Pointer(usize);

impl std::fmt::Display for Pointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "/hands/{}", self.0)
    }
}

/// Settles a win: the winners named by player, seated and checked, then
/// settled together. Answers the outcome, payments and money by seat.
fn win<S: AsRef<str>>(
    ruleset: &Ruleset,
    players: &[&str; PLAYERS],
    winners: &[LedgerWinnerSpec<S>],
    seats: &[Wind; PLAYERS],
    round: Wind,
    at: Pointer,
) -> Result<Settled, TableError> {
    let mut errs = Vec::new();
    let mut who = Vec::with_capacity(winners.len());
    let mut discarders = Vec::with_capacity(winners.len());
    let mut specs = Vec::with_capacity(winners.len());
    for (i, w) in winners.iter().enumerate() {
        let here = |field: &str| format!("{at}/winners/{i}/{field}");
        let name = w.player.as_ref();
        let Some(p) = find(players, name) else {
            errs.push(field_unknown(&here("player"), name));
            continue;
        };
        if who.contains(&p) {
            errs.push(FieldError::rule(
                here("player"),
                HandRule::WinnerRepeated {
                    player: name.into(),
                },
            ));
        }
        who.push(p);
        let c = &w.context;
        let seat = seats[p];
        if let Some(s) = c.seat_wind.filter(|&s| s != seat) {
            errs.push(FieldError::rule(
                here("context/seat_wind"),
                HandRule::SeatWindMismatch {
                    player: name.into(),
                    seat: seat.to_string(),
                    seat_wind: s.to_string(),
                },
            ));
        }
        if let Some(r) = c.round_wind.filter(|&r| r != round) {
            errs.push(FieldError::rule(
                here("context/round_wind"),
                HandRule::RoundWindMismatch {
                    round: round.to_string(),
                    round_wind: r.to_string(),
                    player: name.into(),
                },
            ));
        }
        let mut named = |field: &str, v: &Option<S>| -> Option<Wind> {
            let n = v.as_ref()?.as_ref();
            match find(players, n) {
                Some(q) if q == p && field == "discarder" => {
                    errs.push(FieldError::rule(
                        here("context/discarder"),
                        HandRule::LedgerDiscarderIsWinner { player: n.into() },
                    ));
                    None
                }
                Some(q) => Some(seats[q]),
                None => {
                    errs.push(field_unknown(&here(&format!("context/{field}")), n));
                    None
                }
            }
        };
        let discarder = named("discarder", &c.discarder);
        let liable = named("liable", &c.liable);
        discarders.push(c.discarder.as_ref().and_then(|n| find(players, n.as_ref())));
        let ctx = ContextSpec {
            seat_wind: seat,
            round_wind: round,
            discarder,
            liable,
            ..c.rest
        };
        specs.push((&w.claim, ctx));
    }
    if !errs.is_empty() {
        return Err(TableError::Invalid(errs));
    }
    let under = format!("{at}/winners/");
    let settled = settle_at(ruleset, &specs, &format_args!("{at}/winners")).map_err(|e| {
        // A co-winner problem names players, not indexes: the winner at
        // fault and the first winner, whose hand the others must agree with;
        // a hand that does not win names its winner.
        let name = |i: usize| winners.get(i).map_or("", |w| w.player.as_ref()).to_string();
        let index = |pointer: &str| -> Option<usize> {
            pointer
                .strip_prefix(&under)?
                .split('/')
                .next()?
                .parse()
                .ok()
        };
        let errs = match e {
            TableError::Invalid(errs) => errs,
            TableError::NotWinning {
                pointer,
                tiles,
                detail,
                player: None,
            } => {
                let player = index(&pointer).map(name);
                return TableError::NotWinning {
                    pointer,
                    tiles,
                    detail,
                    player,
                };
            }
            e => return e,
        };
        TableError::Invalid(
            errs.into_iter()
                .map(|fe| {
                    let co = fe.rule.as_ref().is_some_and(|r| {
                        r.code().starts_with("co_winner_")
                            || matches!(r, HandRule::WinnersTileOverFour { .. })
                    });
                    let i = index(&fe.pointer);
                    match (co, i) {
                        (true, Some(i)) => fe
                            .with_param("player", name(i))
                            .with_param("first_player", name(0)),
                        _ => fe,
                    }
                })
                .collect(),
        )
    })?;
    // A hand below the minimum cannot be declared: in a match it is no win.
    let short: Vec<FieldError> = settled
        .results
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.score.meets_minimum)
        .map(|(i, r)| {
            FieldError::rule(
                format!("{at}/winners/{i}/{}", winners[i].claim.minimum_field()),
                HandRule::BelowMinimum {
                    player: winners[i].player.as_ref().into(),
                    faan: r.score.total_faan(),
                    min: r.score.min_faan,
                },
            )
        })
        .collect();
    if !short.is_empty() {
        return Err(TableError::Invalid(short));
    }
    let outcome = Outcome::Win(
        settled
            .results
            .into_iter()
            .zip(who.iter().zip(&discarders))
            .map(|(r, (&p, &discarder))| LedgerWinner {
                player: p,
                seat: seats[p],
                paid: r.paid,
                win_by: r.context.win_by,
                declared: match r.source {
                    Source::Declared(d) => Some(d),
                    Source::Tiles(_) => None,
                },
                score: r.score,
                discarder,
            })
            .collect(),
    );
    Ok((outcome, settled.payments, settled.money_cents))
}

/// The four names, checked: distinct and not empty.
fn check_players<S: AsRef<str>>(players: &[S]) -> Result<[&str; PLAYERS], TableError> {
    let names: Vec<&str> = players.iter().map(AsRef::as_ref).collect();
    let Ok(four) = <[&str; PLAYERS]>::try_from(names.as_slice()) else {
        return Err(TableError::rule(
            "/players",
            HandRule::PlayerCount { got: names.len() },
        ));
    };
    let mut errs = Vec::new();
    for (i, n) in four.iter().enumerate() {
        let chars = n.chars().count();
        if n.trim().is_empty() {
            errs.push(FieldError::rule(
                format!("/players/{i}"),
                HandRule::PlayerNameEmpty { index: i },
            ));
        } else if chars > MAX_NAME_CHARS {
            // Every hand of the answer repeats the four names.
            errs.push(FieldError::rule(
                format!("/players/{i}"),
                HandRule::PlayerNameLong {
                    index: i,
                    max: MAX_NAME_CHARS,
                    chars,
                },
            ));
        } else if four[..i].contains(n) {
            errs.push(FieldError::rule(
                format!("/players/{i}"),
                HandRule::PlayerRepeated { name: (*n).into() },
            ));
        }
    }
    if errs.is_empty() {
        Ok(four)
    } else {
        Err(TableError::Invalid(errs))
    }
}

fn find(players: &[&str; PLAYERS], name: &str) -> Option<usize> {
    players.iter().position(|p| *p == name)
}

fn field_unknown(pointer: &str, name: &str) -> FieldError {
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        // No player has a name that long: not echoed back.
        return FieldError::rule(
            pointer,
            HandRule::UnknownPlayerLong {
                chars,
                max: MAX_NAME_CHARS,
            },
        );
    }
    FieldError::rule(pointer, HandRule::UnknownPlayer { name: name.into() })
}

fn unknown(pointer: &str, name: &str) -> TableError {
    TableError::Invalid(vec![field_unknown(pointer, name)])
}
