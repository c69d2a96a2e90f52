//! Inputs the fuzzers found (`fuzz/regressions/`): each must give a clear
//! error or a correct answer, never a panic.

use faan::core::tile::{format_tiles, parse_tiles};
use faan::core::{
    score, ContextSpec, HandSpec, HouseRuleFields, HouseRules, PointsSpec, Registry, ScoreError,
    WinBy, Wind,
};

fn self_draw() -> ContextSpec {
    ContextSpec::new(WinBy::SelfDraw, Wind::East, Wind::East, None)
}

#[test]
fn hundreds_of_one_tile_are_rejected_not_overflowed() {
    // fuzz/regressions/mpsz/counts-of-u8-overflow-*: 256+ copies of one tile, past a u8 count.
    let registry = Registry::builtin().unwrap();
    for n in [255usize, 256, 300, 1000] {
        let tiles = format!("{}m", "1".repeat(n));
        let hand = HandSpec {
            tiles: tiles.clone(),
            winning_tile: Some("1m".into()),
            ..HandSpec::default()
        };
        for r in registry.all() {
            match score(r, &hand, &self_draw()) {
                Err(ScoreError::Invalid(errs)) => {
                    assert!(
                        errs.iter().any(|e| e.pointer == "/hand/tiles"),
                        "{n} x 1m under {}: {errs:?}",
                        r.id()
                    )
                }
                other => panic!("{n} x 1m under {}: want a 422, got {other:?}", r.id()),
            }
        }
    }
}

#[test]
fn huge_house_points_are_refused_not_overflowed() {
    // fuzz/regressions/score_core/settle-overflow-house-points: 2^63 base points, past what settlement holds.
    let registry = Registry::builtin().unwrap();
    let hkma = registry.get("hkma").unwrap();
    let hand = HandSpec {
        tiles: "123m456m789m11122z".into(),
        winning_tile: Some("2z".into()),
        ..HandSpec::default()
    };
    let cases = [
        HouseRuleFields {
            limit: Some(63),
            points: Some(PointsSpec::FullSpicy),
            ..Default::default()
        },
        HouseRuleFields {
            points: Some(PointsSpec::Table(vec![u64::MAX; 11])),
            ..Default::default()
        },
    ];
    for house in cases {
        let scored = HouseRules::try_from(house.clone())
            .and_then(|h| hkma.with_house_rules(&h))
            .map_err(ScoreError::Invalid)
            .and_then(|r| score(&r, &hand, &self_draw()));
        match scored {
            Err(ScoreError::Invalid(errs)) => assert!(
                errs.iter()
                    .any(|e| e.pointer.starts_with("/house_rules/") && e.message.contains("2^40")),
                "{house:?}: {errs:?}"
            ),
            other => panic!("{house:?}: want a 422, got {other:?}"),
        }
    }
    // The largest allowed base still settles to zero.
    let house = HouseRules::try_from(HouseRuleFields {
        limit: Some(40),
        points: Some(PointsSpec::FullSpicy),
        ..Default::default()
    })
    .unwrap();
    let r = hkma.with_house_rules(&house).unwrap();
    let s = score(&r, &hand, &self_draw()).unwrap();
    assert_eq!(s.payments.iter().sum::<i64>(), 0, "{:?}", s.payments);
}

#[test]
fn long_runs_of_one_suit_print_back_to_text_that_parses() {
    // fuzz/regressions/mpsz/format-roundtrip-36-man-tiles.
    let tiles = parse_tiles(
        &"123456789"
            .repeat(4)
            .chars()
            .map(|c| format!("{c}m"))
            .collect::<String>(),
    )
    .unwrap();
    assert_eq!(tiles.len(), 36);
    let text = format_tiles(&tiles);
    assert_eq!(parse_tiles(&text).unwrap(), tiles, "{text}");
}
