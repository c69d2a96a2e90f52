//! The pattern catalogue: one recogniser per pattern id of `docs/api.md`,
//! and one table of what is known of each pattern ([`PATTERNS`]).
//!
//! A recogniser answers how many times a pattern holds for one reading
//! (0: not at all). Most hold once; dragon pungs count per set, seat flowers
//! per tile and flower sets per set. Values and combination rules are not
//! here: they belong to the ruleset (`rulesets/*.toml`). Definitions follow
//! the guides' tables (the Wisteria Court faan chart, the HKMA faan list,
//! HKMA against the SC-HK13 house rules, Hefen new style, six systems
//! compared; docs/rules.md); where they differ
//! the difference is a per-ruleset [`Conditions`] switch.
//!
//! Names: `name` is the one English name of a pattern in every ruleset (a
//! ruleset file keeps its guide's wording as `guide_name`); `name_zh` the
//! Traditional Chinese name, from the HKMA list and the six-systems
//! comparison where they print one, else the term Hong Kong players use
//! (`rulesets/README.md`, "Pattern names", gives the source of each).

use super::decompose::{Form, Reading, SetKind, WinPlace};
use super::hand::{Context, Hand, MeldKind, Replacement, WinBy};
use super::tile::{kinds_held, Counts, Suit, Tile};
use std::fmt;
use std::str::FromStr;

/// What is known of one pattern besides its recogniser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternInfo {
    pub id: PatternId,
    /// The contract's snake_case id (also the TOML key).
    pub key: &'static str,
    /// The one English name, the same in every ruleset.
    pub name: &'static str,
    /// The Traditional Chinese name.
    pub name_zh: &'static str,
    /// The per-ruleset switches that apply to this pattern.
    pub conditions: &'static [Condition],
    /// Lines it contains when a house rule adds it to a ruleset that does
    /// not score it (`docs/rules.md`, "Shared reading of hands").
    pub house_contains: PatternSet,
}

macro_rules! patterns {
    ($($variant:ident => $id:literal, $name:literal, $zh:literal,
       [$($cond:ident),*], [$($contains:ident),*];)*) => {
        /// A pattern id of the public contract.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub enum PatternId { $($variant),* }

        /// Every pattern, in contract order: `PATTERNS[id.index()]` is `id`'s entry.
        pub const PATTERNS: &[PatternInfo] = &[$(PatternInfo {
            id: PatternId::$variant,
            key: $id,
            name: $name,
            name_zh: $zh,
            conditions: &[$(Condition::$cond),*],
            house_contains: 0 $(| PatternId::$contains.bit())*,
        }),*];

        impl PatternId {
            /// Every id, in contract order.
            pub const ALL: &'static [PatternId] = &[$(PatternId::$variant),*];
        }
    };
}

