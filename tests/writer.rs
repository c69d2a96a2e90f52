//! The production writer of a score result (`service::render`, hand-written
//! for speed: bench/load.md) against serde's rendering of the schema type
//! `api::ScoreResponse`: byte for byte, on every fixture request and every
//! corpus hand, through the pipeline every entry point calls.

mod common;

use faan::api::json::parse;
use faan::api::ScoreRequest;
use faan::core::Registry;
use faan::service::Service;

fn check(service: &Service, case: &str, body: &[u8]) -> bool {
    let Ok(req) = parse::<ScoreRequest>(body) else {
        return false;
    };
    let Ok(evaluated) = service.evaluate(&req) else {
        assert!(
            service.score_body(body).is_err(),
            "case {case}: evaluate refuses what the pipeline scores"
        );
        return false;
    };
    let (written, _) = service
        .score_body(body)
        .unwrap_or_else(|e| panic!("case {case}: the pipeline refuses what evaluate scores: {e}"));
    let schema = serde_json::to_string(&evaluated.response()).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&written),
        schema,
        "case {case}: body bytes"
    );
    true
}

#[test]
fn the_writer_writes_what_serde_writes_for_every_fixture_and_corpus_hand() {
    let service = Service::uncached(Registry::builtin().unwrap());
    let mut scored = 0;
    for (file, case) in common::fixture_cases() {
        let name = format!("{file}: {}", case["name"]);
        scored += usize::from(check(
            &service,
            &name,
            case["request"].to_string().as_bytes(),
        ));
    }
    assert!(scored >= 100, "only {scored} fixture requests scored");
    let corpus = include_str!("../bench/corpus.jsonl");
    let mut corpus_scored = 0;
    for (i, line) in corpus.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        corpus_scored += usize::from(check(
            &service,
            &format!("corpus line {}", i + 1),
            line.as_bytes(),
        ));
    }
    assert!(
        corpus_scored >= 2000,
        "only {corpus_scored} corpus hands scored"
    );
}
