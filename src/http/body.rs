//! Reading a request body: the content type, the size limit (from
//! `Content-Length` and while reading) and the body timeout.

use super::AppState;
use crate::api::ApiError;
use actix_web::http::header;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::HttpRequest;
use futures_util::StreamExt;

/// Checks the content type and reads at most `limit` bytes within the body timeout.
pub async fn read_json_body(
    req: &HttpRequest,
    state: &AppState,
    payload: web::Payload,
    limit: usize,
) -> Result<Bytes, ApiError> {
    check_json_content_type(req)?;
    actix_web::rt::time::timeout(state.limits.body_timeout, read_body(req, payload, limit))
        .await
        .map_err(|_| ApiError::RequestTimeout {
            limit_ms: state.limits.body_timeout.as_millis() as u64,
        })?
}

/// `application/json`, or any `application/*+json`, parameters ignored.
fn check_json_content_type(req: &HttpRequest) -> Result<(), ApiError> {
    let Some(ct) = req.headers().get(header::CONTENT_TYPE) else {
        return Err(ApiError::UnsupportedMediaType { got: None });
    };
    let ct = ct.to_str().unwrap_or("");
    let ok = ct.parse::<actix_web::mime::Mime>().is_ok_and(|m| {
        m.type_() == actix_web::mime::APPLICATION
            && (m.subtype() == actix_web::mime::JSON || m.suffix() == Some(actix_web::mime::JSON))
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
    mut payload: web::Payload,
    limit: usize,
) -> Result<Bytes, ApiError> {
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
    let mut body = BytesMut::with_capacity(declared.unwrap_or(1024).min(limit));
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(unreadable)?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}
