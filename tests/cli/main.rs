//! Runs the built `faan` binary as a user would: the readable breakdown of
//! the guides' worked examples, JSON lines over every fixture case, and the
//! ruleset list.

#[path = "../common/mod.rs"]
mod common;

mod analyze;

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

fn faan() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_faan"));
    // Scoring only: no table store in the working directory.
    c.env("FAAN_STORE", "none");
    c
}

/// A whole output against its golden file, tests/snapshots/cli__<name>.snap
/// (insta; `cargo insta review` or `INSTA_UPDATE=always` to accept a change).
/// insta ignores trailing whitespace, so the one final newline is checked here.
fn golden(name: &str, out: &str, case: &str) {
    assert!(
        out.ends_with('\n') && !out.ends_with("\n\n"),
        "{case}: one final newline: {out:?}"
    );
    // The goldens stay in tests/snapshots, beside the other tests'.
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(format!("cli__{name}"), out, case);
    });
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = faan().args(args).output().expect("run faan");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn readable_breakdown_of_the_guides_examples() {
    // (arguments, lines the output must contain)
    let cases: &[(&[&str], &[&str])] = &[
        (
            // the Wisteria Court faan chart, "A quiet hand": 4 faan, each pays 32, winner +96.
            &[
                "score",
                "234m567m345p789s22s",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
            ],
            &[
                "Total: 4 faan",
                "Base points: 16",
                "Payments: east -32  south +96  west -32  north -32",
            ],
        ),
        (
            // the Wisteria Court faan chart, "A strong hand": 5 faan, discarder 48, others 24.
            &[
                "score",
                "555p88s",
                "--meld",
                "pung:777z",
                "--meld",
                "pung:222z",
                "--meld",
                "pung:333m",
                "--flowers",
                "F1",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--win-by",
                "discard",
                "--discarder",
                "north",
            ],
            &[
                "Total: 5 faan",
                "Base points: 24",
                "Payments: east -24  south +96  west -24  north -48",
            ],
        ),
        (
            // the HKMA faan list: one suit with honours 3 + red dragon 1 + self-draw 1 = 5; 48 each.
            &[
                "score",
                "234m567m345m99m",
                "--meld",
                "pung:777z",
                "-r",
                "hkma",
                "--seat",
                "south",
            ],
            &[
                "Total: 5 faan",
                "Payments: east -48  south +144  west -48  north -48",
            ],
        ),
        (
            // hkma: small three dragons on a discard: 8 faan, the discarder pays 256.
            &[
                "score",
                "222m888p77z",
                "--meld",
                "pung:555z",
                "--meld",
                "pung:666z",
                "-r",
                "hkma",
                "--seat",
                "south",
                "--win-by",
                "discard",
                "--discarder",
                "west",
                "--win",
                "8p",
            ],
            &[
                "Total: 8 faan",
                "Payments: east +0  south +256  west -256  north +0",
            ],
        ),
        (
            // hkma-vs-sc-hk13: all chows + concealed = 2 on a discard: below sc-hk13's minimum of 3.
            &[
                "score",
                "234m567m345p789s22s",
                "-r",
                "sc-hk13",
                "--win-by",
                "discard",
                "--discarder",
                "north",
            ],
            &["Total: 2 faan", "Below the minimum by 1 faan"],
        ),
    ];
    for (args, wants) in cases {
        let (ok, out, err) = run(args);
        assert!(ok, "faan {args:?} failed: {err}");
        for w in *wants {
            assert!(out.contains(w), "faan {args:?}: want {w:?} in\n{out}");
        }
    }
}

