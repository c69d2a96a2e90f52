//! Hands and the circumstances of a win, and their validation.
//!
//! A [`HandSpec`] and a [`ContextSpec`] are what a client sends, still as
//! text; [`validate`] turns them into a [`Hand`] and a [`Context`] or lists
//! every broken rule with a JSON pointer into the request (`/hand/tiles`,
//! `/context/discarder`, ...). The rules are those of `api-contract.md`
//! ("POST /v1/score") and `rules-decisions.md` ("Shared reading of hands").

use super::tile::{parse_each, Bonus, Counts, Tile, Wind, KINDS};
use std::fmt;

/// Kind of a declared meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeldKind {
    Chow,
    Pung,
    Kong,
}

impl MeldKind {
    pub const fn name(self) -> &'static str {
        match self {
            MeldKind::Chow => "chow",
            MeldKind::Pung => "pung",
            MeldKind::Kong => "kong",
        }
    }
}

/// A meld as the client wrote it (`S`: owned `String`s, or `&str`s
/// borrowed from a request body).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MeldSpec<S = String> {
    pub kind: MeldKind,
    pub tiles: S,
    /// A kong declared from the hand.
    pub concealed: bool,
    /// A kong promoted from an exposed pung.
    pub added: bool,
}

/// A hand as the client wrote it (`S`: owned `String`s, or `&str`s
/// borrowed from a request body).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HandSpec<S = String> {
    /// Concealed tiles, winning tile included.
    pub tiles: S,
    pub melds: Vec<MeldSpec<S>>,
    pub winning_tile: Option<S>,
    pub flowers: Vec<S>,
}

impl HandSpec<&str> {
    /// The same hand with owned strings.
    pub fn to_owned_spec(&self) -> HandSpec {
        HandSpec {
            tiles: self.tiles.to_owned(),
            melds: self
                .melds
                .iter()
                .map(|m| MeldSpec {
                    kind: m.kind,
                    tiles: m.tiles.to_owned(),
                    concealed: m.concealed,
                    added: m.added,
                })
                .collect(),
            winning_tile: self.winning_tile.map(str::to_owned),
            flowers: self.flowers.iter().map(|f| (*f).to_owned()).collect(),
        }
    }
}

/// How the hand was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WinBy {
    SelfDraw,
    Discard,
    RobbingKong,
}

impl WinBy {
    pub const fn name(self) -> &'static str {
        match self {
            WinBy::SelfDraw => "self_draw",
            WinBy::Discard => "discard",
            WinBy::RobbingKong => "robbing_kong",
        }
    }
}

/// Which replacement draw, if any, was the winning tile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Replacement {
    #[default]
    None,
    Kong,
    Flower,
}

/// Which kind of kong a robbing-the-kong win robbed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RobbedKong {
    /// A pung promoted to a kong (the usual case).
    #[default]
    Added,
    /// A concealed kong: robbed only to complete thirteen orphans.
    Concealed,
}

/// The circumstances of the win (already typed; see [`validate`] for the cross-field rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContextSpec {
    pub win_by: WinBy,
    pub seat_wind: Wind,
    pub round_wind: Wind,
    pub discarder: Option<Wind>,
    pub replacement: Replacement,
    pub double_kong: bool,
    pub last_tile: bool,
    pub heavenly: bool,
    pub earthly: bool,
    pub liable: Option<Wind>,
    pub flower_win: bool,
    /// Robbing a kong: which kind (the default `Added` for every other win).
    pub robbed_kong: RobbedKong,
    /// The other three copies of the winning tile are in sight.
    pub last_of_its_kind: bool,
    /// The replacement draw before the winning one: the winning flower
    /// replacement replaced a bonus tile this one drew, or (a flower) this
    /// one drew a kong's fourth tile and the win is its kong replacement
    /// (`None`: a single draw).
    pub first_replacement: Replacement,
}

impl ContextSpec {
    /// A plain win with every optional circumstance off.
    pub const fn new(
        win_by: WinBy,
        seat_wind: Wind,
        round_wind: Wind,
        discarder: Option<Wind>,
    ) -> Self {
        ContextSpec {
            win_by,
            seat_wind,
            round_wind,
            discarder,
            replacement: Replacement::None,
            double_kong: false,
            last_tile: false,
            heavenly: false,
            earthly: false,
            liable: None,
            flower_win: false,
            robbed_kong: RobbedKong::Added,
            last_of_its_kind: false,
            first_replacement: Replacement::None,
        }
    }
}

/// The validated context is the same data.
pub type Context = ContextSpec;

/// A declared meld, parsed and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    /// Lowest tile of the meld.
    pub tile: Tile,
    pub concealed: bool,
    pub added: bool,
}

impl Meld {
    /// Claimed from a discard (breaks a concealed hand): every meld but a concealed kong.
    pub const fn is_claimed(&self) -> bool {
        !(matches!(self.kind, MeldKind::Kong) && self.concealed)
    }

    pub const fn size(&self) -> u8 {
        match self.kind {
            MeldKind::Kong => 4,
            _ => 3,
        }
    }
}

