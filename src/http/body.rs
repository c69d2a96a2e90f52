//! Reading a request body: the content type and coding, the size limit
//! (from `Content-Length` and while reading), the bytes held across all
//! connections (`bounds::ByteBudget`) and the body timeout.

use super::bounds::Held;
use super::AppState;
use crate::api::ApiError;
use actix_web::http::header;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::HttpRequest;
use futures_util::StreamExt;
use std::future::Future;
use std::task::{Context, Poll, Waker};

/// A request body and the budget it holds until it is dropped.
pub struct Body {
    pub bytes: Bytes,
    pub held: Held,
}

impl std::ops::Deref for Body {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

/// Checks the content type and coding and reads at most the path's limit
/// ([`super::Limits::for_path`]) within the body timeout, holding the bytes
/// against the shared budget.
pub async fn read_json_body(
    req: &HttpRequest,
    state: &AppState,
    payload: web::Payload,
) -> Result<Body, ApiError> {
    let limit = state.limits.for_path(req.path());
    check_json_content_type(req)?;
    check_identity_encoding(req)?;
    let mut read = std::pin::pin!(read_body(req, state, payload, limit));
    // actix polls the handler once before it feeds a body that came with the
    // headers, and again in the same pass once it has fed it. So the first
    // poll reads with a waker that never wakes: the body's arrival would
    // wake the connection for one more pass with nothing to do
    // (bench/instructions.md). The timer, armed only when that first poll
    // finds the body incomplete, holds the real waker, so a body that never
    // completes still ends in 408 where actix polls no more by itself (a
    // pipelined request taken from its queue).
    let mut timer = std::pin::pin!(None::<actix_web::rt::time::Sleep>);
    let mut first = true;
    let limit_ms = state.limits.body_timeout.as_millis() as u64;
    std::future::poll_fn(|cx| {
        let polled = if std::mem::take(&mut first) {
            read.as_mut().poll(&mut Context::from_waker(Waker::noop()))
        } else {
            read.as_mut().poll(cx)
        };
        if let Poll::Ready(body) = polled {
            return Poll::Ready(body);
        }
        if timer.is_none() {
            timer.set(Some(actix_web::rt::time::sleep(state.limits.body_timeout)));
        }
        match timer.as_mut().as_pin_mut().map(|t| t.poll(cx)) {
            Some(Poll::Ready(())) => Poll::Ready(Err(ApiError::RequestTimeout { limit_ms })),
            _ => Poll::Pending,
        }
    })
    .await
}

/// No `Content-Encoding`, or only `identity`: a compressed body is not
/// decoded, so reading it as JSON would answer a misleading 400.
fn check_identity_encoding(req: &HttpRequest) -> Result<(), ApiError> {
    let mut codings = req.headers().get_all(header::CONTENT_ENCODING);
    codings.try_for_each(|v| {
        let text = v.to_str().unwrap_or("?");
        let identity = text
            .split(',')
            .map(str::trim)
            .all(|c| c.is_empty() || c.eq_ignore_ascii_case("identity"));
        if identity {
            Ok(())
        } else {
            Err(ApiError::UnsupportedEncoding {
                got: text.chars().take(100).collect(),
            })
        }
    })
}

/// `application/json`, or any `application/*+json`, parameters ignored.
fn check_json_content_type(req: &HttpRequest) -> Result<(), ApiError> {
    let Some(ct) = req.headers().get(header::CONTENT_TYPE) else {
        return Err(ApiError::UnsupportedMediaType { got: None });
    };
    let ct = ct.to_str().unwrap_or("");
    // The usual header without a parse, which every request would pay (bench/load.md).
    let ok = ct.eq_ignore_ascii_case("application/json")
        || ct.parse::<actix_web::mime::Mime>().is_ok_and(|m| {
            m.type_() == actix_web::mime::APPLICATION
                && (m.subtype() == actix_web::mime::JSON
                    || m.suffix() == Some(actix_web::mime::JSON))
        });
    if ok {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType {
            got: Some(ct.chars().take(100).collect()),
        })
    }
}

async fn read_body(
    req: &HttpRequest,
    state: &AppState,
    mut payload: web::Payload,
    limit: usize,
) -> Result<Body, ApiError> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    let unreadable = |e| ApiError::MalformedJson {
        detail: format!("could not read the body: {e}"),
    };
    // The budget counts the buffer's capacity, taken before it grows: a
    // declared length up front, a chunked body as it doubles.
    let mut held = Held::none();
    let first = declared.unwrap_or(1024).min(limit);
    state.budget.take(&mut held, first)?;
    let mut body = BytesMut::with_capacity(first);
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(unreadable)?;
        let need = body.len() + chunk.len();
        if need > limit {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        if need > held.bytes() {
            let grown = need.max(2 * held.bytes()).min(limit);
            let more = grown - held.bytes();
            state.budget.take(&mut held, more)?;
            body.reserve(grown - body.len());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Body {
        bytes: body.freeze(),
        held,
    })
}
