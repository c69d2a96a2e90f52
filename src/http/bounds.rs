//! Bounds shared by every worker: the bytes of bodies and answers held at
//! once (a byte semaphore), and the blocking pool that runs ledger, batch and
//! compare off the async workers so `/healthz` and `/readyz` keep answering.

use crate::api::{ApiError, Overload};
use actix_web::body::{BodySize, MessageBody};
use actix_web::web::Bytes;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Seconds a client is told to wait after a 503.
pub const RETRY_AFTER: u64 = 1;

/// Bytes of request bodies being read or handled and of answers not yet
/// sent, across all connections: one permit a byte.
#[derive(Clone, Debug)]
pub struct ByteBudget {
    bytes: Arc<Semaphore>,
    max: usize,
}

/// Bytes held against the budget; given back when dropped.
#[derive(Debug)]
pub struct Held(Option<OwnedSemaphorePermit>);

impl Held {
    /// Nothing held.
    pub fn none() -> Self {
        Held(None)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.0.as_ref().map_or(0, |p| p.num_permits())
    }

    /// Adds more bytes to those held.
    fn add(&mut self, more: OwnedSemaphorePermit) {
        match &mut self.0 {
            Some(p) => p.merge(more),
            None => self.0 = Some(more),
        }
    }
}

impl ByteBudget {
    pub fn new(max: usize) -> Self {
        // The semaphore's own ceiling is far above any memory size.
        let max = max.min(Semaphore::MAX_PERMITS);
        ByteBudget {
            bytes: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// Holds `n` more bytes in `held`, or a 503 when they are not free now
    /// (never waits: a client holding bytes must not make others wait).
    pub fn take(&self, held: &mut Held, n: usize) -> Result<(), ApiError> {
        if n == 0 {
            return Ok(());
        }
        let overloaded = || ApiError::Overloaded {
            what: Overload::Buffered,
            retry_after: RETRY_AFTER,
        };
        let n32 = u32::try_from(n).map_err(|_| overloaded())?;
        if n > self.max {
            return Err(overloaded());
        }
        let permit = self
            .bytes
            .clone()
            .try_acquire_many_owned(n32)
            .map_err(|_| overloaded())?;
        held.add(permit);
        Ok(())
    }

    /// Bytes held right now (for tests and metrics).
    pub fn in_use(&self) -> usize {
        self.max - self.bytes.available_permits()
    }
}

/// The blocking pool's admission: `threads` run at once, `queue` more may
/// wait; past that a 503.
#[derive(Clone, Debug)]
pub struct Pool {
    admitted: Arc<Semaphore>,
    running: Arc<Semaphore>,
}

impl Pool {
    pub fn new(threads: usize, queue: usize) -> Self {
        let threads = threads.max(1);
        Pool {
            admitted: Arc::new(Semaphore::new(threads + queue)),
            running: Arc::new(Semaphore::new(threads)),
        }
    }

    /// Runs `work` on a blocking thread once one of the pool's is free; a
    /// 503 at once when the queue is full.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let Ok(_admitted) = self.admitted.clone().try_acquire_owned() else {
            return Err(ApiError::Overloaded {
                what: Overload::Queue,
                retry_after: RETRY_AFTER,
            });
        };
        // Closed never: the semaphore lives as long as the pool.
        let running =
            self.running
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| ApiError::Overloaded {
                    what: Overload::Queue,
                    retry_after: RETRY_AFTER,
                })?;
        let joined = actix_web::rt::task::spawn_blocking(move || {
            let _running = running;
            work()
        })
        .await;
        match joined {
            Ok(r) => r,
            // The work panicked: the task's panic goes on as the handler's.
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}

/// Bytes of an answer handed to actix at a time.
const SLICE: usize = 32 * 1024;

/// An answer's bytes with the budget they hold, given back once actix has
/// written them out (or the connection dropped them).
pub struct HeldBody {
    bytes: Bytes,
    _held: Held,
}

impl HeldBody {
    pub fn new(bytes: Bytes, held: Held) -> Self {
        HeldBody { bytes, _held: held }
    }
}

impl MessageBody for HeldBody {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.bytes.len() as u64)
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        // In slices: actix copies each into its write buffer and asks for
        // the next only once that buffer drains, so the bytes stay held (and
        // counted) until the last slice is handed over.
        let this = self.get_mut();
        if this.bytes.is_empty() {
            Poll::Ready(None)
        } else {
            let n = this.bytes.len().min(SLICE);
            Poll::Ready(Some(Ok(this.bytes.split_to(n))))
        }
    }
}
