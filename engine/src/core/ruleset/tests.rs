//! The ruleset's own tests: curves, documents, house rules.

use super::*;

use crate::core::pattern::PatternId;

#[test]
fn curves() {
    assert_eq!(
        PointsSpec::HalfSpicy.table(13).unwrap(),
        vec![1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]
    );
    assert_eq!(
        PointsSpec::FullSpicy.table(4).unwrap(),
        vec![1, 2, 4, 8, 16]
    );
    assert_eq!(
        PointsSpec::Table(vec![1, 2]).table(3),
        Err(PointsError::Missing(2))
    );
    assert_eq!(
        PointsSpec::FullSpicy.table(63),
        Err(PointsError::TooLarge(41))
    );
    assert_eq!(
        PointsSpec::TableThenLast(vec![0, 8]).table(3).unwrap(),
        vec![0, 8, 8, 8]
    );
}

#[test]
fn house_rules_that_make_no_sense_say_why() {
    let reg = crate::core::Registry::builtin().unwrap();
    let hkma = reg.get("hkma").unwrap();
    // (house rules, pointer, words the message must contain)
    let cases: Vec<(HouseRuleFields, &str, &str)> = vec![
        (
            HouseRuleFields {
                min_faan: Some(11),
                ..Default::default()
            },
            "/house_rules/min_faan",
            "above the limit",
        ),
        (
            HouseRuleFields {
                limit: Some(2),
                ..Default::default()
            },
            "/house_rules/limit",
            "above the limit",
        ),
        (
            HouseRuleFields {
                points: Some(PointsSpec::Table(vec![1, 2, 4])),
                ..Default::default()
            },
            "/house_rules/points",
            "no entry for 3 faan",
        ),
        (
            HouseRuleFields {
                patterns: vec![("seven_sisters".into(), PatternOverride::Faan(4))],
                ..Default::default()
            },
            "/house_rules/patterns/seven_sisters",
            "unknown pattern id",
        ),
        (
            HouseRuleFields {
                patterns: vec![("all_chows".into(), PatternOverride::Faan(-1))],
                ..Default::default()
            },
            "/house_rules/patterns/all_chows",
            "negative",
        ),
        (
            HouseRuleFields {
                limit: Some(0),
                ..Default::default()
            },
            "/house_rules/limit",
            "from 1 to 64",
        ),
        (
            HouseRuleFields {
                dealer_multiplier: Some(Number(0.5)),
                ..Default::default()
            },
            "/house_rules/dealer_multiplier",
            "from 1 to 64",
        ),
        (
            HouseRuleFields {
                dealer_multiplier: Some(Number(1.1)),
                ..Default::default()
            },
            "/house_rules/dealer_multiplier",
            "multiple of 1/8",
        ),
        (
            HouseRuleFields {
                stake: Some(Number(0.0)),
                ..Default::default()
            },
            "/house_rules/stake",
            "above 0",
        ),
        (
            HouseRuleFields {
                stake: Some(Number(0.123_456_7)),
                ..Default::default()
            },
            "/house_rules/stake",
            "six decimal places",
        ),
    ];
    for (house, pointer, words) in cases {
        let errs = hkma
            .with_house(&house)
            .expect_err(&format!("{house:?} must be rejected"));
        assert!(
            errs.iter()
                .any(|e| e.pointer == pointer && e.message.contains(words)),
            "{house:?}: want {pointer} saying {words:?}, got {errs:?}"
        );
    }
    // A sensible override applies: seven pairs added at 4 contains the concealed hand.
    let house = HouseRuleFields {
        patterns: vec![("seven_pairs".into(), PatternOverride::Faan(4))],
        ..Default::default()
    };
    let r = hkma.with_house(&house).unwrap();
    let p = r.pattern(PatternId::SevenPairs).expect("seven pairs added");
    assert_eq!(
        (p.value, p.contains),
        (Value::Faan(4), PatternId::ConcealedHand.bit())
    );
    // Switching a pattern off removes it.
    let house = HouseRuleFields {
        patterns: vec![("all_chows".into(), PatternOverride::Off)],
        ..Default::default()
    };
    assert!(hkma
        .with_house(&house)
        .unwrap()
        .pattern(PatternId::AllChows)
        .is_none());
}

