//! The log output's parts that sit on the request path, each one of
//! `tracing-subscriber`'s or `tracing-appender`'s extension points: the
//! timestamp ([`Timestamp`]), the text fields ([`TextFields`]) and the
//! writer ([`writer`], bounded in bytes and non-blocking, its dropped lines
//! counted for `/metrics`), and [`clip`], which bounds what a line repeats
//! of a client's text.
//!
//! They replace the defaults because those were a large share of a
//! request's cost (bench/load.md, "Where logging's cost went"): the
//! default timestamp goes through `core::fmt` digit by digit, and the
//! default fields paint every name and `=` with an empty ANSI style and
//! scan every message character by character. The text written is the same, byte for byte
//! (`text_lines_are_what_the_default_writes`).

use std::fmt::{self, Write as _};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_appender::non_blocking::{ErrorCounter, NonBlocking, NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::field::{MakeVisitor, VisitFmt, VisitOutput};
use tracing_subscriber::fmt::format::{DefaultVisitor, Writer};
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::LookupSpan;

/// Bytes of log lines the writer holds for its thread by default before it
/// drops new ones: what a stopped reader of standard error (a pipe) can cost.
pub const DEFAULT_LOG_QUEUE_BYTES: usize = 4 * 1024 * 1024;

/// What a queued line costs beside its own bytes, as the queue counts it:
/// its slot in the channel and its allocation's header, rounded up. The
/// channel has `bytes / LINE_OVERHEAD` slots, so it can never fill before
/// the byte count does (a line the channel dropped would stay counted).
const LINE_OVERHEAD: usize = 128;

/// The most bytes of a client's text (a path) a log line repeats; a longer
/// one is cut at a character boundary and ends in [`CUT_MARK`].
pub const FIELD_BYTES: usize = 256;

/// The end of a cut field.
pub const CUT_MARK: &str = "\u{2026}";

/// `text` as a log line repeats it: whole when at most [`FIELD_BYTES`],
/// else its first characters and [`CUT_MARK`], [`FIELD_BYTES`] bytes at most.
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= FIELD_BYTES {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut end = FIELD_BYTES - CUT_MARK.len();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    std::borrow::Cow::Owned([&text[..end], CUT_MARK].concat())
}

/// The bytes queued and the lines dropped, shared by the writer's two ends.
struct Queue {
    held: AtomicUsize,
    limit: usize,
    dropped: AtomicU64,
}

/// The queue's counts and `tracing-appender`'s own count of dropped lines
/// (a channel closed or full: neither happens while the byte count holds).
static QUEUE: OnceLock<(Arc<Queue>, ErrorCounter)> = OnceLock::new();

/// Log lines dropped because the writer's queue was full (0 before
/// [`writer`] is called); `/metrics` shows it as `faan_log_lines_dropped_total`.
pub fn dropped_lines() -> u64 {
    QUEUE.get().map_or(0, |(q, channel)| {
        q.dropped.load(Ordering::Relaxed) + channel.dropped_lines() as u64
    })
}

/// Standard error behind `tracing-appender`'s non-blocking writer: a
/// request formats its line and queues it; the writer's thread writes what
/// has queued in one `write(2)` (a `BufWriter` flushed after each batch),
/// so a slow or blocked standard error never holds a request. The queue is
/// bounded in bytes (`queue_bytes`, each line counted with
/// `LINE_OVERHEAD` more) and lossy: when full, a line is dropped and
/// counted ([`dropped_lines`]), rather than a request waiting. Keep the
/// guard until exit: dropping it writes out what is queued.
pub fn writer(queue_bytes: usize) -> (LogWriter, WorkerGuard) {
    let (writer, guard) = bounded(std::io::BufWriter::new(std::io::stderr()), queue_bytes);
    let _ = QUEUE.set((writer.queue.clone(), writer.inner.error_counter()));
    (writer, guard)
}

/// `out` behind a lossy queue of `bytes` bytes, written by a thread of its own.
fn bounded<W: std::io::Write + Send + 'static>(out: W, bytes: usize) -> (LogWriter, WorkerGuard) {
    let queue = Arc::new(Queue {
        held: AtomicUsize::new(0),
        limit: bytes,
        dropped: AtomicU64::new(0),
    });
    let out = Release {
        out,
        queue: queue.clone(),
    };
    let (inner, guard) = NonBlockingBuilder::default()
        .buffered_lines_limit(bytes / LINE_OVERHEAD + 1)
        .lossy(true)
        .thread_name("faan-log")
        .finish(out);
    (LogWriter { inner, queue }, guard)
}

