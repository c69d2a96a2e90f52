//! HTTP integration tests: the real server on port 0, driven with reqwest.

mod analyze;
mod bad_inputs;
mod batch_compare;
mod cache;
mod codes;
#[path = "../common/mod.rs"]
mod common;
mod connections;
mod errors;
mod exact;
mod helpers;
mod hostile;
mod http_bounds;
mod inline;
mod meta;
mod metrics;
mod names;
mod page;
mod score;
mod settle_ledger;
