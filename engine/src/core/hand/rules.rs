//! The rules a hand or the circumstances of its win can break, and the
//! problem that names one: [`HandRule`], each variant with the values its
//! message names; its `code` (the variant's name in snake_case, never
//! renamed) and `params` (its fields) are derived from it.

use crate::core::pointer::Pointer;
use serde::Serialize;
use std::fmt;

/// A rule of a hand or of the circumstances of its win that a request can
/// break. The message is the English wording; clients key their own by the
/// code (the calculator page: web/js/format.js) and word it from the fields.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    thiserror::Error,
    Serialize,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[strum(serialize_all = "snake_case")]
// The fields alone are the params: `{"count": 5, "tile": "5m"}`.
#[serde(untagged)]
pub enum HandRule {
    #[error("{detail}")]
    TileNotation { detail: String, position: usize },
    #[error("{text:?} is not a bonus tile: use F1..F4 (flowers), S1..S4 (seasons) or their Unicode tiles")]
    BonusNotation { text: String },
    #[error("only a kong can be {flag}; this meld is a {kind}")]
    MeldFlagNotKong {
        flag: &'static str,
        kind: &'static str,
    },
    #[error("a kong is either concealed (declared from the hand) or added (promoted from a pung), not both")]
    KongConcealedAndAdded,
    #[error("a {kind} has {want} tiles, got {got}")]
    MeldTooLong {
        kind: &'static str,
        want: u8,
        got: usize,
    },
    #[error("a {kind} has {want} tiles, got {got} ({tiles})")]
    MeldSize {
        kind: &'static str,
        want: u8,
        got: usize,
        tiles: String,
    },
    #[error("{tiles} is not a chow: a chow is three consecutive tiles of one numbered suit")]
    NotAChow { tiles: String },
    #[error("{tiles} is not a {kind}: it needs {want} identical tiles")]
    NotASet {
        tiles: String,
        kind: &'static str,
        want: u8,
    },
    #[error("{count} tiles listed; at most {max} are read (a hand holds at most 18: 14 plus one per kong)")]
    TooManyTiles { count: usize, max: usize },
    #[error("a hand has at most 4 melds, got {got}")]
    TooManyMelds { got: usize },
    #[error("a hand that is waiting has no winning tile yet: leave winning_tile out")]
    WinningTileWhileWaiting,
    #[error("required: the tile that completed the hand")]
    WinningTileRequired,
    #[error("winning tile {tile} is not among the concealed tiles (hand.tiles must include it)")]
    WinningTileNotInHand { tile: String },
    #[error("bonus tile {bonus} is listed twice")]
    BonusTwice { bonus: String },
    #[error("a hand holds at most {max} bonus tiles (four flowers and four seasons, each once), got {count}")]
    TooManyBonusTiles { max: usize, count: usize },
    #[error("bonus tiles are not in play under ruleset {ruleset}; set house_rules.flowers to true to score them")]
    BonusOff { ruleset: String },
    #[error(
        "{tile} appears {count} times across the hand and its melds; a set has only 4 of each tile"
    )]
    TileOverFour { tile: String, count: u8 },
    #[error("the winners on one discard hold {count} {tile} between them (the shared winning tile counted once); a set has only 4 of each tile")]
    WinnersTileOverFour { tile: String, count: u8 },
    #[error("several winners share one discard or robbed kong: a self-drawn win has one winner")]
    CoWinnerSelfDraw,
    #[error("win_by {win_by} differs from winner 0's {first}: several winners share one discard or robbed kong")]
    CoWinnerWinBy {
        win_by: &'static str,
        first: &'static str,
    },
    #[error("the discarder differs from winner 0's: several winners share one discard")]
    CoWinnerDiscarder,
    #[error("round_wind {round_wind} differs from winner 0's {first}: the winners play one hand")]
    CoWinnerRoundWind { round_wind: String, first: String },
    #[error("seat {seat} is already a winner: each winner sits at a different seat")]
    CoWinnerSeat { seat: String },
    #[error(
        "winning tile {tile} differs from winner 0's {first}: several winners share one discard"
    )]
    CoWinnerWinningTile { tile: String, first: String },
    #[error("expected {expected} concealed tiles with {melds} declared meld(s) (a waiting hand holds 13 tiles plus one per kong), got {got}: the hand is already complete: score it with POST /v1/score")]
    WaitingComplete {
        expected: i64,
        melds: usize,
        got: i64,
    },
    #[error("expected {expected} concealed tiles with {melds} declared meld(s) (a waiting hand holds 13 tiles plus one per kong), got {got}: the hand is {short} tiles short of a win; waits are for a hand one tile short")]
    WaitingShort {
        expected: i64,
        melds: usize,
        got: i64,
        short: i64,
    },
    #[error("expected {expected} concealed tiles with {melds} declared meld(s) (a waiting hand holds 13 tiles plus one per kong), got {got}: too many tiles")]
    WaitingOver {
        expected: i64,
        melds: usize,
        got: i64,
    },
    #[error("expected {drawing} concealed tiles (waiting for a draw) or {discarding} (about to discard) with {melds} declared meld(s), each meld counting as three, got {got}")]
    AnalysisTileCount {
        drawing: i64,
        discarding: i64,
        melds: usize,
        got: usize,
    },
    #[error("{tile} is in sight {count} times: {held} in the hand and its melds, {seen} in seen; there are only 4 of each tile")]
    SeenOverFour {
        tile: String,
        count: u32,
        held: u8,
        seen: u32,
    },
    #[error("the hand is {shanten} tiles from ready; chances are worked out for hands at most {max} from ready (the cost of the exact model grows with each step)")]
    ChancesTooFar { shanten: i64, max: i64 },
    #[error("with hand changes the hand reaches more than {max} hands to weigh; ask without hand_changes and shanten_down, or for a hand nearer ready")]
    ChancesTooLarge { max: i64 },
    #[error("expected {expected} concealed tiles with {melds} declared meld(s) (a hand holds 14 tiles plus one per kong), got {got}")]
    TileCount {
        expected: i64,
        melds: usize,
        got: i64,
    },
    #[error("a self-drawn win has no discarder")]
    DiscarderOnSelfDraw,
    #[error("required for a win on a discard")]
    DiscarderRequired,
    #[error("required for robbing a kong: the seat that added the kong")]
    DiscarderRequiredRobbing,
    #[error("the discarder ({seat}) cannot be the winner (seat_wind {seat})")]
    DiscarderIsWinner { seat: String },
    #[error("the liable seat ({seat}) cannot be the winner")]
    LiableIsWinner { seat: String },
    #[error("a replacement draw is a self-draw: set win_by to self_draw")]
    ReplacementNotSelfDraw,
    #[error("a kong replacement needs a kong among hand.melds")]
    KongReplacementWithoutKong,
    #[error("only a win by robbing a kong robs one: set win_by to robbing_kong or leave robbed_kong out")]
    RobbedKongWithoutRobbing,
    #[error("a concealed kong may be robbed only to complete thirteen orphans, and the winning tile is not a terminal or honour")]
    ConcealedKongRobbedNotOrphan,
    #[error("a flower win has no winning tile to be the last of its kind")]
    LastOfItsKindFlowerWin,
    #[error("a second replacement draw replaces the bonus tile the first one drew (set replacement to flower), or the kong a flower replacement completed (set replacement to kong after a flower); a kong on a kong replacement is double_kong")]
    SecondReplacementNotFlower,
    #[error("two flower replacements need two bonus tiles among hand.flowers, found {found}")]
    TwoFlowerReplacements { found: u32 },
    #[error("a double kong win is a kong replacement draw: set replacement to kong")]
    DoubleKongReplacement,
    #[error("a double kong needs two kongs among hand.melds, found {found}")]
    DoubleKongTwoKongs { found: usize },
    #[error("only East wins a heavenly hand; seat_wind is {seat}")]
    HeavenlyNotEast { seat: String },
    #[error("a heavenly hand is the dealt hand: win_by must be self_draw")]
    HeavenlyNotSelfDraw,
    #[error("a heavenly hand has no declared melds")]
    HeavenlyMelds,
    #[error("East cannot win an earthly hand (East's own first draw is heavenly)")]
    EarthlyEast,
    #[error("an earthly hand is won on East's first discard: win_by must be discard")]
    EarthlyNotDiscard,
    #[error("an earthly hand is won on East's first discard: discarder must be east")]
    EarthlyDiscarder,
    #[error("an earthly hand has no declared melds")]
    EarthlyMelds,
    #[error("a hand cannot be both heavenly and earthly")]
    HeavenlyAndEarthly,
    #[error("robbing a kong of {tile}: the other three {tile} are in the kong, so the hand can hold only the robbed one, but it holds {count}")]
    RobbingCount { tile: String, count: u8 },
    #[error("ruleset {ruleset} does not score flower wins")]
    FlowerWinRuleset { ruleset: String },
    #[error("a flower win needs seven or eight bonus tiles, hand.flowers has {count}")]
    FlowerWinCount { count: u32 },
    #[error("a flower win is drawn from the wall: win_by must be self_draw")]
    FlowerWinSelfDraw,
    #[error("ruleset {ruleset} does not score {pattern}: {count} bonus tiles are no flower win under it")]
    FlowerWinNotScored {
        ruleset: String,
        count: u32,
        pattern: &'static str,
    },
    #[error("East deals and draws first: only another seat wins before a draw of its own")]
    FirstGoAroundEast,
    #[error("a win before a draw of one's own is on a discard: win_by must be discard")]
    FirstGoAroundNotDiscard,
    #[error("a win before a draw of one's own has no declared melds")]
    FirstGoAroundMelds,
    // The table's rules (POST /v1/settle, POST /v1/ledger): a player named
    // by name (`player`, `name`), never by index.
    #[error("one to {max} winners on one discard, got {got}")]
    WinnerCount { max: usize, got: usize },
    #[error("a ledger holds at most {max} hands, got {got}")]
    LedgerTooManyHands { max: usize, got: usize },
    #[error("the match is complete: the north round ended with hand {last}; no hand may follow")]
    MatchComplete { last: usize },
    #[error("game {game} is not complete (the {round} round, {dealer} dealing): a new game starts only after the north round")]
    GameNotComplete {
        game: u32,
        round: String,
        dealer: String,
    },
    #[error("a new game seats the night's four players, each once: {players}")]
    NewGamePlayers { players: String },
    #[error("the balances outgrow 64-bit integers: lower the points or the multiplier")]
    BalanceOverflow,
    #[error("a match has four players, got {got}")]
    PlayerCount { got: usize },
    #[error("a player needs a name")]
    PlayerNameEmpty { index: usize },
    #[error("a player's name is 1 to {max} characters, got {chars}")]
    PlayerNameLong {
        index: usize,
        max: usize,
        chars: usize,
    },
    #[error("{name:?} is already a player: the four names must differ")]
    PlayerRepeated { name: String },
    #[error("{name:?} is not one of the four players")]
    UnknownPlayer { name: String },
    #[error(
        "a name of {chars} characters is not one of the four players (a name is at most {max})"
    )]
    UnknownPlayerLong { chars: usize, max: usize },
    #[error("{player} is already a winner of this hand")]
    WinnerRepeated { player: String },
    #[error("{player} sits {seat} in this hand, not {seat_wind} (the ledger seats the players; seat_wind may be left out)")]
    SeatWindMismatch {
        player: String,
        seat: String,
        seat_wind: String,
    },
    #[error("this hand is in the {round} round, not {round_wind} (round_wind may be left out)")]
    RoundWindMismatch {
        round: String,
        round_wind: String,
        player: String,
    },
    #[error("{player} is the winner and cannot be the discarder")]
    LedgerDiscarderIsWinner { player: String },
    #[error("{player} scores {faan} faan, below the minimum of {min}: it cannot be declared (record a false_win if it was)")]
    BelowMinimum { player: String, faan: u32, min: u32 },
    #[error("only a win has winners")]
    WinnersNotWin { result: &'static str },
    #[error("only a false win has an offender")]
    OffenderNotFalseWin { result: &'static str },
    #[error("a false win names its offender")]
    OffenderRequired,
    #[error("a winner carries either its hand or what was declared, not both and not neither")]
    HandOrDeclared,
    #[error("a declared win gives exactly one of faan, limit (true) and patterns")]
    DeclaredOneOf,
    #[error("{ruleset} does not score the pattern {pattern:?}")]
    PatternNotScored { pattern: String, ruleset: String },
    #[error("{pattern} may be declared at most {max} time(s)")]
    PatternRepeated { pattern: &'static str, max: u8 },
    #[error("{pattern} is only won by {only_on}, and this win is by {win_by}")]
    PatternNotOnWin {
        pattern: &'static str,
        only_on: &'static str,
        win_by: &'static str,
    },
    #[error(
        "a declared win takes win_by, discarder and liable only: {field} would change nothing"
    )]
    DeclaredContextField { field: &'static str },
    #[error("only a change of rules has house_rules")]
    HouseRulesNotRules { result: &'static str },
    #[error("only a new game has players and a dealer")]
    SeatsNotNewGame { result: &'static str },
}

impl HandRule {
    /// Every rule's code, in declaration order (the OpenAPI enum of codes).
    pub const CODES: &'static [&'static str] = <HandRule as strum::VariantNames>::VARIANTS;

    /// The problem's `code`: snake_case, never renamed.
    pub fn code(&self) -> &'static str {
        self.into()
    }

    /// The values the message names, by name (the problem's `params`).
    pub fn params(&self) -> serde_json::Map<String, serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m,
            // A rule without fields serialises as null: no params.
            _ => serde_json::Map::new(),
        }
    }
}

