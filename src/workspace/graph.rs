//! The project's whole dependency graph and every code file's public names, as the last
//! `lexictl update` resolved them. They come from the stat/hash cache ([`super::cache`]), which keeps
//! the resolved dependencies and the public item names of every file in scope, whole and sorted.
//!
//! Design files hold the same lists only within `token_budgets.design_file_tokens` (a capped list
//! ends `… and N more`); `lexi impact` and `lexi lookup` read the graph here instead. It is as
//! current as the last update, like the library. A clone that never ran `lexictl update` (or whose
//! cache is unreadable or from another format) has no graph: [`Graph::load`] says `None` and the
//! readers fall back to the design files.
//!
//! Parsing the whole cache costs tens of milliseconds at 20,000 files, too much for every
//! `lexi lookup`; so the graph is kept beside the cache as a derived file (`graph`): one line per
//! file, sorted, holding its dependencies, its importers, its type-only dependencies, its public
//! names, its external packages and its members' calls, under a header naming the cache's stamp
//! ([`super::cache::stamp`]). A reader whose stamp matches reads that file and finds the lines it
//! needs by binary search, parsing nothing else; otherwise it builds the graph from the cache and
//! writes the file again.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::source::calls::{Callee, MemberCalls};
use std::sync::{Arc, Mutex, OnceLock};

use super::cache::{self, Cache, UNKNOWN_STAMP};
use crate::tsv::{parse_list, push_escaped, push_list, split_bytes, unescape};

/// The derived file's first line starts with this, then a tab and the cache's stamp.
const FORMAT: &str = "lexibrarian-graph v4";
/// Its name, beside the cache.
const FILE_NAME: &str = "graph";

/// The dependency graph of the last update.
#[derive(Debug, Default)]
pub struct Graph {
    /// The derived file's text: a header line, then one line per file sorted by escaped path.
    text: String,
    /// Where the first file's line starts.
    body: usize,
    /// Where each file's line starts and ends (from `body` on), built on the first row asked
    /// for: a binary search over the text itself scanned the long lines it landed in (a row's
    /// calls) again on every step.
    lines: OnceLock<Vec<(usize, usize)>>,
    /// The rows found so far, by path: `lexi lookup` and `lexi impact` ask for the same files
    /// again and again (every importer's importers, each one's type-only list). A row is only
    /// located; each list is parsed when asked for (parsing whole lines, calls included, was most
    /// of a lookup of a central file).
    located: Mutex<HashMap<String, Option<Arc<Located>>>>,
    /// Tells this graph from any other this process loaded (what is derived from it is kept under
    /// it, `workspace::calls`).
    id: u64,
}

/// Where one file's lists are in the text, and those parsed so far.
#[derive(Debug)]
struct Located {
    /// The last update saw the file (not only an import of it).
    known: bool,
    /// The byte ranges of its lists, in [`Field`] order.
    fields: [std::ops::Range<usize>; FIELDS],
    /// Each list, once parsed.
    lists: [OnceLock<Vec<String>>; FIELDS],
    /// Its members' calls, once decoded ([`Graph::member_calls`]).
    members: OnceLock<Arc<Vec<MemberCalls>>>,
}

/// The lists of a row, in the order the derived file holds them.
#[derive(Clone, Copy, Debug)]
enum Field {
    Dependencies,
    Dependents,
    TypeOnly,
    Symbols,
    Externals,
    Calls,
}

/// How many lists a row holds.
const FIELDS: usize = 6;

/// What the graph knows of one file, as [`render`] writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Row {
    /// The last update saw the file (not only an import of it).
    known: bool,
    dependencies: Vec<String>,
    dependents: Vec<String>,
    type_only: Vec<String>,
    symbols: Vec<String>,
    externals: Vec<String>,
    /// Each member's calls, as the cache records them (`cache::Entry::calls`).
    calls: Vec<String>,
}

impl Graph {
    /// The graph of the cache at `cache_path` (`StateDir::cache_path`); `None` when there is no
    /// cache, or it is unreadable, corrupt, of another format or empty.
    pub fn load(cache_path: &Path) -> Option<Graph> {
        Graph::load_stamped(cache_path, &cache::stamp(cache_path))
    }

