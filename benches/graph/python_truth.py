#!/usr/bin/env python3
"""python_truth: project-internal import edges of every Python file, resolved as Python would.

Independent of lexibrarian (no tree-sitter, no shared code): parses with the standard library's
`ast` and resolves with the import system's own rules over the project's `sys.path` entries.

Imports: every `import a.b` and `from x import y` at any depth (functions, `try`, `if
TYPE_CHECKING:`). Edges:

- `import a.b.c` → the file of module `a.b.c` (`a/b/c.py`, or `a/b/c/__init__.py`);
- `from pkg import name` → `pkg/name.py` (or `pkg/name/__init__.py`) when `name` is a submodule of
  the package, else the package's own file (`pkg/__init__.py`, or `pkg.py` for a module);
  `from pkg import *` → the package's file;
- relative imports (`from . import x`, `from ..core import y`) from the file's package, never above
  its top-level package.

Search path for a file, in order (what `sys.path` holds when the file runs or is tested):
1. the directory pytest's default `prepend` import mode (or `python script.py`) puts first: the
   first ancestor directory of the file without an `__init__.py`;
2. the package roots of the enclosing projects, nearest first (`pyproject.toml`, `setup.cfg`,
   `setup.py`): setuptools `packages.find.where` / `package-dir`, hatch wheel `packages`, poetry
   `packages.from`, maturin `python-source`, pdm `package-dir`, flit's module (root or `src/`), a
   `src/` directory holding a package, and the project directory itself;
3. the repository root.

Within one search path entry, a package directory (with `__init__.py`) wins over `name.py`, which
wins over a namespace-package directory (PEP 420), as in `importlib`'s FileFinder; regular
packages or modules anywhere on the path beat namespace portions. An absolute import whose
top-level name is in `sys.stdlib_module_names` is never a project file. A `.pyi` stub is the
target only where no `.py` module exists (stubs do not replace the module they type).

Usage: python3 python_truth.py REPO > truth.json
"""

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def git_files(root):
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, check=True,
    ).stdout
    return [f.decode() for f in out.split(b"\0") if f]


