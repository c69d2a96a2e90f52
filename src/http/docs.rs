//! The API documentation page: a small self-contained HTML and JavaScript
//! page (no CDN, works offline) that reads `/openapi.json` and lists the
//! operations, their request and response examples, and the schemas.

/// The page, embedded in the binary.
pub const PAGE: &str = include_str!("docs.html");
