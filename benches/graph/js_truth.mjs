#!/usr/bin/env node
// js_truth: project-internal import edges of every JS/TS file, resolved by the TypeScript compiler.
//
// Independent of lexibrarian (no tree-sitter, no shared code): the official `typescript` package
// parses each file (`ts.createSourceFile`) and resolves each specifier (`ts.resolveModuleName`,
// `ts.resolveTypeReferenceDirective`) with the compiler options of the file's tsconfig.json /
// jsconfig.json as `ts` itself parses them (`extends`, `baseUrl`, `paths`, `customConditions`),
// and moduleResolution `bundler` (package.json `exports`/`imports`, extensionless and directory
// specifiers, `.js` → `.ts`). The config is the nearest one up the tree that includes the file
// (its `files`/`include`/`exclude`), as tsserver picks it; a file no config includes gets the
// defaults, like tsserver's inferred project.
//
// Specifiers: `import … from`, `import "…"`, `export … from`, `import x = require()`,
// `require("…")`, dynamic `import("…")`, `import("…")` types, `/// <reference path|types>`, and in
// JS files the JSDoc `@import` tag and `import("…")` types inside JSDoc.
//
// Workspace packages (npm/yarn `workspaces`, `pnpm-workspace.yaml` `packages`) imported by name
// resolve to their source directory as if linked into node_modules: the resolution host maps
// `…/node_modules/<workspace package>/…` onto the package's directory. A package whose `exports`
// point at build output (`dist/…`) that is not in the repository stands for the source it is
// built from (the rule issue 12 sets): TS resolves the export to its target path, and that target
// maps onto the package's tsconfig `rootDir` when the path lies in its `outDir` (what a TS project
// reference does), else onto `src/` in place of the output directory (`dist`, `lib`, `build`, `out`,
// `esm`, `cjs`, `es`), trying the TS and JS source extensions. Such edges are counted under
// `output_to_source`; an import that still finds no file is counted under
// `unbuilt_workspace_imports`.
//
// An edge is a resolved file inside the repository, outside node_modules; `.d.ts` counts. A
// relative specifier that names an existing file verbatim (after dropping `?query`/`#hash`) is an
// edge whatever its extension (`./style.css`, `./App.vue`): bundlers load it, TS cannot.
//
// Usage: node js_truth.mjs REPO > truth.json

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ts = require("typescript");

const root = fs.realpathSync(process.argv[2]);
const JS_EXT = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];
const isJsLike = (f) => JS_EXT.some((e) => f.endsWith(e));
const isJsOnly = (f) => [".js", ".jsx", ".mjs", ".cjs"].some((e) => f.endsWith(e));

const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  maxBuffer: 1 << 28,
})
  .toString()
  .split("\0")
  .filter((f) => f && fs.existsSync(path.join(root, f)));
const fileSet = new Set(files);

// ---------- workspace packages ----------
function globToRegex(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      re += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp("^" + re.replace(/\/$/, "") + "$");
}