// One line per pattern: id, English name, Chinese name, its conditions,
// and what it contains when a house rule adds it.
patterns! {
    ChickenHand => "chicken_hand", "Chicken hand", "雞糊", [], [];
    AllChows => "all_chows", "All chows", "平糊", [PairMayBeValueTile], [];
    SelfDraw => "self_draw", "Self-drawn win", "自摸", [], [];
    ConcealedHand => "concealed_hand", "Concealed hand", "門前清",
        [AllowConcealedKong, OnlyWithoutFlowers, DiscardOnlyInPair], [];
    DragonPung => "dragon_pung", "Dragon pung", "三元牌", [], [];
    SeatWind => "seat_wind", "Seat wind pung", "門風", [], [];
    RoundWind => "round_wind", "Round wind pung", "圈風", [], [];
    NoFlowers => "no_flowers", "No flowers", "無花", [], [];
    SeatFlower => "seat_flower", "Seat flower", "正花", [], [];
    FlowerSet => "flower_set", "Set of flowers", "一台花", [AbsorbsSeatFlower], [];
    SevenFlowers => "seven_flowers", "Seven flowers", "小花糊", [ScoresTheDraw], [];
    EightFlowers => "eight_flowers", "Eight flowers", "花糊", [ScoresTheDraw], [];
    ReplacementTile => "replacement_tile", "Win on a replacement tile", "槓上開花",
        [OnFlowerReplacement], [];
    RobbingKong => "robbing_kong", "Robbing the kong", "搶槓", [], [];
    LastTile => "last_tile", "Last tile", "海底撈月", [OnDiscard], [];
    DoubleKong => "double_kong", "Win by double kong", "槓上槓", [], [];
    AllPungs => "all_pungs", "All pungs", "對對糊", [], [];
    MixedOneSuit => "mixed_one_suit", "Mixed one suit", "混一色", [], [];
    PureOneSuit => "pure_one_suit", "Pure one suit", "清一色", [], [];
    MixedTerminals => "mixed_terminals", "Mixed terminals", "混么九",
        [OnSevenPairs, OnThirteenOrphans], [];
    SevenPairs => "seven_pairs", "Seven pairs", "七對子", [FourAsTwoPairs], [ConcealedHand];
    SmallThreeDragons => "small_three_dragons", "Small three dragons", "小三元", [], [DragonPung];
    BigThreeDragons => "big_three_dragons", "Big three dragons", "大三元", [], [DragonPung];
    SmallFourWinds => "small_four_winds", "Small four winds", "小四喜", [], [SeatWind, RoundWind];
    BigFourWinds => "big_four_winds", "Big four winds", "大四喜", [], [SeatWind, RoundWind];
    AllHonors => "all_honors", "All honours", "字一色", [], [];
    AllTerminals => "all_terminals", "All terminals", "么九", [], [];
    FourConcealedPungs => "four_concealed_pungs", "Four concealed pungs", "坎坎糊",
        [SelfDrawOnly, NoConcealedKong], [];
    AllKongs => "all_kongs", "All kongs", "十八羅漢", [], [];
    NineGates => "nine_gates", "Nine gates", "九子連環", [PureOnly, WithKong], [];
    ThirteenOrphans => "thirteen_orphans", "Thirteen orphans", "十三么", [ThirteenSidedOnly], [];
    HeavenlyHand => "heavenly_hand", "Heavenly hand", "天糊", [], [];
    EarthlyHand => "earthly_hand", "Earthly hand", "地糊", [], [];
    JadeDragon => "jade_dragon", "Jade dragon", "綠一色", [AllPungs],
        [MixedOneSuit, PureOneSuit, DragonPung];
    RubyDragon => "ruby_dragon", "Ruby dragon", "紅一色", [AllPungs],
        [MixedOneSuit, PureOneSuit, DragonPung];
    PearlDragon => "pearl_dragon", "Pearl dragon", "白一色", [AllPungs],
        [MixedOneSuit, PureOneSuit, DragonPung];
    // Optional patterns of other Hong Kong tables (readings in
    // rulesets/README.md, "Optional patterns"); no built-in ruleset scores them.
    FullyConcealed => "fully_concealed", "Fully concealed hand", "門前清自摸", [],
        [ConcealedHand, SelfDraw];
    MeldedHand => "melded_hand", "Melded hand", "全求人", [SelfDrawAllowed, PairWaitOnly], [];
    AllSimples => "all_simples", "All simples", "斷么", [], [];
    VoidedSuit => "voided_suit", "Voided suit", "缺一門", [], [];
    LastOfItsKind => "last_of_its_kind", "Last of its kind", "絕章", [], [];
    MoonFromTheBottom => "moon_from_the_bottom", "Moon from the bottom of the sea", "一筒摸月",
        [], [LastTile];
    PlumBlossomOnTheRoof => "plum_blossom_on_the_roof", "Plum blossom on the roof", "五筒開花",
        [AnyReplacement], [ReplacementTile];
    PrevailingFlower => "prevailing_flower", "Prevailing flower", "圈花", [], [];
    DoubleFlowerReplacement => "double_flower_replacement", "Win by double flower replacement",
        "花上花", [], [ReplacementTile];
    KongFlowerReplacement => "kong_flower_replacement", "Win on a flower replacement after a kong",
        "槓上補花", [EitherOrder], [ReplacementTile];
    CommonHand => "common_hand", "Common hand", "無花自摸平糊", [MoreThanOneSuit],
        [AllChows, SelfDraw, NoFlowers];
    // Optional: thirteen orphans on its thirteen-sided wait, a line of its
    // own beside thirteen_orphans (with limits_add, two limits: a double limit).
    ThirteenSidedOrphans => "thirteen_sided_orphans",
        "Thirteen orphans on the thirteen-sided wait", "十三么十三面", [], [];
    // Optional: a non-dealer's win on a discard before a draw of their own.
    HumanHand => "human_hand", "Human hand", "人和", [], [];
}

