#!/usr/bin/env python3
"""Precision and recall of lexibrarian's `## Dependencies` against independent extractors.

For each repository: clone it into a temp dir, `lexictl init --yes`, set `scope_root: .`, run
`lexictl update`, read every design file's `## Dependencies`, run the independent extractors
(rust-truth, python_truth.py, js_truth.mjs) on the same copy, and compare per source file and
language. Only edges between files that our tool documents (both ends) are counted.

    python3 benches/graph/compare.py /work/repos/ripgrep /work/repos/flask …
        [--lexictl target/release/lexictl] [--out benches/out/graph] [--examples 15]

Writes a Markdown summary to stdout and, per repository, `OUT/<name>.md` (misses and false edges
with their source lines) and `OUT/<name>.json` (every edge, for scripting).
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

RUST = "Rust"
PYTHON = "Python"
JS = "JS/TS"
STDLIB = set(sys.stdlib_module_names)
JS_EXT = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")


def language(path):
    if path.endswith(".rs"):
        return RUST
    if path.endswith((".py", ".pyi")):
        return PYTHON
    if path.endswith(JS_EXT):
        return JS
    return None


def rust_truth_binary():
    """Build rust-truth (its own small crate, release) and return its executable."""
    manifest = HERE / "rust-truth" / "Cargo.toml"
    res = subprocess.run(
        ["cargo", "build", "--release", "--locked", "--manifest-path", str(manifest), "--message-format=json"],
        capture_output=True, text=True,
    )
    if res.returncode != 0:
        sys.exit(f"building rust-truth failed:\n{res.stderr}")
    for line in res.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "rust-truth":
            if msg.get("executable"):
                return msg["executable"]
    sys.exit("cargo did not report the rust-truth executable")


def env_for(home):
    """A clean environment: no personal lexibrarian or git config."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "LANG": "C.UTF-8",
    }
    for keep in ("CARGO_HOME", "RUSTUP_HOME", "PYENV_ROOT", "PYENV_VERSION"):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    # cargo and rustup find their toolchains through the real home.
    real_home = Path.home()
    env.setdefault("CARGO_HOME", str(real_home / ".cargo"))
    env.setdefault("RUSTUP_HOME", str(real_home / ".rustup"))
    return env


def run(cmd, cwd, env, capture=True):
    res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=capture, text=True)
    if res.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))} (in {cwd})\n{res.stdout}\n{res.stderr}")
    return res.stdout


def copy_repo(src, dst, env):
    if (Path(src) / ".git").exists():
        run(["git", "clone", "--quiet", str(src), str(dst)], None, env)
    else:
        shutil.copytree(src, dst, symlinks=True)
        run(["git", "init", "--quiet"], dst, env)
        run(["git", "add", "-A"], dst, env)
        run(["git", "commit", "--quiet", "-m", "snapshot"], dst, env)


def our_library(repo, lexictl, env):
    """Run lexictl on the copy; return {source: [dependencies]}."""
    run([lexictl, "init", "--yes"], repo, env)
    config = repo / ".lexibrary" / "config.yaml"
    text = re.sub(r"(?m)^scope_root:.*$", "scope_root: .", config.read_text())
    config.write_text(text)
    start = time.time()
    run([lexictl, "update"], repo, env)
    elapsed = time.time() - start
    deps = {}
    lib = repo / ".lexibrary"
    for md in lib.rglob("*.md"):
        text = md.read_text(errors="replace")
        m = re.search(r"(?m)^source: (.+)$", text)
        if not m or "<!-- lexibrarian:meta" not in text:
            continue
        source = m.group(1).strip()
        section = re.search(r"(?ms)^## Dependencies\n(.*?)(?=^## |\Z|^<!--)", text)
        items = []
        if section:
            items = [
                line[2:].strip()
                for line in section.group(1).splitlines()
                if line.startswith("- ")
            ]
        deps[source] = items
    return deps, elapsed


