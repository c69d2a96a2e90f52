//! Event streams' own budget below actix.
//!
//! Every connection starts as a plain one and holds one of its worker's
//! `--max-connections` places ([`Conn`], taken before actix reads a byte).
//! A connection whose request becomes an event stream gives that place
//! back ([`watch`]): from then on the hub's bounds (`--events-max`,
//! `--events-per-table`) count it, so no number of streams keeps the API
//! from answering. actix-server's own accept limit is raised by the event
//! budget (`startup`), so streams are never left waiting to be accepted.
//!
//! Neither actix nor the kernel tells a stream that its client is gone or
//! has stopped reading: actix reads the peer's close but streams on (HTTP
//! allows a half-closed client), and the kernel takes events into its send
//! buffer whether or not the client reads them. So the socket wrapper
//! tells the stream when a read meets the close, and while the stream has
//! bytes out it looks at its socket itself ([`CHECK_EVERY`]): a peer that
//! closed ends it (a read may be parked behind a blocked write), and so do
//! bytes the peer has not acknowledged for the write timeout. An idle
//! stream has no timer of its own. What is unsent stays small by our own
//! bounds: a stream hands actix at most [`PIECE`] bytes that are not yet in
//! the kernel, and its kernel send buffer is [`SEND_BUFFER`].

use actix_web::web::Bytes;
use actix_web::HttpRequest;
use futures_util::Stream;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::io;
use std::os::fd::RawFd;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, Sleep};

/// How often a stream with bytes out looks at its socket.
pub const CHECK_EVERY: Duration = Duration::from_millis(500);
/// Most bytes of a stream handed to actix and not yet taken by the kernel.
/// An event past it goes out in pieces (slices of the shared frame, no
/// copy), so actix's write buffer stays small however large the event:
/// with a piece's chunk framing, and the response head before the first,
/// it fits the 8 KiB actix starts a connection's buffer with, which then
/// never grows.
pub const PIECE: usize = 4 * 1024;
/// A stream's kernel send buffer (`SO_SNDBUF`; Linux counts twice this
/// with its bookkeeping). Small, because a stream sends little at a time,
/// and whatever a stalled client leaves in it is held until the write
/// timeout.
pub const SEND_BUFFER: usize = 8 * 1024;

/// One connection, as its socket wrapper (`conn::Guarded`) and its
/// requests (through the request's connection data) both see it. Lives on
/// its worker's thread.
pub struct Conn {
    /// The socket, until `Guarded` drops it (then -1).
    fd: Cell<RawFd>,
    /// The connection's place in `--max-connections`, until it becomes a
    /// stream.
    plain: RefCell<Option<OwnedSemaphorePermit>>,
    /// Bytes handed to the kernel so far.
    written: Cell<u64>,
    /// A stream waiting for its bytes to reach the kernel.
    waiting: RefCell<Option<Waker>>,
    /// A read met the peer's close (or a reset).
    peer_closed: Cell<bool>,
    /// The stream ended the connection: every further write fails, so
    /// actix drops it at once instead of flushing to a client that is gone
    /// or does not read.
    ended: Cell<bool>,
    write_timeout: Option<Duration>,
}

impl Conn {
    pub fn new(
        fd: RawFd,
        plain: Option<OwnedSemaphorePermit>,
        write_timeout: Option<Duration>,
    ) -> Rc<Conn> {
        Rc::new(Conn {
            fd: Cell::new(fd),
            plain: RefCell::new(plain),
            written: Cell::new(0),
            waiting: RefCell::new(None),
            peer_closed: Cell::new(false),
            ended: Cell::new(false),
            write_timeout,
        })
    }

    /// The kernel took `n` more bytes.
    pub fn wrote(&self, n: usize) {
        self.written.set(self.written.get() + n as u64);
        if let Some(w) = self.waiting.borrow_mut().take() {
            w.wake();
        }
    }

    /// A read met the peer's close: a stream on this connection ends.
    pub fn peer_closed(&self) {
        self.peer_closed.set(true);
        if let Some(w) = self.waiting.borrow_mut().take() {
            w.wake();
        }
    }

    /// Whether a stream has ended the connection.
    pub fn ended(&self) -> bool {
        self.ended.get()
    }

    /// The socket is being closed.
    pub fn closed(&self) {
        self.fd.set(-1);
    }

    /// Whether the connection still holds a `--max-connections` place.
    pub fn is_plain(&self) -> bool {
        self.plain.borrow().is_some()
    }
}

/// What a stream does after a look at its socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Look again: bytes are out.
    Look,
    /// Nothing out: no more looks until the next bytes.
    Rest,
    /// Gone or stalled.
    End,
}

/// What a look at the socket found.
#[derive(Debug, PartialEq, Eq)]
enum Socket {
    /// Open, with this many bytes not yet acknowledged by the peer.
    Open { unacked: u64 },
    /// The peer closed or reset it (or it is gone).
    Gone,
}

