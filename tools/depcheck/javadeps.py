#!/usr/bin/env python3
"""Compare Lexibrarian's Java file-to-file dependency edges with what javac and jdeps see.

Compiles the Java sources of a repository's Maven/Gradle source roots (`src/<set>/java`,
`src/<set>/java-templates`) with `javac`, runs `jdeps -verbose:class` on the classes, maps every
class to the source file it was compiled from (its class file's `SourceFile` attribute, a nested
`A$B` included) and compares the resulting file -> file edges with the edges the last
`lexictl update` resolved (the derived `graph` file, as depcheck.py reads it). Prints
precision, recall and every edge that differs. See README.md ("Java").

Only the Python standard library is used; run it with any Python 3.8+ and a JDK on the PATH.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import in_scope_files, our_edges  # noqa: E402

ROOT = re.compile(r"(^|/)src/([^/]+)/(java|java-templates)$")


def source_roots(repo, modules, sets):
    """Source roots under `repo` of the modules and sets asked for, sorted."""
    roots = []
    for directory, subdirs, _ in os.walk(repo):
        subdirs[:] = [d for d in subdirs if not d.startswith(".") and d != "target"]
        rel = os.path.relpath(directory, repo).replace(os.sep, "/")
        match = ROOT.search(rel)
        if not match:
            continue
        module = rel[: match.start()].rstrip("/")
        if (not modules or module in modules) and match.group(2) in sets:
            roots.append(rel)
    return sorted(roots)


def java_files(repo, roots):
    out = []
    for root in roots:
        for directory, _, names in os.walk(os.path.join(repo, root)):
            for name in names:
                if name.endswith(".java") and name != "module-info.java":
                    out.append(os.path.join(directory, name))
    return sorted(out)


def source_file_of(class_path):
    """The `SourceFile` attribute of a class file (`Gson.java`), or None."""
    with open(class_path, "rb") as handle:
        data = handle.read()
    pos = 10
    (count,) = struct.unpack(">H", data[8:10])
    utf8 = {}
    index = 1
    while index < count:
        tag = data[pos]
        if tag == 1:
            (length,) = struct.unpack(">H", data[pos + 1 : pos + 3])
            utf8[index] = data[pos + 3 : pos + 3 + length].decode("utf-8", "replace")
            pos += 3 + length
        elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
            pos += 5
        elif tag in (5, 6):
            pos += 9
            index += 1
        elif tag in (7, 8, 16, 19, 20):
            pos += 3
        elif tag == 15:
            pos += 4
        else:
            return None
        index += 1
    pos += 6  # access flags, this, super
    (interfaces,) = struct.unpack(">H", data[pos : pos + 2])
    pos += 2 + 2 * interfaces
    for _ in range(2):  # fields, methods
        (members,) = struct.unpack(">H", data[pos : pos + 2])
        pos += 2
        for _ in range(members):
            pos += 6
            (attributes,) = struct.unpack(">H", data[pos : pos + 2])
            pos += 2
            for _ in range(attributes):
                (length,) = struct.unpack(">I", data[pos + 2 : pos + 6])
                pos += 6 + length
    (attributes,) = struct.unpack(">H", data[pos : pos + 2])
    pos += 2
    for _ in range(attributes):
        name_index, length = struct.unpack(">HI", data[pos : pos + 6])
        if utf8.get(name_index) == "SourceFile":
            (value,) = struct.unpack(">H", data[pos + 6 : pos + 8])
            return utf8.get(value)
        pos += 6 + length
    return None


def class_files(repo, roots, out_dir):
    """{class name: source file (repository-relative)} of every compiled class."""
    mapping = {}
    for directory, _, names in os.walk(out_dir):
        for name in names:
            if not name.endswith(".class"):
                continue
            path = os.path.join(directory, name)
            package = os.path.relpath(directory, out_dir).replace(os.sep, "/")
            package = "" if package == "." else package
            source = source_file_of(path)
            if not source:
                continue
            for root in roots:
                candidate = "/".join(p for p in (root, package, source) if p)
                if os.path.isfile(os.path.join(repo, candidate)):
                    class_name = ".".join(p for p in (package.replace("/", "."), name[:-6]) if p)
                    mapping[class_name] = candidate
                    break
    return mapping


def stage(repo, roots, work, rewrites):
    """Copies of `roots` without their `module-info.java` (javac would compile the module, whose
    `requires` name modules of jars given on the class path), with each `rewrites` (old, new)
    applied to their text: {root: staged directory}."""
    staged = {}
    for index, root in enumerate(roots):
        target = os.path.join(work, "src", str(index))
        shutil.copytree(os.path.join(repo, root), target,
                        ignore=shutil.ignore_patterns("module-info.java"))
        staged[root] = target
        for path in java_files(target, [""]) if rewrites else []:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            changed = text
            for old, new in rewrites:
                changed = changed.replace(old, new)
            if changed != text:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(changed)
    return staged


def compile_sources(repo, roots, sourcepath, classpath, work, release, rewrites):
    """Compile the files of `roots`; the repository-relative paths compiled."""
    staged = stage(repo, sourcepath, work, rewrites)
    out_dir = os.path.join(work, "classes")
    files = []
    for root in roots:
        for path in java_files(staged[root], [""]):
            files.append((path, root + "/" + os.path.relpath(path, staged[root]).replace(os.sep, "/")))
    command = ["javac", "-d", out_dir, "-proc:none", "-nowarn", "-encoding", "UTF-8",
               "-implicit:none", "-sourcepath", os.pathsep.join(staged[r] for r in sourcepath)]
    if release:
        command += ["--release", release]
    if classpath:
        command += ["-cp", classpath]
    argfile = os.path.join(work, "files.txt")
    with open(argfile, "w", encoding="utf-8") as handle:
        handle.write("\n".join(path for path, _ in files))
    result = subprocess.run(command + ["@" + argfile], capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit(f"javac failed on {' '.join(roots)}")
    return [rel for _, rel in files]


def jdeps_edges(out_dir, classpath):
    command = ["jdeps", "-verbose:class", "-filter:none"]
    if classpath:
        command += ["-cp", classpath]
    result = subprocess.run(command + [out_dir], capture_output=True, text=True, check=True)
    edge = re.compile(r"^\s+(\S+)\s+->\s+(\S+)\s")
    for line in result.stdout.splitlines():
        match = edge.match(line)
        if match:
            yield match.group(1), match.group(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo")
    parser.add_argument("--lexi", default="lexi")
    parser.add_argument("--module", action="append", default=[],
                        help="module directory to compile (repeatable; default: all)")
    parser.add_argument("--sets", default="main",
                        help="source sets compiled, comma-separated (main,test)")
    parser.add_argument("--classpath", default="", help="jars of the third-party libraries")
    parser.add_argument("--release", default="")
    parser.add_argument("--rewrite", action="append", default=[],
                        help="OLD=NEW applied to the compiled copies: a library method renamed "
                             "since the jar at hand (Truth's isSameInstanceAs=isSameAs)")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    sets = args.sets.split(",")
    roots = source_roots(repo, set(args.module), sets)
    # The main roots of every module are on the source path (a module's dependencies).
    sourcepath = sorted(set(roots) | set(source_roots(repo, set(args.module), ["main"])))
    work = tempfile.mkdtemp(prefix="javadeps-")
    out_dir = os.path.join(work, "classes")
    os.makedirs(out_dir)
    try:
        compiled = compile_sources(repo, roots, sourcepath, args.classpath, work, args.release,
                                   [tuple(r.split("=", 1)) for r in args.rewrite])
        classes = class_files(repo, sourcepath, out_dir)
        theirs = set()
        for source, target in jdeps_edges(out_dir, args.classpath):
            a, b = classes.get(source), classes.get(target)
            if a and b and a != b:
                theirs.add((a, b))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    files = set(compiled) & in_scope_files(repo)
    any_file = sorted(files)[0]
    ours, _ = our_edges(repo, args.lexi, any_file)
    ours = {(a, b) for a, b in ours if a in files and b in files}
    theirs = {(a, b) for a, b in theirs if a in files and b in files}
    both = ours & theirs
    precision = len(both) / len(ours) if ours else 1.0
    recall = len(both) / len(theirs) if theirs else 1.0
    print(f"files {len(files)}  ours {len(ours)}  theirs {len(theirs)}  "
          f"precision {precision:.3f}  recall {recall:.3f}")
    if args.summary:
        return
    for title, edges in (("only ours", ours - theirs), ("only theirs (jdeps)", theirs - ours)):
        print(f"\n{title}: {len(edges)}")
        for a, b in sorted(edges):
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()