def run_truth(repo, env, tools):
    """Run each extractor that applies; return {language: truth json}."""
    files = run(["git", "ls-files"], repo, env).splitlines()
    out = {}
    if any(f.endswith(".rs") for f in files):
        out[RUST] = json.loads(run([tools["rust"], str(repo)], repo, env))
        for manifest, err in out[RUST].get("metadata_errors", {}).items():
            print(f"warning: cargo metadata failed for {manifest}: {err.splitlines()[-1] if err else ''}", file=sys.stderr)
    if any(f.endswith((".py", ".pyi")) for f in files):
        out[PYTHON] = json.loads(run([sys.executable, str(HERE / "python_truth.py"), str(repo)], repo, env))
    if any(f.endswith(JS_EXT) for f in files):
        out[JS] = json.loads(run(["node", str(HERE / "js_truth.mjs"), str(repo)], repo, env))
    return out


def line_text(repo, path, lines):
    try:
        content = (repo / path).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    texts = []
    for n in sorted(lines)[:2]:
        if 1 <= n <= len(content):
            texts.append(f"{n}: {content[n - 1].strip()[:110]}")
    return " | ".join(texts)


def rust_crates(truth):
    return {f: set(v.get("crates", [])) for f, v in truth["files"].items()}


def rust_root_in_src(truth, f):
    """Whether some crate containing `f` has its root at `…/src/lib.rs` or `…/src/main.rs`."""
    roots = {f"{c['package']}:{c['kind']}:{c.get('name', '')}": c["root"] for c in truth.get("crates", [])}
    for label in truth["files"].get(f, {}).get("crates", []):
        root = roots.get(label, "")
        if re.search(r"(^|/)src/(lib|main)\.rs$", root):
            return True
    return False


def classify_miss(lang, truth, src, dst, info, ours_src):
    """Why our tool missed a true edge (coarse, for the report)."""
    kinds = set(info.get("kinds", []))
    if lang == RUST:
        entry = truth["files"].get(src, {})
        if info.get("in_macro"):
            return "mod/use inside a macro invocation (`cfg_rt! { mod x; }`)"
        if "mod #[path]" in kinds:
            return "mod declaration with #[path]"
        if "mod" in kinds:
            return "mod declaration"
        if info.get("cross"):
            return "cross-crate use"
        if not rust_root_in_src(truth, src):
            return "use in a crate whose root is not src/lib.rs or src/main.rs (crate::, bins, tests, examples)"
        if dst not in entry.get("module_path_targets", []):
            return "use of an item re-exported elsewhere (`pub use`): the defining file"
        if kinds == {"glob"}:
            return "glob use"
        return "use of a module or an item defined in it"
    specs = info.get("specs", [])
    if lang == PYTHON:
        if all(s.startswith(".") for s in specs):
            return "relative import"
        if dst.startswith("src/") or "/src/" in dst:
            return "absolute import of a src/-layout package"
        if any(s.split(".")[0] in STDLIB for s in specs):
            return "absolute import of a project module named like a stdlib one"
        return "absolute import through a project or pytest root (not the repo root)"
    if lang == JS:
        if all(s.startswith(".") for s in specs):
            label = sorted(kinds)[0]
            return f"relative specifier, {label}"
        spec = next(s for s in specs if not s.startswith("."))
        name = "/".join(spec.split("/")[:2]) if spec.startswith("@") else spec.split("/")[0]
        if spec.startswith("#"):
            return "package.json `imports` (#…)"
        if name in truth.get("workspace", {}):
            return "workspace package by name (package.json exports/main)"
        return "tsconfig `paths` / `baseUrl`"
    return "?"


