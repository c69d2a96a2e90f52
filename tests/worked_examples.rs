//! Runs every case of `tests/fixtures/*.json` through the scoring core and
//! checks lines, totals and payments against the values worked out from the
//! guides.

mod common;

use faan::core::{HouseRules, Registry, ScoreError, Wind};
use serde_json::Value;

#[test]
fn every_fixture_case_scores_as_expected() {
    let registry = Registry::builtin().expect("built-in rulesets load");
    let cases = common::fixture_cases();
    assert!(cases.len() >= 300, "fixtures found: {}", cases.len());
    let mut failures = Vec::new();
    for (file, case) in &cases {
        let name = format!("{file}: {}", case["name"].as_str().unwrap_or("?"));
        if let Err(e) = check(&registry, case) {
            failures.push(format!("{name}\n    {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn check(registry: &Registry, case: &Value) -> Result<(), String> {
    let req = common::request(&case["request"]);
    let expect = &case["expect"];
    let ruleset = registry
        .get(&req.ruleset)
        .ok_or(format!("unknown ruleset {}", req.ruleset))?;
    let result = req.score(ruleset);
    if let Some(err) = expect.get("error").and_then(Value::as_str) {
        return match (err, &result) {
            ("not-a-winning-hand", Err(ScoreError::NotWinning { .. })) => Ok(()),
            ("invalid", Err(ScoreError::Invalid(errs))) => {
                let want = expect["pointer"].as_str().unwrap_or("");
                // The rule's code too, where the case names one.
                let code = expect.get("code").and_then(Value::as_str);
                let found = errs.iter().any(|e| {
                    e.pointer == want
                        && code.is_none_or(|c| e.rule.as_ref().is_some_and(|r| r.code() == c))
                });
                if found {
                    Ok(())
                } else {
                    Err(format!("want pointer {want} (code {code:?}), got {errs:?}"))
                }
            }
            _ => Err(format!("want error {err}, got {result:?}")),
        };
    }
    let score = result.map_err(|e| format!("scoring failed: {e}"))?;
    let best = score.best();
    let got_lines: Vec<(String, u64)> = best
        .lines
        .iter()
        .map(|l| (l.pattern.as_str().to_string(), l.faan as u64))
        .collect();
    let mut problems = Vec::new();
    if let Some(lines) = expect.get("lines").and_then(Value::as_array) {
        let want: Vec<(String, u64)> = lines
            .iter()
            .map(|l| (l[0].as_str().unwrap().to_string(), l[1].as_u64().unwrap()))
            .collect();
        let (mut w, mut g) = (want.clone(), got_lines.clone());
        w.sort();
        g.sort();
        if w != g {
            problems.push(format!("lines: want {want:?}, got {got_lines:?}"));
        }
    }
    let num = |k: &str| expect.get(k).and_then(Value::as_u64);
    if let Some(t) = num("total_faan") {
        if t != best.total_faan as u64 {
            problems.push(format!("total_faan: want {t}, got {}", best.total_faan));
        }
    }
    if let Some(t) = num("raw_faan") {
        if t != best.raw_faan as u64 {
            problems.push(format!("raw_faan: want {t}, got {}", best.raw_faan));
        }
    }
    if let Some(b) = expect.get("limit_hand").and_then(Value::as_bool) {
        if b != best.limit_hand {
            problems.push(format!("limit_hand: want {b}, got {}", best.limit_hand));
        }
    }
    if let Some(b) = expect.get("meets_minimum").and_then(Value::as_bool) {
        if b != score.meets_minimum {
            problems.push(format!(
                "meets_minimum: want {b}, got {}",
                score.meets_minimum
            ));
        }
    }
    if let Some(b) = num("base_points") {
        if b != score.base_points {
            problems.push(format!("base_points: want {b}, got {}", score.base_points));
        }
    }
    if let Some(p) = expect.get("payments").and_then(Value::as_object) {
        for w in Wind::ALL {
            let want = p.get(w.name()).and_then(Value::as_i64).unwrap_or(0);
            let got = score.payments[w.index()];
            if want != got {
                problems.push(format!(
                    "payment {w}: want {want}, got {got} (all: {:?})",
                    score.payments
                ));
            }
        }
    }
    if let Some(n) = num("readings") {
        if n != score.readings.len() as u64 {
            problems.push(format!("readings: want {n}, got {}", score.readings.len()));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}; lines were {got_lines:?}", problems.join("; ")))
    }
}

/// Scoring runs one of two copies of the recognisers: a ruleset without the
/// optional rules (every built-in one) runs the copy that never tests
/// them. An `exclusive` pair of two forms that never hold together
/// switches the other copy on without changing any score, so every fixture
/// and corpus hand must score the same both ways.
#[test]
fn both_copies_of_the_recognisers_score_alike() {
    let registry = Registry::builtin().expect("built-in rulesets load");
    for id in registry.ids() {
        assert!(
            !registry.get(id).unwrap().uses_optional_rules(),
            "{id}: a built-in ruleset uses none of the optional rules"
        );
    }
    let corpus = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/corpus.jsonl"),
    )
    .expect("bench/corpus.jsonl");
    let mut requests: Vec<(String, Value)> = common::fixture_cases()
        .into_iter()
        .map(|(file, case)| (format!("{file}: {}", case["name"]), case["request"].clone()))
        .collect();
    for (i, line) in corpus.lines().enumerate() {
        requests.push((
            format!("corpus line {}", i + 1),
            serde_json::from_str(line).unwrap(),
        ));
    }
    let mut plain_copy = 0;
    for (name, v) in &requests {
        let req = common::request(v);
        let Some(ruleset) = registry.get(&req.ruleset) else {
            continue;
        };
        let Ok(house) = &req.house else {
            continue; // house rules the case itself rejects
        };
        let mut fields = house.fields().clone();
        fields
            .exclusive
            .push(vec!["seven_pairs".into(), "thirteen_orphans".into()]);
        let with = HouseRules::try_from(fields).and_then(|h| ruleset.with_house_rules(&h));
        let Ok(with) = with else {
            continue; // house rules the case itself rejects
        };
        assert!(
            with.uses_optional_rules(),
            "{name}: the exclusive pair is an extra"
        );
        let without = req.score(ruleset);
        if let Ok(r) = ruleset.with_house_rules(house) {
            plain_copy += usize::from(!r.uses_optional_rules());
        }
        let extras = faan::core::evaluate::score(&with, &req.hand, &req.context);
        assert_eq!(without, extras, "{name}: both copies of the recognisers");
    }
    assert!(
        plain_copy >= 2000,
        "cases on the copy without extras: {plain_copy}"
    );
}
