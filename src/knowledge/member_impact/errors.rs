//! Where the errors a member raises go: for each exception type its `Raises` names, the callers up
//! the walk whose call sits in a `try` that catches it (`source::catches`), and the callers at the
//! top of the walk it leaves uncaught — what "change `make_response` safely" needs to know of its
//! `TypeError`: `finalize_request` and `full_dispatch_request` let it through, `wsgi_app` catches
//! it with `except Exception as e`.
//!
//! The walk follows every caller the member's walk finds (`super::Walk::callers_of`: within a file
//! by name, across files where resolution supports it), not tests. A caller catches an error when
//! every call it makes of the member below sits in a `try` with a handler for it: one naming the
//! type, a catch-all (a bare `except:`, a JavaScript `catch`, `BaseException`, `Throwable`), or
//! `Exception` (which in Java, Kotlin and PHP does not catch an `…Error`, and in Python not
//! `SystemExit`, `KeyboardInterrupt` or `GeneratorExit`). A handler naming a base class of the type
//! (`except LookupError` for a `KeyError`) is not recognised: the error is then shown passing it.

use std::collections::{HashMap, HashSet};

use super::{own_callers, Walk};
use crate::archivist::is_test_path;
use crate::knowledge::lookup::member::{last_segment, raised_types, Member};
use crate::source::catches::Handler;
use crate::source::{Language, SourceFile};
use crate::workspace::Workspace;

/// Catching callers and uncaught tops shown per type, at most.
const SHOWN: usize = 3;

/// Where one raised type goes.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ErrorPath {
    /// The exception type (`TypeError`).
    pub error: String,
    /// The callers that catch it, nearest first.
    pub caught: Vec<Catch>,
    /// Where it is left uncaught: the callers at the top of the walk.
    pub uncaught: Vec<Uncaught>,
}

/// A caller at the top of the walk that lets the error through.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Uncaught {
    pub file: String,
    pub member: String,
    /// The callers the error went through before it, from the member up.
    pub through: Vec<String>,
    /// No caller of it was found outside tests (else the walk's depth ends there).
    pub top: bool,
}

/// A caller catching the error.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Catch {
    pub file: String,
    pub member: String,
    /// The line of its (first) guarded call.
    pub line: usize,
    /// The handler that catches it, as written (`except Exception as e`).
    pub handler: String,
    /// The callers the error went through before it, from the member up.
    pub through: Vec<String>,
}

/// Where each type `member` of `source` raises goes, `depth` levels of callers up.
pub(super) fn error_paths(
    ws: &Workspace,
    walk: &mut Walk<'_>,
    source: &str,
    member: &Member,
    depth: usize,
) -> Vec<ErrorPath> {
    let errors = raised_types(&member.raises);
    if errors.is_empty() {
        return Vec::new();
    }
    let mut files = Files {
        ws,
        parsed: HashMap::new(),
    };
    errors
        .into_iter()
        .map(|error| follow(&mut files, walk, source, member, depth, error))
        .collect()
}

/// One exception type followed up the callers, level by level.
fn follow(
    files: &mut Files<'_>,
    walk: &mut Walk<'_>,
    source: &str,
    member: &Member,
    depth: usize,
    error: String,
) -> ErrorPath {
    // Each caller is followed once, but judged for every member below it it calls: `wsgi_app`
    // catches what `full_dispatch_request` lets through and not what its handler's call lets out.
    let mut followed: HashSet<(String, String)> =
        HashSet::from([(source.to_string(), member.label.clone())]);
    let mut frontier: Vec<(String, String, Vec<String>)> =
        vec![(source.to_string(), member.label.clone(), Vec::new())];
    let mut caught: Vec<Catch> = Vec::new();
    let mut uncaught = Vec::new();
    for level in 1..=depth {
        let mut next = Vec::new();
        for (file, label, through) in &frontier {
            let callers = match level {
                1 => own_callers(source, member),
                _ => walk.callers_of(file, label),
            };
            let callers: Vec<(String, String)> = callers
                .into_iter()
                .filter(|(f, m)| !is_test_path(f) && !walk.is_test(f, m))
                .collect();
            if callers.is_empty() {
                uncaught.push(Uncaught::at(file, label, through, true));
            }
            for (caller_file, caller) in callers {
                match files.catcher(&caller_file, &caller, last_segment(label), &error) {
                    Some((line, handler)) => {
                        let known = caught
                            .iter()
                            .any(|c| c.file == caller_file && c.member == caller);
                        if !known {
                            caught.push(Catch {
                                file: caller_file,
                                member: caller,
                                line,
                                handler,
                                through: through.clone(),
                            });
                        }
                    }
                    None if followed.insert((caller_file.clone(), caller.clone())) => {
                        let mut through = through.clone();
                        through.push(caller.clone());
                        next.push((caller_file, caller, through));
                    }
                    None => {}
                }
            }
        }
        frontier = next;
    }
    for (file, label, through) in &frontier {
        let top = walk
            .callers_of(file, label)
            .iter()
            .all(|(f, m)| is_test_path(f) || walk.is_test(f, m));
        uncaught.push(Uncaught::at(file, label, through, top));
    }
    ErrorPath {
        error,
        caught,
        uncaught,
    }
}

