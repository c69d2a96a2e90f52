pub mod api;
pub mod cli;
pub mod config;
pub mod core;
pub mod http;
pub mod service;
pub mod startup;
pub mod telemetry;
