#!/usr/bin/env python3
"""Compare Lexibrarian's PHP file-to-file dependency edges with a reference made from PHP's own
tokenizer.

Every tracked `.php` file (none under `vendor/`) is read by PHP's `token_get_all` (run by the
`php` CLI, 8.0 or later: `T_NAME_QUALIFIED` and friends), independently of the tree-sitter
extraction, and each class name it uses is resolved as PHP resolves it at compile time:
  - `namespace A\\B;` (or `namespace A\\B { … }`) sets the namespace; `use A\\C;`, `use A\\C as D;`,
    `use A\\{C, D as E};` at the top level make aliases (`use function`/`use const` do not); a
    `use` inside a class body is a trait use (class names);
  - a class name is a name token after `new`, `extends`, `implements` (and its list),
    `instanceof`, `insteadof`, in a `catch (…)` type list, in an attribute `#[…]`, before `::`,
    and in a type: before a parameter's or property's variable (through `?`, `|`, `&`, `(`, `)`),
    after a return type's `):` — not a function call, a constant, a declaration's own name;
  - `\\A\\B` is `A\\B`; `namespace\\A` is the namespace's `A`; `A\\B` and `A` go through the alias
    of their first segment (case-insensitively), else the namespace; `self`, `static`, `parent`
    and the type keywords are no classes.
Each name (and each `use`d class) maps to a file through every `composer.json`'s `autoload` and
`autoload-dev` PSR-4 and PSR-0 maps (longest prefix first; the first file that exists); a
`require`/`include` of `__DIR__ . '/x.php'`, `dirname(__DIR__[, n]) . '/x.php'` or a relative
literal maps to that path when it exists. With `--functions`, each call of a function by name
(`f()` in namespace A as `A\\f` and `f`, `\\A\\f()`, `A\\f()` through the aliases, a `use function`
alias) maps to the file declaring that function at its top level — one only a test file declares
only from a test file, unless `--test-functions-everywhere`. Prints precision and recall of our edges (the update's
graph) against it, with a sample of the differing edges. Only the Python standard library and
`php` are used.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from depcheck import our_edges  # noqa: E402

# The PHP side: for each file on stdin (one path a line), its class names resolved and its
# required paths, as JSON lines {"file", "classes", "requires"}.
PHP = r'''<?php
$special = ['self', 'static', 'parent', 'array', 'callable', 'iterable', 'bool', 'float', 'int',
    'string', 'void', 'mixed', 'object', 'null', 'false', 'true', 'never'];
$nameTokens = [T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_NAME_RELATIVE];
function sig($tokens) {
    $out = [];
    foreach ($tokens as $t) {
        if (is_array($t) && in_array($t[0], [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)) continue;
        $out[] = $t;
    }
    return $out;
}
function kind($t) { return is_array($t) ? $t[0] : $t; }
function text($t) { return is_array($t) ? $t[1] : $t; }
function line($t) { return is_array($t) ? $t[2] : 0; }
while (($path = fgets(STDIN)) !== false) {
    $path = rtrim($path, "\n");
    $code = @file_get_contents($path);
    if ($code === false) continue;
    try { $raw = token_get_all($code, TOKEN_PARSE); } catch (Throwable $e) { $raw = token_get_all($code); }
    $t = sig($raw);
    $n = count($t);
    $ns = ''; $aliases = []; $classes = []; $requires = []; $fnAliases = []; $calls = []; $defines = [];
    $depth = 0;            // brace depth
    $nsBraced = false;     // inside `namespace X { … }`
    $classDepths = [];     // brace depths of class-like bodies
    $pendingClass = false; // saw class/interface/trait/enum keyword, body not yet opened
    $inCatch = false;
    $resolve = function ($name) use (&$ns, &$aliases, $special) {
        if ($name === '' ) return null;
        if ($name[0] === '\\') return substr($name, 1);
        if (strncasecmp($name, 'namespace\\', 10) === 0) { $rest = substr($name, 10); return $ns === '' ? $rest : "$ns\\$rest"; }
        if (strpos($name, '\\') === false && in_array(strtolower($name), $special, true)) return null;
        $parts = explode('\\', $name, 2);
        $first = strtolower($parts[0]);
        if (isset($aliases[$first])) return isset($parts[1]) ? $aliases[$first] . '\\' . $parts[1] : $aliases[$first];
        return $ns === '' ? $name : "$ns\\$name";
    };
    $add = function ($name) use (&$classes, $resolve) { $r = $resolve($name); if ($r !== null) $classes[$r] = true; };
    for ($i = 0; $i < $n; $i++) {
        $k = kind($t[$i]);
        $prev = $i > 0 ? kind($t[$i - 1]) : null;
        if ($k === '{' || $k === T_CURLY_OPEN || $k === T_DOLLAR_OPEN_CURLY_BRACES) {
            $depth++;
            if ($pendingClass && $k === '{') { $classDepths[] = $depth; $pendingClass = false; }
            continue;
        }
        if ($k === '}') {
            if ($classDepths && end($classDepths) === $depth) array_pop($classDepths);
            $depth--;
            if ($nsBraced && $depth === 0) { $ns = ''; $aliases = []; $nsBraced = false; }
            continue;
        }
        if ($k === T_NAMESPACE && $i + 1 < $n && in_array(kind($t[$i + 1]), [T_STRING, T_NAME_QUALIFIED, '{'], true)) {
            $aliases = [];
            if (kind($t[$i + 1]) === '{') { $ns = ''; $nsBraced = true; continue; }
            $ns = text($t[$i + 1]);
            $i++;
            if ($i + 1 < $n && kind($t[$i + 1]) === '{') $nsBraced = true;
            continue;
        }
        if (in_array($k, [T_CLASS, T_INTERFACE, T_TRAIT], true) && $prev !== T_DOUBLE_COLON) { $pendingClass = true; }
        if (defined('T_ENUM') && $k === T_ENUM) { $pendingClass = true; }
        if ($k === T_USE) {
            $inClass = $classDepths && end($classDepths) === $depth;
            if ($prev === ')') continue; // closure `use (...)`
            if ($inClass) {             // trait use
                for ($j = $i + 1; $j < $n && !in_array(kind($t[$j]), [';', '{'], true); $j++) {
                    if (in_array(kind($t[$j]), $GLOBALS['nameTokens'], true)) $add(text($t[$j]));
                }
                $i = $j - 1;
                continue;
            }
            if ($depth > ($nsBraced ? 1 : 0)) continue;
            // Top-level use: collect until ';'
            $j = $i + 1;
            $type = 'class';
            if (in_array(kind($t[$j]), [T_FUNCTION, T_CONST], true)) { $type = 'other'; $j++; }
            $prefix = null; $items = []; $cur = null; $alias = null; $itemType = $type; $expectAlias = false;
            for (; $j < $n && kind($t[$j]) !== ';'; $j++) {
                $kj = kind($t[$j]);
                if ($kj === T_NS_SEPARATOR) continue;
                if (in_array($kj, [T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_STRING], true) && $expectAlias) { $alias = text($t[$j]); $expectAlias = false; continue; }
                if ($kj === T_AS) { $expectAlias = true; continue; }
                if (in_array($kj, [T_FUNCTION, T_CONST], true)) { $itemType = 'other'; continue; }
                if (in_array($kj, [T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_STRING], true)) {
                    $name = text($t[$j]);
                    if ($j + 1 < $n && (kind($t[$j + 1]) === '{' || (kind($t[$j + 1]) === T_NS_SEPARATOR && $j + 2 < $n && kind($t[$j + 2]) === '{'))) { $prefix = rtrim(ltrim($name, '\\'), '\\'); continue; }
                    $cur = ltrim($name, '\\');
                    continue;
                }
                if ($kj === ',' || $kj === '}') {
                    if ($cur !== null) $items[] = [$cur, $alias, $itemType];
                    $cur = null; $alias = null; $itemType = $type;
                    continue;
                }
            }
            if ($cur !== null) $items[] = [$cur, $alias, $itemType];
            foreach ($items as [$name, $al, $ty]) {
                if ($ty !== 'class') {
                    $full = $prefix !== null ? "$prefix\\$name" : $name;
                    $parts = explode('\\', $full);
                    $fnAliases[strtolower($al ?? end($parts))] = $full;
                    $calls[$full] = true;
                    continue;
                }
                $full = $prefix !== null ? "$prefix\\$name" : $name;
                $short = $al ?? substr($full, (int) strrpos('\\' . $full, '\\'));
                $parts = explode('\\', $full);
                $short = $al ?? end($parts);
                $aliases[strtolower($short)] = $full;
                $classes[$full] = true;
            }
            $i = $j;
            continue;
        }
        if (in_array($k, [T_REQUIRE, T_REQUIRE_ONCE, T_INCLUDE, T_INCLUDE_ONCE], true)) {
            $j = $i + 1;
            if ($j < $n && kind($t[$j]) === '(') $j++;
            $up = null; $lit = null;
            if ($j < $n && kind($t[$j]) === T_DIR) { $up = 0; $j++; }
            elseif ($j < $n && kind($t[$j]) === T_STRING && strtolower(text($t[$j])) === 'dirname') {
                // dirname(__DIR__) or dirname(__DIR__, n) or dirname(__FILE__)
                $inner = [];
                for ($m = $j + 1, $d = 0; $m < $n; $m++) { $km = kind($t[$m]); if ($km === '(') $d++; if ($km === ')') { $d--; if ($d === 0) break; } $inner[] = $t[$m]; }
                $txt = strtolower(implode('', array_map('text', $inner)));
                if ($txt === '(__dir__') $up = 1;
                elseif ($txt === '(__file__') $up = 0;
                elseif (preg_match('/^\(__dir__,(\d+)$/', $txt, $mm)) $up = (int) $mm[1];
                $j = $m + 1;
            }
            if ($up !== null) {
                if ($j + 1 < $n && kind($t[$j]) === '.' && kind($t[$j + 1]) === T_CONSTANT_ENCAPSED_STRING) {
                    $s = substr(text($t[$j + 1]), 1, -1);
                    if ($s !== '' && $s[0] === '/') $requires[] = str_repeat('../', $up) . substr($s, 1);
                }
            } elseif ($j < $n && kind($t[$j]) === T_CONSTANT_ENCAPSED_STRING && ($j + 1 >= $n || in_array(kind($t[$j + 1]), [';', ')'], true))) {
                $s = substr(text($t[$j]), 1, -1);
                if ($s !== '' && $s[0] !== '/' && strpbrk($s, '$\\{') === false) $requires[] = $s;
            }
            continue;
        }
        if (!in_array($k, $nameTokens, true)) {
            if ($k === T_CATCH) $inCatch = true;
            continue;
        }
        // A name token: is it a class name here?
        $name = text($t[$i]);
        $next = $i + 1 < $n ? kind($t[$i + 1]) : null;
        // A function declared at the top (not a method: no class body open).
        if ($prev === T_FUNCTION && !$classDepths && $depth <= ($nsBraced ? 1 : 0)) {
            $defines[] = $ns === '' ? $name : "$ns\\$name";
        }
        // A function call: `f(…)`, `\A\f(…)`, not a method, a `new`, a declaration.
        if ($next === '(' && !in_array($prev, [T_NEW, T_FUNCTION, T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON], true)) {
            if ($name[0] === '\\') { $calls[substr($name, 1)] = true; }
            elseif (strncasecmp($name, 'namespace\\', 10) === 0) { $calls[($ns === '' ? '' : "$ns\\") . substr($name, 10)] = true; }
            elseif (strpos($name, '\\') !== false) {
                $parts = explode('\\', $name, 2);
                $first = strtolower($parts[0]);
                $calls[isset($aliases[$first]) ? $aliases[$first] . '\\' . $parts[1] : ($ns === '' ? $name : "$ns\\$name")] = true;
            } elseif (isset($fnAliases[strtolower($name)])) { $calls[$fnAliases[strtolower($name)]] = true; }
            else { if ($ns !== '') $calls["$ns\\$name"] = true; $calls[$name] = true; }
        }
        $isClass = false;
        if (in_array($prev, [T_NEW, T_EXTENDS, T_INSTANCEOF, T_INSTEADOF], true)) $isClass = true;
        if ($next === T_DOUBLE_COLON) $isClass = true;
        if ($prev === T_FUNCTION || $prev === T_CONST || $prev === T_OBJECT_OPERATOR || $prev === T_NULLSAFE_OBJECT_OPERATOR || $prev === T_DOUBLE_COLON || $prev === T_GOTO) $isClass = false;
        if (in_array($prev, [T_CLASS, T_INTERFACE, T_TRAIT], true) || (defined('T_ENUM') && $prev === T_ENUM)) $isClass = false;
        // implements / interface extends lists
        if (!$isClass && $prev === ',') {
            for ($b = $i - 1; $b >= 0; $b--) {
                $kb = kind($t[$b]);
                if ($kb === ',' || in_array($kb, $nameTokens, true)) continue;
                if ($kb === T_IMPLEMENTS || $kb === T_EXTENDS) $isClass = true;
                break;
            }
        }
        if ($prev === T_IMPLEMENTS) $isClass = true;
        // types: followed by a variable, `...`, `&$x`, or in a union/nullable/intersection chain
        if (!$isClass && in_array($next, [T_VARIABLE, T_ELLIPSIS, '|', T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG, T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG, ')'], true)) {
            // `f(CONST)`, `(Foo)` casts are not types: require a type context before
            $b = $i - 1;
            while ($b >= 0 && in_array(kind($t[$b]), ['?', '|', '(', ')', T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG], true) && !($b < $i - 1 && kind($t[$b]) === '(')) {
                if (kind($t[$b]) === '(' ) break;
                $b--;
            }
            $kb = $b >= 0 ? kind($t[$b]) : null;
            $typeCtx = in_array($kb, ['(', ',', T_PUBLIC, T_PROTECTED, T_PRIVATE, T_STATIC, T_VAR, T_READONLY, ':', '?', '|'], true)
                || (defined('T_PUBLIC_SET') && in_array($kb, [T_PUBLIC_SET, T_PROTECTED_SET, T_PRIVATE_SET], true));
            if ($next === ')' || $next === '|') {
                // only in a parameter/return/catch type chain ending in a variable or `{`/`;`/`=>`
                $f = $i + 1;
                while ($f < $n && in_array(kind($t[$f]), ['|', ')', '(', T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG, T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, '?'], true) && kind($t[$f]) !== ')') $f++;
                $typeCtx = $typeCtx && $f < $n && in_array(kind($t[$f]), [T_VARIABLE, T_ELLIPSIS, T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG], true);
            }
            if ($inCatch && in_array($prev, ['(', '|'], true)) $typeCtx = true;
            $isClass = $typeCtx;
        }
        // return types: `): Foo`, `): ?Foo`, `): Foo|Bar`, `fn(): Foo =>`
        if (!$isClass) {
            $b = $i - 1;
            while ($b >= 0 && in_array(kind($t[$b]), ['?', '|', '(', T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG], true)) $b--;
            while ($b >= 0 && in_array(kind($t[$b]), $nameTokens, true) && $b > 0 && in_array(kind($t[$b - 1]), ['|', T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG], true)) $b -= 2;
            if ($b >= 1 && kind($t[$b]) === ':' && kind($t[$b - 1]) === ')') $isClass = true;
        }
        if ($prev === T_ATTRIBUTE) $isClass = true; // `#[Name(…)]`
        if ($isClass) $add($name);
        if ($inCatch && $next === T_VARIABLE) $inCatch = false;
    }
    echo json_encode(['file' => $path, 'classes' => array_keys($classes), 'requires' => $requires,
        'calls' => array_keys($calls), 'defines' => $defines]), "\n";
}
'''


def is_test(path):
    """A test file: under a `tests`/`test`/`spec` directory, or a PHPUnit `*Test.php`."""
    parts = path.lower().split("/")
    stem = os.path.basename(path)[:-len(".php")] if path.endswith(".php") else ""
    return any(d in ("tests", "test", "__tests__", "spec", "specs", "testing") for d in parts[:-1]) \
        or (len(stem) > 4 and stem.endswith("Test"))


def autoload_maps(repo, php_files):
    """[(prefix, dir, psr0)] of every composer.json's autoload maps, longest prefix first."""
    entries = []
    for directory, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d not in (".git", "vendor", ".lexibrary")]
        if "composer.json" not in names:
            continue
        with open(os.path.join(directory, "composer.json"), encoding="utf-8") as handle:
            data = json.load(handle)
        base = os.path.relpath(directory, repo)
        for section in ("autoload", "autoload-dev"):
            for key, psr0 in (("psr-4", False), ("psr-0", True)):
                for prefix, dirs_ in (data.get(section, {}).get(key, {}) or {}).items():
                    for d in ([dirs_] if isinstance(dirs_, str) else dirs_):
                        entries.append((prefix, os.path.normpath(os.path.join(base, d)), psr0))
    entries.sort(key=lambda e: -len(e[0]))
    return entries


