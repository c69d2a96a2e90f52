//! The per-ruleset switches that change when a pattern holds (`conditions`
//! of a ruleset file and of `house_rules`), and their set.

macro_rules! conditions {
    ($($variant:ident => $key:literal, $default:literal, $doc:literal;)*) => {
        /// A per-ruleset switch that changes when a pattern holds (each
        /// belongs to the patterns whose [`PatternInfo::conditions`](super::PatternInfo::conditions) list it).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Condition { $(#[doc = $doc] $variant),* }

        impl Condition {
            /// Every condition.
            pub const ALL: &'static [Condition] = &[$(Condition::$variant),*];

            /// The TOML and JSON key.
            pub const fn key(self) -> &'static str {
                match self { $(Condition::$variant => $key),* }
            }

            /// The guides' common reading.
            pub const fn default_value(self) -> bool {
                match self { $(Condition::$variant => $default),* }
            }

            /// What `true` means.
            pub const fn doc(self) -> &'static str {
                match self { $(Condition::$variant => $doc),* }
            }
        }
    };
}

conditions! {
    PairMayBeValueTile => "pair_may_be_value_tile", true,
        "all_chows: the pair may be a dragon, seat wind or round wind (false in sc-hk13).";
    AllowConcealedKong => "allow_concealed_kong", true,
        "concealed_hand: a concealed kong keeps the hand concealed (false in hkma: no kong at all).";
    OnlyWithoutFlowers => "only_without_flowers", false,
        "concealed_hand: scores only when bonus tiles are not in play (hkma).";
    OnFlowerReplacement => "on_flower_replacement", true,
        "replacement_tile: a flower replacement counts, not only a kong replacement.";
    OnDiscard => "on_discard", true,
        "last_tile: the discard after the last wall tile counts, not only the drawn last tile.";
    SelfDrawOnly => "self_draw_only", false,
        "four_concealed_pungs: needs a self-draw (six-systems' hidden treasure).";
    AllPungs => "all_pungs", false,
        "jade_dragon, ruby_dragon, pearl_dragon: every set must be a pung or kong (the limit form).";
    AnyReplacement => "any_replacement", false,
        "plum_blossom_on_the_roof: a flower replacement counts, not only a kong replacement.";
    DiscardOnlyInPair => "discard_only_in_pair", false,
        "concealed_hand: a discard may complete only the pair (a discard completing a set breaks it).";
    AbsorbsSeatFlower => "absorbs_seat_flower", false,
        "flower_set: the seat flower inside a complete set scores no seat-flower line of its own.";
    OnSevenPairs => "on_seven_pairs", false,
        "mixed_terminals: seven pairs of terminals and honours score it too.";
    OnThirteenOrphans => "on_thirteen_orphans", false,
        "mixed_terminals: thirteen orphans scores it too.";
    FourAsTwoPairs => "four_as_two_pairs", false,
        "seven_pairs: four of a kind held concealed counts as two pairs.";
    NoConcealedKong => "no_concealed_kong", false,
        "four_concealed_pungs: a concealed kong is not a concealed pung (it breaks the hand).";
    PureOnly => "pure_only", false,
        "nine_gates: only on the nine-sided wait (the thirteen tiles before the win are 1112345678999).";
    WithKong => "with_kong", false,
        "nine_gates: also with a declared kong of the suit (1111 or 9999), the tiles together 1112345678999 plus one.";
    ThirteenSidedOnly => "thirteen_sided_only", false,
        "thirteen_orphans: only on the thirteen-sided wait (the winning tile makes the pair).";
    // docs/rules.md. Each belongs to an
    // optional pattern, read only where that pattern is recognised (under
    // OPTIONAL_RULES), so none needs to be an extra of its own.
    SelfDrawAllowed => "self_draw_allowed", false,
        "melded_hand: the last tile may be self-drawn (it then completes the pair), not only won on a discard.";
    PairWaitOnly => "pair_wait_only", true,
        "melded_hand: the winning discard completes the pair (false: it may complete the fourth set, claimed with it).";
    MoreThanOneSuit => "more_than_one_suit", false,
        "common_hand: the hand holds at least two of the three suits (no one-suit hand).";
    EitherOrder => "either_order", false,
        "kong_flower_replacement: a flower replacement then a kong replacement counts too, not only a kong replacement then a flower replacement.";
    // Read from each flower pattern's own entry (`Special::flower_wins`),
    // not from this ruleset-wide bit: a seven- and an eight-flower win may differ.
    ScoresTheDraw => "scores_the_draw", false,
        "seven_flowers, eight_flowers: a flower win on this count also scores the self-draw line and the replacement tile's line (where a flower replacement scores it).";
}

/// The optional switches: each `false` by default and in every built-in
/// ruleset. Where all are off (and no other optional rule is in force:
/// `Ruleset::uses_optional_rules`), the recognisers are the monomorphised copy that
/// never tests them ([`count_all`] with `OPTIONAL_RULES = false`).
pub const OPTIONAL_CONDITIONS: &[Condition] = &[
    Condition::AnyReplacement,
    Condition::DiscardOnlyInPair,
    Condition::AbsorbsSeatFlower,
    Condition::OnSevenPairs,
    Condition::OnThirteenOrphans,
    Condition::FourAsTwoPairs,
    Condition::NoConcealedKong,
    Condition::PureOnly,
    Condition::WithKong,
    Condition::ThirteenSidedOnly,
];

impl Condition {
    /// The condition with this key.
    pub fn from_key(key: &str) -> Option<Condition> {
        Condition::ALL.iter().copied().find(|c| c.key() == key)
    }

    const fn bit(self) -> u32 {
        1 << self as u8
    }
}

/// The value of every [`Condition`], one bit each: a ruleset's switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conditions(u32);

impl Conditions {
    /// The value of `c`.
    #[inline]
    pub const fn get(self, c: Condition) -> bool {
        self.0 & c.bit() != 0
    }

    pub fn set(&mut self, c: Condition, v: bool) {
        self.0 = (self.0 & !c.bit()) | (u32::from(v) * c.bit());
    }

    /// Some switch of [`OPTIONAL_CONDITIONS`] is on.
    pub fn any_extra(self) -> bool {
        OPTIONAL_CONDITIONS.iter().any(|&c| self.get(c))
    }

    /// The value of `c`, one of [`OPTIONAL_CONDITIONS`]: always `false` in the
    /// copy of the recognisers for rulesets without optional rules.
    #[inline(always)]
    pub(super) fn extra<const OPTIONAL_RULES: bool>(self, c: Condition) -> bool {
        debug_assert!(OPTIONAL_CONDITIONS.contains(&c), "{c:?} is not an extra");
        OPTIONAL_RULES && self.get(c)
    }
}

impl Default for Conditions {
    fn default() -> Self {
        let mut c = Conditions(0);
        for &k in Condition::ALL {
            c.set(k, k.default_value());
        }
        c
    }
}