/// Number of pattern ids.
pub const PATTERN_COUNT: usize = PATTERNS.len();

impl PatternId {
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Bit of this id in a [`PatternSet`].
    pub const fn bit(self) -> u64 {
        1u64 << (self as u8)
    }

    /// This pattern's entry in [`PATTERNS`] (an array index).
    pub const fn info(self) -> &'static PatternInfo {
        &PATTERNS[self as usize]
    }

    /// The snake_case id.
    pub const fn as_str(self) -> &'static str {
        self.info().key
    }

    /// The one English name.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The most times a declared win may list it: as often as a hand can
    /// hold it (three dragon pungs, two seat flowers, two sets of flowers;
    /// `docs/rules.md`, "Declared wins (no tiles)"), every other pattern once.
    pub const fn max_declared(self) -> u8 {
        match self {
            PatternId::DragonPung => 3,
            PatternId::SeatFlower | PatternId::FlowerSet => 2,
            _ => 1,
        }
    }

    /// The one way of winning a hand holding it is won by, where there is
    /// one (as the context's checks and the recogniser read it): a
    /// replacement draw, double kong and the heavenly hand are self-drawn,
    /// the earthly and human hands on a discard. `None`: any win.
    pub const fn only_on(self) -> Option<WinBy> {
        use PatternId as P;
        match self {
            P::SelfDraw
            | P::FullyConcealed
            | P::ReplacementTile
            | P::DoubleKong
            | P::HeavenlyHand
            | P::MoonFromTheBottom
            | P::PlumBlossomOnTheRoof
            | P::DoubleFlowerReplacement
            | P::KongFlowerReplacement
            | P::CommonHand => Some(WinBy::SelfDraw),
            P::RobbingKong => Some(WinBy::RobbingKong),
            P::EarthlyHand | P::HumanHand => Some(WinBy::Discard),
            _ => None,
        }
    }

    /// Whether it counts bonus tiles (or their absence), so holds only where
    /// they are in play.
    pub const fn needs_bonus_tiles(self) -> bool {
        use PatternId as P;
        matches!(
            self,
            P::NoFlowers
                | P::SeatFlower
                | P::FlowerSet
                | P::SevenFlowers
                | P::EightFlowers
                | P::PrevailingFlower
                | P::DoubleFlowerReplacement
                | P::KongFlowerReplacement
        )
    }

    /// The Traditional Chinese name.
    pub const fn name_zh(self) -> &'static str {
        self.info().name_zh
    }
}

impl FromStr for PatternId {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        PATTERNS.iter().find(|p| p.key == s).map(|p| p.id).ok_or(())
    }
}

impl fmt::Display for PatternId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of pattern ids as a bit mask.
pub type PatternSet = u64;

/// The ids in a set, in contract order.
pub fn members(set: PatternSet) -> impl Iterator<Item = PatternId> {
    PatternId::ALL
        .iter()
        .copied()
        .filter(move |id| set & id.bit() != 0)
}

mod conditions;
pub use conditions::*;

/// Bit i set for the terminals (1 and 9 of each suit).
const TERMINALS: u64 = (1 | 1 << 8) * (1 | 1 << 9 | 1 << 18);
/// Bit i set for the simples (2 to 8 of each suit).
const SIMPLES: u64 = 0b0_1111_1110 * (1 | 1 << 9 | 1 << 18);

