#!/usr/bin/env python3
"""Compare Lexibrarian's C# file-to-file dependency edges with a reference made by hand rules.

There is no dotnet or Roslyn here, so the reference binds names the way the C# specification
does, independently of the tree-sitter extraction, from a small tokenizer (comments and string
contents removed) and the project files read with an XML parser:
  - projects: every `.csproj` compiles the `.cs` files under its directory (not those of a
    project nested below); it sees its own types and those of the projects its
    `ProjectReference`s name, transitively; its global usings are its `global using` directives
    and the `<Using Include>` items of the project, of the nearest `Directory.Build.props` /
    `Directory.Build.targets` and of the files they `<Import>` (an item group conditioned on
    `'$(P)' == 'v'` counts when the property read so far has that value);
  - declarations: the types declared outside any type (class, struct, interface, enum, record,
    delegate), by namespace and arity (`Box<T>` is Box`1), and the extension methods
    (`M(this T x)`) of static classes;
  - a simple name (a word not after `.`; `Name<…>` with its arity; an attribute `[Name]` also as
    `NameAttribute`) binds to the files of the innermost namespace of the file's chain (`A.B.C`,
    `A.B`, `A`, global) declaring it, else of every namespace its usings and global usings
    bring (a `using` inside a namespace relative to it when that namespace exists), else an
    alias's target;
  - a dotted name `A.B.C` binds to the files of namespace `A.B` (absolute, or relative to the
    chain, or through an alias) declaring `C`, the longest prefix first;
  - `using static A.B.T;` and `using D = A.B.T;` bind to the files declaring `T`;
  - a method called after a `.` that is an extension method of a namespace in scope binds to
    the files declaring it; a partial type's parts bind to each other.
Prints precision and recall of our edges (the update's graph) against it, with a sample of the
differing edges. Only the Python standard library is used.
"""

import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import our_edges  # noqa: E402

TYPE_KEYWORDS = {"class", "struct", "interface", "enum", "record", "delegate"}
CTOR_PREFIX = {"public", "internal", "private", "protected", "static", "~", "extern", "unsafe"}
TOKEN = re.compile(r"[A-Za-z_@][A-Za-z0-9_]*|::|\S")


def strip(text):
    """Code without comments, string and character contents (verbatim, raw, interpolated)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith('"""', i) or re.match(r'\$+"""', text[i:i + 6]):
            start = text.find('"""', i)
            j = text.find('"""', start + 3)
            i = n if j < 0 else j + 3
            out.append('""')
        elif c == '"' or text.startswith('@"', i) or text.startswith('$"', i) \
                or text.startswith('$@"', i) or text.startswith('@$"', i):
            verbatim = "@" in text[i:text.find('"', i)]
            j = text.find('"', i) + 1
            while j < n:
                if verbatim and text.startswith('""', j):
                    j += 2
                elif not verbatim and text[j] == "\\":
                    j += 2
                elif text[j] == '"':
                    break
                else:
                    j += 1
            i = j + 1
            out.append('""')
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:])
            if m:
                i += len(m.group(0))
                out.append("' '")
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    # Preprocessor directives (`#region a class …`, `#if NET8_0`) are no code; the code between
    # `#if` branches is all kept.
    return re.sub(r"(?m)^[ \t]*#[^\n]*", "", "".join(out))


def generic_arity(tokens, at):
    """The arity of a `<…>` type argument list starting at tokens[at] (`<`), or 0 if it is none."""
    if at >= len(tokens) or tokens[at] != "<":
        return 0
    depth, commas = 0, 0
    for k in range(at, min(len(tokens), at + 80)):
        t = tokens[k]
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
            if depth == 0:
                return commas + 1
        elif t == "," and depth == 1:
            commas += 1
        elif not (re.match(r"[A-Za-z_]", t) or t in {".", "?", "[", "]", ",", "(", ")", "*", "::"}):
            return 0
    return 0


