//! The settling up at the end of a night: standings and the fewest
//! transfers, from the balances alone.

use super::{Standing, Transfer, PLAYERS};

/// Standings: best balance first, ties sharing a rank and keeping player order.
pub fn standings(balances: &[i64; PLAYERS]) -> [Standing; PLAYERS] {
    let mut order: [usize; PLAYERS] = std::array::from_fn(|p| p);
    order.sort_by_key(|&p| std::cmp::Reverse(balances[p]));
    order.map(|p| Standing {
        player: p,
        balance: balances[p],
        rank: 1 + balances.iter().filter(|&&b| b > balances[p]).count(),
    })
}

/// The fewest payments that settle `balances` (which sum to zero).
///
/// With four players every non-zero balance takes part: the fewest is the
/// number of non-zero balances less the number of groups they split into
/// with a zero sum each. Four non-zero balances split into two such pairs
/// when some pair cancels (two transfers); otherwise one group settles with
/// one transfer fewer than its members (at most three). Within a group the
/// largest debtor pays the largest creditor until all are square; in a
/// group with no zero-sum part that takes exactly one transfer fewer than
/// its members.
pub fn transfers(balances: &[i64; PLAYERS]) -> Vec<Transfer> {
    let nonzero: Vec<usize> = (0..PLAYERS).filter(|&p| balances[p] != 0).collect();
    let mut groups: Vec<Vec<usize>> = vec![nonzero.clone()];
    if nonzero.len() == 4 {
        let b = |p: usize| i128::from(balances[p]);
        for &q in &nonzero[1..] {
            if b(nonzero[0]) + b(q) == 0 {
                let rest = nonzero
                    .iter()
                    .copied()
                    .filter(|&p| p != nonzero[0] && p != q)
                    .collect();
                groups = vec![vec![nonzero[0], q], rest];
                break;
            }
        }
    }
    let mut out = Vec::with_capacity(3);
    for g in groups {
        let mut left: Vec<(usize, i64)> = g.iter().map(|&p| (p, balances[p])).collect();
        loop {
            // Largest debtor and largest creditor, the first on ties.
            let debtor = left
                .iter()
                .enumerate()
                .filter(|(_, (_, b))| *b < 0)
                .min_by_key(|(_, (_, b))| *b);
            let creditor = left
                .iter()
                .enumerate()
                .filter(|(_, (_, b))| *b > 0)
                .max_by_key(|(i, (_, b))| (*b, std::cmp::Reverse(*i)));
            let (Some((d, &(from, owe))), Some((c, &(to, due)))) = (debtor, creditor) else {
                break;
            };
            let amount = owe.unsigned_abs().min(due.unsigned_abs()) as i64;
            out.push(Transfer { from, to, amount });
            left[d].1 += amount;
            left[c].1 -= amount;
        }
    }
    out
}