/// Facts about the hand that every reading shares, computed once.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// Bit i set: tile kind i is in the hand (concealed or declared).
    pub kinds: u64,
    /// The concealed tiles are 1112345678999 plus one of a single suit and
    /// nothing is declared.
    pub nine_gates: bool,
    /// Nine gates on the nine-sided wait: without the winning tile, exactly
    /// 1112345678999 (this and the fields marked "optional rules" stay 0 or false
    /// unless `Facts::new` is told `OPTIONAL_RULES`).
    pub nine_gates_pure: bool,
    /// Nine gates counting declared kongs of the suit (`with_kong`; optional rules).
    pub nine_gates_kong: bool,
    /// Both at once (`pure_only` and `with_kong`; optional rules): each declared
    /// kong read as its pung, the thirteen tiles before the win exactly
    /// 1112345678999.
    pub nine_gates_pure_kong: bool,
    /// Bit 0 m, 1 p, 2 s: numbered suits present.
    pub suits: u8,
    pub honors: bool,
    pub terminals: bool,
    /// Some tile is neither a terminal nor an honour.
    pub simples: bool,
    /// A meld was claimed from a discard before the win.
    pub claimed: bool,
    /// Melds claimed from a discard (every meld but a concealed kong; optional rules).
    pub claimed_melds: u8,
    pub winning_tile: Option<Tile>,
    pub kongs: u8,
    pub melds: u8,
    pub flowers: u8,
    pub seat_flowers: u8,
    /// Seat flowers outside a complete set of four (`absorbs_seat_flower`; optional rules).
    pub loose_seat_flowers: u8,
    /// The flower and season of the round wind held (0 to 2; optional rules).
    pub prevailing_flowers: u8,
    pub flower_sets: u8,
    /// Bonus tiles are in play under the ruleset in force.
    pub bonus_tiles: bool,
}

/// The optional patterns (no built-in ruleset scores them):
/// recognised only under `OPTIONAL_RULES` (see [`OPTIONAL_CONDITIONS`]).
pub const OPTIONAL: PatternSet = PatternId::FullyConcealed.bit()
    | PatternId::MeldedHand.bit()
    | PatternId::AllSimples.bit()
    | PatternId::VoidedSuit.bit()
    | PatternId::LastOfItsKind.bit()
    | PatternId::MoonFromTheBottom.bit()
    | PatternId::PlumBlossomOnTheRoof.bit()
    | PatternId::PrevailingFlower.bit()
    | PatternId::DoubleFlowerReplacement.bit()
    | PatternId::KongFlowerReplacement.bit()
    | PatternId::CommonHand.bit()
    | PatternId::ThirteenSidedOrphans.bit()
    | PatternId::HumanHand.bit();

impl Facts {
    /// The facts of `hand`; those only the optional rules read (the
    /// nine-gates variants, claimed melds, loose seat flowers, prevailing
    /// flowers) are left at zero unless `OPTIONAL_RULES`.
    pub fn new<const OPTIONAL_RULES: bool>(hand: &Hand, ctx: &Context, bonus_tiles: bool) -> Facts {
        let mut kinds = kinds_held(&hand.concealed_counts);
        for m in &hand.melds {
            let run = if m.kind == MeldKind::Chow { 0b111 } else { 0b1 };
            kinds |= run << m.tile.index();
        }
        let mut suits = 0u8;
        for s in 0..3 {
            suits |= u8::from((kinds >> (9 * s)) & 0x1ff != 0) << s;
        }
        let terminals = kinds & TERMINALS != 0;
        let simples = kinds & SIMPLES != 0;
        let honors = kinds >> 27 != 0;
        let one_suit = suits.count_ones() == 1 && !honors;
        let nine_gates = one_suit && hand.melds.is_empty() && is_nine_gates(&hand.concealed_counts);
        let seat = ctx.seat_wind.index();
        let flowers = hand.flowers;
        let seat_flowers = ((flowers >> seat) & 1) + ((flowers >> (seat + 4)) & 1);
        let flower_sets = u8::from(flowers & 0x0f == 0x0f) + u8::from(flowers & 0xf0 == 0xf0);
        let mut f = Facts {
            kinds,
            nine_gates,
            nine_gates_pure: false,
            nine_gates_kong: false,
            nine_gates_pure_kong: false,
            suits,
            honors,
            terminals,
            simples,
            claimed: hand.melds.iter().any(|m| m.is_claimed()),
            claimed_melds: 0,
            winning_tile: hand.winning_tile,
            kongs: hand.kongs() as u8,
            melds: hand.melds.len() as u8,
            flowers,
            seat_flowers,
            loose_seat_flowers: 0,
            prevailing_flowers: 0,
            flower_sets,
            bonus_tiles,
        };
        if OPTIONAL_RULES {
            f.optional_facts(hand, ctx, one_suit);
        }
        f
    }