class File:
    def __init__(self, path, text):
        self.path = path
        self.tokens = TOKEN.findall(strip(text.lstrip("\ufeff")))
        self.namespaces = []      # in order declared
        self.types = {}           # namespace -> set of keys
        self.extensions = {}      # namespace -> set of names
        self.partials = set()
        self.usings = []          # (kind, value, alias, inside_namespace, global)
        self.used = set()
        self.members = set()
        self.dotted = set()
        self.parse()

    def parse(self):
        t = self.tokens
        stack = []                # entries: ("ns", name) | ("type", static?) | ("other",)
        namespace = ""
        file_namespace = None
        pending = None            # what the next "{" opens
        i, n = 0, len(t)
        skip_until_semicolon = False
        while i < n:
            tok = t[i]
            outside = all(kind[0] == "ns" for kind in stack)
            if tok == "namespace" and outside:
                j = i + 1
                parts = []
                while j < n and t[j] not in {"{", ";"}:
                    if t[j] != ".":
                        parts.append(t[j])
                    j += 1
                name = ".".join(parts)
                full = f"{namespace}.{name}" if namespace else name
                if j < n and t[j] == ";":
                    file_namespace = full
                    namespace = full
                    self.namespaces.append(full)
                    i = j + 1
                    continue
                self.namespaces.append(full)
                stack.append(("ns", namespace))
                namespace = full
                i = j + 1
                continue
            if tok == "using" and outside and i + 1 < n and t[i + 1] not in {"(", "var"}:
                is_global = i > 0 and t[i - 1] == "global"
                j = i + 1
                static = False
                if t[j] == "static":
                    static, j = True, j + 1
                k = j
                while k < n and t[k] != ";":
                    k += 1
                body = t[j:k]
                alias = None
                if "=" in body:
                    alias = body[0]
                    body = body[body.index("=") + 1:]
                value = "".join(x for x in body if x != "global" and x != "::")
                value = re.sub(r"<.*", "", value)
                kind = "alias" if alias else ("static" if static else "ns")
                self.usings.append((kind, value, alias, namespace != "", is_global))
                i = k + 1
                continue
            if tok in TYPE_KEYWORDS and (i == 0 or t[i - 1] != "."):
                j = i + 1
                if tok == "record" and j < n and t[j] in {"struct", "class"}:
                    j += 1
                if tok == "delegate":
                    # delegate ReturnType Name<…>(…): the word before `(` or `<`.
                    k = j
                    while k < n and t[k] not in {"(", ";", "{"}:
                        k += 1
                    names = [x for x in t[j:k] if re.match(r"[A-Za-z_]", x)]
                    depth, name_at = 0, None
                    for m in range(j, k):
                        if t[m] == "<":
                            if depth == 0 and name_at is None and re.match(r"[A-Za-z_]", t[m - 1]):
                                pass
                            depth += 1
                        elif t[m] == ">":
                            depth -= 1
                    # The last word at depth 0 before `(`, skipping a type argument list.
                    m = k - 1
                    if m >= 0 and t[m] == ">":
                        depth = 0
                        while m > j:
                            if t[m] == ">":
                                depth += 1
                            elif t[m] == "<":
                                depth -= 1
                                if depth == 0:
                                    m -= 1
                                    break
                            m -= 1
                    if names and outside and stack_has_no_type(stack) and m >= j:
                        key = t[m] + (f"`{generic_arity(t, m + 1)}" if generic_arity(t, m + 1) else "")
                        self.types.setdefault(namespace, set()).add(key)
                    if tok == "delegate" and (i + 1 < n and t[i + 1] in {"(", "{"}):
                        pass  # an anonymous method
                    i += 1
                    continue
                if j < n and re.match(r"[A-Za-z_]", t[j]) and t[j] not in {"where"}:
                    name = t[j]
                    arity = generic_arity(t, j + 1)
                    key = name + (f"`{arity}" if arity else "")
                    modifiers = set()
                    m = i - 1
                    while m >= 0 and t[m] in {"public", "internal", "private", "protected", "static",
                                              "sealed", "abstract", "partial", "readonly", "unsafe",
                                              "new", "file", "ref"}:
                        modifiers.add(t[m])
                        m -= 1
                    top = outside
                    if top:
                        self.types.setdefault(namespace, set()).add(key)
                        if "partial" in modifiers:
                            self.partials.add((namespace, key))
                    pending = ("type", top and "static" in modifiers and tok == "class", namespace)
                    i = j + 1
                    continue
            if tok == "{":
                stack.append(pending or ("other",))
                pending = None
                i += 1
                continue
            if tok == "}":
                if stack:
                    top = stack.pop()
                    if top[0] == "ns":
                        namespace = top[1]
                i += 1
                continue
            if tok == ";" and pending and pending[0] == "type":
                pending = None  # `record R(int X);`
            # Extension methods: `Name(this` or `Name<…>(this` in a top-level static class.
            if (tok == "this" and i >= 2 and t[i - 1] == "(" and len(stack) >= 1
                    and stack[-1][0] == "type" and stack[-1][1]):
                k = i - 2
                if t[k] == ">":
                    depth = 0
                    while k > 0:
                        if t[k] == ">":
                            depth += 1
                        elif t[k] == "<":
                            depth -= 1
                            if depth == 0:
                                k -= 1
                                break
                        k -= 1
                if re.match(r"[A-Za-z_]", t[k]):
                    self.extensions.setdefault(stack[-1][2], set()).add(t[k])
            # Names used.
            if re.match(r"[A-Za-z_@]", tok):
                word = tok.lstrip("@")
                prev = t[i - 1] if i > 0 else ""
                if prev == ".":
                    nxt = i + 1
                    arity = generic_arity(t, nxt)
                    if arity:
                        depth = 0
                        while nxt < n:
                            if t[nxt] == "<":
                                depth += 1
                            elif t[nxt] == ">":
                                depth -= 1
                                if depth == 0:
                                    nxt += 1
                                    break
                            nxt += 1
                    self.members.add(word)
                elif prev in CTOR_PREFIX and i + 1 < n and t[i + 1] == "(":
                    pass  # a constructor's (or destructor's) declaration: `public Box(`
                elif prev not in TYPE_KEYWORDS:
                    arity = generic_arity(t, i + 1)
                    self.used.add(word + (f"`{arity}" if arity else ""))
                    if prev == "[" or (prev == "," and self.in_attribute(i)):
                        self.used.add(word + "Attribute")
                    # A dotted chain starting here.
                    chain, k = [word], i + 1
                    while k + 1 < n and t[k] == "." and re.match(r"[A-Za-z_]", t[k + 1]):
                        chain.append(t[k + 1])
                        k += 2
                        if generic_arity(t, k):
                            break
                    if len(chain) > 1:
                        self.dotted.add(".".join(chain))
                    if word == "global" and k < n and t[i + 1] == "::":
                        pass
            if tok == "::" and i > 0 and t[i - 1] == "global" and i + 1 < n:
                chain, k = [t[i + 1]], i + 2
                while k + 1 < n and t[k] == "." and re.match(r"[A-Za-z_]", t[k + 1]):
                    chain.append(t[k + 1])
                    k += 2
                if len(chain) > 1:
                    self.dotted.add(".".join(chain))
            i += 1
        if not self.namespaces:
            self.namespaces.append("")
        for namespace, key in self.partials:
            self.used.add(key)

    def in_attribute(self, i):
        """Whether the word at i follows `[` within the same attribute section (`[A, B]`)."""
        depth = 0
        for k in range(i - 1, max(0, i - 40), -1):
            if self.tokens[k] in {")", "]"}:
                depth += 1
            elif self.tokens[k] == "(":
                depth -= 1
            elif self.tokens[k] == "[":
                if depth == 0:
                    return k == 0 or self.tokens[k - 1] in {"]", ";", "{", "}"}
                depth -= 1
            elif self.tokens[k] in {";", "{", "}"}:
                return False
        return False


