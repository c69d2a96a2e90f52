//! The calculator's loading on a slow phone network, measured: the first
//! load and a reload, each in requests, bytes on the wire and the time until
//! the page is usable (its rulesets loaded, so a hand can be scored; what
//! starts after that, such as the offline worker's files, is not the
//! load's), at
//! 150 ms round trip and 1.6 Mbps down (DevTools' network emulation). The
//! figures go to bench/page.md; the test holds the first load to 120 KB
//! on the wire and the reload to the page request and the API calls, every
//! asset coming from the browser's cache.
//!
//! `FAAN_PAGE_BASE=http://127.0.0.1:PORT` measures another running server
//! instead (a build from before, for the figures beside these), without
//! holding it to anything.

use crate::page::{self, Page};
use serde_json::{json, Value};

#[tokio::test]
#[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
async fn page_load() {
    page::run("page_load", &crate::lang::EN, measure).await;
}

/// One load's figures: `[requests on the network, bytes on the wire, ms to usable, [[path, bytes], ...]]`.
async fn load(p: &Page, reload: bool) -> Value {
    if reload {
        p.js("window.location.reload(); return null").await;
    } else {
        p.goto(&format!("{}/", base(p))).await;
    }
    p.wait_js(
        "return typeof window.__usable === 'number'",
        json!(true),
        "the page usable",
    )
    .await;
    p.js(r#"var nav = performance.getEntriesByType('navigation')[0];
        var all = [nav].concat(performance.getEntriesByType('resource'));
        // transferSize 0: from the cache, no request. A 304 is its headers.
        var sent = all.filter(function (e) { return e.transferSize > 0 && e.startTime <= window.__usable; });
        return [sent.length, sent.reduce(function (n, e) { return n + e.transferSize; }, 0), Math.round(window.__usable),
                sent.map(function (e) { return [new URL(e.name).pathname, e.transferSize]; }), all.length];"#)
        .await
}

fn base(p: &Page) -> String {
    std::env::var("FAAN_PAGE_BASE").unwrap_or_else(|_| p.base.clone())
}

async fn measure(p: Page) {
    // The moment the page is usable, from the navigation's start.
    p.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": "new MutationObserver(function (m, o) { if (document.body && document.body.getAttribute('data-rulesets-loaded') === 'true') { window.__usable = performance.now(); o.disconnect(); } }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-rulesets-loaded']});"}),
    )
    .await;
    p.cdp("Network.enable", json!({})).await;
    // Brotli is what a phone's browser asks for over HTTPS; asked for here over plain HTTP too.
    p.cdp(
        "Network.setExtraHTTPHeaders",
        json!({"headers": {"Accept-Encoding": "br, gzip"}}),
    )
    .await;
    p.cdp(
        "Network.emulateNetworkConditions",
        json!({"offline": false, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 96_000}),
    )
    .await;
    p.viewport(390, 844).await;
    let first = load(&p, false).await;
    // The offline worker installs once the page is usable, fetching the
    // module on the same slow link; the reload is measured once the worker
    // has taken the page, as a phone's next visit finds it, not racing its
    // install.
    let start = std::time::Instant::now();
    while p
        .js("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
        .await
        != json!(true)
    {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(90),
            "the offline worker did not take the page within 90 s of the first load"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    println!(
        "page_load: the offline worker took the page {} ms after the first load was measured",
        start.elapsed().as_millis()
    );
    let again = load(&p, true).await;
    for (what, v) in [("first load", &first), ("reload", &again)] {
        println!(
            "page_load {what}: {} requests, {} bytes on the wire, usable at {} ms ({} entries)",
            v[0], v[1], v[2], v[4]
        );
        for r in v[3].as_array().unwrap() {
            println!("  {} {}", r[0].as_str().unwrap(), r[1]);
        }
    }
    if std::env::var_os("FAAN_PAGE_BASE").is_some() {
        return;
    }
    // The first load within 120 KB on the wire (brotli), the API's answer included.
    let bytes = first[1].as_u64().expect("bytes");
    assert!(
        bytes <= 120_000,
        "the first load is {bytes} bytes on the wire, over 120 KB"
    );
    // A reload: the page (a 304) and the two API calls; no asset.
    let paths: Vec<String> = again[3]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[0].as_str().unwrap().to_string())
        .collect();
    assert!(
        paths.iter().all(|p| p == "/" || p.starts_with("/v1/")),
        "a reload asks for the page and the API only: {paths:?}"
    );
    assert!(
        paths.contains(&"/".to_string()),
        "the page is revalidated: {paths:?}"
    );
    assert!(paths.len() <= 3, "the page and two API calls: {paths:?}");
}
