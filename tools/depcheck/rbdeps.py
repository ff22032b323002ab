#!/usr/bin/env python3
"""Compare Lexibrarian's Ruby file-to-file dependency edges with a reference built on Ruby's own parser.

Each `.rb` file (and `.rake`, `.gemspec`, `.ru`) is parsed by Ruby itself (`Ripper.sexp`, from
Ruby's standard library; `ruby` must be on the PATH: `apt-get install ruby`), independently of the
tree-sitter extraction, and resolved by the rules docs/languages.md states for Ruby:
  - `require_relative 'b'` (or `require File.expand_path('b', __dir__)`): `b.rb` beside the file;
  - `require 'a/b'`, `autoload :B, 'a/b'`, `load 'a/b'` (a literal string): the first `a/b.rb` on
    the file's load path — its gem's `require_paths` (read from its `*.gemspec`, `lib` by default;
    the root is a gem with `lib` when no gemspec is there), its gem's `test/` and `spec/`, then the
    other gems' `require_paths`;
  - a constant referenced (`Foo`, `A::B`, `::C`, a superclass, the scope of a compact class name
    `class A::B`): its first segment looked up in the lexical nesting (`Module.nesting`), innermost
    first, then at the top level; the full name must be defined in the project (`class`/`module`
    by nesting, `NAME = …` directly in a body). Of several defining files: the one whose path ends
    with the constant's segments (Zeitwerk; underscores and case ignored), else those giving it
    content (not a body of only nested classes/modules and requires) — among the
    definers in the file's own gem first, then among all; none if every file only opens it as a
    namespace, or when the file defines it itself.
Prints precision and recall of our edges (the update's graph) against it, with the differing edges.
Only the Python standard library and Ruby's are used.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import our_edges  # noqa: E402

EXTENSIONS = (".rb", ".rake", ".gemspec", ".ru")

# Reads the files named on stdin, writes one JSON line per file: its loads, definitions and
# references, each with its lexical nesting.
RUBY = r'''
require "ripper"
require "json"

def const_path(node)
  case node && node[0]
  when :var_ref, :const_ref
    node[1][0] == :@const ? node[1][1] : nil
  when :top_const_ref
    "::" + node[1][1]
  when :const_path_ref
    left = const_path(node[1])
    left && left + "::" + node[2][1]
  end
end

def full(outer, written)
  return written[2..] if written.start_with?("::")
  outer.empty? ? written : outer + "::" + written
end

def literal(node)
  return nil unless node
  if node[0] == :string_literal
    parts = node[1][1..] || []
    return nil unless parts.size == 1 && parts[0][0] == :@tstring_content
    return parts[0][1]
  end
  if node[0] == :symbol_literal || node[0] == :dyna_symbol
    return nil
  end
  nil
end

def args_of(node)
  case node && node[0]
  when :args_add_block then node[1].is_a?(Array) ? node[1] : []
  when :arg_paren then args_of(node[1])
  when Array then node
  else []
  end
end

LOADERS = %w[require require_relative autoload load]

# `File.expand_path('x', __dir__)` -> "./x"; `File.expand_path('../x', __FILE__)` -> "./x".
def expand_path(node)
  return nil unless node.is_a?(Array) && node[0] == :method_add_arg
  call = node[1]
  return nil unless call[0] == :call && const_path(call[1]) == "File" && call[3][1] == "expand_path"
  args = args_of(node[2])
  path = literal(args[0])
  return nil if path.nil? || path.empty?
  base = args[1]
  dir = base.is_a?(Array) && base[0] == :vcall && base[1][1] == "__dir__"
  file = base.is_a?(Array) && base[0] == :var_ref && base[1][0] == :@kw && base[1][1] == "__FILE__"
  rel = dir ? path : (file && path.start_with?("../") ? path[3..] : nil)
  return nil unless rel
  rel.start_with?(".") ? rel : "./" + rel
end

def load_of(node)
  name, args = case node[0]
  when :command then [node[1], args_of(node[2])]
  when :method_add_arg
    node[1][0] == :fcall ? [node[1][1], args_of(node[2])] : [nil, []]
  else [nil, []]
  end
  return nil unless name && name[0] == :@ident && LOADERS.include?(name[1])
  arg = name[1] == "autoload" ? args[1] : args[0]
  expanded = expand_path(arg)
  return expanded if expanded
  path = literal(arg)
  return nil if path.nil? || path.empty?
  if name[1] == "require_relative" && !path.start_with?(".") && !path.start_with?("/")
    path = "./" + path
  end
  path
end

def stmts_of(body)
  return [] unless body
  body = body[1] if body[0] == :bodystmt
  body.is_a?(Array) ? body.reject { |s| s.is_a?(Array) && s[0] == :void_stmt } : []
end

class Walk
  attr_reader :loads, :refs, :defs
  def initialize
    @loads = []; @refs = []; @defs = []
  end

  def define(body, nesting)
    stmts_of(body).each do |s|
      next unless s.is_a?(Array)
      case s[0]
      when :class, :module
        name = const_path(s[1]) or next
        inner = full(nesting.last || "", name)
        content = s[0] == :class ? s[3] : s[2]
        body = stmts_of(content)
        nested = ->(x) { x.is_a?(Array) && [:class, :module].include?(x[0]) }
        namespace_only = !(s[0] == :class && !s[2].nil?) && body.any?(&nested) &&
          body.all? { |x| nested.(x) || !load_of(x).nil? }
        substantive = !namespace_only
        @defs << [inner, substantive]
        define(content, nesting + [inner])
      when :assign
        if s[1][0] == :var_field && s[1][1] && s[1][1][0] == :@const
          @defs << [full(nesting.last || "", s[1][1][1]), true]
        end
      end
    end
  end

  def ref(path, nesting)
    @refs << [nesting.reverse, path]
  end

  def visit(node, nesting)
    return unless node.is_a?(Array)
    if node[0].is_a?(Symbol)
      case node[0]
      when :class, :module
        name = node[1]
        if name[0] == :const_path_ref && (scope = const_path(name[1]))
          ref(scope, nesting)
        end
        inner = nesting + [full(nesting.last || "", const_path(name) || "?")]
        visit(node[2], nesting) if node[0] == :class
        visit(node[0] == :class ? node[3] : node[2], inner)
        return
      when :var_ref, :top_const_ref, :const_path_ref
        if (path = const_path(node))
          ref(path, nesting)
          return
        end
      when :assign, :opassign
        target = node[1]
        if target[0] == :const_path_field && (scope = const_path(target[1]))
          ref(scope, nesting)
        elsif target[0] != :var_field
          visit(target, nesting)
        end
        visit(node[2..], nesting)
        return
      when :command, :method_add_arg
        if (path = load_of(node))
          @loads << path
        end
      end
      node[1..].each { |c| visit(c, nesting) }
    else
      node.each { |c| visit(c, nesting) }
    end
  end
end

STDIN.each_line do |line|
  path, abs = line.chomp.split("\t")
  tree = Ripper.sexp(File.read(abs, encoding: "UTF-8"))
  walk = Walk.new
  if tree
    walk.define(tree[1], [])
    walk.visit(tree, [])
  end
  puts JSON.generate({ "path" => path, "ok" => !tree.nil?, "loads" => walk.loads,
                       "refs" => walk.refs, "defs" => walk.defs })
end
'''


def read_files(repo, files):
    feed = "".join(f"{p}\t{os.path.join(repo, p)}\n" for p in files)
    out = subprocess.run(["ruby", "-e", RUBY], input=feed, capture_output=True, text=True,
                         check=True).stdout
    return {entry["path"]: entry for entry in map(json.loads, out.splitlines())}


def require_paths(text):
    match = re.search(r"require_paths\s*=\s*(%w[\[(]([^\])]*)[\])]|\[([^\]]*)\])", text)
    if not match:
        return []
    if match.group(2) is not None:
        return match.group(2).split()
    return [p.strip().strip("'\"") for p in match.group(3).split(",") if p.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--lexi", default="lexi")
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    listed = [p for p in subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True,
                                        text=True, check=True).stdout.split("\n") if p]
    ruby = [p for p in listed if p.endswith(EXTENSIONS)]
    present = set(listed)
    parsed = read_files(repo, ruby)
    failed = [p for p, e in parsed.items() if not e["ok"]]

    gems = {}
    for spec in (p for p in listed if p.endswith(".gemspec")):
        directory = os.path.dirname(spec)
        with open(os.path.join(repo, spec), encoding="utf-8", errors="replace") as handle:
            paths = require_paths(handle.read()) or ["lib"]
        gems[directory] = [os.path.join(directory, p) if directory else p for p in paths]
    gems.setdefault("", ["lib"])

    def gem_of(path):
        owners = [d for d in gems if d == "" or path.startswith(d + "/")]
        return max(owners, key=len)

    def load_path(path):
        own = gem_of(path)
        roots = list(gems[own])
        roots += [os.path.join(own, "test") if own else "test",
                  os.path.join(own, "spec") if own else "spec"]
        for directory in sorted(gems):
            if directory != own:
                roots += gems[directory]
        return roots

    defined = {}
    for path in sorted(p for p in ruby if p.endswith(".rb")):
        for name, substantive in parsed[path]["defs"]:
            entry = defined.setdefault(name, {})
            entry[path] = entry.get(path, False) or substantive

    def zeitwerk(path, name):
        stem = path[:-3].split("/")
        segments = name.split("::")
        norm = lambda s: s.replace("_", "").lower()  # noqa: E731
        return len(stem) >= len(segments) and \
            [norm(s) for s in stem[-len(segments):]] == [norm(s) for s in segments]

    def constant_files(path, nesting, written):
        if written.startswith("::"):
            name = written[2:]
        else:
            first = written.split("::")[0]
            outer = next((n for n in nesting if f"{n}::{first}" in defined), None)
            name = f"{outer}::{written}" if outer else written
        files = defined.get(name)
        if not files or path in files:
            return []
        def pick(candidates):
            named = [p for p in candidates if zeitwerk(p, name)]
            return named or [p for p, s in candidates.items() if s]
        own = {p: s for p, s in files.items() if gem_of(p) == gem_of(path)}
        return pick(own) or pick(files)

    def loaded(path, spec):
        def with_ext(p):
            return p if p.endswith(".rb") else p + ".rb"
        if spec.startswith("./") or spec.startswith("../"):
            target = with_ext(os.path.normpath(os.path.join(os.path.dirname(path), spec)))
            return target if target in present and target != path else None
        for root in load_path(path):
            target = with_ext(os.path.normpath(os.path.join(root, spec)))
            if target in present:
                return target if target != path else None
        return None

    reference = set()
    for path in ruby:
        entry = parsed[path]
        for spec in entry["loads"]:
            target = loaded(path, spec)
            if target:
                reference.add((path, target))
        for nesting, written in entry["refs"]:
            reference.update((path, t) for t in constant_files(path, nesting, written))

    ours, _ = our_edges(repo, args.lexi, ruby[0])
    ours = {(a, b) for a, b in ours if a.endswith(EXTENSIONS)}
    both = ours & reference
    precision = len(both) / len(ours) if ours else 1.0
    recall = len(both) / len(reference) if reference else 1.0
    print(f"{repo}: {len(ruby)} Ruby files ({len(failed)} Ripper could not parse: {failed}); "
          f"reference {len(reference)} edges, ours {len(ours)}, both {len(both)}: "
          f"precision {precision:.3f}, recall {recall:.3f}")
    for title, edges in (("only ours", ours - reference), ("only the reference", reference - ours)):
        print(f"{title}: {len(edges)}")
        for a, b in sorted(edges)[: args.show]:
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()
