//! Waiting for a request body without waking the connection's task.
//!
//! actix-http's HTTP/1 dispatcher (3.x, `h1::dispatcher`) calls a handler
//! as soon as it has decoded a request's head, before it feeds the payload
//! the body bytes that came with the head, and polls the handler again in
//! the same pass once it has (`poll_request`, then `poll_response`, which
//! polls a pending service call every time the connection's task runs). A
//! handler that polls the payload at that first call leaves its waker with
//! the payload, the feed fires it, and the task is scheduled and run once
//! more for nothing: about a quarter of a microsecond per request, a tenth
//! of what a cache miss costs beyond `GET /healthz` (`bench/load.md`).
//!
//! So [`read_json_body`](super::handlers) looks at the payload with a
//! no-op waker first and, when the body is not all there, returns `Pending`
//! once through [`second_poll`] instead. The task runs again whenever bytes
//! arrive, so a body that is still coming is read; the one case left is a
//! pipelined request (handled after the one before it, not when its head
//! was decoded) whose body stops arriving. For that, [`second_poll`] leaves
//! the waker on a per-worker watch list, and a ticker on each worker wakes
//! whatever has waited a full [`TICK`]; that poll arms the body timeout.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// How often a worker's ticker wakes the handlers left waiting: one that
/// waits through a whole tick is woken, after one to two ticks.
pub const TICK: Duration = Duration::from_secs(1);

/// The handlers of this worker thread waiting for their second poll.
#[derive(Default)]
struct Watch {
    next_id: u64,
    /// Ticks so far; an entry is woken once a tick has passed since its own.
    tick: u64,
    /// (id, tick when added, waker), oldest first.
    waiting: Vec<(u64, u64, Waker)>,
    ticker: Option<actix_web::rt::task::JoinHandle<()>>,
}

thread_local! {
    static WATCH: RefCell<Watch> = RefCell::default();
}

/// `Pending` once, then `Ready`: gives the dispatcher its pass without a
/// wake-up, and leaves the waker on the watch list until the second poll.
pub fn second_poll() -> SecondPoll {
    SecondPoll { id: None }
}

pub struct SecondPoll {
    id: Option<u64>,
}

impl Future for SecondPoll {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match self.id.take() {
            Some(id) => {
                unwatch(id);
                Poll::Ready(())
            }
            None => {
                self.id = Some(watch(cx.waker()));
                Poll::Pending
            }
        }
    }
}

impl Drop for SecondPoll {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            unwatch(id);
        }
    }
}

fn watch(waker: &Waker) -> u64 {
    WATCH.with_borrow_mut(|w| {
        if w.ticker.as_ref().is_none_or(|t| t.is_finished()) {
            w.ticker = Some(actix_web::rt::spawn(tick_forever()));
        }
        let id = w.next_id;
        w.next_id += 1;
        let tick = w.tick;
        w.waiting.push((id, tick, waker.clone()));
        id
    })
}

fn unwatch(id: u64) {
    WATCH.with_borrow_mut(|w| {
        // Nearly always the newest entry.
        if let Some(i) = w.waiting.iter().rposition(|e| e.0 == id) {
            w.waiting.remove(i);
        }
    });
}

async fn tick_forever() {
    let mut interval = actix_web::rt::time::interval(TICK);
    loop {
        interval.tick().await;
        wake_stale();
    }
}

/// Wakes (and forgets) every handler that has waited through a whole tick.
fn wake_stale() {
    let stale: Vec<Waker> = WATCH.with_borrow_mut(|w| {
        let now = w.tick;
        w.tick += 1;
        let keep = w.waiting.iter().position(|e| e.1 >= now);
        let n = keep.unwrap_or(w.waiting.len());
        w.waiting.drain(..n).map(|e| e.2).collect()
    });
    // Woken outside the borrow: a waker may run code that watches again.
    for waker in stale {
        waker.wake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn waiting() -> usize {
        WATCH.with_borrow(|w| w.waiting.len())
    }

    /// The second poll takes the entry off the list and nothing is woken;
    /// an entry left waiting is woken at the second tick after it, once.
    #[actix_web::test]
    async fn the_list_wakes_only_what_waited_a_whole_tick() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(count.clone());
        let mut cx = Context::from_waker(&waker);

        let mut quick = std::pin::pin!(second_poll());
        assert!(quick.as_mut().poll(&mut cx).is_pending(), "first poll");
        assert_eq!(waiting(), 1, "watched after the first poll");
        assert!(quick.as_mut().poll(&mut cx).is_ready(), "second poll");
        assert_eq!(waiting(), 0, "unwatched by the second poll");

        let mut slow = Box::pin(second_poll());
        assert!(slow.as_mut().poll(&mut cx).is_pending());
        wake_stale(); // the tick it was added in: not a whole tick yet
        assert_eq!((count.0.load(Ordering::SeqCst), waiting()), (0, 1));
        wake_stale();
        assert_eq!((count.0.load(Ordering::SeqCst), waiting()), (1, 0));
        wake_stale();
        assert_eq!(count.0.load(Ordering::SeqCst), 1, "woken once");
        assert!(slow.as_mut().poll(&mut cx).is_ready());

        // Dropped between its polls (the connection went away): unwatched.
        let mut dropped = Box::pin(second_poll());
        assert!(dropped.as_mut().poll(&mut cx).is_pending());
        drop(dropped);
        assert_eq!(waiting(), 0, "unwatched on drop");
    }
}
