//! Settlement: base points and who pays whom.
//!
//! Payment rules are the ruleset's ([`Payment`], in eighths of the base
//! points so that Hé Fēn's "A/2 each" is exact); the liable seat (包) and
//! the false-win penalty (詐糊) follow `docs/rules.md`, "Penalties";
//! the dealer multiplier and a liable discarder who pays all, "Rounds and
//! matches" ([`TableRules`](super::ruleset::TableRules)), as is a liable
//! seat paying in the discarder's place (`liable_pays`).
//! Every settlement sums to zero: the winner receives exactly what the
//! others pay.

use super::hand::{Context, WinBy};
use super::pattern::PatternId;
use super::ruleset::{
    FalseWin, LiableDiscard, RobbingKongPayment, Ruleset, Stake, MAX_BASE_POINTS,
};
use super::tile::Wind;

/// Signed points by seat (East, South, West, North); positive for the winner.
pub type Payments = [i64; 4];

/// `base` times `eighths`/8, rounded half up.
pub const fn share(base: u64, eighths: u32) -> i64 {
    ((base as u128 * eighths as u128 + 4) / 8) as i64
}

/// Payments for a win worth `base` points (ignores the minimum: callers zero a hand below it).
///
/// Every case is one seat paying `lead` and each other loser paying `rest`
/// (the liable seat or the discarder leads; on a plain self-draw no one does).
/// The four amounts are computed as values, not written seat by seat
/// (faster; bench/corpus-and-peers.md).
#[inline]
pub fn settle(ruleset: &Ruleset, ctx: &Context, base: u64) -> Payments {
    let p = &ruleset.payment();
    let winner = ctx.seat_wind.index();
    let self_draw_each = share(base, p.self_draw);
    let liable_discard = ruleset.table().liable_discard;
    // A discard (or a kong robbed as one) by `d`: the liable discarder may pay it all.
    let discard = |d: Wind| {
        let (lead, rest) = (share(base, p.discarder), share(base, p.others));
        if ctx.liable == Some(d) && liable_discard == LiableDiscard::PaysAll {
            (d.index(), lead + 2 * rest, 0)
        } else {
            (d.index(), lead, rest)
        }
    };
    let (lead, lead_amount, rest) = match (ctx.win_by, ctx.discarder) {
        (WinBy::SelfDraw, _) | (_, None) => match ctx.liable {
            Some(l) if l.index() != winner => (l.index(), 3 * self_draw_each, 0),
            _ => (winner, 0, self_draw_each),
        },
        (WinBy::Discard, Some(d)) => discard(d),
        (WinBy::RobbingKong, Some(d)) => match p.robbing_kong {
            RobbingKongPayment::AsDiscard => discard(d),
            RobbingKongPayment::AdderPaysAll => (d.index(), 3 * self_draw_each, 0),
        },
    };
    // liable_pays: the liable seat pays what the discarder (or the adder of
    // the robbed kong) and the others would have paid, and they pay nothing.
    let (lead, lead_amount, rest) = match ctx.liable {
        Some(l) if liable_discard == LiableDiscard::LiablePays && lead != winner => {
            (l.index(), lead_amount + 2 * rest, 0)
        }
        _ => (lead, lead_amount, rest),
    };
    let bonus = ruleset.money().map_or(0, |m| i64::from(m.bonus_chips));
    let dealer = ruleset.table().dealer_multiplier;
    // What seat i pays (0 for the winner), with the per-payment bonus, times
    // the dealer multiplier when the payment is between the dealer and another seat.
    let owes = |i: usize| -> i64 {
        let x = if i == winner {
            0
        } else if i == lead {
            lead_amount
        } else {
            rest
        };
        let x = if x > 0 { x + bonus } else { x };
        dealt(x, i, winner, dealer)
    };
    let (a, b, c, d) = (owes(0), owes(1), owes(2), owes(3));
    let total = a + b + c + d;
    let signed = |i: usize, x: i64| if i == winner { total } else { -x };
    [signed(0, a), signed(1, b), signed(2, c), signed(3, d)]
}

