//! Stage 6, **indexes**: the `.aindex` of every directory the plan touched, deepest first so that a
//! parent's Child Map shows its children's fresh billboards; the indexes of directories that are gone;
//! and `START_HERE.md` when the top of the tree may have moved (or on every full update).
//!
//! An index that cannot be read or written (a symlink, no permission, a full disk) is a failure in
//! the report, and the stage goes on with the others: one bad file never costs the rest.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;
use rustix::fs::FileType;

use super::aindex::{index_directory, structural_billboard};
use super::group;
use super::importance;
use super::plan::Plan;
use super::report::{FailedFile, Mode, UpdateReport};
use super::scan::Scan;
use super::start_here::{self, DirSummary};
use super::write::remove_empty_mirror_dirs;
use super::{Progress, UpdateOptions};
use crate::library::aindex::{AIndex, ChildEntry};
use crate::nofollow;
use crate::project::describe;
use crate::project::mirror::{aindex_path, group_path, AINDEX_FILE};
use crate::project::scope::Scope;
use crate::project::walk::EntryKind;
use crate::project::{in_library, Project, START_HERE_FILE};
use crate::relpath::RelPath;
use crate::workspace::cache;
use crate::workspace::child_map::{self, existing_billboard};
use crate::workspace::library::{self, Kind, Part};

/// Directory → billboard, as this run left them.
pub type Billboards = BTreeMap<String, String>;

/// What the earlier stages left for this one: the plan, the scan and the cache entries to keep.
#[derive(Clone, Copy)]
pub struct Earlier<'a> {
    pub plan: &'a Plan,
    pub scan: &'a Scan,
    pub entries: &'a BTreeMap<String, cache::Entry>,
}

/// Write (or, in a run that writes nothing, count) the indexes and START_HERE.
pub fn run(
    project: &Project,
    scope: &Scope,
    options: &UpdateOptions,
    earlier: Earlier<'_>,
    progress: &dyn Progress,
    report: &mut UpdateReport,
) -> anyhow::Result<()> {
    let plan = earlier.plan;
    progress.phase("indexing", plan.universe.dirs.len());
    let billboards = write_indexes(project, scope, options, earlier, progress, report);
    let whole = whole_tree(earlier);
    if plan.universe.complete && options.paths.is_empty() {
        remove_vanished_indexes(project, options, plan, report);
    } else {
        remove_emptied_indexes(project, options, plan, &whole, report);
    }
    // START_HERE ranks the top directories by the code in them and the imports into them: with
    // files outside a sparse checkout that cannot be measured here, and the one on disk stays.
    if !plan.universe.absent.is_empty() {
        return Ok(());
    }
    report.aindex_written.sort();
    // START_HERE ranks the top levels by what is below them anywhere in the tree: every run
    // renders it from the whole tree (and writes it when it differs), so that it never depends on
    // which files a run looked at.
    write_start_here(project, options, &billboards, &whole, report);
    Ok(())
}

/// Every file's cache entry after this run: what it looked at, over what the cache knows of the
/// files it did not (a run over part of the tree), without the files that are gone.
fn whole_tree<'a>(earlier: Earlier<'a>) -> std::borrow::Cow<'a, BTreeMap<String, cache::Entry>> {
    let plan = earlier.plan;
    if plan.mode == Mode::Full {
        return std::borrow::Cow::Borrowed(earlier.entries);
    }
    let mut whole: BTreeMap<String, cache::Entry> = plan
        .cache
        .entries
        .iter()
        .filter(|(rel, _)| {
            !earlier.scan.orphans.contains(*rel) && !plan.universe.gone.contains(*rel)
        })
        .map(|(rel, entry)| (rel.clone(), entry.clone()))
        .collect();
    whole.extend(
        earlier
            .entries
            .iter()
            .map(|(rel, entry)| (rel.clone(), entry.clone())),
    );
    std::borrow::Cow::Owned(whole)
}

/// A library file this stage could not read, write or remove.
fn fail(report: &mut UpdateReport, path: &str, reason: String) {
    report.failed.push(FailedFile {
        source: path.to_string(),
        reason,
    });
}