    /// [`Graph::load`] with the cache's stamp already read.
    fn load_stamped(cache_path: &Path, stamp: &str) -> Option<Graph> {
        let derived = cache_path.with_file_name(FILE_NAME);
        if let Some(graph) = read(&derived, stamp) {
            return Some(graph);
        }
        let (cache, warning) = Cache::load(cache_path);
        if warning.is_some() || cache.entries.is_empty() {
            return None;
        }
        let text = render(&cache, stamp);
        if stamp != UNKNOWN_STAMP {
            // Best effort: a read-only state directory only costs the next reader this build.
            let _ = crate::atomic::write(&derived, text.as_bytes());
        }
        Some(Graph::from_text(text))
    }

    /// The graph of the cache at `cache_path`, shared within the process while the cache's stamp
    /// holds: a long-lived reader (the MCP server) keeps the rows it parsed (and what is derived
    /// from them, `workspace::calls`) from one call to the next, and sees an update at once — it
    /// changes the stamp. A process that asks once pays what [`Graph::load`] does.
    pub fn shared(cache_path: &Path) -> Option<Arc<Graph>> {
        type Kept = Option<(std::path::PathBuf, String, Option<Arc<Graph>>)>;
        static KEPT: Mutex<Kept> = Mutex::new(None);
        let stamp = cache::stamp(cache_path);
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((path, kept_stamp, graph)) = kept.as_ref() {
            if path == cache_path && *kept_stamp == stamp && stamp != UNKNOWN_STAMP {
                return graph.clone();
            }
        }
        let graph = Graph::load_stamped(cache_path, &stamp).map(Arc::new);
        *kept = Some((cache_path.to_path_buf(), stamp, graph.clone()));
        graph
    }

    /// The graph of a loaded cache.
    pub fn from_cache(cache: Cache) -> Graph {
        Graph::from_text(render(&cache, UNKNOWN_STAMP))
    }

    fn from_text(text: String) -> Graph {
        let body = text.find('\n').map_or(text.len(), |end| end + 1);
        static LOADED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Graph {
            text,
            body,
            lines: OnceLock::new(),
            located: Mutex::default(),
            id: LOADED.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// What tells this graph from any other the process loaded.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Whether the last update saw `file` (only then are its lists here the whole truth).
    pub fn knows(&self, file: &str) -> bool {
        self.row(file).is_some_and(|row| row.known)
    }

    /// The project files `file` imports, sorted.
    pub fn dependencies(&self, file: &str) -> Vec<String> {
        self.list(file, Field::Dependencies)
    }

    /// The files that import `file`, sorted.
    pub fn dependents(&self, file: &str) -> Vec<String> {
        self.list(file, Field::Dependents)
    }

    /// The project files `file` imports only for the type checker (Python `if TYPE_CHECKING:`),
    /// sorted.
    pub fn type_only_dependencies(&self, file: &str) -> Vec<String> {
        self.list(file, Field::TypeOnly)
    }

    /// Whether `importer` imports `file` only for the type checker: a change to `file` does not
    /// reach `importer` at run time.
    pub fn is_type_only(&self, importer: &str, file: &str) -> bool {
        self.type_only_dependencies(importer)
            .binary_search_by(|dep| dep.as_str().cmp(file))
            .is_ok()
    }

    /// The test files among the dependents of `file` (as the Archivist's `## Tests` lists them).
    pub fn tests(&self, file: &str) -> Vec<String> {
        let mut dependents = self.dependents(file);
        dependents.retain(|path| crate::archivist::is_listed_test(path));
        dependents
    }

    /// The external packages code file `file` imports, sorted (empty when unknown).
    pub fn externals(&self, file: &str) -> Vec<String> {
        self.list(file, Field::Externals)
    }

    /// The public item names of code file `file`, sorted.
    pub fn symbols(&self, file: &str) -> Vec<String> {
        self.list(file, Field::Symbols)
    }

    /// What each member of code file `file` calls, in source order (`cache::Entry::calls`).
    pub fn calls(&self, file: &str) -> Vec<String> {
        self.list(file, Field::Calls)
    }

    /// The calls of code file `file`'s members, decoded once per graph (the items that are no
    /// member's — types, bases, returns, re-exports — left out): a member's lookup asks for the
    /// same importers' calls from several of its sections, and a long-lived reader on every call.
    pub fn member_calls(&self, file: &str) -> Arc<Vec<MemberCalls>> {
        let Some(row) = self.row(file) else {
            return Arc::default();
        };
        row.members
            .get_or_init(|| {
                let decode = |items: &[String]| {
                    let members = items.iter().filter_map(|item| MemberCalls::decode(item));
                    Arc::new(members.collect())
                };
                // The raw items are kept only when something asked for them.
                let at = Field::Calls as usize;
                match row.lists[at].get() {
                    Some(items) => decode(items),
                    None => decode(&parse_list(&self.text[row.fields[at].clone()])),
                }
            })
            .clone()
    }

    /// One of `file`'s lists (empty when the graph has no row for it).
    fn list(&self, file: &str, field: Field) -> Vec<String> {
        self.row(file)
            .map(|row| self.parsed(&row, field).clone())
            .unwrap_or_default()
    }

    /// `row`'s list `field`, parsed once.
    fn parsed<'a>(&self, row: &'a Located, field: Field) -> &'a Vec<String> {
        let at = field as usize;
        row.lists[at].get_or_init(|| parse_list(&self.text[row.fields[at].clone()]))
    }

