//! `faan-engine`: the scoring engine of `faan`, with no IO.
//!
//! The server, the CLI and the WebAssembly module are three thin users of
//! it (ARCHITECTURE.md), so all three answer alike, byte for byte:
//!
//! - [`core`](crate::core): tiles, hands, rulesets and the arithmetic of a
//!   score, with no IO and no panics on input; the rulesets compiled in;
//! - [`api`]: the v1 wire model (request and answer types) and its OpenAPI
//!   schemas;
//! - [`service`]: the pipeline every entry point calls (`service::pipeline`,
//!   typed) and its JSON edge (`service::wire`: parse, resolve, render).
//!
//! The crate has no HTTP, no async runtime, no store and no clock: what it
//! cannot do is what its users cannot make it do.

pub mod api;
pub mod core;
pub mod service;
