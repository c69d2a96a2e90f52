//! Runs saved fuzz inputs through the targets without libFuzzer (stable
//! toolchain, no instrumentation), or, as a last-resort fuzzer, random inputs.
//!
//! ```text
//! cargo run --release --example replay -- TARGET FILE_OR_DIR...   # replay inputs
//! cargo run --release --example replay -- TARGET --random SECONDS [SEED]
//! ```
//! TARGET is `mpsz`, `score_core` or `score_json`. A panic is reported with the input's
//! path and the process exits 1 after all inputs are run.

use std::panic;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn target(name: &str) -> fn(&[u8]) {
    match name {
        "mpsz" => faan_fuzz::mpsz,
        "score_core" => faan_fuzz::score_core,
        "score_json" => faan_fuzz::score_json,
        other => {
            eprintln!("unknown target {other}: mpsz, score_core or score_json");
            std::process::exit(2)
        }
    }
}

fn files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else {
        out.push(p.to_path_buf());
    }
}

/// xorshift64*: deterministic random bytes for `--random`.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: replay TARGET FILE_OR_DIR... | replay TARGET --random SECONDS [SEED]");
        std::process::exit(2);
    }
    let run = target(&args[0]);
    if args[1] == "--random" {
        let secs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
        let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
        let mut rng = Rng(seed | 1);
        let end = Instant::now() + Duration::from_secs(secs);
        let mut n = 0u64;
        while Instant::now() < end {
            for _ in 0..1000 {
                let len = (rng.next() % 256) as usize;
                let data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                if panic::catch_unwind(|| run(&data)).is_err() {
                    let path = format!("crash-random-{seed}-{n}");
                    std::fs::write(&path, &data).expect("write crash input");
                    eprintln!("panic on input saved as {path}");
                    std::process::exit(1);
                }
                n += 1;
            }
        }
        eprintln!("{n} random inputs, no panic");
        return;
    }
    let mut inputs = Vec::new();
    for a in &args[1..] {
        files(Path::new(a), &mut inputs);
    }
    let mut failed = 0;
    for p in &inputs {
        let data = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if panic::catch_unwind(|| run(&data)).is_err() {
            eprintln!("FAIL {}", p.display());
            if args[0] == "score_core" {
                eprintln!("  decoded: {:#?}", faan_fuzz::decode(&data));
            }
            failed += 1;
        }
    }
    eprintln!("{} inputs, {failed} failed", inputs.len());
    if failed > 0 {
        std::process::exit(1);
    }
}