def stack_has_no_type(stack):
    return all(kind[0] == "ns" for kind in stack)


class Build:
    """A project's evaluation, as far as the reference needs it: properties, references, usings."""

    def __init__(self, repo):
        self.repo = repo
        self.properties = {}
        self.references = []
        self.usings = []
        self.seen = set()

    def holds(self, condition):
        if not condition:
            return True
        m = re.match(r"\s*'\$\((\w+)\)'\s*(==|!=)\s*'([^']*)'\s*$", condition)
        if not m:
            return True
        value = self.properties.get(m.group(1), "")
        equal = value.lower() == m.group(3).lower()
        return equal if m.group(2) == "==" else not equal

    def read(self, rel):
        if rel in self.seen or len(self.seen) > 16:
            return
        self.seen.add(rel)
        try:
            root = ET.parse(os.path.join(self.repo, rel)).getroot()
        except (ET.ParseError, OSError):
            return
        base = os.path.dirname(rel)
        for element in root:
            tag = element.tag.split("}")[-1]
            if tag == "PropertyGroup" and self.holds(element.get("Condition")):
                for prop in element:
                    self.properties[prop.tag.split("}")[-1]] = (prop.text or "").strip()
            elif tag == "ItemGroup" and self.holds(element.get("Condition")):
                for item in element:
                    kind = item.tag.split("}")[-1]
                    include = item.get("Include")
                    if kind == "ProjectReference" and include:
                        self.references.append(norm(base, include))
                    elif kind == "Using" and include:
                        if item.get("Alias"):
                            self.usings.append(("alias", include, item.get("Alias")))
                        elif (item.get("Static") or "").lower() == "true":
                            self.usings.append(("static", include, None))
                        else:
                            self.usings.append(("ns", include, None))
            elif tag == "Import" and self.holds(element.get("Condition")):
                project = element.get("Project") or ""
                project = re.sub(r"\$\(MsBuildThisFileDirectory\)", "", project, flags=re.I)
                project = re.sub(r"\$\((\w+)\)", lambda m: self.properties.get(m.group(1), ""), project)
                target = norm(base, project)
                if os.path.isfile(os.path.join(self.repo, target)):
                    self.read(target)