/// The request side of the log queue: a line is queued only while the bytes
/// queued stay within the bound.
#[derive(Clone)]
pub struct LogWriter {
    inner: NonBlocking,
    queue: Arc<Queue>,
}

/// One line's writer (what `tracing-subscriber` writes each event into).
pub struct Line<'a> {
    inner: NonBlocking,
    queue: &'a Queue,
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogWriter {
    type Writer = Line<'a>;

    fn make_writer(&'a self) -> Line<'a> {
        Line {
            inner: self.inner.clone(),
            queue: &self.queue,
        }
    }
}

impl std::io::Write for Line<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let cost = buf.len() + LINE_OVERHEAD;
        let q = self.queue;
        if q.held.fetch_add(cost, Ordering::Relaxed) + cost > q.limit {
            q.held.fetch_sub(cost, Ordering::Relaxed);
            q.dropped.fetch_add(1, Ordering::Relaxed);
            return Ok(buf.len());
        }
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.write(buf).map(drop)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The writer thread's side: a line's bytes leave the count once written
/// (the thread writes each queued line with one `write_all`).
struct Release<W> {
    out: W,
    queue: Arc<Queue>,
}

impl<W: std::io::Write> std::io::Write for Release<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let written = self.out.write_all(buf);
        // Written or failed, the line is gone from the queue.
        self.queue
            .held
            .fetch_sub(buf.len() + LINE_OVERHEAD, Ordering::Relaxed);
        written
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The timestamp as `tracing-subscriber`'s default `SystemTime` writes it
/// (RFC 3339 in UTC, microseconds: `2026-12-01T12:10:10.123456Z`), its
/// digits written from a table instead of `core::fmt` (the `time` crate
/// does the calendar).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timestamp;

impl FormatTime for Timestamp {
    fn format_time(&self, w: &mut Writer<'_>) -> fmt::Result {
        let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) else {
            // Before 1970: the default's own text.
            return tracing_subscriber::fmt::time::SystemTime.format_time(w);
        };
        let Some(text) = rfc3339_micros(now) else {
            return tracing_subscriber::fmt::time::SystemTime.format_time(w);
        };
        // Only ASCII digits and separators.
        w.write_str(std::str::from_utf8(&text).unwrap_or_default())
    }
}

/// `YYYY-MM-DDTHH:MM:SS.ffffffZ` for a time since 1970 up to year 9999.
fn rfc3339_micros(since_epoch: std::time::Duration) -> Option<[u8; 27]> {
    thread_local! {
        /// The last second written on this thread and its text up to the
        /// `.`: a request pays the calendar once a second, not once a line.
        static SECOND: std::cell::Cell<(u64, [u8; 20])> = const { std::cell::Cell::new((u64::MAX, [0; 20])) };
    }
    let secs = since_epoch.as_secs();
    let (cached, prefix) = SECOND.get();
    let prefix = if cached == secs {
        prefix
    } else {
        let prefix = date_time(secs)?;
        SECOND.set((secs, prefix));
        prefix
    };
    let mut out = *b"0000-00-00T00:00:00.000000Z";
    out[..20].copy_from_slice(&prefix);
    let micros = since_epoch.subsec_micros();
    two(&mut out, 20, micros / 10_000);
    two(&mut out, 22, micros / 100 % 100);
    two(&mut out, 24, micros % 100);
    Some(out)
}

