//! PHP in the call walk (`source::calls`): the node kinds its calls are read from — function calls
//! (`f()`, `\A\f()`), method calls (`$x->f()`, `$x?->f()`), static calls (`A::f()`,
//! `self::f()`, `parent::f()`) and `new A(…)` (A's `__construct`) — the members (methods and
//! functions, a PHPUnit test when [`super::extract::is_test_method`] says so) and the bases a
//! class names (`extends`, `implements`).

use tree_sitter::Node;

use crate::source::calls::keys::key_callee;
use crate::source::calls::{is_identifier, plain_path, At, CallKinds, Callee, Found, Target};
use crate::source::syntax::{code_children, text_of};

/// The node kinds PHP's calls are read from (with [`OTHER_CALLS`]).
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "function_call_expression",
    creation: Some("object_creation_expression"),
    containers: &[
        ("class_declaration", "name"),
        ("interface_declaration", "name"),
        ("trait_declaration", "name"),
        ("enum_declaration", "name"),
    ],
    // Calls are read by `php_target`.
    access: ("member_call_expression", "name"),
    capitalised_builds_value: false,
};

/// PHP's call kinds besides function calls and `new`.
pub(crate) const OTHER_CALLS: &[&str] = &[
    "member_call_expression",
    "nullsafe_member_call_expression",
    "scoped_call_expression",
];

/// PHP's language constructs written as calls, and the prefixes of its built-in function families:
/// calls of no project code, left out.
const CONSTRUCTS: &[&str] = &[
    "isset",
    "empty",
    "unset",
    "list",
    "array",
    "eval",
    "exit",
    "die",
    "count",
    "sprintf",
    "printf",
    "implode",
    "explode",
    "trim",
    "rtrim",
    "ltrim",
    "compact",
    "extract",
    "func_get_args",
    "get_class",
    "get_object_vars",
    "get_debug_type",
    "method_exists",
    "property_exists",
    "class_exists",
    "function_exists",
    "interface_exists",
    "call_user_func",
    "call_user_func_array",
    "define",
    "defined",
    "strlen",
    "substr",
    "strpos",
    "strtolower",
    "strtoupper",
    "ucfirst",
    "lcfirst",
    "in_array",
    "intval",
    "floatval",
    "strval",
    "boolval",
    "gettype",
    "settype",
    "var_export",
    "var_dump",
    "print_r",
    "serialize",
    "unserialize",
    "max",
    "min",
    "abs",
    "round",
    "floor",
    "ceil",
    "range",
    "time",
    "microtime",
    "usleep",
    "sleep",
    "dirname",
    "basename",
    "realpath",
    "file_exists",
    "is_callable",
    "iterator_to_array",
    "spl_object_hash",
    "spl_object_id",
    "trigger_error",
    "error_reporting",
    "restore_error_handler",
    "set_error_handler",
    "http_build_query",
    "parse_url",
    "parse_str",
    "rawurlencode",
    "urlencode",
    "rawurldecode",
    "urldecode",
    "base64_encode",
    "base64_decode",
    "md5",
    "sha1",
    "hash",
    "uniqid",
    "random_int",
    "is_numeric",
    "ob_start",
    "ob_get_clean",
    "header",
    "headers_sent",
    "fopen",
    "fclose",
    "fwrite",
    "fread",
    "feof",
    "fgets",
    "is_resource",
    "ini_get",
    "ini_set",
    "version_compare",
    "extension_loaded",
    "filter_var",
    "ctype_digit",
    "ucwords",
    "nl2br",
    "htmlspecialchars",
    "number_format",
    "key",
    "current",
    "next",
    "reset",
    "end",
    "each",
];

/// Prefixes of PHP's built-in function families (`array_map`, `str_replace`, `is_string`).
const BUILTIN_PREFIXES: &[&str] = &[
    "array_",
    "str_",
    "is_",
    "mb_",
    "preg_",
    "json_",
    "curl_",
    "stream_",
    "file_",
    "ctype_",
    "spl_",
    "iterator_",
    "date_",
    "openssl_",
    "ob_",
    "func_",
];

/// Whether a bare call names one of PHP's built-in functions or constructs.
fn is_builtin(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    CONSTRUCTS.contains(&lower.as_str())
        || BUILTIN_PREFIXES
            .iter()
            .any(|prefix| lower.starts_with(prefix))
}

/// Receivers of the own object or class.
const OWN: &[&str] = &["$this", "self", "static", "parent"];

/// Whether `node` starts a member: a method (in its class) or a function.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        "method_declaration" => Some(Found {
            test: super::extract::is_test_method(node, src),
            ..Found::plain(
                text_of(node.child_by_field_name("name")?, src),
                at.container,
            )
        }),
        "function_definition" => Some(Found::plain(
            text_of(node.child_by_field_name("name")?, src),
            None,
        )),
        _ => None,
    }
}

/// The bases a class, interface or enum names: its parent class and interfaces.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let class = text_of(node.child_by_field_name("name")?, src).to_string();
    Some((class, php_bases(node, src)))
}

/// A class's `extends` and `implements` names (an interface's `extends`), by their last segment,
/// in source order.
pub(crate) fn php_bases(node: Node<'_>, src: &str) -> Vec<String> {
    let mut bases: Vec<String> = Vec::new();
    for clause in code_children(node) {
        if !matches!(clause.kind(), "base_clause" | "class_interface_clause") {
            continue;
        }
        for name in code_children(clause) {
            let name = last_segment(text_of(name, src));
            if is_identifier(name) && !bases.iter().any(|b| b == name) {
                bases.push(name.to_string());
            }
        }
    }
    bases
}

/// `C` of `\A\B\C`.
pub(crate) fn last_segment(name: &str) -> &str {
    name.rsplit('\\').next().unwrap_or(name).trim()
}

