//! Where a problem of a ruleset document is: its path, and the JSON pointer
//! or the dotted key (of a ruleset file) it is shown as.

use std::fmt;

use crate::core::echo::serde_message;
use crate::core::pointer::Pointer;
pub use crate::core::pointer::{escape_pointer, PathSeg};

/// A problem of a ruleset document, at its path in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocError {
    pub path: Pointer,
    pub message: String,
}

impl DocError {
    pub fn new(path: Vec<PathSeg>, message: String) -> Self {
        DocError {
            path: path.into(),
            message,
        }
    }

    /// The JSON pointer (RFC 6901) of the problem under `root` (`/ruleset`).
    pub fn pointer(&self, root: &str) -> String {
        self.path.clone().under(root).into()
    }

    /// The path as a ruleset file names a key: `patterns.all_chows.faan`, `exclusive[0]`.
    pub fn dotted(&self) -> String {
        self.path.dotted()
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
        let message = serde_message(&e.into_inner().to_string()).into_owned();
        if let Some(name) = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        {
            path.push(PathSeg::Key(name.to_string()));
        }
        DocError::new(path, message)
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
