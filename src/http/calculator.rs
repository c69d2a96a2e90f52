//! The calculator page and the viewer's page: `web/index.html` at `/`,
//! `web/viewer.html` at `/t/{id}` (a shared night) and `/g/{id}` (a group),
//! `web/style.css` and the ES modules under `web/js/` and `web/i18n/`,
//! embedded in the binary (no CDN, no build step, works offline). The pages
//! talk only to this server's JSON API.
//!
//! Module scripts must come with a JavaScript content type (browsers refuse
//! `import` of anything else), so each file's type is set from its extension.
//!
//! Every file is also served under a content-hashed name
//! (`/js/main.3f2a9c01b7.js`) as `immutable` for a year. Each page is
//! written once at start-up with its assets under those names: an import
//! map sends every module's plain path (which the modules import one
//! another by) to its hashed name, and a `modulepreload` link announces each
//! module the page's entry reaches, so the browser asks for them all at
//! once instead of three imports deep. The pages themselves are
//! revalidated (`no-cache` and an ETag), so a reload costs one 304 and the
//! API calls, and a new binary shows at once. The plain names stay served
//! (revalidated) for a browser without import maps.
//!
//! Each file is compressed once, gzip and brotli, and served in the coding
//! the browser asks for (`compress::Variants`); the assets' brotli is made
//! at build time, at a quality start-up could not afford (build.rs).

use super::compress::Variants;
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// The calculator.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");
/// The viewer's page: a shared night or a group, its id read from the path.
pub const VIEWER_HTML: &str = include_str!("../../web/viewer.html");

/// Every file the pages load besides themselves: URL path and text. A module
/// missing here fails to import in the browser; the test below checks every
/// file under `web/js` and `web/i18n` is listed and every import resolves.
pub const ASSETS: &[(&str, &str)] = &[
    ("/style.css", include_str!("../../web/style.css")),
    ("/js/main.js", include_str!("../../web/js/main.js")),
    ("/js/viewer.js", include_str!("../../web/js/viewer.js")),
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
    ("/js/share.js", include_str!("../../web/js/share.js")),
    ("/js/ticks.js", include_str!("../../web/js/ticks.js")),
    ("/js/sync.js", include_str!("../../web/js/sync.js")),
    ("/js/offline.js", include_str!("../../web/js/offline.js")),
    (
        "/js/vendor/qrcode.js",
        include_str!("../../web/js/vendor/qrcode.js"),
    ),
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
        "/js/views/quick.js",
        include_str!("../../web/js/views/quick.js"),
    ),
    (
        "/js/views/house.js",
        include_str!("../../web/js/views/house.js"),
    ),
    (
        "/js/views/discard.js",
        include_str!("../../web/js/views/discard.js"),
    ),
    (
        "/js/views/share.js",
        include_str!("../../web/js/views/share.js"),
    ),
    (
        "/js/views/viewer.js",
        include_str!("../../web/js/views/viewer.js"),
    ),
    ("/i18n/en.js", include_str!("../../web/i18n/en.js")),
    ("/i18n/zh.js", include_str!("../../web/i18n/zh.js")),
];

/// The tab's icon (a red dragon tile), so `/favicon.ico` is not a 404.
pub const FAVICON: &[u8] = include_bytes!("../../web/favicon.ico");

/// The pages: the path they are written for, their template and entry module.
const PAGES: &[(&str, &str, &str)] = &[
    ("/", INDEX_HTML, "/js/main.js"),
    ("/viewer", VIEWER_HTML, "/js/viewer.js"),
];

/// How a hashed asset is cached: its name changes with its content.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

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
pub(super) fn etag_of(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    format!("W/\"{}\"", hex::encode(&digest[..8]))
}

/// `path` under its content-hashed name: the first 10 hex digits of the
/// content's SHA-256 before the extension (`/js/dom.js` -> `/js/dom.0123456789.js`).
pub fn hashed_name(path: &str, body: &[u8]) -> String {
    let digest = hex::encode(&Sha256::digest(body)[..5]);
    match path.rfind('.') {
        Some(dot) if dot > path.rfind('/').unwrap_or(0) => {
            format!("{}.{digest}{}", &path[..dot], &path[dot..])
        }
        _ => format!("{path}.{digest}"),
    }
}

/// The paths a module imports (`import ... from "./x.js"`), resolved against its own.
pub fn imports_of(path: &str, text: &str) -> Vec<String> {
    let dir = &path[..path.rfind('/').unwrap_or(0)];
    let mut out = Vec::new();
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
        if !spec.starts_with('.') {
            continue;
        }
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
        out.push(format!("/{}", parts.join("/")));
    }
    out
}

