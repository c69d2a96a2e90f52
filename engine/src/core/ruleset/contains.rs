//! What contains what: the chains of `contains`, which must never come
//! back to where they start (a document's and house rules' alike).

use super::super::pattern::{PatternId, PatternSet, PATTERN_COUNT};
use super::model::PatternRule;

/// Does `id` contain itself through a chain of `contains`?
pub(super) fn contains_cycle_from(patterns: &[PatternRule], id: PatternId) -> bool {
    closure(patterns).1[id.index()] & id.bit() != 0
}

/// The pattern `id`'s chain back to itself leaves it by.
pub(super) fn first_step(patterns: &[PatternRule], id: PatternId) -> Option<PatternId> {
    let (direct, reach) = closure(patterns);
    PatternId::ALL
        .iter()
        .copied()
        .find(|q| direct[id.index()] & q.bit() != 0 && reach[q.index()] & id.bit() != 0)
}

/// A pattern that contains itself through a chain of `contains`, and the
/// pattern the chain leaves it by; `None` when there is none.
pub(super) fn contains_cycle(patterns: &[PatternRule]) -> Option<(PatternId, PatternId)> {
    let (direct, reach) = closure(patterns);
    patterns.iter().find_map(|p| {
        let i = p.id.index();
        (reach[i] & p.id.bit() != 0).then(|| {
            let via = PatternId::ALL
                .iter()
                .copied()
                .find(|q| direct[i] & q.bit() != 0 && reach[q.index()] & p.id.bit() != 0)
                .unwrap_or(p.id);
            (p.id, via)
        })
    })
}

/// Each pattern's own `contains` and everything reached through them.
fn closure(patterns: &[PatternRule]) -> ([PatternSet; PATTERN_COUNT], [PatternSet; PATTERN_COUNT]) {
    let mut direct = [0 as PatternSet; PATTERN_COUNT];
    for p in patterns {
        direct[p.id.index()] = p.contains;
    }
    // Transitive closure by repeated widening (47 ids: a few rounds at most).
    let mut reach = direct;
    loop {
        let mut changed = false;
        for i in 0..PATTERN_COUNT {
            let mut r = reach[i];
            for (j, d) in reach.iter().enumerate() {
                if r & (1 << j) != 0 {
                    r |= d;
                }
            }
            changed |= r != reach[i];
            reach[i] = r;
        }
        if !changed {
            break;
        }
    }
    (direct, reach)
}
