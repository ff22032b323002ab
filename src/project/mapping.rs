//! Mapping strategies (seed §2, hybrid mirroring): how a file in scope is documented.
//!
//! - `full` — a design file of its own (the default for everything not matched below);
//! - `abridged` — a design file with the interface only, kept within `design_file_abridged_tokens`;
//! - `grouped` — no design file of its own: its directory's `.aindex` lists it and describes it;
//! - `skip` — listed in `.aindex`, no design file.
//!
//! `mapping.rules` in `.lexibrary/config.yaml` is a list of `{glob, strategy}`; globs are
//! gitignore-style patterns relative to the project root (`Cargo.lock` matches at any depth,
//! `vendor/` any directory so named, `tests/**/*.out`). The first rule that matches wins; the
//! project's rules come before the defaults ([`DEFAULT_RULES`]), so a default is overridden by a
//! rule for the same files (`{glob: "vendor/", strategy: full}`), and `mapping.defaults: false`
//! drops them all. The root `.gitattributes` adds `linguist-vendored` (skip) and
//! `linguist-generated` (abridged) patterns after the project's rules. A file whose first lines say
//! it is generated (`@generated`, "DO NOT EDIT") is abridged too (`source::is_generated_header`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use serde::{Deserialize, Serialize};

use crate::relpath::RelPath;

/// How a file is documented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    Full,
    Abridged,
    Grouped,
    Skip,
}

/// One `{glob, strategy}` rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MappingRule {
    /// A gitignore-style pattern relative to the project root.
    pub glob: String,
    pub strategy: Strategy,
}

/// The `mapping` section of the config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MappingConfig {
    /// The project's rules, tried first.
    pub rules: Vec<MappingRule>,
    /// Whether [`DEFAULT_RULES`] apply after the project's rules.
    pub defaults: bool,
}

impl Default for MappingConfig {
    fn default() -> Self {
        MappingConfig {
            rules: Vec::new(),
            defaults: true,
        }
    }
}