fn look(fd: RawFd) -> Socket {
    if fd < 0 {
        return Socket::Gone;
    }
    let mut byte = 0u8;
    // SAFETY: `fd` is the connection's open socket (`Conn::closed` marks it
    // -1 before it is closed, and both run on the worker's one thread); the
    // buffer is one valid byte, and MSG_PEEK | MSG_DONTWAIT neither consumes
    // data nor blocks.
    let n = unsafe {
        libc::recv(
            fd,
            (&mut byte as *mut u8).cast(),
            1,
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    if n == 0 {
        return Socket::Gone;
    }
    if n < 0 {
        let e = io::Error::last_os_error();
        if !matches!(
            e.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
        ) {
            return Socket::Gone;
        }
    }
    Socket::Open {
        unacked: unacked(fd),
    }
}

/// Bytes in the socket's send queue the peer has not acknowledged
/// (`SIOCOUTQ`, which Linux numbers as `TIOCOUTQ`).
#[cfg(target_os = "linux")]
fn unacked(fd: RawFd) -> u64 {
    let mut n: libc::c_int = 0;
    // SAFETY: `fd` is open (see `look`); SIOCOUTQ writes one int to the
    // pointer, which points at `n`.
    let r = unsafe { libc::ioctl(fd, libc::TIOCOUTQ, &mut n as *mut libc::c_int) };
    if r < 0 {
        0
    } else {
        n.max(0) as u64
    }
}

/// Elsewhere, only the write timeout of `Guarded` finds a stalled client.
#[cfg(not(target_os = "linux"))]
fn unacked(_: RawFd) -> u64 {
    0
}

fn shrink_send_buffer(fd: RawFd) {
    if fd < 0 {
        return;
    }
    let size = SEND_BUFFER as libc::c_int;
    // SAFETY: `fd` is open (see `look`); the option value is one int, given
    // with its size.
    unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            (&size as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// Makes the request's connection an event stream and wraps the stream's
/// body: the connection leaves `--max-connections` (the hub's bounds count
/// it now), and the body ends when the client has gone or has not taken
/// its bytes for the write timeout. Call it last, with the body of a 200
/// whose connection closes when the body ends (`force_close`), so that the
/// connection cannot serve plain requests outside its bound afterwards.
///
/// A request without connection data (a test service) gets the body as it
/// is.
pub fn watch<S, E>(req: &HttpRequest, inner: S) -> Watched<S>
where
    S: Stream<Item = Result<Bytes, E>>,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let conn = req.conn_data::<Rc<Conn>>().cloned();
    if let Some(c) = &conn {
        drop(c.plain.borrow_mut().take());
        shrink_send_buffer(c.fd.get());
    }
    watched(inner, conn)
}

fn watched<S>(inner: S, conn: Option<Rc<Conn>>) -> Watched<S> {
    Watched {
        inner: Box::pin(inner),
        conn,
        rest: Bytes::new(),
        base: None,
        handed: 0,
        acked: 0,
        progress: Instant::now(),
        check: Box::pin(tokio::time::sleep(CHECK_EVERY)),
        checking: false,
        done: false,
    }
}

/// An event stream's body, watched (see [`watch`]).
pub struct Watched<S> {
    inner: Pin<Box<S>>,
    conn: Option<Rc<Conn>>,
    /// What is left of the current event.
    rest: Bytes,
    /// The connection's written count when the body started.
    base: Option<u64>,
    /// Body bytes handed to actix.
    handed: u64,
    /// Bytes the peer had acknowledged at the last progress.
    acked: u64,
    /// When the peer last acknowledged bytes or had none outstanding.
    progress: Instant,
    /// The next look at the socket, while `checking`.
    check: Pin<Box<Sleep>>,
    /// Bytes are out: the peer has yet to acknowledge them, or actix to
    /// write them.
    checking: bool,
    done: bool,
}

impl<S> Watched<S> {
    /// Whether actix still holds bytes of the body that the kernel has not
    /// taken.
    fn holding(&self, conn: &Conn) -> bool {
        conn.written.get() < self.base.unwrap_or(0) + self.handed
    }

    /// The socket, looked at: what the stream does next.
    fn look(&mut self, conn: &Conn) -> Next {
        let Socket::Open { unacked } = look(conn.fd.get()) else {
            return Next::End;
        };
        let acked = conn.written.get().saturating_sub(unacked);
        let now = Instant::now();
        let idle = unacked == 0 && !self.holding(conn);
        if acked > self.acked || idle {
            self.acked = acked;
            self.progress = now;
            return if idle { Next::Rest } else { Next::Look };
        }
        // Bytes outstanding and none taken: stalled past the write timeout,
        // however much the kernel holds.
        match conn.write_timeout {
            Some(t) if now.duration_since(self.progress) >= t => Next::End,
            _ => Next::Look,
        }
    }

    /// Bytes go out: look at the socket until the peer has them all.
    fn start_checking(&mut self) {
        if !self.checking {
            self.checking = true;
            // Idle until now: the timeout counts from here.
            self.progress = Instant::now();
            self.check.as_mut().reset(self.progress + CHECK_EVERY);
        }
    }
}

impl<S, E> Stream for Watched<S>
where
    S: Stream<Item = Result<Bytes, E>>,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Item = Result<Bytes, io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        if let Some(conn) = this.conn.clone() {
            if this.base.is_none() {
                this.base = Some(conn.written.get());
            }
            let mut end = conn.peer_closed.get();
            while !end && this.checking && this.check.as_mut().poll(cx).is_ready() {
                match this.look(&conn) {
                    Next::Look => {
                        let at = Instant::now() + CHECK_EVERY;
                        this.check.as_mut().reset(at);
                    }
                    Next::Rest => this.checking = false,
                    Next::End => end = true,
                }
            }
            if end {
                // Ending the body is enough: `ended` fails the writes of
                // its last chunk, and actix drops the connection.
                conn.ended.set(true);
                this.done = true;
                return Poll::Ready(None);
            }
            if this.holding(&conn) {
                // `Conn::wrote` wakes us when the kernel takes more.
                *conn.waiting.borrow_mut() = Some(cx.waker().clone());
                return Poll::Pending;
            }
        }
        loop {
            if !this.rest.is_empty() {
                let n = this.rest.len().min(PIECE);
                let piece = this.rest.split_to(n);
                this.handed += n as u64;
                if this.conn.is_some() {
                    this.start_checking();
                }
                return Poll::Ready(Some(Ok(piece)));
            }
            match this.inner.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(b))) => this.rest = b,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(io::Error::other(e)))),
                Poll::Ready(None) => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::os::fd::AsRawFd;

    #[test]
    fn a_closed_peer_is_gone_and_an_open_one_is_not() {
        // A connected pair on loopback: open with nothing outstanding;
        // after the peer closes, gone.
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (mut server, _) = l.accept().unwrap();
        assert_eq!(
            look(server.as_raw_fd()),
            Socket::Open { unacked: 0 },
            "open, idle"
        );
        server.write_all(b"data").unwrap();
        let mut c = client;
        let mut buf = [0u8; 4];
        c.read_exact(&mut buf).unwrap();
        drop(c);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(look(server.as_raw_fd()), Socket::Gone, "closed by the peer");
        assert_eq!(look(-1), Socket::Gone, "no socket");
    }

    #[tokio::test]
    async fn a_large_event_goes_out_in_pieces_each_once_the_last_is_written() {
        // A 10,000-byte event: 4,096 bytes, then nothing until the kernel
        // has taken them, then 4,096, then the last 1,808, then the end.
        let conn = Conn::new(-1, None, None);
        let event = Bytes::from(vec![b'x'; 10_000]);
        let inner = futures_util::stream::iter([Ok::<_, io::Error>(event)]);
        let mut body = std::pin::pin!(watched(inner, Some(conn.clone())));
        let mut cx = Context::from_waker(Waker::noop());
        let mut next = || match body.as_mut().poll_next(&mut cx) {
            Poll::Ready(Some(Ok(b))) => Some(b.len()),
            Poll::Ready(None) => Some(0),
            Poll::Ready(Some(Err(e))) => panic!("{e}"),
            Poll::Pending => None,
        };
        assert_eq!(next(), Some(4096), "the first piece");
        assert_eq!(next(), None, "held while actix holds it");
        conn.wrote(4096);
        assert_eq!(next(), Some(4096), "the second, once written");
        conn.wrote(4096);
        assert_eq!(next(), Some(1808), "the rest");
        conn.wrote(1808);
        assert_eq!(next(), Some(0), "the end");
    }

    #[tokio::test]
    async fn bytes_a_peer_does_not_read_stay_unacknowledged() {
        // The peer's receive buffer at its least and never read: once its
        // window is full, what was written stays in our send queue.
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = tokio::net::TcpSocket::new_v4().unwrap();
        client.set_recv_buffer_size(1024).unwrap();
        let _client = client.connect(l.local_addr().unwrap()).await.unwrap();
        let (server, _) = l.accept().unwrap();
        server.set_nonblocking(true).unwrap();
        let mut s = &server;
        let chunk = [b'x'; 4096];
        let mut total = 0usize;
        while let Ok(n) = s.write(&chunk) {
            total += n;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let Socket::Open { unacked } = look(server.as_raw_fd()) else {
            panic!("open");
        };
        assert!(unacked > 0, "unacknowledged bytes: {unacked} of {total}");
    }
}