/// A validated hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    /// Concealed tiles sorted, winning tile included.
    pub concealed_len: usize,
    pub concealed_counts: Counts,
    /// Declared melds in canonical (sorted) order.
    pub melds: Vec<Meld>,
    /// Winning tile; `None` only for a flower win.
    pub winning_tile: Option<Tile>,
    /// Bonus tiles held, as a bit set (bit i = [`Bonus::from_index`]`(i)`).
    pub flowers: u8,
}

impl Hand {
    /// The concealed tiles in tile order.
    #[cfg(test)]
    pub fn concealed(&self) -> impl Iterator<Item = Tile> + '_ {
        self.concealed_counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| {
                let t = Tile::from_index(i).expect("i < KINDS");
                std::iter::repeat_n(t, n as usize)
            })
    }

    /// Counts of every tile, concealed and declared (a kong counts four).
    pub fn all_counts(&self) -> Counts {
        let mut c = self.concealed_counts;
        for m in &self.melds {
            add_meld(&mut c, m);
        }
        c
    }

    pub fn kongs(&self) -> usize {
        self.melds
            .iter()
            .filter(|m| m.kind == MeldKind::Kong)
            .count()
    }
}

fn add_meld(c: &mut Counts, m: &Meld) {
    let i = m.tile.index();
    match m.kind {
        MeldKind::Chow => {
            for k in 0..3 {
                c[i + k] = c[i + k].saturating_add(1);
            }
        }
        MeldKind::Pung => c[i] = c[i].saturating_add(3),
        MeldKind::Kong => c[i] = c[i].saturating_add(4),
    }
}

/// One broken rule: where (a JSON pointer into the request) and why; for
/// a rule of [`HandRule`]'s table also its code and the values its message
/// names, so a client can word it in its own language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub pointer: String,
    pub message: String,
    pub rule: Option<HandRule>,
    pub params: Vec<(&'static str, Param)>,
}

/// A value a rule's message names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    Int(i64),
    Text(String),
}

impl From<i64> for Param {
    fn from(n: i64) -> Self {
        Param::Int(n)
    }
}