#[test]
fn pattern_names_in_english_chinese_or_both() {
    // the Wisteria Court faan chart, "A quiet hand": all chows, self-draw, concealed, no flowers.
    let hand = [
        "score",
        "234m567m345p789s22s",
        "-r",
        "wisteria-court",
        "--seat",
        "south",
    ];
    let both = [
        ("All chows", "平糊"),
        ("Self-drawn win", "自摸"),
        ("Concealed hand", "門前清"),
        ("No flowers", "無花"),
    ];
    // (--lang, English shown, Chinese shown)
    for (lang, en, zh) in [
        (None, true, true),
        (Some("both"), true, true),
        (Some("en"), true, false),
        (Some("zh"), false, true),
    ] {
        let mut args = hand.to_vec();
        if let Some(l) = lang {
            args.extend(["--lang", l]);
        }
        let (ok, out, err) = run(&args);
        assert!(ok, "faan {args:?}: {err}");
        for (name, name_zh) in both {
            assert_eq!(
                out.contains(name),
                en,
                "--lang {lang:?}: {name:?} in\n{out}"
            );
            assert_eq!(
                out.contains(name_zh),
                zh,
                "--lang {lang:?}: {name_zh:?} in\n{out}"
            );
            if en && zh {
                let line = out.lines().find(|l| l.contains(name)).unwrap();
                assert!(
                    line.contains(name_zh) && line.trim_end().ends_with('1'),
                    "one line, both names, 1 faan: {line:?}"
                );
            }
        }
    }
}

#[test]
fn unicode_tiles_print_what_mpsz_prints() {
    // (MPSZ arguments, the same hand in Unicode tiles)
    let cases: &[(&[&str], &[&str])] = &[
        (
            &[
                "score",
                "234m567m345p789s22s",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
            ],
            &[
                "score",
                "🀈🀉🀊🀋🀌🀍🀛🀜🀝🀖🀗🀘🀑🀑",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
            ],
        ),
        (
            &[
                "score",
                "234m567m345m99m",
                "--meld",
                "pung:777z",
                "-r",
                "hkma",
                "--seat",
                "south",
            ],
            &[
                "score",
                "🀈🀉🀊 567m 🀉🀊🀋 9m🀏",
                "--meld",
                "pung:🀄🀄🀄",
                "-r",
                "hkma",
                "--seat",
                "south",
            ],
        ),
        (
            &[
                "score",
                "555p88s",
                "--meld",
                "pung:777z",
                "--meld",
                "pung:222z",
                "--meld",
                "pung:333m",
                "--flowers",
                "F1",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--win-by",
                "discard",
                "--discarder",
                "north",
            ],
            &[
                "score",
                "🀝🀝🀝🀗🀗",
                "--meld",
                "pung:🀄🀄🀄",
                "--meld",
                "pung:🀁🀁🀁",
                "--meld",
                "pung:🀉🀉🀉",
                "--flowers",
                "🀢",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--win-by",
                "discard",
                "--discarder",
                "north",
                "--win",
                "🀗",
            ],
        ),
    ];
    for (mpsz, unicode) in cases {
        let (ok, want, err) = run(mpsz);
        assert!(ok, "faan {mpsz:?}: {err}");
        let (ok, got, err) = run(unicode);
        assert!(ok, "faan {unicode:?}: {err}");
        assert_eq!(
            got, want,
            "faan {unicode:?} prints what faan {mpsz:?} prints"
        );
    }
    let (ok, _, err) = run(&["score", "🀈🀉🀊x", "-r", "hkma"]);
    assert!(!ok, "a character that is not a tile fails");
    assert!(
        err.contains("/hand/tiles: character 4 ('x') is not a tile"),
        "{err}"
    );
}

#[test]
fn bad_input_is_a_clear_error_and_a_failing_exit() {
    let (ok, _, err) = run(&["score", "22222m567m22p777z", "-r", "hkma"]);
    assert!(!ok, "five of one tile must fail");
    assert!(
        err.contains("/hand/tiles") && err.contains("2m appears 5 times"),
        "{err}"
    );
    let (ok, _, err) = run(&["score", "234m567m345p789s22s", "-r", "no-such-rules"]);
    assert!(!ok);
    assert!(err.contains("no-such-rules"), "{err}");
}