impl Uncaught {
    /// `label` of `file` reached through `through` (its own label last), at the top or not.
    fn at(file: &str, label: &str, through: &[String], top: bool) -> Uncaught {
        let through = through.split_last().map_or(&[][..], |(_, before)| before);
        Uncaught {
            file: file.to_string(),
            member: label.to_string(),
            through: through.to_vec(),
            top,
        }
    }
}

/// The caller files parsed, each once.
struct Files<'a> {
    ws: &'a Workspace,
    parsed: HashMap<String, Option<SourceFile>>,
}

impl Files<'_> {
    /// The line and handler where `caller` of `file` catches `error` raised below its calls of
    /// `called` — when every such call sits in a `try` with a handler for it; `None` otherwise.
    fn catcher(
        &mut self,
        file: &str,
        caller: &str,
        called: &str,
        error: &str,
    ) -> Option<(usize, String)> {
        let ws = self.ws;
        let parsed = self
            .parsed
            .entry(file.to_string())
            .or_insert_with(|| parse(ws, file))
            .as_ref()?;
        let definition = parsed.definition(caller)?;
        let language = parsed.language;
        let sites = parsed.call_sites(definition, called);
        let mut first = None;
        for site in &sites {
            let handler = catching(&site.handlers, error, language)?;
            first.get_or_insert((site.line, handler.shown.clone()));
        }
        first
    }
}

/// `file` of the workspace parsed, if its language is parsed.
fn parse(ws: &Workspace, file: &str) -> Option<SourceFile> {
    let language = Language::from_path(std::path::Path::new(file))?;
    let bytes = ws.project().read(file).ok()?;
    SourceFile::parse(language, String::from_utf8_lossy(&bytes).into_owned()).ok()
}

/// The handler around a call that keeps `error`: in each `try` from the innermost out, the first
/// handler taking it decides — it keeps it, or throws it again to the next `try` out.
fn catching<'h>(handlers: &'h [Handler], error: &str, language: Language) -> Option<&'h Handler> {
    let levels = handlers
        .iter()
        .map(|h| h.level)
        .max()
        .map_or(0, |max| max + 1);
    for level in 0..levels {
        let taking = handlers
            .iter()
            .filter(|h| h.level == level)
            .find(|h| takes(h, error, language));
        match taking {
            Some(handler) if !handler.rethrows => return Some(handler),
            _ => continue,
        }
    }
    None
}

/// Whether `handler`, in a file of `language`, takes `error` (keeping it or not).
fn takes(handler: &Handler, error: &str, language: Language) -> bool {
    handler.all
        || handler
            .types
            .iter()
            .any(|caught| caught == error || catches_all(caught, error, language))
}

/// Ruby's exceptions a bare `rescue` (a `StandardError`) does not catch.
const RUBY_NOT_STANDARD: &[&str] = &[
    "Exception",
    "Interrupt",
    "SignalException",
    "SystemExit",
    "NoMemoryError",
    "ScriptError",
    "LoadError",
    "NotImplementedError",
    "SyntaxError",
    "SecurityError",
];