/// Every module `entry` reaches through its imports, itself first, then in
/// the order they are first imported.
pub fn module_closure(entry: &str) -> Vec<&'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    let mut todo = vec![entry.to_string()];
    while let Some(p) = todo.pop() {
        let Some(&(path, text)) = ASSETS.iter().find(|(a, _)| *a == p) else {
            continue;
        };
        if seen.contains(&path) {
            continue;
        }
        seen.push(path);
        let mut next = imports_of(path, text);
        next.reverse();
        todo.extend(next);
    }
    seen
}

/// A served file: its path, codings, ETag and caching.
pub(super) struct File {
    pub(super) path: String,
    variants: Variants,
    etag: HeaderValue,
    cache: &'static str,
    kind: &'static str,
}

pub(super) fn file(path: String, body: Bytes, cache: &'static str, kind: &'static str) -> File {
    coded(path, body, None, cache, kind)
}

/// Brotli's bytes of each asset, made at build time (build.rs), by URL path.
const ASSETS_BR: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/assets_br.rs"));

fn coded(
    path: String,
    body: Bytes,
    brotli: Option<&'static [u8]>,
    cache: &'static str,
    kind: &'static str,
) -> File {
    File {
        etag: HeaderValue::from_str(&etag_of(&body)).expect("hex is a header value"),
        variants: Variants::with_brotli(body, brotli),
        path,
        cache,
        kind,
    }
}

/// A page's HTML with its assets under their hashed names: the import map
/// of every module, a `modulepreload` for each module its entry reaches,
/// the stylesheet, the icon and the entry script.
fn write_page(template: &str, entry: &str, hashed: &dyn Fn(&str) -> String) -> String {
    let mut map = serde_json::Map::new();
    for (p, _) in ASSETS.iter().filter(|(p, _)| p.ends_with(".js")) {
        map.insert((*p).to_string(), serde_json::Value::String(hashed(p)));
    }
    let mut head = format!(
        "<script type=\"importmap\">{}</script>\n",
        serde_json::json!({ "imports": map })
    );
    for m in module_closure(entry).into_iter().skip(1) {
        head.push_str(&format!(
            "<link rel=\"modulepreload\" href=\"{}\">\n",
            hashed(m)
        ));
    }
    head.push_str("</head>");
    template
        .replacen(
            "href=\"/style.css\"",
            &format!("href=\"{}\"", hashed("/style.css")),
            1,
        )
        .replacen(
            "href=\"/favicon.ico\"",
            &format!("href=\"{}\"", hashed("/favicon.ico")),
            1,
        )
        .replacen(
            &format!("<script type=\"module\" src=\"{entry}\">"),
            &format!("<script type=\"module\" src=\"{}\">", hashed(entry)),
            1,
        )
        .replacen("</head>", &head, 1)
}

/// Every served file, compressed and tagged once per process
/// ([`super::warm`] at start-up): each asset under its plain and its hashed
/// name, and the pages written over the hashed names.
fn files() -> &'static [File] {
    static FILES: OnceLock<Vec<File>> = OnceLock::new();
    FILES.get_or_init(|| {
        let assets: Vec<(&str, &[u8])> = ASSETS
            .iter()
            .map(|&(p, b)| (p, b.as_bytes()))
            .chain([("/favicon.ico", FAVICON)])
            .collect();
        let names: Vec<(&str, String)> = assets
            .iter()
            .map(|&(p, b)| (p, hashed_name(p, b)))
            .collect();
        let hashed = |p: &str| {
            names
                .iter()
                .find(|(a, _)| *a == p)
                .map_or_else(|| p.to_string(), |(_, h)| h.clone())
        };
        let mut out = Vec::new();
        for &(path, body) in &assets {
            let kind = content_type(path);
            let br = ASSETS_BR.iter().find(|(p, _)| *p == path).map(|&(_, b)| b);
            out.push(coded(
                path.into(),
                Bytes::from_static(body),
                br,
                "no-cache",
                kind,
            ));
            out.push(coded(
                hashed(path),
                Bytes::from_static(body),
                br,
                IMMUTABLE,
                kind,
            ));
        }
        for &(path, template, entry) in PAGES {
            let html = write_page(template, entry, &hashed);
            out.push(file(
                path.into(),
                Bytes::from(html),
                "no-cache",
                "text/html; charset=utf-8",
            ));
        }
        out
    })
}

