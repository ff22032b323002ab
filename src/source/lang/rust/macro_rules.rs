//! A file's own `macro_rules!` called in item position, transcribed as rustc would for the simple
//! rules most test suites write: globset's `syntax!(literal1, "a", vec![…]);` is a `#[test] fn
//! literal1() { let pat = Glob::new("a") … }`, gitignore's `ignored!(ig1, ROOT, "months",
//! "months");` another `ignored!` and then a test — so the tests a macro generates, and what they
//! call, are seen.
//!
//! The macro is the last definition of its name before the call in the call's module or an
//! enclosing one (Rust's textual scope). A rule matches when its pattern is a sequence of
//! literal tokens and `$name:fragment` bindings (`ident`, `lifetime`, `literal`, `tt` take one
//! token or group; any other fragment the tokens up to the next literal of the pattern or a
//! top-level `,`, `;`, `=>`), or the
//! pass-through `$($t:tt)*`; a rule with any other repetition is not read. The transcription is
//! written on one line (tokens joined, a space only between two words; comments left out), so
//! what it defines sits on the call's line; a call in the transcription of a local macro is transcribed in turn, up to
//! [`MAX_DEPTH`] levels.

use tree_sitter::Node;

use super::expand::MacroBody;
use crate::source::syntax::text_of;
use crate::source::Language;

/// Transcriptions of transcriptions followed at most (a macro whose rules call it again).
const MAX_DEPTH: usize = 4;
/// Bytes of one transcription at most (tokio's `rt_test! { … }` repeats a 30 KB test file in
/// three modules; past this a macro's items are read as it passes them through, if it does).
const MAX_TEXT: usize = 512 * 1024;

/// One token of a token tree: a leaf (`fn`, `,`, `"a"`, `$name`) or a delimited group.
#[derive(Clone, Debug)]
enum Token {
    Leaf {
        text: String,
        identifier: bool,
    },
    Group {
        open: String,
        inner: Vec<Token>,
        close: String,
    },
    /// `$name` in a rule's body.
    Meta(String),
    /// `$( … ) sep? op` in a rule's body: the tokens inside.
    Repeat(Vec<Token>),
}

/// One element of a rule's pattern.
#[derive(Clone, Debug)]
enum Pattern {
    Literal(String),
    Bind {
        name: String,
        fragment: String,
    },
    /// The pass-through `$($t:tt)*`: every token, bound to `name`.
    Rest(String),
}

/// One rule: its pattern and its body.
struct Rule {
    pattern: Vec<Pattern>,
    body: Vec<Token>,
}

/// The items a call of a local `macro_rules!` macro expands to, when one of its rules matches.
pub(in crate::source) fn local_macro_body(call: Node<'_>, src: &str) -> Option<MacroBody> {
    let name = text_of(call.child_by_field_name("macro")?, src);
    // Most calls are of macros defined elsewhere (`cfg_rt! { … }` around a whole API): no
    // tokenising of their input unless the file defines the macro.
    let definition = definition_before(call, src, name)?;
    let input = tokens_of(call_tokens(call)?, src);
    let mut text = transcribe(definition, src, &input)?;
    // Each round parses the text once: to read it, or to transcribe the local calls it holds.
    for round in 1..=MAX_DEPTH {
        if text.len() > MAX_TEXT {
            return None;
        }
        let tree = crate::source::parse(Language::Rust, &text).ok()?;
        let expanded = match round < MAX_DEPTH {
            true => expand_calls_in(call, src, tree.root_node(), &text),
            false => None,
        };
        match expanded {
            Some(expanded) => text = expanded,
            None if tree.root_node().has_error() => return None,
            None => {
                return Some(MacroBody {
                    tree,
                    text,
                    row: call.start_position().row,
                })
            }
        }
    }
    None
}

/// `text` (parsed as `root`) with its item-position calls of the local macros of `call`'s scope
/// transcribed; none when it has no such call.
fn expand_calls_in(call: Node<'_>, src: &str, root: Node<'_>, text: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut expanded = false;
    let mut cursor = root.walk();
    for item in root.children(&mut cursor) {
        let inner = match item.kind() {
            "macro_invocation" => Some(item),
            "expression_statement" => item
                .named_child(0)
                .filter(|c| c.kind() == "macro_invocation"),
            _ => None,
        };
        let transcribed = inner.and_then(|inner| {
            let name = text_of(inner.child_by_field_name("macro")?, text);
            let definition = definition_before(call, src, name)?;
            let input = tokens_of(call_tokens(inner)?, text);
            transcribe(definition, src, &input)
        });
        match transcribed {
            Some(items) => {
                parts.push(items);
                expanded = true;
            }
            None => parts.push(text_of(item, text).to_string()),
        }
    }
    expanded.then(|| parts.join(" "))
}

