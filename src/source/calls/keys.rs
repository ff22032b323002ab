//! Which calls of a member carry a *key*: a short string literal as the first argument that names
//! a setting, a header, an environment variable or an event (`this.app.get('json spaces')`,
//! `os.environ.get('X')`, `env::var("X")`) — never a message, a path, a pattern or a format.

use tree_sitter::Node;

use crate::source::syntax::text_of;

/// Callee names whose literal argument is text, a path or a pattern rather than a key.
const NOT_KEYS: &[&str] = &[
    "assert",
    "compile",
    "contains",
    "debug",
    "debug_struct",
    "debug_tuple",
    "deprecate",
    "endsWith",
    "ends_with",
    "endswith",
    "error",
    "expect",
    "find",
    "format",
    "from",
    "includes",
    "indexOf",
    "info",
    "join",
    "log",
    "match",
    "new",
    "print",
    "push_str",
    "replace",
    "require",
    "search",
    "split",
    "startsWith",
    "starts_with",
    "startswith",
    "strip",
    "test",
    "trace",
    "warn",
    "warning",
    "write",
    "writeln",
];

/// Receivers whose literal arguments are messages.
const NOT_KEY_RECEIVERS: &[&str] = &["console", "log", "logger", "logging", "warnings", "path"];

/// The first argument of a call when it is a plain string literal of at most 40 characters on one
/// line, at most three words, with a letter or digit (no escapes, no interpolation, no sentence):
/// the key in `get('json spaces')`.
pub(super) fn literal_argument(call: Node<'_>, src: &str) -> Option<String> {
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let first = arguments
        .named_children(&mut cursor)
        .find(|n| n.kind() != "comment")?;
    if !matches!(first.kind(), "string" | "string_literal") {
        return None;
    }
    let text = text_of(first, src);
    let quote = text.chars().next()?;
    let inner = text
        .strip_prefix(['"', '\''])?
        .strip_suffix(quote)
        .filter(|_| matches!(quote, '"' | '\''))?;
    // A key names something: a letter or digit, at most three words (no sentence, no separator).
    let plain = inner.contains(char::is_alphanumeric)
        && inner.matches(' ').count() <= 2
        && inner.chars().count() <= 40
        && !inner.contains(['\\', '"', '\'', '~', '{'])
        && !inner.contains(char::is_control);
    plain.then(|| inner.to_string())
}

/// Whether a call of `name` through `receiver` can read a key (no logging, formatting, paths).
pub(crate) fn key_callee(name: &str, receiver: Option<&str>) -> bool {
    let first = receiver.and_then(|r| r.split(['.', ':']).next());
    !NOT_KEYS.contains(&name) && !first.is_some_and(|r| NOT_KEY_RECEIVERS.contains(&r))
}
