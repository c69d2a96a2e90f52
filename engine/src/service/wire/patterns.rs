//! `GET /v1/patterns`: the engine's pattern and condition tables, written
//! once per process (they are compiled in; nothing a request sends changes them).

use super::{to_json, Service};
use crate::api::PatternTable;

impl Service {
    /// The body of `GET /v1/patterns` (`api::PatternTable`).
    pub fn patterns(&self) -> &'static [u8] {
        static BODY: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        BODY.get_or_init(|| to_json(&PatternTable::build()))
    }
}
