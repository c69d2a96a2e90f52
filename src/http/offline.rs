//! The calculator with no signal: the service worker at `/sw.js`, the web
//! app manifest at `/manifest.webmanifest` and its icons.
//!
//! The worker (`web/sw.js`) keeps the page, its hashed assets and the
//! scoring module in a cache named by the build's hash, and answers the
//! scoring endpoints with the module when the network fails
//! (docs/calculator.md, "Offline"). The server writes two things into it
//! at start-up: that hash and the list of files to keep. A change to what
//! it keeps changes the hash, so the browser sees a new worker, which fills
//! a new cache and deletes the old one.
//!
//! All of these keep their plain names and are revalidated (`no-cache`):
//! a worker's script must stay at one URL, and the manifest is what a
//! phone's home screen remembers.

use super::calculator::{self, file, serve, File};
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// The worker as written, before the server fills in its build and files.
pub const WORKER_JS: &str = include_str!("../../web/sw.js");
/// The manifest: the calculator's names, colours and icons.
pub const MANIFEST: &str = include_str!("../../web/manifest.webmanifest");
/// The home-screen icons (`web/icons/make_icons.py` draws them).
pub const ICONS: &[(&str, &[u8])] = &[
    (
        "/icons/icon-192.png",
        include_bytes!("../../web/icons/icon-192.png"),
    ),
    (
        "/icons/icon-512.png",
        include_bytes!("../../web/icons/icon-512.png"),
    ),
];

/// Where the worker's configuration sits in `web/sw.js`: between these
/// two markers, a JSON object the server replaces.
const CONFIG_OPEN: &str = "/*config*/";
const CONFIG_CLOSE: &str = "/*end config*/";

/// The scoring module as the server serves it: the worker imports the
/// script, and keeps the `.wasm` when there is one (served once built).
pub const MODULE: [&str; 2] = ["/pkg/faan.js", "/pkg/faan.wasm"];

/// The paths the worker keeps on install: the page, every asset under its
/// hashed name, the manifest and icons, and the module.
pub fn precache() -> Vec<String> {
    let mut out = vec!["/".to_string()];
    for p in calculator::ASSETS
        .iter()
        .map(|(p, _)| *p)
        .chain(["/favicon.ico"])
    {
        out.push(
            calculator::hashed_path(p)
                .expect("every asset has a hashed name")
                .to_string(),
        );
    }
    out.push("/manifest.webmanifest".into());
    out.extend(ICONS.iter().map(|(p, _)| (*p).to_string()));
    out.extend(MODULE.iter().map(|p| (*p).to_string()));
    out
}

/// The build's hash: SHA-256 of the files the worker keeps, path and
/// bytes, and of the worker itself (16 hex digits), so a change to them
/// makes a new cache. The module's own files are not in it yet: they are
/// served by the package's own routes.
pub fn build_hash() -> String {
    let mut h = Sha256::new();
    let page = calculator::page_html("/").expect("the calculator page");
    let mut add = |path: &str, body: &[u8]| {
        h.update((path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        h.update((body.len() as u64).to_le_bytes());
        h.update(body);
    };
    add("/", &page);
    for (p, b) in calculator::ASSETS {
        add(p, b.as_bytes());
    }
    add("/favicon.ico", calculator::FAVICON);
    add("/sw.js", WORKER_JS.as_bytes());
    add("/manifest.webmanifest", MANIFEST.as_bytes());
    for (p, b) in ICONS {
        add(p, b);
    }
    // The module too: a new engine with the same page is a new cache.
    for (p, _, b) in super::pkg::files() {
        if let Some(b) = b {
            add(p, b);
        }
    }
    hex::encode(&h.finalize()[..8])
}

/// The worker's script with its configuration written in.
pub fn worker_js() -> String {
    let config = serde_json::json!({ "build": build_hash(), "precache": precache() });
    let start = WORKER_JS
        .find(CONFIG_OPEN)
        .expect("web/sw.js has its configuration marker");
    let end = WORKER_JS[start..]
        .find(CONFIG_CLOSE)
        .map(|i| start + i + CONFIG_CLOSE.len())
        .expect("web/sw.js closes its configuration");
    format!("{}{config}{}", &WORKER_JS[..start], &WORKER_JS[end..])
}

fn files() -> &'static [File] {
    static FILES: OnceLock<Vec<File>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = vec![
            file(
                "/sw.js".into(),
                Bytes::from(worker_js()),
                "no-cache",
                "text/javascript; charset=utf-8",
            ),
            file(
                "/manifest.webmanifest".into(),
                Bytes::from_static(MANIFEST.as_bytes()),
                "no-cache",
                "application/manifest+json",
            ),
        ];
        for (p, b) in ICONS {
            out.push(file(
                (*p).into(),
                Bytes::from_static(b),
                "no-cache",
                "image/png",
            ));
        }
        out
    })
}

