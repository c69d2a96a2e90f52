//! Compares every built-in ruleset with a checked-in expectation written by
//! hand from its guide's table (`tests/expectations/<ruleset-id>.json`), not
//! generated from the TOML data: minimum, limit, the value of every scored
//! pattern, the patterns not scored, the combination rules the guides state,
//! the per-ruleset conditions, the base points for 0..=limit faan and the
//! payment multipliers.

use faan::core::pattern::{Condition, Conditions};
use faan::core::ruleset::{RobbingKongPayment, Value as RuleValue};
use faan::core::{PatternId, Registry, Ruleset};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn expectations_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expectations")
}

fn load_expectations() -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(expectations_dir())
        .expect("tests/expectations")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let v: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let id = f.file_stem().unwrap().to_string_lossy().into_owned();
            (id, v)
        })
        .collect()
}

fn pattern_id(s: &str, id: &str, key: &str) -> PatternId {
    s.parse()
        .unwrap_or_else(|()| panic!("{id}: {key}: unknown pattern id {s:?} in the expectation"))
}

/// What the expectation says a pattern is worth: (is a limit, faan).
fn expected_value(id: &str, pattern: &str, v: &Value, limit: u32) -> (bool, u32) {
    match v {
        Value::Number(n) => (false, n.as_u64().expect("faan") as u32),
        Value::String(s) if s == "limit" => (true, limit),
        Value::Object(o) => (
            true,
            o.get("limit")
                .and_then(Value::as_u64)
                .unwrap_or_else(|| panic!("{id}: patterns.{pattern}: bad value {v}"))
                as u32,
        ),
        _ => panic!("{id}: patterns.{pattern}: bad value {v}"),
    }
}

fn actual_value(r: &Ruleset, v: RuleValue) -> (bool, u32) {
    match v {
        RuleValue::Faan(f) => (false, f),
        RuleValue::Limit(n) => (true, r.limit_value(n)),
    }
}

fn condition(c: &Conditions, name: &str) -> Option<bool> {
    Condition::from_key(name).map(|k| c.get(k))
}

/// Multiples of B in the expectation, as the eighths the ruleset stores.
fn eighths(v: &Value) -> u32 {
    (v.as_f64().expect("a number") * 8.0).round() as u32
}