/// The library file at `path` as it is (`None`: there is none), or why it cannot be read (a
/// symlink is never followed): then it is left as it is.
fn read_existing(project: &Project, path: &str) -> Result<Option<String>, String> {
    match project.read_library_text(path) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(format!(
            "cannot read: {}; left as it is",
            nofollow::reason(path, &err)
        )),
    }
}

/// Write `text` at `path` unless the run writes nothing; the reason when it cannot.
fn write_text(
    project: &Project,
    options: &UpdateOptions,
    path: &str,
    text: &str,
) -> Result<(), String> {
    if !options.writes() {
        return Ok(());
    }
    project
        .write(path, text.as_bytes())
        .map_err(|err| format!("cannot write: {}", nofollow::reason(path, &err)))
}

/// The `.aindex` of each planned directory, deepest first — the directories of one depth at a time
/// in parallel (a directory reads only its children's billboards, one level deeper). Returns the
/// billboards.
fn write_indexes(
    project: &Project,
    scope: &Scope,
    options: &UpdateOptions,
    earlier: Earlier<'_>,
    progress: &dyn Progress,
    report: &mut UpdateReport,
) -> Billboards {
    let mut billboards = Billboards::new();
    let mut dirs: Vec<&String> = earlier.plan.universe.dirs.iter().collect();
    dirs.sort_by(|a, b| depth(b).cmp(&depth(a)).then(a.cmp(b)));
    let carried = carried_descriptions(project, earlier.plan);
    let known = |rel: &str| {
        earlier
            .entries
            .get(rel)
            .or_else(|| earlier.plan.cache.entries.get(rel))
    };
    let describe_file = |rel: &str| -> String {
        if let Some(description) = carried.get(rel) {
            return description.clone();
        }
        known(rel)
            .map(|entry| entry.details.get().description.clone())
            .filter(|description| !description.is_empty())
            .unwrap_or_else(|| "File".to_string())
    };
    let documented_file = |rel: &str| known(rel).map(|entry| entry.details.get().documented);
    let levels = dirs.chunk_by(|a, b| depth(a) == depth(b));
    for level in levels {
        let indexed: Vec<(String, String, UpdateReport)> = level
            .par_iter()
            .map(|dir| {
                let mut own = UpdateReport::default();
                let place = Place {
                    project,
                    scope,
                    options,
                    earlier,
                };
                let files = Files {
                    describe: &describe_file,
                    documented: &documented_file,
                };
                let billboard = index_one(&place, dir, &files, &billboards, &mut own);
                progress.advance();
                ((*dir).clone(), billboard, own)
            })
            .collect();
        for (dir, billboard, own) in indexed {
            billboards.insert(dir, billboard);
            report.warnings.extend(own.warnings);
            report.failed.extend(own.failed);
            report.aindex_written.extend(own.aindex_written);
            report.aindex_removed.extend(own.aindex_removed);
        }
    }
    billboards
}

/// The Child Map descriptions of the files git keeps out of the working tree, in the directories
/// this run indexes: what their directory's `.aindex` says of them now (they are unchanged), else
/// their design file's description.
fn carried_descriptions(project: &Project, plan: &Plan) -> HashMap<String, String> {
    let absent = &plan.universe.absent;
    let mut carried = HashMap::new();
    if absent.is_empty() {
        return carried;
    }
    for dir in &plan.universe.dirs {
        let files: Vec<&String> = absent
            .children(dir)
            .iter()
            .filter(|(_, kind)| *kind == EntryKind::File)
            .map(|(name, _)| name)
            .collect();
        if files.is_empty() {
            continue;
        }
        let path = aindex_path(dir);
        let rows = project
            .read_to_string(&path)
            .ok()
            .and_then(|text| AIndex::parse(&path, dir, &text).ok())
            .map(|index| index.children())
            .unwrap_or_default();
        for name in files {
            let rel = RelPath::new(dir).join(name).into_string();
            let description = rows
                .iter()
                .find(|row| row.name == *name)
                .map(|row| row.description.clone())
                .or_else(|| design_description(project, &rel));
            if let Some(description) = description {
                carried.insert(rel, description);
            }
        }
    }
    carried
}