def classify_false(lang, truth, src, dst, truth_src):
    entry = truth["files"].get(src, {})
    if lang == RUST:
        if dst in entry.get("test_only", []):
            return "test-only (#[cfg(test)] mod/use)"
        if dst in entry.get("module_path_targets", []):
            return "the module a path goes through (re-exporting module or path prefix), not the defining file"
        return "other"
    if lang == PYTHON:
        stem = dst.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        if stem == "__init__":
            stem = dst.rsplit("/", 2)[-2]
        if stem in STDLIB:
            return "a standard-library import resolved to a project file"
        if dst.endswith("__init__.py"):
            pkg = dst.rsplit("/", 1)[0] + "/"
            if any(t.startswith(pkg) for t in truth_src):
                return "package __init__.py instead of the submodule imported from it"
            return "package __init__.py"
        return "other"
    if lang == JS:
        return "other"
    return "?"


def compare(name, repo, ours, truth, examples):
    documented = set(ours)
    rows = []
    detail = [f"# {name}\n"]
    data = {"repo": name, "languages": {}}
    for lang in (RUST, PYTHON, JS):
        if lang not in truth:
            continue
        t = truth[lang]
        covered = set(t["files"]) - set(t.get("unparsed", {}))
        files = sorted(f for f in documented if language(f) == lang and f in covered)
        uncovered = sorted(f for f in documented if language(f) == lang and f not in covered)
        crates = rust_crates(t) if lang == RUST else {}

        def cross(a, b):
            return lang == RUST and not (crates.get(a, set()) & crates.get(b, set()))

        def other_package(a, b):
            pkgs = lambda f: {c.split(":", 1)[0] for c in crates.get(f, set())}  # noqa: E731
            return lang == RUST and not (pkgs(a) & pkgs(b))

        tp = fp = fn = 0
        stats = collections.Counter()
        misses, falses = [], []
        edges_out = {}
        for f in files:
            tdeps = {d: i for d, i in t["files"][f]["deps"].items() if d in documented and d != f}
            odeps = {d for d in ours[f] if d in documented and d != f}
            edges_out[f] = {"truth": sorted(tdeps), "ours": sorted(odeps)}
            for d in odeps & set(tdeps):
                tp += 1
                stats["tp_cross" if cross(f, d) else "tp_local"] += 1
            for d in tdeps:
                if other_package(f, d):
                    stats["truth_other_package"] += 1
            for d in set(tdeps) - odeps:
                fn += 1
                info = dict(tdeps[d])
                info["cross"] = cross(f, d)
                stats["fn_cross" if info["cross"] else "fn_local"] += 1
                misses.append((classify_miss(lang, t, f, d, info, odeps), f, d, info))
            for d in odeps - set(tdeps):
                fp += 1
                stats["fp_cross" if cross(f, d) else "fp_local"] += 1
                falses.append((classify_false(lang, t, f, d, tdeps), f, d))
        row = {
            "repo": name,
            "language": lang,
            "files": len(files),
            "truth": tp + fn,
            "ours": tp + fp,
            "tp": tp,
            "precision": tp / (tp + fp) if tp + fp else None,
            "recall": tp / (tp + fn) if tp + fn else None,
            "uncovered": len(uncovered),
            "fallback_edges": sum(
                1 for f in files for d, i in t["files"][f]["deps"].items() if i.get("fallback") and d in documented
            ),
        }
        if lang == RUST:
            ctp, cfn, cfp = stats["tp_cross"], stats["fn_cross"], stats["fp_cross"]
            row["cross"] = {
                "truth": ctp + cfn,
                "ours": ctp + cfp,
                "tp": ctp,
                "precision": ctp / (ctp + cfp) if ctp + cfp else None,
                "recall": ctp / (ctp + cfn) if ctp + cfn else None,
                "truth_other_package": stats["truth_other_package"],
            }
        rows.append(row)
        data["languages"][lang] = {"row": row, "edges": edges_out, "uncovered": uncovered}
        detail.append(f"## {lang}: {len(files)} files, truth {tp + fn}, ours {tp + fp}, "
                      f"precision {pct(row['precision'])}, recall {pct(row['recall'])}\n")
        if lang == RUST:
            c = row["cross"]
            detail.append(f"Cross-crate: truth {c['truth']} (into another package: {c['truth_other_package']}; the rest "
                          f"are tests, benches, examples and bins using their own package's library), ours {c['ours']}, "
                          f"precision {pct(c['precision'])}, recall {pct(c['recall'])}.\n")
            detail.append(f"Truth edges found only through the missing-name fallback (macro-generated items): "
                          f"{row['fallback_edges']}.\n")
        if uncovered:
            detail.append(f"Documented {lang} files the extractor does not cover ({len(uncovered)}): "
                          + ", ".join(uncovered[:20]) + (" …" if len(uncovered) > 20 else "") + "\n")
        for title, items, is_miss in (("Misses (true edges we lack)", misses, True),
                                      ("False edges (ours, not true)", falses, False)):
            by_kind = collections.Counter(i[0] for i in items)
            detail.append(f"### {title}: {len(items)}\n")
            for kind, count in by_kind.most_common():
                detail.append(f"- **{kind}**: {count}")
                shown = [i for i in items if i[0] == kind][:examples]
                for item in shown:
                    if is_miss:
                        _, f, d, info = item
                        where = line_text(repo, f, info.get("lines", []))
                        detail.append(f"  - `{f}` → `{d}`  ({where})")
                    else:
                        _, f, d = item
                        detail.append(f"  - `{f}` → `{d}`")
            detail.append("")
    return rows, "\n".join(detail), data