#[test]
fn stakes_are_exact_millionths() {
    // (as sent, millionths per point or None)
    let cases: &[(f64, Option<u64>)] = &[
        (0.05, Some(50_000)),
        (0.1, Some(100_000)),
        (0.333, Some(333_000)),
        (1.0, Some(1_000_000)),
        (0.000_001, Some(1)),
        (1_000_000.0, Some(Stake::MAX)),
        (0.000_000_5, None),
        (0.0, None),
        (-1.0, None),
        (1_000_000.5, None),
        (f64::NAN, None),
    ];
    for &(v, want) in cases {
        assert_eq!(Stake::from_number(v).map(|s| s.0), want, "stake {v}");
    }
}

/// A stake decided absolutely: a whole number of millionths or refused,
/// from a double (the nearest to r / 10^6 for some whole r) and from a JSON
/// number's digits. Millionths worked by hand: 0.5 is 500,000; 1.25 is
/// 1,250,000; 123.456789 is 123,456,789; 5E-2 is 0.05, 50,000.
#[test]
fn stakes_are_exact_or_refused() {
    let cases: &[(&str, Option<u64>)] = &[
        ("0.5", Some(500_000)),
        ("0.05", Some(50_000)),
        ("1.25", Some(1_250_000)),
        ("123.456789", Some(123_456_789)),
        ("1", Some(1_000_000)),
        ("1.0000000", Some(1_000_000)),
        ("5E-2", Some(50_000)),
        ("0.000005e1", Some(50)),
        ("1e6", Some(Stake::MAX)),
        ("1000000.000000", Some(Stake::MAX)),
        ("0.000001", Some(1)),
        // A seventh decimal that is not zero: refused, however small.
        ("1.0000004", None),
        ("0.05000001", None),
        ("0.5000004", None),
        ("123.4567894", None),
        ("0.0500001", None),
        // Digits a double cannot hold: the double is 0.1, the decimal is not.
        ("0.1000000000000000000001", None),
        ("1e-7", None),
        ("1000000.000001", None),
        ("1e7", None),
        ("1e99999999999", None),
        ("1e-99999999999", None),
        ("0", None),
        ("0.0e5", None),
        ("-1", None),
        ("-0", None),
        ("01", None),
        ("1.", None),
        (".5", None),
        ("1e", None),
        ("\"1\"", None),
    ];
    for &(text, want) in cases {
        assert_eq!(Stake::from_decimal(text).map(|s| s.0), want, "text {text}");
        // The double of each number the digits accept is accepted as the same stake.
        if let (Some(m), Ok(v)) = (want, text.parse::<f64>()) {
            assert_eq!(
                Stake::from_number(v).map(|s| s.0),
                Some(m),
                "double of {text}"
            );
        }
    }
    // The doubles of the refused decimals with a seventh place: refused too.
    for v in [1.000_000_4, 0.050_000_01, 0.500_000_4, 123.456_789_4] {
        assert_eq!(Stake::from_number(v), None, "double {v}");
    }
}