/// The description in the frontmatter of `source`'s design file, if it has one.
fn design_description(project: &Project, source: &str) -> Option<String> {
    let rel = crate::project::mirror::design_path(source);
    let text = project.read_to_string(&rel).ok()?;
    let design = crate::library::design_file::DesignFile::parse(&rel, &text).ok()?;
    Some(design.frontmatter.description).filter(|d| !d.is_empty())
}

/// Where the indexes are written, and what the earlier stages found.
struct Place<'a> {
    project: &'a Project,
    scope: &'a Scope,
    options: &'a UpdateOptions,
    earlier: Earlier<'a>,
}

/// What the indexes know of each file: its Child Map description, and whether it has a module doc
/// comment (`None`: the run knows nothing of it).
struct Files<'a> {
    describe: &'a (dyn Fn(&str) -> String + Sync),
    documented: &'a (dyn Fn(&str) -> Option<bool> + Sync),
}

/// Write the group design file and the `.aindex` of `dir` (its children's billboards in
/// `billboards`), recording what happened in `report`. Returns `dir`'s billboard.
fn index_one(
    place: &Place<'_>,
    dir: &str,
    files: &Files<'_>,
    billboards: &Billboards,
    report: &mut UpdateReport,
) -> String {
    let Place {
        project,
        scope,
        options,
        earlier,
    } = *place;
    let listed = earlier
        .plan
        .universe
        .children
        .get(dir)
        .map_or(&[][..], Vec::as_slice);
    let children = Children::of(
        project,
        (scope, earlier.scan),
        dir,
        listed,
        files,
        billboards,
    );
    // The group design file of a group root lists its files and names its subdirectories (the
    // grouped directories below one get neither a group file nor an `.aindex`: the plan leaves
    // them out); files grouped by name in a directory that is not grouped get their directory's.
    let group_root = scope.is_group_root(dir);
    let files_here = group_root || scope.group_root_of(dir).is_none();
    let members: Vec<(String, String)> = listed
        .iter()
        .filter(|(_, kind)| *kind == EntryKind::File && files_here)
        .map(|(name, _)| (name, RelPath::new(dir).join(name).into_string()))
        .filter(|(_, rel)| scope.groups(rel))
        .map(|(name, rel)| (name.clone(), (files.describe)(&rel)))
        .collect();
    let subdirs: Vec<String> = listed
        .iter()
        .filter(|(name, kind)| *kind == EntryKind::Dir && group_root && !name.starts_with('.'))
        .map(|(name, _)| name.clone())
        .collect();
    write_group(project, options, dir, (&members, &subdirs), report);
    let whole = earlier.plan.universe.absent.children(dir).is_empty();
    let outcome = index_directory(project, dir, children.rows, whole, || {
        let crate_doc = describe::has_manifest(project, dir).then(|| {
            let src = format!("{dir}/src");
            billboards
                .get(&src)
                .cloned()
                .unwrap_or_else(|| existing_billboard(project, &src))
        });
        let documented = children.module_description.or(crate_doc);
        let description = first_description(project, dir, documented);
        structural_billboard(description.as_deref(), children.files, children.dirs)
    });
    report.warnings.extend(outcome.warning);
    if let Some(reason) = outcome.error {
        fail(report, &outcome.path, reason);
    }
    if let Some(text) = outcome.text {
        match write_text(project, options, &outcome.path, &text) {
            Ok(()) => report.aindex_written.push(outcome.path),
            Err(reason) => fail(report, &outcome.path, reason),
        }
    }
    outcome.billboard
}

/// What a new `.aindex` says the directory is for: its manifest's `description`, else its module
/// file's doc comment (for a package, its `src/` billboard: the crate doc), else its README's first sentence, else the root manifest's for the project's
/// own code (`src/`, `lib/`, a directory named like the project), else what its name conventionally holds
/// (`tests/`, `docs/`, …) — each skipped when it is a licence banner or a count. `None` leaves the
/// structural count, the last resort.
fn first_description(project: &Project, dir: &str, module: Option<String>) -> Option<String> {
    describe::manifest_description(project, dir)
        .or_else(|| module.as_deref().and_then(describe::clean))
        .or_else(|| describe::readme_sentence(project, dir))
        .or_else(|| start_here::project_code(project, dir))
        .or_else(|| describe::conventional_purpose(dir).map(str::to_string))
}