/// Compresses the page's files (at start-up).
pub fn warm() {
    files();
}

/// The path a file is served at under its hashed name (`None`: no such file).
pub fn hashed_path(path: &str) -> Option<&'static str> {
    let body = ASSETS
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, b)| b.as_bytes())
        .or((path == "/favicon.ico").then_some(FAVICON))?;
    let name = hashed_name(path, body);
    files()
        .iter()
        .find(|f| f.path == name)
        .map(|f| f.path.as_str())
}

/// A page as served (its HTML after the hashed names are written in).
pub fn page_html(path: &str) -> Option<Bytes> {
    let f = files().iter().find(|f| f.path == path)?;
    Some(f.variants.pick(super::compress::Coding::Identity).1.clone())
}

/// Whether `If-None-Match` lists `tag` (or `*`); weak comparison, as for a GET.
pub(super) fn not_modified(req: &HttpRequest, tag: &str) -> bool {
    let strip = |t: &str| t.trim().trim_start_matches("W/").to_string();
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || strip(t) == strip(tag))
}

fn asset(req: &HttpRequest, path: &str) -> HttpResponse {
    match files().iter().find(|f| f.path == path) {
        Some(file) => serve(req, file),
        None => HttpResponse::NotFound().finish(),
    }
}

/// One file, compressed as asked, or a 304 when the browser holds it.
pub(super) fn serve(req: &HttpRequest, file: &File) -> HttpResponse {
    // A plain name or a page: revalidated each time (a new binary shows at
    // once), a file unchanged answering 304 with no body. A hashed name
    // never changes: kept for a year.
    let mut res = if not_modified(req, file.etag.to_str().unwrap_or_default()) {
        let mut r = HttpResponse::NotModified();
        r.insert_header((header::VARY, "accept-encoding"));
        r.finish()
    } else {
        file.variants.respond(req, file.kind)
    };
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(file.cache));
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

/// `GET /t/{id}` and `GET /g/{id}`: the viewer's page, which reads the id from the path.
pub async fn viewer(req: HttpRequest) -> HttpResponse {
    asset(&req, "/viewer")
}