    /// The facts only the optional rules read.
    fn optional_facts(&mut self, hand: &Hand, ctx: &Context, one_suit: bool) {
        // The nine-gates variants only for a hand of one suit (rare).
        let before_win = |mut c: Counts| {
            hand.winning_tile.is_some_and(|w| {
                c[w.index()] -= 1;
                nine_gates_exact(&c)
            })
        };
        self.nine_gates_pure = self.nine_gates && before_win(hand.concealed_counts);
        // A declared kong counts as the pung it stands for (its fourth tile is the replaced one).
        let kong_counts = (one_suit
            && !hand.melds.is_empty()
            && hand.melds.iter().all(|m| m.kind == MeldKind::Kong))
        .then(|| {
            let mut c = hand.concealed_counts;
            for m in &hand.melds {
                c[m.tile.index()] += 3;
            }
            c
        });
        self.nine_gates_kong = self.nine_gates || kong_counts.is_some_and(|c| is_nine_gates(&c));
        // The pure test on the kong's reading (docs/rules.md).
        self.nine_gates_pure_kong =
            self.nine_gates_pure || kong_counts.is_some_and(|c| is_nine_gates(&c) && before_win(c));
        self.claimed_melds = hand.melds.iter().filter(|m| m.is_claimed()).count() as u8;
        let flowers = self.flowers;
        let seat = ctx.seat_wind.index();
        let round = ctx.round_wind.index();
        self.prevailing_flowers = ((flowers >> round) & 1) + ((flowers >> (round + 4)) & 1);
        // Seat flowers outside a complete set of four.
        self.loose_seat_flowers = u8::from(flowers & 0x0f != 0x0f) * ((flowers >> seat) & 1)
            + u8::from(flowers & 0xf0 != 0xf0) * ((flowers >> (seat + 4)) & 1);
    }

    fn one_suit(&self) -> bool {
        self.suits.count_ones() == 1
    }
}

/// Facts about one reading that several recognisers share, computed once per reading.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    pub reading: &'a Reading,
    pub standard: bool,
    pub pungs: u8,
    pub kongs: u8,
    pub dragon_pungs: u8,
    pub wind_pungs: u8,
    /// Every set is a concealed pung or kong.
    pub concealed_pungs: u8,
    /// Bit i set: a pung or kong of tile kind 27 + i (winds and dragons).
    pub honor_pungs: u8,
}

impl<'a> Shape<'a> {
    pub fn new(reading: &'a Reading) -> Self {
        let mut s = Shape {
            reading,
            standard: reading.form == Form::Standard,
            pungs: 0,
            kongs: 0,
            dragon_pungs: 0,
            wind_pungs: 0,
            concealed_pungs: 0,
            honor_pungs: 0,
        };
        for set in reading.sets() {
            if !set.is_pung() {
                continue;
            }
            s.pungs += 1;
            s.kongs += u8::from(set.kind == super::decompose::SetKind::Kong);
            s.concealed_pungs += u8::from(set.concealed);
            if set.tile.is_honor() {
                s.honor_pungs |= 1 << (set.tile.index() - 27);
                s.dragon_pungs += u8::from(set.tile.is_dragon());
                s.wind_pungs += u8::from(set.tile.is_wind());
            }
        }
        s
    }

    fn pung_of(&self, t: Tile) -> bool {
        t.is_honor() && self.honor_pungs & (1 << (t.index() - 27)) != 0
    }
}

/// The patterns that hold for one reading, and how many times.
///
/// Every pattern holds at most once except three, whose counts are kept
/// apart: the set and those counts stay in registers while they are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    /// Bit i set when pattern i holds.
    pub set: PatternSet,
    dragon_pungs: u8,
    seat_flowers: u8,
    prevailing_flowers: u8,
    flower_sets: u8,
}

impl Held {
    /// How many times `id` holds (0: not at all).
    #[inline]
    pub fn count(&self, id: PatternId) -> u8 {
        if self.set & id.bit() == 0 {
            return 0;
        }
        match id {
            PatternId::DragonPung => self.dragon_pungs,
            PatternId::SeatFlower => self.seat_flowers,
            PatternId::FlowerSet => self.flower_sets,
            PatternId::PrevailingFlower => self.prevailing_flowers,
            _ => 1,
        }
    }

