//! The engine's package for other front ends (`web/pkg/`): `GET
//! /pkg/faan.js`, `/pkg/faan.d.ts` and `/pkg/faan.wasm`. The module is in
//! the binary only when `web/pkg/build.sh` built it before the server
//! (`build.rs`); without it its path is a 404 problem.

use super::problem::Refusal;
use crate::api::ApiError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};

/// `web/pkg/faan.wasm` as it was at build time, if it was there.
pub const FAAN_WASM: Option<&[u8]> = include!(concat!(env!("OUT_DIR"), "/pkg_wasm.rs"));

/// The package's files: path, content type, bytes.
pub fn files() -> [(&'static str, &'static str, Option<&'static [u8]>); 3] {
    [
        (
            "/pkg/faan.js",
            "text/javascript; charset=utf-8",
            Some(include_bytes!("../../web/pkg/faan.js")),
        ),
        (
            "/pkg/faan.d.ts",
            "text/plain; charset=utf-8",
            Some(include_bytes!("../../web/pkg/faan.d.ts")),
        ),
        ("/pkg/faan.wasm", "application/wasm", FAAN_WASM),
    ]
}

/// A file of the package, revalidated by its ETag (a new binary shows at once).
fn file(req: &HttpRequest, path: &str) -> Result<HttpResponse, Refusal> {
    // Each file's tag once per process: the module is over a megabyte.
    static TAGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let tags = TAGS.get_or_init(|| {
        files()
            .iter()
            .map(|(_, _, b)| super::calculator::etag_of(b.unwrap_or_default()))
            .collect()
    });
    let found = files()
        .into_iter()
        .zip(tags)
        .find(|((p, _, _), _)| *p == path);
    let Some(((_, kind, Some(bytes)), etag)) = found else {
        return Err(Refusal(ApiError::NotFound {
            path: req.path().chars().take(200).collect(),
        }));
    };
    let etag = etag.clone();
    if super::calculator::not_modified(req, &etag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(kind)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::ETAG, etag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(super::compress::sliced(web::Bytes::from_static(bytes))))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    for (path, _, _) in files() {
        cfg.service(super::resource(
            path,
            super::get().to(move |req: HttpRequest| async move { file(&req, path) }),
            "GET, HEAD",
        ));
    }
}