/// The transcription of the macro `definition` for `input`: its first rule that matches.
fn transcribe(definition: Node<'_>, src: &str, input: &[Token]) -> Option<String> {
    let rules = rules_of(definition, src);
    rules.iter().find_map(|rule| {
        let bindings = matched(&rule.pattern, input)?;
        let mut out = String::new();
        write_body(&rule.body, &bindings, &mut out)?;
        Some(out)
    })
}

/// The token tree of a macro call (its arguments with their delimiters).
fn call_tokens(call: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = call.walk();
    let found = call
        .named_children(&mut cursor)
        .find(|child| child.kind() == "token_tree");
    found
}

/// The last `macro_rules! name` defined before `call` in its module or an enclosing one.
fn definition_before<'t>(call: Node<'t>, src: &str, name: &str) -> Option<Node<'t>> {
    let mut scope = call.parent();
    while let Some(node) = scope {
        if matches!(node.kind(), "source_file" | "declaration_list") {
            let mut cursor = node.walk();
            let found = node
                .named_children(&mut cursor)
                .take_while(|item| item.start_byte() < call.start_byte())
                .filter(|item| item.kind() == "macro_definition")
                .filter(|item| {
                    item.child_by_field_name("name")
                        .is_some_and(|n| text_of(n, src) == name)
                })
                .last();
            if found.is_some() {
                return found;
            }
        }
        scope = node.parent();
    }
    None
}

/// The rules of a `macro_rules!` definition that this transcriber reads.
fn rules_of(definition: Node<'_>, src: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    let mut cursor = definition.walk();
    for rule in definition.named_children(&mut cursor) {
        if rule.kind() != "macro_rule" {
            continue;
        }
        let (Some(left), Some(right)) = (
            rule.child_by_field_name("left"),
            rule.child_by_field_name("right"),
        ) else {
            continue;
        };
        if let Some(pattern) = pattern_of(left, src) {
            rules.push(Rule {
                pattern,
                body: tokens_of(right, src),
            });
        }
    }
    rules
}

/// A rule's pattern (inside its delimiters), when it is one this transcriber matches.
fn pattern_of(left: Node<'_>, src: &str) -> Option<Vec<Pattern>> {
    let mut pattern = Vec::new();
    for child in inner_children(left) {
        match child.kind() {
            "token_binding_pattern" => pattern.push(Pattern::Bind {
                name: meta_name(child.child_by_field_name("name")?, src),
                fragment: text_of(child.child_by_field_name("type")?, src).to_string(),
            }),
            "token_repetition_pattern" => {
                // Only `$($t:tt)*` — every token, passed through.
                let inside: Vec<Node<'_>> = children(child)
                    .into_iter()
                    .filter(|c| !matches!(c.kind(), "$" | "(" | ")" | "*"))
                    .collect();
                let [binding] = inside.as_slice() else {
                    return None;
                };
                let is_tt = binding.kind() == "token_binding_pattern"
                    && binding
                        .child_by_field_name("type")
                        .is_some_and(|t| text_of(t, src) == "tt");
                if !is_tt || !text_of(child, src).ends_with('*') {
                    return None;
                }
                pattern.push(Pattern::Rest(meta_name(
                    binding.child_by_field_name("name")?,
                    src,
                )));
            }
            "token_tree_pattern" => return None,
            _ => pattern.push(Pattern::Literal(text_of(child, src).to_string())),
        }
    }
    let rests = pattern
        .iter()
        .filter(|p| matches!(p, Pattern::Rest(_)))
        .count();
    (rests == 0 || pattern.len() == 1).then_some(pattern)
}

/// A metavariable's name without its `$`.
fn meta_name(node: Node<'_>, src: &str) -> String {
    text_of(node, src).trim_start_matches('$').to_string()
}

/// The tokens inside a delimited token tree (its delimiters left out).
fn tokens_of(tree: Node<'_>, src: &str) -> Vec<Token> {
    inner_children(tree)
        .into_iter()
        .map(|child| token(child, src))
        .collect()
}

