//! A hand and the circumstances of its win as the client wrote them: the
//! input of validation (`TryFrom<Claim>` for `(Hand, Context)`).

use crate::core::tile::Wind;
use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr, VariantNames};

// The word enums: serde reads and writes their wire words, strum names and
// parses them (the CLI's flags), both by one `snake_case` rule.

/// Kind of a declared meld.
#[derive(Serialize, Deserialize, IntoStaticStr, VariantNames, EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeldKind {
    Chow,
    Pung,
    Kong,
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
#[derive(Serialize, Deserialize, IntoStaticStr, VariantNames, EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WinBy {
    SelfDraw,
    Discard,
    RobbingKong,
}

/// Which replacement draw, if any, was the winning tile.
#[derive(Serialize, Deserialize, IntoStaticStr, VariantNames, EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Replacement {
    #[default]
    None,
    Kong,
    Flower,
}

/// Which kind of kong a robbing-the-kong win robbed.
#[derive(Serialize, Deserialize, IntoStaticStr, VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RobbedKong {
    /// A pung promoted to a kong (the usual case).
    #[default]
    Added,
    /// A concealed kong: robbed only to complete thirteen orphans.
    Concealed,
}

named!(MeldKind, WinBy);

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
    /// Won on a discard before a draw of the winner's own (a non-dealer, in
    /// the first go-around).
    pub first_go_around: bool,
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
            first_go_around: false,
        }
    }
}