/// Write, refresh or remove the group design file of `dir` (`members`: its `grouped` files,
/// `subdirs`: the grouped directories in it, when it is a group root).
fn write_group(
    project: &Project,
    options: &UpdateOptions,
    dir: &str,
    (members, subdirs): (&[(String, String)], &[String]),
    report: &mut UpdateReport,
) {
    let path = group_path(dir);
    let existing = match read_existing(project, &path) {
        Ok(existing) => existing,
        Err(reason) => return fail(report, &path, reason),
    };
    if members.is_empty() && subdirs.is_empty() {
        if existing.is_some() {
            if options.writes() {
                if let Err(err) = project.remove_file(&path) {
                    let reason = format!("cannot remove: {}", nofollow::reason(&path, &err));
                    return fail(report, &path, reason);
                }
            }
            report.aindex_removed.push(path);
        }
        return;
    }
    let budget = project.config.token_budgets.design_file_tokens as usize;
    let text = group::render(dir, members, subdirs, budget);
    if existing.as_deref() == Some(text.as_str()) {
        return;
    }
    if let Err(reason) = write_text(project, options, &path, &text) {
        return fail(report, &path, reason);
    }
    report.aindex_written.push(path);
}

/// The Child Map row of a grouped directory below its group root, which has no `.aindex`: the
/// group root's `_group.md` names it.
const GROUPED_DIR_ROW: &str = "Grouped: named in this directory's `_group.md`";

/// A directory's Child Map rows and what its first billboard is made of.
struct Children {
    rows: Vec<ChildEntry>,
    /// The description of its module file (`mod.rs`, `__init__.py`, …) when that has a doc comment.
    module_description: Option<String>,
    files: usize,
    dirs: usize,
}

impl Children {
    /// A subdirectory is described by its billboard: this run's, else its `.aindex`'s on disk;
    /// one that gets no `.aindex` by a fixed line (never an index a scope change left behind).
    fn of(
        project: &Project,
        (scope, scan): (&Scope, &Scan),
        dir: &str,
        listed: &[(String, EntryKind)],
        files: &Files<'_>,
        billboards: &Billboards,
    ) -> Children {
        let named = listed.iter().map(|(name, kind)| (name.as_str(), *kind));
        let billboard_of = |rel: &str| {
            if scope.below_group_root(rel) {
                return GROUPED_DIR_ROW.to_string();
            }
            billboards
                .get(rel)
                .cloned()
                .unwrap_or_else(|| existing_billboard(project, rel))
        };
        let rows = child_map::rows(dir, named, files.describe, billboard_of);
        Children {
            files: listed
                .iter()
                .filter(|(_, kind)| *kind == EntryKind::File)
                .count(),
            dirs: listed
                .iter()
                .filter(|(_, kind)| *kind == EntryKind::Dir)
                .count(),
            module_description: rows
                .iter()
                .find_map(|row| documented_module(project, scan, files, dir, row)),
            rows,
        }
    }
}

/// The description of `row` when it is a module file (`mod.rs`, `__init__.py`, …) with a doc
/// comment: it speaks for the whole directory. Whether it has one is what the scan parsed, else
/// what the cache remembers, else what parsing it now says — never which files a run read.
fn documented_module(
    project: &Project,
    scan: &Scan,
    files: &Files<'_>,
    dir: &str,
    row: &ChildEntry,
) -> Option<String> {
    if !crate::source::lang::files::is_directory_file(&row.name) {
        return None;
    }
    let rel = if dir.is_empty() {
        row.name.clone()
    } else {
        format!("{dir}/{}", row.name)
    };
    let documented = match scan.files.get(&rel).and_then(|scanned| scanned.code()) {
        Some(code) => code.interface.doc.is_some(),
        None => (files.documented)(&rel).unwrap_or_else(|| module_doc_now(project, &rel)),
    };
    documented.then(|| row.description.clone())
}