def class_file(name, entries, files):
    for prefix, directory, psr0 in entries:
        if not name.startswith(prefix):
            continue
        if psr0:
            namespace, _, cls = name.rpartition("\\")
            rel = (namespace.replace("\\", "/") + "/" if namespace else "") + cls.replace("_", "/") + ".php"
        else:
            rel = name[len(prefix):].replace("\\", "/") + ".php"
        path = os.path.normpath(os.path.join(directory, rel))
        if path in files:
            return path
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo")
    parser.add_argument("--lexi", default="lexi")
    parser.add_argument("--show", type=int, default=40)
    parser.add_argument("--dump", help="write the reference edges here, one 'a -> b' a line")
    parser.add_argument("--functions", action="store_true",
                        help="also count calls of the project's namespaced functions (`use function`, "
                             "`\\A\\f()`, `f()` in namespace A) as edges to the file defining them")
    parser.add_argument("--test-functions-everywhere", action="store_true",
                        help="with --functions, also count a call from code outside the tests of a "
                             "function only a test file declares (a test bootstrap intercepting a "
                             "global function in the code's namespace), which the test runner alone "
                             "loads: Lexibrarian leaves such edges out")
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    tracked = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                             check=True).stdout.split("\n")
    php_files = sorted(p for p in tracked if p.endswith(".php") and not p.startswith("vendor/"))
    files = set(tracked)
    entries = autoload_maps(repo, php_files)
    with open("/tmp/phpdeps-reference.php", "w", encoding="utf-8") as handle:
        handle.write(PHP)
    out = subprocess.run(["php", "/tmp/phpdeps-reference.php"], cwd=repo, capture_output=True,
                         text=True, input="\n".join(php_files) + "\n", check=True).stdout
    reference = set()
    records = [json.loads(line) for line in out.splitlines()]
    defined = {}
    for record in records:
        for name in record["defines"]:
            defined.setdefault(name.lower(), []).append(record["file"])

    def declaring(name, caller):
        """The file declaring function `name` that `caller` may reach: a test file's function is
        reached from the tests only, unless --test-functions-everywhere."""
        files = defined.get(name.lower(), [])
        if not args.test_functions_everywhere and not is_test(caller):
            files = [f for f in files if not is_test(f)]
        return files[0] if files else None

    for record in records:
        path = record["file"]
        for name in record["classes"]:
            found = class_file(name, entries, files)
            if found and found != path:
                reference.add((path, found))
        if args.functions:
            for name in record["calls"]:
                found = declaring(name, path)
                if found and found != path:
                    reference.add((path, found))
        for rel in record["requires"]:
            found = os.path.normpath(os.path.join(os.path.dirname(path), rel))
            if found in files and found != path:
                reference.add((path, found))
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as handle:
            for a, b in sorted(reference):
                handle.write(f"{a} -> {b}\n")
    ours, _ = our_edges(repo, args.lexi, php_files[0])
    ours = {(a, b) for a, b in ours if a.endswith(".php")}
    both = ours & reference
    precision = len(both) / len(ours) if ours else 1.0
    recall = len(both) / len(reference) if reference else 1.0
    print(f"{repo}: {len(php_files)} PHP files; reference {len(reference)} edges, ours {len(ours)}, "
          f"both {len(both)}: precision {precision:.3f}, recall {recall:.3f}")
    for title, edges in (("only ours", ours - reference), ("only the reference", reference - ours)):
        print(f"{title}: {len(edges)}")
        for a, b in sorted(edges)[: args.show]:
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()