    /// The members named `name` (their label's last segment: `StandardImpl.write_binary_message`
    /// for `write_binary_message`) among those whose calls the last update recorded — private ones
    /// too, which no file's public names hold — as `(file, label)`, in path order. Only the rows
    /// whose text holds the name are read.
    pub fn members_named(&self, name: &str) -> Vec<(String, String)> {
        let mut found = Vec::new();
        for line in self.text[self.body..]
            .lines()
            .filter(|line| line.contains(name))
        {
            let Some((_, fields)) = split_row(line) else {
                continue;
            };
            let file = unescape(line.split('\t').next().unwrap_or_default());
            for item in &parse_list(fields[Field::Calls as usize]) {
                let Some(member) = crate::source::calls::MemberCalls::decode(item) else {
                    continue;
                };
                if member.member.rsplit(['.', ':']).next() == Some(name) {
                    found.push((file.clone(), member.member));
                }
            }
        }
        found
    }

    /// The files whose test functions call through a stated type among `types`
    /// (`.test:SearcherTester` of `SearcherTester::new(…).test()` in a `#[test]`), per type, for
    /// the types no file but `declarer` has among its names: such a call is `declarer`'s whatever
    /// the imports say (a `#[cfg(test)]` module's helper, which the graph's edges leave out). Only
    /// test functions: a code file's `Builder` may be an external type of that name it imports
    /// (`std::thread::Builder`), which no row tells. One pass over the rows holding one of the
    /// names.
    pub fn typed_callers(&self, types: &[&str], declarer: &str) -> BTreeMap<String, Vec<String>> {
        let mut callers: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if types.is_empty() {
            return callers;
        }
        let mut declared_elsewhere: BTreeSet<&str> = BTreeSet::new();
        for line in self.text[self.body..].lines() {
            let held: Vec<&str> = types
                .iter()
                .copied()
                .filter(|ty| line.contains(ty))
                .collect();
            if held.is_empty() {
                continue;
            }
            let Some((_, fields)) = split_row(line) else {
                continue;
            };
            let file = unescape(line.split('\t').next().unwrap_or_default());
            let symbols = parse_list(fields[Field::Symbols as usize]);
            let calls = parse_list(fields[Field::Calls as usize]);
            for ty in held {
                if file != declarer && symbols.iter().any(|symbol| symbol == ty) {
                    declared_elsewhere.insert(ty);
                }
                let calls_through = calls
                    .iter()
                    .filter_map(|item| MemberCalls::decode(item))
                    .filter(|member| member.test)
                    .flat_map(|member| member.callees)
                    .any(|callee| matches!(callee, Callee::TypedReceiver { ty: through, .. } if through == ty));
                if calls_through && file != declarer {
                    callers
                        .entry(ty.to_string())
                        .or_default()
                        .push(file.clone());
                }
            }
        }
        callers.retain(|ty, _| !declared_elsewhere.contains(ty.as_str()));
        callers
    }

    /// `file`'s row: found once ([`Self::find`]), then from memory.
    fn row(&self, file: &str) -> Option<Arc<Located>> {
        let mut located = self
            .located
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(row) = located.get(file) {
            return row.clone();
        }
        let row = self.find(file).map(Arc::new);
        located.insert(file.to_string(), row.clone());
        row
    }

    /// `file`'s line, found by binary search over the sorted lines.
    fn find(&self, file: &str) -> Option<Located> {
        let mut key = String::with_capacity(file.len());
        push_escaped(&mut key, file);
        let lines = self.lines.get_or_init(|| line_spans(&self.text, self.body));
        let path_of = |&(start, end): &(usize, usize)| {
            let line = &self.text[start..end];
            line.split('\t').next().unwrap_or_default()
        };
        let at = lines
            .binary_search_by(|span| path_of(span).cmp(key.as_str()))
            .ok()?;
        let (start, end) = lines[at];
        locate(&self.text, start, end)
    }
}