/// A payment `x` from seat `from` to seat `to` under a dealer multiplier
/// (eighths): multiplied when either seat is the dealer (East, seat 0).
#[inline]
fn dealt(x: i64, from: usize, to: usize, eighths: u32) -> i64 {
    if eighths == 8 || (from != 0 && to != 0) || x <= 0 {
        x
    } else {
        share(x as u64, eighths)
    }
}

/// The false-win penalty (`false_win` of the table rules): the offender
/// pays each other player what that player would collect on a self-drawn
/// win at the minimum (the default), at the limit or at a number of faan,
/// each payment to or from the dealer times the dealer multiplier; or a
/// flat number of points to each.
pub fn false_win(ruleset: &Ruleset, offender: Wind) -> Payments {
    let self_drawn = |base: u64| {
        let bonus = ruleset.money().map_or(0, |m| i64::from(m.bonus_chips));
        (3 * (share(base, ruleset.payment().self_draw) + bonus), true)
    };
    let (each, dealt_in) = match ruleset.table().false_win {
        FalseWin::Minimum => self_drawn(ruleset.min_base_points()),
        FalseWin::Limit => self_drawn(ruleset.base_points(ruleset.limit()).unwrap_or(0)),
        FalseWin::Faan(n) => self_drawn(ruleset.base_points(n.min(ruleset.limit())).unwrap_or(0)),
        // At most 2^40 (checked): three of them fit.
        FalseWin::Points(p) => (p as i64, false),
    };
    let o = offender.index();
    let mut pay = [0; 4];
    for (i, p) in pay.iter_mut().enumerate() {
        if i != o {
            *p = if dealt_in {
                dealt(each, o, i, ruleset.table().dealer_multiplier)
            } else {
                each
            };
        }
    }
    pay[o] = -pay.iter().sum::<i64>();
    pay
}

/// Money per point in millionths: the stake where one is set, else the
/// ruleset's own rate (chips are points), else none.
pub fn stake(ruleset: &Ruleset) -> Option<Stake> {
    ruleset.table().stake.or_else(|| {
        ruleset
            .money()
            .map(|m| Stake(u64::from(m.cents_per_100_chips) * 100))
    })
}

/// The largest amount of money answered, in cents: 2^53 - 1, the largest
/// integer an IEEE double (what a JSON client reads a number into) holds
/// exactly. Beyond it an amount is refused ([`Overflow::Money`]), never clamped.
pub const MAX_CENTS: i64 = (1 << 53) - 1;

/// An amount too large to answer exactly: the request is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// An amount of money beyond [`MAX_CENTS`].
    Money,
    /// A reading's faan total beyond `u32`; the pattern of its largest line (what to lower).
    Faan(PatternId),
    /// Base points beyond [`MAX_BASE_POINTS`] (a total of several limits
    /// under `limits_add`); the pattern of the chosen reading's largest line.
    BasePoints(PatternId),
}

impl Overflow {
    /// The problem's code.
    pub const fn code(self) -> &'static str {
        match self {
            Overflow::Money => "money_unrepresentable",
            Overflow::Faan(_) => "faan_overflow",
            Overflow::BasePoints(_) => "base_points_overflow",
        }
    }

    /// A sentence for the user.
    pub fn explain(self) -> String {
        match self {
            Overflow::Money => format!(
                "an amount of money would exceed {}.{:02} ({MAX_CENTS} cents, 2^53 - 1: the most a JSON number holds exactly): lower the stake",
                MAX_CENTS / 100,
                MAX_CENTS % 100
            ),
            Overflow::Faan(p) => format!(
                "the faan total outgrows {} (its lines no longer add up exactly): lower {p}'s value",
                u32::MAX
            ),
            Overflow::BasePoints(p) => format!(
                "the base points of this total exceed 2^40 ({MAX_BASE_POINTS}), the most a settlement supports: lower {p}'s value, the limit or the points table"
            ),
        }
    }
}

/// Whole cents, if within [`MAX_CENTS`].
#[inline]
pub fn exact_cents(c: i128) -> Result<i64, Overflow> {
    if c.unsigned_abs() <= MAX_CENTS as u128 {
        Ok(c as i64)
    } else {
        Err(Overflow::Money)
    }
}

/// `a + b` cents, if within [`MAX_CENTS`] (sums of winners, running balances).
#[inline]
pub fn add_cents(a: i64, b: i64) -> Result<i64, Overflow> {
    exact_cents(i128::from(a) + i128::from(b))
}

