#!/usr/bin/env python3
"""Compare Lexibrarian's Kotlin file-to-file dependency edges with a reference made by hand rules.

There is no kotlinc here, so the reference resolves imports the way the language defines them,
independently of the tree-sitter extraction: each `.kt` file's `package` and its top-level
declarations are read with regular expressions (declarations start at column 0, as ktlint lays
them out; `private` ones are the file's own), each Java file gives its package and class (its
name), and then
  - `import a.b.C` (`as D`, `a.b.C.Inner`): the files of the longest package prefix declaring the
    next segment;
  - `import a.b.*`: the files of `a.b` declaring a word the file's code uses;
  - no import: a word the file's code uses (comments and strings removed) that another file of its
    own package declares at the top level (and the file does not declare itself).
Candidates: main code never sees test sets (`test`, `*Test`); of several, the importer's module's
are kept if any (with `--own-set`, then its own source set's, else the `common*` sets').
Prints precision and recall of our edges (the update's graph) against it, with a sample of the
differing edges. Only the Python standard library is used.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import our_edges  # noqa: E402

PACKAGE = re.compile(r"^package\s+([\w.]+)", re.M)
IMPORT = re.compile(r"^import\s+([\w.`]+?)(\.\*)?(?:\s+as\s+(\w+))?\s*$", re.M)
MODIFIERS = (r"(?:(?:public|internal|private|protected|expect|actual|inline|data|sealed|abstract|"
             r"open|enum|annotation|value|const|suspend|infix|operator|tailrec|external|lateinit|"
             r"final|inner|fun(?=\s+interface))\s+)*")
DECL = re.compile(
    r"^(?:@[\w.]+(?:\([^)]*\))?\s+)*" + MODIFIERS +
    r"(class|interface|object|typealias|fun|val|var)\s+(?:<[^>]*>\s*)?"
    r"(?:[\w.<>?, *]+?\.)?`?(\w+)`?", re.M)
SET = re.compile(r"(^|/)src/([^/]+)/(kotlin|java)/")
WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def strip(text):
    """Code without comments and string contents."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text


def source_set(path):
    match = SET.search(path)
    if not match:
        return "", "", "/test/" in path or path.startswith("test/")
    name = match.group(2)
    return path[: match.start()].rstrip("/"), name, name == "test" or name.endswith("Test")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--lexi", default="lexi")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--own-set", action="store_true",
                        help="of several declaring files, keep the importer's own source set's "
                             "if any, else the common* sets' (an expect in commonMain rather "
                             "than its actuals), as Lexibrarian does")
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    listed = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout.split("\n")
    kotlin = [p for p in listed if p.endswith(".kt")]
    java = [p for p in listed if p.endswith(".java")]
    texts, packages, declared = {}, {}, {}
    by_package = {}
    for path in kotlin:
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as handle:
            texts[path] = handle.read()
        match = PACKAGE.search(texts[path])
        packages[path] = match.group(1) if match else ""
        names = set()
        for decl in DECL.finditer(texts[path]):
            if re.match(r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:\w+\s+)*private\s", decl.group(0)):
                continue
            names.add(decl.group(2))
        declared[path] = names
        by_package.setdefault(packages[path], []).append(path)
    for path in java:
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as handle:
            match = re.search(r"^package\s+([\w.]+)\s*;", handle.read(), re.M)
        declared[path] = {os.path.basename(path)[:-5]}
        by_package.setdefault(match.group(1) if match else "", []).append(path)

    def candidates(importer, package, name):
        module, _, is_test = source_set(importer)
        found = [p for p in by_package.get(package, []) if name in declared[p] and p != importer]
        found = [p for p in found if not source_set(p)[2] or (is_test and source_set(p)[0] == module)]
        same = [p for p in found if source_set(p)[0] == module] or found
        if args.own_set:
            own = [p for p in same if source_set(p)[1] == source_set(importer)[1]]
            common = [p for p in same if source_set(p)[1].startswith("common")]
            return own or common or same
        return same

    reference = set()
    for path in kotlin:
        text = texts[path]
        code = strip(IMPORT.sub("", PACKAGE.sub("", text)))
        words = set(WORD.findall(code))
        imported = set()
        for match in IMPORT.finditer(text):
            spec, star, alias = match.group(1).replace("`", ""), match.group(2), match.group(3)
            if star:
                for word in words:
                    reference.update((path, p) for p in candidates(path, spec, word))
                continue
            segments = spec.split(".")
            imported.add(segments[-1])
            if alias:
                imported.add(alias)
            for at in range(len(segments) - 1, 0, -1):
                found = candidates(path, ".".join(segments[:at]), segments[at])
                if found:
                    reference.update((path, p) for p in found)
                    break
        for word in words - imported - declared[path]:
            reference.update((path, p) for p in candidates(path, packages[path], word))

    ours, _ = our_edges(repo, args.lexi, kotlin[0])
    ours = {(a, b) for a, b in ours if a.endswith(".kt")}
    both = ours & reference
    precision = len(both) / len(ours) if ours else 1.0
    recall = len(both) / len(reference) if reference else 1.0
    print(f"{repo}: {len(kotlin)} Kotlin files; reference {len(reference)} edges, ours {len(ours)}, "
          f"both {len(both)}: precision {precision:.3f}, recall {recall:.3f}")
    for title, edges in (("only ours", ours - reference), ("only the reference", reference - ours)):
        print(f"{title}: {len(edges)}")
        for a, b in sorted(edges)[: args.show]:
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()
