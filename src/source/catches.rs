//! Where a call's errors are caught in the member that makes it: each call of a name in a body,
//! with the `except`/`catch` handlers of every `try` around it, innermost first — what `lexi impact
//! <file> --member <name>` reads, caller by caller, to tell where an error the member raises ends
//! up (flask's `TypeError` of `make_response`: not caught by `finalize_request` nor
//! `full_dispatch_request`, caught by `wsgi_app`'s `except Exception as e`).
//!
//! A call inside a function or a lambda defined in the body is one of the body's calls (as callers
//! count it) but runs when that function is called: no `try` around the definition guards it.
//! A call in a handler or a `finally` block is not guarded by that `try`. Each language says what
//! its `try` guards and what its handlers name ([`RaiseSyntax::handlers`]); one without exceptions
//! (Rust, Go) says nothing, and its calls have no handlers.

use tree_sitter::Node;

use super::calls::CallSyntax;
use super::raises::{RaiseSyntax, RE_RAISES};
use super::syntax::{code_children, text_of};

/// Node kinds that start a function of their own inside a body (its calls run when it is called).
const FUNCTION_KINDS: &[&str] = &[
    "function_definition",
    "lambda",
    "function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "generator_function",
    "method_definition",
    "lambda_expression",
    "lambda_literal",
    "anonymous_function",
    "closure_expression",
    // A method of a class defined in the body (Java's and PHP's anonymous classes, Ruby's `def`
    // in a block), a C# local function or anonymous method.
    "method_declaration",
    "local_function_statement",
    "anonymous_method_expression",
    "anonymous_function",
    "method",
    "singleton_method",
];

/// Characters of a handler's header kept as shown.
const SHOWN_CHARS: usize = 80;

/// One `except`/`catch` clause of a `try`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Handler {
    /// The exception types it names, by their last segment (`HTTPException` of
    /// `werkzeug.exceptions.HTTPException`).
    pub types: Vec<String>,
    /// It catches everything: a bare `except:`, a JavaScript `catch`, a C# `catch` without a
    /// type, C++'s `catch (...)`.
    pub all: bool,
    /// Its block throws again what it caught (a bare `raise`, `throw;`, `raise e`/`throw $e` of
    /// the name it binds): what it catches goes on up.
    pub rethrows: bool,
    /// Its header as written, whitespace collapsed (`except Exception as e`, `catch (err)`).
    pub shown: String,
    /// Which `try` around the call it belongs to: 0 for the innermost. The first handler of a
    /// `try` that matches an error takes it; if it throws it again, the next `try` out decides.
    pub level: usize,
}

/// A clause as a language reads it: its node, the block it runs, the name it binds the error to.
pub(crate) struct Clause<'t> {
    pub clause: Node<'t>,
    pub block: Option<Node<'t>>,
    pub bound: Option<Node<'t>>,
}

impl Handler {
    /// The handler of `clause`, catching `types` (or everything, `all`).
    pub(crate) fn read<S: RaiseSyntax + ?Sized>(
        syntax: &S,
        clause: Clause<'_>,
        types: Vec<String>,
        all: bool,
        src: &str,
    ) -> Handler {
        let bound = clause.bound.map(|b| last_word(text_of(b, src)).to_string());
        Handler {
            types,
            all,
            rethrows: clause
                .block
                .is_some_and(|block| rethrows(syntax, block, bound.as_deref(), src)),
            shown: header(clause.clause, clause.block, src),
            level: 0,
        }
    }
}

/// Whether a statement of `block` (or the expression it holds) throws again what was caught: a
/// bare `raise`/`throw;`, or a raise of `bound`, the name the handler binds.
fn rethrows<S: RaiseSyntax + ?Sized>(
    syntax: &S,
    block: Node<'_>,
    bound: Option<&str>,
    src: &str,
) -> bool {
    code_children(block).into_iter().any(|statement| {
        let inner = code_children(statement).into_iter().next();
        [Some(statement), inner].into_iter().flatten().any(|node| {
            let bare_throw = node.kind().contains("throw") && code_children(node).is_empty();
            bare_throw
                || syntax.raise_of(node, src).is_some_and(|entry| {
                    entry == RE_RAISES || bound.is_some_and(|b| last_word(&entry) == b)
                })
        })
    })
}