/// Whether a handler of the root type `caught` catches `error` in `language`: `BaseException`
/// and `Throwable` everything; `Exception` everything in Ruby and C#, but Python's three exits, and in Java,
/// Kotlin and PHP not an `…Error`; Ruby's `StandardError` (a bare `rescue`) what derives from it.
fn catches_all(caught: &str, error: &str, language: Language) -> bool {
    match (caught, language) {
        ("BaseException" | "Throwable", _) | ("Exception", Language::Ruby | Language::CSharp) => {
            true
        }
        ("Exception", Language::Java | Language::Kotlin | Language::Php) => {
            !error.ends_with("Error")
        }
        ("Exception", Language::Python) => {
            !matches!(error, "SystemExit" | "KeyboardInterrupt" | "GeneratorExit")
        }
        ("StandardError", Language::Ruby) => !RUBY_NOT_STANDARD.contains(&error),
        _ => false,
    }
}

/// The section `lexi impact --member` prints, empty when the member raises no named type.
pub fn to_text(paths: &[ErrorPath], depth: usize) -> String {
    if paths.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n## Where its errors go\n\n");
    for path in paths {
        for catch in path.caught.iter().take(SHOWN) {
            out.push_str(&format!(
                "- {} → {}caught in {}: {} by `{}` (line {})\n",
                path.error,
                arrows(&catch.through),
                catch.file,
                catch.member,
                catch.handler,
                catch.line
            ));
        }
        for left in path.uncaught.iter().take(SHOWN) {
            let why = match left.top {
                true => "no caller found outside tests".to_string(),
                false => format!("the walk ends at depth {depth}"),
            };
            out.push_str(&format!(
                "- {} → {}{}: {}: not caught ({why})\n",
                path.error,
                arrows(&left.through),
                left.file,
                left.member
            ));
        }
        let more =
            path.caught.len().saturating_sub(SHOWN) + path.uncaught.len().saturating_sub(SHOWN);
        if more > 0 {
            out.push_str(&format!(
                "- {}: {more} more (`--format json`)\n",
                path.error
            ));
        }
    }
    out
}

/// `a → b → ` of the callers an error went through.
fn arrows(through: &[String]) -> String {
    through.iter().map(|c| format!("{c} → ")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handlers_catch_their_types_and_the_catch_alls() {
        let handler = |types: &[&str]| Handler {
            types: types.iter().map(|t| t.to_string()).collect(),
            all: types.is_empty(),
            rethrows: false,
            shown: String::new(),
            level: 0,
        };
        let catches = |handler: &Handler, error: &str, language: Language| {
            catching(std::slice::from_ref(handler), error, language).is_some()
        };
        let python = Language::Python;
        assert!(catches(&handler(&[]), "TypeError", python));
        let reraising = Handler {
            rethrows: true,
            ..handler(&["TypeError"])
        };
        assert!(!catches(&reraising, "TypeError", python));
        let untold = Handler {
            all: false,
            ..handler(&[])
        };
        assert!(!catches(&untold, "BadThing", Language::Cpp));
        // PHP's `catch (InvalidArgumentException $e) { throw $e; } catch (Exception $e)`: the
        // first takes it and throws it on; an outer `try`'s handler keeps it.
        let first = Handler {
            rethrows: true,
            ..handler(&["InvalidArgumentException"])
        };
        let second = handler(&["Exception"]);
        let php = Language::Php;
        let one_try = [first.clone(), second.clone()];
        assert!(catching(&one_try, "InvalidArgumentException", php).is_none());
        assert!(catching(&one_try, "RuntimeException", php).is_some());
        let outer = Handler { level: 1, ..second };
        assert!(catching(&[first, outer], "InvalidArgumentException", php).is_some());
        assert!(!catches(
            &handler(&["Exception"]),
            "BadThing",
            Language::Cpp
        ));
        assert!(catches(&handler(&["Exception"]), "TypeError", python));
        assert!(!catches(
            &handler(&["Exception"]),
            "KeyboardInterrupt",
            python
        ));
        assert!(!catches(
            &handler(&["Exception"]),
            "AssertionError",
            Language::Java
        ));
        assert!(catches(
            &handler(&["Throwable"]),
            "AssertionError",
            Language::Java
        ));
        assert!(catches(
            &handler(&["KeyError", "TypeError"]),
            "TypeError",
            python
        ));
        assert!(!catches(&handler(&["KeyError"]), "TypeError", python));
        assert!(catches(
            &handler(&["StandardError"]),
            "ArgumentError",
            Language::Ruby
        ));
        assert!(!catches(
            &handler(&["StandardError"]),
            "Interrupt",
            Language::Ruby
        ));
        assert!(catches(
            &handler(&["Exception"]),
            "SystemExit",
            Language::Ruby
        ));
    }
}
