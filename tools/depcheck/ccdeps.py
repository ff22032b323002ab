#!/usr/bin/env python3
"""ccdeps: our C/C++ include edges against the compiler's own (gcc/g++).

For every C or C++ file that has a design file, the compiler says which `#include` directives
of that file are active and which file each one names:

1. its active directives: the file is preprocessed alone (`gcc -E -dI`, a header as a translation
   unit of its own), each `#include` the preprocessor reads while in that file is one — an include
   in an inactive `#if` branch (another platform's, `#ifdef _WIN32`) is not. A header the tree
   does not have (a generated `config.h`) is stubbed as an empty file in a scratch directory
   searched last (`-idirafter`), as `-MG` would treat it;
2. the file each directive names: a probe `#include X` preprocessed with `-MM -MG -H` from the
   file's own directory (so that a quoted include searches it first, as for the file itself),
   with the project's include flags; `-H`'s first depth-1 header is where the compiler found it.
   A system header, one found in no project directory, and a missing one name no project file.

An edge is file -> project file, direct only (the compiler's depth-1 includes), as ours are.
Where we have an edge the compiler does not and the directive is not active on this platform,
the edge is counted apart as *conditional*: we keep every platform's includes by design. A
project builds more than one configuration (jq with and without decNumber, fmt's header-only
target, Windows): `--config FLAGS` (repeatable) preprocesses each file again with those flags, and
an include active in any configuration is the compiler's edge — the union of the builds, which is
what a dependency graph of the source covers.

    python3 tools/depcheck/ccdeps.py /tmp/deps-jq --lexi lexi --header-lang c -I src -I vendor
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import in_scope_files, our_edges  # noqa: E402

C_SOURCES = (".c",)
CXX_SOURCES = (".cc", ".cpp", ".cxx", ".c++")
HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp", ".inl")
MARKER = re.compile(r'^# \d+ "(.*)"((?: \d)*)$')
MISSING = re.compile(r"fatal error: (.+?): No such file or directory")


def language(path, header_lang):
    """The compiler language of a file."""
    if path.endswith(C_SOURCES):
        return "c"
    if path.endswith(CXX_SOURCES):
        return "c++"
    return header_lang


def preprocess(repo, rel, lang, flags, stubs):
    """The active `#include` directives of `rel`, in order (stubbing missing headers)."""
    path = os.path.join(repo, rel)
    result = None
    for _ in range(40):
        command = ["gcc", "-x", lang, "-E", "-dI", "-w"] + flags + ["-idirafter", stubs, path]
        result = subprocess.run(command, cwd=repo, capture_output=True, text=True)
        missing = MISSING.search(result.stderr)
        if missing and result.returncode != 0:
            stub = os.path.join(stubs, missing.group(1))
            if os.path.exists(stub):
                break
            os.makedirs(os.path.dirname(stub), exist_ok=True)
            open(stub, "w").close()
            continue
        break
    # Linemarkers: flag 1 enters an included file, flag 2 returns from one, none renames the
    # current one (`#line` in a generated parser): the file's own level is depth 0 after the
    # preamble (`<built-in>`, `<command-line>`).
    active, depth, started = [], 0, False
    for line in result.stdout.splitlines():
        marker = MARKER.match(line)
        if marker:
            flags_seen = marker.group(2).split()
            if "1" in flags_seen:
                depth += 1
            elif "2" in flags_seen:
                depth -= 1
            if depth == 0 and not marker.group(1).startswith("<"):
                started = True
            continue
        if started and depth == 0 and line.startswith("#include"):
            spec = line[len("#include"):].strip()
            if spec[:1] in "\"<":
                active.append(spec)
    return active, result.returncode == 0


def probe(repo, rel, spec, lang, flags, stubs, cache):
    """The project file `spec` names from `rel`, as the compiler finds it; None when it names none."""
    directory = os.path.dirname(os.path.join(repo, rel))
    key = (directory, spec, lang, tuple(flags))
    if key in cache:
        return cache[key]
    absolute = []
    for flag in flags:
        if flag.startswith("-I") and not os.path.isabs(flag[2:]):
            absolute.append("-I" + os.path.join(repo, flag[2:]))
        else:
            absolute.append(flag)
    command = ["gcc", "-x", lang, "-MM", "-MG", "-H", "-w"] + absolute + ["-idirafter", stubs, "-"]
    result = subprocess.run(command, cwd=directory, input="#include %s\n" % spec,
                            capture_output=True, text=True)
    found = None
    for line in result.stderr.splitlines():
        if line.startswith(". "):
            found = os.path.realpath(os.path.join(directory, line[2:].strip()))
            break
    rel_found = None
    root = os.path.realpath(repo)
    if found and found.startswith(root + os.sep) and not found.startswith(os.path.realpath(stubs)):
        rel_found = os.path.relpath(found, root).replace(os.sep, "/")
    cache[key] = rel_found
    return rel_found


def written_includes(repo, rel):
    """Every `#include` spec written in the file (active or not)."""
    specs = []
    with open(os.path.join(repo, rel), encoding="utf-8", errors="replace") as handle:
        for line in handle:
            match = re.match(r'\s*#\s*include\s*(["<][^">]+[">])', line)
            if match:
                specs.append(match.group(1))
    return specs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo")
    parser.add_argument("--lexi", default="lexi")
    parser.add_argument("--header-lang", default="c++", choices=["c", "c++"])
    parser.add_argument("-I", dest="includes", action="append", default=[],
                        help="an include directory of the build, project-relative (repeatable)")
    parser.add_argument("--config", action="append", default=[], metavar="FLAGS",
                        help="another configuration the project builds, as preprocessor flags "
                             "(\"-DUSE_DECNUM\", \"-D_WIN32 -U__linux__\"); repeatable: an include "
                             "is active when it is in the default configuration or in one of these")
    parser.add_argument("--under", action="append", default=[], help="count only files under DIR")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    flags = ["-I" + os.path.join(repo, d) for d in args.includes]
    configs = [[]] + [shlex.split(config) for config in args.config]
    scope = {f for f in in_scope_files(repo) if f.endswith(C_SOURCES + CXX_SOURCES + HEADERS)}
    if args.under:
        scope = {f for f in scope if any(f.startswith(u.rstrip("/") + "/") for u in args.under)}
    files = sorted(scope)
    ours_all, _ = our_edges(repo, args.lexi, files[0])
    ours = {(a, b) for (a, b) in ours_all if a in scope and b in scope}
    theirs, inactive, failed = set(), {}, []
    cache = {}
    with tempfile.TemporaryDirectory() as stubs:
        for rel in files:
            lang = language(rel, args.header_lang)
            active = []
            for config in configs:
                specs, ok = preprocess(repo, rel, lang, flags + config, stubs)
                if not ok:
                    failed.append((rel, " ".join(config) or "default"))
                for spec in specs:
                    if (spec, tuple(config)) not in active:
                        active.append((spec, tuple(config)))
            for spec, config in active:
                found = probe(repo, rel, spec, lang, flags + list(config), stubs, cache)
                if found and found in scope and found != rel:
                    theirs.add((rel, found))
            active = [spec for spec, _ in active]
            # Written but inactive here: which file would each name (for classifying ours).
            for spec in written_includes(repo, rel):
                if spec not in active:
                    found = probe(repo, rel, spec, lang, flags, stubs, cache)
                    if found:
                        inactive[(rel, found)] = spec
    both = ours & theirs
    only_ours = ours - theirs
    conditional = {edge for edge in only_ours if edge in inactive}
    other_ours = only_ours - conditional
    only_theirs = theirs - ours
    precision = len(both) / len(ours) if ours else 1.0
    precision_active = len(both) / (len(ours) - len(conditional)) if ours else 1.0
    recall = len(both) / len(theirs) if theirs else 1.0
    print("files %d (preprocessing failed %d times), configurations %d" %
          (len(files), len(failed), len(configs)))
    print("ours %d, theirs %d, both %d" % (len(ours), len(theirs), len(both)))
    print("only ours %d: conditional (inactive here) %d, other %d" %
          (len(only_ours), len(conditional), len(other_ours)))
    print("precision %.3f (%.3f without conditional includes), recall %.3f" %
          (precision, precision_active, recall))
    if args.summary:
        return
    for rel, config in failed:
        print("  preprocessing failed: %s (%s)" % (rel, config))
    for a, b in sorted(conditional):
        print("  conditional  %s -> %s  (%s)" % (a, b, inactive[(a, b)]))
    for a, b in sorted(other_ours):
        print("  only ours    %s -> %s" % (a, b))
    for a, b in sorted(only_theirs):
        print("  only theirs  %s -> %s" % (a, b))


if __name__ == "__main__":
    main()
