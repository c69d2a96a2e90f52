//! Compression, bounded: each answer's coding from `Accept-Encoding` (brotli,
//! else gzip, else none).
//!
//! - Files that never change while the process runs (the page, `/docs`,
//!   `/openapi.json`) are compressed once, at start-up ([`Variants`]), and
//!   served from memory; no compressor runs for them.
//! - Other answers are compressed as they are written, by at most
//!   `--max-compressors` at once, each with bounded state (the settings
//!   below); past the bound an answer goes uncompressed. actix's own
//!   middleware ran a brotli compressor of a 4 MiB window per answer, so
//!   memory grew with the clients (bench/hostile.md).

use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{Error, HttpRequest, HttpResponse};
use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Brotli for the files compressed once: quality 5, a 256 KiB window: nearly
/// quality 11's size in a small share of its time and memory, so start-up
/// stays short (bench/hostile.md, "Many clients at once").
const STATIC_BROTLI: (u32, u32) = (5, 18);
/// Gzip for the files compressed once.
const STATIC_GZIP: u32 = 9;
/// Brotli for answers as they go: quality 1, a 64 KiB window: smaller
/// answers than gzip's in the same small state (bench/hostile.md).
const DYNAMIC_BROTLI: (u32, u32) = (1, 16);
/// Gzip for answers as they go: the fastest level (its state is the same
/// size at every level: bench/hostile.md).
const DYNAMIC_GZIP: u32 = 1;
/// Answers shorter than this go as they are: the coding would save little.
pub const MIN_BYTES: u64 = 1024;
/// Bytes handed to actix at a time: actix stops filling its write buffer
/// past 32 KiB, but copies a whole piece into it.
pub const SLICE: usize = 32 * 1024;

/// A content coding this server writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    Brotli,
}

impl Coding {
    fn header(self) -> Option<HeaderValue> {
        match self {
            Coding::Identity => None,
            Coding::Gzip => Some(HeaderValue::from_static("gzip")),
            Coding::Brotli => Some(HeaderValue::from_static("br")),
        }
    }
}

/// The coding to answer with: brotli when accepted, else gzip, else none.
/// A coding is accepted when listed (or `*` is) with a q-value above 0.
pub fn negotiate(headers: &HeaderMap) -> Coding {
    let mut br = None;
    let mut gzip = None;
    let mut any = None;
    for v in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(text) = v.to_str() else { continue };
        for item in text.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
                .next()
                .is_none_or(|q| q.trim().parse::<f32>().is_ok_and(|q| q > 0.0));
            if name.eq_ignore_ascii_case("br") {
                br = Some(q);
            } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
                gzip = Some(q);
            } else if name == "*" {
                any = Some(q);
            }
        }
    }
    let accepted = |c: Option<bool>| c.or(any).unwrap_or(false);
    if accepted(br) {
        Coding::Brotli
    } else if accepted(gzip) {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// A file in each coding, compressed once.
pub struct Variants {
    identity: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
}

impl Variants {
    /// Compresses `identity` both ways; a coding that saves nothing is left out.
    pub fn new(identity: Bytes) -> Self {
        Self::with_brotli(identity, None)
    }

    /// As [`Variants::new`], with brotli's bytes given when they were made
    /// at build time (`&'static`, at a better quality than start-up affords).
    pub fn with_brotli(identity: Bytes, built: Option<&'static [u8]>) -> Self {
        let smaller = |b: Vec<u8>| (b.len() < identity.len()).then(|| Bytes::from(b));
        let mut gz =
            flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(STATIC_GZIP));
        let gzip = gz
            .write_all(&identity)
            .and_then(|()| gz.finish())
            .ok()
            .and_then(smaller);
        let brotli = match built {
            Some(b) => (b.len() < identity.len()).then(|| Bytes::from_static(b)),
            None => {
                let (q, w) = STATIC_BROTLI;
                let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, q, w);
                br.write_all(&identity)
                    .and_then(|()| br.flush())
                    .ok()
                    .map(|()| br.into_inner())
                    .and_then(smaller)
            }
        };
        Variants {
            identity,
            gzip,
            brotli,
        }
    }

    /// The bytes in `coding`, or as they are when that coding was left out.
    pub fn pick(&self, coding: Coding) -> (Coding, &Bytes) {
        match (coding, &self.brotli, &self.gzip) {
            (Coding::Brotli, Some(b), _) => (Coding::Brotli, b),
            (Coding::Brotli | Coding::Gzip, _, Some(g)) => (Coding::Gzip, g),
            _ => (Coding::Identity, &self.identity),
        }
    }

    /// A `200` of this file in the coding the request accepts, with
    /// `Vary: Accept-Encoding` (which also tells [`compress`] to leave it).
    pub fn respond(&self, req: &HttpRequest, content_type: &'static str) -> HttpResponse {
        let (coding, bytes) = self.pick(negotiate(req.headers()));
        let mut res = HttpResponse::Ok();
        res.insert_header((header::CONTENT_TYPE, content_type))
            .insert_header((header::VARY, "accept-encoding"));
        if let Some(v) = coding.header() {
            res.insert_header((header::CONTENT_ENCODING, v));
        }
        res.body(sliced(bytes.clone()))
    }
}

/// A body of `bytes`: as they are when short (actix writes them with the
/// head, nothing allocated), else in slices ([`Sliced`]).
pub fn sliced(bytes: Bytes) -> actix_web::body::BoxBody {
    if bytes.len() <= SLICE {
        actix_web::body::BoxBody::new(bytes)
    } else {
        actix_web::body::BoxBody::new(Sliced(bytes))
    }
}