#[test]
fn table_rules_apply_as_house_rules() {
    let reg = crate::core::Registry::builtin().unwrap();
    let w = reg.get("wisteria-court").unwrap();
    assert_eq!(
        (
            w.table().dealer_keeps_on_win,
            w.table().dealer_keeps_on_draw
        ),
        (false, false),
        "wisteria-court passes the deal after every hand"
    );
    let house = HouseRuleFields {
        multiple_winners: Some(MultipleWinners::HeadBump),
        dealer_multiplier: Some(Number(1.5)),
        stake: Some(Number(0.25)),
        liable_discard: Some(LiableDiscard::PaysAll),
        dealer_keeps_on_win: Some(true),
        co_winners_pay: Some(true),
        ..Default::default()
    };
    let t = *w.with_house(&house).unwrap().table();
    assert_eq!(
        t,
        TableRules {
            multiple_winners: MultipleWinners::HeadBump,
            dealer_multiplier: 12,
            stake: Some(Stake(250_000)),
            liable_discard: LiableDiscard::PaysAll,
            dealer_keeps_on_win: true,
            dealer_keeps_on_draw: false,
            co_winners_pay: true,
            false_win: FalseWin::Minimum,
        },
        "house rules over wisteria-court's table"
    );
}

#[test]
fn load_errors_name_the_file_and_key() {
    let good = crate::core::registry::BUILTIN
        .iter()
        .find(|(n, _)| *n == "hkma.toml")
        .unwrap()
        .1;
    let cases: &[(&str, &str, &str)] = &[
        (
            "[patterns.all_chows]",
            "[patterns.all_chowz]",
            "patterns.all_chowz",
        ),
        ("min_faan = 3", "min_faan = -3", "min_faan"),
        ("limit = 10", "limit = 10\nfoo = 1", "unknown field"),
        (
            "allow_concealed_kong = false",
            "all_pungs = true",
            "patterns.concealed_hand.all_pungs",
        ),
        (
            "robbing_kong = \"adder_pays_all\"",
            "robbing_kong = \"nobody\"",
            "payment.robbing_kong",
        ),
        (
            "allow_concealed_kong = false",
            "allow_concealed_kong = 1",
            "patterns.concealed_hand.allow_concealed_kong: must be true or false",
        ),
        // Names live in the pattern table: a ruleset sets only its guide's wording.
        (
            "[patterns.all_chows]",
            "[patterns.all_chows]\nname = \"Ping wu\"",
            "patterns.all_chows.name: unknown field `name`",
        ),
        (
            "multiple_winners = \"all\"",
            "multiple_winners = \"most\"",
            "table.multiple_winners",
        ),
        (
            "dealer_multiplier = 1",
            "dealer_multiplier = 0",
            "table.dealer_multiplier",
        ),
        (
            "liable_discard = \"as_usual\"",
            "liable_discard = \"sometimes\"",
            "table.liable_discard",
        ),
        (
            "dealer_keeps_on_draw = true",
            "stake = -1\ndealer_keeps_on_draw = true",
            "table.stake",
        ),
        ("dealer_keeps_on_win = true\n", "", "dealer_keeps_on_win"),
        // A contains loop (here of one step: the concealed hand containing itself).
        (
            "allow_concealed_kong = false",
            "allow_concealed_kong = false\ncontains = [\"concealed_hand\"]",
            "patterns.concealed_hand.contains: concealed_hand contains itself through a chain",
        ),
        (
            "bonus_tiles = false",
            "bonus_tiles = false\nexclusive = [[\"all_chows\", \"ping_wu\"]]",
            "exclusive[0][1]: unknown pattern id",
        ),
        (
            "bonus_tiles = false",
            "bonus_tiles = false\nexclusive = [[\"all_chows\"]]",
            "exclusive[0]: give two different pattern ids",
        ),
        (
            "guide_name = \"Great three dragons\"",
            "guide_name = \"Great three dragons\"\npure_only = true",
            "pure_only does not apply to big_three_dragons",
        ),
    ];
    for (from, to, want) in cases {
        let text = good.replacen(from, &to.replace("\\n", "\n"), 1);
        let err = Ruleset::from_toml("hkma.toml", &text).expect_err(to);
        let shown = err.to_string();
        assert!(
            shown.starts_with("hkma.toml") && shown.contains(want),
            "{from} -> {to}: {shown}"
        );
    }
}