/// Registers the pages' routes (other methods answer 405 like the API's).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/", super::get().to(index), "GET, HEAD"));
    cfg.service(super::resource(
        "/t/{id}",
        super::get().to(viewer),
        "GET, HEAD",
    ));
    cfg.service(super::resource(
        "/g/{id}",
        super::get().to(viewer),
        "GET, HEAD",
    ));
    let plain = ASSETS.iter().map(|&(p, _)| p).chain(["/favicon.ico"]);
    for path in plain {
        cfg.service(super::resource(
            path,
            super::get().to(move |req: HttpRequest| async move { asset(&req, path) }),
            "GET, HEAD",
        ));
        let hashed = hashed_path(path).expect("every asset has a hashed name");
        cfg.service(super::resource(
            hashed,
            super::get().to(move |req: HttpRequest| async move { asset(&req, hashed) }),
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
        assert!(VIEWER_HTML.contains("<script type=\"module\" src=\"/js/viewer.js\">"));
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
            "id=\"btn-share\"",
            "id=\"share-qr\"",
        ] {
            assert!(INDEX_HTML.contains(id), "index.html lacks {id}");
        }
        // No network but this server: no absolute URLs to other hosts (the
        // SVG namespace names no host to fetch; a vendored file's notice
        // names its authors' sites in comments).
        for (path, text) in ASSETS
            .iter()
            .chain([&("/", INDEX_HTML), &("/viewer", VIEWER_HTML)])
            .filter(|(p, _)| !p.starts_with("/js/vendor/"))
        {
            let text = text.replace("\"http://www.w3.org/2000/svg\"", "");
            assert!(
                !text.contains("http://") && !text.contains("https://"),
                "{path} names another host"
            );
        }
        let qr = ASSETS
            .iter()
            .find(|(p, _)| *p == "/js/vendor/qrcode.js")
            .expect("the QR module");
        assert!(
            !qr.1.contains("fetch(") && !qr.1.contains("XMLHttpRequest"),
            "the QR module asks nothing of the network"
        );
    }

    /// Every asset has its build-time brotli, and it decodes to the asset.
    #[test]
    fn every_asset_is_compressed_at_build_time_to_itself() {
        for (path, text) in ASSETS {
            let (_, br) = ASSETS_BR
                .iter()
                .find(|(p, _)| p == path)
                .unwrap_or_else(|| panic!("{path} has no build-time brotli"));
            let mut back = Vec::new();
            brotli::BrotliDecompress(&mut &br[..], &mut back).expect("brotli decodes");
            assert_eq!(
                back,
                text.as_bytes(),
                "{path}: the brotli bytes are its own"
            );
            assert!(br.len() < text.len(), "{path}: brotli is smaller");
        }
    }

    /// Every module file is served, and every relative import names a served path.
    #[test]
    fn every_module_is_served_and_every_import_resolves() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut on_disk = BTreeSet::new();
        for dir in ["js", "js/views", "js/vendor", "i18n"] {
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
            for resolved in imports_of(path, text) {
                assert!(
                    served.contains(&resolved),
                    "{path} imports {resolved}, which is not served"
                );
            }
        }
        // Every module is some page's: none is served that no page loads
        // (the QR encoder is imported when a night is shared, `import(...)`).
        let mut reached: BTreeSet<&str> = PAGES
            .iter()
            .flat_map(|(_, _, entry)| module_closure(entry))
            .collect();
        let statically: Vec<&str> = reached.iter().copied().collect();
        for (path, text) in ASSETS.iter().filter(|(p, _)| statically.contains(p)) {
            for (i, _) in text.match_indices("import(\"") {
                let spec = &text[i + 8..];
                let line = format!("import x from \"{}\"", &spec[..spec.find('"').unwrap()]);
                for r in imports_of(path, &line) {
                    assert!(
                        served.contains(&r),
                        "{path} imports {r}, which is not served"
                    );
                    reached.insert(ASSETS.iter().find(|(p, _)| *p == r).unwrap().0);
                }
            }
        }
        for path in served.iter().filter(|p| p.ends_with(".js")) {
            assert!(
                reached.contains(path.as_str()),
                "{path} is loaded by no page"
            );
        }
    }

    /// Each page announces every module its entry reaches (and only those),
    /// under its hashed name, and maps every module's plain path to it.
    #[test]
    fn each_page_preloads_every_module_it_reaches_under_its_hashed_name() {
        for &(page, _, entry) in PAGES {
            let html = String::from_utf8(page_html(page).expect("the page").to_vec()).unwrap();
            let preloaded: BTreeSet<String> = html
                .match_indices("<link rel=\"modulepreload\" href=\"")
                .map(|(i, m)| {
                    let rest = &html[i + m.len()..];
                    rest[..rest.find('"').unwrap()].to_string()
                })
                .collect();
            let want: BTreeSet<String> = module_closure(entry)
                .into_iter()
                .skip(1)
                .map(|p| hashed_path(p).expect("hashed").to_string())
                .collect();
            assert_eq!(preloaded, want, "{page}: the modules preloaded");
            // The calculator reaches 29 modules besides main.js; the viewer fewer.
            assert!(want.len() >= 10, "{page}: {} modules", want.len());
            let open = "<script type=\"importmap\">";
            let map_start = html.find(open).expect("an import map") + open.len();
            let map_end = map_start + html[map_start..].find("</script>").unwrap();
            let map: serde_json::Value = serde_json::from_str(&html[map_start..map_end]).unwrap();
            for (p, _) in ASSETS.iter().filter(|(p, _)| p.ends_with(".js")) {
                assert_eq!(
                    map["imports"][p],
                    hashed_path(p).unwrap(),
                    "{page}: {p} mapped"
                );
            }
            // The map comes before every module script and preload (browsers ignore a later one).
            assert!(html.find("importmap").unwrap() < html.find("modulepreload").unwrap());
            let src = format!(
                "<script type=\"module\" src=\"{}\">",
                hashed_path(entry).unwrap()
            );
            assert!(
                html.contains(&src),
                "{page}: its entry under its hashed name"
            );
            assert!(html.contains(&format!("href=\"{}\"", hashed_path("/style.css").unwrap())));
            assert!(html.contains(&format!(
                "href=\"{}\"",
                hashed_path("/favicon.ico").unwrap()
            )));
        }
    }

    #[test]
    fn a_hashed_name_is_the_contents_sha256_before_the_extension() {
        // SHA-256 of "abc" is ba7816bf8f01cfea...: its first five bytes in hex.
        assert_eq!(hashed_name("/js/x.js", b"abc"), "/js/x.ba7816bf8f.js");
        assert_eq!(hashed_name("/style.css", b"abc"), "/style.ba7816bf8f.css");
        assert_eq!(hashed_name("/v1.d/x", b"abc"), "/v1.d/x.ba7816bf8f");
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