class Project:
    def __init__(self, root, files):
        self.root = root
        self.files = set(files)
        self.dirs = set()
        for f in files:
            parts = f.split("/")
            for i in range(1, len(parts)):
                self.dirs.add("/".join(parts[:i]))
        self.projects = self.find_projects()

    # --- the file system, as git sees it (relative paths, "" is the root) ---
    def is_file(self, rel):
        return rel in self.files

    def is_dir(self, rel):
        return rel == "" or rel in self.dirs

    @staticmethod
    def join(*parts):
        return "/".join(p for p in parts if p)

    @staticmethod
    def parent(rel):
        return rel.rsplit("/", 1)[0] if "/" in rel else ""

    def has_init(self, d):
        return self.is_file(self.join(d, "__init__.py")) or self.is_file(self.join(d, "__init__.pyi"))

    # --- project package roots ---
    def find_projects(self):
        """{project dir: [package roots]} for every pyproject.toml / setup.cfg / setup.py."""
        projects = {}
        for f in sorted(self.files):
            name = f.rsplit("/", 1)[-1]
            if name not in ("pyproject.toml", "setup.cfg", "setup.py"):
                continue
            d = self.parent(f)
            roots = projects.setdefault(d, [])
            for r in self.configured_roots(d, f, name):
                r = self.norm(self.join(d, r))
                if r is not None and self.is_dir(r) and r not in roots:
                    roots.append(r)
        for d, roots in projects.items():
            src = self.join(d, "src")
            if src not in roots and self.is_dir(src) and any(
                self.has_init(c) or c.endswith(".py") for c in self.children(src)
            ):
                roots.append(src)
            if d not in roots:
                roots.append(d)
        return projects

    def children(self, d):
        prefix = d + "/" if d else ""
        out = set()
        for f in self.files:
            if f.startswith(prefix):
                rest = f[len(prefix):]
                out.add(prefix + rest.split("/", 1)[0])
        return out

    @staticmethod
    def norm(rel):
        parts = []
        for p in rel.split("/"):
            if p in ("", "."):
                continue
            if p == "..":
                if not parts:
                    return None
                parts.pop()
            else:
                parts.append(p)
        return "/".join(parts)

    def configured_roots(self, d, f, name):
        text = (self.root / f).read_text(errors="replace")
        roots = []
        if name == "pyproject.toml":
            try:
                cfg = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                return roots
            tool = cfg.get("tool", {})
            st = tool.get("setuptools", {})
            find = st.get("packages", {}).get("find", {}) if isinstance(st.get("packages"), dict) else {}
            roots += list(find.get("where", []))
            pkg_dir = st.get("package-dir", {})
            if isinstance(pkg_dir, dict) and "" in pkg_dir:
                roots.append(pkg_dir[""])
            hatch = tool.get("hatch", {}).get("build", {})
            for target in (hatch.get("targets", {}).get("wheel", {}), hatch):
                for p in target.get("packages", []) or []:
                    roots.append(self.parent(p))
                sources = target.get("sources")
                if isinstance(sources, list):
                    roots += sources
                elif isinstance(sources, dict):
                    roots += [k for k, v in sources.items() if v == ""]
            for p in tool.get("poetry", {}).get("packages", []) or []:
                if isinstance(p, dict):
                    roots.append(p.get("from", ""))
            if "python-source" in tool.get("maturin", {}):
                roots.append(tool["maturin"]["python-source"])
            pdm = tool.get("pdm", {}).get("build", {})
            if "package-dir" in pdm:
                roots.append(pdm["package-dir"])
            flit = tool.get("flit", {}).get("module", {}).get("name")
            if not flit and "flit_core" in str(cfg.get("build-system", {})):
                flit = cfg.get("project", {}).get("name", "").replace("-", "_")
            if flit:
                top = flit.split(".")[0]
                for base in ("src", ""):
                    if self.is_dir(self.join(d, base, top)) or self.is_file(self.join(d, base, top + ".py")):
                        roots.append(base)
                        break
        elif name == "setup.cfg":
            m = re.search(r"(?m)^package_dir\s*=\s*(?:\n\s+)?=\s*(\S+)", text)
            if m:
                roots.append(m.group(1))
            m = re.search(r"(?ms)^\[options\.packages\.find\][^\[]*?^where\s*=\s*(\S+)", text)
            if m:
                roots.append(m.group(1))
        else:
            m = re.search(r"package_dir\s*=\s*\{\s*['\"]['\"]\s*:\s*['\"]([^'\"]+)['\"]", text)
            if m:
                roots.append(m.group(1))
            m = re.search(r"find_(?:namespace_)?packages\(\s*(?:where\s*=\s*)?['\"]([^'\"]+)['\"]", text)
            if m:
                roots.append(m.group(1))
        return roots

    def enclosing_projects(self, f):
        return sorted(
            (p for p in self.projects if p == "" or f.startswith(p + "/")),
            key=lambda p: -len(p),
        )

    def module_root(self, f):
        """(sys.path entry `f` is imported from, whether it is a library module).

        A file inside a regular package (top-level directory with `__init__.py`) directly under one
        of its projects' package roots is a library module, named from that root (`src/flask/
        sansio/app.py` is `flask.sansio.app`, `sansio` being a namespace subpackage). Any other file
        (tests, scripts, examples) is named from the directory pytest's `prepend` import mode or
        `python file.py` puts on `sys.path`: its first ancestor without an `__init__.py`.
        """
        for p in self.enclosing_projects(f):
            for r in self.projects[p]:
                if r and not f.startswith(r + "/"):
                    continue
                rest = f[len(r) + 1:] if r else f
                if "/" in rest and self.has_init(self.join(r, rest.split("/", 1)[0])):
                    return r, True
        d = self.parent(f)
        while d and self.has_init(d):
            d = self.parent(d)
        return d, False

    def search_path(self, f):
        """sys.path entries (project-relative) for file `f`, in order."""
        base, library = self.module_root(f)
        path = [] if library else [base]
        for p in self.enclosing_projects(f):
            for r in self.projects[p]:
                if r not in path:
                    path.append(r)
        if "" not in path:
            path.append("")
        return path

    # --- the import system ---
    def find_in(self, name, entries):
        """Find `name` in search path `entries`: ('file', path, is_package, portions) or None."""
        namespace = []
        for e in entries:
            d = self.join(e, name)
            if self.is_dir(d) and self.has_init(d):
                init = self.join(d, "__init__.py")
                if not self.is_file(init):
                    init = self.join(d, "__init__.pyi")
                return (init, True, [d])
            for ext in (".py", ".pyi"):
                m = self.join(e, name + ext)
                if self.is_file(m):
                    return (m, False, [])
            if self.is_dir(d):
                namespace.append(d)
        if namespace:
            return (None, True, namespace)
        return None

    def find_module(self, dotted, entries):
        """Resolve a dotted module name: (file or None for a namespace package, is_package, portions)."""
        found = None
        for part in dotted.split("."):
            if found is not None:
                if not found[1]:
                    return None
                entries = found[2]
            found = self.find_in(part, entries)
            if found is None:
                return None
        return found

    def top_package(self, f):
        """Directory of the top-level package containing `f`, or None when `f` is in no package."""
        base, _ = self.module_root(f)
        rest = f[len(base) + 1:] if base else f
        if "/" not in rest:
            return None
        return self.join(base, rest.split("/", 1)[0])