/// `YYYY-MM-DDTHH:MM:SS.` of a second since 1970 up to year 9999.
fn date_time(secs: u64) -> Option<[u8; 20]> {
    let t = time::OffsetDateTime::from_unix_timestamp(i64::try_from(secs).ok()?).ok()?;
    let year = u32::try_from(t.year()).ok().filter(|y| *y <= 9999)?;
    let mut out = *b"0000-00-00T00:00:00.";
    two(&mut out, 0, year / 100);
    two(&mut out, 2, year % 100);
    two(&mut out, 5, u32::from(u8::from(t.month())));
    two(&mut out, 8, u32::from(t.day()));
    two(&mut out, 11, u32::from(t.hour()));
    two(&mut out, 14, u32::from(t.minute()));
    two(&mut out, 17, u32::from(t.second()));
    Some(out)
}

/// Two decimal digits of `v` (below 100) at `at`.
fn two<const N: usize>(out: &mut [u8; N], at: usize, v: u32) {
    out[at] = b'0' + (v / 10 % 10) as u8;
    out[at + 1] = b'0' + (v % 10) as u8;
}

/// The text format's line as `tracing-subscriber`'s default (`Full`) format
/// writes it without ANSI colours, with [`Timestamp`]: timestamp, level,
/// the spans in scope with their fields, target, fields. Written with
/// `write_str`, where the default goes through `core::fmt` for the level
/// and paints the target with an empty style. For a terminal the default
/// format stays.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextLine;

impl<S, N> FormatEvent<S, N> for TextLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut w: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        if Timestamp.format_time(&mut w).is_err() {
            w.write_str("<unknown time>")?;
        }
        let meta = event.metadata();
        w.write_str(match *meta.level() {
            Level::TRACE => " TRACE ",
            Level::DEBUG => " DEBUG ",
            Level::INFO => "  INFO ",
            Level::WARN => "  WARN ",
            Level::ERROR => " ERROR ",
        })?;
        if let Some(scope) = ctx.event_scope() {
            let mut seen = false;
            for span in scope.from_root() {
                seen = true;
                w.write_str(span.metadata().name())?;
                let ext = span.extensions();
                if let Some(fields) = ext.get::<FormattedFields<N>>() {
                    if !fields.is_empty() {
                        w.write_str("{")?;
                        w.write_str(fields)?;
                        w.write_str("}")?;
                    }
                }
                w.write_str(":")?;
            }
            if seen {
                w.write_str(" ")?;
            }
        }
        w.write_str(meta.target())?;
        w.write_str(": ")?;
        ctx.format_fields(w.by_ref(), event)?;
        w.write_str("\n")
    }
}

/// The text format's fields as `tracing-subscriber`'s `DefaultFields`
/// writes them without ANSI colours: `name=value` separated by spaces,
/// strings and other values in `Debug` form, the message first without its
/// name and with ANSI control characters escaped; integers, booleans and
/// plain strings without `core::fmt`, an error by the default's visitor.
/// For output to a terminal the default (coloured) fields stay.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextFields;

impl<'a> MakeVisitor<Writer<'a>> for TextFields {
    type Visitor = TextVisitor<'a>;

    fn make_visitor(&self, target: Writer<'a>) -> TextVisitor<'a> {
        TextVisitor {
            sanitize: target.sanitizes_ansi_escapes(),
            writer: target,
            first: true,
            result: Ok(()),
        }
    }
}

/// Writes one event's or span's fields for [`TextFields`].
pub struct TextVisitor<'a> {
    writer: Writer<'a>,
    sanitize: bool,
    first: bool,
    result: fmt::Result,
}

impl TextVisitor<'_> {
    /// A space before every field but the first, then the name (a raw
    /// identifier's `r#` dropped, as the default does).
    fn bare_name(&mut self, field: &Field) -> fmt::Result {
        if !std::mem::take(&mut self.first) {
            self.writer.write_str(" ")?;
        }
        let name = field.name();
        self.writer
            .write_str(name.strip_prefix("r#").unwrap_or(name))
    }

    /// [`Self::bare_name`] and `=`.
    fn name(&mut self, field: &Field) -> fmt::Result {
        self.bare_name(field)?;
        self.writer.write_str("=")
    }

    fn run(&mut self, f: impl FnOnce(&mut Self) -> fmt::Result) {
        if self.result.is_ok() {
            self.result = f(self);
        }
    }

    /// An error (its message and its sources): written by the default's own
    /// visitor (without ANSI, it paints nothing).
    fn default(&mut self, f: impl FnOnce(&mut DefaultVisitor<'_>)) {
        if self.result.is_err() {
            return;
        }
        let mut d = DefaultVisitor::new(self.writer.by_ref(), std::mem::take(&mut self.first));
        f(&mut d);
        self.result = d.finish();
    }
}