/// Top-level statements read for a `use` alias, at most.
const MAX_STATEMENTS: usize = 256;

/// What a `use` statement imports: classes (`use A\Cache`) or functions (`use function A\bar`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Imported {
    Class,
    Function,
}

/// The class (or function) an alias of the file's `use` statements of that kind names (`Cache`
/// for `Memo` of `use A\Cache as Memo`, `bar` for `baz` of `use function A\bar as baz`), else
/// `name` itself: a class alias never names a function, nor the reverse.
fn unaliased<'s>(node: Node<'_>, src: &'s str, name: &'s str, kind: Imported) -> &'s str {
    let mut root = node;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    // `use` statements stand at the top level, before the code: the first statements are read.
    let mut statements: Vec<Node<'_>> = code_children(root)
        .into_iter()
        .take(MAX_STATEMENTS)
        .collect();
    let bodies: Vec<Node<'_>> = statements
        .iter()
        .filter(|s| s.kind() == "namespace_definition")
        .filter_map(|s| s.child_by_field_name("body"))
        .collect();
    statements.extend(
        bodies
            .into_iter()
            .flat_map(|body| code_children(body).into_iter().take(MAX_STATEMENTS)),
    );
    for statement in statements {
        if statement.kind() != "namespace_use_declaration" || use_kind(statement, src) != Some(kind)
        {
            continue;
        }
        let clauses = match statement.child_by_field_name("body") {
            Some(group) => code_children(group),
            None => code_children(statement),
        };
        for clause in clauses {
            let aliased = clause
                .child_by_field_name("alias")
                .is_some_and(|alias| text_of(alias, src).eq_ignore_ascii_case(name));
            let target = code_children(clause)
                .into_iter()
                .find(|c| matches!(c.kind(), "name" | "qualified_name"));
            if let (true, Some(target)) = (aliased, target) {
                return last_segment(text_of(target, src));
            }
        }
    }
    name
}

/// What a `use` statement imports; `None` for constants (`use const A\B`).
fn use_kind(statement: Node<'_>, src: &str) -> Option<Imported> {
    let words: Vec<&str> = text_of(statement, src).split_whitespace().take(2).collect();
    match words.get(1).map(|w| w.to_ascii_lowercase()) {
        Some(word) if word == "function" => Some(Imported::Function),
        Some(word) if word == "const" => None,
        _ => Some(Imported::Class),
    }
}

/// The callee of a PHP call: a function call is a free function; a method call through `$this`,
/// or a static call through `self`/`static`/`parent` or the class's own name, the own object; a
/// static call through another class a type path; `new A(…)` A's `__construct`; a method call
/// through another object a receiver (`$this->router->map()` through `router`).
pub(crate) fn php_target(
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    let own_class = |scope: &str| {
        OWN.contains(&scope) || container.is_some_and(|(start, end)| &src[start..end] == scope)
    };
    let shown = |name: &str, path: Option<&str>| {
        key_callee(name, path).then(|| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_string(),
        })
    };
    match call.kind() {
        "object_creation_expression" => {
            let class = code_children(call)
                .into_iter()
                .find(|c| matches!(c.kind(), "name" | "qualified_name" | "relative_name"))?;
            let ty = unaliased(
                call,
                src,
                last_segment(text_of(class, src)),
                Imported::Class,
            );
            // An exception being built is the Raises line's: named as a constructor is
            // elsewhere (`Type.Type`), which `lexi lookup` leaves out of the calls.
            let name = match ty.ends_with("Exception") || ty.ends_with("Error") {
                true => ty,
                false => "__construct",
            };
            is_identifier(ty).then(|| Target {
                callee: Callee::TypePath {
                    ty: ty.to_string(),
                    name: name.to_string(),
                },
                shown: None,
            })
        }
        "function_call_expression" => {
            let function = call.child_by_field_name("function")?;
            if !matches!(function.kind(), "name" | "qualified_name" | "relative_name") {
                return None;
            }
            // `baz()` with `use function A\bar as baz` calls `bar`.
            let name = match function.kind() {
                "name" => unaliased(call, src, text_of(function, src), Imported::Function),
                _ => last_segment(text_of(function, src)),
            };
            (is_identifier(name) && !is_builtin(name)).then(|| Target {
                callee: Callee::Bare(name.to_string()),
                shown: shown(name, None),
            })
        }
        "scoped_call_expression" => {
            let name = text_of(call.child_by_field_name("name")?, src);
            let scope = text_of(call.child_by_field_name("scope")?, src);
            if !is_identifier(name) {
                return None;
            }
            if own_class(scope) {
                return Some(Target {
                    callee: Callee::OwnObject(name.to_string()),
                    shown: shown(name, None),
                });
            }
            let ty = unaliased(call, src, last_segment(scope), Imported::Class);
            is_identifier(ty).then(|| Target {
                callee: Callee::TypePath {
                    ty: ty.to_string(),
                    name: name.to_string(),
                },
                shown: shown(name, Some(ty)),
            })
        }
        _ => {
            let name = text_of(call.child_by_field_name("name")?, src);
            if !is_identifier(name) {
                return None;
            }
            let object = text_of(call.child_by_field_name("object")?, src);
            if object == "$this" {
                return Some(Target {
                    callee: Callee::OwnObject(name.to_string()),
                    shown: shown(name, None),
                });
            }
            let dotted = object
                .replace("?->", ".")
                .replace("->", ".")
                .replace('$', "");
            let path = plain_path(&dotted);
            let last = path.and_then(|p| p.rsplit('.').next());
            Some(Target {
                callee: Callee::Receiver {
                    name: name.to_string(),
                    receiver: last.map(str::to_string),
                },
                shown: path.and_then(|p| shown(name, Some(p))),
            })
        }
    }
}
