//! Shared test helpers: turn a request in the API's JSON shape into core
//! types (through the API's own request parsing), so that fixture files are
//! written exactly as a client posts them.
#![allow(dead_code)]

use faan::api::json::parse;
use faan::api::ScoreRequest;
use faan::core::{ContextSpec, FieldError, HandSpec, HouseRules, Ruleset, Score, ScoreError};
use serde_json::Value;

pub struct Request {
    pub ruleset: String,
    pub hand: HandSpec,
    pub context: ContextSpec,
    /// The house rules checked (`HouseRules::try_from`), or why not.
    pub house: Result<HouseRules, Vec<FieldError>>,
}

impl Request {
    /// Scored as the pipeline scores it: the house rules checked, applied
    /// over `ruleset` (`Ruleset::with_house_rules`), the hand validated and
    /// scored (`core::score`). A refusal of the house rules is `Invalid`.
    pub fn score(&self, ruleset: &Ruleset) -> Result<Score, ScoreError> {
        score_with(ruleset, &self.house, &self.hand, &self.context)
    }
}

/// [`Request::score`] of any hand.
pub fn score_with(
    ruleset: &Ruleset,
    house: &Result<HouseRules, Vec<FieldError>>,
    hand: &HandSpec,
    context: &ContextSpec,
) -> Result<Score, ScoreError> {
    match house {
        Err(errs) => Err(ScoreError::Invalid(errs.clone())),
        Ok(h) if h.is_empty() => faan::core::score(ruleset, hand, context),
        Ok(h) => {
            let r = ruleset.with_house_rules(h).map_err(ScoreError::Invalid)?;
            faan::core::score(&r, hand, context)
        }
    }
}

/// Parses a request exactly as `POST /v1/score` parses its body, into core types.
pub fn request(v: &Value) -> Request {
    let text = v.to_string();
    let req: ScoreRequest = parse(text.as_bytes())
        .unwrap_or_else(|e| panic!("not a score request: {:?}\n{v}", e.problem()));
    let hand = req.hand.to_core();
    Request {
        hand: hand.to_owned_spec(),
        context: req.context.to_core(),
        house: faan::api::house_rules(&req.house_rules),
        ruleset: req.ruleset.id().unwrap_or_default().to_string(),
    }
}

/// Loads every `*.json` fixture file in `tests/fixtures/` as (file, case) pairs.
pub fn fixture_cases() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        for case in v["cases"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no cases array"))
        {
            out.push((name.clone(), case.clone()));
        }
    }
    out
}

/// The bad ledgers of `tests/fixtures/table/bad-ledgers.json`, each failing
/// whole at its `pointer` (`core`: the core sees it; the others fail when
/// the request is read), as (case, request) pairs. A case's request is its
/// players (Ann, Ben, Cat, Dan unless given), `draws_first` draws, then its
/// hands, with its `start` and `house_rules`.
pub fn bad_ledgers() -> Vec<(Value, Value)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/table/bad-ledgers.json");
    let text = std::fs::read_to_string(&path).expect("bad-ledgers.json");
    let v: Value = serde_json::from_str(&text).expect("bad-ledgers.json is JSON");
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| {
            let draws = case["draws_first"].as_u64().unwrap_or(0) as usize;
            let mut hands = vec![serde_json::json!({"result": "draw"}); draws];
            hands.extend(case["hands"].as_array().expect("hands").iter().cloned());
            let players = case
                .get("players")
                .cloned()
                .unwrap_or(serde_json::json!(["Ann", "Ben", "Cat", "Dan"]));
            let mut req =
                serde_json::json!({"ruleset": case["ruleset"], "players": players, "hands": hands});
            for key in ["start", "house_rules"] {
                if let Some(v) = case.get(key) {
                    req[key] = v.clone();
                }
            }
            (case.clone(), req)
        })
        .collect()
}

// The engine's tests' generator, one definition; not every test binary
// that includes these helpers draws random hands.
#[path = "../../engine/tests/common/mod.rs"]
mod rng;
#[allow(unused_imports)]
pub use rng::Rng;