/// Every built-in ruleset written as its canonical document reads back
/// to itself (hash included), and the document's keys are in byte order.
#[test]
fn documents_round_trip() {
    let reg = crate::core::Registry::builtin().unwrap();
    for r in reg.all() {
        let doc = r.to_document();
        let back = Ruleset::from_document(&doc).unwrap_or_else(|e| panic!("{}: {e:?}", r.id()));
        assert_eq!(&back, r.as_ref(), "{}: round trip", r.id());
        let text = String::from_utf8(canonical_bytes(&doc)).unwrap();
        assert!(
            text.starts_with("{\"bonus_tiles\":"),
            "{}: keys sorted: {text:.40}",
            r.id()
        );
    }
    let hashes: std::collections::HashSet<[u8; 32]> = reg.all().iter().map(|r| r.hash()).collect();
    assert_eq!(hashes.len(), reg.all().len(), "one hash per built-in");
}

fn resolve(doc: serde_json::Value) -> Result<Ruleset, Vec<DocError>> {
    let reg = crate::core::Registry::builtin().unwrap();
    resolve_document(doc, |id| reg.get(id).map(|r| r.to_document()))
}

#[test]
fn extends_merges_over_the_built_in_document() {
    let reg = crate::core::Registry::builtin().unwrap();
    let hkma = reg.get("hkma").unwrap();
    let same = resolve(serde_json::json!({"extends": "hkma"})).unwrap();
    assert_eq!(&same, hkma.as_ref(), "case: extends alone is the built-in");
    let r = resolve(serde_json::json!({"extends": "hkma", "id": "hkma-simples",
        "patterns": {"all_simples": {"faan": 1}, "seven_pairs": null, "all_chows": {"faan": 2}},
        "min_faan": 1}))
    .unwrap();
    assert_eq!(r.id(), "hkma-simples", "case: id replaced");
    assert_eq!(r.min_faan(), 1, "case: min_faan replaced");
    assert_eq!(
        r.pattern(PatternId::AllSimples).map(|p| p.value),
        Some(Value::Faan(1)),
        "case: a pattern added"
    );
    assert_eq!(
        r.pattern(PatternId::AllChows)
            .map(|p| (p.value, p.note.is_some())),
        Some((Value::Faan(2), true)),
        "case: one key of a pattern changed, its note kept"
    );
    assert!(
        hkma.pattern(PatternId::SevenPairs).is_none() && r.pattern(PatternId::SevenPairs).is_none(),
        "case: null removes"
    );
    assert_ne!(r.hash(), hkma.hash(), "case: another ruleset, another hash");
    // Without extends: the descriptive keys take their defaults.
    let mut doc = hkma.to_document();
    for k in ["id", "name", "version", "source", "summary", "notes"] {
        doc.as_object_mut().unwrap().remove(k);
    }
    let custom = resolve(doc).unwrap();
    assert_eq!(
        (custom.id(), custom.name(), custom.version()),
        ("custom", "Custom ruleset", 1),
        "case: defaults"
    );
    assert_eq!(custom.patterns(), hkma.patterns(), "case: the same rules");
}

