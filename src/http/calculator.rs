//! The calculator page: `web/index.html`, `web/style.css` and the ES modules
//! under `web/js/` and `web/i18n/`, embedded in the binary (no CDN, no build
//! step, works offline) and served at their paths under `/`. The page talks
//! only to this server's JSON API.
//!
//! Module scripts must come with a JavaScript content type (browsers refuse
//! `import` of anything else), so each file's type is set from its extension.
//!
//! Each file carries an ETag (its content's SHA-256, cut short): a reload
//! revalidates and gets 304s with no body. Each is compressed once, gzip and
//! brotli, and served in the coding the browser asks for
//! (`compress::Variants`).

use super::compress::Variants;
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// The page.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");

/// Every file the page loads besides itself: URL path and text. A module
/// missing here fails to import in the browser; the test below checks every
/// file under `web/js` and `web/i18n` is listed and every import resolves.
pub const ASSETS: &[(&str, &str)] = &[
    ("/style.css", include_str!("../../web/style.css")),
    ("/js/main.js", include_str!("../../web/js/main.js")),
    ("/js/api.js", include_str!("../../web/js/api.js")),
    ("/js/dom.js", include_str!("../../web/js/dom.js")),
    ("/js/entry.js", include_str!("../../web/js/entry.js")),
    ("/js/format.js", include_str!("../../web/js/format.js")),
    ("/js/i18n.js", include_str!("../../web/js/i18n.js")),
    ("/js/state.js", include_str!("../../web/js/state.js")),
    ("/js/input.js", include_str!("../../web/js/input.js")),
    ("/js/requests.js", include_str!("../../web/js/requests.js")),
    ("/js/flows.js", include_str!("../../web/js/flows.js")),
    ("/js/tiles.js", include_str!("../../web/js/tiles.js")),
    ("/js/ledger.js", include_str!("../../web/js/ledger.js")),
    ("/js/custom.js", include_str!("../../web/js/custom.js")),
    ("/js/discard.js", include_str!("../../web/js/discard.js")),
    (
        "/js/views/page.js",
        include_str!("../../web/js/views/page.js"),
    ),
    (
        "/js/views/compare.js",
        include_str!("../../web/js/views/compare.js"),
    ),
    (
        "/js/views/entry.js",
        include_str!("../../web/js/views/entry.js"),
    ),
    (
        "/js/views/errors.js",
        include_str!("../../web/js/views/errors.js"),
    ),
    (
        "/js/views/rules.js",
        include_str!("../../web/js/views/rules.js"),
    ),
    (
        "/js/views/score.js",
        include_str!("../../web/js/views/score.js"),
    ),
    (
        "/js/views/waits.js",
        include_str!("../../web/js/views/waits.js"),
    ),
    (
        "/js/views/table.js",
        include_str!("../../web/js/views/table.js"),
    ),
    (
        "/js/views/house.js",
        include_str!("../../web/js/views/house.js"),
    ),
    (
        "/js/views/discard.js",
        include_str!("../../web/js/views/discard.js"),
    ),
    ("/i18n/en.js", include_str!("../../web/i18n/en.js")),
    ("/i18n/zh.js", include_str!("../../web/i18n/zh.js")),
];

/// The tab's icon (a red dragon tile), so `/favicon.ico` is not a 404.
pub const FAVICON: &[u8] = include_bytes!("../../web/favicon.ico");

/// The content type of a served path, from its extension.
fn content_type(path: &str) -> &'static str {
    if path.ends_with(".ico") {
        "image/x-icon"
    } else if path.ends_with(".js") {
        "text/javascript; charset=utf-8"
    } else if path.ends_with(".css") {
        "text/css; charset=utf-8"
    } else {
        "text/html; charset=utf-8"
    }
}

/// A file's validator: weak, since it is served gzip, brotli or plain,
/// each the same content.
fn etag_of(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    format!("W/\"{}\"", hex::encode(&digest[..8]))
}

/// A served file: its codings and its ETag.
struct File {
    path: &'static str,
    variants: Variants,
    etag: HeaderValue,
}

/// Every served file, compressed and tagged once per process
/// ([`super::warm`] at start-up).
fn files() -> &'static [File] {
    static FILES: OnceLock<Vec<File>> = OnceLock::new();
    FILES.get_or_init(|| {
        ASSETS
            .iter()
            .map(|&(p, b)| (p, b.as_bytes()))
            .chain([("/", INDEX_HTML.as_bytes()), ("/favicon.ico", FAVICON)])
            .map(|(path, body)| File {
                path,
                variants: Variants::new(Bytes::from_static(body)),
                etag: HeaderValue::from_str(&etag_of(body)).expect("hex is a header value"),
            })
            .collect()
    })
}

