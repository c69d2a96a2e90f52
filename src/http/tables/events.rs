//! A table's event stream: server-sent events of its changes (`hand`,
//! `undo`), a `table` event on connecting and whenever the stream fell
//! behind, `deleted` at the end. Nothing is queued per stream: the hub
//! holds the last changes once for all the table's streams.

use super::problem::NoTable;
use super::{existing, live, path_id, Answer, TableProblem};
use crate::api::Problem;
use crate::http::AppState;
use crate::store::Kept;
use crate::tables::hub::{self, Next, Subscription};
use crate::tables::{json, Live, Tables};
use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A comment line this often keeps idle streams (and proxies) open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

const DELETED: &[u8] = b"event: deleted\ndata: {}\n\n";

struct Stream {
    state: web::Data<AppState>,
    live: Arc<Live>,
    id: String,
    sub: Subscription,
    /// The version last sent (or resumed from).
    last: i64,
    /// What to send first, before waiting for changes.
    first: Option<Bytes>,
    done: bool,
    tick: tokio::time::Interval,
    /// The server's shutdown flag: a stream ends at its next keep-alive
    /// once shutdown has begun, so that a drain is not held up by it.
    closing: Arc<AtomicBool>,
}

/// Events joined into one chunk (one write).
fn joined(events: Vec<Bytes>) -> Bytes {
    match events.len() {
        1 => events.into_iter().next().unwrap_or_default(),
        _ => Bytes::from(events.concat()),
    }
}

/// The table's `table` event at its latest version: the one the hub keeps,
/// or made now from the store (on the blocking pool: a long night is a
/// large event). `None` when the table is gone.
async fn table_event(
    state: &web::Data<AppState>,
    live: &Live,
    id: &str,
) -> Result<Option<(i64, Bytes)>, TableProblem> {
    if let Some(v) = live.hub.latest(id) {
        if let Some(t) = live.hub.table(id, v) {
            return Ok(Some((v, t)));
        }
    }
    let Some((row, hands)) = live.whole(id).await? else {
        return Ok(None);
    };
    let version = row.version;
    let event = state
        .pool
        .run(move || Ok(hub::frame("table", row.version, &json::table(&row, &hands))))
        .await?;
    live.hub.seen(id, version);
    live.hub.keep_table(id, version, event.clone());
    Ok(Some((version, event)))
}

/// The next chunk of a stream, or `None` to close it.
async fn next_chunk(mut st: Stream) -> Option<(Result<Bytes, std::convert::Infallible>, Stream)> {
    if let Some(first) = st.first.take() {
        return Some((Ok(first), st));
    }
    loop {
        if st.done {
            return None;
        }
        match st.live.hub.next(&st.id, st.last) {
            Next::Deleted => {
                st.done = true;
                return Some((Ok(Bytes::from_static(DELETED)), st));
            }
            Next::Changes(events, version) => {
                st.last = version;
                return Some((Ok(joined(events)), st));
            }
            Next::Table(_) => match table_event(&st.state, &st.live, &st.id).await {
                Ok(Some((version, event))) => {
                    st.last = version;
                    return Some((Ok(event), st));
                }
                Ok(None) => {
                    st.done = true;
                    return Some((Ok(Bytes::from_static(DELETED)), st));
                }
                // The store or the pool is busy: the client reconnects
                // with Last-Event-ID.
                Err(_) => return None,
            },
            Next::Wait => {}
        }
        tokio::select! {
            changed = st.sub.rx.changed() => if changed.is_err() { return None },
            _ = st.tick.tick() => {
                if st.closing.load(Ordering::Relaxed) {
                    return None;
                }
                return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), st));
            }
        }
    }
}

/// The changes after `after` as events, if the store still keeps every
/// one of them up to `version` at least.
fn resumed(kept: &[Kept], after: i64, version: i64) -> Option<(Vec<Bytes>, i64)> {
    let follows = kept
        .iter()
        .enumerate()
        .all(|(i, k)| k.version == after + 1 + i as i64);
    let last = kept.last()?.version;
    (follows && last >= version).then(|| {
        let events = kept
            .iter()
            .map(|k| hub::frame(&k.kind, k.version, k.data.as_bytes()))
            .collect();
        (events, last)
    })
}

/// Follow a table: server-sent events.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/events",
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Last-Event-ID" = Option<i64>, Header, description = "The version last seen: the changes after it are sent while the server keeps them (at least the last 64), else the table"),
    ),
    responses(
        (status = 200, description = "`text/event-stream`: an event `table` with the table on connecting (its SSE `id` the version), then an event `hand` (data `HandChange`) or `undo` (data `UndoChange`) per change, a `table` event again whenever the stream fell behind, a comment every 15 s; `deleted`, then the end, when the table is deleted", content_type = "text/event-stream", body = String),
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
    live.hub.seen(&id, row.version);
    let resume = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|&n| (1..=row.version).contains(&n));
    let (first, last) = match resume {
        Some(n) if n == row.version => (None, n),
        Some(n) => match resumed(&live.changes_since(&id, n).await?, n, row.version) {
            Some((events, last)) => (Some(joined(events)), last),
            None => first_table(&state, &live, &id).await?,
        },
        None => first_table(&state, &live, &id).await?,
    };
    let st = Stream {
        state: state.clone(),
        live,
        id,
        sub,
        last,
        first,
        done: false,
        tick: tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE),
        closing: state.shutting_down.clone(),
    };
    let stream = futures_util::stream::unfold(st, next_chunk);
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Not compressed (the encoder would hold events back) and not
        // buffered by a proxy.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("x-accel-buffering", "no"))
        // Out of --max-connections and watched (`http::streams`); the
        // connection closes with the stream.
        .force_close()
        .streaming(crate::http::streams::watch(&req, stream)))
}

/// The `table` event a stream starts with, and its version.
async fn first_table(
    state: &web::Data<AppState>,
    live: &Live,
    id: &str,
) -> Result<(Option<Bytes>, i64), TableProblem> {
    match table_event(state, live, id).await? {
        Some((version, event)) => Ok((Some(event), version)),
        None => Err(TableProblem::NoSuchTable),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(v: i64) -> Kept {
        Kept {
            version: v,
            kind: "hand".into(),
            data: "{}".into(),
        }
    }

    #[test]
    fn a_resume_needs_every_change_since() {
        // After 3 with the table at 5: changes 4 and 5 resume; 5 alone
        // (4 forgotten) or 4 alone (short of 5) do not.
        let (events, last) = resumed(&[kept(4), kept(5)], 3, 5).unwrap();
        assert_eq!(last, 5);
        assert_eq!(events[0], hub::frame("hand", 4, b"{}"));
        assert!(resumed(&[kept(5)], 3, 5).is_none());
        assert!(resumed(&[kept(4)], 3, 5).is_none());
        assert!(resumed(&[], 3, 5).is_none());
    }
}