def pct(x):
    return "—" if x is None else f"{100 * x:.1f} %"


def table(rows):
    out = ["| repo | language | files | truth edges | our edges | correct | precision | recall |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| {r['repo']} | {r['language']} | {r['files']} | {r['truth']} | {r['ours']} | "
                   f"{r['tp']} | {pct(r['precision'])} | {pct(r['recall'])} |")
        if "cross" in r:
            c = r["cross"]
            out.append(f"| {r['repo']} | Rust cross-crate | | {c['truth']} | {c['ours']} | {c['tp']} | "
                       f"{pct(c['precision'])} | {pct(c['recall'])} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--lexictl", default=str(ROOT / "target" / "release" / "lexictl"))
    ap.add_argument("--rust-truth", help="rust-truth executable (default: built with cargo build --release)")
    ap.add_argument("--out", default=str(ROOT / "benches" / "out" / "graph"))
    ap.add_argument("--examples", type=int, default=15)
    ap.add_argument("--keep", action="store_true", help="keep the temp copies")
    args = ap.parse_args()
    lexictl = str(Path(args.lexictl).resolve())
    if not Path(lexictl).is_file():
        sys.exit(f"no lexictl at {lexictl}: cargo build --release --locked --bin lexictl")
    rust_truth = args.rust_truth or rust_truth_binary()
    if not (HERE / "node_modules" / "typescript").is_dir():
        sys.exit("no typescript: (cd benches/graph && npm ci)")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="graph-truth-"))
    home = tmp / "home"
    home.mkdir()
    env = env_for(home)
    all_rows = []
    try:
        for src in args.repos:
            src = Path(src).resolve()
            name = src.name
            repo = tmp / name
            copy_repo(src, repo, env)
            ours, secs = our_library(repo, lexictl, env)
            truth = run_truth(repo, env, {"rust": rust_truth})
            rows, detail, data = compare(name, repo, ours, truth, args.examples)
            (out_dir / f"{name}.md").write_text(detail + "\n")
            (out_dir / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            (out_dir / f"{name}.truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")
            print(f"{name}: lexictl update {secs:.1f} s; details in {out_dir / (name + '.md')}", file=sys.stderr)
            all_rows.extend(rows)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}", file=sys.stderr)
    print(table(all_rows))
    (out_dir / "summary.json").write_text(json.dumps(all_rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