/// Whether the module file `rel` has a doc comment, parsed now.
fn module_doc_now(project: &Project, rel: &str) -> bool {
    let Some(language) = crate::source::Language::from_path(std::path::Path::new(rel))
        .filter(|language| language.enabled_in(&project.config))
    else {
        return false;
    };
    project
        .read_to_string(rel)
        .ok()
        .and_then(|text| crate::source::extract(language, &text).ok())
        .is_some_and(|interface| interface.doc.is_some())
}

/// Remove the indexes of directories that are gone. The cache remembers which directories were
/// indexed; without a cache, the mirror says.
fn remove_vanished_indexes(
    project: &Project,
    options: &UpdateOptions,
    plan: &Plan,
    report: &mut UpdateReport,
) {
    let previously: Vec<String> = if plan.cache.dirs.is_empty() {
        mirrored_index_dirs(project, None)
    } else {
        plan.cache.dirs.iter().cloned().collect()
    };
    for dir in previously {
        let path = aindex_path(&dir);
        let present = matches!(
            nofollow::file_type(&project.root, &path),
            Ok(Some(FileType::RegularFile))
        );
        let kept_out = plan.universe.absent.has_dir(&dir);
        if !plan.universe.dirs.contains(&dir) && present && !kept_out {
            remove_index(project, options, &dir, report);
        }
    }
}

/// In a run over part of the tree: remove the indexes of the directories its deleted (or moved)
/// files leave with no file of the tree below them, as a full run would.
fn remove_emptied_indexes(
    project: &Project,
    options: &UpdateOptions,
    plan: &Plan,
    whole: &BTreeMap<String, cache::Entry>,
    report: &mut UpdateReport,
) {
    let emptied: BTreeSet<&str> = plan
        .universe
        .gone
        .iter()
        .flat_map(|gone| ancestors(gone))
        .filter(|dir| !dir.is_empty() && !plan.universe.dirs.contains(*dir))
        .filter(|dir| !holds_a_file(whole, dir))
        .collect();
    for dir in emptied.into_iter().rev() {
        let present = matches!(
            nofollow::file_type(&project.root, aindex_path(dir)),
            Ok(Some(FileType::RegularFile))
        );
        if present && !plan.universe.absent.has_dir(dir) {
            remove_index(project, options, dir, report);
        }
    }
}

/// The directories above `path`, nearest first (`a/b/c.rs` → `a/b`, `a`, `""`).
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(path), |p| {
        RelPath::new(p)
            .parent()
            .map(RelPath::as_str)
            .or((!p.is_empty()).then_some(""))
    })
    .skip(1)
}

/// Whether any file of the tree is below `dir`.
fn holds_a_file(whole: &BTreeMap<String, cache::Entry>, dir: &str) -> bool {
    let prefix = format!("{dir}/");
    whole
        .range(prefix.clone()..)
        .next()
        .is_some_and(|(rel, _)| rel.starts_with(&prefix))
}

/// Remove `dir`'s `.aindex` (and its group design file), then the mirror directories it leaves
/// empty; a removal that fails is a failure of the run.
fn remove_index(project: &Project, options: &UpdateOptions, dir: &str, report: &mut UpdateReport) {
    let path = aindex_path(dir);
    let group = group_path(dir);
    if options.writes() && project.remove_file(&group).is_ok() {
        report.aindex_removed.push(group);
    }
    if options.writes() {
        if let Err(err) = project.remove_file(&path) {
            let reason = format!("cannot remove: {}", nofollow::reason(&path, &err));
            fail(report, &path, reason);
            return;
        }
        remove_empty_mirror_dirs(project, dir);
    }
    report.aindex_removed.push(path);
}

/// Directories whose `.aindex` is in the mirror, down to `max_depth` levels (all with `None`),
/// sorted by path (the root, `""`, first).
fn mirrored_index_dirs(project: &Project, max_depth: Option<usize>) -> Vec<String> {
    let part = Part {
        under: "",
        max_depth,
        mirror_only: true,
        named: Some(AINDEX_FILE),
    };
    let mut dirs: Vec<String> = library::walk(&project.library_dir(), part)
        .files
        .into_iter()
        .filter_map(|entry| match entry.kind {
            Kind::Index { dir } => Some(dir),
            _ => None,
        })
        .collect();
    dirs.sort();
    dirs
}