    #[inline]
    /// The patterns a table declared, each id with how many times (at most
    /// [`PatternId::max_declared`]: the caller has checked).
    pub fn declared(counts: &[u8; PATTERN_COUNT]) -> Held {
        let mut set = 0;
        for (i, &n) in counts.iter().enumerate() {
            set |= PatternSet::from(n > 0) << i;
        }
        Held {
            set,
            dragon_pungs: counts[PatternId::DragonPung.index()],
            seat_flowers: counts[PatternId::SeatFlower.index()],
            prevailing_flowers: counts[PatternId::PrevailingFlower.index()],
            flower_sets: counts[PatternId::FlowerSet.index()],
        }
    }

    fn put(&mut self, id: PatternId, holds: bool) {
        self.set |= PatternSet::from(holds) << id.index();
    }

    /// A flower win that scores the draw (`scores_the_draw`): the self-draw
    /// line, and the replacement tile's where a flower replacement scores
    /// it (`on_flower_replacement`), the winning bonus tile being one a
    /// flower replacement would replace.
    pub fn add_the_draw(&mut self, cond: &Conditions) {
        self.put(PatternId::SelfDraw, true);
        self.put(
            PatternId::ReplacementTile,
            cond.get(Condition::OnFlowerReplacement),
        );
    }
}