/// Writes and compresses the files (at start-up).
pub fn warm() {
    files();
}

fn answer(req: &HttpRequest, path: &str) -> HttpResponse {
    match files().iter().find(|f| f.path == path) {
        Some(f) => serve(req, f),
        None => HttpResponse::NotFound().finish(),
    }
}

/// Registers `/sw.js`, the manifest and the icons.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let paths = ["/sw.js", "/manifest.webmanifest"]
        .into_iter()
        .chain(ICONS.iter().map(|(p, _)| *p));
    for path in paths {
        cfg.service(super::resource(
            path,
            super::get().to(move |req: HttpRequest| async move { answer(&req, path) }),
            "GET, HEAD",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_is_written_with_the_build_and_every_file_the_page_needs() {
        let js = worker_js();
        assert!(!js.contains(CONFIG_OPEN), "the marker is replaced");
        let start = js.find("const CONFIG = ").expect("the configuration") + 15;
        let end = start + js[start..].find(";\n").expect("its end");
        let config: serde_json::Value = serde_json::from_str(&js[start..end]).expect("JSON");
        let build = config["build"].as_str().expect("a build hash");
        assert_eq!(build.len(), 16);
        assert!(build.chars().all(|c| c.is_ascii_hexdigit()));
        let kept: Vec<&str> = config["precache"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|v| v.as_str().expect("a path"))
            .collect();
        // The page, and every module and stylesheet it names in its HTML
        // (import map, preloads, entry, stylesheet, icon).
        assert_eq!(kept[0], "/");
        let page = String::from_utf8(calculator::page_html("/").unwrap().to_vec()).unwrap();
        for (i, _) in page.match_indices("\"/") {
            let rest = &page[i + 1..];
            let url = &rest[..rest.find('"').unwrap()];
            // Every name under a hash (the import map's values, the preloads,
            // the entry, stylesheet and icon); the map's keys are plain names.
            let hashed = url
                .split('.')
                .any(|seg| seg.len() == 10 && seg.chars().all(|c| c.is_ascii_hexdigit()));
            if hashed || url == "/manifest.webmanifest" {
                assert!(kept.contains(&url), "the page names {url}, not kept");
            }
        }
        // The languages' tables and the views loaded later are kept too.
        for p in ["/i18n/zh.js", "/i18n/en.js", "/js/views/discard.js"] {
            let hashed = calculator::hashed_path(p).unwrap();
            assert!(kept.contains(&hashed), "{hashed} kept");
        }
        assert!(kept.contains(&"/manifest.webmanifest"));
        assert!(kept.contains(&"/icons/icon-192.png"));
        assert!(kept.contains(&"/pkg/faan.js") && kept.contains(&"/pkg/faan.wasm"));
    }

    #[test]
    fn the_build_hash_is_stable_within_a_build() {
        assert_eq!(build_hash(), build_hash());
    }

    #[test]
    fn the_manifest_names_the_app_in_both_languages_and_its_icons_are_served() {
        let m: serde_json::Value = serde_json::from_str(MANIFEST).expect("JSON");
        assert_eq!(m["start_url"], "/");
        assert_eq!(m["scope"], "/");
        assert_eq!(m["display"], "standalone");
        assert_eq!(m["theme_color"], "#0f6e4f");
        assert!(m["name"].as_str().unwrap().contains("Hong Kong mahjong"));
        assert!(m["name"].as_str().unwrap().contains("香港麻雀計番器"));
        let icons = m["icons"].as_array().expect("icons");
        for icon in icons {
            let src = icon["src"].as_str().unwrap();
            let (_, png) = ICONS
                .iter()
                .find(|(p, _)| *p == src)
                .unwrap_or_else(|| panic!("{src} is served"));
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
            // The PNG's width and height (IHDR, big-endian) are the size it claims.
            let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
            let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
            assert_eq!(icon["sizes"], format!("{w}x{h}"));
        }
        assert!(icons.iter().any(|i| i["sizes"] == "512x512"));
        assert!(icons.iter().any(|i| i["sizes"] == "192x192"));
    }

    #[test]
    fn the_page_links_the_manifest_once_usable_and_has_the_theme_colour() {
        assert!(calculator::INDEX_HTML.contains("<meta name=\"theme-color\" content=\"#0f6e4f\">"));
        let (_, offline) = calculator::ASSETS
            .iter()
            .find(|(p, _)| *p == "/js/offline.js")
            .expect("the page's offline module");
        assert!(offline.contains("link.href = \"/manifest.webmanifest\""));
        assert!(offline.contains("register(\"/sw.js\", { type: \"module\""));
    }
}
