#!/usr/bin/env python3
"""Issue 13 closing figures: what a fresh structural library says about real repositories.

Usage: measure.py [-v] LEXICTL REPO_DIR [REPO_DIR ...]

For each repository: copy it to a temp dir, `lexictl init --yes`, scope_root `.`, a cold
`lexictl update` (timed), `lexictl validate`; then read every design file and report
- doc share: code design files whose description comes from documentation or the primary export
  (not the structural fallback "Defines …"/"… defining …"/"no public items"),
- banner share: descriptions that are a licence/copyright banner or a tag line (target 0),
- noise share: design files of lockfiles, snapshots, expected output, fixtures/samples,
  generated or vendored files (target <= 10 %),
- validate errors and warnings on the fresh library (target 0/0),
- the cold update time;
- group design files (`<dir>/_group.md`, mapping strategy `grouped`) counted apart: one per
  directory of fixtures, not a design file per file;
- of the code files described by the fallback, how many hold doc comments somewhere (`//!`/`///`,
  a docstring, a `/** */` block) — docs we may miss — and how many hold none; with `-v`, examples.
"""
import os, re, shutil, subprocess, sys, tempfile, time

CODE = (".rs", ".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
FALLBACK = re.compile(r"(source defining|with no public items|^Defines |^Empty |^Generated |^Re-exports )")
BANNER = re.compile(r"(copyright|licen[cs]ed|@import|@module|@license|@flow|eslint|use strict|~~~|===|^#!|coding[:=])", re.I)
NOISE = re.compile(
    r"(^|/)(Cargo\.lock|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|uv\.lock|poetry\.lock|Gemfile\.lock|composer\.lock|go\.sum)$"
    r"|\.snap$|(^|/)__snapshots__/|\.out$|\.expected$"
    r"|(^|/)(fixtures?|testdata|test-data|samples?|__fixtures__)/"
    r"|(^|/)(vendor|third_party)/"
)


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


DOC_MARKERS = {
    ".rs": ("//!", "///"),
    ".py": ('"""', "'''"),
}
JS_DOC = ("/**",)


def has_docs(source_path):
    """Whether the source holds any doc comment at all (a fallback description may miss it)."""
    ext = os.path.splitext(source_path)[1]
    markers = DOC_MARKERS.get(ext, JS_DOC)
    try:
        with open(source_path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    return any(marker in text for marker in markers)


def design_files(lib):
    for root, _dirs, files in os.walk(lib):
        for name in files:
            if name.endswith(".md") and name not in ("START_HERE.md",):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, lib)
                if rel.split(os.sep)[0] in ("concepts", "stack", "conventions"):
                    continue
                yield rel[:-3], path


def description(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("description:"):
                return line[len("description:"):].strip().strip("'\"")
    return ""


def measure(lexictl, repo):
    work = tempfile.mkdtemp(prefix="lexi-measure-")
    dest = os.path.join(work, os.path.basename(repo.rstrip("/")))
    shutil.copytree(repo, dest, symlinks=True)
    run([lexictl, "init", "--yes", "--agents", "none"], dest)
    cfg = os.path.join(dest, ".lexibrary", "config.yaml")
    text = open(cfg).read()
    open(cfg, "w").write(re.sub(r"(?m)^scope_root:.*$", "scope_root: .", text))
    start = time.monotonic()
    run([lexictl, "update"], dest)
    seconds = time.monotonic() - start
    validate = run([lexictl, "validate"], dest)
    summary = re.search(r"(\d+) errors?, (\d+) warnings?", validate.stdout + validate.stderr)
    errors, warnings = (int(summary.group(1)), int(summary.group(2))) if summary else (-1, -1)
    total = code = documented = banner = noise = groups = missed = undocumented = 0
    examples = []
    for source, path in design_files(os.path.join(dest, ".lexibrary")):
        if os.path.basename(source) == "_group":
            groups += 1
            continue
        total += 1
        desc = description(path)
        if NOISE.search(source):
            noise += 1
        if source.endswith(CODE):
            code += 1
            if not FALLBACK.search(desc):
                documented += 1
            elif has_docs(os.path.join(dest, source)):
                missed += 1
                examples.append(f"    {source}: {desc}")
            else:
                undocumented += 1
            if BANNER.search(desc):
                banner += 1
    shutil.rmtree(work, ignore_errors=True)
    pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "n/a"
    print(
        f"{os.path.basename(repo):10} design files {total:5}  code {code:5}  "
        f"described from docs {pct(documented, code):>5}  banner/tag-line {banner:3}  "
        f"noise {pct(noise, total):>5}  validate {errors} errors {warnings} warnings  "
        f"cold update {seconds:.1f} s  groups {groups}  "
        f"fallback: with doc comments {missed}, without {undocumented}  "
        f"described from docs among files with docs {pct(documented, documented + missed)}"
    )
    if VERBOSE:
        print("\n".join(examples[:15]))


VERBOSE = False


def main():
    global VERBOSE
    args = sys.argv[1:]
    if args and args[0] == "-v":
        VERBOSE = True
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    lexictl = os.path.abspath(args[0])
    for repo in args[1:]:
        measure(lexictl, repo)


if __name__ == "__main__":
    main()