/// The last identifier-like word of `text` (`e` of `=> e`, `$e` → `e`).
fn last_word(text: &str) -> &str {
    text.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|word| !word.is_empty())
        .unwrap_or("")
}

/// One call of the asked name in a body.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CallSite {
    /// 1-based line in the file.
    pub line: usize,
    /// The handlers of every `try` around the call within the body, innermost `try` first.
    pub handlers: Vec<Handler>,
}

/// The calls of `callee` (a bare name) in the body of `definition`, each with the handlers
/// around it; `rows` is added to a node's row to make its line (a macro body's place in the file).
pub(crate) fn call_sites<S: CallSyntax + ?Sized>(
    syntax: &S,
    definition: Node<'_>,
    src: &str,
    callee: &str,
    rows: usize,
) -> Vec<CallSite> {
    let bare_word_calls = syntax.bare_word_calls(definition, src).unwrap_or_default();
    let mut sites = Vec::new();
    let mut stack = vec![definition];
    while let Some(node) = stack.pop() {
        let is_call = crate::source::calls::is_call_node(syntax, node, &bare_word_calls);
        // `with x:` calls `x.__enter__()` and `x.__exit__(…)` where it stands.
        let through_protocol = || {
            syntax
                .protocol_calls(node)
                .iter()
                .any(|(_, method)| *method == callee)
        };
        if is_call || through_protocol() {
            let called = !is_call
                || syntax
                    .call_target(node, src, None)
                    .is_some_and(|target| target.callee.name() == callee);
            if called {
                sites.push(CallSite {
                    line: node.start_position().row + 1 + rows,
                    handlers: handlers_around(syntax, node, definition, src),
                });
            }
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    sites.sort_by_key(|site| site.line);
    sites
}

/// The handlers of the `try`s around `call` up to `definition`, innermost first.
fn handlers_around<S: RaiseSyntax + ?Sized>(
    syntax: &S,
    call: Node<'_>,
    definition: Node<'_>,
    src: &str,
) -> Vec<Handler> {
    let mut out = Vec::new();
    let mut inside = call;
    let mut level = 0;
    while let Some(around) = inside.parent() {
        if let Some(handlers) = syntax.handlers(around, inside, src) {
            out.extend(
                handlers
                    .into_iter()
                    .map(|handler| Handler { level, ..handler }),
            );
            level += 1;
        }
        // A function defined in the body runs outside the `try`s around its definition.
        if around.id() == definition.id() || FUNCTION_KINDS.contains(&around.kind()) {
            break;
        }
        inside = around;
    }
    out
}

/// Whether `inside` is the block `around` guards: its `body` field (Python, JavaScript, Java).
pub(crate) fn guards_body(around: Node<'_>, inside: Node<'_>) -> bool {
    around
        .child_by_field_name("body")
        .is_some_and(|body| body.id() == inside.id())
}

/// The children of `around` of kind `kind`, each made a handler by `read`.
pub(crate) fn clauses(
    around: Node<'_>,
    kind: &str,
    read: impl Fn(Node<'_>) -> Handler,
) -> Vec<Handler> {
    code_children(around)
        .into_iter()
        .filter(|child| child.kind() == kind)
        .map(read)
        .collect()
}

/// A clause's header: its text before its block, whitespace collapsed, without the `:` or `{`
/// that opens the block.
fn header(clause: Node<'_>, block: Option<Node<'_>>, src: &str) -> String {
    let end = block.map_or(clause.end_byte(), |b| b.start_byte());
    let text = src.get(clause.start_byte()..end).unwrap_or("");
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    let trimmed = joined.trim_end_matches([':', '{', ' ']);
    match trimmed.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &trimmed[..cut]),
        None => trimmed.to_string(),
    }
}

/// The type names under `node` (an `except` value, a `catch` type list): every identifier that
/// is not an attribute's object, by its last segment (`exceptions.HTTPException` → `HTTPException`,
/// PHP's `\\GuzzleHttp\\Exception\\ConnectException` and Ruby's `Rack::Lint::LintError` → their last).
pub(crate) fn type_names(node: Node<'_>, src: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" | "type_identifier" | "simple_identifier" | "name" | "constant"
            | "primitive_type" => names.push(text_of(node, src).to_string()),
            "attribute"
            | "scoped_type_identifier"
            | "user_type"
            | "member_expression"
            | "qualified_name"
            | "qualified_identifier"
            | "scope_resolution" => {
                let text = text_of(node, src);
                let last = text
                    .rsplit(['.', ':', '\\'])
                    .next()
                    .unwrap_or(text)
                    .trim()
                    .to_string();
                if !last.is_empty() {
                    names.push(last);
                }
            }
            _ => {
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev());
            }
        }
    }
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use crate::source::{Language, SourceFile};

    fn sites(language: Language, text: &str, label: &str, callee: &str) -> Vec<String> {
        let file = SourceFile::parse(language, text.to_string()).expect("parses");
        let definition = file.definition(label).expect("defined");
        file.call_sites(definition, callee)
            .into_iter()
            .map(|site| {
                let handlers: Vec<String> = site
                    .handlers
                    .iter()
                    .map(|h| format!("{} {:?}", h.shown, h.types))
                    .collect();
                format!("{}: {}", site.line, handlers.join(" | "))
            })
            .collect()
    }

    #[test]
    fn python_calls_in_a_try_body_have_its_handlers_and_others_none() {
        let text = "class App:\n    def wsgi_app(self, environ):\n        try:\n            try:\n                response = self.dispatch(environ)\n            except (KeyError, exceptions.HTTPException) as e:\n                response = self.dispatch(e)\n            except:\n                raise\n        finally:\n            self.dispatch(None)\n        def later():\n            self.dispatch(1)\n        return self.dispatch(2)\n";
        assert_eq!(
            sites(Language::Python, text, "App.wsgi_app", "dispatch"),
            vec![
                "5: except (KeyError, exceptions.HTTPException) as e [\"KeyError\", \"HTTPException\"] | except []",
                "7: ",
                "11: ",
                "13: ",
                "14: ",
            ]
        );
    }

    #[test]
    fn javascript_catch_catches_everything_and_a_callback_is_not_guarded() {
        let text = "function handle(req) {\n  try {\n    route(req);\n    list.forEach(function (x) { route(x); });\n  } catch (err) {\n    route(err);\n  }\n}\n";
        assert_eq!(
            sites(Language::JavaScript, text, "handle", "route"),
            vec!["3: catch (err) []", "4: ", "6: "]
        );
    }

    #[test]
    fn java_and_kotlin_catch_clauses_name_their_types() {
        let java = "class A {\n  void run() {\n    try {\n      go();\n    } catch (IOException | java.lang.IllegalStateException e) {\n      log(e);\n    }\n  }\n  void go() {}\n}\n";
        assert_eq!(
            sites(Language::Java, java, "A.run", "go"),
            vec!["4: catch (IOException | java.lang.IllegalStateException e) [\"IOException\", \"IllegalStateException\"]"]
        );
        let kotlin = "class A {\n    fun run() {\n        try {\n            go()\n        } catch (e: IllegalStateException) {\n            go()\n        }\n    }\n    fun go() {}\n}\n";
        assert_eq!(
            sites(Language::Kotlin, kotlin, "A.run", "go"),
            vec![
                "4: catch (e: IllegalStateException) [\"IllegalStateException\"]",
                "6: "
            ]
        );
    }

    #[test]
    fn php_catch_clauses_name_their_types() {
        let php = "<?php\nclass A {\n    public function run() {\n        try {\n            $this->go();\n        } catch (\\GuzzleHttp\\Exception\\ConnectException | TypeError $e) {\n            $this->go();\n        }\n    }\n    public function go() {}\n}\n";
        assert_eq!(
            sites(Language::Php, php, "A.run", "go"),
            vec![
                "5: catch (\\GuzzleHttp\\Exception\\ConnectException | TypeError $e) [\"ConnectException\", \"TypeError\"]",
                "7: "
            ]
        );
    }

    #[test]
    fn ruby_rescues_name_their_classes_and_a_bare_one_catches_standard_errors() {
        let ruby = "class A\n  def run\n    go(1)\n  rescue ArgumentError, Rack::Lint::LintError => e\n    go(2)\n  end\n\n  def walk\n    begin\n      go(3)\n    rescue\n      nil\n    end\n    go(4) rescue nil\n  end\n\n  def go(x); end\nend\n";
        assert_eq!(
            sites(Language::Ruby, ruby, "A.run", "go"),
            vec![
                "3: rescue ArgumentError, Rack::Lint::LintError => e [\"ArgumentError\", \"LintError\"]",
                "5: "
            ]
        );
        assert_eq!(
            sites(Language::Ruby, ruby, "A.walk", "go"),
            vec![
                "10: rescue [\"StandardError\"]",
                "14: rescue [\"StandardError\"]"
            ]
        );
    }

    #[test]
    fn csharp_and_cpp_catch_clauses_name_their_types() {
        let cs = "class A {\n  void Run() {\n    try {\n      Go();\n    } catch (System.InvalidOperationException e) when (e.Data != null) {\n    } catch (ArgumentException) {\n    } catch {\n    }\n  }\n  void Go() {}\n}\n";
        assert_eq!(
            sites(Language::CSharp, cs, "A.Run", "Go"),
            vec!["4: catch (System.InvalidOperationException e) when (e.Data != null) [\"when …\"] | catch (ArgumentException) [\"ArgumentException\"] | catch []"]
        );
        let cpp = "void run() {\n  try {\n    go();\n  } catch (const std::runtime_error& e) {\n  } catch (...) {\n  }\n}\n";
        assert_eq!(
            sites(Language::Cpp, cpp, "run", "go"),
            vec!["3: catch (const std::runtime_error& e) [\"runtime_error\"] | catch (...) []"]
        );
    }

    #[test]
    fn a_handler_that_raises_again_rethrows_and_a_with_statement_is_a_site_of_enter() {
        let text = "class App:\n    def run(self):\n        try:\n            self.go()\n        except ValueError as e:\n            log(e)\n            raise\n        try:\n            with Ctx():\n                pass\n        except KeyError as err:\n            raise err\n        except OSError:\n            return None\n\n    def go(self):\n        pass\n";
        let file = SourceFile::parse(Language::Python, text.to_string()).expect("parses");
        let run = file.definition("App.run").expect("defined");
        let go = file.call_sites(run, "go");
        assert!(go[0].handlers[0].rethrows, "{go:?}");
        let enter = file.call_sites(run, "__enter__");
        assert_eq!(enter.len(), 1, "{enter:?}");
        assert_eq!(enter[0].line, 9);
        let rethrows: Vec<bool> = enter[0].handlers.iter().map(|h| h.rethrows).collect();
        assert_eq!(rethrows, [true, false]);
    }

    #[test]
    fn rust_has_no_handlers() {
        let text = "fn run() { go(); let f = || go(); }\nfn go() {}\n";
        assert_eq!(sites(Language::Rust, text, "run", "go"), vec!["1: ", "1: "]);
    }
}
