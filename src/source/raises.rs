//! What a member raises, throws or returns as an error, read from its own body for `lexi lookup
//! --member`'s `Raises:` line — an agent changing `make_response` should know the `TypeError`s its
//! callers and tests expect:
//! - Python `raise X(…)` (`X`, with the first words of a literal message), `raise e`, and a bare
//!   `raise` (re-raises the exception being handled);
//! - JavaScript/TypeScript `throw new X(…)`, `throw f(…)`, `throw e`;
//! - Rust `Err(…)` constructions (`return Err(…)`, `Err(…)?`, a tail `Err(…)`) and the macros that
//!   stop the program or return an error: `panic!`, `unreachable!`, `todo!`, `unimplemented!`,
//!   `bail!`.
//!
//! Each is one short entry, `TypeError ("The view function did not return a valid response. The
//! function either…")`: the message's literal text with its interpolations as `…`, cut to
//! [`MESSAGE_WORDS`] words (enough to tell apart flask's four `TypeError`s of `make_response`).

use tree_sitter::Node;

use super::catches::Handler;
use super::syntax::text_of;

/// Words of a literal message kept.
pub const MESSAGE_WORDS: usize = 12;
/// The entry of a bare `raise`.
pub const RE_RAISES: &str = "re-raises";

/// What raises an error in one language (its [`crate::source::lang::walks::Walks`]).
pub(crate) trait RaiseSyntax {
    /// The entry for `node` when it raises, throws or builds an error; `None` for any other node.
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String>;

    /// The handlers of `around` when it is a `try` whose guarded block is `inside` (its child on
    /// the way up from a call), in order (`source::catches`); `None` for any other node — and
    /// always for a language without exceptions.
    fn handlers(&self, _around: Node<'_>, _inside: Node<'_>, _src: &str) -> Option<Vec<Handler>> {
        None
    }
}

/// The first named child that is no comment.
pub(crate) fn first_named(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    let first = node
        .named_children(&mut cursor)
        .find(|n| !n.is_extra() && n.kind() != "comment");
    first
}

/// The entry of a raised or thrown expression: its class or function and its message, or the
/// expression itself (`e`, `request.routing_exception`).
pub(crate) fn thrown(expression: Node<'_>, src: &str) -> String {
    let mut node = expression;
    // `TypeError(…).with_traceback(tb)`: the error built, not the method called on it.
    while let Some(inner) = node
        .child_by_field_name("function")
        .and_then(|f| f.child_by_field_name("object"))
        .filter(|object| matches!(object.kind(), "call" | "call_expression"))
    {
        node = inner;
    }
    let callee = node
        .child_by_field_name("function")
        .or_else(|| node.child_by_field_name("constructor"))
        // Java's `new X(…)`.
        .or_else(|| match node.kind() {
            "object_creation_expression" => node.child_by_field_name("type"),
            _ => None,
        });
    match callee {
        Some(callee) => {
            let message = node
                .child_by_field_name("arguments")
                .and_then(|args| first_named(args))
                .and_then(|first| message(first, src));
            with_message(short(text_of(callee, src)), message)
        }
        None => short(text_of(node, src)),
    }
}

/// `entry ("message…")`, or the entry alone.
pub(crate) fn with_message(entry: String, message: Option<String>) -> String {
    match message {
        Some(message) => format!("{entry} (\"{message}\")"),
        None => entry,
    }
}

/// An expression's text on one line when short, the last segment of a long path, else `…`.
pub(crate) fn short(text: &str) -> String {
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= 40 {
        return text;
    }
    let path = text
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':'));
    let last = text.rsplit(['.', ':']).next().unwrap_or(&text);
    match path && last.chars().count() <= 40 {
        true => last.to_string(),
        false => "…".to_string(),
    }
}

/// The first string literal in `node` (itself included, three levels deep at most), as a message.
pub(crate) fn first_string(node: Node<'_>, src: &str) -> Option<String> {
    let mut frontier = vec![node];
    for _ in 0..4 {
        let mut next = Vec::new();
        for node in frontier {
            if let Some(found) = message(node, src) {
                return Some(found);
            }
            let mut cursor = node.walk();
            next.extend(node.named_children(&mut cursor));
        }
        frontier = next;
    }
    None
}

/// A string literal's text (interpolations as `…`, joined pieces of a concatenation), cut to
/// [`MESSAGE_WORDS`] words; `None` for anything but a string with a letter in it.
fn message(node: Node<'_>, src: &str) -> Option<String> {
    let text = match node.kind() {
        "string"
        | "string_literal"
        | "raw_string_literal"
        | "template_string"
        | "interpreted_string_literal" => literal_text(text_of(node, src)),
        "concatenated_string" | "binary_expression" => {
            let mut cursor = node.walk();
            let parts: Vec<String> = node
                .named_children(&mut cursor)
                .filter_map(|part| message_text(part, src))
                .collect();
            parts.join("")
        }
        _ => return None,
    };
    cut_message(&text)
}

