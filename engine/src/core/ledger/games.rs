//! The deal and a night of several games: where each player sits, how
//! the deal moves, and the `new_game` hand that starts the next game once
//! the north round is over (`docs/rules.md`, "Rounds and matches").
//!
//! Players keep their indices (their place in the night's `players`) for
//! the whole night, so balances, statistics and the answer's maps stay the
//! night's; only the seating order changes from game to game.

use super::{
    field_unknown, find, unknown, Deal, LedgerHand, LedgerState, Outcome, Pointer, StartSpec,
    TableError, PLAYERS,
};
use crate::core::hand::{FieldError, HandRule};
use crate::core::tile::Wind;

/// The first game's seating: the night's `players` order.
pub const FIRST_SEATING: [usize; PLAYERS] = [0, 1, 2, 3];

pub(super) fn first_seating() -> [usize; PLAYERS] {
    FIRST_SEATING
}

pub(super) fn first_game() -> u32 {
    1
}

/// Where player `p` sits in the seating order (east, south, west, north
/// when the first of the order deals).
fn place(seating: &[usize; PLAYERS], p: usize) -> usize {
    // A seating is a permutation; a damaged one falls back to the index.
    seating.iter().position(|&q| q == p).unwrap_or(p % PLAYERS)
}

/// Each player's seat wind when `dealer` deals: the dealer sits East, the
/// others in seating order.
pub(super) fn seats(seating: &[usize; PLAYERS], dealer: usize) -> [Wind; PLAYERS] {
    let d = place(seating, dealer);
    std::array::from_fn(|p| Wind::ALL[(place(seating, p) + PLAYERS - d) % PLAYERS])
}

/// The player in seat `w` when `dealer` deals.
pub(super) fn player_at(seating: &[usize; PLAYERS], dealer: usize, w: Wind) -> usize {
    seating[(place(seating, dealer) + w.index()) % PLAYERS]
}

/// A `new_game` hand at `at`: the next game's seating (`names`, east to
/// north, by default the seats as they are) and first dealer (by default
/// the first of the seating). Allowed only once the north round is over.
/// No payments, and it is not a played hand.
pub(super) fn new_game<S: AsRef<str>>(
    state: &LedgerState,
    players: &[&str; PLAYERS],
    names: Option<&[S]>,
    dealer: Option<&S>,
    at: Pointer,
) -> Result<(LedgerHand, LedgerState), TableError> {
    let deal = state.deal;
    if !deal.complete {
        return Err(TableError::rule(
            at.to_string(),
            HandRule::GameNotComplete {
                game: state.game,
                round: deal.round_wind.to_string(),
                dealer: players[deal.dealer].into(),
            },
        ));
    }
    let mut errs = Vec::new();
    let seating = match names {
        None => state.seating,
        Some(names) => match permutation(players, names) {
            Some(s) => s,
            None => {
                errs.push(FieldError::rule(
                    format!("{at}/players"),
                    HandRule::NewGamePlayers {
                        players: players.join(", "),
                    },
                ));
                state.seating
            }
        },
    };
    let first = match dealer {
        None => seating[0],
        Some(n) => match find(players, n.as_ref()) {
            Some(p) => p,
            None => {
                errs.push(field_unknown(&format!("{at}/dealer"), n.as_ref()));
                seating[0]
            }
        },
    };
    if !errs.is_empty() {
        return Err(TableError::Invalid(errs));
    }
    let mut next = state.clone();
    next.hands = state.hands + 1;
    next.game = state.game.saturating_add(1);
    next.seating = seating;
    next.played = Some(state.played());
    next.deal = Deal {
        round_wind: Wind::East,
        dealer: first,
        dealer_streak: 0,
        passes: 0,
        complete: false,
    };
    let row = LedgerHand {
        index: state.hands,
        game: next.game,
        number: None,
        round_wind: Wind::East,
        dealer: first,
        dealer_streak: 0,
        seats: seats(&seating, first),
        outcome: Outcome::NewGame,
        deltas: [0; PLAYERS],
        balances: state.balances,
        money_deltas: None,
    };
    Ok((row, next))
}

/// `names` as indices into `players`, if it is the four of them, each once.
fn permutation<S: AsRef<str>>(players: &[&str; PLAYERS], names: &[S]) -> Option<[usize; PLAYERS]> {
    let mut seating = [0; PLAYERS];
    let mut seen = [false; PLAYERS];
    if names.len() != PLAYERS {
        return None;
    }
    for (slot, n) in seating.iter_mut().zip(names) {
        let p = find(players, n.as_ref())?;
        if std::mem::replace(&mut seen[p], true) {
            return None;
        }
        *slot = p;
    }
    Some(seating)
}

