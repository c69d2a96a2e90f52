//! One connection's bounds below actix: its unwritten answers hold back the
//! reading of further pipelined requests, a client that takes no byte of
//! its answers for the write timeout loses the connection, and a body its
//! `Content-Length` already puts over the limit is refused before
//! `100 Continue`.
//!
//! actix-http's dispatcher decodes every request it has read and queues
//! them, answering each in turn into its write buffer, and it reads on
//! whether or not the client takes its answers; nor does it time out a
//! write. [`Guarded`] wraps the socket it is given: reads wait while the
//! answers of what was read have not all been handed to the kernel, and a
//! write that stays blocked past the timeout fails, so actix drops the
//! connection with its answers and the budget they hold.
//!
//! Each socket also carries its [`streams::Conn`]: its place in
//! `--max-connections` and the bytes it wrote, which event streams read
//! (`http::streams`).

use super::streams;
use super::{AppState, Limits};
use crate::api::ApiError;
use crate::http::problem::Refusal;
use actix_web::http::header;
use actix_web::rt::time::{sleep, Instant, Sleep};
use actix_web::HttpMessage;
use std::future::Future;
use std::io;
use std::os::fd::AsRawFd;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Bytes of requests read while answers are being written. Past it,
/// reading waits until the connection has written out all it had and
/// nothing since. actix decodes and queues every request it has read
/// (each holds memory while it waits: bench/hostile.md), though it stops
/// filling its write buffer at 32 KiB: so a client that pipelines requests
/// and takes its answers slowly or not at all queues a few dozen.
pub const READ_AHEAD: usize = 2 * 1024;

/// A socket with the connection's bounds.
pub struct Guarded<T> {
    io: T,
    timeout: Option<Duration>,
    /// Fires when a write has been blocked for the whole timeout; made on the
    /// first blocked write, then reset.
    stall: Option<Pin<Box<Sleep>>>,
    /// A write is blocked (the kernel took none of the last bytes offered).
    blocked: bool,
    /// All that was written has been flushed, and nothing written or read
    /// since.
    settled: bool,
    /// Bytes read since the connection last settled.
    read_ahead: usize,
    /// A read was refused: wake the task once reading may go on.
    parked: bool,
    conn: Option<Rc<streams::Conn>>,
}

impl<T> Guarded<T> {
    pub fn new(io: T, timeout: Option<Duration>) -> Self {
        Guarded {
            io,
            timeout,
            stall: None,
            blocked: false,
            settled: true,
            read_ahead: 0,
            parked: false,
            conn: None,
        }
    }

    /// The connection as its requests see it.
    pub fn conn(&self) -> Option<&Rc<streams::Conn>> {
        self.conn.as_ref()
    }
}

impl<T: AsRawFd> Guarded<T> {
    /// A socket that holds a place in `--max-connections` (`plain`) until
    /// its request becomes an event stream.
    pub fn tracked(
        io: T,
        timeout: Option<Duration>,
        plain: Option<tokio::sync::OwnedSemaphorePermit>,
    ) -> Self {
        let conn = streams::Conn::new(io.as_raw_fd(), plain, timeout);
        let mut g = Guarded::new(io, timeout);
        g.conn = Some(conn);
        g
    }
}

impl<T> Drop for Guarded<T> {
    fn drop(&mut self) {
        // Before the socket closes: a stream must not look at its number
        // again, which the system may give to another socket.
        if let Some(c) = &self.conn {
            c.closed();
        }
    }
}

impl<T> Guarded<T> {
    /// A read of `n` bytes into room for more that ended so met the peer's
    /// close (or a reset): an event stream on the connection ends with it,
    /// since actix streams on to a half-closed client.
    fn closed_if(&self, r: &Poll<io::Result<()>>, n: usize) {
        let closed = match r {
            Poll::Ready(Ok(())) => n == 0,
            Poll::Ready(Err(_)) => true,
            Poll::Pending => false,
        };
        if closed {
            if let Some(c) = &self.conn {
                c.peer_closed();
            }
        }
    }
}

fn ended() -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionAborted,
        "the event stream ended: its client has gone or does not read",
    )
}

