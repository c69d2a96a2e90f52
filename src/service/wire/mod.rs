//! The wire side of the service: request bytes in, response bytes out.

mod patterns;
pub mod render;
mod sink;

use super::{to_json, Service};