fn token(node: Node<'_>, src: &str) -> Token {
    match node.kind() {
        "token_tree" => {
            let all = children(node);
            let open = all.first().map_or("", |o| text_of(*o, src)).to_string();
            let close = all.last().map_or("", |c| text_of(*c, src)).to_string();
            Token::Group {
                open,
                inner: tokens_of(node, src),
                close,
            }
        }
        // `$ ( tokens ) separator? operator`: the tokens between the parentheses.
        "token_repetition" => {
            let all = children(node);
            let open = all.iter().position(|c| c.kind() == "(");
            let close = all.iter().rposition(|c| c.kind() == ")");
            let inside = match (open, close) {
                (Some(open), Some(close)) if open < close => &all[open + 1..close],
                _ => &[][..],
            };
            Token::Repeat(inside.iter().map(|c| token(*c, src)).collect())
        }
        "metavariable" => Token::Meta(meta_name(node, src)),
        kind => Token::Leaf {
            text: text_of(node, src).to_string(),
            identifier: kind == "identifier",
        },
    }
}

/// Every child of `node`, comments left out.
fn children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let all: Vec<Node<'_>> = node
        .children(&mut cursor)
        .filter(|c| !c.is_extra())
        .collect();
    all
}

/// The children of a delimited tree without its first and last (the delimiters).
fn inner_children(node: Node<'_>) -> Vec<Node<'_>> {
    let all = children(node);
    match all.len() {
        0..=2 => Vec::new(),
        n => all[1..n - 1].to_vec(),
    }
}

/// The bindings of `pattern` matched against `input`, when it matches whole (a trailing `,` or
/// `;` allowed).
fn matched(pattern: &[Pattern], input: &[Token]) -> Option<Vec<(String, String)>> {
    let mut bindings = Vec::new();
    let mut at = 0;
    for (index, element) in pattern.iter().enumerate() {
        match element {
            Pattern::Rest(name) => {
                bindings.push((name.clone(), joined(&input[at..])));
                at = input.len();
            }
            Pattern::Literal(literal) => match input.get(at) {
                Some(Token::Leaf { text, .. }) if text == literal => at += 1,
                _ => return None,
            },
            Pattern::Bind { name, fragment } => {
                let taken = match fragment.as_str() {
                    "ident" => match input.get(at) {
                        Some(Token::Leaf {
                            identifier: true, ..
                        }) => 1,
                        _ => return None,
                    },
                    "lifetime" | "literal" | "tt" => usize::from(at < input.len()),
                    _ => {
                        let next = pattern[index + 1..].iter().find_map(|p| match p {
                            Pattern::Literal(l) => Some(l.as_str()),
                            _ => None,
                        });
                        // An expression, a type, a path: up to the pattern's next literal, or a
                        // separator that cannot stand at its top level.
                        input[at..]
                            .iter()
                            .position(|t| match t {
                                Token::Leaf { text, .. } => {
                                    Some(text.as_str()) == next
                                        || matches!(text.as_str(), "," | ";" | "=>")
                                }
                                _ => false,
                            })
                            .unwrap_or(input.len() - at)
                    }
                };
                if taken == 0 {
                    return None;
                }
                bindings.push((name.clone(), joined(&input[at..at + taken])));
                at += taken;
            }
        }
    }
    let rest = &input[at..];
    let trailing = matches!(rest, [Token::Leaf { text, .. }] if text == "," || text == ";");
    (rest.is_empty() || trailing).then_some(bindings)
}

/// Tokens as text on one line.
fn joined(tokens: &[Token]) -> String {
    let mut out = String::new();
    for token in tokens {
        write_token(token, &mut out);
    }
    out
}

fn write_token(token: &Token, out: &mut String) {
    match token {
        Token::Leaf { text, .. } => push_word(out, text),
        Token::Meta(name) => push_word(out, &format!("${name}")),
        Token::Group { open, inner, close } => {
            push_word(out, open);
            for token in inner {
                write_token(token, out);
            }
            push_word(out, close);
        }
        Token::Repeat(inner) => {
            for token in inner {
                write_token(token, out);
            }
        }
    }
}

/// `word` after `out`, with a space only where two words or literals would otherwise run into
/// one (`fn literal1`, `"a" "b"`; `#[test]`, `Glob::new("a")` stay tight).
fn push_word(out: &mut String, word: &str) {
    let wordy = |c: char| c.is_alphanumeric() || matches!(c, '_' | '"' | '\'' | '$');
    // A lifetime's apostrophe (`<'_>`, `&'a`) binds to its name.
    let mut last_two = out.chars().rev();
    let (last, before) = (last_two.next(), last_two.next());
    let apostrophe = last == Some('\'') && !before.is_some_and(wordy);
    let joins = !apostrophe && last.is_some_and(wordy) && word.chars().next().is_some_and(wordy);
    if joins {
        out.push(' ');
    }
    out.push_str(word);
}

/// A rule's body with its bindings put in (`$crate` read as `crate`); none when it repeats
/// something other than a pass-through binding.
fn write_body(body: &[Token], bindings: &[(String, String)], out: &mut String) -> Option<()> {
    for token in body {
        match token {
            Token::Meta(name) if name == "crate" => push_word(out, "crate"),
            Token::Meta(name) => {
                let (_, value) = bindings.iter().find(|(bound, _)| bound == name)?;
                push_word(out, value);
            }
            Token::Group { open, inner, close } => {
                push_word(out, open);
                write_body(inner, bindings, out)?;
                push_word(out, close);
            }
            // `$($t)*`: the pass-through binding's tokens.
            Token::Repeat(inner) => match inner.as_slice() {
                [Token::Meta(name)] => {
                    let (_, value) = bindings.iter().find(|(bound, _)| bound == name)?;
                    push_word(out, value);
                }
                _ => return None,
            },
            Token::Leaf { text, .. } => push_word(out, text),
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transcription of the last item-position macro call of `text`.
    fn expanded(text: &str) -> Option<String> {
        let tree = crate::source::parse(Language::Rust, text).expect("parses");
        let mut call = None;
        crate::source::syntax::walk(tree.root_node(), (), |n, ()| {
            if n.kind() == "macro_invocation" {
                call = Some(n);
            }
            Some(())
        });
        local_macro_body(call.expect("a macro call"), text).map(|body| body.text)
    }

    #[test]
    fn a_test_macro_is_transcribed_with_its_arguments() {
        let text = "mod tests {\n    macro_rules! syntax {\n        ($name:ident, $pat:expr, $tokens:expr) => {\n            // A comment.\n            #[test]\n            fn $name() {\n                let pat = Glob::new($pat).unwrap();\n                assert_eq!($tokens, pat.tokens.0);\n            }\n        };\n    }\n\n    syntax!(literal1, \"a, b\", vec![Literal('a')]);\n}\n";
        assert_eq!(
            expanded(text).as_deref(),
            Some("#[test]fn literal1(){let pat=Glob::new(\"a, b\").unwrap();assert_eq!(vec![Literal('a')],pat.tokens.0);}")
        );
    }

    #[test]
    fn a_rule_calling_the_macro_again_is_followed_and_pass_through_is_read() {
        let text = "macro_rules! ignored {\n    ($name:ident, $path:expr) => { ignored!($name, $path, false); };\n    ($name:ident, $path:expr, $dir:expr) => { #[test] fn $name() { check($path, $dir); } };\n}\nmacro_rules! rt_test {\n    ($($t:tt)*) => { mod threaded { $($t)* } };\n}\nignored!(ig1, \"months\");\n";
        assert_eq!(
            expanded(text).as_deref(),
            Some("#[test]fn ig1(){check(\"months\",false);}")
        );
        let pass = format!("{text}rt_test! {{ #[test] fn nested() {{ rt().block_on(x); }} }}\n");
        assert_eq!(
            expanded(&pass).as_deref(),
            Some("mod threaded{#[test]fn nested(){rt().block_on(x);}}")
        );
    }

    #[test]
    fn lifetimes_stay_whole() {
        let text = "macro_rules! fut { ($name:ident) => { impl $name { fn poll(cx: &mut Context<'_>, s: &'static str) {} } }; }\nfut!(ReadU8);\n";
        assert_eq!(
            expanded(text).as_deref(),
            Some("impl ReadU8{fn poll(cx:&mut Context<'_>,s:&'static str){}}")
        );
    }

    #[test]
    fn unknown_macros_other_repetitions_and_later_definitions_are_not_read() {
        assert_eq!(expanded("unknown!(a, b);\n"), None);
        let repeated =
            "macro_rules! many { ($($x:expr),*) => { fn f() { $(g($x);)* } }; }\nmany!(1, 2);\n";
        assert_eq!(expanded(repeated), None);
        let later = "m!(a);\nmacro_rules! m { ($n:ident) => { fn $n() {} }; }\n";
        assert_eq!(expanded(later), None);
        let mismatch = "macro_rules! m { ($n:ident) => { fn $n() {} }; }\nm!(\"not an ident\");\n";
        assert_eq!(expanded(mismatch), None);
    }
}
