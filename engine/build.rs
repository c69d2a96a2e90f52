//! Embeds every `rulesets/*.toml` file in the binary.
use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=../rulesets");
    let mut files: Vec<String> = fs::read_dir("../rulesets")
        .expect("rulesets/ directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for f in &files {
        let path = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap())
            .join("../rulesets")
            .join(f);
        println!("cargo:rerun-if-changed={}", path.display());
        out.push_str(&format!(
            "    ({f:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push(']');
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("rulesets.rs"),
        out,
    )
    .unwrap();
}