/// The built-in rules, tried after the project's: lockfiles, licence texts, vendored code,
/// snapshots and expected output, images, certificates, minified files and the agents' rule files
/// are skipped; test data — fixtures, testdata, test resources, samples in a test tree — is
/// grouped at any depth. Translations of `docs/en/` are skipped too ([`translations`]).
pub const DEFAULT_RULES: &[(&str, Strategy)] = &[
    ("Cargo.lock", Strategy::Skip),
    ("package-lock.json", Strategy::Skip),
    ("npm-shrinkwrap.json", Strategy::Skip),
    ("yarn.lock", Strategy::Skip),
    ("pnpm-lock.yaml", Strategy::Skip),
    ("bun.lock", Strategy::Skip),
    ("bun.lockb", Strategy::Skip),
    ("uv.lock", Strategy::Skip),
    ("poetry.lock", Strategy::Skip),
    ("Pipfile.lock", Strategy::Skip),
    ("pdm.lock", Strategy::Skip),
    ("Gemfile.lock", Strategy::Skip),
    ("composer.lock", Strategy::Skip),
    ("go.sum", Strategy::Skip),
    ("flake.lock", Strategy::Skip),
    ("mix.lock", Strategy::Skip),
    ("packages.lock.json", Strategy::Skip),
    // Any other lockfile (uv's `<script>.py.lock` beside a PEP 723 script).
    ("*.lock", Strategy::Skip),
    ("LICENSE", Strategy::Skip),
    ("LICENSE-*", Strategy::Skip),
    ("LICENSE.*", Strategy::Skip),
    ("LICENCE", Strategy::Skip),
    ("LICENCE.*", Strategy::Skip),
    ("COPYING", Strategy::Skip),
    ("COPYING.*", Strategy::Skip),
    ("UNLICENSE", Strategy::Skip),
    ("vendor/", Strategy::Skip),
    ("third_party/", Strategy::Skip),
    // Snapshots and expected output.
    ("*.snap", Strategy::Skip),
    ("*.snap.new", Strategy::Skip),
    ("__snapshots__/", Strategy::Skip),
    ("**/src/**/snapshots/", Strategy::Full),
    ("snapshots/", Strategy::Skip),
    ("*.stderr", Strategy::Skip),
    ("*.stdout", Strategy::Skip),
    ("**/tests/**/*.out", Strategy::Skip),
    ("**/test/**/*.out", Strategy::Skip),
    ("**/testdata/**/*.out", Strategy::Skip),
    // Images (the binary ones are listed only anyway), certificates and data dumps.
    ("*.svg", Strategy::Skip),
    ("*.crt", Strategy::Skip),
    ("*.cer", Strategy::Skip),
    ("*.csr", Strategy::Skip),
    ("*.srl", Strategy::Skip),
    ("*.der", Strategy::Skip),
    ("*.crl", Strategy::Skip),
    ("*.p7b", Strategy::Skip),
    ("*.pem", Strategy::Skip),
    ("*.p12", Strategy::Skip),
    ("*.pfx", Strategy::Skip),
    ("*.jks", Strategy::Skip),
    ("*.dat", Strategy::Skip),
    // Minified and bundled files (a long-lined file is skipped by its content too).
    ("*.min.js", Strategy::Skip),
    ("*.min.mjs", Strategy::Skip),
    ("*.min.css", Strategy::Skip),
    ("*.map", Strategy::Skip),
    // The agents' rule files at the root (`lexictl init` writes their Lexibrarian section).
    ("/AGENTS.md", Strategy::Skip),
    ("/CLAUDE.md", Strategy::Skip),
    // Test data, at any depth: one group design file per directory.
    ("fixtures/", Strategy::Grouped),
    ("__fixtures__/", Strategy::Grouped),
    ("testdata/", Strategy::Grouped),
    ("test-data/", Strategy::Grouped),
    ("test_data/", Strategy::Grouped),
    ("**/src/**/resources/", Strategy::Full),
    ("resources/", Strategy::Grouped),
    ("**/tests/**/samples/", Strategy::Grouped),
    ("**/test/**/samples/", Strategy::Grouped),
    ("**/__tests__/**/samples/", Strategy::Grouped),
    // Named variants in a test tree (`custom-elements-samples/`, `define-helper-fixtures/`); not
    // outside one, where `babel-helper-fixtures/` is a package of code.
    ("**/tests/**/*[-_]samples/", Strategy::Grouped),
    ("**/test/**/*[-_]samples/", Strategy::Grouped),
    ("**/__tests__/**/*[-_]samples/", Strategy::Grouped),
    ("**/tests/**/*[-_]fixtures/", Strategy::Grouped),
    ("**/test/**/*[-_]fixtures/", Strategy::Grouped),
    ("**/__tests__/**/*[-_]fixtures/", Strategy::Grouped),
    // Data a test tree reads: templates, static files and data directories of test apps.
    ("**/tests/**/templates/", Strategy::Grouped),
    ("**/test/**/templates/", Strategy::Grouped),
    ("**/tests/**/static/", Strategy::Grouped),
    ("**/test/**/static/", Strategy::Grouped),
    ("**/tests/**/data/", Strategy::Grouped),
    ("**/test/**/data/", Strategy::Grouped),
];

/// Directories whose language subdirectories may mirror an English original
/// (`docs/en/` → `docs/ja/`, `docs/zh-hant/`).
const TRANSLATED_PARENTS: &[&str] = &[
    "docs",
    "doc",
    "documentation",
    "i18n",
    "locales",
    "translations",
    "content",
    "website",
    "site",
];
/// Names of an English original among a directory's language subdirectories.
const ENGLISH: &[&str] = &["en", "en-us", "en_us", "en-gb", "en_gb"];
/// The two-letter language codes of ISO 639-1.
const LANGUAGES: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu";

/// Whether a directory name is a language tag: an ISO 639-1 code, alone or with a region or
/// script (`pt-br`, `zh_CN`, `zh-hant`).
fn is_language_tag(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let (code, rest) = match lower.split_once(['-', '_']) {
        Some((code, rest)) => (code, Some(rest)),
        None => (lower.as_str(), None),
    };
    let region_ok = rest
        .is_none_or(|r| (2..=4).contains(&r.len()) && r.chars().all(|c| c.is_ascii_alphanumeric()));
    code.len() == 2 && region_ok && LANGUAGES.split(' ').any(|known| known == code)
}