/// Base points above the limit (only under `limits_add`), worked by hand
/// on wisteria-court (half-spicy, limit 10: B(1) 2, B(5) 24, B(9) 96,
/// B(10) 128). `per_limit`: each whole limit pays the limit's points, the
/// faan left over their own; `once`: the limit's. Bounded by
/// `MAX_BASE_POINTS` (full-spicy at a limit of 40: B(40) is 2^40 already).
#[test]
fn a_total_above_the_limit_pays_as_limits_pay_says() {
    let reg = crate::core::Registry::builtin().unwrap();
    let wisteria = reg.get("wisteria-court").unwrap();
    let with = |pay: Option<LimitsPay>| {
        wisteria
            .with_house(&HouseRuleFields {
                limits_add: Some(true),
                limits_pay: pay,
                ..HouseRuleFields::default()
            })
            .unwrap()
    };
    let (per, once) = (with(None), with(Some(LimitsPay::Once)));
    assert_eq!(per.limits_pay(), LimitsPay::PerLimit, "case: the default");
    // (faan, per_limit, once)
    let cases: &[(u32, u64, u64)] = &[
        (9, 96, 96),            // below the limit: the table
        (10, 128, 128),         // exactly one limit
        (11, 128 + 2, 128),     // a limit plus 1 faan
        (19, 128 + 96, 128),    // a limit plus 9 faan
        (20, 2 * 128, 128),     // a double limit
        (21, 2 * 128 + 2, 128), // a double limit plus 1 faan
        (30, 3 * 128, 128),     // three limits
        // 4294967295 = 429496729 limits + 5 faan
        (u32::MAX, 429_496_729 * 128 + 24, 128),
    ];
    for &(faan, want_per, want_once) in cases {
        assert_eq!(
            per.base_points(faan),
            Some(want_per),
            "case: {faan} faan per_limit"
        );
        assert_eq!(
            once.base_points(faan),
            Some(want_once),
            "case: {faan} faan once"
        );
    }
    let top = wisteria
        .with_house(&HouseRuleFields {
            limit: Some(40),
            points: Some(PointsSpec::FullSpicy),
            limits_add: Some(true),
            ..HouseRuleFields::default()
        })
        .unwrap();
    assert_eq!(
        top.base_points(40),
        Some(MAX_BASE_POINTS),
        "case: 2^40 at 40"
    );
    assert_eq!(
        (top.base_points(80), top.base_points(u32::MAX)),
        (None, None),
        "case: two limits of 2^40 and more are refused, not capped at 2^40"
    );
    assert_eq!(
        wisteria.base_points(21),
        Some(128),
        "case: without limits_add no total passes the limit; a stray one pays the limit's"
    );
    let doc = once.to_document();
    assert_eq!(doc["limits_pay"], "once", "case: once is written");
    assert!(
        per.to_document().get("limits_pay").is_none(),
        "case: the default is not written (every built-in's hash unchanged)"
    );
    let back = Ruleset::from_document(&doc).unwrap();
    assert_eq!(back.limits_pay(), LimitsPay::Once, "case: read back");
    let mut bad = doc.clone();
    bad["limits_pay"] = "twice".into();
    let errs = Ruleset::from_document(&bad).unwrap_err();
    assert_eq!(
        errs.iter()
            .map(|e| e.pointer("/ruleset"))
            .collect::<Vec<_>>(),
        ["/ruleset/limits_pay"],
        "case: an unknown rule at its key"
    );
}

/// A pattern added under `extends` without `contains` takes the pattern
/// table's house-rule containment (fully_concealed: concealed_hand and
/// self_draw), as `house_rules.patterns` gives it; an explicit `contains`
/// wins, a pattern the base scores keeps its own, a full document lists
/// its own.
#[test]
fn a_pattern_added_under_extends_contains_as_a_house_rule() {
    let reg = crate::core::Registry::builtin().unwrap();
    let hkma = reg.get("hkma").unwrap();
    let contains = |r: &Ruleset, id: PatternId| r.pattern(id).map(|p| p.contains);
    let house = hkma
        .with_house(&HouseRuleFields {
            patterns: vec![("fully_concealed".into(), PatternOverride::Faan(3))],
            ..HouseRuleFields::default()
        })
        .unwrap();
    let want = PatternId::ConcealedHand.bit() | PatternId::SelfDraw.bit();
    assert_eq!(
        contains(&house, PatternId::FullyConcealed),
        Some(want),
        "case: house rule"
    );
    let ext = resolve(serde_json::json!({"extends": "hkma",
        "patterns": {"fully_concealed": {"faan": 3}, "all_chows": {"faan": 2}}}))
    .unwrap();
    assert_eq!(
        contains(&ext, PatternId::FullyConcealed),
        Some(want),
        "case: added under extends without contains"
    );
    assert_eq!(
        contains(&ext, PatternId::AllChows),
        contains(hkma, PatternId::AllChows),
        "case: a pattern the base scores keeps its own contains"
    );
    let doc = ext.to_document();
    assert_eq!(
        doc["patterns"]["fully_concealed"]["contains"],
        serde_json::json!(["self_draw", "concealed_hand"]),
        "case: the canonical document shows it (engine order)"
    );
    let explicit = resolve(serde_json::json!({"extends": "hkma",
        "patterns": {"fully_concealed": {"faan": 3, "contains": []}}}))
    .unwrap();
    assert_eq!(
        contains(&explicit, PatternId::FullyConcealed),
        Some(0),
        "case: explicit contains [] wins"
    );
    assert_ne!(
        explicit.hash(),
        ext.hash(),
        "case: two rulesets, two hashes"
    );
    let mut full = hkma.to_document();
    full["patterns"]["fully_concealed"] = serde_json::json!({"faan": 3});
    let full = resolve(full).unwrap();
    assert_eq!(
        contains(&full, PatternId::FullyConcealed),
        Some(0),
        "case: a full document contains only what it lists"
    );
}

