//! Where a problem of a ruleset document is: its path, and the JSON pointer
//! or the dotted key (of a ruleset file) it is shown as.

use std::fmt;

/// One reference token of a JSON pointer (RFC 6901): `~` and `/` escaped.
pub fn escape_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// One step into a ruleset document: an object key or an array index.
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

/// A problem of a ruleset document, at its path in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocError {
    pub path: Vec<PathSeg>,
    pub message: String,
}

impl DocError {
    pub fn new(path: Vec<PathSeg>, message: String) -> Self {
        DocError { path, message }
    }

    /// The JSON pointer (RFC 6901) of the problem under `root` (`/ruleset`).
    pub fn pointer(&self, root: &str) -> String {
        let mut p = root.to_string();
        for s in &self.path {
            p.push('/');
            match s {
                PathSeg::Key(k) => p.push_str(&escape_pointer(k)),
                PathSeg::Index(i) => p.push_str(&i.to_string()),
            }
        }
        p
    }

    /// The path as a ruleset file names a key: `patterns.all_chows.faan`, `exclusive[0]`.
    pub fn dotted(&self) -> String {
        let mut p = String::new();
        for s in &self.path {
            match s {
                PathSeg::Key(k) => {
                    if !p.is_empty() {
                        p.push('.');
                    }
                    p.push_str(k);
                }
                PathSeg::Index(i) => p.push_str(&format!("[{i}]")),
            }
        }
        p
    }

    /// A shape error of serde (an unknown or missing key, a wrong type),
    /// at `prefix` + serde_path_to_error's path; a missing key is reported
    /// at the key itself.
    pub(super) fn from_serde(
        e: serde_path_to_error::Error<serde_json::Error>,
        prefix: &[PathSeg],
    ) -> Self {
        use serde_path_to_error::Segment;
        let mut path = prefix.to_vec();
        for seg in e.path().iter() {
            match seg {
                Segment::Seq { index } => path.push(PathSeg::Index(*index)),
                Segment::Map { key } => path.push(PathSeg::Key(key.clone())),
                Segment::Enum { variant } => path.push(PathSeg::Key(variant.clone())),
                Segment::Unknown => {}
            }
        }
        let message = e.into_inner().to_string();
        if let Some(name) = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        {
            path.push(PathSeg::Key(name.to_string()));
        }
        DocError { path, message }
    }
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.dotted(), self.message)
    }
}

/// A ruleset file that could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub key: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.key, self.message)
        }
    }
}

impl std::error::Error for LoadError {}