impl<T: AsyncRead + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if std::mem::take(&mut this.settled) {
            this.read_ahead = 0;
        }
        if this.blocked || this.read_ahead >= READ_AHEAD {
            // Woken by the write that unblocks, or by the next flush.
            this.parked = true;
            return Poll::Pending;
        }
        let room = READ_AHEAD - this.read_ahead;
        if buf.remaining() <= room {
            let (before, room) = (buf.filled().len(), buf.remaining());
            let r = Pin::new(&mut this.io).poll_read(cx, buf);
            let n = buf.filled().len() - before;
            this.read_ahead += n;
            if room > 0 {
                this.closed_if(&r, n);
            }
            return r;
        }
        // Near the bound: read no more than the room left, through a buffer
        // of our own (rare; the usual request is far under it).
        let mut tmp = [0u8; READ_AHEAD];
        let mut part = ReadBuf::new(&mut tmp[..room]);
        let r = Pin::new(&mut this.io).poll_read(cx, &mut part);
        if let Poll::Ready(Ok(())) = r {
            buf.put_slice(part.filled());
            this.read_ahead += part.filled().len();
        }
        this.closed_if(&r, part.filled().len());
        r
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.conn.as_ref().is_some_and(|c| c.ended()) {
            return Poll::Ready(Err(ended()));
        }
        match Pin::new(&mut this.io).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    if let Some(c) = &this.conn {
                        c.wrote(n);
                    }
                    this.settled = false;
                    if std::mem::take(&mut this.blocked) && this.parked {
                        cx.waker().wake_by_ref();
                    }
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                let Some(timeout) = this.timeout else {
                    this.blocked = true;
                    return Poll::Pending;
                };
                if !this.blocked {
                    this.blocked = true;
                    let deadline = Instant::now() + timeout;
                    match &mut this.stall {
                        Some(s) => s.as_mut().reset(deadline),
                        None => this.stall = Some(Box::pin(sleep(timeout))),
                    }
                }
                match this.stall.as_mut().map(|s| s.as_mut().poll(cx)) {
                    Some(Poll::Ready(())) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client took no byte of its answers for the write timeout",
                    ))),
                    _ => Poll::Pending,
                }
            }
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.conn.as_ref().is_some_and(|c| c.ended()) {
            return Poll::Ready(Err(ended()));
        }
        let r = Pin::new(&mut this.io).poll_flush(cx);
        if r.is_pending() {
            return r;
        }
        // actix flushes once all it had is written. Unless it writes more
        // before its next read (more answers queued), reading may go on.
        this.settled = true;
        if std::mem::take(&mut this.parked) {
            cx.waker().wake_by_ref();
        }
        r
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

impl Limits {
    /// The body limit of a path: the ledger's, batch and compare's, or the
    /// single requests'. Both the handlers and [`Expect`] read it here.
    pub fn for_path(&self, path: &str) -> usize {
        match path {
            // A table is created with its whole night, like a ledger.
            "/v1/ledger" | "/v1/tables" => self.ledger_body,
            "/v1/score/batch" | "/v1/compare" => self.batch_body,
            _ => self.body,
        }
    }
}

/// `Expect: 100-continue`: a `Content-Length` over the path's limit is
/// answered 413 at once, so the client never sends the body; anything else
/// gets its `100 Continue`.
#[derive(Clone)]
pub struct Expect {
    pub state: actix_web::web::Data<AppState>,
}

impl actix_web::dev::ServiceFactory<actix_http::Request> for Expect {
    type Response = actix_http::Request;
    type Error = actix_web::Error;
    type Config = ();
    type Service = Expect;
    type InitError = ();
    type Future = std::future::Ready<Result<Expect, ()>>;

    fn new_service(&self, _: ()) -> Self::Future {
        std::future::ready(Ok(self.clone()))
    }
}

impl actix_web::dev::Service<actix_http::Request> for Expect {
    type Response = actix_http::Request;
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<actix_http::Request, actix_web::Error>>;

    actix_web::dev::always_ready!();

    fn call(&self, req: actix_http::Request) -> Self::Future {
        let limit = self.state.limits.for_path(req.path());
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit as u64) {
            super::observe::refused(&self.state, &req, 413);
            return std::future::ready(Err(Refusal(ApiError::PayloadTooLarge { limit }).into()));
        }
        std::future::ready(Ok(req))
    }
}
