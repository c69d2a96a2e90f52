//! `faan`: Hong Kong mahjong scoring as a service.
//!
//! The crate is one binary's library, layered so that each layer imports
//! only downward (ARCHITECTURE.md). The engine is the crate `faan-engine`
//! (`engine/`), re-exported here under its module names:
//!
//! - [`core`](crate::core): tiles, hands, rulesets and the arithmetic of a score, with no
//!   IO and no panics on input;
//! - [`service`]: the pipeline every entry point calls, and its JSON edge
//!   (`service::wire`);
//! - [`api`]: the v1 wire model and its OpenAPI schemas;
//! - [`http`] and [`cli`]: the thin layers a client meets, with [`startup`],
//!   [`config`], [`logging`] and [`telemetry`] building the server;
//! - [`store`]: the shared tables' storage, SQLite or PostgreSQL through `sqlx`;
//! - [`tables`]: shared tables and groups on the store's own runtime: each
//!   table keeps its ledger's running state, so a change plays one hand
//!   through `service`, and is sent to the event streams as that change.
//!
//! Every module is public because the integration tests, the benches and
//! the fuzz targets drive it directly.

pub use faan_engine::{api, core, service};

pub mod cli;
pub mod config;
pub mod http;
pub mod logging;
pub mod startup;
pub mod store;
pub mod tables;
pub mod telemetry;
