//! The functions and constants PHP files declare outside classes, by their fully qualified names
//! (`GuzzleHttp\describe_type` of guzzle's `src/functions.php`): composer loads such files through
//! its `files` entries or a `require`, never by name, so a call of a namespaced function
//! (`source::lang::php::extract`) is resolved to its file through this table
//! (`source::lang::php::resolve`). A declaration counts at the top of the file, of a `namespace`
//! block, or inside an `if` there (`if (!function_exists('f')) { function f() {} }`); never in a
//! class or function body.

use std::collections::BTreeMap;

use tree_sitter::Node;

use crate::source::model::files::{FileIndex, ReadFile};
use crate::source::syntax::{code_children, text_of};

/// PHP files read for declarations at most (the first, by path).
const MAX_FILES: usize = 20_000;

/// What a file declares: (fully qualified name, whether it is a function — else a constant).
type Declared = Vec<(String, bool)>;

/// The functions (by lowercase name: PHP's function names ignore case) and constants (namespace
/// lowercase, name as written) the project's PHP files declare, each with the files declaring it.
#[derive(Default)]
pub(super) struct Declarations {
    pub functions: BTreeMap<String, Vec<String>>,
    pub constants: BTreeMap<String, Vec<String>>,
}

/// The declarations of every PHP file among `files` (none under `vendor/`).
pub(super) fn read_all(files: &FileIndex, read: &dyn ReadFile) -> Declarations {
    let mut out = Declarations::default();
    let mut parser = super::PHP.grammar.and_then(|grammar| {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&grammar()).ok().map(|_| parser)
    });
    let php = files
        .under("")
        .filter(|path| path.ends_with(".php") && !path.split('/').any(|d| d == "vendor"));
    for path in php.take(MAX_FILES) {
        let Some(text) = read.read(path).filter(|text| may_declare(text)) else {
            continue;
        };
        let Some(tree) = parser.as_mut().and_then(|p| p.parse(&text, None)) else {
            continue;
        };
        for (name, function) in declarations(tree.root_node(), &text) {
            let table = match function {
                true => &mut out.functions,
                false => &mut out.constants,
            };
            let files = table.entry(name).or_default();
            if !files.iter().any(|known| known == path) {
                files.push(path.to_string());
            }
        }
    }
    out
}

/// Whether a file's text may declare a function or constant outside a class: a line starting with
/// `function` or `const` (a method or class constant without a visibility passes too, and is
/// left out by the parse).
fn may_declare(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("function ") || line.starts_with("function&") || line.starts_with("const ")
    })
}

/// The functions and constants a parsed file declares outside classes and functions.
pub(super) fn declarations(root: Node<'_>, src: &str) -> Declared {
    let mut out = Declared::new();
    let mut namespace = String::new();
    statements(root, src, &mut namespace, &mut out);
    out
}

/// The declarations among `parent`'s statements; `namespace` is the one in force (a
/// `namespace A;` statement changes it for the statements after it).
fn statements(parent: Node<'_>, src: &str, namespace: &mut String, out: &mut Declared) {
    for child in code_children(parent) {
        match child.kind() {
            "namespace_definition" => {
                *namespace = child
                    .child_by_field_name("name")
                    .map(|n| text_of(n, src).split_whitespace().collect::<String>())
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                if let Some(body) = child.child_by_field_name("body") {
                    statements(body, src, namespace, out);
                    namespace.clear();
                }
            }
            "function_definition" => {
                if let Some(name) = child.child_by_field_name("name") {
                    let name = text_of(name, src).to_ascii_lowercase();
                    out.push((qualified(namespace, &name), true));
                }
            }
            "const_declaration" => {
                let elements = code_children(child)
                    .into_iter()
                    .filter(|c| c.kind() == "const_element");
                for element in elements {
                    let name = code_children(element)
                        .into_iter()
                        .find(|c| c.kind() == "name");
                    if let Some(name) = name {
                        out.push((qualified(namespace, text_of(name, src)), false));
                    }
                }
            }
            "if_statement" | "compound_statement" | "else_clause" | "else_if_clause" => {
                statements(child, src, namespace, out)
            }
            _ => {}
        }
    }
}

/// `name` in `namespace` (`""`: the global one).
fn qualified(namespace: &str, name: &str) -> String {
    match namespace.is_empty() {
        true => name.to_string(),
        false => format!("{namespace}\\{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_and_constants_outside_classes_with_their_namespace() {
        let text = "<?php\nnamespace GuzzleHttp;\n\nconst VERSION = '7', OTHER = 1;\nfunction describe_type($x): string { function inner() {} }\nif (!function_exists('GuzzleHttp\\Later')) {\n    function Later() {}\n}\nclass Box { const INNER = 1; function method() {} }\nnamespace Other { function f() {} }\nnamespace { function global_one() {} }\n";
        let tree = crate::source::parse(crate::source::Language::Php, text).expect("parses");
        assert_eq!(
            declarations(tree.root_node(), text),
            [
                ("guzzlehttp\\VERSION".to_string(), false),
                ("guzzlehttp\\OTHER".to_string(), false),
                ("guzzlehttp\\describe_type".to_string(), true),
                ("guzzlehttp\\later".to_string(), true),
                ("other\\f".to_string(), true),
                ("global_one".to_string(), true),
            ]
        );
        assert!(may_declare(text));
        assert!(!may_declare(
            "<?php\nclass A {\n  public function f() {}\n  public const X = 1;\n}\n"
        ));
    }
}
