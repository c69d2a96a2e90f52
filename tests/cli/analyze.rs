//! `faan analyze`: the discard table, its JSON and its problems, each what
//! the endpoint answers.

use super::*;

/// 123m 456m 78p 55s 222z 9s, seat south, under hkma: throwing 9s leaves
/// it ready on 6p/9p (4 unseen each: 8). Worked by hand: concealed hand 1
/// and seat wind pung 1 make 2 faan on a discard, below hkma's 3;
/// self-drawn, 3, so each wait is `3+` (meets the minimum only self-drawn). The
/// other discards leave it one from ready; 1m keeps 1m, 4m, 7m, 6p, 9p
/// (3 + 3 + 4 + 4 + 4 = 18). Win chances and expected points are the
/// endpoint's (checked against the JSON of POST /v1/analyze: 9s win[11]
/// 0.6524, expected 31.31; 1m 0.4694, 22.53).
const ANALYZE_14_ARGS: &[&str] = &[
    "analyze",
    "123m456m78p55s2z2z2z9s",
    "--seat-wind",
    "south",
    "--seen",
    "1z1z9s",
    "--draws",
    "12",
];

#[test]
fn analyze_prints_the_discard_table_worked_out_by_hand() {
    let (ok, out, err) = run(ANALYZE_14_ARGS);
    assert!(ok, "{err}");
    golden("analyze_14_tiles", &out, "the 14-tile discard table");
}

#[test]
fn analyze_json_is_what_the_endpoint_answers() {
    let mut args = ANALYZE_14_ARGS.to_vec();
    args.push("--json");
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    let service = faan::service::Service::uncached(faan::core::Registry::builtin().unwrap());
    let body = br#"{"ruleset":"hkma","hand":{"tiles":"123m456m78p55s2z2z2z9s"},"context":{"seat_wind":"south","round_wind":"east"},"seen":"1z1z9s","chances":{"draws":12}}"#;
    let answer = service.analyze(body).unwrap();
    assert_eq!(out, format!("{}\n", String::from_utf8(answer).unwrap()));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["discards"][0]["tile"], "9s");
    assert_eq!(v["discards"][0]["acceptance_count"], 8);
}

/// `--hand-changes` is the endpoint's `chances.hand_changes`, and a
/// discard's chances only grow with it: the player may still throw every
/// draw back, as without.
#[test]
fn analyze_with_hand_changes_is_the_endpoints_and_no_worse() {
    let mut args = ANALYZE_14_ARGS.to_vec();
    args.extend(["--hand-changes", "--json"]);
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    let service = faan::service::Service::uncached(faan::core::Registry::builtin().unwrap());
    let body = br#"{"ruleset":"hkma","hand":{"tiles":"123m456m78p55s2z2z2z9s"},"context":{"seat_wind":"south","round_wind":"east"},"seen":"1z1z9s","chances":{"draws":12,"hand_changes":true}}"#;
    let answer = service.analyze(body).unwrap();
    assert_eq!(out, format!("{}\n", String::from_utf8(answer).unwrap()));
    let on: Value = serde_json::from_str(&out).unwrap();
    let mut args = ANALYZE_14_ARGS.to_vec();
    args.push("--json");
    let (_, out, _) = run(&args);
    let off: Value = serde_json::from_str(&out).unwrap();
    let by_tile = |v: &Value, t: &str| -> (f64, f64) {
        let d = v["discards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["tile"] == t)
            .unwrap()
            .clone();
        (
            d["chances"]["win"][11].as_f64().unwrap(),
            d["chances"]["expected_points"].as_f64().unwrap(),
        )
    };
    for d in off["discards"].as_array().unwrap() {
        let t = d["tile"].as_str().unwrap();
        let (_, e0) = by_tile(&off, t);
        let (w1, e1) = by_tile(&on, t);
        assert!(e1 >= e0 - 1e-9, "{t}: expected {e1} < {e0}");
        assert!((0.0..=1.0).contains(&w1), "{t}: win {w1}");
    }
}

#[test]
fn analyze_a_thirteen_tile_hand_shows_acceptance_and_waits() {
    // The hand above after throwing 9s: ready on 6p/9p, 2 faan on a
    // discard (below the minimum), 3 self-drawn.
    let (ok, out, err) = run(&["analyze", "123m456m78p55s2z2z2z", "--seat", "south"]);
    assert!(ok, "{err}");
    golden("analyze_13_tiles", &out, "the 13-tile waits");
    // Thirteen orphans on its thirteen-sided wait, self-drawn only: 39
    // winning tiles of 123 unseen, so 1 - C(84, 5) / C(123, 5) = 85.7%
    // within 5 draws (the closed form).
    let (ok, out, err) = run(&[
        "analyze",
        "19m19p19s1234567z",
        "--draws",
        "5",
        "--self-draw-only",
    ]);
    assert!(ok, "{err}");
    let p = 1.0
        - (0..5)
            .map(|i| (84 - i) as f64 / (123 - i) as f64)
            .product::<f64>();
    assert_eq!(format!("{:.1}%", p * 100.0), "85.7%");
    assert!(
        out.contains("有效牌 Acceptance: 39 tiles unseen: 1m×3 9m×3 1p×3"),
        "{out}"
    );
    assert!(
        out.contains("食糊機會 Win chance within 5 draws: 85.7% (聽牌 ready: 100.0%)"),
        "{out}"
    );
}

#[test]
fn analyze_bad_input_is_the_endpoints_problem() {
    // 12 tiles: neither waiting for a draw nor about to discard.
    let (ok, out, err) = run(&["analyze", "123m456m78p55s2z2z"]);
    assert!(!ok);
    assert_eq!(out, "");
    assert!(
        err.contains("error: The request breaks a rule (422)")
            && err.contains("/hand/tiles: expected 13 concealed tiles (waiting for a draw) or 14 (about to discard) with 0 declared meld(s), each meld counting as three, got 12"),
        "{err}"
    );
    let (ok, _, err) = run(&["analyze", "123m456m78p55s2z2z2z", "--draws", "31"]);
    assert!(!ok);
    assert!(
        err.contains(
            "/chances/draws: draws is how many more tiles the player will draw: 1 to 30, got 31"
        ),
        "{err}"
    );
    // Five 1z in sight: four in `seen`, one in the hand.
    let (ok, _, err) = run(&["analyze", "123m456m78p55s1z2z2z", "--seen", "1z1z1z1z"]);
    assert!(!ok);
    assert!(err.contains("/seen"), "{err}");
    let (ok, _, err) = run(&["analyze", "123m456m78p55s2z2z2z", "--meld", "triple:777z"]);
    assert!(!ok);
    assert!(
        err.contains("--meld triple:777z: unknown kind \"triple\" (chow, pung or kong)"),
        "{err}"
    );
}
