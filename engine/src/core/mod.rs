//! The scoring core: tiles, hands, decomposition, patterns, rulesets,
//! evaluation and settlement. No HTTP and no IO here; nothing a client sends
//! may make it panic.

/// `name()`: the word a request, a document and an answer write for a value
/// of a word enum (strum's, by the same `snake_case` rule serde reads it with).
macro_rules! named {
    ($($t:ty),*) => {$(
        impl $t {
            pub fn name(self) -> &'static str {
                self.into()
            }
        }
    )*};
}

pub mod analysis;
pub mod chances;
pub mod decompose;
pub mod echo;
pub mod evaluate;
pub mod hand;
pub mod hand_changes;
pub mod ledger;
pub mod pattern;
pub mod pointer;
pub mod registry;
pub mod ruleset;
pub mod settle;
pub mod shanten;
pub mod tile;
pub mod waits;
pub mod winners;

pub use evaluate::{score, Line, Score, ScoreError, ScoredReading};
pub use hand::{
    ContextSpec, FieldError, HandSpec, MeldKind, MeldSpec, Replacement, RobbedKong, WinBy,
};
pub use pattern::PatternId;
pub use registry::Registry;
pub use ruleset::{
    Change, DiscardPayment, HouseRuleChange, HouseRuleFields, HouseRules, LiableDiscard,
    MultipleWinners, PatternOverride, PointsSpec, RuleChange, Ruleset,
};
pub use tile::{Tile, Wind};