/// The translated documentation trees under `root`: in a directory of [`TRANSLATED_PARENTS`] (at
/// the root, or one or two levels down) that holds an English original (`en/`), every other
/// language subdirectory — `/docs/ja/`, `/docs/zh-hant/` — as an anchored pattern, sorted. Skipped
/// by default: the English original is documented, a mirror of it only repeats it in another
/// language.
pub fn translations(root: &Path) -> Vec<String> {
    let subdirs = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let mut candidates: Vec<String> = Vec::new();
    let mut level = vec![String::new()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for dir in &level {
            for name in subdirs(&root.join(dir)) {
                if name.starts_with('.') || matches!(name.as_str(), "node_modules" | "target") {
                    continue;
                }
                let rel = RelPath::new(dir).join(&name).into_string();
                if TRANSLATED_PARENTS.contains(&name.to_ascii_lowercase().as_str()) {
                    candidates.push(rel.clone());
                }
                next.push(rel);
            }
        }
        level = next;
    }
    let mut out = Vec::new();
    for parent in candidates {
        let children = subdirs(&root.join(&parent));
        let english = children
            .iter()
            .any(|c| ENGLISH.contains(&c.to_ascii_lowercase().as_str()));
        if !english {
            continue;
        }
        for child in children {
            if is_language_tag(&child) && !ENGLISH.contains(&child.to_ascii_lowercase().as_str()) {
                out.push(format!("/{parent}/{child}/"));
            }
        }
    }
    out.sort();
    out
}

/// Stems of the files of a data-driven test case (`input.js` beside `output.json` and
/// `options.json`; `expected.txt`, `stdout`): what a test runner feeds in and compares with.
const CASE_STEMS: &[&str] = &[
    "input", "output", "options", "expected", "actual", "exec", "stdout", "stderr", "error",
];
/// The fewest case directories that make a directory of them test data.
const MIN_CASE_DIRS: usize = 3;

/// Whether a file is part of a data-driven test case: a [`CASE_STEMS`] name, or a licence or
/// readme beside the cases (a test suite copied from another project carries one).
fn is_case_file(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    CASE_STEMS.contains(&stem.as_str())
        || ["license", "licence", "readme", "copying"]
            .iter()
            .any(|note| stem.starts_with(note))
}

/// The case trees among `files` (project-relative paths): below a test directory
/// (`source::lang::files::TEST_DIRS`), the outermost directories that hold nothing but
/// data-driven test cases — every file below them a case file ([`is_case_file`]), in at least
/// [`MIN_CASE_DIRS`] directories — as anchored patterns (`/packages/parser/test/expressions/`),
/// sorted. `lexictl init` writes them into the configuration as `grouped` rules, where a user sees
/// and may change them: a parser's hundreds of `input.js`/`output.json` pairs are test data, however
/// their directories are named.
pub fn case_trees<'a>(files: impl Iterator<Item = &'a str>) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    // Per directory below a test directory: whether every file below it is a case file, and the
    // directories holding its case files.
    let mut all_cases: BTreeMap<String, bool> = BTreeMap::new();
    let mut case_dirs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let parts: Vec<&str> = file.split('/').collect();
        let Some((name, dirs)) = parts.split_last() else {
            continue;
        };
        let Some(test) = dirs
            .iter()
            .position(|dir| crate::source::lang::files::TEST_DIRS.contains(dir))
        else {
            continue;
        };
        let case = is_case_file(name);
        let parent = dirs.join("/");
        for depth in test + 2..=dirs.len() {
            let dir = dirs[..depth].join("/");
            let all = all_cases.entry(dir.clone()).or_insert(true);
            *all &= case;
            if case {
                case_dirs.entry(dir).or_default().insert(parent.clone());
            }
        }
    }
    let is_tree = |dir: &str| {
        all_cases.get(dir).copied().unwrap_or(false)
            && case_dirs
                .get(dir)
                .is_some_and(|held| held.len() >= MIN_CASE_DIRS)
    };
    let mut trees: Vec<String> = all_cases
        .keys()
        .filter(|dir| is_tree(dir))
        .filter(|dir| {
            !RelPath::new(dir)
                .parent()
                .is_some_and(|up| is_tree(up.as_str()))
        })
        .map(|dir| format!("/{dir}/"))
        .collect();
    trees.sort();
    trees
}