#[test]
fn json_lines_over_every_fixture_case() {
    let cases: Vec<(String, Value)> = common::fixture_cases()
        .into_iter()
        .filter(|(_, c)| c["expect"].get("error").is_none())
        .collect();
    let input: String = cases
        .iter()
        .map(|(_, c)| format!("{}\n", c["request"]))
        .collect();
    let mut child = faan()
        .args(["score", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn faan");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        cases.len(),
        "one output line per request; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for ((file, case), line) in cases.iter().zip(lines) {
        let name = format!("{file}: {}", case["name"]);
        let got: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}: {e}: {line}"));
        let want = &case["expect"];
        assert_eq!(
            got["total_faan"], want["total_faan"],
            "{name}: total_faan in {line}"
        );
        if let Some(p) = want.get("payments") {
            for seat in ["east", "south", "west", "north"] {
                assert_eq!(
                    got["payments"][seat].as_i64().unwrap_or(0),
                    p[seat].as_i64().unwrap_or(0),
                    "{name}: {seat} pays"
                );
            }
        }
    }
}

#[test]
fn rulesets_lists_every_ruleset() {
    let (ok, out, _) = run(&["rulesets"]);
    assert!(ok);
    let registry = faan::core::Registry::builtin().unwrap();
    for id in registry.ids() {
        assert!(
            out.lines().any(|l| l.starts_with(id)),
            "{id} missing from\n{out}"
        );
    }
}

/// A short night at Wisteria Court (the deal passes after every hand),
/// worked out by hand from the Wisteria Court faan chart:
/// - hand 0, Ann deals: Ben self-draws the quiet hand (all chows, concealed,
///   no flowers, self-drawn: 4 faan, B 16): each pays 32, Ben +96;
/// - hand 1, Ben deals: a draw;
/// - hand 2, Cat deals: Ann wins the same hand on Dan's discard (3 faan, B 8):
///   Dan pays 2B = 16, Ben and Cat B = 8 each, Ann +32;
/// - hand 3, Dan deals: Cat self-draws the quiet hand: each pays 32, Cat +96.
///
/// Four passes end the east round: the south round, Ann deals. Balances Ann
/// -32, Ben 56, Cat 56, Dan -80; no two cancel, so three transfers: the
/// largest debtor pays the largest creditor (Dan 56 to Ben), then Ann 32 to
/// Cat, Dan 24 to Cat.
const WISTERIA_NIGHT: &str = r#"{"ruleset": "wisteria-court", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": [
  {"result": "win", "winners": [{"player": "Ben", "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"}, "context": {"win_by": "self_draw"}}]},
  {"result": "draw"},
  {"result": "win", "winners": [{"player": "Ann", "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"}, "context": {"win_by": "discard", "discarder": "Dan"}}]},
  {"result": "win", "winners": [{"player": "Cat", "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"}, "context": {"win_by": "self_draw"}}]}
]}"#;

