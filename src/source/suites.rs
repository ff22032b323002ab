//! What a JavaScript/TypeScript test file tests, as mocha, jest and vitest read it: the titles of
//! its top-level `describe(…)` blocks (also `context`, `suite`, `describe.only`, `describe.skip`)
//! with the titles of the blocks directly inside them, and how many cases (`it`, `test`,
//! `specify`) it holds. A file that calls none of them has no suites. The Archivist describes a test
//! file by them ("Tests `res.json(object)`: when given primitives, …") instead of "no public
//! items".
//!
//! Ruby's RSpec and minitest/spec read the same way from its `call` nodes (`describe Rack::Utils
//! do … end`, `RSpec.describe Foo do`, `it "works" do`: a constant titles a suite by its name),
//! and a minitest class (`class RoutingTest < Minitest::Test`) holding `def test_*` methods or
//! `it` blocks is a top-level suite titled by its name, each `def test_*` a case.

use tree_sitter::Node;

use super::interface::Suite;
use super::syntax::{code_children, text_of};

/// The top-level suites of the syntax tree `root`. The cases are counted node by node with
/// [`is_case_call`] during a walk the caller already makes.
pub(super) fn top(root: Node<'_>, src: &str) -> Vec<Suite> {
    let mut suites: Vec<Suite> = Vec::new();
    // A title written again (rack's `describe Rack::Utils do` blocks one after another) is one
    // suite.
    for suite in top_blocks(root, src) {
        match suites.iter_mut().find(|known| known.title == suite.title) {
            Some(known) => known.children.extend(suite.children),
            None => suites.push(suite),
        }
    }
    suites
}

/// The top-level suite blocks, in source order.
fn top_blocks(root: Node<'_>, src: &str) -> Vec<Suite> {
    code_children(root)
        .into_iter()
        .filter_map(|statement| {
            if let Some(suite) = ruby_test_class(statement, src) {
                return Some(suite);
            }
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
    let test_method = node.kind() == "method"
        && node
            .child_by_field_name("name")
            .is_some_and(|name| text_of(name, src).starts_with("test_"));
    test_method
        || (matches!(node.kind(), "call_expression" | "call")
            && callee_is(node, src, is_case)
            && titled(node))
}

/// A Ruby minitest class (`class RoutingTest < Minitest::Test`, named `*Test` or holding `def
/// test_*` or `it` cases) as a suite titled by its name, with the titles of the suites in it.
fn ruby_test_class(statement: Node<'_>, src: &str) -> Option<Suite> {
    if statement.kind() != "class" {
        return None;
    }
    let name = text_of(statement.child_by_field_name("name")?, src);
    let body = statement.child_by_field_name("body")?;
    let statements = code_children(body);
    let holds_cases = statements
        .iter()
        .any(|s| is_case_call(*s, src) || block(*s, src, is_suite).is_some());
    (name.ends_with("Test") || holds_cases).then(|| Suite {
        title: name.to_string(),
        children: child_titles(body, src),
    })
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
    let call = match statement.kind() {
        "expression_statement" => code_children(statement).into_iter().next()?,
        // Ruby: a statement is the call itself.
        "call" => statement,
        _ => return None,
    };
    if !matches!(call.kind(), "call_expression" | "call") || !callee_is(call, src, accepts) {
        return None;
    }
    let args = code_children(call.child_by_field_name("arguments")?);
    let title = args.first().filter(|arg| {
        matches!(arg.kind(), "string" | "template_string")
            || (call.kind() == "call" && matches!(arg.kind(), "constant" | "scope_resolution"))
    })?;
    let title = text_of(*title, src)
        .trim_matches(['\'', '"', '`'])
        .to_string();
    let body = match call.kind() {
        // Ruby: `describe X do … end`, its block's body.
        "call" => call
            .child_by_field_name("block")
            .and_then(|block| block.child_by_field_name("body")),
        _ => args
            .get(1)
            .and_then(|callback| callback.child_by_field_name("body"))
            .filter(|body| body.kind() == "statement_block"),
    };
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
    // Ruby: `describe …`, `RSpec.describe …`.
    if call.kind() == "call" {
        let receiver = call
            .child_by_field_name("receiver")
            .map(|r| text_of(r, src));
        return matches!(receiver, None | Some("RSpec"))
            && call
                .child_by_field_name("method")
                .is_some_and(|method| accepts(text_of(method, src)));
    }
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

    #[test]
    fn rspec_minitest_spec_and_minitest_classes_are_suites() {
        let spec = "require_relative 'helper'\n\ndescribe Rack::Utils do\n  it 'escapes' do\n  end\n  describe '.unescape' do\n    it('works') { }\n  end\nend\n\nRSpec.describe \"json\" do\n  specify 'x' do end\nend\n\ndescribe Rack::Utils do\n  context 'more' do\n  end\nend\n";
        let interface = extract(Language::Ruby, spec).expect("parses");
        assert_eq!(
            interface.suites,
            Suites {
                top: vec![
                    Suite {
                        title: "Rack::Utils".into(),
                        children: vec![".unescape".into(), "more".into()],
                    },
                    Suite {
                        title: "json".into(),
                        children: vec![],
                    },
                ],
                cases: 3,
            }
        );
        let classes = "class RoutingTest < Minitest::Test\n  def test_get; end\n  it 'posts' do end\n  def helper; end\nend\nclass Helper\n  def run; end\nend\n";
        let interface = extract(Language::Ruby, classes).expect("parses");
        assert_eq!(
            interface.suites,
            Suites {
                top: vec![Suite {
                    title: "RoutingTest".into(),
                    children: vec![],
                }],
                cases: 2,
            }
        );
    }
}
