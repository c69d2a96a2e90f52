//! HTTP integration tests: the real server on port 0, driven with reqwest.

mod batch_compare;
mod cache;
mod errors;
mod helpers;
mod meta;
mod score;