fn check(r: &Ruleset, exp: &Value) -> Vec<String> {
    let id = r.id();
    let mut bad = Vec::new();
    let mut miss = |key: &str, want: String, got: String| {
        bad.push(format!("{id}: {key}: guide says {want}, ruleset has {got}"));
    };

    let num = |k: &str| {
        exp[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{id}: {k} missing")) as u32
    };
    if r.min_faan() != num("min_faan") {
        miss(
            "min_faan",
            num("min_faan").to_string(),
            r.min_faan().to_string(),
        );
    }
    if r.limit() != num("limit") {
        miss("limit", num("limit").to_string(), r.limit().to_string());
    }
    if let Some(lf) = exp["limit_faan"].as_u64() {
        if u64::from(r.limit_faan()) != lf {
            miss("limit_faan", lf.to_string(), r.limit_faan().to_string());
        }
    }
    if let Some(b) = exp["bonus_tiles"].as_bool() {
        if r.bonus_tiles() != b {
            miss("bonus_tiles", b.to_string(), r.bonus_tiles().to_string());
        }
    }

    // Patterns scored, with their values.
    let patterns = exp["patterns"].as_object().expect("patterns");
    for (name, v) in patterns {
        let pid = pattern_id(name, id, "patterns");
        let want = expected_value(id, name, v, r.limit());
        match r.pattern(pid) {
            None => miss(
                &format!("patterns.{name}"),
                format!("{v}"),
                "it not scored".into(),
            ),
            Some(rule) => {
                let got = actual_value(r, rule.value);
                if got != want {
                    let show = |(l, f): (bool, u32)| {
                        if l {
                            format!("a limit at {f}")
                        } else {
                            format!("{f} faan")
                        }
                    };
                    miss(&format!("patterns.{name}"), show(want), show(got));
                }
            }
        }
    }

    // Patterns not scored.
    let not_scored: Vec<&str> = exp["not_scored"]
        .as_array()
        .expect("not_scored")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for name in &not_scored {
        let pid = pattern_id(name, id, "not_scored");
        if let Some(rule) = r.pattern(pid) {
            miss(
                &format!("not_scored.{name}"),
                "not scored".into(),
                format!("{:?}", rule.value),
            );
        }
    }
    // The expectation itself must name every pattern exactly once.
    for &pid in PatternId::ALL {
        let n = pid.as_str();
        let listed = patterns.contains_key(n) as u8 + not_scored.contains(&n) as u8;
        assert_eq!(
            listed, 1,
            "{id}: expectation must list {n} exactly once in patterns or not_scored"
        );
    }

    // Combination rules the guides state.
    for (key, must) in [("contains", true), ("not_contains", false)] {
        if let Some(map) = exp[key].as_object() {
            for (name, list) in map {
                let pid = pattern_id(name, id, key);
                let Some(rule) = r.pattern(pid) else {
                    miss(
                        &format!("{key}.{name}"),
                        "scored".into(),
                        "not scored".into(),
                    );
                    continue;
                };
                for other in list.as_array().expect("list") {
                    let o = pattern_id(other.as_str().unwrap(), id, key);
                    let has = rule.contains & o.bit() != 0;
                    if has != must {
                        miss(
                            &format!("{key}.{name}"),
                            format!(
                                "{name} {} {o}",
                                if must { "contains" } else { "stacks with" }
                            ),
                            format!(
                                "{name} {} {o}",
                                if has { "contains" } else { "stacks with" }
                            ),
                        );
                    }
                }
            }
        }
    }

    // Conditions.
    if let Some(map) = exp["conditions"].as_object() {
        for (name, conds) in map {
            let pid = pattern_id(name, id, "conditions");
            let Some(rule) = r.pattern(pid) else {
                miss(
                    &format!("conditions.{name}"),
                    "scored".into(),
                    "not scored".into(),
                );
                continue;
            };
            for (c, want) in conds.as_object().expect("conditions") {
                let want = want.as_bool().expect("bool");
                let got = condition(&rule.conditions, c)
                    .unwrap_or_else(|| panic!("{id}: unknown condition {c}"));
                if got != want {
                    miss(
                        &format!("conditions.{name}.{c}"),
                        want.to_string(),
                        got.to_string(),
                    );
                }
            }
        }
    }

    // Base points 0..=limit.
    let want_points: Vec<u64> = exp["points_table"]
        .as_array()
        .expect("points_table")
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let got_points: Vec<u64> = (0..=r.limit())
        .map(|f| r.base_points(f).expect("up to the limit"))
        .collect();
    if want_points != got_points {
        miss(
            "points_table",
            format!("{want_points:?}"),
            format!("{got_points:?}"),
        );
    }
    let table_prefix: Vec<u64> = r
        .points_table()
        .iter()
        .copied()
        .take(want_points.len())
        .collect();
    if table_prefix != want_points {
        miss(
            "points_table (field)",
            format!("{want_points:?}"),
            format!("{:?}", r.points_table()),
        );
    }

    // Payment multipliers (expectation in multiples of B, ruleset in eighths).
    let pay = &exp["payment"];
    let p = r.payment();
    for (k, got) in [
        ("discarder", p.discarder),
        ("others", p.others),
        ("self_draw", p.self_draw),
    ] {
        let want = eighths(&pay[k]);
        if want != got {
            miss(
                &format!("payment.{k}"),
                format!("{}B", want as f64 / 8.0),
                format!("{}B", got as f64 / 8.0),
            );
        }
    }
    let want_rk = pay["robbing_kong"].as_str().expect("payment.robbing_kong");
    let got_rk = match p.robbing_kong {
        RobbingKongPayment::AsDiscard => "as_discard",
        RobbingKongPayment::AdderPaysAll => "adder_pays_all",
    };
    if want_rk != got_rk {
        miss("payment.robbing_kong", want_rk.into(), got_rk.into());
    }

    // Money.
    match (&exp["money"], r.money()) {
        (Value::Null, None) => {}
        (Value::Null, Some(m)) => miss("money", "none".into(), format!("{m:?}")),
        (m, None) => miss("money", format!("{m}"), "none".into()),
        (m, Some(got)) => {
            let usd = m["usd_per_100_chips"].as_f64().expect("usd_per_100_chips");
            let cents = (usd * 100.0).round() as u32;
            if cents != got.cents_per_100_chips {
                miss(
                    "money.usd_per_100_chips",
                    usd.to_string(),
                    format!("{}", got.cents_per_100_chips as f64 / 100.0),
                );
            }
            let bonus = m["bonus_chips"].as_u64().unwrap_or(0) as u32;
            if bonus != got.bonus_chips {
                miss(
                    "money.bonus_chips",
                    bonus.to_string(),
                    got.bonus_chips.to_string(),
                );
            }
        }
    }
    bad
}

#[test]
fn every_ruleset_has_an_expectation() {
    let registry = Registry::builtin().expect("built-in rulesets load");
    let have: Vec<String> = load_expectations().into_iter().map(|(id, _)| id).collect();
    for id in registry.ids() {
        assert!(
            have.iter().any(|h| h == id),
            "ruleset {id} has no tests/expectations/{id}.json"
        );
    }
    for id in &have {
        assert!(
            registry.get(id).is_some(),
            "tests/expectations/{id}.json names no built-in ruleset"
        );
    }
    assert_eq!(
        have.len(),
        registry.ids().count(),
        "one expectation per built-in ruleset"
    );
}

#[test]
fn every_ruleset_matches_its_guide_table() {
    let registry = Registry::builtin().expect("built-in rulesets load");
    let mut failures = Vec::new();
    for (id, exp) in load_expectations() {
        assert_eq!(
            exp["ruleset"].as_str(),
            Some(id.as_str()),
            "tests/expectations/{id}.json: \"ruleset\" must be its file name"
        );
        let Some(r) = registry.get(&id) else {
            failures.push(format!("{id}: no such built-in ruleset"));
            continue;
        };
        failures.extend(check(r, &exp));
    }
    assert!(
        failures.is_empty(),
        "{} mismatch(es) between the guides and the ruleset data:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Money follows the chip rate of Six systems compared, Step 1
/// ("USD per 100 chips": LIU $2, Mahjong Time $1, MJB $10; MJB adds 20
/// chips to each payment): a 5-fan hand (base 16) on a discard by West.
#[test]
fn money_follows_the_chip_rate() {
    use faan::core::{score, ContextSpec, HandSpec, MeldKind, MeldSpec, WinBy, Wind};

    let registry = Registry::builtin().expect("built-in rulesets load");
    let hand = HandSpec {
        tiles: "123m456m789m55m".into(),
        melds: vec![MeldSpec {
            kind: MeldKind::Pung,
            tiles: "777z".into(),
            concealed: false,
            added: false,
        }],
        winning_tile: Some("5m".into()),
        flowers: vec![],
    };
    let ctx = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
    // (ruleset, chips [E, S, W, N], cents [E, S, W, N]) worked out by hand:
    // mixed one suit 3 + dragon pung 1 + no flowers 1 = 5 fan, base 16.
    type Case<'a> = (&'a str, [i64; 4], Option<[i64; 4]>);
    let cases: [Case; 4] = [
        // defensive: West pays 4B = 64 chips at $2 per 100 chips.
        ("liu", [0, 64, -64, 0], Some([0, 128, -128, 0])),
        // classical: West 2B, the others B, at $1 per 100 chips.
        ("mjtime", [-16, 64, -32, -16], Some([-16, 64, -32, -16])),
        // classical plus 20 chips on each payment, at $10 per 100 chips.
        ("mjb", [-36, 124, -52, -36], Some([-360, 1240, -520, -360])),
        // no money rate.
        ("wikipedia", [-16, 64, -32, -16], None),
    ];
    for (id, chips, cents) in cases {
        let r = registry.get(id).expect(id);
        let s = score(r, &hand, &ctx).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(s.total_faan(), 5, "{id}: total faan");
        assert_eq!(s.base_points, 16, "{id}: base points");
        assert_eq!(s.payments, chips, "{id}: payments in chips");
        assert_eq!(s.money_cents, cents, "{id}: payments in US cents");
    }
}
