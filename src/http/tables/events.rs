//! A table's event stream: server-sent events from the hub's latest
//! `TABLE`, never queued.

use super::problem::NoTable;
use super::{existing, live, path_id, Answer, TableProblem};
use crate::api::Problem;
use crate::http::AppState;
use crate::tables::hub::{Event, Subscription};
use crate::tables::{json, Tables};
use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use std::sync::Arc;
use std::time::Duration;

/// A comment line this often keeps idle streams (and proxies) open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// A stream whose client has not taken a change this long after it was
/// made has fallen behind, and is closed.
const BEHIND: Duration = Duration::from_secs(30);

struct Stream {
    sub: Subscription,
    /// The version last sent (or resumed from).
    last: i64,
    sent: bool,
    done: bool,
    tick: tokio::time::Interval,
    /// The server's shutdown flag: a stream ends at its next keep-alive
    /// once shutdown has begun, so that a drain is not held up by it.
    closing: Arc<std::sync::atomic::AtomicBool>,
}

/// The next frame of a stream, or `None` to close it.
async fn next_frame(mut st: Stream) -> Option<(Result<Bytes, std::convert::Infallible>, Stream)> {
    loop {
        if st.done {
            return None;
        }
        let ev = st.sub.rx.borrow_and_update().clone();
        match ev.as_deref() {
            Some(Event::Deleted) => {
                st.done = true;
                return Some((Ok(Bytes::from_static(b"event: deleted\ndata: {}\n\n")), st));
            }
            Some(Event::Table { version, frame, at }) if *version > st.last => {
                // Not polled for a change made this long ago: the client
                // does not keep up.
                if st.sent && at.elapsed() > BEHIND {
                    return None;
                }
                st.last = *version;
                st.sent = true;
                return Some((Ok(frame.clone()), st));
            }
            _ => {}
        }
        tokio::select! {
            changed = st.sub.rx.changed() => if changed.is_err() { return None },
            _ = st.tick.tick() => {
                if st.closing.load(std::sync::atomic::Ordering::Relaxed) {
                    return None;
                }
                return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), st));
            }
        }
    }
}

/// Follow a table: server-sent events.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/events",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "`text/event-stream`: an event `table` with the table on connecting (its SSE `id` the version), another after every change, a comment every 15 s; `Last-Event-ID` resumes; `deleted`, then the end, when the table is deleted. A stream that falls behind is closed", content_type = "text/event-stream", body = String),
        NoTable,
        (status = 503, description = "Too many streams on this table (`--events-per-table`) or in all (`--events-max`): `/problems/streams-full`, retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn events(
    state: web::Data<AppState>,
    tables: web::Data<Tables>,
    req: HttpRequest,
) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchTable)?;
    // The place first, so that no change between the read and the
    // subscription is missed.
    let sub = live.hub.subscribe(&id).map_err(TableProblem::Streams)?;
    let row = existing(&live, &id).await?;
    live.hub.publish(&id, row.version, &json::table(&row));
    let last = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    let st = Stream {
        sub,
        last,
        sent: false,
        done: false,
        tick: tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE),
        closing: state.shutting_down.clone(),
    };
    let stream = futures_util::stream::unfold(st, next_frame);
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Not compressed (the encoder would hold frames back) and not
        // buffered by a proxy.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("x-accel-buffering", "no"))
        // Out of --max-connections and watched (`http::streams`); the
        // connection closes with the stream.
        .force_close()
        .streaming(crate::http::streams::watch(&req, stream)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::hub::Hub;
    use std::time::Instant;

    fn stream(hub: &Hub, last: i64) -> Stream {
        Stream {
            sub: hub.subscribe("t").unwrap(),
            last,
            sent: false,
            done: false,
            tick: tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE),
            closing: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        }
    }

    fn text(frame: &Option<(Result<Bytes, std::convert::Infallible>, Stream)>) -> String {
        match frame {
            Some((Ok(b), _)) => String::from_utf8_lossy(b).into_owned(),
            Some((Err(e), _)) => match *e {},
            None => "(closed)".into(),
        }
    }

    #[tokio::test]
    async fn a_stream_that_falls_behind_is_closed() {
        // Version 1 is sent; version 2 was made 31 s before the stream was
        // next polled (past the 30 s it may lag): the stream closes instead
        // of sending it late.
        let hub = Hub::new(4, 4);
        let st = stream(&hub, 0);
        hub.publish("t", 1, b"{}");
        let first = next_frame(st).await;
        assert_eq!(text(&first), "event: table\nid: 1\ndata: {}\n\n");
        let (_, st) = first.unwrap();
        let long_ago = Instant::now() - Duration::from_secs(31);
        hub.publish_at("t", 2, b"{}", long_ago);
        assert_eq!(text(&next_frame(st).await), "(closed)");
    }

    #[tokio::test]
    async fn a_resumed_stream_skips_what_it_has_and_ends_on_deletion() {
        // Resumed from version 3 with the table at 3: nothing is sent until
        // version 4; then the deletion, then the end.
        let hub = Hub::new(4, 4);
        let st = stream(&hub, 3);
        hub.publish("t", 3, b"{}");
        let waiting = tokio::time::timeout(Duration::from_millis(50), next_frame(st)).await;
        assert!(waiting.is_err(), "nothing newer than 3 yet");
        let st = stream(&hub, 3);
        hub.publish("t", 4, b"{}");
        let (_, st) = next_frame(st).await.unwrap();
        assert_eq!(st.last, 4);
        hub.deleted("t");
        let deleted = next_frame(st).await;
        assert_eq!(text(&deleted), "event: deleted\ndata: {}\n\n");
        let (_, st) = deleted.unwrap();
        assert!(next_frame(st).await.is_none());
    }
}