def imports_of(tree):
    """(line, level, module, names or None for `import module`) for every import in the tree."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, 0, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.level, node.module or "", [a.name for a in node.names]


def resolve_file(p, f, tree):
    edges = {}

    def add(target, kind, line):
        if target is None or target == f or not p.is_file(target):
            return
        e = edges.setdefault(target, {"kinds": set(), "lines": set(), "specs": set()})
        e["kinds"].add(kind)
        e["lines"].add(line)
        e["specs"].add(spec)

    entries = p.search_path(f)
    for line, level, module, names in imports_of(tree):
        spec = "." * level + module
        if level == 0:
            top = module.split(".")[0]
            if top in STDLIB:
                continue
            found = p.find_module(module, entries)
            kind = "absolute"
        else:
            top_pkg = p.top_package(f)
            if top_pkg is None:
                continue
            base = p.parent(f)
            for _ in range(level - 1):
                if base == top_pkg:
                    base = None
                    break
                base = p.parent(base)
            if base is None:
                continue
            if module:
                found = p.find_module(module, [base])
            else:
                init = p.join(base, "__init__.py")
                found = (init if p.is_file(init) else None, True, [base])
            kind = "relative"
        if found is None:
            continue
        file, is_pkg, portions = found
        if names is None:
            add(file, kind + " import", line)
            continue
        for name in names:
            sub = p.find_in(name, portions) if is_pkg and name != "*" else None
            if sub is not None and sub[0] is not None:
                add(sub[0], kind + " from-submodule", line)
            else:
                add(file, kind + " from-module", line)
    return edges


def main():
    root = Path(sys.argv[1]).resolve()
    files = git_files(root)
    files = [f for f in files if (root / f).is_file()]
    p = Project(root, files)
    out_files, unparsed = {}, {}
    for f in sorted(files):
        if not f.endswith((".py", ".pyi")):
            continue
        try:
            tree = ast.parse((root / f).read_bytes(), filename=f)
        except (SyntaxError, ValueError) as e:
            unparsed[f] = str(e)
            continue
        edges = resolve_file(p, f, tree)
        out_files[f] = {
            "deps": {t: {"kinds": sorted(e["kinds"]), "lines": sorted(e["lines"]), "specs": sorted(e["specs"])} for t, e in sorted(edges.items())}
        }
    json.dump(
        {
            "language": "python",
            "files": out_files,
            "unparsed": unparsed,
            "projects": p.projects,
        },
        sys.stdout,
        indent=1,
    )


if __name__ == "__main__":
    main()
