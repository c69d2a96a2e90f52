//! Build-time inputs of the server's web files:
//!
//! - `web/pkg/faan.wasm` (the engine as WebAssembly, built by
//!   `web/pkg/build.sh`, not committed) is embedded when it exists, so the
//!   server serves it at `/pkg/faan.wasm`; without it that path is a 404.
//! - The page's assets (`web/style.css`, `web/js/**`, `web/i18n/**`) are
//!   compressed with brotli at its best (quality 11) once here, where start-up
//!   could afford only quality 5: the first load is about 9% smaller
//!   (bench/page.md). `src/http/calculator.rs` serves these bytes.
use std::io::Write;
use std::{env, fs, path::Path};

fn main() {
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).to_path_buf();
    let out = Path::new(&env::var("OUT_DIR").unwrap()).to_path_buf();
    wasm(&root, &out);
    assets(&root, &out);
}

fn wasm(root: &Path, out: &Path) {
    // The directory, not the file: a missing file would rerun this (and
    // rebuild the crate) on every build; the directory's listing changes
    // when the module appears.
    println!("cargo:rerun-if-changed=web/pkg");
    let wasm = root.join("web/pkg/faan.wasm");
    println!("cargo:rerun-if-changed={}", wasm.display());
    let code = if wasm.is_file() {
        format!("Some(include_bytes!({:?}))", wasm.display().to_string())
    } else {
        "None".to_string()
    };
    fs::write(out.join("pkg_wasm.rs"), code).unwrap();
}

/// Writes `assets_br.rs`: `&[(url path, brotli bytes)]` for every asset file.
fn assets(root: &Path, out: &Path) {
    // A directory missing (the Dockerfile's dependency-only build has no
    // web/) leaves its files to start-up's compression.
    let mut files = vec!["style.css".to_string()];
    for dir in ["js", "js/views", "js/vendor", "i18n"] {
        println!("cargo:rerun-if-changed=web/{dir}");
        let Ok(entries) = fs::read_dir(root.join("web").join(dir)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".js"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        names.sort();
        files.extend(names);
    }
    let dir = out.join("br");
    fs::create_dir_all(&dir).unwrap();
    let mut code = String::from("&[\n");
    for (i, rel) in files.iter().enumerate() {
        let src = root.join("web").join(rel);
        println!("cargo:rerun-if-changed={}", src.display());
        let Ok(body) = fs::read(&src) else {
            continue;
        };
        let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, 11, 22);
        br.write_all(&body).unwrap();
        br.flush().unwrap();
        let dest = dir.join(format!("{i}.br"));
        fs::write(&dest, br.into_inner()).unwrap();
        code.push_str(&format!(
            "    (\"/{rel}\", include_bytes!({:?}).as_slice()),\n",
            dest.display().to_string()
        ));
    }
    code.push(']');
    fs::write(out.join("assets_br.rs"), code).unwrap();
}
