//! Where a problem is: a JSON pointer (RFC 6901), the one place type of a
//! hand's field errors (`hand::FieldError`) and of a ruleset document's
//! errors (`ruleset::DocError`).
//!
//! Kept as its text, the form every problem is answered in: a field error
//! is made once and written once, and tests compare it with a `&str`.

use std::borrow::Cow;
use std::fmt;

/// One step into a document: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

impl From<&str> for PathSeg {
    fn from(k: &str) -> Self {
        PathSeg::Key(k.to_string())
    }
}

impl From<usize> for PathSeg {
    fn from(i: usize) -> Self {
        PathSeg::Index(i)
    }
}

/// `s` escaped as one reference token of a JSON pointer (RFC 6901: `~`
/// as `~0`, `/` as `~1`).
pub fn escape_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// A JSON pointer: empty (the whole document) or `/`-led reference tokens,
/// each escaped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pointer(String);

impl Pointer {
    /// The whole document.
    pub const fn root() -> Self {
        Pointer(String::new())
    }

    /// The pointer one step further.
    pub fn push(&mut self, seg: &PathSeg) {
        self.0.push('/');
        match seg {
            PathSeg::Key(k) => self.0.push_str(&escape_pointer(k)),
            PathSeg::Index(i) => self.0.push_str(&i.to_string()),
        }
    }

    /// The same place seen from `prefix` (a pointer's text: a hand inside a
    /// larger request, a document under `/ruleset`).
    pub fn under(mut self, prefix: &str) -> Self {
        self.0.insert_str(0, prefix);
        self
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The reference tokens, unescaped.
    pub fn tokens(&self) -> impl Iterator<Item = Cow<'_, str>> {
        self.0.split('/').skip(1).map(|t| {
            if t.contains('~') {
                Cow::Owned(t.replace("~1", "/").replace("~0", "~"))
            } else {
                Cow::Borrowed(t)
            }
        })
    }

    /// The path as a ruleset file names a key: `patterns.all_chows.faan`,
    /// `exclusive[0]` (a token of digits read as an index).
    pub fn dotted(&self) -> String {
        let mut p = String::new();
        for t in self.tokens() {
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                p.push_str(&format!("[{t}]"));
            } else {
                if !p.is_empty() {
                    p.push('.');
                }
                p.push_str(&t);
            }
        }
        p
    }
}

impl std::ops::Deref for Pointer {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A pointer's text, already escaped (`format!("/winners/{i}/hand")`).
impl From<String> for Pointer {
    fn from(s: String) -> Self {
        Pointer(s)
    }
}

impl From<&str> for Pointer {
    fn from(s: &str) -> Self {
        Pointer(s.to_string())
    }
}

impl From<&[PathSeg]> for Pointer {
    fn from(path: &[PathSeg]) -> Self {
        let mut p = Pointer::root();
        for s in path {
            p.push(s);
        }
        p
    }
}

impl From<Vec<PathSeg>> for Pointer {
    fn from(path: Vec<PathSeg>) -> Self {
        Pointer::from(path.as_slice())
    }
}

impl From<Pointer> for String {
    fn from(p: Pointer) -> Self {
        p.0
    }
}

impl PartialEq<str> for Pointer {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Pointer {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Pointer {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_written_escaped_and_read_back_dotted() {
        let p = Pointer::from(vec![
            PathSeg::from("patterns"),
            PathSeg::from("a/b~c"),
            PathSeg::from(2),
        ]);
        assert_eq!(p, "/patterns/a~1b~0c/2", "escaped tokens");
        assert_eq!(p.dotted(), "patterns.a/b~c[2]", "dotted, unescaped");
        assert_eq!(p.clone().under("/ruleset"), "/ruleset/patterns/a~1b~0c/2");
        assert_eq!(Pointer::root().dotted(), "", "the root");
    }
}
