//! Settlement: base points and who pays whom.
//!
//! Payment rules are the ruleset's ([`Payment`], in eighths of the base
//! points so that Hé Fēn's "A/2 each" is exact); the liable seat (包) and
//! the false-win penalty (詐糊) follow `rules-decisions.md`, "Penalties".
//! Every settlement sums to zero: the winner receives exactly what the
//! others pay.

use super::hand::{Context, WinBy};
use super::ruleset::{Money, RobbingKongPayment, Ruleset};
use super::tile::Wind;

/// Signed points by seat (East, South, West, North); positive for the winner.
pub type Payments = [i64; 4];

/// `base` times `eighths`/8, rounded half up.
pub const fn share(base: u64, eighths: u32) -> i64 {
    ((base as u128 * eighths as u128 + 4) / 8) as i64
}

/// Payments for a win worth `base` points (ignores the minimum: callers zero a hand below it).
#[inline]
pub fn settle(ruleset: &Ruleset, ctx: &Context, base: u64) -> Payments {
    let p = &ruleset.payment;
    let winner = ctx.seat_wind;
    let mut pay = [0i64; 4];
    let others = Wind::ALL.into_iter().filter(|&w| w != winner);
    let self_draw_each = share(base, p.self_draw);
    let discard = |pay: &mut Payments, discarder: Wind| {
        for w in Wind::ALL.into_iter().filter(|&w| w != winner) {
            pay[w.index()] = if w == discarder {
                share(base, p.discarder)
            } else {
                share(base, p.others)
            };
        }
    };
    match (ctx.win_by, ctx.discarder) {
        (WinBy::SelfDraw, _) | (_, None) => match ctx.liable {
            Some(l) if l != winner => pay[l.index()] = 3 * self_draw_each,
            _ => others.for_each(|w| pay[w.index()] = self_draw_each),
        },
        (WinBy::Discard, Some(d)) => discard(&mut pay, d),
        (WinBy::RobbingKong, Some(d)) => match p.robbing_kong {
            RobbingKongPayment::AsDiscard => discard(&mut pay, d),
            RobbingKongPayment::AdderPaysAll => pay[d.index()] = 3 * self_draw_each,
        },
    }
    finish(pay, winner, ruleset.money)
}

/// Adds any per-payment bonus, then credits the winner with the sum.
fn finish(mut pay: Payments, winner: Wind, money: Option<Money>) -> Payments {
    let bonus = money.map_or(0, |m| m.bonus_chips as i64);
    let mut total = 0;
    for (i, p) in pay.iter_mut().enumerate() {
        if i != winner.index() && *p > 0 {
            *p += bonus;
        }
        if i != winner.index() {
            total += *p;
            *p = -*p;
        }
    }
    pay[winner.index()] = total;
    pay
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
    let mut cents = [0i64; 4];
    let mut winner = None;
    let mut sum = 0i64;
    for (i, &p) in pay.iter().enumerate() {
        if p > 0 && winner.is_none() {
            winner = Some(i);
            continue;
        }
        // Round half away from zero; wide arithmetic, clamped (base points are at most 2^40).
        let p = i128::from(p);
        let c = (p * rate + p.signum() * 50) / 100;
        cents[i] = i64::try_from(c).unwrap_or(if c < 0 { i64::MIN / 4 } else { i64::MAX / 4 });
        sum = sum.saturating_add(cents[i]);
    }
    if let Some(w) = winner {
        cents[w] = -sum;
    }
    Some(cents)
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