fn ledger_with_stdin(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = faan()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run faan");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("faan ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ledger_prints_the_night_worked_out_by_hand() {
    let path = std::env::temp_dir().join(format!("faan-ledger-{}.json", std::process::id()));
    std::fs::write(&path, WISTERIA_NIGHT).unwrap();
    let (ok, out, err) = run(&["ledger", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert!(ok, "faan ledger FILE: {err}");
    golden("ledger_wisteria_night", &out, "the Wisteria Court night");
    let (ok, stdin_out, err) = ledger_with_stdin(&["ledger", "-"], WISTERIA_NIGHT);
    assert!(ok, "faan ledger -: {err}");
    assert_eq!(
        stdin_out, out,
        "the Wisteria Court night, from standard input, as from a file"
    );
}

#[test]
fn ledger_json_is_the_api_answer() {
    let (ok, out, err) = ledger_with_stdin(&["ledger", "--json", "-"], WISTERIA_NIGHT);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON document");
    // The answer POST /v1/ledger gives, read here through the same service.
    let service = faan::service::Service::uncached(faan::core::Registry::builtin().unwrap());
    let api: Value =
        serde_json::from_slice(&service.ledger(WISTERIA_NIGHT.as_bytes()).unwrap()).unwrap();
    assert_eq!(v, api, "--json prints the API's answer");
    assert_eq!(
        v["transfers"],
        serde_json::json!([{"from": "Dan", "to": "Ben", "amount": 56}, {"from": "Ann", "to": "Cat", "amount": 32}, {"from": "Dan", "to": "Cat", "amount": 24}]),
        "the night's transfers"
    );
}

#[test]
fn a_bad_ledger_is_a_problem_on_stderr() {
    let bad = WISTERIA_NIGHT.replace(r#""discarder": "Dan""#, r#""discarder": "Ann""#);
    let (ok, out, err) = ledger_with_stdin(&["ledger", "-"], &bad);
    assert!(
        !ok && out.is_empty(),
        "a failed ledger prints no table: {out}"
    );
    assert!(
        err.contains("/hands/2/winners/0/context/discarder"),
        "the winner named as discarder, at its pointer: {err}"
    );
}

/// `--ruleset FILE`: a ruleset document in JSON or TOML goes through the
/// same service call as an id. HKMA's own file is HKMA; a document adding
/// all simples scores it (worked by hand: all chows, self-draw, concealed
/// hand, all simples 1 each = 4 faan; half-spicy B = 16, each pays 32); a
/// broken one is the API's problem, pointing under /ruleset.
#[test]
fn ruleset_from_a_file() {
    let dir = std::env::temp_dir().join(format!("faan-cli-ruleset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hand = ["score", "234m567m678s22s345p", "--seat", "south", "-r"];
    let toml = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/hkma.toml");
    let (ok_id, by_id, _) = run(&[&hand[..], &["hkma"]].concat());
    let (ok_file, by_file, err) = run(&[&hand[..], &[toml]].concat());
    assert!(ok_id && ok_file, "{err}");
    assert_eq!(by_file, by_id, "hkma.toml is hkma");
    assert!(by_id.contains("Total: 3 faan"), "{by_id}");

    let json = dir.join("simples.json");
    std::fs::write(
        &json,
        r#"{"extends": "hkma", "id": "hkma-simples", "patterns": {"all_simples": {"faan": 1}}}"#,
    )
    .unwrap();
    let (ok, out, err) = run(&[&hand[..], &[json.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    for want in [
        "(hkma-simples)",
        "All simples",
        "Total: 4 faan",
        "Payments: east -32  south +96  west -32  north -32",
    ] {
        assert!(out.contains(want), "simples.json: {want:?} in {out}");
    }

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "extends = \"hkma\"\nlimit = 0\n").unwrap();
    let (ok, _, err) = run(&[&hand[..], &[bad.to_str().unwrap()]].concat());
    assert!(!ok, "bad.toml must fail");
    assert!(err.contains("/ruleset/limit"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The rarer context flags, each on a hand worked out by hand under
/// wisteria-court (South's seat, East round; half-doubling points: B = 8 at
/// 3 faan, 24 at 5, 128 at the limit; a discard: the discarder 2B, the
/// others B; a self-draw: 2B each).
#[test]
fn rarer_context_flags_score_as_worked_by_hand() {
    // (case, arguments, the snapshot holding the whole output under
    // tests/snapshots/cli__<name>.snap; the figures are the ones above)
    let cases: &[(&str, &[&str], &str)] = &[
        (
            // Thirteen orphans robbed from West's concealed kong of 1m: the
            // limit, 10, paid as a discard by West.
            "--robbed-kong concealed",
            &[
                "score",
                "199m19p19s1234567z",
                "--win",
                "1m",
                "--flowers",
                "F1",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--win-by",
                "robbing-kong",
                "--discarder",
                "west",
                "--robbed-kong",
                "concealed",
                "--lang",
                "en",
            ],
            "context_flags_robbed_kong_concealed",
        ),
        (
            // The other three 5m in sight: all chows 1 + concealed hand 1 +
            // last of its kind 1 (added by a house rule) = 3 on West's discard.
            "--last-of-its-kind",
            &[
                "score",
                "123m456p789s345m99s",
                "--win",
                "5m",
                "--flowers",
                "F1",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--win-by",
                "discard",
                "--discarder",
                "west",
                "--last-of-its-kind",
                "--house-rules",
                r#"{"patterns":{"last_of_its_kind":1}}"#,
                "--lang",
                "en",
            ],
            "context_flags_last_of_its_kind",
        ),
        (
            // South wins on West's discard before a draw of its own: human
            // hand added as a limit, 10 faan, 128 base points (West 2B = 256,
            // East and North B = 128, South +512).
            "--first-go-around",
            &[
                "score",
                "123m456p789s345m99s",
                "--win",
                "5m",
                "--flowers",
                "F1",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--win-by",
                "discard",
                "--discarder",
                "west",
                "--first-go-around",
                "--house-rules",
                r#"{"patterns":{"human_hand":"limit"}}"#,
                "--lang",
                "en",
            ],
            "context_flags_first_go_around",
        ),
        (
            // F1 then F3 drawn, the second replacement wins: all chows 1 +
            // self-draw 1 + concealed hand 1 + double flower replacement 2 = 5.
            "--first-replacement flower",
            &[
                "score",
                "123m456p789s345m99s",
                "--win",
                "9s",
                "--flowers",
                "F1,F3",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--replacement",
                "flower",
                "--first-replacement",
                "flower",
                "--house-rules",
                r#"{"patterns":{"double_flower_replacement":2}}"#,
                "--lang",
                "en",
            ],
            "context_flags_first_replacement_flower",
        ),
        (
            // The kong's replacement was F1, whose replacement wins: self-draw
            // 1 + kong then flower replacement 2 = 3 (the exposed kong breaks
            // all chows and the concealed hand).
            "--first-replacement kong",
            &[
                "score",
                "123m456p345m99s",
                "--meld",
                "kong:7777s",
                "--win",
                "9s",
                "--flowers",
                "F1",
                "-r",
                "wisteria-court",
                "--seat",
                "south",
                "--replacement",
                "flower",
                "--first-replacement",
                "kong",
                "--house-rules",
                r#"{"patterns":{"kong_flower_replacement":2}}"#,
                "--lang",
                "en",
            ],
            "context_flags_first_replacement_kong",
        ),
    ];
    for (case, args, snapshot) in cases {
        let (ok, out, err) = run(args);
        assert!(ok, "{case}: faan {args:?} failed: {err}");
        golden(snapshot, &out, case);
    }
    // Near misses: each flag changes the answer.
    // Robbing a concealed kong of 1m for an ordinary hand is no win at all;
    // robbing an added one scores all chows 1 + concealed 1 + robbing 1 = 3.
    let plain = [
        "score",
        "123m456p789s345m99s",
        "--win",
        "1m",
        "--flowers",
        "F1",
        "-r",
        "wisteria-court",
        "--seat",
        "south",
        "--win-by",
        "robbing-kong",
        "--discarder",
        "west",
    ];
    let (ok, out, err) = run(&[&plain[..], &["--robbed-kong", "concealed"]].concat());
    assert!(
        !ok,
        "--robbed-kong concealed on an ordinary hand fails: {out}"
    );
    assert!(
        err.contains("a concealed kong may be robbed only to complete thirteen orphans"),
        "--robbed-kong concealed: {err}"
    );
    let (ok, out, err) = run(&[&plain[..], &["--robbed-kong", "added"]].concat());
    assert!(ok, "--robbed-kong added: {err}");
    assert!(
        out.contains("Total: 3 faan")
            && out.contains("Payments: east -8  south +32  west -16  north -8"),
        "--robbed-kong added scores as usual:\n{out}"
    );
    // Without --last-of-its-kind the same hand scores 2.
    let (ok, out, err) = run(&[
        "score",
        "123m456p789s345m99s",
        "--win",
        "5m",
        "--flowers",
        "F1",
        "-r",
        "wisteria-court",
        "--seat",
        "south",
        "--win-by",
        "discard",
        "--discarder",
        "west",
        "--house-rules",
        r#"{"patterns":{"last_of_its_kind":1}}"#,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Total: 2 faan"),
        "without --last-of-its-kind:\n{out}"
    );
    // A second flower replacement needs two bonus tiles.
    let (ok, _, err) = run(&[
        "score",
        "123m456p789s345m99s",
        "--win",
        "9s",
        "--flowers",
        "F1",
        "-r",
        "wisteria-court",
        "--seat",
        "south",
        "--replacement",
        "flower",
        "--first-replacement",
        "flower",
    ]);
    assert!(!ok, "--first-replacement flower with one flower fails");
    assert!(
        err.contains("/context/first_replacement") && err.contains("found 1"),
        "--first-replacement flower: {err}"
    );
}

/// Every context field the API takes has a `faan score` flag (its name with
/// dashes; the winds are `--seat` and `--round`).
#[test]
fn every_context_field_has_a_flag() {
    let spec: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json"),
        )
        .expect("openapi/openapi.json"),
    )
    .expect("JSON");
    let fields = spec["components"]["schemas"]["ContextDto"]["properties"]
        .as_object()
        .expect("ContextDto's properties");
    assert!(fields.len() >= 14, "context fields: {}", fields.len());
    let (ok, help, err) = run(&["score", "--help"]);
    assert!(ok, "{err}");
    for field in fields.keys() {
        let flag = match field.as_str() {
            "seat_wind" => "--seat".to_string(),
            "round_wind" => "--round".to_string(),
            f => format!("--{}", f.replace('_', "-")),
        };
        assert!(
            help.lines()
                .any(|l| l.trim_start().split([' ', ',']).any(|w| w == flag)),
            "context field {field}: no {flag} in faan score --help:\n{help}"
        );
    }
}

/// `faan ledger` reads declared wins and changes of rules and prints them;
/// `--csv` prints the night as CSV. hkma: 家豪 (South) declares 5 faan on
/// Grandma's discard (4B = 96, B 24); the stake becomes 1; 阿美, now North
/// under 家豪's deal, declares 3 self-drawn (2B = 16 each, HK$16).
#[test]
fn ledger_reads_declared_wins_and_changes_of_rules() {
    let dir = std::env::temp_dir().join(format!("faan-cli-night-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("night.json");
    std::fs::write(
        &file,
        serde_json::json!({"ruleset": "hkma", "players": ["阿美", "家豪", "Grandma", "Ka-ho"], "hands": [
            {"result": "win", "winners": [{"player": "家豪", "declared": {"faan": 5}, "context": {"win_by": "discard", "discarder": "Grandma"}}]},
            {"result": "rules", "house_rules": {"stake": 1}},
            {"result": "win", "winners": [{"player": "阿美", "declared": {"faan": 3}, "context": {"win_by": "self_draw"}}]}
        ]})
        .to_string(),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (ok, out, err) = run(&["ledger", path]);
    assert!(ok, "{err}");
    for want in [
        "win 家豪 (declared)",
        "rules {\"stake\":1}",
        "win 阿美 (declared)",
        "家豪: 1 won, 0 self-drawn, 1 on a discard, dealt in 0, 0 false win(s), biggest 5 faan (hand 0)",
        "Grandma: 0 won, 0 self-drawn, 0 on a discard, dealt in 1, 0 false win(s), biggest -",
        "House rules in force: {\"stake\":1}",
    ] {
        assert!(out.contains(want), "{want:?} in:\n{out}");
    }
    let out = faan().args(["ledger", "--csv", path]).output().unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        csv,
        "\u{feff}hand,game,round,dealer,result,winners,win_by,discarder,faan,阿美,家豪,Grandma,Ka-ho,阿美 money,家豪 money,Grandma money,Ka-ho money\r\n\
         1,1,east,阿美,win,家豪,discard,Grandma,5,0,96,-96,0,,,,\r\n\
         ,1,east,家豪,rules: stake 1,,,,,,,,,,,,\r\n\
         2,1,east,家豪,win,阿美,self draw,,3,48,-16,-16,-16,48.0,-16.0,-16.0,-16.0\r\n\
         total,,,,,,,,,48,80,-112,-16,48.0,-16.0,-16.0,-16.0\r\n\
         settle up,from,to,amount,,,,,,,,,,,,,\r\n\
         ,家豪,阿美,16.0,,,,,,,,,,,,,\r\n\
         ,Grandma,阿美,16.0,,,,,,,,,,,,,\r\n\
         ,Ka-ho,阿美,16.0,,,,,,,,,,,,,\r\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Output piped into a reader that stops early (`faan openapi | head -1`):
/// the command ends by SIGPIPE, as other tools do, with no panic on stderr.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    let mut child = faan()
        .arg("openapi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "{\n");
    // The pipe's reader is gone; the spec is far larger than its buffer.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
