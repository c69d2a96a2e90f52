//! Runs the built `faan` binary as a user would: the readable breakdown of
//! the guides' worked examples, JSON lines over every fixture case, and the
//! ruleset list.

mod common;

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

fn faan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_faan"))
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
            // wisteria-court-faan-chart.txt, "A quiet hand": 4 faan, each pays 32, winner +96.
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
            // wisteria-court-faan-chart.txt, "A strong hand": 5 faan, discarder 48, others 24.
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
            // hkma-faan-list-editable-table.txt: one suit with honours 3 + red dragon 1 + self-draw 1 = 5; 48 each.
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
    // wisteria-court-faan-chart.txt, "A quiet hand": all chows, self-draw, concealed, no flowers.
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