/// Bytes handed to actix a slice at a time, so that a connection's write
/// buffer holds at most about two slices of an answer.
pub struct Sliced(pub Bytes);

impl MessageBody for Sliced {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.0.len() as u64)
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        if this.0.is_empty() {
            Poll::Ready(None)
        } else {
            let n = this.0.len().min(SLICE);
            Poll::Ready(Some(Ok(this.0.split_to(n))))
        }
    }
}

/// The compressors that may run at once.
#[derive(Clone, Debug)]
pub struct Compressors(Arc<Semaphore>);

impl Compressors {
    pub fn new(max: usize) -> Self {
        Compressors(Arc::new(Semaphore::new(max.min(Semaphore::MAX_PERMITS))))
    }
}

/// Middleware: compresses an answer as it is written when the client
/// accepts a coding, the answer is long enough and not already coded, and a
/// compressor is free; else the answer goes as it is.
pub fn compress<S, B>(
    compressors: &Compressors,
    req: ServiceRequest,
    srv: &S,
) -> impl Future<Output = Result<ServiceResponse<EitherBody<B, Compressed<B>>>, Error>> + 'static
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error>,
    S::Future: 'static,
    B: MessageBody + 'static,
{
    // HEAD is answered with GET's headers, uncompressed: no body to code.
    let coding = if req.method() == actix_web::http::Method::HEAD {
        Coding::Identity
    } else {
        negotiate(req.headers())
    };
    let compressors = compressors.clone();
    let fut = srv.call(req);
    async move {
        let res = fut.await?;
        let long = matches!(res.response().body().size(), BodySize::Sized(n) if n >= MIN_BYTES);
        let status = res.status();
        let codable = long
            && status != StatusCode::NO_CONTENT
            && status != StatusCode::PARTIAL_CONTENT
            && !status.is_informational()
            && !res.headers().contains_key(header::CONTENT_ENCODING)
            && !res.headers().contains_key(header::VARY);
        if !codable {
            return Ok(res.map_into_left_body());
        }
        let permit = match coding {
            Coding::Identity => None,
            _ => compressors.0.try_acquire_owned().ok(),
        };
        let Some(permit) = permit else {
            let mut res = res;
            res.headers_mut()
                .append(header::VARY, HeaderValue::from_static("accept-encoding"));
            return Ok(res.map_into_left_body());
        };
        let res = res.map_body(|head, body| {
            let h = &mut head.headers;
            if let Some(v) = coding.header() {
                h.insert(header::CONTENT_ENCODING, v);
            }
            h.append(header::VARY, HeaderValue::from_static("accept-encoding"));
            h.remove(header::CONTENT_LENGTH);
            Compressed::new(body, coding, permit)
        });
        Ok(res.map_into_right_body())
    }
}

enum Encoder {
    Gzip(flate2::write::GzEncoder<Vec<u8>>),
    Brotli(Box<brotli::CompressorWriter<Vec<u8>>>),
}

impl Encoder {
    fn write(&mut self, data: &[u8]) -> std::io::Result<()> {
        match self {
            Encoder::Gzip(e) => e.write_all(data),
            Encoder::Brotli(e) => e.write_all(data),
        }
    }

    /// What is ready to send.
    fn take(&mut self) -> Vec<u8> {
        match self {
            Encoder::Gzip(e) => std::mem::take(e.get_mut()),
            Encoder::Brotli(e) => std::mem::take(e.get_mut()),
        }
    }

    fn finish(self) -> std::io::Result<Vec<u8>> {
        match self {
            Encoder::Gzip(e) => e.finish(),
            Encoder::Brotli(mut e) => {
                e.flush()?;
                Ok(e.into_inner())
            }
        }
    }
}

/// An answer compressed as actix asks for its bytes, holding its
/// compressor's permit until it is done (or dropped with its connection).
pub struct Compressed<B> {
    body: Pin<Box<B>>,
    encoder: Option<Encoder>,
    _permit: OwnedSemaphorePermit,
}

impl<B> Compressed<B> {
    fn new(body: B, coding: Coding, permit: OwnedSemaphorePermit) -> Self {
        let encoder = match coding {
            Coding::Brotli => {
                let (q, w) = DYNAMIC_BROTLI;
                Encoder::Brotli(Box::new(brotli::CompressorWriter::new(
                    Vec::new(),
                    4096,
                    q,
                    w,
                )))
            }
            _ => Encoder::Gzip(flate2::write::GzEncoder::new(
                Vec::new(),
                flate2::Compression::new(DYNAMIC_GZIP),
            )),
        };
        Compressed {
            body: Box::pin(body),
            encoder: Some(encoder),
            _permit: permit,
        }
    }
}

impl<B: MessageBody> MessageBody for Compressed<B> {
    type Error = Box<dyn std::error::Error>;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        loop {
            let Some(encoder) = this.encoder.as_mut() else {
                return Poll::Ready(None);
            };
            match this.body.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e.into()))),
                Poll::Ready(Some(Ok(chunk))) => {
                    encoder.write(&chunk)?;
                    let out = encoder.take();
                    if !out.is_empty() {
                        return Poll::Ready(Some(Ok(Bytes::from(out))));
                    }
                }
                Poll::Ready(None) => {
                    let encoder = this.encoder.take().expect("present above");
                    let out = encoder.finish()?;
                    return Poll::Ready((!out.is_empty()).then(|| Ok(Bytes::from(out))));
                }
            }
        }
    }
}
