//! A client's text as an error repeats it: at most [`ECHO_CHARS`]
//! characters, then [`ELLIPSIS`]. Every message, parameter and detail that
//! repeats what a client sent goes through here, so that an answer's size
//! does not grow with the input (a ruleset id of megabytes is refused in a
//! few hundred bytes, not repeated at each place it is named: bench/hostile.md).

use std::borrow::Cow;
use std::fmt::{self, Write as _};

/// The most characters of a client's text an error repeats.
pub const ECHO_CHARS: usize = 64;

/// The end of a cut text.
pub const ELLIPSIS: char = '\u{2026}';

/// The byte where `s`'s first [`ECHO_CHARS`] characters end, when it has more.
fn cut_at(s: &str) -> Option<usize> {
    s.char_indices().nth(ECHO_CHARS).map(|(i, _)| i)
}

/// `s` as a parameter repeats it: whole up to [`ECHO_CHARS`] characters,
/// else cut and ended with [`ELLIPSIS`].
pub fn echo(s: &str) -> Cow<'_, str> {
    match cut_at(s) {
        None => Cow::Borrowed(s),
        Some(i) => Cow::Owned(format!("{}{ELLIPSIS}", &s[..i])),
    }
}

/// `T`'s text (`Display`) cut as [`echo`] cuts: for a value of the client's
/// (a word, a JSON value, a header) in a message. A long value is not
/// formatted past the cut.
pub struct Echo<T>(pub T);

impl<T: fmt::Display> fmt::Display for Echo<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut w = Cut {
            out: f,
            left: ECHO_CHARS,
            cut: false,
        };
        let written = write!(w, "{}", self.0);
        let cut = w.cut;
        match written {
            // The cut stops the value's formatting with an error of its own.
            Err(_) if cut => f.write_char(ELLIPSIS),
            Ok(()) if cut => f.write_char(ELLIPSIS),
            other => other,
        }
    }
}

/// Passes on the first `left` characters, then stops.
struct Cut<'a, 'b> {
    out: &'a mut fmt::Formatter<'b>,
    left: usize,
    cut: bool,
}

impl fmt::Write for Cut<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.cut {
            return Err(fmt::Error);
        }
        match s.char_indices().nth(self.left) {
            None => {
                self.left -= s.chars().count();
                self.out.write_str(s)
            }
            Some((i, _)) => {
                self.out.write_str(&s[..i])?;
                self.cut = true;
                Err(fmt::Error)
            }
        }
    }
}

/// A client's string in double quotes, escaped as `{:?}` writes it, cut as
/// [`echo`] cuts (the ellipsis inside the quotes): `unknown pattern id "x"`.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match cut_at(self.0) {
            None => write!(f, "{:?}", self.0),
            Some(i) => write!(f, "{:?}", format!("{}{ELLIPSIS}", &self.0[..i])),
        }
    }
}

/// serde's own messages repeat a client's text whole: an unknown field or
/// variant between backquotes, a string of the wrong type or value in
/// `{:?}` quotes. Each such text is cut as [`echo`] cuts (escapes kept
/// whole); any other message is returned as it is.
pub fn serde_message(message: &str) -> Cow<'_, str> {
    for (start, ends) in [
        (
            "unknown field `",
            &["`, expected", "`, there are no fields"][..],
        ),
        (
            "unknown variant `",
            &["`, expected", "`, there are no variants"][..],
        ),
        ("invalid type: string \"", &["\", expected"][..]),
        ("invalid value: string \"", &["\", expected"][..]),
    ] {
        let Some(rest) = message.strip_prefix(start) else {
            continue;
        };
        // The client's text may hold the end marker itself: the last one ends it.
        let Some(end) = ends.iter().filter_map(|e| rest.rfind(e)).max() else {
            continue;
        };
        let text = &rest[..end];
        let cut = if start.ends_with('"') {
            escaped_cut_at(text)
        } else {
            cut_at(text)
        };
        return match cut {
            None => Cow::Borrowed(message),
            Some(i) => Cow::Owned(format!("{start}{}{ELLIPSIS}{}", &text[..i], &rest[end..])),
        };
    }
    Cow::Borrowed(message)
}

