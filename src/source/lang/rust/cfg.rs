//! `#[cfg(…)]` predicates: which items exist only in test builds (`cfg(test)`, `cfg(all(test,
//! loom))`), judged with three-valued logic so that `cfg(not(all(test, loom)))` or `cfg(any(test,
//! fuzzing))` count as code.

/// Whether an attribute (`#[test]`, the text of an `attribute_item`) marks a test: `#[test]` or a
/// test runner's (`#[tokio::test(…)]`, `#[rstest]`, `#[test_case(…)]`); `#[cfg(test)]` does not.
pub(in crate::source) fn is_test_attribute(text: &str) -> bool {
    let inner = text.trim_start_matches("#[").trim_end_matches(']');
    let path = inner.split('(').next().unwrap_or(inner).trim();
    matches!(path, "test" | "rstest" | "test_case") || path.ends_with("::test")
}

/// Whether `between`, the text from the end of a test attribute to an item, holds only other
/// attributes and comments: the attribute is the item's.
pub(in crate::source) fn only_attributes(between: &str) -> bool {
    let rest = between.trim();
    rest.is_empty()
        || (rest.starts_with("#[") || rest.starts_with("//") || rest.starts_with("/*"))
            && !rest.contains(['{', '}', ';'])
}

/// Whether one of the attributes is a `#[cfg(…)]` that holds only in test builds: its predicate is
/// false when `test` is false, whatever every other option is (`cfg(test)`, `cfg(all(test, loom))`;
/// not `cfg(not(test))`, `cfg(not(all(test, loom)))` or `cfg(any(test, fuzzing))`).
pub(crate) fn is_cfg_test(attrs: &[String]) -> bool {
    attrs.iter().any(|attr| {
        let Some(inner) = attr
            .strip_prefix("#[cfg(")
            .and_then(|a| a.strip_suffix(")]"))
        else {
            return false;
        };
        let tokens: Vec<String> = cfg_tokens(inner);
        let mut position = 0;
        cfg_value(&tokens, &mut position) == Some(false)
    })
}

/// The tokens of a `cfg` predicate: identifiers, `(`, `)`, `,`, `=` and string literals.
fn cfg_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' | ')' | ',' | '=' => tokens.push(c.to_string()),
            '"' => {
                let mut literal = String::from('"');
                for next in chars.by_ref() {
                    literal.push(next);
                    if next == '"' {
                        break;
                    }
                }
                tokens.push(literal);
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = c.to_string();
                while let Some(next) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                    word.push(*next);
                    chars.next();
                }
                tokens.push(word);
            }
            _ => {}
        }
    }
    tokens
}

/// Three-valued value of the predicate at `position` with `test` false: `Some(false)`/`Some(true)`
/// when it is decided, `None` when it depends on other options.
fn cfg_value(tokens: &[String], position: &mut usize) -> Option<bool> {
    let word = tokens.get(*position)?.clone();
    *position += 1;
    let is_call = tokens.get(*position).is_some_and(|t| t == "(");
    if !is_call {
        if tokens.get(*position).is_some_and(|t| t == "=") {
            *position += 2; // `feature = "x"`
            return None;
        }
        return if word == "test" { Some(false) } else { None };
    }
    *position += 1;
    let mut values = Vec::new();
    while tokens.get(*position).is_some_and(|t| t != ")") {
        if tokens.get(*position).is_some_and(|t| t == ",") {
            *position += 1;
            continue;
        }
        values.push(cfg_value(tokens, position));
    }
    *position += 1;
    match word.as_str() {
        "not" => values.first().copied().flatten().map(|v| !v),
        "all" if values.contains(&Some(false)) => Some(false),
        "all" if values.iter().all(|v| *v == Some(true)) => Some(true),
        "any" if values.contains(&Some(true)) => Some(true),
        "any" if values.iter().all(|v| *v == Some(false)) => Some(false),
        _ => None,
    }
}
