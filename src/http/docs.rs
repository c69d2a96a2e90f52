//! The API documentation page: a small self-contained HTML and JavaScript
//! page (no CDN, works offline) that reads `/openapi.json` and lists the
//! operations, their request and response examples, and the schemas.

/// The page, embedded in the binary.
pub const PAGE: &str = include_str!("docs.html");

/// The page in each coding, compressed once per process.
pub fn variants() -> &'static super::compress::Variants {
    static CODED: std::sync::OnceLock<super::compress::Variants> = std::sync::OnceLock::new();
    CODED.get_or_init(|| {
        super::compress::Variants::new(actix_web::web::Bytes::from_static(PAGE.as_bytes()))
    })
}
