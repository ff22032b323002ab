//! The directories a `conftest.py` adds to `sys.path` for the tests below it, read from its text
//! as pytest would run it: `monkeypatch.syspath_prepend(P)`, `sys.path.insert(i, P)`,
//! `sys.path.append(P)`, `site.addsitedir(P)`, where `P` is a path built from `__file__` with
//! `os.path` (`dirname`, `join`, `abspath`, `realpath`, `normpath`, `fspath`, `str`) or `pathlib`
//! (`Path(__file__).parent / "x"`, `.resolve()`, `.absolute()`, `.joinpath("x")`). A path built
//! from anything else (a temporary directory, a variable) is not known, and left out: flask's
//! `test_apps` fixture puts `tests/test_apps/` on the path for `from blueprintapp import app`.

use crate::source::model::files::{dir_of, join, normalize};

/// The calls that add their (last) argument to `sys.path`.
const ADDERS: &[&str] = &[
    "syspath_prepend(",
    "sys.path.insert(",
    "sys.path.append(",
    "site.addsitedir(",
];

/// The project-relative directories `conftest_text` (at project-relative `conftest`) adds to
/// `sys.path`, in the order written, each once.
pub fn added_roots(conftest: &str, conftest_text: &str) -> Vec<String> {
    let dir = dir_of(conftest);
    let mut calls: Vec<usize> = ADDERS
        .iter()
        .flat_map(|adder| {
            let found = conftest_text.match_indices(adder);
            found.map(|(at, _)| at + adder.len())
        })
        .collect();
    calls.sort();
    let mut roots: Vec<String> = Vec::new();
    for open in calls {
        let Some(args) = call_arguments(&conftest_text[open..]) else {
            continue;
        };
        let Some(path) = args.last().and_then(|arg| evaluate(arg.trim(), dir)) else {
            continue;
        };
        if !roots.contains(&path) {
            roots.push(path);
        }
    }
    roots
}

/// The top-level arguments of a call whose text starts just after its `(`; `None` when the
/// parentheses never close.
fn call_arguments(text: &str) -> Option<Vec<&str>> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut args = Vec::new();
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => {
                args.push(&text[start..i]);
                return Some(args);
            }
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                args.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// The project-relative directory an expression names, the conftest being in `dir`.
fn evaluate(expr: &str, dir: &str) -> Option<String> {
    let expr = expr.trim();
    if expr == "__file__" {
        // The file itself: its directory is what `dirname`/`.parent` give.
        return Some(join(dir, "__file__"));
    }
    if let Some((left, right)) = split_last_top_level(expr, '/') {
        let base = evaluate(left, dir)?;
        let part = string_literal(right.trim())?;
        return normalize("", &join(&base, &part));
    }
    if let Some(inner) = expr.strip_suffix(".parent") {
        let base = evaluate(inner, dir)?;
        return Some(dir_of(&base).to_string());
    }
    for noop in [".resolve()", ".absolute()"] {
        if let Some(inner) = expr.strip_suffix(noop) {
            return evaluate(inner, dir);
        }
    }
    let (callee, args) = call(expr)?;
    match callee {
        "os.path.dirname" | "path.dirname" | "dirname" => {
            let base = evaluate(single(&args)?, dir)?;
            Some(dir_of(&base).to_string())
        }
        "os.path.join" | "path.join" | "join" => {
            let (first, rest) = args.split_first()?;
            let mut path = evaluate(first, dir)?;
            for part in rest {
                path = join(&path, &string_literal(part.trim())?);
            }
            normalize("", &path)
        }
        "os.path.abspath" | "os.path.realpath" | "os.path.normpath" | "os.fspath" | "str"
        | "Path" | "pathlib.Path" => evaluate(single(&args)?, dir),
        _ => {
            let (receiver, method) = callee.rsplit_once('.')?;
            match method {
                "joinpath" => {
                    let mut path = evaluate(receiver, dir)?;
                    for part in &args {
                        path = join(&path, &string_literal(part.trim())?);
                    }
                    normalize("", &path)
                }
                _ => None,
            }
        }
    }
}

/// A call's callee and top-level arguments: `os.path.join(a, "b")` → (`os.path.join`, [a, "b"]).
fn call(expr: &str) -> Option<(&str, Vec<&str>)> {
    let open = expr.find('(')?;
    let callee = expr[..open].trim();
    let args = call_arguments(&expr[open + 1..])?;
    let consumed: usize = args.iter().map(|arg| arg.len() + 1).sum();
    // The call must be the whole expression: nothing after its closing parenthesis.
    if expr[open + 1 + consumed..].trim().is_empty() && !callee.is_empty() {
        Some((
            callee,
            args.into_iter().filter(|a| !a.trim().is_empty()).collect(),
        ))
    } else {
        None
    }
}

/// The one argument of a call.
fn single<'a>(args: &[&'a str]) -> Option<&'a str> {
    match args {
        [only] => Some(only),
        _ => None,
    }
}

/// `expr` split at its last `sep` outside parentheses and strings.
fn split_last_top_level(expr: &str, sep: char) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut last = None;
    for (i, c) in expr.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth = depth.saturating_sub(1),
            (None, c) if c == sep && depth == 0 => last = Some(i),
            _ => {}
        }
    }
    last.map(|i| (&expr[..i], &expr[i + 1..]))
}

/// The text of a plain string literal (`"x"`, `'x'`) without a `/` escape or a placeholder.
fn string_literal(text: &str) -> Option<String> {
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))?;
    let plain = !inner.contains(['\\', '{', '"', '\'']) && !inner.is_empty();
    plain.then(|| inner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_built_from_the_conftests_own_place_are_roots() {
        let text = r#"
import os, sys
from pathlib import Path

@pytest.fixture
def test_apps(monkeypatch):
    monkeypatch.syspath_prepend(os.path.join(os.path.dirname(__file__), "test_apps"))

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "src")))
sys.path.append(str(Path(__file__).parent / "helpers"))
site.addsitedir(Path(__file__).resolve().parent.parent / "vendor")
sys.path.insert(0, os.path.dirname(__file__))

@pytest.fixture
def modules_tmp_path(tmp_path, monkeypatch):
    rv = tmp_path / "modules_tmp"
    monkeypatch.syspath_prepend(os.fspath(rv))
"#;
        assert_eq!(
            added_roots("tests/conftest.py", text),
            ["tests/test_apps", "src", "tests/helpers", "vendor", "tests"]
        );
    }

    #[test]
    fn a_root_conftest_and_unknown_paths() {
        let text = "sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\n\
                    sys.path.append(SOME_DIR)\nsys.path.append(os.path.join(base, 'x'))\n";
        assert_eq!(added_roots("conftest.py", text), ["lib"]);
        assert!(added_roots("conftest.py", "sys.path.append(\n").is_empty());
    }
}