/// Broken documents: each problem at its path (every problem of a document
/// whose shape is right).
#[test]
fn broken_documents_say_where() {
    let cases: Vec<(serde_json::Value, Vec<&str>)> = vec![
        (
            serde_json::json!({"extends": "riichi"}),
            vec!["/ruleset/extends"],
        ),
        (serde_json::json!({"extends": 3}), vec!["/ruleset/extends"]),
        (
            serde_json::json!({"extends": "hkma", "colour": "red"}),
            vec!["/ruleset/colour"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"all_simples": {"faan": -1}}}),
            vec!["/ruleset/patterns/all_simples/faan"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"all_simples": {"faan": 1.5}}}),
            vec!["/ruleset/patterns/all_simples/faan"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"ping_wu": {"faan": 1}}}),
            vec!["/ruleset/patterns/ping_wu"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"all_simples": {}}}),
            vec!["/ruleset/patterns/all_simples/faan"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"all_chows": {"pure_only": true}}}),
            vec!["/ruleset/patterns/all_chows/pure_only"],
        ),
        (
            serde_json::json!({"extends": "hkma", "limit": 20, "min_faan": 30}),
            vec!["/ruleset/min_faan"],
        ),
        (
            serde_json::json!({"extends": "hkma", "points": {"curve": null, "table": [1, 2, 4]}}),
            vec!["/ruleset/points/table"],
        ),
        (
            serde_json::json!({"extends": "hkma", "id": "My Table"}),
            vec!["/ruleset/id"],
        ),
        (
            serde_json::json!({"extends": "hkma", "exclusive": [["all_chows"]]}),
            vec!["/ruleset/exclusive/0"],
        ),
        (
            serde_json::json!({"extends": "hkma", "exclusive": [["all_chows", "ping_wu"]]}),
            vec!["/ruleset/exclusive/0/1"],
        ),
        (
            serde_json::json!({"extends": "hkma", "limit": "ten"}),
            vec!["/ruleset/limit"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"seven_pairs": {"faan": 3, "contains": ["concealed_hand"]}, "concealed_hand": {"contains": ["seven_pairs"]}}}),
            vec!["/ruleset/patterns/concealed_hand/contains"],
        ),
        (
            serde_json::json!({"extends": "hkma", "patterns": {"all_chows": {"contains": ["self_draw", "ping"]}}, "table": {"liable_discard": "never"}, "version": -1}),
            vec![
                "/ruleset/table/liable_discard",
                "/ruleset/patterns/all_chows/contains/1",
                "/ruleset/version",
            ],
        ),
        (serde_json::json!({"min_faan": 0}), vec!["/ruleset/limit"]),
        (serde_json::json!([1]), vec!["/ruleset"]),
    ];
    for (doc, want) in cases {
        let errs = resolve(doc.clone()).expect_err(&doc.to_string());
        let mut got: Vec<String> = errs.iter().map(|e| e.pointer("/ruleset")).collect();
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{doc}: {errs:?}");
    }
}

