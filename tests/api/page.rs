//! The pages' routes: the viewer's page at `/t/{id}` and `/g/{id}`, the
//! assets under content-hashed names cached for a year, the pages
//! revalidated.

use crate::helpers::spawn_app;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The `href`s of the page's `<link rel="modulepreload">`s.
fn preloads(html: &str) -> Vec<String> {
    let open = "<link rel=\"modulepreload\" href=\"";
    html.match_indices(open)
        .map(|(i, _)| {
            let rest = &html[i + open.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[tokio::test]
async fn the_viewer_page_is_served_at_t_and_g_with_its_modules_announced() {
    let app = spawn_app().await;
    // Any id: the page reads it from the path and asks the API itself.
    for path in ["/t/AAAAAAAAAAAAAAAAAAAAAA", "/g/AAAAAAAAAAAAAAAAAAAAAA"] {
        let r = app.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(
            r.header("cache-control").as_deref(),
            Some("no-cache"),
            "{path}: revalidated"
        );
        let html = r.text();
        assert!(
            html.contains("id=\"v-connection\""),
            "{path}: the viewer's page"
        );
        assert!(html.contains("<script type=\"importmap\">"), "{path}");
        let pre = preloads(&html);
        assert!(
            pre.iter().any(|p| p.starts_with("/js/views/viewer.")),
            "{path}: {pre:?}"
        );
        assert!(
            !pre.iter().any(|p| p.starts_with("/js/views/house.")),
            "{path}: only what the viewer loads"
        );
        let again = app
            .send(
                app.client
                    .get(format!("{}{path}", app.base))
                    .header("if-none-match", r.header("etag").unwrap()),
            )
            .await;
        assert_eq!(again.status, 304, "{path}: a reload is a 304");
    }
    let post = app
        .post_raw("/t/AAAAAAAAAAAAAAAAAAAAAA", "x", Some("text/plain"))
        .await;
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow").as_deref(), Some("GET, HEAD"));
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_equal_their_plain_names() {
    let app = spawn_app().await;
    let html = app.get("/").await.text();
    let pre = preloads(&html);
    // The calculator's entry imports the views a table uses and the store: all announced.
    for want in [
        "/js/state.",
        "/js/views/table.",
        "/js/views/quick.",
        "/js/views/share.",
    ] {
        assert!(
            pre.iter().any(|p| p.starts_with(want)),
            "{want} preloaded: {pre:?}"
        );
    }
    // Imported when first needed: mapped, not preloaded. The QR encoder once
    // a night is shared, a language's words when chosen, the views a first
    // screen does not draw.
    for later in [
        "/js/vendor/qrcode.js",
        "/i18n/en.js",
        "/i18n/zh.js",
        "/js/views/compare.js",
        "/js/views/waits.js",
        "/js/views/rules.js",
        "/js/views/discard.js",
        "/js/views/house.js",
    ] {
        let stem = &later[..later.len() - 2];
        assert!(
            !pre.iter().any(|p| p.starts_with(stem)),
            "{later} not preloaded: {pre:?}"
        );
        assert!(
            html.contains(&format!("\"{later}\":\"{stem}")),
            "{later} in the import map"
        );
    }
    let css = {
        let i = html.find("href=\"/style.").expect("the hashed stylesheet");
        let rest = &html[i + 6..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    for path in pre.iter().chain([&css]) {
        let r = app.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(
            r.header("cache-control").as_deref(),
            Some(IMMUTABLE),
            "{path}"
        );
        // /js/dom.0123456789.js is /js/dom.js.
        let dot = path.rfind('.').unwrap();
        let stem = &path[..dot];
        let plain = format!("{}{}", &stem[..stem.rfind('.').unwrap()], &path[dot..]);
        let p = app.get(&plain).await;
        assert_eq!(p.status, 200, "{plain}");
        assert_eq!(
            p.header("cache-control").as_deref(),
            Some("no-cache"),
            "{plain}"
        );
        assert_eq!(p.bytes, r.bytes, "{path} is {plain}");
        assert_eq!(p.header("content-type"), r.header("content-type"), "{path}");
    }
    assert_eq!(
        app.get("/").await.header("cache-control").as_deref(),
        Some("no-cache")
    );
}

#[tokio::test]
async fn an_unknown_hashed_asset_is_a_404() {
    let app = spawn_app().await;
    for path in [
        "/js/main.0000000000.js",
        "/style.ffffffffff.css",
        "/js/nosuch.0123456789.js",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status, 404, "{path}");
        let cache = r.header("cache-control").unwrap_or_default();
        assert!(
            !cache.contains("immutable"),
            "{path}: not cached for a year ({cache:?})"
        );
    }
}