/// Write START_HERE.md from the top two levels, ranked by importance ([`importance::rank`]) and
/// described by their manifests, billboards (this run's, else those on disk) and READMEs. A second
/// level directory inside a package (its parent has a manifest) is left to the package's entry.
/// One that cannot be read (a symlink: never replaced) or written is a failure.
fn write_start_here(
    project: &Project,
    options: &UpdateOptions,
    billboards: &Billboards,
    entries: &BTreeMap<String, cache::Entry>,
    report: &mut UpdateReport,
) {
    let mut summaries = Billboards::new();
    for dir in mirrored_index_dirs(project, Some(2)) {
        if !dir.is_empty() && !report.aindex_removed.contains(&aindex_path(&dir)) {
            let billboard = existing_billboard(project, &dir);
            summaries.insert(dir, billboard);
        }
    }
    for (dir, billboard) in billboards {
        if !dir.is_empty() && dir.matches('/').count() <= 1 {
            summaries.insert(dir.clone(), billboard.clone());
        }
    }
    // A package or a dot-directory is one entry: what is inside it is its own index's business.
    summaries.retain(|dir, _| {
        RelPath::new(dir).parent().is_none_or(|parent| {
            !parent.as_str().starts_with('.') && !describe::has_manifest(project, parent.as_str())
        })
    });
    let listed: Vec<String> = summaries.keys().cloned().collect();
    let dirs: Vec<DirSummary> = importance::rank(&listed, entries)
        .into_iter()
        .map(|(dir, _)| DirSummary {
            purpose: start_here::purpose(project, &dir, &summaries[&dir], entries),
            dir,
        })
        .collect();
    let path = in_library(START_HERE_FILE);
    let existing = match read_existing(project, &path) {
        Ok(existing) => existing,
        Err(reason) => return fail(report, &path, reason),
    };
    let text = start_here::render(project, &dirs, existing.as_deref());
    if existing.as_deref() != Some(text.as_str()) {
        if let Err(reason) = write_text(project, options, &path, &text) {
            return fail(report, &path, reason);
        }
        report.start_here_written = true;
    }
}

/// `lexictl update --start-here`: only START_HERE.md, from the billboards on disk and the cache.
pub fn start_here_only(
    project: &Project,
    options: &UpdateOptions,
    state: &crate::workspace::state::StateDir,
    report: &mut UpdateReport,
) {
    let entries = cache::Cache::load(&state.cache_path()).0.entries;
    write_start_here(project, options, &Billboards::new(), &entries, report)
}

fn depth(dir: &str) -> usize {
    if dir.is_empty() {
        0
    } else {
        dir.matches('/').count() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::update::testing::{by_path, TestProject};

    #[test]
    fn a_directory_is_described_by_its_documented_module_file() {
        let p = TestProject::new(&[
            ("pkg/__init__.py", "\"\"\"Parsing things.\"\"\"\n"),
            ("pkg/x.py", "x = 1\n"),
        ]);
        let scan = Scan {
            files: by_path(vec![
                p.scan("pkg/__init__.py", &[]),
                p.scan("pkg/x.py", &[]),
            ]),
            listed: Default::default(),
            orphans: Default::default(),
            moves: Default::default(),
            design_stats: Default::default(),
            recomputed: 0,
        };
        let listed = vec![
            ("__init__.py".to_string(), EntryKind::File),
            ("x.py".to_string(), EntryKind::File),
            ("sub".to_string(), EntryKind::Dir),
        ];
        let mut billboards = Billboards::new();
        billboards.insert("pkg/sub".into(), "Helpers.\nMore.".into());
        let describe = |rel: &str| format!("about {rel}");
        let documented = |_: &str| None;
        let files = Files {
            describe: &describe,
            documented: &documented,
        };
        let scope = Scope::everything();
        let children = Children::of(
            &p.project,
            (&scope, &scan),
            "pkg",
            &listed,
            &files,
            &billboards,
        );
        assert_eq!((children.files, children.dirs), (2, 1));
        assert_eq!(
            children.module_description.as_deref(),
            Some("about pkg/__init__.py")
        );
        assert_eq!(children.rows[2].description, "Helpers.");
    }
}