impl Visit for TextVisitor<'_> {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "message" {
            return self.record_debug(field, &value);
        }
        self.run(|v| {
            v.name(field)?;
            v.writer.write_str(itoa::Buffer::new().format(value))
        });
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        if field.name() == "message" {
            return self.record_debug(field, &value);
        }
        self.run(|v| {
            v.name(field)?;
            v.writer.write_str(itoa::Buffer::new().format(value))
        });
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        if field.name() == "message" {
            return self.record_debug(field, &value);
        }
        self.run(|v| {
            v.name(field)?;
            v.writer.write_str(if value { "true" } else { "false" })
        });
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            return self.record_debug(field, &format_args!("{value}"));
        }
        self.run(|v| {
            v.bare_name(field)?;
            // `Debug` of a str: quoted, with escapes only when a character needs one.
            // (A fold without an early exit: the compiler checks many bytes a step.)
            let plain = value.bytes().fold(true, |plain, b| {
                plain & (b' '..=b'~').contains(&b) & (b != b'"') & (b != b'\\')
            });
            if plain {
                v.writer.write_str("=\"")?;
                v.writer.write_str(value)?;
                v.writer.write_str("\"")
            } else {
                v.writer.write_str("=")?;
                write!(v.writer, "{value:?}")
            }
        });
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.default(|d| d.record_error(field, value));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() != "message" {
            return self.run(|v| {
                v.name(field)?;
                write!(v.writer, "{value:?}")
            });
        }
        self.run(|v| {
            if !std::mem::take(&mut v.first) {
                v.writer.write_str(" ")?;
            }
            if v.sanitize {
                write!(Sanitizing(&mut v.writer), "{value:?}")
            } else {
                write!(v.writer, "{value:?}")
            }
        });
    }
}

impl VisitOutput<fmt::Result> for TextVisitor<'_> {
    fn finish(self) -> fmt::Result {
        self.result
    }
}

impl VisitFmt for TextVisitor<'_> {
    fn writer(&mut self) -> &mut dyn fmt::Write {
        &mut self.writer
    }
}

/// Escapes what the default escapes in a message (ESC, BEL, BS, FF, DEL and
/// the C1 controls), passing a piece without any through whole.
struct Sanitizing<'a, 'w>(&'a mut Writer<'w>);

