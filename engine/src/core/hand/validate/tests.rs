use super::*;
use crate::core::hand::MeldSpec;
use crate::core::tile::Wind;

fn allow() -> Allowances<'static> {
    Allowances {
        ruleset_id: "test",
        bonus_tiles: true,
        flower_wins: FlowerWins {
            seven: true,
            eight: true,
            ..FlowerWins::NONE
        },
        waiting: false,
    }
}

fn spec(tiles: &str, win: &str) -> HandSpec {
    HandSpec {
        tiles: tiles.into(),
        melds: vec![],
        winning_tile: Some(win.into()),
        flowers: vec![],
    }
}

fn discard() -> ContextSpec {
    ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West))
}

fn pointers(r: Result<(Hand, Context), Vec<FieldError>>) -> Vec<String> {
    match r {
        Ok(_) => vec![],
        Err(e) => e.into_iter().map(|e| e.pointer.into()).collect(),
    }
}

#[test]
fn sort_small_sorts_every_order_of_four() {
    let mut seen = 0;
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let mut v = [a, b, c, d];
                    let mut want = v;
                    want.sort();
                    sort_small(&mut v);
                    assert_eq!(v, want, "{a} {b} {c} {d}");
                    seen += 1;
                }
            }
        }
    }
    assert_eq!(seen, 256);
    let mut empty: [u8; 0] = [];
    sort_small(&mut empty);
}

#[test]
fn a_hand_and_context_are_made_by_try_from_a_claim() {
    let spec = spec("234567m22p345s777z", "2p");
    let claim = Claim {
        hand: &spec,
        context: &discard(),
        allow: allow(),
    };
    let (hand, context) = <(Hand, Context)>::try_from(claim).expect("a plain hand");
    assert_eq!(hand.concealed_len, 14, "tiles");
    assert_eq!(*context, discard(), "the context as sent");
    let short = super::super::HandSpec {
        tiles: "234567m22p345s77z".to_string(),
        ..spec.clone()
    };
    let errs = <(Hand, Context)>::try_from(Claim {
        hand: &short,
        ..claim
    })
    .unwrap_err();
    assert_eq!(errs[0].pointer, "/hand/tiles", "thirteen tiles");
    assert_eq!(
        errs[0].rule.as_ref().map(HandRule::code),
        Some("tile_count")
    );
}

#[test]
fn accepts_a_plain_hand() {
    let (h, _) = validate(&spec("234567m22p345s777z", "2p"), &discard(), allow()).unwrap();
    assert_eq!(h.concealed_len, 14);
    assert_eq!(h.concealed().count(), 14);
    assert_eq!(h.winning_tile.unwrap().to_string(), "2p");
}

#[test]
fn rejections_point_at_the_field() {
    let mut kong = spec("234567m22p345s", "2p");
    kong.melds.push(MeldSpec {
        kind: MeldKind::Kong,
        tiles: "1111s".into(),
        concealed: true,
        added: false,
    });
    assert_eq!(
        pointers(validate(&kong, &discard(), allow())),
        Vec::<String>::new(),
        "hand with kong"
    );

    let cases: Vec<(HandSpec, ContextSpec, &str)> = vec![
        (spec("234567m22p345s77x", "2p"), discard(), "/hand/tiles"),
        (
            spec("234567m22p345s777z", "3p"),
            discard(),
            "/hand/winning_tile",
        ),
        (spec("234567m22p345s77z", "2p"), discard(), "/hand/tiles"),
        (spec("22222m567m22p777z", "2p"), discard(), "/hand/tiles"),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, Some(Wind::West)),
            "/context/discarder",
        ),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, None),
            "/context/discarder",
        ),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::South)),
            "/context/discarder",
        ),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec {
                heavenly: true,
                ..ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None)
            },
            "/context/heavenly",
        ),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec {
                earthly: true,
                ..ContextSpec::new(WinBy::Discard, Wind::East, Wind::East, Some(Wind::South))
            },
            "/context/earthly",
        ),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec {
                earthly: true,
                ..ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None)
            },
            "/context/earthly",
        ),
        (
            spec("234567m22p345s777z", "2p"),
            ContextSpec::new(
                WinBy::RobbingKong,
                Wind::South,
                Wind::East,
                Some(Wind::West),
            ),
            "/context/win_by",
        ),
    ];
    for (h, c, want) in cases {
        let got = pointers(validate(&h, &c, allow()));
        assert!(
            got.iter().any(|p| p == want),
            "hand {:?} ctx {:?}: want {want}, got {got:?}",
            h.tiles,
            c
        );
    }
}

#[test]
fn meld_errors() {
    let mut h = spec("234567m22p777z", "2p");
    h.melds.push(MeldSpec {
        kind: MeldKind::Chow,
        tiles: "135s".into(),
        concealed: false,
        added: false,
    });
    assert_eq!(
        pointers(validate(&h, &discard(), allow())),
        vec!["/hand/melds/0/tiles"]
    );
    h.melds[0] = MeldSpec {
        kind: MeldKind::Pung,
        tiles: "555s".into(),
        concealed: true,
        added: false,
    };
    assert_eq!(
        pointers(validate(&h, &discard(), allow())),
        vec!["/hand/melds/0/concealed"]
    );
    h.melds[0] = MeldSpec {
        kind: MeldKind::Chow,
        tiles: "89s1p".into(),
        concealed: false,
        added: false,
    };
    assert_eq!(
        pointers(validate(&h, &discard(), allow())),
        vec!["/hand/melds/0/tiles"]
    );
}

#[test]
fn flowers() {
    let mut h = spec("234567m22p345s777z", "2p");
    h.flowers = vec!["F1".into(), "F1".into()];
    assert_eq!(
        pointers(validate(&h, &discard(), allow())),
        vec!["/hand/flowers/1"]
    );
    h.flowers = vec!["F1".into()];
    let no = Allowances {
        bonus_tiles: false,
        ..allow()
    };
    let err = validate(&h, &discard(), no).unwrap_err();
    assert_eq!(err[0].pointer, "/hand/flowers");
    assert!(
        err[0].message.contains("house_rules.flowers"),
        "{}",
        err[0].message
    );
}
