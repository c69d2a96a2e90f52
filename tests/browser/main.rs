//! Browser tests of the calculator page: the real server on port 0,
//! headless Chromium driven through chromedriver (WebDriver, with the
//! `fantoccini` client), clicking and typing like a player.
//!
//! Needs `chromedriver` and Chromium (Debian: `apt-get install chromium
//! chromium-driver`), so every test is `#[ignore]`d: `cargo test --
//! --include-ignored` runs them (as `.ci/run` does), and there a missing
//! browser fails them. `FAAN_CHROMEDRIVER` and `FAAN_CHROMIUM` override the
//! binaries' paths.
//!
//! One test per flow and language (`score::en`, `score::zh`, ...), each with
//! its own server, chromedriver and Chromium, so flows run in parallel (two
//! browsers at once). Steps keep screenshots in `target/browser-{en,zh}-*.png`;
//! a failure names its flow and keeps `target/browser/<flow>-<lang>-failure.png`.
//! A view or control the page lacks fails the test: nothing here is optional.

mod analysis;
mod games;
mod hand;
mod house_rules;
mod lang;
mod live;
mod load;
mod night;
mod offline;
mod page;
mod pkg;
mod share;
mod table_page;
mod taps;
mod whole_page;

use lang::{EN, ZH};
use page::Page;
use serde_json::{json, Value};

/// One flow's tests, one per language; `tables`: on a server that keeps
/// shared tables (`page::run_with_tables`).
macro_rules! flow {
    ($name:ident, $body:path) => {
        flow!($name, $body, run);
    };
    ($name:ident, $body:path, tables) => {
        flow!($name, $body, run_with_tables);
    };
    ($name:ident, $body:path, $runner:ident) => {
        mod $name {
            use super::*;

            #[tokio::test]
            #[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
            async fn en() {
                page::$runner(stringify!($name), &EN, $body).await;
            }

            #[tokio::test]
            #[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
            async fn zh() {
                page::$runner(stringify!($name), &ZH, $body).await;
            }
        }
    };
}

flow!(language, whole_page::language_flow);
flow!(share_night, share::share_flow, tables);
flow!(
    shared_pages_accessibility,
    share::shared_pages_axe_flow,
    tables
);
flow!(live_scorers, live::live_scorers_flow, tables);
flow!(joined_rules, live::joined_rules_flow, tables);
flow!(score, hand::score_flow);
flow!(compare, hand::compare_flow);
flow!(waits, hand::waits_flow);
flow!(discard, analysis::discard_flow);
flow!(discard_hand_changes, analysis::hand_changes_flow);
flow!(errors, whole_page::errors_flow);
flow!(links, whole_page::links_flow);
flow!(table_night, night::table_night_flow);
flow!(table_double_win, night::double_win_flow);
flow!(table_problem, night::table_problem_flow);
flow!(table_taps, taps::table_taps_flow);
flow!(night_two_games, games::two_games_flow, tables);
flow!(house_rules_patterns, house_rules::house_patterns_flow);
flow!(house_rules_contains, house_rules::house_contains_flow);
flow!(house_rules_exclusive, house_rules::house_exclusive_flow);
flow!(house_rules_limits, house_rules::house_limits_flow);
flow!(copy_and_labels, whole_page::copy_labels_flow);
flow!(docs, whole_page::docs_flow);
flow!(accessibility, whole_page::axe_flow);

/// The package's example page, with no faan server behind it (one
/// language: the page is the package's, not the calculator's).
#[tokio::test]
#[ignore = "needs chromium, chromium-driver and the module (web/pkg/build.sh)"]
async fn package_example() {
    page::run("package_example", &EN, pkg::example_flow).await;
}

/// No API words in what a player reads: no JSON pointers, field names or status codes.
fn assert_player_words(text: &str, what: &str) {
    for bad in [
        "/hand",
        "/context",
        "seat_wind",
        "win_by",
        "hand.tiles",
        "(422)",
        "(400)",
        "422",
    ] {
        assert!(!text.contains(bad), "{what} shows {bad:?}: {text:?}");
    }
}

async fn table_rows(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return [r.querySelector('td.result').textContent].concat(Array.from(r.querySelectorAll('[data-player]')).map(function (c) { return c.getAttribute('data-player') + ' ' + c.getAttribute('data-delta') + ' ' + c.getAttribute('data-balance'); })); })")
        .await
}

async fn table_row_count(p: &Page, n: usize, what: &str) {
    p.wait_js(
        "return document.getElementById('table').hidden ? -1 : document.querySelectorAll('#table-body tr').length",
        json!(n),
        what,
    )
    .await;
}

/// One tap of the quick-entry panel: the button whose attribute `attr` is `value`.
async fn tap(p: &Page, attr: &str, value: &str) {
    p.click(&format!("#quick-panel button[{attr}=\"{value}\"]"))
        .await;
}
