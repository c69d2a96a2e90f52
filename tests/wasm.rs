//! The WebAssembly module against the server: the corpus
//! (`bench/corpus.jsonl`) and 10,000 seeded random requests (valid hands
//! mutated, wrong fields, bad JSON, unknown rulesets and paths, house rules,
//! settle, ledger, analyze and waits bodies), each answered by the module in
//! Node (`web/pkg/test/differential.mjs`) and by an in-process server over
//! loopback. Every status and body must be the same, byte for byte.

use faan::config::ServeArgs;
use faan::startup::Application;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

struct Req {
    method: &'static str,
    path: String,
    body: String,
}

/// xorshift64*: the same requests on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const RULESETS: [&str; 13] = [
    "hkma",
    "wisteria-court",
    "dragon-society",
    "hefen-new-style",
    "l2",
    "liu",
    "mjb",
    "mjtime",
    "sc-hk13",
    "sc-hk13-half-laak",
    "wikipedia",
    "no-such-ruleset",
    "HKMA",
];
const WINDS: [&str; 5] = ["east", "south", "west", "north", "up"];
const TILE_CHARS: &[u8] = b"0123456789mpsz";

fn tile(rng: &mut Rng) -> String {
    let suit = *rng.pick(b"mpsz") as char;
    let n = if suit == 'z' {
        1 + rng.below(8)
    } else {
        rng.below(10)
    };
    format!("{n}{suit}")
}

/// `tiles` with one character dropped, added or replaced.
fn mutate_tiles(rng: &mut Rng, tiles: &str) -> String {
    let mut b = tiles.as_bytes().to_vec();
    let at = rng.below(b.len() + 1);
    match rng.below(3) {
        0 if at < b.len() => {
            b.remove(at);
        }
        1 => b.insert(at, *rng.pick(TILE_CHARS)),
        _ if at < b.len() => b[at] = *rng.pick(TILE_CHARS),
        _ => b.push(b'x'),
    }
    String::from_utf8(b).unwrap()
}

/// A score request from the corpus, changed in one or two ways.
fn mutate_score(rng: &mut Rng, base: &Value) -> Value {
    let mut v = base.clone();
    for _ in 0..1 + rng.below(2) {
        // A hand that is no longer an object takes no more changes.
        if !v["hand"].is_object() {
            break;
        }
        match rng.below(12) {
            0 => v["ruleset"] = json!(rng.pick(&RULESETS)),
            1 => {
                let t = v["hand"]["tiles"].as_str().unwrap_or("").to_string();
                v["hand"]["tiles"] = json!(mutate_tiles(rng, &t));
            }
            2 => v["hand"]["winning_tile"] = json!(tile(rng)),
            3 => {
                v["context"]["win_by"] =
                    json!(rng.pick(&["self_draw", "discard", "robbing_kong", "bogus"]))
            }
            4 => v["context"]["seat_wind"] = json!(rng.pick(&WINDS)),
            5 => {
                if let Some(c) = v["context"].as_object_mut() {
                    c.remove("discarder");
                }
            }
            6 => {
                v["house_rules"] = json!({"min_faan": *rng.pick(&[json!(0), json!(1), json!(3), json!(-1), json!("x"), json!(99)])})
            }
            7 => {
                v["house_rules"] = json!({"patterns": {
                    *rng.pick(&["all_simples", "seven_pairs", "no_such_pattern", "small_four_winds"]): rng.below(15)
                }})
            }
            8 => v["extra_field"] = json!(1),
            9 => v["hand"] = json!(rng.below(9)),
            10 => v["hand"]["flowers"] = json!([rng.pick(&["F1", "F5", "S2", "F9", "X"])]),
            _ => {
                v["ruleset"] = json!({"extends": rng.pick(&["hkma", "nope"]), "id": "house",
                    "patterns": {"all_simples": {"faan": rng.below(4)}}})
            }
        }
    }
    v
}

/// Cuts JSON text at a character boundary, or adds to it.
fn break_json(rng: &mut Rng, text: &str) -> String {
    match rng.below(4) {
        0 => {
            let mut at = rng.below(text.len().max(1));
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text[..at].to_string()
        }
        1 => format!("{text} x"),
        2 => format!("{}{text}", "[".repeat(40)),
        _ => String::new(),
    }
}

fn thirteen(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(h) = v["hand"].as_object_mut() {
        h.remove("winning_tile");
    }
    if let Some(c) = v["context"].as_object_mut() {
        c.remove("win_by");
        c.remove("discarder");
    }
    v
}

