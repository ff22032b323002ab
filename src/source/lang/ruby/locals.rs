//! Whether a bare word (`route_missing`: no receiver, no argument, no parentheses) is a method
//! call, by Ruby's own parser rule: it is a local variable when a local of that name was bound
//! earlier in the scope it is read in — a parameter of its method, block or lambda (or of a block
//! around it), `x = …`, `x ||= …`, a multiple assignment, `rescue => e`, a `for` variable, a name a
//! pattern binds — else a call of a method of `self`. A `def`, `class`, `module` and `class <<
//! self` body opens a scope of its own; a block or lambda sees the locals around it, and its own
//! stay inside. tree-sitter-ruby parses such a word as an `identifier`, not a `call`: the call walk
//! reads those through `CallSyntax::other_calls` (`super::walks`).

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

/// Whether the `identifier` `word` is a call of a method: it reads a name (it is no method name,
/// parameter or assignment target) that no local bound before it in its scope holds.
pub(crate) fn is_method_call(word: Node<'_>, src: &str) -> bool {
    is_read(word) && !is_local(word, text_of(word, src), src)
}

/// Whether `word` is read where it stands: not the name of a `def`, `alias` or `undef`, not the
/// method of a call (read with its call) and not a name being bound.
fn is_read(word: Node<'_>) -> bool {
    let Some(parent) = word.parent() else {
        return false;
    };
    let is_field = |field: &str| parent.child_by_field_name(field) == Some(word);
    let named = match parent.kind() {
        "call" => is_field("method"),
        "method" | "singleton_method" => is_field("name"),
        "alias" | "undef" => true,
        _ => false,
    };
    !named && !is_binding(word)
}

/// Whether `word` binds a local where it stands.
fn is_binding(word: Node<'_>) -> bool {
    let Some(parent) = word.parent() else {
        return false;
    };
    let is_field = |field: &str| parent.child_by_field_name(field) == Some(word);
    match parent.kind() {
        "assignment" | "operator_assignment" => is_field("left"),
        "optional_parameter" | "keyword_parameter" | "as_pattern" => is_field("name"),
        "for" | "in_clause" => is_field("pattern"),
        "block_parameters" => true,
        kind => BINDING_LISTS.contains(&kind),
    }
}

/// Whether a local named `name` is bound before `word` in the scopes it sees: the code before it
/// in each node around it, up to the `def`, class or module body it is in (blocks left out, their
/// locals are theirs).
fn is_local(word: Node<'_>, name: &str, src: &str) -> bool {
    let mut inner = word;
    while let Some(outer) = inner.parent() {
        let mut cursor = outer.walk();
        let before = outer
            .children(&mut cursor)
            .take_while(|child| child.start_byte() < inner.start_byte());
        for child in before {
            if binds(child, name, src) {
                return true;
            }
        }
        if HARD_SCOPES.contains(&outer.kind()) {
            return false;
        }
        inner = outer;
    }
    false
}

/// Whether `node` (not a scope of its own) binds a local named `name`.
fn binds(node: Node<'_>, name: &str, src: &str) -> bool {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        let kind = node.kind();
        if HARD_SCOPES.contains(&kind) || SOFT_SCOPES.contains(&kind) {
            continue;
        }
        if kind == "identifier" && text_of(node, src) == name && is_binding(node) {
            return true;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    false
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
        let mut found = Vec::new();
        crate::source::syntax::walk(tree.root_node(), (), |node, ()| {
            if node.kind() == "identifier" && is_method_call(node, text) {
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