/// The compiled rules of a project, in order.
#[derive(Clone, Debug)]
pub struct Mapping {
    rules: Vec<(Gitignore, Strategy)>,
    /// Where the `linguist-generated` rules of `.gitattributes` begin and end in `rules`: they say
    /// a file is generated, which makes a `full` file `abridged` but never documents what a later
    /// rule (a default) skips or groups — generated test data is still test data.
    generated: std::ops::Range<usize>,
    /// The patterns as written, for equality and error messages.
    written: Vec<(String, Strategy)>,
    /// Per directory, how each rule matches it or the nearest directory above it that a rule
    /// matches: a file then asks each rule about itself only, never walks its parents again
    /// (20,000 files under a few hundred directories).
    dirs: DirMatches,
    /// Every rule's pattern in one matcher: a path none of them matches (most) is answered with
    /// one lookup instead of one per rule.
    any: Gitignore,
}

/// How each rule matched a directory or its parents ([`Verdict`] per rule, in rule order).
type DirMatches = std::sync::Arc<RwLock<HashMap<String, Arc<[Verdict]>>>>;

/// A rule's answer for a path: gitignore's `Match` without the glob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    None,
    Ignore,
    Whitelist,
}

impl<T> From<Match<T>> for Verdict {
    fn from(found: Match<T>) -> Verdict {
        match found {
            Match::None => Verdict::None,
            Match::Ignore(_) => Verdict::Ignore,
            Match::Whitelist(_) => Verdict::Whitelist,
        }
    }
}

impl PartialEq for Mapping {
    fn eq(&self, other: &Mapping) -> bool {
        self.written == other.written
    }
}

impl Eq for Mapping {}

impl Default for Mapping {
    /// No rule: every file is documented in full.
    fn default() -> Mapping {
        Mapping {
            rules: Vec::new(),
            generated: 0..0,
            written: Vec::new(),
            dirs: DirMatches::default(),
            any: Gitignore::empty(),
        }
    }
}

impl Mapping {
    /// Compile the project's rules, the `.gitattributes` patterns under `root` and the defaults.
    /// A pattern that does not compile is an error naming it.
    pub fn new(config: &MappingConfig, root: &Path) -> Result<Mapping, String> {
        let mut written: Vec<(String, Strategy)> = config
            .rules
            .iter()
            .map(|rule| (rule.glob.clone(), rule.strategy))
            .collect();
        let attributes = gitattributes(root);
        let generated_start = written.len();
        written.extend(
            attributes
                .iter()
                .filter(|(_, strategy)| *strategy == Strategy::Abridged)
                .cloned(),
        );
        let generated = generated_start..written.len();
        written.extend(
            attributes
                .into_iter()
                .filter(|(_, strategy)| *strategy != Strategy::Abridged),
        );
        if config.defaults {
            written.extend(
                DEFAULT_RULES
                    .iter()
                    .map(|(glob, strategy)| (glob.to_string(), *strategy)),
            );
            written.extend(
                translations(root)
                    .into_iter()
                    .map(|glob| (glob, Strategy::Skip)),
            );
        }
        let mut rules = Vec::new();
        let mut any = GitignoreBuilder::new("");
        for (glob, strategy) in &written {
            // Compiled below, one by one, where a bad pattern is reported.
            let _ = any.add_line(None, glob);
            let mut builder = GitignoreBuilder::new("");
            builder
                .add_line(None, glob)
                .map_err(|err| format!("mapping glob `{glob}`: {err}"))?;
            let matcher = builder
                .build()
                .map_err(|err| format!("mapping glob `{glob}`: {err}"))?;
            rules.push((matcher, *strategy));
        }
        let any = any.build().map_err(|err| format!("mapping globs: {err}"))?;
        Ok(Mapping {
            rules,
            generated,
            written,
            dirs: DirMatches::default(),
            any,
        })
    }

