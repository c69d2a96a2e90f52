//! Settlement: base points and who pays whom.
//!
//! Payment rules are the ruleset's ([`Payment`], in eighths of the base
//! points so that Hé Fēn's "A/2 each" is exact); the liable seat (包) and
//! the false-win penalty (詐糊) follow `rules-decisions.md`, "Penalties".
//! Every settlement sums to zero: the winner receives exactly what the
//! others pay.

use super::hand::{Context, WinBy};
use super::ruleset::{RobbingKongPayment, Ruleset};
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
    let p = &ruleset.payment;
    let winner = ctx.seat_wind.index();
    let self_draw_each = share(base, p.self_draw);
    let (lead, lead_amount, rest) = match (ctx.win_by, ctx.discarder) {
        (WinBy::SelfDraw, _) | (_, None) => match ctx.liable {
            Some(l) if l.index() != winner => (l.index(), 3 * self_draw_each, 0),
            _ => (winner, 0, self_draw_each),
        },
        (WinBy::Discard, Some(d)) => (d.index(), share(base, p.discarder), share(base, p.others)),
        (WinBy::RobbingKong, Some(d)) => match p.robbing_kong {
            RobbingKongPayment::AsDiscard => {
                (d.index(), share(base, p.discarder), share(base, p.others))
            }
            RobbingKongPayment::AdderPaysAll => (d.index(), 3 * self_draw_each, 0),
        },
    };
    let bonus = ruleset.money.map_or(0, |m| i64::from(m.bonus_chips));
    // What seat i pays (0 for the winner), with the per-payment bonus.
    let owes = |i: usize| -> i64 {
        let x = if i == winner {
            0
        } else if i == lead {
            lead_amount
        } else {
            rest
        };
        if x > 0 {
            x + bonus
        } else {
            x
        }
    };
    let (a, b, c, d) = (owes(0), owes(1), owes(2), owes(3));
    let total = a + b + c + d;
    let signed = |i: usize, x: i64| if i == winner { total } else { -x };
    [signed(0, a), signed(1, b), signed(2, c), signed(3, d)]
}

/// The false-win penalty: the offender pays each other player what that
/// player would collect on a self-drawn win at the ruleset's minimum.
pub fn false_win(ruleset: &Ruleset, offender: Wind) -> Payments {
    let base = ruleset.base_points(ruleset.min_faan);
    let bonus = ruleset.money.map_or(0, |m| m.bonus_chips as i64);
    let each = 3 * (share(base, ruleset.payment.self_draw) + bonus);
    let mut pay = [each; 4];
    pay[offender.index()] = -3 * each;
    pay
}

/// Payments in US cents where the ruleset has a rate (the winner's share balances rounding).
#[inline]
pub fn money(ruleset: &Ruleset, pay: &Payments) -> Option<[i64; 4]> {
    let m = ruleset.money?;
    let rate = i128::from(m.cents_per_100_chips);
    // The winner is the first seat with a positive amount.
    let winner = pay.iter().position(|&p| p > 0);
    let cents = |i: usize| -> i64 {
        if Some(i) == winner {
            return 0;
        }
        // Round half away from zero; wide arithmetic, clamped (base points are at most 2^40).
        let p = i128::from(pay[i]);
        let c = (p * rate + p.signum() * 50) / 100;
        i64::try_from(c).unwrap_or(if c < 0 { i64::MIN / 4 } else { i64::MAX / 4 })
    };
    let (a, b, c, d) = (cents(0), cents(1), cents(2), cents(3));
    let sum = a.saturating_add(b).saturating_add(c).saturating_add(d);
    let balanced = |i: usize, x: i64| if Some(i) == winner { -sum } else { x };
    Some([
        balanced(0, a),
        balanced(1, b),
        balanced(2, c),
        balanced(3, d),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_settlement_fits() {
        // The largest base (2^40) at the largest multiplier (64 x B): no overflow, sums to zero.
        let reg = crate::core::Registry::builtin().unwrap();
        let mut r = (**reg.get("mjb").unwrap()).clone();
        r.payment.self_draw = crate::core::ruleset::MAX_EIGHTHS;
        let ctx = crate::core::ContextSpec::new(WinBy::SelfDraw, Wind::East, Wind::East, None);
        let pay = settle(&r, &ctx, crate::core::ruleset::MAX_BASE_POINTS);
        assert_eq!(pay.iter().sum::<i64>(), 0, "{pay:?}");
        assert_eq!(pay[1], -(64 * (1i64 << 40) + 20), "{pay:?}");
        let cents = money(&r, &pay).unwrap();
        assert_eq!(cents.iter().sum::<i64>(), 0, "{cents:?}");
    }

    #[test]
    fn share_rounds_half_up() {
        assert_eq!(share(16, 16), 32, "2B of 16");
        assert_eq!(share(1, 4), 1, "half of 1 rounds up");
        assert_eq!(share(8, 4), 4, "half of 8");
        assert_eq!(share(8, 6), 6, "three quarters of 8");
    }
}