function workspacePatterns() {
  const patterns = [];
  const pnpm = path.join(root, "pnpm-workspace.yaml");
  if (fs.existsSync(pnpm)) {
    let inPackages = false;
    for (const line of fs.readFileSync(pnpm, "utf8").split("\n")) {
      if (/^packages\s*:/.test(line)) {
        inPackages = true;
        continue;
      }
      if (inPackages) {
        const m = line.match(/^\s+-\s*['"]?([^'"#]+?)['"]?\s*(#.*)?$/);
        if (m) patterns.push(m[1].trim());
        else if (/^\S/.test(line)) inPackages = false;
      }
    }
  }
  const pkgPath = path.join(root, "package.json");
  if (fs.existsSync(pkgPath)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8"));
      const ws = Array.isArray(pkg.workspaces) ? pkg.workspaces : pkg.workspaces?.packages ?? [];
      patterns.push(...ws);
    } catch {}
  }
  return patterns;
}

const workspace = new Map(); // package name → absolute directory
{
  const patterns = workspacePatterns();
  const include = patterns.filter((p) => !p.startsWith("!")).map(globToRegex);
  const exclude = patterns.filter((p) => p.startsWith("!")).map((p) => globToRegex(p.slice(1)));
  const manifests = files.filter((f) => f === "package.json" || f.endsWith("/package.json"));
  for (const m of manifests) {
    const dir = path.posix.dirname(m);
    const isMember = (include.some((r) => r.test(dir)) && !exclude.some((r) => r.test(dir)));
    if (!isMember || m.includes("node_modules/")) continue;
    try {
      const name = JSON.parse(fs.readFileSync(path.join(root, m), "utf8")).name;
      if (name && !workspace.has(name)) workspace.set(name, path.join(root, dir === "." ? "" : dir));
    } catch {}
  }
}

// Map `…/node_modules/<workspace name>/rest` onto the package's directory.
function mapWorkspace(p) {
  const i = p.lastIndexOf("/node_modules/");
  if (i < 0) return p;
  const rest = p.slice(i + "/node_modules/".length);
  const parts = rest.split("/");
  const name = parts[0].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  const dir = workspace.get(name);
  if (!dir) return p;
  return path.join(dir, rest.slice(name.length));
}

// The build output directories an `exports` target may name, and the extensions of a source file.
const OUTPUT_DIRS = new Set(["dist", "lib", "build", "out", "esm", "cjs", "es"]);
const SOURCE_EXT = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

// The workspace package directory holding `abs` (the deepest one), if any.
function packageDirOf(abs) {
  let best = null;
  for (const dir of workspace.values()) {
    if ((abs.startsWith(dir + "/") || abs === dir) && (!best || dir.length > best.length)) best = dir;
  }
  return best;
}

// The source file a missing build output of a workspace package is built from, if there is one.
function sourceOfOutput(abs) {
  const pkgDir = packageDirOf(abs);
  if (!pkgDir) return null;
  const parts = path.relative(pkgDir, abs).split("/");
  if (!OUTPUT_DIRS.has(parts[0])) return null;
  const stem = parts.slice(1).join("/").replace(/(\.d)?\.[mc]?[jt]sx?$/, "");
  const roots = [];
  const tsconfig = path.join(pkgDir, "tsconfig.json");
  const cfg = fileSet.has(path.relative(root, tsconfig)) ? loadConfig(tsconfig) : null;
  if (cfg?.options.outDir && cfg.options.rootDir && path.resolve(cfg.options.outDir) === path.join(pkgDir, parts[0])) {
    roots.push(path.resolve(cfg.options.rootDir));
  }
  roots.push(path.join(pkgDir, "src"));
  for (const dir of roots) {
    for (const ext of SOURCE_EXT) {
      for (const candidate of [path.join(dir, stem + ext), path.join(dir, stem, "index" + ext)]) {
        if (fileSet.has(path.relative(root, candidate))) return candidate;
      }
    }
  }
  return null;
}

const host = {
  fileExists: (f) => ts.sys.fileExists(mapWorkspace(f)),
  readFile: (f) => ts.sys.readFile(mapWorkspace(f)),
  directoryExists: (d) => {
    const trimmed = d.replace(/\/+$/, "");
    if (workspace.size && /\/node_modules$/.test(trimmed)) return true;
    const scope = trimmed.match(/\/node_modules\/(@[^/]+)$/);
    if (scope && [...workspace.keys()].some((n) => n.startsWith(scope[1] + "/"))) return true;
    return ts.sys.directoryExists(mapWorkspace(trimmed));
  },
  realpath: (f) => {
    const m = mapWorkspace(f);
    try {
      return fs.realpathSync(m);
    } catch {
      return m;
    }
  },
  getCurrentDirectory: () => root,
  getDirectories: (d) => ts.sys.getDirectories(mapWorkspace(d)),
  useCaseSensitiveFileNames: true,
};

// ---------- tsconfig per file ----------
const configCache = new Map(); // config path → { options, fileNames:Set, cache }
function loadConfig(configPath) {
  if (configCache.has(configPath)) return configCache.get(configPath);
  let entry = null;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (!read.error) {
    const parsed = ts.parseJsonConfigFileContent(
      read.config,
      { ...ts.sys, readFile: host.readFile, fileExists: host.fileExists },
      path.dirname(configPath),
      undefined,
      configPath,
    );
    entry = { path: configPath, options: parsed.options, fileNames: new Set(parsed.fileNames.map((f) => path.resolve(f))) };
  }
  configCache.set(configPath, entry);
  return entry;
}

const configFor = new Map();
function findConfig(absFile) {
  let dir = path.dirname(absFile);
  while (dir.startsWith(root)) {
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const c = path.join(dir, name);
      if (fileSet.has(path.relative(root, c))) {
        const cfg = loadConfig(c);
        if (cfg && cfg.fileNames.has(absFile)) return cfg;
      }
    }
    if (dir === root) break;
    dir = path.dirname(dir);
  }
  // Like tsserver's inferred project: a file no config includes gets the default options.
  return null;
}

