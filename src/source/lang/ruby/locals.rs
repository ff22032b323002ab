//! Whether a bare word (`route_missing`: no receiver, no argument, no parentheses) is a method
//! call, by Ruby's own parser rule: it is a local variable when a local of that name was bound
//! earlier in the scope it is read in — a parameter of its method, block or lambda (or of a block
//! around it), `x = …`, `x ||= …`, a multiple assignment, `rescue => e`, a `for` variable, a name a
//! pattern binds — else a call of a method of `self`. A `def`, `class`, `module` and `class <<
//! self` body opens a scope of its own; a block or lambda sees the locals around it, and its own
//! stay inside. tree-sitter-ruby parses such a word as an `identifier`, not a `call`: the call walk
//! reads those through `CallSyntax::other_calls` (`super::walks`).

use std::collections::HashSet;

use tree_sitter::Node;

use crate::source::syntax::text_of;

/// Nodes whose body sees no local of the code around them.
const HARD_SCOPES: &[&str] = &[
    "method",
    "singleton_method",
    "class",
    "module",
    "singleton_class",
    "program",
];

/// Nodes whose locals stay inside but which see the locals around them.
const SOFT_SCOPES: &[&str] = &["block", "do_block", "lambda"];

/// Nodes each of whose `identifier` children binds a local.
const BINDING_LISTS: &[&str] = &[
    "method_parameters",
    "block_parameters",
    "lambda_parameters",
    "destructured_parameter",
    "splat_parameter",
    "hash_splat_parameter",
    "block_parameter",
    "left_assignment_list",
    "destructured_left_assignment",
    "rest_assignment",
    "exception_variable",
    "array_pattern",
    "find_pattern",
    "alternative_pattern",
];

/// The start bytes of the `identifier`s of a parsed file that are method calls: read where they
/// stand (no method name, parameter or assignment target) with no local of their name bound before
/// them in the scopes they see. One walk in source order with a frame of bound names per scope,
/// so a file costs its size whatever its nesting (a spec of thousands of `it` blocks in one
/// `describe`).
pub(crate) fn method_call_words(root: Node<'_>, src: &str) -> HashSet<usize> {
    let mut calls = HashSet::new();
    let mut frames: Vec<Frame<'_>> = vec![Frame::hard()];
    let mut stack = vec![Step::Enter(root, None, None)];
    while let Some(step) = stack.pop() {
        let (node, parent, field) = match step {
            Step::Enter(node, parent, field) => (node, parent, field),
            Step::Exit => {
                frames.pop();
                continue;
            }
        };
        if let (Some(parent), "identifier") = (parent, node.kind()) {
            let name = text_of(node, src);
            match word_role(parent.kind(), field) {
                Role::Binding => frames.last_mut().map_or((), |f| f.bind(name)),
                Role::Read if !is_bound(&frames, name) => {
                    calls.insert(node.start_byte());
                }
                Role::Read | Role::Name => {}
            }
        }
        let kind = node.kind();
        if HARD_SCOPES.contains(&kind) || SOFT_SCOPES.contains(&kind) {
            frames.push(Frame {
                hard: HARD_SCOPES.contains(&kind),
                names: HashSet::new(),
            });
            stack.push(Step::Exit);
        }
        push_children(node, &mut stack);
    }
    calls
}

/// One step of the walk: a node to enter (with its parent and the field it is in), or the end of
/// a scope.
enum Step<'t> {
    Enter(Node<'t>, Option<Node<'t>>, Option<&'t str>),
    Exit,
}

/// The locals bound so far in one scope.
struct Frame<'s> {
    /// A `def`, class or module body (or the file): the scopes around it are not seen.
    hard: bool,
    names: HashSet<&'s str>,
}

impl<'s> Frame<'s> {
    fn hard() -> Frame<'s> {
        Frame {
            hard: true,
            names: HashSet::new(),
        }
    }

    fn bind(&mut self, name: &'s str) {
        self.names.insert(name);
    }
}

/// What an `identifier` is where it stands.
enum Role {
    /// A method's, alias's or call's name: neither a local nor a bare call.
    Name,
    /// It binds a local.
    Binding,
    /// It reads a name: a local if one is bound, else a method call.
    Read,
}

/// The role of an `identifier` in `field` of a node of kind `parent`.
fn word_role(parent: &str, field: Option<&str>) -> Role {
    let named = match parent {
        "call" => field == Some("method"),
        "method" | "singleton_method" => field == Some("name"),
        "alias" | "undef" => true,
        _ => false,
    };
    let binding = match parent {
        "assignment" | "operator_assignment" => field == Some("left"),
        "optional_parameter" | "keyword_parameter" | "as_pattern" => field == Some("name"),
        "for" | "in_clause" => field == Some("pattern"),
        "block_parameters" => true,
        kind => BINDING_LISTS.contains(&kind),
    };
    match (named, binding) {
        (true, _) => Role::Name,
        (false, true) => Role::Binding,
        (false, false) => Role::Read,
    }
}

/// Whether `name` is bound in the innermost frames up to the first hard one.
fn is_bound(frames: &[Frame<'_>], name: &str) -> bool {
    for frame in frames.iter().rev() {
        if frame.names.contains(name) {
            return true;
        }
        if frame.hard {
            return false;
        }
    }
    false
}

/// Push `node`'s children, last first (so that they are entered in source order), each with its
/// field.
fn push_children<'t>(node: Node<'t>, stack: &mut Vec<Step<'t>>) {
    let count = node.child_count();
    for index in (0..count).rev() {
        if let Some(child) = node.child(index) {
            stack.push(Step::Enter(
                child,
                Some(node),
                node.field_name_for_child(index),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of `text` read as method calls, in source order.
    fn calls(text: &str) -> Vec<String> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_ruby::LANGUAGE.into())
            .expect("the Ruby grammar loads");
        let tree = parser.parse(text, None).expect("parses");
        let words = method_call_words(tree.root_node(), text);
        let mut found = Vec::new();
        crate::source::syntax::walk(tree.root_node(), (), |node, ()| {
            if node.kind() == "identifier" && words.contains(&node.start_byte()) {
                found.push(format!(
                    "{}:{}",
                    text_of(node, text),
                    node.start_position().row + 1
                ));
            }
            Some(())
        });
        found
    }

    /// (`empty?` is a `call` to tree-sitter: a `?`/`!` name is never a local.)
    #[test]
    fn a_bare_word_is_a_call_unless_a_local_of_its_name_came_first() {
        let text = "\
def top(default = nil, *rest, key: default, &blk)
  route_missing
  count = 0
  count += size
  a, (b, c) = 1, [2, 3]
  label ||= empty?
  items.each { |item, (x, y); z| item + x + y + z + count + blk + rest }
  item
  [1].map do |x|
    w = x
  end
  w
  begin
    nil
  rescue StandardError => e
    e
  end
  for k in items
    k
  end
  late
  late = 1
  late
  y = y
  lambda { |q| q + late + halt }
end
def other
  count
end
";
        assert_eq!(
            calls(text),
            [
                "route_missing:2",
                "size:4",
                "items:7",
                "item:8",
                "w:12",
                "items:18",
                "late:21",
                "halt:25",
                "count:28",
            ]
        );
    }

    #[test]
    fn names_that_are_no_reads_are_no_calls() {
        let text = "class A\n  alias new_name old_name\n  def name; end\n  def self.make; x.go; end\nend\n";
        assert_eq!(calls(text), ["x:4"]);
    }
}
