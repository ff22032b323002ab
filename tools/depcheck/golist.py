#!/usr/bin/env python3
"""Compare Lexibrarian's Go dependency edges with `go list`'s imports.

The reference is `go list -e -json ./...` (run in a copy of the repository; no module proxy is
needed: `GOFLAGS=-mod=mod GOPROXY=off`) for the packages and their files, and goimports/main.go
(Go's own parser, `go/parser` ImportsOnly) for each listed file's import paths — go list 1.19
prints a package's imports, not a file's (`ImportPos` is not in its output). An import of a package of the module (or of
another module of the tree) is an edge file -> package directory. Our edges are the update's
graph (depcheck.py's `our_edges`: the uncapped dependency lists of the design files), file ->
file, taken to file -> the dependency's directory: Lexibrarian points an import at the files of
the imported package's directory (docs/languages.md).

A `_test.go` file also depends on its own package here, imported or not (`package x` tests
are compiled with it): that class of edge is counted apart, not in precision or recall.

Only the Python standard library is used; run it with any Python 3.8+.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import in_scope_files, our_edges  # noqa: E402


def packages(path):
    """The JSON objects `go list -json` printed, one after another."""
    text = open(path, encoding="utf-8").read()
    decoder, at, out = json.JSONDecoder(), 0, []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return out
        obj, at = decoder.raw_decode(text, at)
        out.append(obj)


def reference(listed, positions, listed_root):
    """{(file, package dir)} edges and the set of files go list knows, repository-relative.
    `positions` is goimports' output: "file<TAB>import path" per import of every listed file."""
    rel = lambda d: os.path.relpath(d, listed_root).replace(os.sep, "/")  # noqa: E731
    top = lambda d: "" if d == "." else d  # noqa: E731
    dirs = {p["ImportPath"]: top(rel(p["Dir"])) for p in listed}
    files = set()
    for p in listed:
        base = dirs[p["ImportPath"]]
        for key in ("GoFiles", "CgoFiles", "TestGoFiles", "XTestGoFiles"):
            files.update(f"{base}/{name}" if base else name for name in p.get(key, []))
    edges = set()
    with open(positions, encoding="utf-8") as handle:
        for line in handle:
            path, _, imported = line.rstrip("\n").partition("\t")
            if imported in dirs:
                edges.add((rel(path), dirs[imported]))
    return edges, files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("golist", help="the output of `go list -e -json ./...`")
    parser.add_argument("positions", help="goimports' output (file<TAB>import per import)")
    parser.add_argument("listed_root", help="the directory go list ran in (a copy of the repo)")
    parser.add_argument("repo", help="the repository, after `lexictl init --yes && lexictl update`")
    parser.add_argument("--lexi", default="lexi", help="the lexi binary (default: on PATH)")
    parser.add_argument("--summary", action="store_true", help="print the figures only")
    args = parser.parse_args()
    theirs, listed_files = reference(packages(args.golist), args.positions,
                                     os.path.abspath(args.listed_root))
    documented = in_scope_files(args.repo)
    counted = {f for f in listed_files if f in documented}
    dir_of = lambda f: f.rsplit("/", 1)[0] if "/" in f else ""  # noqa: E731
    ours_files, _ = our_edges(args.repo, args.lexi, sorted(counted)[0])
    ours = {(f, dir_of(d)) for f, d in ours_files if f in counted and d.endswith(".go")}
    theirs = {(f, d) for f, d in theirs if f in counted}
    own = {(f, d) for f, d in ours - theirs if f.endswith("_test.go") and d == dir_of(f)}
    compared = ours - own
    hit = compared & theirs
    precision = len(hit) / len(compared) if compared else 1.0
    recall = len(hit) / len(theirs) if theirs else 1.0
    print(f"files: {len(counted)} (go list: {len(listed_files)}, documented: "
          f"{len([f for f in documented if f.endswith('.go')])})")
    print(f"edges: ours {len(compared)} (+{len(own)} test -> own package), "
          f"go list {len(theirs)}, both {len(hit)}")
    print(f"precision {precision:.4f}  recall {recall:.4f}")
    if not args.summary:
        for f, d in sorted(compared - theirs):
            print(f"  only ours:    {f} -> {d or '.'}/")
        for f, d in sorted(theirs - compared):
            print(f"  only go list: {f} -> {d or '.'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