/// Compresses the page's files (at start-up).
pub fn warm() {
    files();
}

/// Whether `If-None-Match` lists `tag` (or `*`); weak comparison, as for a GET.
fn not_modified(req: &HttpRequest, tag: &str) -> bool {
    let strip = |t: &str| t.trim().trim_start_matches("W/").to_string();
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || strip(t) == strip(tag))
}

fn asset(req: &HttpRequest, path: &str) -> HttpResponse {
    let Some(file) = files().iter().find(|f| f.path == path) else {
        return HttpResponse::NotFound().finish();
    };
    // Embedded: revalidate each time (a new binary shows at once), but a
    // file unchanged answers 304 with no body.
    let mut res = if not_modified(req, file.etag.to_str().unwrap_or_default()) {
        let mut r = HttpResponse::NotModified();
        r.insert_header((header::VARY, "accept-encoding"));
        r.finish()
    } else {
        file.variants.respond(req, content_type(path))
    };
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::ETAG, file.etag.clone());
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

/// `GET /`: the calculator.
pub async fn index(req: HttpRequest) -> HttpResponse {
    asset(&req, "/")
}

/// Registers the page's routes (other methods answer 405 like the API's).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/", super::get().to(index), "GET, HEAD"));
    cfg.service(super::resource(
        "/favicon.ico",
        super::get().to(|req: HttpRequest| async move { asset(&req, "/favicon.ico") }),
        "GET, HEAD",
    ));
    for &(path, _) in ASSETS {
        cfg.service(super::resource(
            path,
            super::get().to(move |req: HttpRequest| async move { asset(&req, path) }),
            "GET, HEAD",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    #[test]
    fn page_links_its_assets_and_ids_the_tests_use() {
        assert!(INDEX_HTML.contains("<script type=\"module\" src=\"/js/main.js\">"));
        assert!(INDEX_HTML.contains("href=\"/style.css\""));
        for id in [
            "id=\"total-faan\"",
            "id=\"payment-east\"",
            "id=\"payment-south\"",
            "id=\"payment-west\"",
            "id=\"payment-north\"",
            "id=\"stale-note\"",
            "id=\"compare-summary\"",
            "id=\"skip-palette\"",
            "data-error-for=\"/hand/tiles\"",
            "data-error-for=\"/context/discarder\"",
            "id=\"btn-add-win\"",
            "id=\"table-transfers\"",
        ] {
            assert!(INDEX_HTML.contains(id), "index.html lacks {id}");
        }
        // No network but this server: no absolute URLs to other hosts.
        for (path, text) in ASSETS.iter().chain([&("/", INDEX_HTML)]) {
            assert!(
                !text.contains("http://") && !text.contains("https://"),
                "{path} names another host"
            );
        }
    }

    /// Every module file is served, and every relative import names a served path.
    #[test]
    fn every_module_is_served_and_every_import_resolves() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut on_disk = BTreeSet::new();
        for dir in ["js", "js/views", "i18n"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("web dir") {
                let p = entry.expect("dir entry").path();
                if p.extension().is_some_and(|e| e == "js") {
                    let rel = p.strip_prefix(&root).expect("under web/");
                    on_disk.insert(format!("/{}", rel.display()));
                }
            }
        }
        let served: BTreeSet<String> = ASSETS.iter().map(|(p, _)| p.to_string()).collect();
        let missing: Vec<_> = on_disk.difference(&served).collect();
        assert!(missing.is_empty(), "web files not served: {missing:?}");

        for (path, text) in ASSETS.iter().filter(|(p, _)| p.ends_with(".js")) {
            let dir = &path[..path.rfind('/').expect("a slash")];
            for line in text.lines() {
                let Some(from) = line.trim_start().strip_prefix("import ") else {
                    continue;
                };
                let spec = from
                    .rsplit(" from ")
                    .next()
                    .unwrap_or(from)
                    .trim()
                    .trim_end_matches(';')
                    .trim_matches('"');
                let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
                for seg in spec.split('/') {
                    match seg {
                        "." => {}
                        ".." => {
                            parts.pop();
                        }
                        s => parts.push(s),
                    }
                }
                let resolved = format!("/{}", parts.join("/"));
                assert!(
                    served.contains(&resolved),
                    "{path} imports {spec} ({resolved}), which is not served"
                );
            }
        }
    }

    #[test]
    fn scripts_are_served_as_javascript() {
        assert_eq!(
            content_type("/js/main.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("/style.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("/favicon.ico"), "image/x-icon");
    }
}