const resolutionCaches = new Map();
function optionsFor(cfg) {
  const key = cfg ? cfg.path : "";
  if (!resolutionCaches.has(key)) {
    const options = {
      ...(cfg ? cfg.options : {}),
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      module: ts.ModuleKind.ESNext,
      allowJs: true,
      resolveJsonModule: true,
      allowArbitraryExtensions: true,
      noDtsResolution: false,
      // A symlinked file in the repository is the file its path names; workspace packages are
      // mapped onto their directories by mapWorkspace, not by realpath.
      preserveSymlinks: true,
    };
    const cache = ts.createModuleResolutionCache(root, (x) => x, options);
    resolutionCaches.set(key, { options, cache });
  }
  return resolutionCaches.get(key);
}

// ---------- specifiers ----------
function specifiersOf(sf, jsFile) {
  const out = []; // { spec, line, kind, mode }
  const lineOf = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const push = (lit, kind, mode) => {
    if (lit && (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit))) {
      out.push({ spec: lit.text, line: lineOf(lit), kind, mode });
    }
  };
  const visit = (node, inJsDoc) => {
    if (ts.isImportDeclaration(node)) push(node.moduleSpecifier, node.importClause?.isTypeOnly ? "import type" : "import");
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) push(node.moduleSpecifier, "export from");
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      push(node.moduleReference.expression, "import = require", ts.ModuleKind.CommonJS);
    else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) push(node.arguments[0], "dynamic import");
      else if (ts.isIdentifier(node.expression) && node.expression.text === "require" && node.arguments.length === 1)
        push(node.arguments[0], "require", ts.ModuleKind.CommonJS);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) push(arg.literal, inJsDoc ? "jsdoc import()" : "import() type");
    } else if (ts.SyntaxKind.JSDocImportTag !== undefined && node.kind === ts.SyntaxKind.JSDocImportTag) {
      push(node.moduleSpecifier, "jsdoc @import");
    }
    ts.forEachChild(node, (c) => visit(c, inJsDoc));
    if (jsFile && node.jsDoc) for (const d of node.jsDoc) visit(d, true);
  };
  visit(sf, false);
  for (const ref of sf.referencedFiles) {
    out.push({ spec: ref.fileName, line: sf.getLineAndCharacterOfPosition(ref.pos).line + 1, kind: "reference path", ref: "path" });
  }
  for (const ref of sf.typeReferenceDirectives) {
    out.push({ spec: ref.fileName, line: sf.getLineAndCharacterOfPosition(ref.pos).line + 1, kind: "reference types", ref: "types" });
  }
  return out;
}