/// Where each line of `text` after `body` starts and ends (its line break left out).
fn line_spans(text: &str, body: usize) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = body;
    for end in memchr::memchr_iter(b'\n', &text.as_bytes()[body..]) {
        spans.push((start, body + end));
        start = body + end + 1;
    }
    if start < text.len() {
        spans.push((start, text.len()));
    }
    spans
}

/// The row of the line `text[start..end]`; `None` when it is damaged.
fn locate(text: &str, start: usize, end: usize) -> Option<Located> {
    let line = &text[start..end];
    let (known, fields) = split_row(line)?;
    let range = |field: &str| {
        let offset = field.as_ptr() as usize - text.as_ptr() as usize;
        offset..offset + field.len()
    };
    Some(Located {
        known,
        fields: fields.map(range),
        lists: Default::default(),
        members: OnceLock::new(),
    })
}

/// The derived file at `path` when it was built from the cache with `stamp`.
fn read(path: &Path, stamp: &str) -> Option<Graph> {
    if stamp == UNKNOWN_STAMP {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let header = text.split('\n').next()?;
    (header.split_once('\t') == Some((FORMAT, stamp))).then(|| Graph::from_text(text))
}

/// The derived file's text for `cache`: every file it knows or that one of them imports.
fn render(cache: &Cache, stamp: &str) -> String {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut returns = super::chains::Returns::default();
    for entry in cache.entries.values() {
        returns.add_file(&entry.details.get().calls);
    }
    for (file, entry) in &cache.entries {
        for dependency in entry.deps.iter().filter(|dependency| *dependency != file) {
            let importers = &mut rows.entry(escaped(dependency)).or_default().dependents;
            // Entries come in path order: the importers stay sorted.
            if importers.last() != Some(file) {
                importers.push(file.clone());
            }
        }
        let row = rows.entry(escaped(file)).or_default();
        row.known = true;
        row.dependencies = entry.deps.clone();
        let details = entry.details.get();
        row.type_only = details.type_deps.clone();
        row.symbols = details.symbols.clone();
        row.externals = details.externals.clone();
        // Calls through chains of calls, typed now that every file's return types are known.
        row.calls = details
            .calls
            .iter()
            .map(|item| returns.typed_item(item).unwrap_or_else(|| item.clone()))
            .collect();
    }
    let mut out = format!("{FORMAT}\t{stamp}\n");
    for (path, row) in &rows {
        out.push_str(path);
        out.push_str(if row.known { "\tk" } else { "\t-" });
        for list in [
            &row.dependencies,
            &row.dependents,
            &row.type_only,
            &row.symbols,
            &row.externals,
            &row.calls,
        ] {
            out.push('\t');
            push_list(&mut out, list);
        }
        out.push('\n');
    }
    out
}

fn escaped(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    push_escaped(&mut out, path);
    out
}

/// One line of the derived file: whether the update saw the file, and its lists' texts in
/// [`Field`] order; `None` when it is damaged.
fn split_row(line: &str) -> Option<(bool, [&str; FIELDS])> {
    let mut fields = split_bytes(line, b'\t').skip(1);
    let known = fields.next()? == "k";
    let mut lists = [""; FIELDS];
    for list in &mut lists {
        *list = fields.next()?;
    }
    Some((known, lists))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::cache::{Details, Entry};

    fn entry(deps: &[&str], symbols: &[&str]) -> Entry {
        let details = Details {
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            ..Details::default()
        };
        Entry {
            details: details.into(),
            ..Entry::with_deps(deps)
        }
    }

    #[test]
    fn dependents_are_the_reverse_of_dependencies() {
        let mut cache = Cache::default();
        cache
            .entries
            .insert("src/b.rs".into(), entry(&["src/a.rs"], &[]));
        cache.entries.insert(
            "src/a.rs".into(),
            Entry {
                details: Details {
                    type_deps: vec!["src/c.rs".into()],
                    symbols: vec!["parse".into()],
                    ..Details::default()
                }
                .into(),
                ..entry(&["src/a.rs", "src/c.rs"], &[])
            },
        );
        cache
            .entries
            .insert("tests/a_test.rs".into(), entry(&["src/a.rs"], &[]));
        cache.entries.insert("src/c.rs".into(), entry(&[], &[]));
        let graph = Graph::from_cache(cache);
        assert_eq!(
            graph.dependents("src/a.rs"),
            ["src/b.rs", "tests/a_test.rs"]
        );
        assert_eq!(graph.dependents("src/c.rs"), ["src/a.rs"]);
        assert_eq!(graph.dependencies("src/a.rs"), ["src/a.rs", "src/c.rs"]);
        assert_eq!(graph.tests("src/a.rs"), ["tests/a_test.rs"]);
        assert_eq!(graph.symbols("src/a.rs"), ["parse"]);
        assert!(graph.is_type_only("src/a.rs", "src/c.rs"));
        assert!(!graph.is_type_only("src/b.rs", "src/a.rs"));
        assert_eq!(graph.type_only_dependencies("src/a.rs"), ["src/c.rs"]);
        assert!(graph.knows("src/c.rs") && !graph.knows("src/d.rs"));
    }

    /// Rows are found by their path through the line index wherever they sit (first, last, a
    /// text without a final line break), a missing or damaged row is none, and a member's calls
    /// decode to the same members every time.
    #[test]
    fn rows_are_found_by_path_and_members_decoded_once() {
        let member = MemberCalls {
            member: "Builder.build".into(),
            callees: vec![Callee::Bare("spawn".into())],
            ..Default::default()
        };
        let row = |path: &str, dep: &str| format!("{path}\tk\t{dep}\t\t\t\t\t{}", member.encode());
        let body = [
            row("a.rs", "b.rs"),
            row("b.rs", ""),
            "c.rs\tk\tdamaged".to_string(),
            row("d.rs", "a.rs"),
        ];
        let graph = Graph::from_text(format!("{FORMAT}\tstamp\n{}", body.join("\n")));
        assert_eq!(graph.dependencies("a.rs"), ["b.rs"]);
        assert_eq!(
            graph.dependencies("d.rs"),
            ["a.rs"],
            "the last line, no line break"
        );
        assert!(graph.knows("b.rs"));
        assert!(!graph.knows("c.rs"), "a damaged row");
        assert!(!graph.knows("e.rs") && !graph.knows("0.rs"));
        let decoded = graph.member_calls("d.rs");
        assert_eq!(decoded.as_slice(), std::slice::from_ref(&member));
        assert!(Arc::ptr_eq(&decoded, &graph.member_calls("d.rs")));
        assert_eq!(graph.calls("d.rs"), [member.encode()]);
        assert!(graph.member_calls("e.rs").is_empty());
    }

    #[test]
    fn the_derived_file_answers_until_the_cache_moves() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache_path = dir.path().join("cache");
        let mut cache = Cache::default();
        cache
            .entries
            .insert("src/b\tc.rs".into(), entry(&["src/a.rs"], &[]));
        cache
            .entries
            .insert("src/a.rs".into(), entry(&[], &["parse"]));
        cache.save(&cache_path, 0).expect("save");
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(10);
        let age = |path: &Path| {
            let file = std::fs::File::options()
                .append(true)
                .open(path)
                .expect("open");
            file.set_modified(old).expect("age");
        };
        age(&cache_path);
        let graph = Graph::load(&cache_path).expect("graph");
        assert_eq!(graph.dependents("src/a.rs"), ["src/b\tc.rs"]);
        let derived = dir.path().join(FILE_NAME);
        assert!(derived.is_file(), "written beside the cache");

        // The derived file is what answers while the stamp holds…
        let text = std::fs::read_to_string(&derived).expect("read");
        std::fs::write(&derived, text.replace("\tparse", "\tparsed")).expect("write");
        assert_eq!(
            Graph::load(&cache_path).expect("graph").symbols("src/a.rs"),
            ["parsed"]
        );
        // …and is rebuilt once the cache changed.
        cache
            .entries
            .insert("src/d.rs".into(), entry(&["src/a.rs"], &[]));
        cache.save(&cache_path, 0).expect("save");
        age(&cache_path);
        let graph = Graph::load(&cache_path).expect("graph");
        assert_eq!(graph.symbols("src/a.rs"), ["parse"]);
        assert_eq!(graph.dependents("src/a.rs"), ["src/b\tc.rs", "src/d.rs"]);
        assert!(graph.knows("src/d.rs") && !graph.knows("src/e.rs"));
    }

    #[test]
    fn no_cache_means_no_graph() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(Graph::load(&dir.path().join("cache")).is_none());
        std::fs::write(dir.path().join("cache"), "lexibrarian-cache v1\t0\n").expect("write");
        assert!(Graph::load(&dir.path().join("cache")).is_none());
    }
}