def norm(base, written):
    return os.path.normpath(os.path.join(base, written.replace("\\", "/"))).replace(os.sep, "/")


def nearest(repo, directory, name, listed):
    while True:
        candidate = f"{directory}/{name}" if directory else name
        if candidate in listed:
            return candidate
        if not directory:
            return None
        directory = os.path.dirname(directory)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--lexi", default="lexi")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    listed = set(subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                                check=True).stdout.split("\n"))
    sources = sorted(p for p in listed if p.endswith(".cs"))
    project_files = sorted(p for p in listed if p.endswith(".csproj"))
    projects = {}
    for proj in project_files:
        build = Build(repo)
        directory = os.path.dirname(proj)
        props = nearest(repo, directory, "Directory.Build.props", listed)
        if props:
            build.read(props)
        build.read(proj)
        targets = nearest(repo, directory, "Directory.Build.targets", listed)
        if targets:
            build.read(targets)
        projects[proj] = {"dir": directory, "refs": [r for r in build.references if r in listed],
                          "usings": list(build.usings)}

    def project_of(path):
        best = None
        for proj, info in projects.items():
            d = info["dir"]
            if d == "" or path.startswith(d + "/"):
                if best is None or len(d) > len(projects[best]["dir"]):
                    best = proj
        return best

    files = {}
    for path in sources:
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as handle:
            files[path] = File(path, handle.read())
    for path, f in files.items():
        proj = project_of(path)
        if proj:
            for kind, value, alias, _, is_global in f.usings:
                if is_global:
                    projects[proj]["usings"].append((kind, value, alias))
    by_ns_type, by_ns_ext = {}, {}
    for path, f in files.items():
        for ns, keys in f.types.items():
            for key in keys:
                by_ns_type.setdefault((ns, key), set()).add(path)
                by_ns_type.setdefault((ns, key.split("`")[0], "any"), set()).add(path)
        for ns, names in f.extensions.items():
            for name in names:
                by_ns_ext.setdefault((ns, name), set()).add(path)
    namespaces = set()
    for path, f in files.items():
        for ns in list(f.types) + f.namespaces:
            parts = ns.split(".")
            for k in range(1, len(parts) + 1):
                namespaces.add(".".join(parts[:k]))

    def visible(proj):
        if proj is None:
            return None
        seen, todo = {proj}, [proj]
        while todo:
            for ref in projects.get(todo.pop(), {}).get("refs", []):
                if ref not in seen:
                    seen.add(ref)
                    todo.append(ref)
        return seen

    reference = set()
    for path, f in files.items():
        proj = project_of(path)
        sees = visible(proj)

        def ok(paths):
            return {p for p in paths if p != path and (sees is None or project_of(p) is None
                                                         or project_of(p) in sees)}

        chain = []
        for ns in f.namespaces:
            parts = ns.split(".") if ns else []
            for k in range(len(parts), 0, -1):
                name = ".".join(parts[:k])
                if name not in chain:
                    chain.append(name)
        chain.append("")
        usings = [(k, v, a) for k, v, a, _, g in f.usings]
        if proj:
            usings += [u for u in projects[proj]["usings"]]
        using_ns = []
        for kind, value, alias in usings:
            if kind == "ns":
                relative = [f"{b}.{value}" for b in chain if b and f"{b}.{value}" in namespaces]
                using_ns.append(relative[0] if relative else value)

        def qualified(dotted):
            segments = dotted.split(".")
            for at in range(len(segments) - 1, 0, -1):
                ns, ty = ".".join(segments[:at]), segments[at]
                for kind, value, alias in usings:
                    if kind == "alias" and alias == segments[0]:
                        full = ".".join([value] + segments[1:at])
                        found = ok(by_ns_type.get((full, ty, "any"), ()))
                        if found:
                            return found
                for base in [b for b in chain if b] + [""]:
                    full = f"{base}.{ns}" if base else ns
                    found = ok(by_ns_type.get((full, ty, "any"), ()))
                    if found:
                        return found
            return set()

        def simple(key):
            for ns in chain:
                found = ok(by_ns_type.get((ns, key), ()))
                if found:
                    return found
            found = set()
            for ns in using_ns:
                found |= ok(by_ns_type.get((ns, key), ()))
            if not found:
                for kind, value, alias in usings:
                    if kind == "alias" and alias == key:
                        found |= qualified(value)
            return found

        deps = set()
        for kind, value, alias in usings:
            if kind in {"static", "alias"}:
                deps |= qualified(value)
        for key in f.used:
            deps |= simple(key)
        for dotted in f.dotted:
            deps |= qualified(dotted)
        for name in f.members:
            for ns in chain + using_ns:
                deps |= ok(by_ns_ext.get((ns, name), ()))
        reference.update((path, d) for d in deps)

    ours, _ = our_edges(repo, args.lexi, sources[0])
    ours = {(a, b) for a, b in ours if a.endswith(".cs") and b.endswith(".cs")}
    both = ours & reference
    precision = len(both) / len(ours) if ours else 1.0
    recall = len(both) / len(reference) if reference else 1.0
    print(f"{repo}: {len(sources)} C# files, {len(projects)} projects; reference {len(reference)} "
          f"edges, ours {len(ours)}, both {len(both)}: precision {precision:.3f}, recall {recall:.3f}")
    for title, edges in (("only ours", ours - reference), ("only the reference", reference - ours)):
        print(f"{title}: {len(edges)}")
        for a, b in sorted(edges)[: args.show]:
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()