fn post(path: &str, v: &Value) -> Req {
    Req {
        method: "POST",
        path: path.to_string(),
        body: v.to_string(),
    }
}

fn random_request(rng: &mut Rng, corpus: &[Value]) -> Req {
    let base = rng.pick(corpus);
    match rng.below(100) {
        0..=39 => post("/v1/score", &mutate_score(rng, base)),
        40..=47 => {
            let text = mutate_score(rng, base).to_string();
            Req {
                method: "POST",
                path: rng
                    .pick(&["/v1/score", "/v1/settle", "/v1/ledger", "/v1/waits"])
                    .to_string(),
                body: break_json(rng, &text),
            }
        }
        48..=55 => {
            let winners: Vec<Value> = (0..1 + rng.below(3))
                .map(|_| {
                    let mut w = {
                        let b = rng.pick(corpus);
                        mutate_score(rng, b)
                    };
                    w["context"]["win_by"] = json!("discard");
                    w["context"]["discarder"] = json!("north");
                    w["context"]["seat_wind"] = json!(rng.pick(&["east", "south", "west"]));
                    json!({"hand": w["hand"], "context": w["context"]})
                })
                .collect();
            let mut v = json!({"ruleset": base["ruleset"], "winners": winners});
            if rng.chance(30) {
                v["house_rules"] =
                    json!({"multiple_winners": rng.pick(&["head_bump", "all_win", "x"])});
            }
            post("/v1/settle", &v)
        }
        56..=63 => {
            let hands: Vec<Value> = (0..1 + rng.below(5))
                .map(|_| match rng.below(5) {
                    0 => json!({"result": "draw"}),
                    1 => json!({"result": "false_win", "offender": rng.pick(&["Ann", "Dan", "Zed"])}),
                    _ => {
                        let w = {
 let b = rng.pick(corpus);
 mutate_score(rng, b)
 };
                        let ctx = if rng.chance(50) {
                            json!({"win_by": "self_draw"})
                        } else {
                            json!({"win_by": "discard", "discarder": rng.pick(&["Ann", "Cat", "Ben"])})
                        };
                        json!({"result": "win", "winners": [{"player": rng.pick(&["Ben", "Dan"]),
                            "hand": w["hand"], "context": ctx}]})
                    }
                })
                .collect();
            let mut v = json!({"ruleset": base["ruleset"], "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands});
            if rng.chance(20) {
                v["players"] = json!(["Ann", "Ann", "Cat"]);
            }
            if rng.chance(30) {
                v["start"] = json!({"dealer": rng.pick(&["Ann", "Cat", "Eve"]), "round_wind": rng.pick(&WINDS)});
            }
            post("/v1/ledger", &v)
        }
        64..=71 => {
            let mut v = thirteen(base);
            if rng.chance(50) {
                v = thirteen(&mutate_score(rng, &v));
            }
            post("/v1/waits", &v)
        }
        72..=75 => {
            // Analysis: 13 tiles (the waiting hand) or 14 (which discard).
            let mut v = if rng.chance(50) {
                thirteen(base)
            } else {
                thirteen(&mutate_score(rng, base))
            };
            if rng.chance(40) && v["hand"].is_object() {
                let t = v["hand"]["tiles"].as_str().unwrap_or("").to_string();
                v["hand"]["tiles"] = json!(format!("{t}{}", tile(rng)));
            }
            if rng.chance(10) {
                v["chances"] = json!({"draws": rng.pick(&[0, 1, 2, 31])});
            }
            post("/v1/analyze", &v)
        }
        76..=79 => post(
            "/v1/penalties/false-win",
            &json!({"ruleset": rng.pick(&RULESETS), "offender": rng.pick(&WINDS)}),
        ),
        80..=83 => {
            let items: Vec<Value> = (0..1 + rng.below(4))
                .map(|_| {
                    let b = rng.pick(corpus);
                    mutate_score(rng, b)
                })
                .collect();
            post("/v1/score/batch", &json!({ "requests": items }))
        }
        84..=87 => {
            let rulesets = if rng.chance(50) {
                json!("all")
            } else {
                json!([rng.pick(&RULESETS), rng.pick(&RULESETS)])
            };
            let v = json!({"rulesets": rulesets, "hand": base["hand"], "context": base["context"]});
            post("/v1/compare", &v)
        }
        88..=93 => Req {
            method: ["GET", "GET", "HEAD", "POST", "DELETE"][rng.below(5)],
            path: rng
                .pick(&[
                    "/v1/rulesets",
                    "/v1/patterns",
                    "/v1/rulesets/schema",
                    "/v1/rulesets/hkma",
                    "/v1/rulesets/wisteria-court",
                    "/v1/rulesets/no-such-ruleset",
                    "/v1/rulesets/hk%6Da",
                    "/v1/rulesets/a%2Fb",
                    "/v1/rulesets/hkma?lang=zh",
                    "/v1/rulesets/validate",
                    "/v1/score",
                ])
                .to_string(),
            body: String::new(),
        },
        94..=96 => Req {
            method: ["GET", "POST"][rng.below(2)],
            path: rng
                .pick(&[
                    "/v1/scores",
                    "/v1/score/",
                    "/v2/score",
                    "/v1/rulesets/",
                    "/v1/%73core",
                    "/v1/rulesets/hkma/x",
                ])
                .to_string(),
            body: base.to_string(),
        },
        97 => post(
            "/v1/rulesets/validate",
            &json!({"ruleset": {"extends": "hkma", "id": "x", "patterns": {"all_simples": {"faan": rng.below(3)}}}}),
        ),
        _ => Req {
            method: "POST",
            path: rng
                .pick(&["/v1/score", "/v1/waits", "/v1/compare"])
                .to_string(),
            // Past the body limit: 64 KiB for single requests, 1 MiB for compare.
            body: " ".repeat(64 * 1024 + 1),
        },
    }
}

fn requests() -> Vec<Req> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("bench/corpus.jsonl")).unwrap();
    let corpus: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out: Vec<Req> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Req {
            method: "POST",
            path: "/v1/score".into(),
            body: l.to_string(),
        })
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..10_000 {
        out.push(random_request(&mut rng, &corpus));
    }
    out
}