/// One broken rule: where (a JSON pointer into the request) and why; for
/// a [`HandRule`] also the rule, whose code and params a client words in
/// its own language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub pointer: Pointer,
    pub message: String,
    pub rule: Option<HandRule>,
    /// Values beside the rule's own (the ledger adds the players a
    /// co-winner problem is about), after them in `params`.
    pub extra: Vec<(&'static str, String)>,
}

impl FieldError {
    /// A problem without a code (a rule outside [`HandRule`]).
    pub fn new(pointer: impl Into<Pointer>, message: impl Into<String>) -> Self {
        FieldError {
            pointer: pointer.into(),
            message: message.into(),
            rule: None,
            extra: Vec::new(),
        }
    }

    /// A broken rule, its message the rule's.
    pub fn rule(pointer: impl Into<Pointer>, rule: HandRule) -> Self {
        FieldError {
            pointer: pointer.into(),
            message: rule.to_string(),
            rule: Some(rule),
            extra: Vec::new(),
        }
    }

    /// The problem with one more parameter (a name its message does not use).
    pub fn with_param(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.extra.push((name, value.into()));
        self
    }

    /// The same problem under `prefix` (a hand inside a larger request).
    pub fn under(mut self, prefix: &str) -> Self {
        self.pointer = self.pointer.under(prefix);
        self
    }