function scriptKind(f) {
  if (f.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (f.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (isJsOnly(f)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

// ---------- main ----------
const outFiles = {};
const unparsed = {};
const stats = { specifiers: 0, resolved_internal: 0, external_or_unresolved: 0, asset_edges: 0, output_to_source: 0 };
const unbuilt = {}; // workspace package name → count
const unbuiltExamples = [];
const unresolvedRelative = [];

for (const rel of files.sort()) {
  if (!isJsLike(rel)) continue;
  const abs = path.join(root, rel);
  let text;
  try {
    text = fs.readFileSync(abs, "utf8");
  } catch (e) {
    unparsed[rel] = String(e);
    continue;
  }
  const sf = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, scriptKind(rel));
  const cfg = findConfig(abs);
  const { options, cache } = optionsFor(cfg);
  const deps = {};
  const add = (target, kind, line, spec) => {
    const t = path.relative(root, target);
    if (t.startsWith("..") || t === rel || !fileSet.has(t)) return false;
    const e = (deps[t] ??= { kinds: new Set(), lines: new Set(), specs: new Set() });
    e.kinds.add(kind);
    e.lines.add(line);
    e.specs.add(spec);
    return true;
  };
  for (const s of specifiersOf(sf, isJsOnly(rel))) {
    stats.specifiers++;
    let resolved;
    const relative = s.spec.startsWith("./") || s.spec.startsWith("../") || s.spec === "." || s.spec === "..";
    const verbatim = relative ? path.resolve(path.dirname(abs), s.spec) : null;
    if (verbatim && isJsOnly(rel) && !s.ref && isJsLike(verbatim) && fileSet.has(path.relative(root, verbatim))) {
      // A JS file runs as written: `./x.js` is x.js even when an x.ts sits beside it (TS would
      // type-check against x.ts).
      resolved = verbatim;
    } else if (s.ref === "path") {
      resolved = path.resolve(path.dirname(abs), s.spec);
    } else if (s.ref === "types") {
      const r = ts.resolveTypeReferenceDirective(s.spec, abs, options, host);
      resolved = r.resolvedTypeReferenceDirective?.resolvedFileName;
    } else {
      const r = ts.resolveModuleName(s.spec, abs, options, host, cache, undefined, s.mode ?? ts.ModuleKind.ESNext);
      resolved = r.resolvedModule?.resolvedFileName;
      s.resolution = r;
      if (!resolved && /[?#]/.test(s.spec.slice(1))) {
        // Bundler query suffixes (`./worker?worker`, `./x.css?inline`): the module without them.
        const bare = s.spec[0] + s.spec.slice(1).split(/[?#]/)[0];
        const r2 = ts.resolveModuleName(bare, abs, options, host, cache, undefined, s.mode ?? ts.ModuleKind.ESNext);
        resolved = r2.resolvedModule?.resolvedFileName;
        if (resolved) s.kind = "query " + s.kind;
      }
    }
    if (!resolved && s.resolution) {
      // An export naming build output that is not here: the source it is built from.
      const source = s.resolution.failedLookupLocations?.map(mapWorkspace).map(sourceOfOutput).find(Boolean);
      if (source && add(source, "output→source " + s.kind, s.line, s.spec)) {
        stats.output_to_source++;
        continue;
      }
    }
    if (resolved) resolved = mapWorkspace(resolved);
    if (resolved && add(resolved, s.kind, s.line, s.spec)) {
      stats.resolved_internal++;
      continue;
    }
    if (!resolved && relative) {
      // Vite's default resolve.extensions add .mjs and .mts to what TS tries for an extensionless
      // specifier.
      const bare = path.resolve(path.dirname(abs), s.spec.split(/[?#]/)[0]);
      const hit = [".mjs", ".mts"].map((e) => bare + e).find((c) => fileSet.has(path.relative(root, c)));
      if (hit && add(hit, "bundler-extension " + s.kind, s.line, s.spec)) {
        stats.resolved_internal++;
        continue;
      }
    }
    if (s.spec.startsWith(".") || s.spec.startsWith("/")) {
      const bare = s.spec.split(/[?#]/)[0];
      const target = path.resolve(path.dirname(abs), bare);
      if (fileSet.has(path.relative(root, target)) && add(target, "asset " + s.kind, s.line, s.spec)) {
        stats.asset_edges++;
        continue;
      }
      if (!resolved && unresolvedRelative.length < 40) unresolvedRelative.push(`${rel}:${s.line} ${s.spec}`);
    } else if (!resolved) {
      const parts = s.spec.split("/");
      const name = s.spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
      if (workspace.has(name)) {
        unbuilt[name] = (unbuilt[name] ?? 0) + 1;
        if (unbuiltExamples.length < 40) unbuiltExamples.push(`${rel}:${s.line} ${s.spec}`);
      }
    }
    stats.external_or_unresolved++;
  }
  outFiles[rel] = {
    config: cfg ? path.relative(root, cfg.path) : null,
    deps: Object.fromEntries(
      Object.entries(deps)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([t, e]) => [
          t,
          { kinds: [...e.kinds].sort(), lines: [...e.lines].sort((a, b) => a - b), specs: [...e.specs].sort() },
        ]),
    ),
  };
}

process.stdout.write(
  JSON.stringify(
    {
      language: "js/ts",
      typescript: ts.version,
      files: outFiles,
      unparsed,
      workspace: Object.fromEntries([...workspace].map(([n, d]) => [n, path.relative(root, d) || "."])),
      stats,
      unbuilt_workspace_imports: unbuilt,
      unbuilt_examples: unbuiltExamples,
      unresolved_relative_examples: unresolvedRelative,
    },
    null,
    1,
  ) + "\n",
);
