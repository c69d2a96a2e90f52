//! Rulesets as data.
//!
//! A ruleset is a TOML file in `rulesets/` (schema: `rulesets/README.md`),
//! embedded in the binary at build time and validated when loaded: an
//! unknown key or pattern id, a negative value or a missing field is a
//! [`LoadError`] naming the file and the key. [`HouseRules`] override a
//! ruleset for one evaluation (the "editable table" of
//! the HKMA faan list); [`Ruleset::with_house_rules`] checks
//! that the result still makes sense.
//!
//! In parts: `model` (the types, and [`Ruleset`] built only by its
//! `compile`), `source` (a document's text, `extends`), `document` (a
//! document read by serde, then checked), `check` (each rule, once, for a
//! document and for house rules), `canonical` (the canonical document and
//! `ruleset_hash`), `house` (house rules), `change` (a change of them), `contains` (chains of contains),
//! `error` (a problem's path).

/// A document path: `at!["patterns", key, "contains", i]`.
macro_rules! at {
    ($($s:expr),* $(,)?) => { vec![$(super::error::PathSeg::from($s)),*] };
}

mod canonical;
mod change;
mod check;
mod contains;
mod document;
mod error;
mod house;
mod model;
mod source;
#[cfg(test)]
mod tests;

pub use canonical::{canonical_bytes, TRANSLATIONS};
pub use change::{Change, HouseRuleChange, RuleChange};
pub use check::{stake_decimal, to_eighths};
pub use document::RawRuleset;
pub use error::{escape_pointer, DocError, LoadError, PathSeg};
#[cfg(test)]
pub(crate) use house::WithHouse;
pub use house::{HouseRuleFields, HouseRules, Number, PatternOverride};
pub use model::{
    DiscardPayment, FalseWin, LiableDiscard, LimitsPay, Money, MultipleWinners, PatternRule,
    Payment, PointsError, PointsSpec, RobbingKongPayment, Ruleset, Stake, TableRules, Value,
    MAX_BASE_POINTS, MAX_EIGHTHS,
};
pub use source::{parse_document, resolve_document, toml_document, DOCUMENT_DEFAULTS};