    /// The rule's params and the extra ones, where there is a rule.
    pub fn params(&self) -> Option<serde_json::Map<String, serde_json::Value>> {
        let mut params = self.rule.as_ref()?.params();
        for (k, v) in &self.extra {
            params.insert((*k).to_string(), v.as_str().into());
        }
        Some(params)
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_names_its_code_message_and_params() {
        let r = HandRule::TileOverFour {
            tile: "5m".into(),
            count: 5,
        };
        assert_eq!(r.code(), "tile_over_four", "code");
        assert_eq!(
            r.to_string(),
            "5m appears 5 times across the hand and its melds; a set has only 4 of each tile",
            "message"
        );
        assert_eq!(
            serde_json::Value::Object(r.params()),
            serde_json::json!({"tile": "5m", "count": 5}),
            "params"
        );
        let quoted = HandRule::BonusNotation { text: "F9".into() };
        assert!(
            quoted.to_string().starts_with("\"F9\" is not a bonus tile"),
            "{quoted}"
        );
        assert_eq!(
            HandRule::NotAChow {
                tiles: "135s".into()
            }
            .code(),
            "not_a_chow"
        );
        assert!(
            HandRule::HeavenlyMelds.params().is_empty(),
            "no fields, no params"
        );
    }

    #[test]
    fn codes_are_listed_in_declaration_order() {
        // A hand's and its win's, then the table's (settle, ledger).
        assert_eq!(HandRule::CODES.len(), 90, "rules");
        assert_eq!(HandRule::CODES[0], "tile_notation");
        let at = |code: &str| HandRule::CODES.iter().position(|c| *c == code).unwrap();
        // The hand's codes all come before the table's first.
        assert!(at("first_go_around_melds") < at("winner_count"));
        assert!(at("chances_too_large") < at("winner_count"));
        assert!(at("winner_count") < at("offender_required"));
        assert_eq!(at("pattern_not_on_win"), at("pattern_repeated") + 1);
        assert!(HandRule::CODES.contains(&"concealed_kong_robbed_not_orphan"));
        assert!(HandRule::CODES.contains(&"last_of_its_kind_flower_win"));
    }
}