impl From<usize> for Param {
    fn from(n: usize) -> Self {
        Param::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<u8> for Param {
    fn from(n: u8) -> Self {
        Param::Int(n.into())
    }
}

impl From<u32> for Param {
    fn from(n: u32) -> Self {
        Param::Int(n.into())
    }
}

impl From<String> for Param {
    fn from(s: String) -> Self {
        Param::Text(s)
    }
}

impl From<&str> for Param {
    fn from(s: &str) -> Self {
        Param::Text(s.to_string())
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::Int(n) => write!(f, "{n}"),
            Param::Text(s) => f.write_str(s),
        }
    }
}

impl FieldError {
    /// A problem without a code (a rule outside [`HandRule`]'s table).
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            pointer: pointer.into(),
            message: message.into(),
            rule: None,
            params: Vec::new(),
        }
    }

    /// A broken rule of the table, its message the rule's template filled
    /// with `params`.
    pub fn rule(
        pointer: impl Into<String>,
        rule: HandRule,
        params: Vec<(&'static str, Param)>,
    ) -> Self {
        FieldError {
            pointer: pointer.into(),
            message: fill(rule.template(), &params),
            rule: Some(rule),
            params,
        }
    }

    /// The problem with one more parameter (a name its message does not use:
    /// the ledger adds the players a co-winner problem is about).
    pub fn with_param(mut self, name: &'static str, value: impl Into<Param>) -> Self {
        self.params.push((name, value.into()));
        self
    }

    /// The same problem under `prefix` (a hand inside a larger request).
    pub fn under(mut self, prefix: &str) -> Self {
        self.pointer.insert_str(0, prefix);
        self
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// `template` with each `{name}` replaced by its parameter (`{name:?}`
/// quoted as a Rust string); an unknown name stays as written.
fn fill(template: &str, params: &[(&'static str, Param)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(rest.get(..open).unwrap_or_default());
        let after = rest.get(open + 1..).unwrap_or_default();
        let Some(close) = after.find('}') else {
            break;
        };
        let name = after.get(..close).unwrap_or_default();
        let (key, quoted) = match name.strip_suffix(":?") {
            Some(k) => (k, true),
            None => (name, false),
        };
        match params.iter().find(|(k, _)| *k == key) {
            Some((_, v)) if quoted => out.push_str(&format!("{:?}", v.to_string())),
            Some((_, v)) => out.push_str(&v.to_string()),
            None => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        rest = after.get(close + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

macro_rules! hand_rules {
    ($($variant:ident => $code:literal, $template:literal;)*) => {
        /// A rule of a hand, of the circumstances of its win or of the
        /// table (settle, ledger) that a request can break: a stable code (the problem's `code`) and the
        /// English message, `{name}` standing for the parameter `name`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HandRule { $($variant),* }

        impl HandRule {
            /// Every rule, in table order.
            pub const ALL: &'static [HandRule] = &[$(HandRule::$variant),*];

            /// The problem's `code`: snake_case, never renamed.
            pub const fn code(self) -> &'static str {
                match self { $(HandRule::$variant => $code),* }
            }

            /// The English message with `{name}` for each parameter.
            pub const fn template(self) -> &'static str {
                match self { $(HandRule::$variant => $template),* }
            }
        }
    };
}

// One line per rule: its code and its English message. Clients key their
// own wording by the code (the calculator page: web/js/format.js).
hand_rules! {
    TileNotation => "tile_notation", "{detail}";
    BonusNotation => "bonus_notation", "{text:?} is not a bonus tile: use F1..F4 (flowers), S1..S4 (seasons) or their Unicode tiles";
    MeldFlagNotKong => "meld_flag_not_kong", "only a kong can be {flag}; this meld is a {kind}";
    KongConcealedAndAdded => "kong_concealed_and_added", "a kong is either concealed (declared from the hand) or added (promoted from a pung), not both";
    MeldTooLong => "meld_too_long", "a {kind} has {want} tiles, got {got}";
    MeldSize => "meld_size", "a {kind} has {want} tiles, got {got} ({tiles})";
    NotAChow => "not_a_chow", "{tiles} is not a chow: a chow is three consecutive tiles of one numbered suit";
    NotASet => "not_a_set", "{tiles} is not a {kind}: it needs {want} identical tiles";
    TooManyTiles => "too_many_tiles", "{count} tiles listed; at most {max} are read (a hand holds at most 18: 14 plus one per kong)";
    TooManyMelds => "too_many_melds", "a hand has at most 4 melds, got {got}";
    WinningTileWhileWaiting => "winning_tile_while_waiting", "a hand that is waiting has no winning tile yet: leave winning_tile out";
    WinningTileRequired => "winning_tile_required", "required: the tile that completed the hand";
    WinningTileNotInHand => "winning_tile_not_in_hand", "winning tile {tile} is not among the concealed tiles (hand.tiles must include it)";
    BonusTwice => "bonus_twice", "bonus tile {bonus} is listed twice";
    TooManyBonusTiles => "too_many_bonus_tiles", "a hand holds at most {max} bonus tiles (four flowers and four seasons, each once), got {count}";
    BonusOff => "bonus_off", "bonus tiles are not in play under ruleset {ruleset}; set house_rules.flowers to true to score them";
    TileOverFour => "tile_over_four", "{tile} appears {count} times across the hand and its melds; a set has only 4 of each tile";
    WinnersTileOverFour => "winners_tile_over_four", "the winners on one discard hold {count} {tile} between them (the shared winning tile counted once); a set has only 4 of each tile";
    CoWinnerSelfDraw => "co_winner_self_draw", "several winners share one discard or robbed kong: a self-drawn win has one winner";
    CoWinnerWinBy => "co_winner_win_by", "win_by {win_by} differs from winner 0's {first}: several winners share one discard or robbed kong";
    CoWinnerDiscarder => "co_winner_discarder", "the discarder differs from winner 0's: several winners share one discard";
    CoWinnerRoundWind => "co_winner_round_wind", "round_wind {round_wind} differs from winner 0's {first}: the winners play one hand";
    CoWinnerSeat => "co_winner_seat", "seat {seat} is already a winner: each winner sits at a different seat";
    CoWinnerWinningTile => "co_winner_winning_tile", "winning tile {tile} differs from winner 0's {first}: several winners share one discard";
    WaitingComplete => "waiting_complete", "expected {expected} concealed tiles with {melds} declared meld(s) (a waiting hand holds 13 tiles plus one per kong), got {got}: the hand is already complete: score it with POST /v1/score";
    WaitingShort => "waiting_short", "expected {expected} concealed tiles with {melds} declared meld(s) (a waiting hand holds 13 tiles plus one per kong), got {got}: the hand is {short} tiles short of a win; waits are for a hand one tile short";
    WaitingOver => "waiting_over", "expected {expected} concealed tiles with {melds} declared meld(s) (a waiting hand holds 13 tiles plus one per kong), got {got}: too many tiles";
    AnalysisTileCount => "analysis_tile_count", "expected {drawing} concealed tiles (waiting for a draw) or {discarding} (about to discard) with {melds} declared meld(s), each meld counting as three, got {got}";
    SeenOverFour => "seen_over_four", "{tile} is in sight {count} times: {held} in the hand and its melds, {seen} in seen; there are only 4 of each tile";
    ChancesTooFar => "chances_too_far", "the hand is {shanten} tiles from ready; chances are worked out for hands at most {max} from ready (the cost of the exact model grows with each step)";
    TileCount => "tile_count", "expected {expected} concealed tiles with {melds} declared meld(s) (a hand holds 14 tiles plus one per kong), got {got}";
    DiscarderOnSelfDraw => "discarder_on_self_draw", "a self-drawn win has no discarder";
    DiscarderRequired => "discarder_required", "required for a win on a discard";
    DiscarderRequiredRobbing => "discarder_required_robbing", "required for robbing a kong: the seat that added the kong";
    DiscarderIsWinner => "discarder_is_winner", "the discarder ({seat}) cannot be the winner (seat_wind {seat})";
    LiableIsWinner => "liable_is_winner", "the liable seat ({seat}) cannot be the winner";
    ReplacementNotSelfDraw => "replacement_not_self_draw", "a replacement draw is a self-draw: set win_by to self_draw";
    KongReplacementWithoutKong => "kong_replacement_without_kong", "a kong replacement needs a kong among hand.melds";
    RobbedKongWithoutRobbing => "robbed_kong_without_robbing", "only a win by robbing a kong robs one: set win_by to robbing_kong or leave robbed_kong out";
    ConcealedKongRobbedNotOrphan => "concealed_kong_robbed_not_orphan", "a concealed kong may be robbed only to complete thirteen orphans, and the winning tile is not a terminal or honour";
    LastOfItsKindFlowerWin => "last_of_its_kind_flower_win", "a flower win has no winning tile to be the last of its kind";
    SecondReplacementNotFlower => "second_replacement_not_flower", "a second replacement draw replaces the bonus tile the first one drew (set replacement to flower), or the kong a flower replacement completed (set replacement to kong after a flower); a kong on a kong replacement is double_kong";
    TwoFlowerReplacements => "two_flower_replacements", "two flower replacements need two bonus tiles among hand.flowers, found {found}";
    DoubleKongReplacement => "double_kong_replacement", "a double kong win is a kong replacement draw: set replacement to kong";
    DoubleKongTwoKongs => "double_kong_two_kongs", "a double kong needs two kongs among hand.melds, found {found}";
    HeavenlyNotEast => "heavenly_not_east", "only East wins a heavenly hand; seat_wind is {seat}";
    HeavenlyNotSelfDraw => "heavenly_not_self_draw", "a heavenly hand is the dealt hand: win_by must be self_draw";
    HeavenlyMelds => "heavenly_melds", "a heavenly hand has no declared melds";
    EarthlyEast => "earthly_east", "East cannot win an earthly hand (East's own first draw is heavenly)";
    EarthlyNotDiscard => "earthly_not_discard", "an earthly hand is won on East's first discard: win_by must be discard";
    EarthlyDiscarder => "earthly_discarder", "an earthly hand is won on East's first discard: discarder must be east";
    EarthlyMelds => "earthly_melds", "an earthly hand has no declared melds";
    HeavenlyAndEarthly => "heavenly_and_earthly", "a hand cannot be both heavenly and earthly";
    RobbingCount => "robbing_count", "robbing a kong of {tile}: the other three {tile} are in the kong, so the hand can hold only the robbed one, but it holds {count}";
    FlowerWinRuleset => "flower_win_ruleset", "ruleset {ruleset} does not score flower wins";
    FlowerWinCount => "flower_win_count", "a flower win needs seven or eight bonus tiles, hand.flowers has {count}";
    FlowerWinSelfDraw => "flower_win_self_draw", "a flower win is drawn from the wall: win_by must be self_draw";
    // The table's rules (POST /v1/settle, POST /v1/ledger): a player named
    // by name (`player`, `name`), never by index (issue 26).
    WinnerCount => "winner_count", "one to {max} winners on one discard, got {got}";
    LedgerTooManyHands => "ledger_too_many_hands", "a ledger holds at most {max} hands, got {got}";
    MatchComplete => "match_complete", "the match is complete: the north round ended with hand {last}; no hand may follow";
    BalanceOverflow => "balance_overflow", "the balances outgrow 64-bit integers: lower the points or the multiplier";
    PlayerCount => "player_count", "a match has four players, got {got}";
    PlayerNameEmpty => "player_name_empty", "a player needs a name";
    PlayerNameLong => "player_name_long", "a player's name is 1 to {max} characters, got {chars}";
    PlayerRepeated => "player_repeated", "{name:?} is already a player: the four names must differ";
    UnknownPlayer => "unknown_player", "{name:?} is not one of the four players";
    UnknownPlayerLong => "unknown_player_long", "a name of {chars} characters is not one of the four players (a name is at most {max})";
    WinnerRepeated => "winner_repeated", "{player} is already a winner of this hand";
    SeatWindMismatch => "seat_wind_mismatch", "{player} sits {seat} in this hand, not {seat_wind} (the ledger seats the players; seat_wind may be left out)";
    RoundWindMismatch => "round_wind_mismatch", "this hand is in the {round} round, not {round_wind} (round_wind may be left out)";
    LedgerDiscarderIsWinner => "ledger_discarder_is_winner", "{player} is the winner and cannot be the discarder";
    BelowMinimum => "below_minimum", "{player} scores {faan} faan, below the minimum of {min}: it cannot be declared (record a false_win if it was)";
    WinnersNotWin => "winners_not_win", "only a win has winners";
    OffenderNotFalseWin => "offender_not_false_win", "only a false win has an offender";
    OffenderRequired => "offender_required", "a false win names its offender";
}

/// The most bonus tiles a hand holds: four flowers and four seasons.
pub const MAX_BONUS_TILES: usize = 8;

/// What the ruleset in force allows, as far as validation needs to know.
#[derive(Clone, Copy, Debug)]
pub struct Allowances<'a> {
    pub ruleset_id: &'a str,
    pub bonus_tiles: bool,
    pub flower_win: bool,
    /// The hand is one tile short of a win (for waits): no winning tile, 13 tiles plus one per kong.
    pub waiting: bool,
}

/// Checks a hand and context; on success returns the parsed forms.
///
/// Every problem found is reported, not only the first.
pub fn validate<S: AsRef<str>>(
    spec: &HandSpec<S>,
    ctx: &ContextSpec,
    allow: Allowances<'_>,
) -> Result<(Hand, Context), Vec<FieldError>> {
    let mut errs = Vec::new();

    let mut concealed_counts = [0u8; KINDS];
    let mut concealed_len = 0usize;
    let parsed = parse_each(spec.tiles.as_ref(), |t| {
        concealed_counts[t.index()] = concealed_counts[t.index()].saturating_add(1);
        concealed_len += 1;
    });
    if let Err(e) = parsed {
        errs.push(notation("/hand/tiles", e));
        concealed_counts = [0u8; KINDS];
        concealed_len = 0;
    }

    let mut melds = Vec::with_capacity(spec.melds.len());
    for (i, m) in spec.melds.iter().enumerate() {
        let ptr = || format!("/hand/melds/{i}");
        if m.kind != MeldKind::Kong && (m.concealed || m.added) {
            let field = if m.concealed { "concealed" } else { "added" };
            errs.push(FieldError::rule(
                format!("{}/{field}", ptr()),
                HandRule::MeldFlagNotKong,
                vec![("flag", field.into()), ("kind", m.kind.name().into())],
            ));
        }
        if m.concealed && m.added {
            errs.push(FieldError::rule(
                format!("{}/added", ptr()),
                HandRule::KongConcealedAndAdded,
                vec![],
            ));
        }
        let mut buf = [Tile::WHITE; 4];
        let mut n = 0usize;
        let parsed = parse_each(m.tiles.as_ref(), |t| {
            if n < buf.len() {
                buf[n] = t;
            }
            n += 1;
        });
        match parsed {
            Err(e) => errs.push(notation(format!("{}/tiles", ptr()), e)),
            Ok(()) if n > buf.len() => errs.push(FieldError::rule(
                format!("{}/tiles", ptr()),
                HandRule::MeldTooLong,
                vec![
                    ("kind", m.kind.name().into()),
                    (
                        "want",
                        if m.kind == MeldKind::Kong { 4u8 } else { 3 }.into(),
                    ),
                    ("got", n.into()),
                ],
            )),
            Ok(()) => {
                let tiles = &mut buf[..n];
                sort_small(tiles);
                match meld_from_tiles(m.kind, tiles) {
                    Ok(tile) => melds.push(Meld {
                        kind: m.kind,
                        tile,
                        concealed: m.concealed,
                        added: m.added,
                    }),
                    Err(e) => errs.push(e.under(&ptr())),
                }
            }
        }
    }
    if spec.melds.len() > 4 {
        errs.push(FieldError::rule(
            "/hand/melds",
            HandRule::TooManyMelds,
            vec![("got", spec.melds.len().into())],
        ));
    }

    let winning_tile = match &spec.winning_tile {
        Some(_) if allow.waiting => {
            errs.push(FieldError::rule(
                "/hand/winning_tile",
                HandRule::WinningTileWhileWaiting,
                vec![],
            ));
            None
        }
        None => {
            if !ctx.flower_win && !allow.waiting {
                errs.push(FieldError::rule(
                    "/hand/winning_tile",
                    HandRule::WinningTileRequired,
                    vec![],
                ));
            }
            None
        }
        Some(w) => match w.as_ref().parse::<Tile>() {
            Ok(t) => {
                if concealed_len > 0 && concealed_counts[t.index()] == 0 {
                    errs.push(FieldError::rule(
                        "/hand/winning_tile",
                        HandRule::WinningTileNotInHand,
                        vec![("tile", t.to_string().into())],
                    ));
                }
                Some(t)
            }
            Err(e) => {
                errs.push(notation("/hand/winning_tile", e));
                None
            }
        },
    };

    let mut flowers = 0u8;
    // Past the eighth nothing more is read: one error, not one per tile.
    for (i, f) in spec.flowers.iter().take(MAX_BONUS_TILES).enumerate() {
        match f.as_ref().parse::<Bonus>() {
            Ok(b) => {
                let bit = 1u8 << b.index();
                if flowers & bit != 0 {
                    errs.push(FieldError::rule(
                        format!("/hand/flowers/{i}"),
                        HandRule::BonusTwice,
                        vec![("bonus", b.to_string().into())],
                    ));
                }
                flowers |= bit;
            }
            Err(_) => errs.push(FieldError::rule(
                format!("/hand/flowers/{i}"),
                HandRule::BonusNotation,
                vec![("text", f.as_ref().into())],
            )),
        }
    }
    if spec.flowers.len() > MAX_BONUS_TILES {
        errs.push(FieldError::rule(
            format!("/hand/flowers/{MAX_BONUS_TILES}"),
            HandRule::TooManyBonusTiles,
            vec![
                ("max", MAX_BONUS_TILES.into()),
                ("count", spec.flowers.len().into()),
            ],
        ));
    }
    if !spec.flowers.is_empty() && !allow.bonus_tiles {
        errs.push(FieldError::rule(
            "/hand/flowers",
            HandRule::BonusOff,
            vec![("ruleset", allow.ruleset_id.into())],
        ));
    }

    // Tile counts (only meaningful once the tiles parsed).
    let mut all = concealed_counts;
    for m in &melds {
        add_meld(&mut all, m);
    }
    // Folded without an early exit (vectorised); the loop only for a bad hand.
    if all.iter().fold(false, |any, &n| any | (n > 4)) {
        for (i, &n) in all.iter().enumerate() {
            if n > 4 {
                let t = Tile::from_index(i).expect("index < KINDS");
                errs.push(FieldError::rule(
                    "/hand/tiles",
                    HandRule::TileOverFour,
                    vec![("tile", t.to_string().into()), ("count", n.into())],
                ));
            }
        }
    }
    let all_parsed = !errs.iter().any(|e| e.pointer.ends_with("/tiles"));
    if all_parsed {
        let expected = 14 - 3 * melds.len() as i64 - i64::from(allow.waiting);
        let got = concealed_len as i64;
        let short_ok = ctx.flower_win && got == expected - 1;
        let counts = || -> Vec<(&'static str, Param)> {
            vec![
                ("expected", expected.into()),
                ("melds", melds.len().into()),
                ("got", got.into()),
            ]
        };
        if allow.waiting && got != expected {
            let (rule, params) = if got == expected + 1 {
                (HandRule::WaitingComplete, counts())
            } else if got < expected {
                let mut p = counts();
                p.push(("short", (expected + 1 - got).into()));
                (HandRule::WaitingShort, p)
            } else {
                (HandRule::WaitingOver, counts())
            };
            errs.push(FieldError::rule("/hand/tiles", rule, params));
        } else if !allow.waiting && got != expected && !short_ok {
            errs.push(FieldError::rule(
                "/hand/tiles",
                HandRule::TileCount,
                counts(),
            ));
        }
    }

    validate_context(ctx, &melds, &all, winning_tile, flowers, allow, &mut errs);

    if !errs.is_empty() {
        return Err(errs);
    }
    sort_small(&mut melds);
    Ok((
        Hand {
            concealed_len,
            concealed_counts,
            melds,
            winning_tile,
            flowers,
        },
        *ctx,
    ))
}

/// Insertion sort, for the few items here (a meld's tiles, a hand's melds:
/// at most four each), where the library sort's set-up was a visible cost.
fn sort_small<T: Ord>(v: &mut [T]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A tile notation error at `pointer` (its message names the position).
pub(super) fn notation(pointer: impl Into<String>, e: super::tile::ParseError) -> FieldError {
    FieldError::rule(
        pointer,
        HandRule::TileNotation,
        vec![
            ("detail", e.message.into()),
            ("position", (e.position + 1).into()),
        ],
    )
}

/// The lowest tile of a meld of `kind` made of `tiles` (sorted), or why it
/// is not one (a problem at the meld, `/tiles` under it).
fn meld_from_tiles(kind: MeldKind, tiles: &[Tile]) -> Result<Tile, FieldError> {
    let want = if kind == MeldKind::Kong { 4u8 } else { 3 };
    let shown = || Param::from(super::tile::format_tiles(tiles));
    if tiles.len() != usize::from(want) {
        return Err(FieldError::rule(
            "/tiles",
            HandRule::MeldSize,
            vec![
                ("kind", kind.name().into()),
                ("want", want.into()),
                ("got", tiles.len().into()),
                ("tiles", shown()),
            ],
        ));
    }
    let first = tiles[0];
    let ok = match kind {
        MeldKind::Chow => first.step(1) == Some(tiles[1]) && first.step(2) == Some(tiles[2]),
        _ => tiles.iter().all(|&t| t == first),
    };
    if ok {
        Ok(first)
    } else if kind == MeldKind::Chow {
        Err(FieldError::rule(
            "/tiles",
            HandRule::NotAChow,
            vec![("tiles", shown())],
        ))
    } else {
        Err(FieldError::rule(
            "/tiles",
            HandRule::NotASet,
            vec![
                ("tiles", shown()),
                ("kind", kind.name().into()),
                ("want", want.into()),
            ],
        ))
    }
}

fn validate_context(
    ctx: &ContextSpec,
    melds: &[Meld],
    all: &Counts,
    winning: Option<Tile>,
    flowers: u8,
    allow: Allowances<'_>,
    errs: &mut Vec<FieldError>,
) {
    let push = |errs: &mut Vec<FieldError>,
                field: &str,
                rule: HandRule,
                params: Vec<(&'static str, Param)>| {
        errs.push(FieldError::rule(format!("/context/{field}"), rule, params));
    };
    match (ctx.win_by, ctx.discarder) {
        (WinBy::SelfDraw, Some(_)) => {
            push(errs, "discarder", HandRule::DiscarderOnSelfDraw, vec![])
        }
        (WinBy::Discard, None) => push(errs, "discarder", HandRule::DiscarderRequired, vec![]),
        (WinBy::RobbingKong, None) => push(
            errs,
            "discarder",
            HandRule::DiscarderRequiredRobbing,
            vec![],
        ),
        (_, Some(d)) if d == ctx.seat_wind => push(
            errs,
            "discarder",
            HandRule::DiscarderIsWinner,
            vec![("seat", d.to_string().into())],
        ),
        _ => {}
    }
    if let Some(l) = ctx.liable {
        if l == ctx.seat_wind {
            push(
                errs,
                "liable",
                HandRule::LiableIsWinner,
                vec![("seat", l.to_string().into())],
            );
        }
    }
    let kongs = melds.iter().filter(|m| m.kind == MeldKind::Kong).count();
    if ctx.replacement != Replacement::None && ctx.win_by != WinBy::SelfDraw {
        push(
            errs,
            "replacement",
            HandRule::ReplacementNotSelfDraw,
            vec![],
        );
    }
    if ctx.replacement == Replacement::Kong && kongs == 0 {
        push(
            errs,
            "replacement",
            HandRule::KongReplacementWithoutKong,
            vec![],
        );
    }
    if ctx.robbed_kong == RobbedKong::Concealed && ctx.win_by != WinBy::RobbingKong {
        push(
            errs,
            "robbed_kong",
            HandRule::RobbedKongWithoutRobbing,
            vec![],
        );
    }
    if ctx.robbed_kong == RobbedKong::Concealed && winning.is_some_and(|t| !t.is_orphan()) {
        push(
            errs,
            "robbed_kong",
            HandRule::ConcealedKongRobbedNotOrphan,
            vec![],
        );
    }
    if ctx.last_of_its_kind && ctx.flower_win {
        push(
            errs,
            "last_of_its_kind",
            HandRule::LastOfItsKindFlowerWin,
            vec![],
        );
    }
    match (ctx.first_replacement, ctx.replacement) {
        (Replacement::None, _) => {}
        // A flower replacement that drew a kong's fourth tile, then the
        // kong's replacement (`either_order`; the kong is checked above).
        (Replacement::Flower, Replacement::Kong) => {}
        (_, r) if r != Replacement::Flower => push(
            errs,
            "first_replacement",
            HandRule::SecondReplacementNotFlower,
            vec![],
        ),
        (Replacement::Kong, _) if kongs == 0 => push(
            errs,
            "first_replacement",
            HandRule::KongReplacementWithoutKong,
            vec![],
        ),
        (Replacement::Flower, _) if flowers.count_ones() < 2 => push(
            errs,
            "first_replacement",
            HandRule::TwoFlowerReplacements,
            vec![("found", flowers.count_ones().into())],
        ),
        _ => {}
    }
    if ctx.double_kong {
        if ctx.replacement != Replacement::Kong {
            push(errs, "double_kong", HandRule::DoubleKongReplacement, vec![]);
        }
        if kongs < 2 {
            push(
                errs,
                "double_kong",
                HandRule::DoubleKongTwoKongs,
                vec![("found", kongs.into())],
            );
        }
    }
    if ctx.heavenly {
        if ctx.seat_wind != crate::core::tile::Wind::East {
            push(
                errs,
                "heavenly",
                HandRule::HeavenlyNotEast,
                vec![("seat", ctx.seat_wind.to_string().into())],
            );
        }
        if ctx.win_by != WinBy::SelfDraw {
            push(errs, "heavenly", HandRule::HeavenlyNotSelfDraw, vec![]);
        }
        if !melds.is_empty() {
            push(errs, "heavenly", HandRule::HeavenlyMelds, vec![]);
        }
    }
    if ctx.earthly {
        if ctx.seat_wind == crate::core::tile::Wind::East {
            push(errs, "earthly", HandRule::EarthlyEast, vec![]);
        }
        if ctx.win_by != WinBy::Discard {
            push(errs, "earthly", HandRule::EarthlyNotDiscard, vec![]);
        } else if ctx
            .discarder
            .is_some_and(|d| d != crate::core::tile::Wind::East)
        {
            push(errs, "earthly", HandRule::EarthlyDiscarder, vec![]);
        }
        if !melds.is_empty() {
            push(errs, "earthly", HandRule::EarthlyMelds, vec![]);
        }
    }
    if ctx.heavenly && ctx.earthly {
        push(errs, "earthly", HandRule::HeavenlyAndEarthly, vec![]);
    }
    if ctx.win_by == WinBy::RobbingKong {
        if let Some(w) = winning {
            let n = all[w.index()];
            if n > 1 {
                push(
                    errs,
                    "win_by",
                    HandRule::RobbingCount,
                    vec![("tile", w.to_string().into()), ("count", n.into())],
                );
            }
        }
    }
    if ctx.flower_win {
        let n = flowers.count_ones();
        if !allow.flower_win {
            push(
                errs,
                "flower_win",
                HandRule::FlowerWinRuleset,
                vec![("ruleset", allow.ruleset_id.into())],
            );
        } else if n < 7 {
            push(
                errs,
                "flower_win",
                HandRule::FlowerWinCount,
                vec![("count", n.into())],
            );
        }
        if ctx.win_by != WinBy::SelfDraw {
            push(errs, "flower_win", HandRule::FlowerWinSelfDraw, vec![]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allow() -> Allowances<'static> {
        Allowances {
            ruleset_id: "test",
            bonus_tiles: true,
            flower_win: true,
            waiting: false,
        }
    }

    fn spec(tiles: &str, win: &str) -> HandSpec {
        HandSpec {
            tiles: tiles.into(),
            melds: vec![],
            winning_tile: Some(win.into()),
            flowers: vec![],
        }
    }

    fn discard() -> ContextSpec {
        ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West))
    }

    fn pointers(r: Result<(Hand, Context), Vec<FieldError>>) -> Vec<String> {
        match r {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|e| e.pointer).collect(),
        }
    }

    #[test]
    fn sort_small_sorts_every_order_of_four() {
        let mut seen = 0;
        for a in 0..4u8 {
            for b in 0..4u8 {
                for c in 0..4u8 {
                    for d in 0..4u8 {
                        let mut v = [a, b, c, d];
                        let mut want = v;
                        want.sort();
                        sort_small(&mut v);
                        assert_eq!(v, want, "{a} {b} {c} {d}");
                        seen += 1;
                    }
                }
            }
        }
        assert_eq!(seen, 256);
        let mut empty: [u8; 0] = [];
        sort_small(&mut empty);
    }

    #[test]
    fn accepts_a_plain_hand() {
        let (h, _) = validate(&spec("234567m22p345s777z", "2p"), &discard(), allow()).unwrap();
        assert_eq!(h.concealed_len, 14);
        assert_eq!(h.concealed().count(), 14);
        assert_eq!(h.winning_tile.unwrap().to_string(), "2p");
    }

    #[test]
    fn rejections_point_at_the_field() {
        let mut kong = spec("234567m22p345s", "2p");
        kong.melds.push(MeldSpec {
            kind: MeldKind::Kong,
            tiles: "1111s".into(),
            concealed: true,
            added: false,
        });
        assert_eq!(
            pointers(validate(&kong, &discard(), allow())),
            Vec::<String>::new(),
            "hand with kong"
        );

        let cases: Vec<(HandSpec, ContextSpec, &str)> = vec![
            (spec("234567m22p345s77x", "2p"), discard(), "/hand/tiles"),
            (
                spec("234567m22p345s777z", "3p"),
                discard(),
                "/hand/winning_tile",
            ),
            (spec("234567m22p345s77z", "2p"), discard(), "/hand/tiles"),
            (spec("22222m567m22p777z", "2p"), discard(), "/hand/tiles"),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, Some(Wind::West)),
                "/context/discarder",
            ),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, None),
                "/context/discarder",
            ),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::South)),
                "/context/discarder",
            ),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec {
                    heavenly: true,
                    ..ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None)
                },
                "/context/heavenly",
            ),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec {
                    earthly: true,
                    ..ContextSpec::new(WinBy::Discard, Wind::East, Wind::East, Some(Wind::South))
                },
                "/context/earthly",
            ),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec {
                    earthly: true,
                    ..ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None)
                },
                "/context/earthly",
            ),
            (
                spec("234567m22p345s777z", "2p"),
                ContextSpec::new(
                    WinBy::RobbingKong,
                    Wind::South,
                    Wind::East,
                    Some(Wind::West),
                ),
                "/context/win_by",
            ),
        ];
        for (h, c, want) in cases {
            let got = pointers(validate(&h, &c, allow()));
            assert!(
                got.iter().any(|p| p == want),
                "hand {:?} ctx {:?}: want {want}, got {got:?}",
                h.tiles,
                c
            );
        }
    }

    #[test]
    fn meld_errors() {
        let mut h = spec("234567m22p777z", "2p");
        h.melds.push(MeldSpec {
            kind: MeldKind::Chow,
            tiles: "135s".into(),
            concealed: false,
            added: false,
        });
        assert_eq!(
            pointers(validate(&h, &discard(), allow())),
            vec!["/hand/melds/0/tiles"]
        );
        h.melds[0] = MeldSpec {
            kind: MeldKind::Pung,
            tiles: "555s".into(),
            concealed: true,
            added: false,
        };
        assert_eq!(
            pointers(validate(&h, &discard(), allow())),
            vec!["/hand/melds/0/concealed"]
        );
        h.melds[0] = MeldSpec {
            kind: MeldKind::Chow,
            tiles: "89s1p".into(),
            concealed: false,
            added: false,
        };
        assert_eq!(
            pointers(validate(&h, &discard(), allow())),
            vec!["/hand/melds/0/tiles"]
        );
    }

    #[test]
    fn flowers() {
        let mut h = spec("234567m22p345s777z", "2p");
        h.flowers = vec!["F1".into(), "F1".into()];
        assert_eq!(
            pointers(validate(&h, &discard(), allow())),
            vec!["/hand/flowers/1"]
        );
        h.flowers = vec!["F1".into()];
        let no = Allowances {
            bonus_tiles: false,
            ..allow()
        };
        let err = validate(&h, &discard(), no).unwrap_err();
        assert_eq!(err[0].pointer, "/hand/flowers");
        assert!(
            err[0].message.contains("house_rules.flowers"),
            "{}",
            err[0].message
        );
    }
}