/// How many times every pattern holds for the reading of `shape`, by id index.
///
/// `cond` holds every pattern's conditions at once (each condition belongs
/// to one pattern), so one straight pass serves the whole ruleset. Without
/// `OPTIONAL_RULES` the switches of [`OPTIONAL_CONDITIONS`] read as off and the
/// [`OPTIONAL`] patterns are not recognised: the copy a ruleset without
/// them (every built-in one) runs tests none of them.
#[inline]
pub fn count_all<const OPTIONAL_RULES: bool>(
    shape: &Shape<'_>,
    f: &Facts,
    ctx: &Context,
    cond: &Conditions,
) -> Held {
    use PatternId as P;
    let mut c = Held {
        set: 0,
        dragon_pungs: shape.dragon_pungs,
        seat_flowers: if cond.extra::<OPTIONAL_RULES>(Condition::AbsorbsSeatFlower) {
            f.loose_seat_flowers
        } else {
            f.seat_flowers
        },
        prevailing_flowers: f.prevailing_flowers,
        flower_sets: f.flower_sets,
    };
    let r = shape.reading;
    if f.bonus_tiles {
        c.put(P::EightFlowers, f.flowers == 0xff);
        c.put(P::SeatFlower, c.seat_flowers > 0);
        c.put(P::FlowerSet, f.flower_sets > 0);
        if OPTIONAL_RULES {
            c.put(P::PrevailingFlower, f.prevailing_flowers > 0);
        }
    }
    if r.form == Form::FlowerWin {
        // A flower win scores its bonus tiles and nothing from the wall tiles.
        if f.bonus_tiles {
            c.put(P::SevenFlowers, f.flowers.count_ones() == 7);
        }
        return c;
    }
    let standard = shape.standard;
    let value_pair =
        r.pair.is_dragon() || r.pair == ctx.seat_wind.tile() || r.pair == ctx.round_wind.tile();
    let all_chows =
        standard && shape.pungs == 0 && (cond.get(Condition::PairMayBeValueTile) || !value_pair);
    let self_draw = ctx.win_by == WinBy::SelfDraw;
    c.put(P::AllChows, all_chows);
    c.put(P::SelfDraw, self_draw);
    c.put(
        P::ConcealedHand,
        !f.claimed
            && (cond.get(Condition::AllowConcealedKong) || f.kongs == 0)
            && !(cond.get(Condition::OnlyWithoutFlowers) && f.bonus_tiles)
            && !(cond.extra::<OPTIONAL_RULES>(Condition::DiscardOnlyInPair)
                && !self_draw
                && r.win != WinPlace::Pair),
    );
    c.put(P::DragonPung, shape.dragon_pungs > 0);
    c.put(P::SeatWind, shape.pung_of(ctx.seat_wind.tile()));
    c.put(P::RoundWind, shape.pung_of(ctx.round_wind.tile()));
    c.put(P::NoFlowers, f.bonus_tiles && f.flowers == 0);
    c.put(
        P::ReplacementTile,
        match ctx.replacement {
            Replacement::None => false,
            Replacement::Kong => true,
            Replacement::Flower => cond.get(Condition::OnFlowerReplacement),
        },
    );
    c.put(P::RobbingKong, ctx.win_by == WinBy::RobbingKong);
    c.put(
        P::LastTile,
        ctx.last_tile
            && match ctx.win_by {
                WinBy::SelfDraw => true,
                WinBy::Discard => cond.get(Condition::OnDiscard),
                WinBy::RobbingKong => false,
            },
    );
    c.put(P::DoubleKong, ctx.double_kong);
    c.put(P::AllPungs, standard && shape.pungs == 4);
    c.put(P::MixedOneSuit, f.one_suit() && f.honors);
    c.put(P::PureOneSuit, f.one_suit() && !f.honors);
    let terminal_form = match r.form {
        Form::Standard => true,
        Form::SevenPairs => cond.extra::<OPTIONAL_RULES>(Condition::OnSevenPairs),
        Form::ThirteenOrphans => cond.extra::<OPTIONAL_RULES>(Condition::OnThirteenOrphans),
        Form::FlowerWin => false,
    };
    c.put(
        P::MixedTerminals,
        terminal_form && !f.simples && f.terminals && f.honors,
    );
    c.put(P::SevenPairs, r.form == Form::SevenPairs);
    c.put(
        P::SmallThreeDragons,
        shape.dragon_pungs == 2 && standard && r.pair.is_dragon(),
    );
    c.put(P::BigThreeDragons, shape.dragon_pungs == 3);
    c.put(
        P::SmallFourWinds,
        shape.wind_pungs == 3 && standard && r.pair.is_wind(),
    );
    c.put(P::BigFourWinds, shape.wind_pungs == 4);
    c.put(
        P::AllHonors,
        f.suits == 0 && r.form != Form::ThirteenOrphans,
    );
    c.put(
        P::AllTerminals,
        !f.honors && !f.simples && r.form != Form::ThirteenOrphans,
    );
    c.put(
        P::FourConcealedPungs,
        standard
            && shape.concealed_pungs == 4
            && (!cond.get(Condition::SelfDrawOnly) || ctx.win_by == WinBy::SelfDraw)
            && (!cond.extra::<OPTIONAL_RULES>(Condition::NoConcealedKong) || shape.kongs == 0),
    );
    c.put(P::AllKongs, standard && shape.kongs == 4);
    let nine_gates = match (
        cond.extra::<OPTIONAL_RULES>(Condition::PureOnly),
        cond.extra::<OPTIONAL_RULES>(Condition::WithKong),
    ) {
        (true, true) => f.nine_gates_pure_kong,
        (true, false) => f.nine_gates_pure,
        (false, true) => f.nine_gates_kong,
        (false, false) => f.nine_gates,
    };
    c.put(P::NineGates, standard && nine_gates);
    // thirteen_sided_only is read by the decomposer: no other wait gives the reading.
    c.put(P::ThirteenOrphans, r.form == Form::ThirteenOrphans);
    c.put(P::HeavenlyHand, ctx.heavenly);
    c.put(P::EarthlyHand, ctx.earthly);
    if shape.honor_pungs & 0b111_0000 != 0 && f.suits.count_ones() == 1 {
        c.put(
            P::JadeDragon,
            colour_dragon(shape, f, Suit::Sou, Tile::GREEN, cond),
        );
        c.put(
            P::RubyDragon,
            colour_dragon(shape, f, Suit::Man, Tile::RED, cond),
        );
        c.put(
            P::PearlDragon,
            colour_dragon(shape, f, Suit::Pin, Tile::WHITE, cond),
        );
    }
    if OPTIONAL_RULES {
        optional(&mut c, shape, f, ctx, cond, all_chows);
    }
    c
}