    /// The strategy of a project-relative file: the first rule that matches it or a directory
    /// above it, else `full`.
    pub fn strategy(&self, rel: &str) -> Strategy {
        if self.rules.is_empty() {
            return Strategy::Full;
        }
        let parent = RelPath::new(rel).parent().map(RelPath::as_str);
        let above = parent.map(|dir| self.dir_verdicts(dir));
        let matched_at_all = !self.any.matched(rel, false).is_none();
        let verdict = |i: usize, matcher: &Gitignore| {
            let here = match matched_at_all {
                true => Verdict::from(matcher.matched(rel, false)),
                false => Verdict::None,
            };
            match here {
                Verdict::None => above.as_ref().map_or(Verdict::None, |above| above[i]),
                found => found,
            }
        };
        self.first_match(|i| verdict(i, &self.rules[i].0) == Verdict::Ignore)
    }

    /// The strategy rules give directory `dir` as a whole (`""`: the root): the first rule that
    /// matches it or a directory above it, else `full`. A grouped directory's files are grouped
    /// (bar a rule for some of them by name).
    pub fn dir_strategy(&self, dir: &str) -> Strategy {
        if self.rules.is_empty() || dir.is_empty() {
            return Strategy::Full;
        }
        let verdicts = self.dir_verdicts(dir);
        self.first_match(|i| verdicts[i] == Verdict::Ignore)
    }

    /// The strategy of the first rule `matches` (by index), else `full`; a `linguist-generated`
    /// rule's `abridged` gives way to a later rule's `skip` or `grouped`.
    fn first_match(&self, matches: impl Fn(usize) -> bool) -> Strategy {
        let Some(first) = (0..self.rules.len()).find(|&i| matches(i)) else {
            return Strategy::Full;
        };
        let strategy = self.rules[first].1;
        if !self.generated.contains(&first) {
            return strategy;
        }
        let after = self.generated.end.max(first + 1);
        match (after..self.rules.len()).find(|&i| matches(i)) {
            Some(later) if matches!(self.rules[later].1, Strategy::Skip | Strategy::Grouped) => {
                self.rules[later].1
            }
            _ => strategy,
        }
    }

    /// Each rule's verdict for directory `dir` or, when it says nothing, for the nearest directory
    /// above that it matches — what `matched_path_or_any_parents` finds — computed once per directory.
    fn dir_verdicts(&self, dir: &str) -> Arc<[Verdict]> {
        if let Some(found) = self
            .dirs
            .read()
            .ok()
            .and_then(|dirs| dirs.get(dir).cloned())
        {
            return found;
        }
        let above = RelPath::new(dir)
            .parent()
            .map(|parent| self.dir_verdicts(parent.as_str()));
        let verdicts: Arc<[Verdict]> = self
            .rules
            .iter()
            .enumerate()
            .map(
                |(i, (matcher, _))| match Verdict::from(matcher.matched(dir, true)) {
                    Verdict::None => above.as_ref().map_or(Verdict::None, |above| above[i]),
                    found => found,
                },
            )
            .collect();
        if let Ok(mut dirs) = self.dirs.write() {
            dirs.insert(dir.to_string(), verdicts.clone());
        }
        verdicts
    }
}