impl fmt::Write for Sanitizing<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // A C1 control is U+0080..=U+009F: 0xC2 then 0x80..=0x9F in UTF-8.
        let clean = !s
            .bytes()
            .any(|b| matches!(b, 0x1b | 0x07 | 0x08 | 0x0c | 0x7f | 0xc2));
        if clean {
            return self.0.write_str(s);
        }
        for ch in s.chars() {
            match ch {
                '\x1b' => self.0.write_str("\\x1b")?,
                '\x07' => self.0.write_str("\\x07")?,
                '\x08' => self.0.write_str("\\x08")?,
                '\x0c' => self.0.write_str("\\x0c")?,
                '\x7f' => self.0.write_str("\\x7f")?,
                ch if ('\u{80}'..='\u{9f}').contains(&ch) => {
                    write!(self.0, "\\u{{{:x}}}", ch as u32)?
                }
                _ => self.0.write_char(ch)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::fmt::MakeWriter;

    /// A writer into a shared buffer, for a test's subscriber.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Buffer {
        type Writer = Buffer;
        fn make_writer(&'a self) -> Buffer {
            self.clone()
        }
    }

    /// What a subscriber writes for the same events and spans: the default
    /// format with `fields`, or [`TextLine`] with them; each line without
    /// its timestamp (the first 27 bytes).
    fn written<N>(fields: N, ours: bool) -> String
    where
        N: for<'w> tracing_subscriber::fmt::FormatFields<'w> + Send + Sync + 'static,
    {
        let out = Buffer::default();
        let builder = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_timer(Timestamp)
            .with_max_level(Level::DEBUG)
            .fmt_fields(fields)
            .with_writer(out.clone());
        let events = || {
            tracing::info!(n = 1u64, "outside any span");
            let span = tracing::info_span!(
                "HTTP request",
                http.request.method = %"GET",
                url.path = %"/v1/score",
                request_id = %"5f1b",
                later = tracing::field::Empty,
            );
            let _in = span.enter();
            span.record("later", 7u64);
            tracing::info!(
                http.request.method = "GET",
                url.path = "/v1/score",
                status = 200u16,
                route = "/v1/score",
                latency_us = 12u64,
                delta = -3i64,
                ok = true,
                quoted = "a \"b\"\n",
                r#type = "x",
                ratio = 0.5,
                err = &std::fmt::Error as &(dyn std::error::Error + 'static),
                "request done"
            );
            let _step = tracing::debug_span!("parse").entered();
            tracing::warn!("bell \x07 and \u{9b} in a message {}", 5);
            tracing::error!(message = "as a field", n = 1u64);
            tracing::debug!(n = 2u64);
            tracing::trace!("not written");
        };
        if ours {
            tracing::subscriber::with_default(builder.event_format(TextLine).finish(), events);
        } else {
            tracing::subscriber::with_default(builder.finish(), events);
        }
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(|l| format!("{}\n", &l[27..])).collect()
    }

    #[test]
    fn text_lines_are_what_the_default_writes() {
        use tracing_subscriber::fmt::format::DefaultFields;
        let default = written(DefaultFields::new(), false);
        assert!(
            default.contains(r#"  INFO HTTP request{http.request.method=GET url.path=/v1/score request_id=5f1b later=7}: faan::logging::tests: request done http.request.method="GET" url.path="/v1/score" status=200 route="/v1/score" latency_us=12 delta=-3 ok=true quoted="a \"b\"\n" type="x" ratio=0.5 err=an error occurred when formatting an argument"#),
            "case: the default's own text\n{default}"
        );
        assert_eq!(default.lines().count(), 5, "case: five lines\n{default}");
        assert_eq!(
            written(TextFields, false),
            default,
            "case: our fields in the default line"
        );
        assert_eq!(
            written(TextFields, true),
            default,
            "case: our line and fields"
        );
    }

    /// A writer that blocks in its first write until the test lets it go.
    struct Stuck {
        entered: std::sync::mpsc::Sender<()>,
        release: std::sync::mpsc::Receiver<()>,
        lines: Arc<Mutex<usize>>,
    }

    impl std::io::Write for Stuck {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            let _ = self.entered.send(());
            // Returns at once when the sender is gone.
            let _ = self.release.recv();
            *self.lines.lock().unwrap() += 1;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_full_queue_drops_lines_and_counts_them() {
        use std::io::Write as _;
        let (entered_tx, entered) = std::sync::mpsc::channel();
        let (release, release_rx) = std::sync::mpsc::channel::<()>();
        let lines = Arc::new(Mutex::new(0));
        let stuck = Stuck {
            entered: entered_tx,
            release: release_rx,
            lines: lines.clone(),
        };
        // Room for three lines of 7 bytes, each counted with its overhead.
        let (w, guard) = bounded(stuck, 3 * (7 + LINE_OVERHEAD));
        w.make_writer().write_all(b"line 0\n").unwrap();
        // The writer's thread holds line 0 in a write that does not return:
        // it still counts until written.
        entered.recv().unwrap();
        for i in 1..=9 {
            // A full queue is not an error to the caller: the line is dropped.
            w.make_writer()
                .write_all(format!("line {i}\n").as_bytes())
                .unwrap();
        }
        assert_eq!(
            w.queue.dropped.load(Ordering::Relaxed),
            7,
            "case: 1 line held and 2 queued, the other 7 of 9 dropped"
        );
        assert_eq!(
            w.inner.error_counter().dropped_lines(),
            0,
            "case: the channel never full"
        );
        drop(release);
        drop(w);
        drop(guard);
        assert_eq!(
            *lines.lock().unwrap(),
            3,
            "case: the held and the queued lines written at the end"
        );
    }

    /// Lines of 60,000 bytes (a long path written whole) against a 1 MiB
    /// queue and a stopped writer: 17 of them fit (17 x 60,128 = 1,022,176
    /// bytes; 18 would be 1,082,304 > 1,048,576), one of them held by the
    /// writer's thread; the other 183 of 200 are dropped.
    #[test]
    fn the_queue_is_bounded_in_bytes() {
        use std::io::Write as _;
        let (entered_tx, entered) = std::sync::mpsc::channel();
        let (release, release_rx) = std::sync::mpsc::channel::<()>();
        let lines = Arc::new(Mutex::new(0));
        let stuck = Stuck {
            entered: entered_tx,
            release: release_rx,
            lines: lines.clone(),
        };
        let (w, guard) = bounded(stuck, 1024 * 1024);
        let line = vec![b'a'; 60_000];
        w.make_writer().write_all(&line).unwrap();
        entered.recv().unwrap();
        for _ in 1..200 {
            w.make_writer().write_all(&line).unwrap();
        }
        assert_eq!(
            w.queue.dropped.load(Ordering::Relaxed),
            183,
            "case: 60 KB lines"
        );
        assert_eq!(
            w.queue.held.load(Ordering::Relaxed),
            17 * (60_000 + LINE_OVERHEAD),
            "case: the bytes counted"
        );
        drop(release);
        drop(w);
        drop(guard);
        assert_eq!(
            *lines.lock().unwrap(),
            17,
            "case: the held and queued lines written"
        );
    }

    /// A path of 60,000 ASCII bytes keeps 253 and the 3-byte mark (256);
    /// one of two-byte characters keeps 126 of them (252 bytes, the next
    /// would end at 254 > 253) and the mark; 256 bytes or fewer stay whole.
    #[test]
    fn long_fields_are_cut_at_a_character_boundary() {
        let long = "/".to_string() + &"a".repeat(59_999);
        let cut = clip(&long);
        assert_eq!(cut.len(), 256, "case: ASCII");
        assert_eq!(&cut[..253], &long[..253], "case: ASCII prefix");
        assert!(cut.ends_with('\u{2026}'), "case: marked as cut");
        let wide = "é".repeat(200);
        let cut = clip(&wide);
        assert_eq!(
            cut,
            "é".repeat(126) + "\u{2026}",
            "case: two-byte characters"
        );
        let edge = "b".repeat(256);
        assert!(
            matches!(clip(&edge), std::borrow::Cow::Borrowed(s) if s == edge),
            "case: 256 bytes whole"
        );
        assert_eq!(clip("/healthz"), "/healthz", "case: a short path");
    }

    #[test]
    fn timestamps_are_the_default_ones() {
        for (secs, micros, text) in [
            (0, 0, "1970-01-01T00:00:00.000000Z"),
            (1_796_040_610, 123_456, "2026-11-30T12:10:10.123456Z"),
            (951_782_400, 9, "2000-02-29T00:00:00.000009Z"),
            (253_402_300_799, 999_999, "9999-12-31T23:59:59.999999Z"),
            // The second just written (the cached date), then the one before it.
            (253_402_300_799, 5, "9999-12-31T23:59:59.000005Z"),
            (253_402_300_798, 5, "9999-12-31T23:59:58.000005Z"),
        ] {
            let d = std::time::Duration::new(secs, micros * 1000);
            let got = rfc3339_micros(d).map(|b| String::from_utf8(b.to_vec()).unwrap());
            assert_eq!(got.as_deref(), Some(text), "case: {secs} s {micros} µs");
        }
        assert_eq!(
            rfc3339_micros(std::time::Duration::from_secs(253_402_300_800)),
            None,
            "case: year 10000 is left to the default"
        );
    }
}