/// [`cut_at`] for text escaped as `{:?}` escapes it, an escape (`\"`,
/// `\u{202e}`) counted as one character and never split.
fn escaped_cut_at(s: &str) -> Option<usize> {
    let mut chars = s.char_indices();
    let mut n = 0;
    while let Some((i, c)) = chars.next() {
        if n == ECHO_CHARS {
            return Some(i);
        }
        n += 1;
        if c == '\\' && matches!(chars.next(), Some((_, 'u'))) {
            // `\u{...}` to its brace; any other escape is one more character.
            for (_, c) in chars.by_ref() {
                if c == '}' {
                    break;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_to_64_characters_and_an_ellipsis() {
        let long = "a".repeat(100);
        // 64 kept, the 65th and after dropped.
        let want = format!("{}\u{2026}", "a".repeat(64));
        assert_eq!(echo(&long), want, "case: echo of 100 characters");
        assert_eq!(Echo(&long).to_string(), want, "case: Echo");
        assert_eq!(
            Quoted(&long).to_string(),
            format!("\"{want}\""),
            "case: Quoted"
        );
        let exact = "b".repeat(64);
        assert_eq!(echo(&exact), exact, "case: 64 characters stay whole");
        assert_eq!(Echo(&exact).to_string(), exact, "case: Echo of 64");
        // Characters, not bytes: 100 of 3 bytes each keep 64 (192 bytes).
        let wide = "麻".repeat(100);
        assert_eq!(
            echo(&wide),
            format!("{}\u{2026}", "麻".repeat(64)),
            "case: wide characters"
        );
        assert_eq!(
            Quoted("it's \"x\"").to_string(),
            r#""it's \"x\"""#,
            "case: short, escaped"
        );
        // A JSON value is cut while it is written.
        let v = serde_json::json!({"k": "v".repeat(1000)});
        assert_eq!(
            Echo(&v).to_string(),
            format!("{{\"k\":\"{}\u{2026}", "v".repeat(58)),
            "case: a JSON value: 6 characters of its start and 58 of the string"
        );
    }

    #[test]
    fn serde_messages_are_cut_at_the_echoed_text() {
        let long = "z".repeat(70);
        let kept = "z".repeat(64);
        for (case, message, want) in [
            (
                "unknown field",
                format!("unknown field `{long}`, expected one of `a`, `b`"),
                format!("unknown field `{kept}\u{2026}`, expected one of `a`, `b`"),
            ),
            (
                "unknown field, the marker in the text",
                format!("unknown field `{long}`, expected`, expected `a`"),
                format!("unknown field `{kept}\u{2026}`, expected `a`"),
            ),
            (
                "unknown variant",
                format!("unknown variant `{long}`, expected `east` or `south`"),
                format!("unknown variant `{kept}\u{2026}`, expected `east` or `south`"),
            ),
            (
                "string of the wrong type",
                format!("invalid type: string \"{long}\", expected u32"),
                format!("invalid type: string \"{kept}\u{2026}\", expected u32"),
            ),
            (
                "an escape is never split",
                format!(
                    "invalid type: string \"{}\\u{{202e}}zz\", expected u32",
                    "y".repeat(63)
                ),
                format!(
                    "invalid type: string \"{}\\u{{202e}}\u{2026}\", expected u32",
                    "y".repeat(63)
                ),
            ),
            (
                "short",
                "unknown field `x`, expected `a`".to_string(),
                "unknown field `x`, expected `a`".to_string(),
            ),
            (
                "no echo",
                "missing field `hand`".to_string(),
                "missing field `hand`".to_string(),
            ),
        ] {
            assert_eq!(serde_message(&message), want, "case: {case}");
        }
    }
}