/// `linguist-vendored` (skip) and `linguist-generated` (abridged) patterns of the root
/// `.gitattributes`, in file order.
fn gitattributes(root: &Path) -> Vec<(String, Strategy)> {
    let Ok(text) = std::fs::read_to_string(root.join(".gitattributes")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let Some(pattern) = words.next() else {
            continue;
        };
        for attribute in words {
            let strategy = match attribute {
                "linguist-vendored" | "linguist-vendored=true" => Strategy::Skip,
                "linguist-generated" | "linguist-generated=true" => Strategy::Abridged,
                _ => continue,
            };
            out.push((pattern.to_string(), strategy));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapping(rules: &[(&str, Strategy)]) -> Mapping {
        let config = MappingConfig {
            rules: rules
                .iter()
                .map(|(glob, strategy)| MappingRule {
                    glob: glob.to_string(),
                    strategy: *strategy,
                })
                .collect(),
            defaults: true,
        };
        Mapping::new(&config, Path::new("/nonexistent")).expect("compiles")
    }

    /// The per-directory cache answers what asking each rule about the path and every parent does.
    #[test]
    fn cached_directory_verdicts_match_walking_every_parent() {
        let m = mapping(&[
            ("keep/vendor/", Strategy::Full),
            ("!tests/fixtures/special.json", Strategy::Skip),
            ("docs/**/*.md", Strategy::Abridged),
        ]);
        let reference = |rel: &str| {
            m.rules
                .iter()
                .find(|(matcher, _)| matcher.matched_path_or_any_parents(rel, false).is_ignore())
                .map_or(Strategy::Full, |(_, strategy)| *strategy)
        };
        let dirs = [
            "",
            "src",
            "vendor",
            "keep/vendor",
            "tests/fixtures",
            "a/__snapshots__",
            "docs/x/y",
            "tests/fixtures/deep/er",
        ];
        let names = [
            "a.rs",
            "Cargo.lock",
            "x.snap",
            "special.json",
            "b.md",
            "c.out",
            "package-lock.json",
        ];
        for dir in dirs {
            for name in names {
                let rel = RelPath::new(dir).join(name).into_string();
                // Twice: the second answer comes from the cache.
                assert_eq!(m.strategy(&rel), reference(&rel), "{rel}");
                assert_eq!(m.strategy(&rel), reference(&rel), "{rel}");
            }
        }
    }

    #[test]
    fn defaults_skip_lockfiles_snapshots_and_vendored_code_and_group_fixtures() {
        let m = mapping(&[]);
        for rel in [
            "Cargo.lock",
            "web/package-lock.json",
            "vendor/x/y.go",
            "src/third_party/z.c",
            "tests/snapshots/it__a.snap",
            "src/__snapshots__/b.test.ts.snap",
            "tests/cases/x.out",
            "LICENSE-MIT",
            "crates/ignore/COPYING",
            "UNLICENSE",
        ] {
            assert_eq!(m.strategy(rel), Strategy::Skip, "{rel}");
        }
        for rel in [
            "tests/fixtures/a.rs",
            "fixtures/projects/x/y.py",
            "pkg/testdata/in.txt",
        ] {
            assert_eq!(m.strategy(rel), Strategy::Grouped, "{rel}");
        }
        for rel in ["src/lock.rs", "src/snap.rs", "src/main.out.rs", "docs/out"] {
            assert_eq!(m.strategy(rel), Strategy::Full, "{rel}");
        }
    }

    /// Test data is grouped at any depth, expected output, certificates, images, minified files
    /// and the agents' rule files are skipped (svelte's `packages/*/tests/*/samples/**`, ruff's
    /// `crates/*/resources/**`, `tests/certs/*.crt`).
    #[test]
    fn noise_is_grouped_or_skipped_at_any_depth() {
        let m = mapping(&[]);
        for rel in [
            "packages/svelte/tests/runtime/samples/a/_config.js",
            "packages/svelte/tests/runtime/samples/a/main.svelte",
            "crates/ruff_linter/resources/test/fixtures/F401.py",
            "crates/ruff_python_parser/resources/valid/expr.py",
            "crates/x/tests/fixtures/deep/a.rs",
            "lib/test-data/in.json",
            "tests/templates/mail.txt",
            "tests/test_apps/blueprintapp/apps/admin/static/test.txt",
            "tests/static/index.html",
            "tests/data/sherlock-nul.txt",
            "packages/svelte/tests/runtime-browser/custom-elements-samples/a/main.svelte",
            "packages/babel-helpers/test/define-helper-fixtures/a/input.js",
            "packages/x/test/regenerator_fixtures/b.js",
        ] {
            assert_eq!(m.strategy(rel), Strategy::Grouped, "{rel}");
        }
        for rel in [
            "tests/certs/server.crt",
            "tests/certs/server.csr",
            "tests/certs/ca.srl",
            "tests/certs/chain.pem",
            "docs/img/sponsor.svg",
            "tests-build/tests/fail/macros.stderr",
            "crates/a/tests/cases/x.out",
            "dist/app.min.js",
            "AGENTS.md",
            "CLAUDE.md",
            "clap_complete_nushell/tests/snapshots/basic.nu",
            "examples/snapshots/pacman.txt",
        ] {
            assert_eq!(m.strategy(rel), Strategy::Skip, "{rel}");
        }
        for rel in [
            "crates/x/src/resources/mod.rs",
            "crates/x/src/snapshots/mod.rs",
            "src/samples.rs",
            "docs/AGENTS.md",
            "samples/hello.rs",
            "packages/babel-helper-fixtures/src/index.ts",
            "tests/test-samples.rs",
        ] {
            assert_eq!(m.strategy(rel), Strategy::Full, "{rel}");
        }
    }

    /// `docs/<lang>/` mirrors of `docs/en/` are skipped; a directory of other names is not.
    #[test]
    fn translations_of_english_docs_are_skipped() {
        let dir = tempfile::tempdir().expect("tempdir");
        for sub in [
            "docs/en/docs",
            "docs/ja/docs",
            "docs/zh-hant/docs",
            "docs/pt-BR",
            "docs/img",
            "website/i18n/fr",
            "guide/de",
        ] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        assert_eq!(
            translations(dir.path()),
            ["/docs/ja/", "/docs/pt-BR/", "/docs/zh-hant/"]
        );
        let m = Mapping::new(&MappingConfig::default(), dir.path()).expect("compiles");
        assert_eq!(m.strategy("docs/ja/docs/index.md"), Strategy::Skip);
        assert_eq!(m.strategy("docs/en/docs/index.md"), Strategy::Full);
        assert_eq!(m.strategy("docs/img/logo.png"), Strategy::Full);
        assert!(is_language_tag("zh_CN") && !is_language_tag("img") && !is_language_tag("api"));
    }

    #[test]
    fn project_rules_come_first_and_defaults_can_be_dropped() {
        let m = mapping(&[("vendor/", Strategy::Full), ("gen/", Strategy::Abridged)]);
        assert_eq!(m.strategy("vendor/a.js"), Strategy::Full);
        assert_eq!(m.strategy("gen/api.ts"), Strategy::Abridged);
        let none = Mapping::new(
            &MappingConfig {
                rules: Vec::new(),
                defaults: false,
            },
            Path::new("/nonexistent"),
        )
        .expect("compiles");
        assert_eq!(none.strategy("Cargo.lock"), Strategy::Full);
    }

    #[test]
    fn gitattributes_mark_vendored_and_generated_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join(".gitattributes"),
            "# comment\nweb/dist/** linguist-vendored\n*.pb.go linguist-generated=true\n*.rs text\ncrates/p/resources/inline linguist-generated=true\n",
        )
        .expect("write");
        let m = Mapping::new(&MappingConfig::default(), dir.path()).expect("compiles");
        assert_eq!(m.strategy("web/dist/app.js"), Strategy::Skip);
        assert_eq!(m.strategy("api/x.pb.go"), Strategy::Abridged);
        assert_eq!(m.strategy("src/a.rs"), Strategy::Full);
        // Generated test data is still test data: grouped, its directory a group root's.
        assert_eq!(
            m.strategy("crates/p/resources/inline/ok/a.py"),
            Strategy::Grouped
        );
        assert_eq!(
            m.dir_strategy("crates/p/resources/inline"),
            Strategy::Grouped
        );
        assert_eq!(m.strategy("tools/gen.py.lock"), Strategy::Skip);
    }

    /// A parser's expression tests (babel's `test/expressions/<suite>/<case>/input.js`) are one
    /// case tree; a test directory that also holds code, a case tree inside an already grouped
    /// directory's parent, and two case directories are not.
    #[test]
    fn directories_of_data_driven_test_cases_are_case_trees() {
        let files = [
            "packages/parser/test/index.js",
            "packages/parser/test/expressions/esprima/binary/0001/input.js",
            "packages/parser/test/expressions/esprima/binary/0001/output.json",
            "packages/parser/test/expressions/esprima/binary/0002/input.js",
            "packages/parser/test/expressions/esprima/binary/0002/output.json",
            "packages/parser/test/expressions/esprima/LICENSE",
            "packages/parser/test/expressions/es2022/0001/input.js",
            "packages/parser/test/expressions/es2022/0001/options.json",
            "tests/cli/basic/input.txt",
            "tests/cli/basic/expected.txt",
            "tests/cli/other/input.txt",
            "tests/cli/test_cli.py",
            "tests/two/a/input.txt",
            "tests/two/b/input.txt",
            "src/input.rs",
        ];
        assert_eq!(
            case_trees(files.into_iter()),
            ["/packages/parser/test/expressions/"]
        );
    }
}