/// The optional patterns (see [`OPTIONAL`]).
#[inline(never)]
fn optional(
    c: &mut Held,
    shape: &Shape<'_>,
    f: &Facts,
    ctx: &Context,
    cond: &Conditions,
    all_chows: bool,
) {
    use PatternId as P;
    let self_draw = ctx.win_by == WinBy::SelfDraw;
    c.put(P::FullyConcealed, !f.claimed && self_draw);
    c.put(P::MeldedHand, melded(shape, f, ctx, cond));
    c.put(P::AllSimples, !f.terminals && !f.honors);
    c.put(P::VoidedSuit, f.suits.count_ones() == 2);
    c.put(P::LastOfItsKind, ctx.last_of_its_kind);
    c.put(
        P::MoonFromTheBottom,
        ctx.last_tile && self_draw && f.winning_tile == Some(Tile::P1),
    );
    c.put(P::PlumBlossomOnTheRoof, plum_blossom(shape, f, ctx, cond));
    c.put(
        P::DoubleFlowerReplacement,
        ctx.replacement == Replacement::Flower && ctx.first_replacement == Replacement::Flower,
    );
    c.put(
        P::KongFlowerReplacement,
        match (ctx.first_replacement, ctx.replacement) {
            (Replacement::Kong, Replacement::Flower) => true,
            (Replacement::Flower, Replacement::Kong) => cond.get(Condition::EitherOrder),
            _ => false,
        },
    );
    c.put(
        P::CommonHand,
        all_chows
            && f.flowers == 0
            && self_draw
            && (!cond.get(Condition::MoreThanOneSuit) || f.suits.count_ones() >= 2),
    );
    // The winning tile makes the pair: the thirteen tiles before it were one of each orphan.
    c.put(
        P::ThirteenSidedOrphans,
        shape.reading.form == Form::ThirteenOrphans && f.winning_tile == Some(shape.reading.pair),
    );
    // Validation keeps first_go_around to a non-dealer's discard win without melds.
    c.put(
        P::HumanHand,
        ctx.first_go_around && ctx.win_by == WinBy::Discard,
    );
}

/// Every set claimed (全求人): four claimed melds and the pair completed by
/// the winning discard (self-drawn too under `self_draw_allowed`); or,
/// without `pair_wait_only`, three claimed melds and a winning discard that
/// completes the fourth set (claimed with it).
fn melded(shape: &Shape<'_>, f: &Facts, ctx: &Context, cond: &Conditions) -> bool {
    let four_claimed = f.melds == 4 && f.claimed_melds == 4;
    match ctx.win_by {
        WinBy::Discard => {
            four_claimed
                || (!cond.get(Condition::PairWaitOnly)
                    && f.melds == 3
                    && f.claimed_melds == 3
                    && matches!(shape.reading.win, WinPlace::Set(_)))
        }
        // A self-drawn tile claims nothing: only the pair can be left.
        WinBy::SelfDraw => cond.get(Condition::SelfDrawAllowed) && four_claimed,
        WinBy::RobbingKong => false,
    }
}

/// A kong replacement (or, under `any_replacement`, any replacement) of 5p
/// completing the chow 456p.
fn plum_blossom(shape: &Shape<'_>, f: &Facts, ctx: &Context, cond: &Conditions) -> bool {
    let drawn = match ctx.replacement {
        Replacement::None => false,
        Replacement::Kong => true,
        Replacement::Flower => cond.get(Condition::AnyReplacement),
    };
    let r = shape.reading;
    drawn
        && f.winning_tile == Some(Tile::P5)
        && match r.win {
            WinPlace::Set(i) => r
                .sets
                .get(i as usize)
                .is_some_and(|s| s.kind == SetKind::Chow && s.tile == Tile::P4 && !s.declared),
            _ => false,
        }
}

/// 1112345678999 plus one more, in the single suit present.
fn is_nine_gates(all: &Counts) -> bool {
    const NEED: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    (0..3).any(|s| {
        let c = &all[s * 9..s * 9 + 9];
        c.iter().sum::<u8>() == 14 && c.iter().zip(NEED).all(|(&have, need)| have >= need)
    })
}

/// Exactly 1112345678999 in one suit (the nine-sided wait).
fn nine_gates_exact(c: &Counts) -> bool {
    const NEED: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    (0..3).any(|s| c[s * 9..s * 9 + 9] == NEED)
}

/// A hand of one suit and the dragon of its colour, with a pung of that dragon.
fn colour_dragon(
    shape: &Shape<'_>,
    f: &Facts,
    suit: Suit,
    dragon: Tile,
    cond: &Conditions,
) -> bool {
    if !shape.standard || f.suits != 1 << (suit as u8) {
        return false;
    }
    // Honours present must all be that dragon.
    let honors_ok = (f.kinds >> 27) & !(1 << (dragon.index() - 27)) == 0;
    let pungs_ok = !cond.get(Condition::AllPungs) || shape.pungs == 4;
    honors_ok && shape.pung_of(dragon) && pungs_ok
}

#[cfg(test)]
mod tests;
