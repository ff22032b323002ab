//! What a JavaScript/TypeScript test file tests, as mocha, jest and vitest read it: the titles of
//! its top-level `describe(…)` blocks (also `context`, `suite`, `describe.only`, `describe.skip`)
//! with the titles of the blocks directly inside them, and how many cases (`it`, `test`,
//! `specify`) it holds. A file that calls none of them has no suites. The Archivist describes a test
//! file by them ("Tests `res.json(object)`: when given primitives, …") instead of "no public
//! items".

use tree_sitter::Node;

use super::interface::Suite;
use super::syntax::{code_children, text_of};

/// The top-level suites of the syntax tree `root`. The cases are counted node by node with
/// [`is_case_call`] during a walk the caller already makes.
pub(super) fn top(root: Node<'_>, src: &str) -> Vec<Suite> {
    code_children(root)
        .into_iter()
        .filter_map(|statement| {
            let (title, body) = block(statement, src, is_suite)?;
            Some(Suite {
                title,
                children: body.map_or_else(Vec::new, |body| child_titles(body, src)),
            })
        })
        .collect()
}

/// Whether `node` is a test case: `it('title', …)`, `test.only('title', …)`, `specify(…)`.
pub(in crate::source) fn is_case_call(node: Node<'_>, src: &str) -> bool {
    node.kind() == "call_expression" && callee_is(node, src, is_case) && titled(node)
}

/// The titles of the suite and case blocks directly in `body`.
fn child_titles(body: Node<'_>, src: &str) -> Vec<String> {
    code_children(body)
        .into_iter()
        .filter_map(|statement| block(statement, src, is_suite).map(|(title, _)| title))
        .collect()
}

/// `name('title', function () { … })` as an expression statement whose callee `accepts`: the title
/// and the callback's body.
fn block<'t>(
    statement: Node<'t>,
    src: &str,
    accepts: fn(&str) -> bool,
) -> Option<(String, Option<Node<'t>>)> {
    if statement.kind() != "expression_statement" {
        return None;
    }
    let call = code_children(statement).into_iter().next()?;
    if call.kind() != "call_expression" || !callee_is(call, src, accepts) {
        return None;
    }
    let args = code_children(call.child_by_field_name("arguments")?);
    let title = args
        .first()
        .filter(|arg| matches!(arg.kind(), "string" | "template_string"))?;
    let title = text_of(*title, src)
        .trim_matches(['\'', '"', '`'])
        .to_string();
    let body = args
        .get(1)
        .and_then(|callback| callback.child_by_field_name("body"))
        .filter(|body| body.kind() == "statement_block");
    Some((title, body))
}

/// A `describe`/`it` call as a definition of its test file (`source::definitions`): its title and
/// the callback holding its body.
pub(in crate::source) struct TestBlock<'t> {
    pub title: String,
    pub callback: Option<Node<'t>>,
}

/// `call` as a test block: `describe('res', …)`, `it.only('works', …)`; none for any other call.
pub(in crate::source) fn test_block<'t>(call: Node<'t>, src: &str) -> Option<TestBlock<'t>> {
    if call.kind() != "call_expression" || !titled(call) {
        return None;
    }
    if !callee_is(call, src, is_suite) && !callee_is(call, src, is_case) {
        return None;
    }
    let args = code_children(call.child_by_field_name("arguments")?);
    let title = text_of(*args.first()?, src)
        .trim_matches(['\'', '"', '`'])
        .to_string();
    let callback = args
        .iter()
        .rev()
        .find(|arg| {
            matches!(
                arg.kind(),
                "function_expression" | "function" | "arrow_function"
            )
        })
        .copied();
    Some(TestBlock { title, callback })
}

/// A test title as a member name: lowercase words joined by `_` (`should respond with html` →
/// `should_respond_with_html`, `.format(obj)` → `format_obj`).
pub fn title_slug(title: &str) -> String {
    let mut out = String::new();
    for word in title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('_');
        }
        out.push_str(&word.to_lowercase());
    }
    out
}

/// Whether a call's first argument is a title (`it('works', …)`, not `test.each([…])`).
fn titled(call: Node<'_>) -> bool {
    call.child_by_field_name("arguments")
        .and_then(|args| code_children(args).into_iter().next())
        .is_some_and(|first| matches!(first.kind(), "string" | "template_string"))
}

/// Whether the call's callee, without `.only`/`.skip`/`.each(…)`, is a name `accepts`.
fn callee_is(call: Node<'_>, src: &str, accepts: fn(&str) -> bool) -> bool {
    let Some(callee) = call.child_by_field_name("function") else {
        return false;
    };
    let text = text_of(callee, src);
    let name = text.split(['.', '(']).next().unwrap_or(text);
    accepts(name.trim())
}

fn is_suite(name: &str) -> bool {
    matches!(name, "describe" | "context" | "suite")
}

fn is_case(name: &str) -> bool {
    matches!(name, "it" | "test" | "specify")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language, Suites};

    #[test]
    fn top_level_describes_their_children_and_cases_are_found() {
        let text = "var request = require('supertest');\n\
                    describe('res', function(){\n  describe('.json(object)', function(){\n    it('should not support jsonp callbacks', function(done){ done() })\n    describe('when given primitives', function(){\n      it('should respond with json for null', function(){})\n    })\n  })\n})\n\
                    describe.only('app.router', () => {\n  context('methods', () => { test.each([1])('x', () => {}) })\n  it('works', () => {})\n})\n";
        let interface = extract(Language::JavaScript, text).expect("parses");
        assert_eq!(
            interface.suites,
            Suites {
                top: vec![
                    Suite {
                        title: "res".into(),
                        children: vec![".json(object)".into()],
                    },
                    Suite {
                        title: "app.router".into(),
                        children: vec!["methods".into()],
                    },
                ],
                cases: 4,
            }
        );
        let plain =
            extract(Language::JavaScript, "module.exports = function it() {};\n").expect("parses");
        assert!(plain.suites.is_empty());
    }
}