/// Payments in cents where there is a stake or a money rate ([`stake`]).
///
/// Each seat's amount is rounded to the cent, half away from zero; the seat
/// with the largest amount (the winner, or a false win's offender: it holds
/// the sum of the others) takes the rounding, so the money sums to zero.
/// An amount beyond [`MAX_CENTS`] is [`Overflow::Money`].
#[inline]
pub fn money(ruleset: &Ruleset, pay: &Payments) -> Result<Option<[i64; 4]>, Overflow> {
    let Some(s) = stake(ruleset) else {
        return Ok(None);
    };
    let micros = i128::from(s.0);
    let mut balancer = 0;
    for i in 1..4 {
        if pay[i].unsigned_abs() > pay[balancer].unsigned_abs() {
            balancer = i;
        }
    }
    // A cent is 10 000 millionths; i128 holds any payment (< 2^63) times any stake (< 2^40).
    let cents = |i: usize| -> i128 {
        if i == balancer {
            return 0;
        }
        let p = i128::from(pay[i]);
        (p * micros + p.signum() * 5_000) / 10_000
    };
    let (a, b, c, d) = (cents(0), cents(1), cents(2), cents(3));
    let sum = a + b + c + d;
    let balanced = |i: usize, x: i128| exact_cents(if i == balancer { -sum } else { x });
    Ok(Some([
        balanced(0, a)?,
        balanced(1, b)?,
        balanced(2, c)?,
        balanced(3, d)?,
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ruleset::{HouseRuleFields, Number, WithHouse};

    /// `r` with the house rules `set` makes.
    fn house(r: &Ruleset, set: impl FnOnce(&mut HouseRuleFields)) -> Ruleset {
        let mut h = HouseRuleFields::default();
        set(&mut h);
        r.with_house(&h).unwrap()
    }

    #[test]
    fn the_largest_settlement_fits() {
        // The largest base (2^40) at the largest multiplier (64 x B): no overflow, sums to zero.
        let reg = crate::core::Registry::builtin().unwrap();
        // mjb's document with a self-draw paying 64 x B (MAX_EIGHTHS).
        let mut doc = reg.get("mjb").unwrap().to_document();
        doc["payment"]["self_draw"] = (crate::core::ruleset::MAX_EIGHTHS / 8).into();
        let r = Ruleset::from_document(&doc).unwrap();
        let ctx = crate::core::ContextSpec::new(WinBy::SelfDraw, Wind::East, Wind::East, None);
        let pay = settle(
            &r,
            &Context::unchecked(ctx),
            crate::core::ruleset::MAX_BASE_POINTS,
        );
        assert_eq!(pay.iter().sum::<i64>(), 0, "{pay:?}");
        assert_eq!(pay[1], -(64 * (1i64 << 40) + 20), "{pay:?}");
        // mjb's rate, 10 cents a point: 3 x 7.04e13 points is 2.1e15 cents, within 2^53.
        let cents = money(&r, &pay).unwrap().unwrap();
        assert_eq!(cents.iter().sum::<i64>(), 0, "{cents:?}");
        assert_eq!(cents[1], -(64 * (1i64 << 40) + 20) * 10, "{cents:?}");
    }

    #[test]
    fn a_false_win_pays_the_dealer_multiplied() {
        // hkma: 3 faan, B 8, a self-draw collects 3 x 2B = 48 from the offender, to each other player.
        let reg = crate::core::Registry::builtin().unwrap();
        let r = reg.get("hkma").unwrap();
        assert_eq!(false_win(r, Wind::South), [48, -144, 48, 48], "x1");
        let r = house(r, |h| h.dealer_multiplier = Some(Number(2.0)));
        assert_eq!(
            false_win(&r, Wind::South),
            [96, -192, 48, 48],
            "x2, South offends: only the payment to East doubles"
        );
        assert_eq!(
            false_win(&r, Wind::East),
            [-288, 96, 96, 96],
            "x2, the dealer offends: all three payments double"
        );
    }

    #[test]
    fn money_is_whole_cents_summing_to_zero() {
        // A stake of 0.333 on 32 points is 10.656, so 1066 cents; the winner takes the sum.
        let reg = crate::core::Registry::builtin().unwrap();
        let r = reg.get("hkma").unwrap();
        assert_eq!(money(r, &[-32, 96, -32, -32]), Ok(None), "hkma has no rate");
        let r = house(r, |h| h.stake = Some(Number(0.333)));
        assert_eq!(r.table().stake, Some(Stake(333_000)), "stake 0.333");
        assert_eq!(
            money(&r, &[-32, 96, -32, -32]),
            Ok(Some([-1066, 3198, -1066, -1066])),
            "stake 0.333"
        );
        // A false win: the offender (the largest amount) takes the rounding.
        assert_eq!(
            money(&r, &[48, -144, 48, 48]),
            Ok(Some([1598, -4794, 1598, 1598])),
            "48 x 0.333 = 15.984"
        );
    }

    #[test]
    fn money_is_exact_up_to_2_53_minus_1_cents_and_refused_past_it() {
        // A stake of 0.01 is a cent a point: payments are cents as they are.
        let reg = crate::core::Registry::builtin().unwrap();
        let hkma = reg.get("hkma").unwrap();
        let r = house(hkma, |h| h.stake = Some(Number(0.01)));
        // 2^53 - 1 = 3 x 3002399751580330 + 1: the winner at the bound exactly.
        let third = 3_002_399_751_580_330;
        let at = [-third, -third, -(third + 1), MAX_CENTS];
        assert_eq!(money(&r, &at), Ok(Some(at)), "case: the winner at 2^53 - 1");
        let past = [-third, -third, -(third + 2), MAX_CENTS + 1];
        assert_eq!(
            money(&r, &past),
            Err(Overflow::Money),
            "case: one cent past"
        );
        // A loser alone past the bound (the winner's sum is larger still).
        let loser = [-(MAX_CENTS + 1), MAX_CENTS + 1, 0, 0];
        assert_eq!(
            money(&r, &loser),
            Err(Overflow::Money),
            "case: a loser past"
        );
        // The largest stake (10^8 cents a point): 90,071,992 points fit, 90,071,993 do not.
        let r = house(hkma, |h| h.stake = Some(Number(1_000_000.0)));
        assert_eq!(
            r.table().stake,
            Some(Stake(Stake::MAX)),
            "the largest stake"
        );
        assert_eq!(
            money(&r, &[-90_071_992, 90_071_992, 0, 0]),
            Ok(Some([-9_007_199_200_000_000, 9_007_199_200_000_000, 0, 0])),
            "case: 90,071,992 points at the largest stake"
        );
        assert_eq!(
            money(&r, &[-90_071_993, 90_071_993, 0, 0]),
            Err(Overflow::Money),
            "case: 90,071,993 points at the largest stake"
        );
        // The largest payment there is (2^40 x 64 x 3 x 64) at the largest stake: refused, not clamped.
        let p = (1i64 << 40) * 64 * 64;
        assert_eq!(
            money(&r, &[-p, -p, -p, 3 * p]),
            Err(Overflow::Money),
            "case: the largest payment"
        );
    }

    #[test]
    fn cents_add_within_the_bound_only() {
        assert_eq!(
            add_cents(MAX_CENTS - 1, 1),
            Ok(MAX_CENTS),
            "case: to the bound"
        );
        assert_eq!(
            add_cents(MAX_CENTS, 1),
            Err(Overflow::Money),
            "case: past it"
        );
        assert_eq!(
            add_cents(-MAX_CENTS, -1),
            Err(Overflow::Money),
            "case: past it, negative"
        );
        assert_eq!(
            add_cents(i64::MAX, i64::MAX),
            Err(Overflow::Money),
            "case: no wrap"
        );
        assert_eq!(
            exact_cents(-i128::from(MAX_CENTS)),
            Ok(-MAX_CENTS),
            "case: -(2^53 - 1)"
        );
    }

    #[test]
    fn share_rounds_half_up() {
        assert_eq!(share(16, 16), 32, "2B of 16");
        assert_eq!(share(1, 4), 1, "half of 1 rounds up");
        assert_eq!(share(8, 4), 4, "half of 8");
        assert_eq!(share(8, 6), 6, "three quarters of 8");
    }
}