/// A message's text cut to [`MESSAGE_WORDS`] words (`…` when longer); `None` without a letter.
pub fn cut_message(text: &str) -> Option<String> {
    if !text.contains(char::is_alphabetic) {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut kept = words
        .iter()
        .take(MESSAGE_WORDS)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if words.len() > MESSAGE_WORDS {
        kept.push('…');
    }
    Some(kept)
}

/// One piece of a concatenation: a literal's text, or `…` for anything computed.
fn message_text(node: Node<'_>, src: &str) -> Option<String> {
    match node.kind() {
        "string" | "string_literal" | "raw_string_literal" | "template_string" => {
            Some(literal_text(text_of(node, src)))
        }
        "comment" => None,
        _ => Some("…".to_string()),
    }
}

/// A literal without its prefix letters, quotes and escapes, its interpolations (`{x}`, `${x}`)
/// as `…`.
fn literal_text(literal: &str) -> String {
    let body = literal.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '#');
    let body = body.trim_end_matches('#');
    let quote = body
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'));
    let body = match quote {
        Some(quote) => body.trim_matches(quote),
        None => body,
    };
    let mut out = String::new();
    let mut depth = 0usize;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' if chars.peek() == Some(&'{') => {}
            '{' => {
                if depth == 0 {
                    out.push('…');
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            '\\' => {
                chars.next();
                out.push(' ');
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::source::{extract, Language};

    /// `member: raise, raise` lines of a text.
    fn raises(language: Language, text: &str) -> Vec<String> {
        let interface = extract(language, text).unwrap_or_else(|err| panic!("{err}"));
        interface
            .calls
            .iter()
            .map(|m| format!("{}: {}", m.member, m.raises.join(" | ")))
            .collect()
    }

    #[test]
    fn python_raises_with_their_messages_and_bare_re_raises() {
        let text = r#"class App:
    def make_response(self, rv):
        if rv is None:
            raise TypeError(
                f"The view function for {request.endpoint!r} did not"
                " return a valid response. The function either returned"
            )
        try:
            go()
        except TypeError as e:
            raise TypeError(f"{e}\nThe view function did not return").with_traceback(tb) from None
        except KeyError:
            raise
        raise request.routing_exception
        raise TypeError("The view function for … did not return a valid response. The same")
        raise NotFound()
"#;
        assert_eq!(
            raises(Language::Python, text),
            [
                "App.make_response: TypeError (\"The view function for … did not return a valid \
                 response. The…\") \
                 | TypeError (\"… The view function did not return\") | re-raises \
                 | request.routing_exception | NotFound"
            ]
        );
    }

    #[test]
    fn javascript_throws_new_errors_calls_and_values() {
        let text = "res.status = function status(code) {\n  if (!Number.isInteger(code)) {\n    throw new TypeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be an integer.`);\n  }\n  if (code > 999) throw new RangeError('Invalid status code');\n  throw createError(404, 'Not Found');\n};\nfunction f() { try { g(); } catch (err) { throw err; } }\n";
        assert_eq!(
            raises(Language::JavaScript, text),
            [
                "res.status: TypeError (\"Invalid status code: …. Status code must be an integer.\") \
                 | RangeError (\"Invalid status code\") | createError",
                "f: err",
            ]
        );
    }

    #[test]
    fn rust_errors_panics_and_bails() {
        let text = r#"fn parse(s: &str) -> Result<u8, Error> {
    if s.is_empty() { return Err(Error::new(ErrorKind::Empty, "glob is empty")); }
    let x = match s { "a" => 1, _ => unreachable!("checked above: {s}") };
    if x > 1 { Err(ParseError::Invalid)?; }
    if x > 2 { bail!("too big"); }
    if x > 3 { return Err(Error { glob: Some(s.to_string()), kind: ErrorKind::UnclosedAlternates }); }
    match s.parse() { Ok(v) => Ok(v), Err(e) => Err(e) }
}
fn quiet() -> u8 { 1 }
"#;
        assert_eq!(
            raises(Language::Rust, text),
            [
                "parse: Err(Error::new(…)) (\"glob is empty\") \
                 | unreachable! (\"checked above: …\") | Err(ParseError::Invalid) \
                 | bail! (\"too big\") | Err(Error { … }) | Err(e)",
                "quiet: ",
            ]
        );
    }
}