/// The module's answers, from one Node process.
fn module_answers(reqs: &[Req]) -> Vec<(u16, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("node")
        .arg(root.join("web/pkg/test/differential.mjs"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (apt-get install nodejs)");
    let mut input = String::new();
    for r in reqs {
        input.push_str(&json!({"method": r.method, "path": r.path, "body": r.body}).to_string());
        input.push('\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "node failed: {:?}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["status"].as_u64().unwrap() as u16,
                v["body"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs node and the module (web/pkg/build.sh)"]
async fn the_module_answers_every_request_as_the_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(
        root.join("web/pkg/faan.wasm").is_file(),
        "web/pkg/faan.wasm is missing: run web/pkg/build.sh"
    );
    let reqs = std::sync::Arc::new(requests());
    let for_node = reqs.clone();
    let module = tokio::task::spawn_blocking(move || module_answers(&for_node));

    let mut args = ServeArgs::for_tests();
    args.workers = Some(2);
    let app = Application::build(&args).expect("the server builds");
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();
    let server: Vec<(u16, String)> = futures_util::stream::iter(reqs.iter())
        .map(|r| {
            let req = client
                .request(r.method.parse().unwrap(), format!("{base}{}", r.path))
                .header("content-type", "application/json")
                .body(r.body.clone());
            async move {
                let res = req.send().await.expect("request sent");
                let status = res.status().as_u16();
                let bytes = res.bytes().await.expect("body read");
                (status, String::from_utf8_lossy(&bytes).into_owned())
            }
        })
        .buffered(4)
        .collect()
        .await;
    let module = module.await.unwrap();
    drop(handle.stop(false));

    assert_eq!(
        module.len(),
        reqs.len(),
        "the module answered every request"
    );
    let mut failures = 0;
    let mut statuses = std::collections::BTreeMap::new();
    for ((r, s), m) in reqs.iter().zip(&server).zip(&module) {
        *statuses.entry(s.0).or_insert(0) += 1;
        if s != m {
            failures += 1;
            if failures <= 5 {
                let cut = |t: &str| t.chars().take(600).collect::<String>();
                eprintln!(
                    "case: {} {} {}\n  server: {} {}\n  module: {} {}",
                    r.method,
                    r.path,
                    cut(&r.body),
                    s.0,
                    cut(&s.1),
                    m.0,
                    cut(&m.1)
                );
            }
        }
    }
    eprintln!("{} requests, statuses {statuses:?}", reqs.len());
    assert_eq!(failures, 0, "answers that differ (first five above)");
}
