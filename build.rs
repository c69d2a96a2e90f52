//! Embeds `web/pkg/faan.wasm` (the engine as WebAssembly, built by
//! `web/pkg/build.sh`, not committed) when it exists, so the server serves
//! it at `/pkg/faan.wasm`; without it that path is a 404.
use std::{env, fs, path::Path};

fn main() {
    // The directory, not the file: a missing file would rerun this (and
    // rebuild the crate) on every build; the directory's listing changes
    // when the module appears.
    println!("cargo:rerun-if-changed=web/pkg");
    let wasm = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("web/pkg/faan.wasm");
    println!("cargo:rerun-if-changed={}", wasm.display());
    let code = if wasm.is_file() {
        format!("Some(include_bytes!({:?}))", wasm.display().to_string())
    } else {
        "None".to_string()
    };
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("pkg_wasm.rs"),
        code,
    )
    .unwrap();
}
