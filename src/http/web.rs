//! The calculator page: `web/index.html`, `web/app.js` and `web/style.css`,
//! embedded in the binary (no CDN, no build step, works offline) and served
//! at `/`, `/app.js` and `/style.css`. The page talks only to this server's
//! JSON API.

use actix_web::http::header;
use actix_web::{web, HttpResponse};

/// The page.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("../../web/app.js");
/// Its style sheet.
pub const STYLE_CSS: &str = include_str!("../../web/style.css");

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        // Small and embedded: revalidate each time so a new binary shows at once.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

/// `GET /`: the calculator.
pub async fn index() -> HttpResponse {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn app_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub async fn style_css() -> HttpResponse {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// Registers the page's routes (other methods answer 405 like the API's).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/", super::get().to(index), "GET, HEAD"))
        .service(super::resource(
            "/app.js",
            super::get().to(app_js),
            "GET, HEAD",
        ))
        .service(super::resource(
            "/style.css",
            super::get().to(style_css),
            "GET, HEAD",
        ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_links_its_assets_and_ids_the_tests_use() {
        assert!(INDEX_HTML.contains("src=\"/app.js\""));
        assert!(INDEX_HTML.contains("href=\"/style.css\""));
        for id in [
            "id=\"total-faan\"",
            "id=\"payment-east\"",
            "id=\"payment-south\"",
            "id=\"payment-west\"",
            "id=\"payment-north\"",
            "data-error-for=\"/hand/tiles\"",
            "data-error-for=\"/context/discarder\"",
        ] {
            assert!(INDEX_HTML.contains(id), "index.html lacks {id}");
        }
        // No network but this server: no absolute URLs to other hosts.
        for text in [INDEX_HTML, APP_JS, STYLE_CSS] {
            assert!(!text.contains("http://") && !text.contains("https://"));
        }
    }
}