/// The deal of the first hand.
pub(super) fn first_deal<S: AsRef<str>>(
    start: Option<&StartSpec<S>>,
    players: &[&str; PLAYERS],
) -> Result<Deal, TableError> {
    let dealer = match start.and_then(|s| s.dealer.as_ref()) {
        None => 0,
        Some(n) => find(players, n.as_ref()).ok_or_else(|| unknown("/start/dealer", n.as_ref()))?,
    };
    Ok(Deal {
        round_wind: start.and_then(|s| s.round_wind).unwrap_or(Wind::East),
        dealer,
        dealer_streak: 0,
        passes: 0,
        complete: false,
    })
}

pub(super) fn keep(d: Deal) -> Deal {
    Deal {
        dealer_streak: d.dealer_streak.saturating_add(1),
        ..d
    }
}

/// The deal passes to `south` (the player on the dealer's right); after four
/// passes in a round the round wind moves on, and after the north round the
/// match is complete.
pub(super) fn pass(d: Deal, south: usize) -> Deal {
    let passes = d.passes + 1;
    let (round_wind, passes, complete) = match (passes, d.round_wind) {
        (1..=3, w) => (w, passes, false),
        (_, Wind::North) => (Wind::North, 0, true),
        (_, w) => (Wind::ALL[w.index() + 1], 0, false),
    };
    Deal {
        round_wind,
        dealer: south,
        dealer_streak: 0,
        passes,
        complete,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ann, Ben, Cat, Dan seated Ben, Ann, Dan, Cat (indices 1, 0, 3, 2):
    /// with Dan dealing, Dan is East, Cat South, Ben West, Ann North, and
    /// the deal passes from Dan to Cat.
    #[test]
    fn a_new_seating_seats_from_the_dealer_in_its_order() {
        let seating = [1, 0, 3, 2];
        assert_eq!(
            seats(&seating, 3),
            [Wind::North, Wind::West, Wind::South, Wind::East]
        );
        assert_eq!(player_at(&seating, 3, Wind::South), 2);
        assert_eq!(player_at(&seating, 2, Wind::South), 1);
        // The first seating is the players' order, as before.
        assert_eq!(
            seats(&FIRST_SEATING, 2),
            [Wind::West, Wind::North, Wind::East, Wind::South]
        );
    }

    /// A state stored before games (no `game`, `played`, `seating`) reads
    /// as game 1 in the players' order, its rows all counted as played.
    #[test]
    fn a_state_stored_before_games_reads_as_the_first_game() {
        let old = r#"{"deal":{"round_wind":"south","dealer":2,"dealer_streak":0,"passes":1,"complete":false},
            "hands":5,"any_money":false,"balances":[0,0,0,0],"money_balances":[0,0,0,0],
            "stats":[{"hands_won":0,"self_draws":0,"wins_on_discard":0,"dealt_in":0,"false_wins":0,"biggest":null},
                     {"hands_won":0,"self_draws":0,"wins_on_discard":0,"dealt_in":0,"false_wins":0,"biggest":null},
                     {"hands_won":0,"self_draws":0,"wins_on_discard":0,"dealt_in":0,"false_wins":0,"biggest":null},
                     {"hands_won":0,"self_draws":0,"wins_on_discard":0,"dealt_in":0,"false_wins":0,"biggest":null}]}"#;
        let s: LedgerState = serde_json::from_str(old).expect("an older state reads");
        assert_eq!((s.game, s.played, s.played()), (1, None, 5));
        assert_eq!(s.seating, FIRST_SEATING);
    }

    #[test]
    fn only_the_four_each_once_make_a_seating() {
        let p = ["Ann", "Ben", "Cat", "Dan"];
        assert_eq!(
            permutation(&p, &["Ben", "Ann", "Dan", "Cat"]),
            Some([1, 0, 3, 2])
        );
        assert_eq!(permutation(&p, &["Ben", "Ann", "Dan", "Ben"]), None);
        assert_eq!(permutation(&p, &["Ben", "Ann", "Dan", "Eve"]), None);
        assert_eq!(permutation(&p, &["Ben", "Ann", "Dan"]), None);
    }
}