/// One rule, one check: the same broken rule sent in a document and as a
/// house rule gives the same message, each at its own pointer.
#[test]
fn a_document_and_house_rules_break_a_rule_alike() {
    let reg = crate::core::Registry::builtin().unwrap();
    let hkma = reg.get("hkma").unwrap();
    let pair = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    // (case, document patch, its pointer, house rules, their pointer)
    let cases: Vec<(&str, serde_json::Value, &str, HouseRuleFields, &str)> = vec![
        (
            "limit 0",
            serde_json::json!({"limit": 0}),
            "/ruleset/limit",
            HouseRuleFields {
                limit: Some(0),
                ..HouseRuleFields::default()
            },
            "/house_rules/limit",
        ),
        (
            "dealer multiplier 0.5",
            serde_json::json!({"table": {"dealer_multiplier": 0.5}}),
            "/ruleset/table/dealer_multiplier",
            HouseRuleFields {
                dealer_multiplier: Some(Number(0.5)),
                ..HouseRuleFields::default()
            },
            "/house_rules/dealer_multiplier",
        ),
        (
            "stake 0.1234567",
            serde_json::json!({"table": {"stake": 0.123_456_7}}),
            "/ruleset/table/stake",
            HouseRuleFields {
                stake: Some(Number(0.123_456_7)),
                ..HouseRuleFields::default()
            },
            "/house_rules/stake",
        ),
        (
            "a pair of one id twice",
            serde_json::json!({"exclusive": [["all_chows", "all_chows"]]}),
            "/ruleset/exclusive/0",
            HouseRuleFields {
                exclusive: vec![pair("all_chows", "all_chows")],
                ..HouseRuleFields::default()
            },
            "/house_rules/exclusive/0",
        ),
        (
            "a pair of one id",
            serde_json::json!({"exclusive": [["all_chows"]]}),
            "/ruleset/exclusive/0",
            HouseRuleFields {
                exclusive: vec![vec!["all_chows".to_string()]],
                ..HouseRuleFields::default()
            },
            "/house_rules/exclusive/0",
        ),
        (
            "a pair with an unknown id",
            serde_json::json!({"exclusive": [["all_chows", "ping"]]}),
            "/ruleset/exclusive/0/1",
            HouseRuleFields {
                exclusive: vec![pair("all_chows", "ping")],
                ..HouseRuleFields::default()
            },
            "/house_rules/exclusive/0/1",
        ),
        (
            "a negative pattern value",
            serde_json::json!({"patterns": {"all_chows": {"faan": -1}}}),
            "/ruleset/patterns/all_chows/faan",
            HouseRuleFields {
                patterns: vec![("all_chows".into(), PatternOverride::Faan(-1))],
                ..HouseRuleFields::default()
            },
            "/house_rules/patterns/all_chows",
        ),
        (
            "a minimum above the limit",
            serde_json::json!({"min_faan": 11}),
            "/ruleset/min_faan",
            HouseRuleFields {
                min_faan: Some(11),
                ..HouseRuleFields::default()
            },
            "/house_rules/min_faan",
        ),
    ];
    for (case, patch, doc_at, house, house_at) in cases {
        let mut doc = hkma.to_document();
        json_patch::merge(&mut doc, &patch);
        let d = Ruleset::from_document(&doc).expect_err(case);
        let h = hkma.with_house(&house).expect_err(case);
        assert_eq!(
            d.iter().map(|e| e.pointer("/ruleset")).collect::<Vec<_>>(),
            [doc_at],
            "case: {case}, the document's pointer"
        );
        assert_eq!(
            h.iter().map(|e| e.pointer.as_str()).collect::<Vec<_>>(),
            [house_at],
            "case: {case}, the house rules' pointer"
        );
        assert_eq!(d[0].message, h[0].message, "case: {case}, one message");
    }
}
