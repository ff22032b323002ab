#!/usr/bin/env python3
"""Compare Lexibrarian's file-to-file dependency edges with those of a SCIP index.

Reads a SCIP index (`index.scip`, written by scip-python, scip-typescript or
`rust-analyzer scip`) with a small protobuf decoder (no dependency), turns it into
file -> file edges inside the repository, reads the edges the last `lexictl update`
resolved (the derived `graph` file beside the update cache) and prints precision,
recall and every edge that differs. See README.md for the definition of an edge.

Only the Python standard library is used; run it with any Python 3.8+.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

# --- protobuf wire format --------------------------------------------------------------------


def varint(buf, pos):
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def fields(buf):
    """Yield (field number, wire type, value) of one message; value is an int or bytes."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            length, pos = varint(buf, pos)
            value = buf[pos : pos + length]
            pos += length
        elif wire == 1:
            value, pos = buf[pos : pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos : pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def packed_ints(value, wire):
    if wire == 0:
        return [value]
    out, pos = [], 0
    while pos < len(value):
        item, pos = varint(value, pos)
        out.append(item)
    return out


# --- SCIP ------------------------------------------------------------------------------------

DEFINITION = 0x1
IMPORT = 0x2


class Occurrence:
    __slots__ = ("line", "symbol", "roles")

    def __init__(self, line, symbol, roles):
        self.line, self.symbol, self.roles = line, symbol, roles


def read_scip(path):
    """{relative path: [Occurrence]} of every document of the index at `path`."""
    with open(path, "rb") as handle:
        data = handle.read()
    documents = {}
    for number, _, value in fields(data):
        if number != 2:  # Index.documents
            continue
        relative, occurrences = None, []
        for dnum, _, dvalue in fields(value):
            if dnum == 1:  # Document.relative_path
                relative = dvalue.decode()
            elif dnum == 2:  # Document.occurrences
                rng, symbol, roles = [], "", 0
                for onum, owire, ovalue in fields(dvalue):
                    if onum == 1:
                        rng.extend(packed_ints(ovalue, owire))
                    elif onum == 2:
                        symbol = ovalue.decode()
                    elif onum == 3:
                        roles = ovalue
                if symbol and not symbol.startswith("local "):
                    occurrences.append(Occurrence(rng[0] + 1 if rng else 0, symbol, roles))
        if relative is not None:
            documents.setdefault(relative, []).extend(occurrences)
    return documents


def scip_edges(documents):
    """(edges, uses): edges maps (file, file it depends on) to the (line, symbol) of each use;
    uses maps a file to the symbols it refers to (not those it defines)."""
    defined_in = defaultdict(set)
    for path, occurrences in documents.items():
        for occ in occurrences:
            if occ.roles & DEFINITION:
                defined_in[occ.symbol].add(path)
    modules = python_modules(defined_in)
    crate_roots = {path for symbol, paths in defined_in.items() if symbol.endswith(" crate/")
                   for path in paths}
    edges, uses = {}, defaultdict(set)
    for path, occurrences in documents.items():
        for occ in occurrences:
            if occ.roles & DEFINITION:
                continue
            uses[path].add(occ.symbol)
            if not top_level(occ.symbol):
                continue
            if occ.symbol.startswith("rust-analyzer ") and occ.symbol.endswith("/"):
                if not declares_module(path, defined_in.get(occ.symbol, ()), crate_roots):
                    continue
            module = (package_of(occ.symbol), module_name(occ.symbol))
            targets = defined_in.get(occ.symbol) or module_file(modules, module, path)
            if path in targets:
                continue  # its own definition (rust-analyzer: also that of other targets)
            if len(targets) > 1 and occ.symbol.startswith("rust-analyzer "):
                continue  # one name in several targets of a package: which one is unknown
            for target in targets:
                if target != path:
                    edges.setdefault((path, target), []).append((occ.line, occ.symbol))
    return edges, uses


def module_name(symbol):
    """`flask.globals` of scip-python's module symbol `... `flask.globals`/__init__:`."""
    if not symbol.startswith("scip-python ") or not symbol.endswith("/__init__:"):
        return None
    descriptor = symbol.split(" ", 4)[-1][: -len("/__init__:")]
    return descriptor.strip("`")


def package_of(symbol):
    """`scip-python python flask <version>` of a symbol: who defines it."""
    return " ".join(symbol.split(" ", 4)[:4])


def python_modules(defined_in):
    """scip-python names a module it defines by its path from the project root
    (`src.flask.globals`) but a module it imports by its import name (`flask.globals`), so the
    two symbols differ. Maps (package, every dotted suffix of a defined module's name) to the
    files whose module names end so, as (leading parts, path): see `module_file`."""
    candidates = defaultdict(list)
    for symbol, paths in defined_in.items():
        name = module_name(symbol)
        if name is None:
            continue
        parts = name.split(".")
        for start in range(len(parts)):
            key = (package_of(symbol), ".".join(parts[start:]))
            candidates[key].extend((start, path) for path in paths)
    for found in candidates.values():
        found.sort()
    return candidates


def module_file(modules, key, importer):
    """The file of the module `key` names, imported from `importer`: a sibling of the importer
    first (scip-python names `from .blueprints import x` `blueprints` like an absolute import),
    else the one with the fewest leading parts (`flask` is `src.flask`, not
    `tests.apps.flask`); none on a tie."""
    found = modules.get(key, [])
    directory = os.path.dirname(importer)
    siblings = [path for _, path in found if os.path.dirname(
        path[: -len("/__init__.py")] if path.endswith("/__init__.py") else path) == directory]
    if siblings:
        return siblings[:1]
    if len(found) == 1 or (found and found[0][0] < found[1][0]):
        return [found[0][1]]
    return []


def declares_module(path, module_files, crate_roots):
    """A Rust module symbol (`flags/`) counts only in the file that declares the module
    (`mod flags;` in its parent module file, or a crate root beside it: `tests/tests.rs`
    declaring `mod util;`): a module named on the way to an item
    (`crate::flags::hiargs::X`) is no use of the module file's code, and `crate/` is defined in
    every target root of a package (rust-analyzer names one symbol for all of them)."""
    if len(module_files) != 1:
        return False
    (module,) = module_files
    directory = os.path.dirname(module)
    if os.path.basename(module) == "mod.rs":
        directory = os.path.dirname(directory)
    parents = [os.path.join(directory, name) for name in ("mod.rs", "lib.rs", "main.rs")]
    parents.append(directory + ".rs")
    return path in parents or (path in crate_roots and os.path.dirname(path) == directory)


def top_level(symbol):
    """Whether a symbol is a module, or an item at the top of one (a class, function, constant,
    Rust item): not a member reached through a value (`Flask#config.`, `Searcher#search()`),
    which is a use of the type the value has, not an import."""
    descriptors = symbol.split(" ", 4)[-1]
    local = descriptors[descriptors.rfind("/") + 1 :]
    return "#" not in local[:-1] and "()." not in local[:-3]


# --- Lexibrarian -----------------------------------------------------------------------------


def unescape(text):
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r", "u": "\x1f"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def our_edges(repo, lexi, any_file):
    """{(file, dependency)} and {(file, dependency)} type-only, from the update's graph."""
    # An impact query brings the derived graph file up to date with the cache.
    subprocess.run([lexi, "impact", any_file], cwd=repo,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    state = subprocess.run(["git", "rev-parse", "--git-path", "lexibrarian"], cwd=repo,
                           capture_output=True, text=True, check=True).stdout.strip()
    graph = os.path.join(repo, state, "graph")
    edges, type_only = set(), set()
    with open(graph, encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5 or parts[1] != "k":
                continue
            path = unescape(parts[0])
            for dep in filter(None, parts[2].split("\x1f")):
                edges.add((path, unescape(dep)))
            for dep in filter(None, parts[4].split("\x1f")):
                type_only.add((path, unescape(dep)))
    return edges, type_only


def in_scope_files(repo):
    """Files that have a design file (in scope, not grouped): `.lexibrary/<path>.md`."""
    root = os.path.join(repo, ".lexibrary")
    out = set()
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".md") and name != "_group.md":
                rel = os.path.relpath(os.path.join(directory, name[:-3]), root)
                if os.path.isfile(os.path.join(repo, rel)):
                    out.add(rel.replace(os.sep, "/"))
    return out


# --- comparison ------------------------------------------------------------------------------

EXTENSIONS = {
    "python": (".py", ".pyi"),
    "js": (".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx"),
    "rust": (".rs",),
}


GLOB_REEXPORT = re.compile(
    r"^\s*(export\s*\*|export\s+type\s*\*|pub(\([^)]*\))?\s+use\s+[^;]*\*\s*;|from\s+\S+\s+import\s+\*)",
    re.MULTILINE)
_globs = {}
REPOSITORY = ["."]  # set by compare: where the files `glob_reexporter` reads are


def glob_reexporter(path):
    """Whether the file re-exports whole modules (`export * from`, `pub use x::*;`,
    `from x import *`): every name passes through it without an occurrence of its own."""
    if path not in _globs:
        try:
            with open(os.path.join(REPOSITORY[0], path), encoding="utf-8",
                      errors="replace") as handle:
                _globs[path] = bool(GLOB_REEXPORT.search(handle.read()))
        except OSError:
            _globs[path] = False
    return _globs[path]


def reexported(ours, uses, source, target, symbol, depth=4):
    """`source` reaches `target` through our edges, every file in between using `symbol` or
    re-exporting whole modules (a re-export chain: `from .app import Flask` in
    `flask/__init__.py`, `export * from '../shared/errors.js'`)."""
    frontier, seen = [source], {source}
    for _ in range(depth):
        following = []
        for node in frontier:
            for dep in ours.get(node, ()):
                if dep == target:
                    return True
                if dep not in seen and (symbol in uses.get(dep, ()) or glob_reexporter(dep)):
                    seen.add(dep)
                    following.append(dep)
        frontier = following
    return False


def compare(args):
    REPOSITORY[0] = args.repo
    documents = read_scip(args.index)
    if args.index_root:
        prefix = args.index_root.strip("/") + "/"
        documents = {prefix + path: occ for path, occ in documents.items()}
    theirs_all, uses = scip_edges(documents)
    scope = in_scope_files(args.repo)
    exts = EXTENSIONS[args.lang]
    prefixes = tuple(p.rstrip("/") + "/" for p in args.under)

    def counted(path):
        return (path in scope and path.endswith(exts)
                and (not prefixes or path.startswith(prefixes))
                and not any(path.startswith(p.rstrip("/") + "/") for p in args.exclude))

    ours_all, type_only = our_edges(args.repo, args.lexi, min(scope))
    ours = {e for e in ours_all if counted(e[0]) and counted(e[1]) and e[0] != e[1]}
    # Files the indexer saw: an edge into a file it never indexed cannot be confirmed.
    ours = {e for e in ours if e[0] in documents and e[1] in documents}
    theirs = {e: v for e, v in theirs_all.items() if counted(e[0]) and counted(e[1])}
    by_source = defaultdict(set)
    for source, dep in ours:
        by_source[source].add(dep)

    their_targets = defaultdict(list)
    for (source, dep), used in theirs.items():
        their_targets[source].append((dep, used))

    def facade(source, dep):
        """`source` uses, through `dep`, a symbol defined in a file `dep` leads to."""
        return any(symbol in uses.get(dep, ()) and reexported(by_source, uses, dep, target, symbol)
                   for target, used in their_targets[source] for _, symbol in used)

    confirmed = {e for e in ours if e in theirs}
    via_facade = {e for e in ours - confirmed if facade(*e)}
    only_ours = sorted(ours - confirmed - via_facade)
    direct, via_reexport, only_theirs = 0, [], []
    for edge, used in sorted(theirs.items()):
        if edge in ours:
            direct += 1
        elif any(reexported(by_source, uses, edge[0], edge[1], symbol) for _, symbol in used):
            via_reexport.append(edge)
        else:
            only_theirs.append((edge, used[0][0], used[0][1]))

    precision = (len(confirmed) + len(via_facade)) / len(ours) if ours else 1.0
    runtime = ours - type_only
    runtime_confirmed = len(runtime & (confirmed | via_facade))
    recall = (direct + len(via_reexport)) / len(theirs) if theirs else 1.0
    files = len({p for p in documents if counted(p)})
    print(f"repo {args.repo} ({args.lang}, {files} files indexed and in scope)")
    print(f"ours {len(ours)} edges ({len(confirmed)} also theirs, {len(via_facade)} to a file "
          f"re-exporting what it uses), theirs {len(theirs)} edges ({direct} also ours, "
          f"{len(via_reexport)} through a re-export we depend on)")
    print(f"precision {precision:.3f}  recall {recall:.3f}")
    if runtime != ours:
        print(f"precision of the {len(runtime)} edges not type-only "
              f"{runtime_confirmed / len(runtime) if runtime else 1.0:.3f}")
    if args.summary:
        return
    print(f"\nonly ours ({len(only_ours)}): no reference from the file into the dependency")
    for source, dep in only_ours:
        mark = " (type-only)" if (source, dep) in type_only else ""
        print(f"  {source} -> {dep}{mark}")
    print(f"\nonly theirs ({len(only_theirs)}): file:line of the first use, symbol")
    for (source, dep), line, symbol in only_theirs:
        print(f"  {source} -> {dep}    {source}:{line} {symbol}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index", help="the SCIP index (index.scip)")
    parser.add_argument("repo", help="the repository, after `lexictl init --yes && lexictl update`")
    parser.add_argument("--lang", choices=sorted(EXTENSIONS), required=True,
                        help="count only files of this language on both sides")
    parser.add_argument("--lexi", default="lexi", help="the lexi binary (default: on PATH)")
    parser.add_argument("--under", action="append", default=[],
                        help="count only files under this directory (repeatable)")
    parser.add_argument("--exclude", action="append", default=[],
                        help="leave out files under this directory (repeatable)")
    parser.add_argument("--index-root", default="",
                        help="the directory the indexer ran in, relative to the repository "
                             "(its paths are relative to it)")
    parser.add_argument("--summary", action="store_true", help="print the figures only")
    compare(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
