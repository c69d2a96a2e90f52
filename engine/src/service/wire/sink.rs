//! Byte sinks for the hand-written JSON and key writers: a growing `Vec`,
//! or a [`Cursor`] into space made beforehand (cheaper per write).

/// Where the writer puts bytes: a growing `Vec`, or a [`Cursor`] into space made beforehand.
pub trait Sink {
    fn put(&mut self, bytes: &[u8]);
    fn byte(&mut self, b: u8);
    /// Bytes written so far.
    fn pos(&self) -> usize;
    /// Appends a copy of bytes already written.
    fn copy_within(&mut self, range: std::ops::Range<usize>);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    fn byte(&mut self, b: u8) {
        self.push(b);
    }

    fn pos(&self) -> usize {
        self.len()
    }

    fn copy_within(&mut self, range: std::ops::Range<usize>) {
        self.extend_from_within(range);
    }
}

/// Writes into a slice made beforehand. Its pointer, length and position
/// stay in registers, where a `Vec` reloads and checks its length and
/// capacity at every write. When the slice is full, `full` is set and
/// later writes are dropped (the caller writes again into a `Vec`).
pub struct Cursor<'a> {
    buf: &'a mut [u8],
    pos: usize,
    full: bool,
}

impl Sink for Cursor<'_> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.pos + bytes.len();
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.pos = end;
            }
            None => self.full = true,
        }
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        match self.buf.get_mut(self.pos) {
            Some(dst) => {
                *dst = b;
                self.pos += 1;
            }
            None => self.full = true,
        }
    }

    fn pos(&self) -> usize {
        self.pos
    }

    fn copy_within(&mut self, range: std::ops::Range<usize>) {
        let end = self.pos + range.len();
        if range.start <= range.end && range.end <= self.pos && end <= self.buf.len() {
            self.buf.copy_within(range, self.pos);
            self.pos = end;
        } else {
            self.full = true;
        }
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        Cursor {
            buf,
            pos: 0,
            full: false,
        }
    }

    /// What was written, or `None` when it did not fit.
    pub fn written(&self) -> Option<&[u8]> {
        if self.full {
            None
        } else {
            self.buf.get(..self.pos)
        }
    }
}
