//! Running a scenario for real, and the fixed-point properties checked on what it leaves.
//!
//! A [`Lab`] is a git repository in a temp dir (the harness of `tests/it/support.rs`: hermetic
//! environment, fixed clock). It commits the initial tree, runs `lexictl init --yes` with
//! `scope_root: .` and commits that, runs a full `lexictl update` and commits the library (and the
//! first hook run, which is a full one too); then for each commit of the
//! scenario it carries out the steps (code changes rendered from the model, agent edits made to the
//! design files and `lexi describe`), commits, runs `lexictl update --changed-only` — what the
//! post-commit hook runs — and commits the library.
//!
//! *From scratch* is a fresh clone of that repository whose generated library files are removed —
//! kept: `config.yaml`, `integrations.json`, `concepts/`, `stack/` and the design files an agent
//! wrote in (they hold a `[agent N]` text) — with the agents' billboards given again with
//! `lexi describe`, then one full `lexictl update`. An agent's design file keeps its text, but its
//! footer's `source_hash` is zeroed: the sections the Archivist owns in it (dependencies,
//! dependents, tests, tags) are recomputed from the tree as for any other file, instead of being
//! trusted as the history left them.
//!
//! Every property returns a [`Violation`] with a readable report (what differed, the unified diff
//! of the first differing file, what the history's runs said) and the kinds of difference found;
//! a `lexictl` command that fails on the way is a violation too.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use super::library::{all_difference_kinds, compare, snapshot};
use super::model::{LibraryEdit, Model, Step};
use super::strategy::Scenario;
use super::support::{project, TestProject};

/// The properties of DESIGN §10, and that agents' text survives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// (a) The library after the history (changed-only runs) equals one full run from scratch.
    ChangedOnlyEqualsFull,
    /// (b) A second full run writes nothing, and `update --check` exits 0 after a committed update.
    FullIsAFixedPoint,
    /// (c) `lexictl validate` finds nothing, after the history and after a full run.
    Validates,
    /// (d) A cold cache and one or two threads write the same bytes as a warm cache.
    CacheAndThreadsAgree,
    /// Every text an agent wrote into the library (descriptions, sections, text after the footer,
    /// billboards) and did not replace is still in it after the history.
    AgentTextKept,
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Property::ChangedOnlyEqualsFull => {
                "(a) changed-only runs after each commit equal one full run from scratch"
            }
            Property::FullIsAFixedPoint => {
                "(b) full ∘ full = full, and `update --check` exits 0 after a committed update"
            }
            Property::Validates => "(c) `lexictl validate` finds nothing",
            Property::CacheAndThreadsAgree => {
                "(d) warm or cold cache, one thread or two: the same bytes"
            }
            Property::AgentTextKept => "(e) what agents wrote in the library is kept",
        })
    }
}

/// A property that does not hold: what to print, and the kinds of difference found (for the
/// survey: `design file: Dependents`, `validate after the history: over-budget`, …).
#[derive(Debug)]
pub struct Violation {
    pub report: String,
    pub kinds: BTreeSet<String>,
}

impl Violation {
    fn new(kinds: impl IntoIterator<Item = String>, report: String) -> Violation {
        Violation {
            report,
            kinds: kinds.into_iter().collect(),
        }
    }

    /// A command that failed on the way.
    fn failed(report: String) -> Violation {
        let kind = report.lines().next().unwrap_or_default();
        let kind = kind.split(" exits ").next().unwrap_or(kind).to_string();
        Violation::new([format!("{kind} fails")], report)
    }
}

/// Collects what one property finds.
#[derive(Default)]
struct Findings(Vec<Violation>);

impl Findings {
    fn add(&mut self, kinds: impl IntoIterator<Item = String>, report: String) {
        self.0.push(Violation::new(kinds, report));
    }

    fn verdict(self) -> Result<(), Violation> {
        if self.0.is_empty() {
            return Ok(());
        }
        let kinds = self.0.iter().flat_map(|v| v.kinds.clone()).collect();
        let reports: Vec<String> = self.0.into_iter().map(|v| v.report).collect();
        Err(Violation {
            report: reports.join("\n\n"),
            kinds,
        })
    }
}

/// Run `scenario` and check `property` on the result.
pub fn check(property: Property, scenario: &Scenario) -> Result<(), Violation> {
    let lab = Lab::run(scenario).map_err(Violation::failed)?;
    check_lab(property, &lab)
}

/// Check `property` on a repository a scenario was run in.
pub fn check_lab(property: Property, lab: &Lab) -> Result<(), Violation> {
    let outcome = match property {
        Property::ChangedOnlyEqualsFull => changed_only_equals_full(lab),
        Property::FullIsAFixedPoint => full_is_a_fixed_point(lab),
        Property::Validates => validates(lab),
        Property::CacheAndThreadsAgree => cache_and_threads_agree(lab),
        Property::AgentTextKept => agent_text_kept(lab),
    };
    outcome.map_err(|mut violation| {
        violation.report = format!(
            "{}\n\nWhat the history's runs said:\n{}",
            violation.report,
            lab.log.join("\n")
        );
        violation
    })
}

/// Compare two libraries: the kinds of difference and the report, when they differ.
fn differences(
    left_name: &str,
    left: &BTreeMap<String, Vec<u8>>,
    right_name: &str,
    right: &BTreeMap<String, Vec<u8>>,
) -> Option<(BTreeSet<String>, String)> {
    let report = compare(left_name, left, right_name, right)?;
    let kinds = all_difference_kinds(left_name, left, right_name, right);
    Some((kinds, report))
}

fn changed_only_equals_full(lab: &Lab) -> Result<(), Violation> {
    let scratch = lab.full_run_from_scratch().map_err(Violation::failed)?;
    let history = snapshot(&lab.p.root);
    match differences("history", &history, "full", &snapshot(&scratch.root)) {
        None => Ok(()),
        Some((kinds, report)) => Err(Violation::new(kinds, report)),
    }
}

fn full_is_a_fixed_point(lab: &Lab) -> Result<(), Violation> {
    let mut findings = Findings::default();
    let scratch = lab.full_run_from_scratch().map_err(Violation::failed)?;
    commit(&scratch, "full run");
    let check = scratch.lexictl(["update", "--check"]).run();
    if check.code != 0 {
        findings.add(
            [format!(
                "`update --check` exits {} after a committed full run",
                check.code
            )],
            format!(
                "`lexictl update --check` exits {} right after a full run was committed:\n{}",
                check.code,
                indent(&check.stdout)
            ),
        );
    }
    let first = snapshot(&scratch.root);
    lexictl(&scratch, &["update"], None)
        .map_err(|err| Violation::failed(format!("the second full run: {err}")))?;
    if let Some((kinds, report)) =
        differences("full", &first, "full∘full", &snapshot(&scratch.root))
    {
        findings.add(
            kinds
                .into_iter()
                .map(|kind| format!("a second full run rewrites {kind}")),
            format!("A second full run rewrites the library. {report}"),
        );
    }
    let check = lab.p.lexictl(["update", "--check"]).run();
    if check.code != 0 {
        findings.add(
            [format!("`update --check` exits {} after the history", check.code)],
            format!(
                "`lexictl update --check` exits {} on the history's committed library (changed-only runs):\n{}",
                check.code,
                indent(&check.stdout)
            ),
        );
    }
    findings.verdict()
}

fn validates(lab: &Lab) -> Result<(), Violation> {
    let mut findings = Findings::default();
    let scratch = lab.full_run_from_scratch().map_err(Violation::failed)?;
    for (when, project) in [
        ("after the history", &lab.p),
        ("after a full run from scratch", &scratch),
    ] {
        let out = project.lexictl(["validate"]).run();
        if out.code != 0 && !only_kept_agent_orphans(project, &out.stdout) {
            findings.add(
                check_ids(&out.stdout)
                    .into_iter()
                    .map(|id| format!("validate {when}: {id}")),
                format!(
                    "`lexictl validate` exits {} {when}:\n{}",
                    out.code,
                    indent(&out.stdout)
                ),
            );
        }
    }
    findings.verdict()
}

/// Whether every finding in `lexictl validate`'s text output is a `missing-source` warning about
/// a design file an agent wrote in: the update keeps such a file when its source is deleted (what
/// an agent wrote is never removed by the tool) and validate asks a person to decide — documented
/// behaviour, not a divergence.
fn only_kept_agent_orphans(project: &TestProject, output: &str) -> bool {
    let findings: Vec<(&str, &str)> = output
        .lines()
        .filter_map(|line| line.trim().split_once(": ["))
        .filter_map(|(file, rest)| rest.split_once(']').map(|(id, _)| (file, id)))
        .collect();
    !findings.is_empty()
        && findings.iter().all(|(file, id)| {
            *id == "missing-source"
                && std::fs::read_to_string(project.path(file)).is_ok_and(|text| {
                    text.contains("updated_by: agent") || text.contains("[agent ")
                })
        })
}

/// The check ids (`[over-budget]`) in `lexictl validate`'s text output.
fn check_ids(output: &str) -> BTreeSet<String> {
    let ids: BTreeSet<String> = output
        .split('[')
        .skip(1)
        .filter_map(|rest| rest.split_once(']'))
        .map(|(id, _)| id)
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .map(String::from)
        .collect();
    match ids.is_empty() {
        true => BTreeSet::from(["(no check id)".to_string()]),
        false => ids,
    }
}

fn cache_and_threads_agree(lab: &Lab) -> Result<(), Violation> {
    let base = lab.p.root.parent().expect("the project has a parent");
    let cold1 = base.join(lab.new_copy_name("cold-1-thread"));
    let cold2 = base.join(lab.new_copy_name("cold-2-threads"));
    for copy in [&cold1, &cold2] {
        lab.p
            .cmd("cp", [lab.p.root.as_os_str(), copy.as_os_str()])
            .args(["-a"])
            .success();
        let git_path = lab
            .p
            .git(["rev-parse", "--git-path", "lexibrarian"])
            .current_dir(copy)
            .success();
        let state = copy.join(git_path.stdout.trim());
        for cache in ["cache", "model-v2.json"] {
            let _ = std::fs::remove_file(state.join(cache));
        }
    }
    let runs = [
        ("warm-2-threads", "2", lab.p.root.clone()),
        ("cold-1-thread", "1", cold1),
        ("cold-2-threads", "2", cold2),
    ];
    for (name, threads, dir) in &runs {
        lexictl(&lab.p, &["update"], Some((threads, dir)))
            .map_err(|err| Violation::failed(format!("{name}: {err}")))?;
    }
    let mut findings = Findings::default();
    for pair in runs.windows(2) {
        let (left, _, left_dir) = &pair[0];
        let (right, _, right_dir) = &pair[1];
        if let Some((kinds, report)) =
            differences(left, &snapshot(left_dir), right, &snapshot(right_dir))
        {
            findings.add(
                kinds
                    .into_iter()
                    .map(|kind| format!("{left} vs {right}: {kind}")),
                report,
            );
        }
    }
    findings.verdict()
}

fn agent_text_kept(lab: &Lab) -> Result<(), Violation> {
    let library = snapshot(&lab.p.root);
    let mut findings = Findings::default();
    for text in &lab.model.agent_texts {
        let found = library
            .values()
            .any(|bytes| String::from_utf8_lossy(bytes).contains(text.as_str()));
        if !found {
            findings.add(
                [format!("lost: {}", agent_text_kind(text))],
                format!("An agent's {text:?} is nowhere in the library."),
            );
        }
    }
    for (dir, text) in &lab.model.billboards {
        let aindex = aindex_path(dir);
        let kept = library
            .get(&aindex)
            .is_some_and(|bytes| String::from_utf8_lossy(bytes).contains(text.as_str()));
        if !kept {
            findings.add(
                ["lost: a billboard".to_string()],
                format!("The billboard {text:?} is not in {aindex}."),
            );
        }
    }
    findings.verdict()
}

/// Which agent edit wrote `text` (see `Model::apply`).
fn agent_text_kind(text: &str) -> &'static str {
    if text.starts_with("Agent says") {
        "an agent's description"
    } else if text.starts_with("Kept for") {
        "an agent's section"
    } else {
        "an agent's text after the footer"
    }
}

/// A repository taken through a scenario.
pub struct Lab {
    pub p: TestProject,
    pub model: Model,
    on_disk: BTreeMap<String, String>,
    /// What each changed-only run said, and the agent edits that found no design file.
    pub log: Vec<String>,
    /// Clones and copies made so far (each gets a new directory beside the project).
    copies: std::cell::Cell<usize>,
}

impl Lab {
    /// The initial tree committed; `lexictl init --yes` (scope: the whole project, the scenario's
    /// budgets) committed; a full update and the first hook run, each library committed.
    fn start(scenario: &Scenario) -> Result<Lab, String> {
        let mut lab = Lab {
            p: project().build(),
            model: Model::default(),
            on_disk: BTreeMap::new(),
            log: Vec::new(),
            copies: std::cell::Cell::new(0),
        };
        for step in &scenario.initial {
            if lab.model.apply(step)?.is_some() {
                return Err(format!("{step}: the initial tree has no library to edit"));
            }
        }
        lab.sync();
        commit(&lab.p, "initial tree");
        lexictl(&lab.p, &["init", "--yes"], None)?;
        lab.p.config("scope_root: .\n");
        if let Some(budgets) = scenario.budgets.config() {
            lab.p.config(budgets);
        }
        // The config committed before the first update: a changed-only run that sees the config
        // change runs in full.
        commit(&lab.p, "lexictl init");
        let first = lexictl(&lab.p, &["update"], None)?;
        lab.log
            .push(format!("initial full run:\n{}", indent(&first)));
        commit(&lab.p, "library");
        // The hook's first run after the library commit is a full one (the commit adds the design
        // files of `lib.rs`, `__init__.py` and manifests, which the changed-only planner takes for
        // those files appearing): taken here, so that the scenario's commits get changed-only runs.
        lexictl(&lab.p, &["update", "--changed-only"], None)?;
        commit(&lab.p, "library after the first hook run");
        Ok(lab)
    }

    /// Start, then each commit: its steps, `git commit`, `lexictl update --changed-only`, the
    /// library committed.
    pub fn run(scenario: &Scenario) -> Result<Lab, String> {
        let mut lab = Lab::start(scenario)?;
        for (number, steps) in scenario.commits.iter().enumerate() {
            let number = number + 1;
            for step in steps {
                lab.step(number, step)?;
            }
            commit(&lab.p, &format!("change {number}"));
            let said = lexictl(&lab.p, &["update", "--changed-only"], None)
                .map_err(|err| format!("after commit {number}: {err}"))?;
            lab.log.push(format!(
                "commit {number}, changed-only run:\n{}",
                indent(&said)
            ));
            commit(&lab.p, &format!("library {number}"));
        }
        Ok(lab)
    }

    fn step(&mut self, number: usize, step: &Step) -> Result<(), String> {
        match self.model.apply(step)? {
            None => self.sync(),
            Some(edit) => {
                if !self.edit_library(&edit)? {
                    self.model.undo_library_edit(&edit);
                    self.log.push(format!(
                        "commit {number}: {step} did nothing: there was no design file to edit"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Write the model's tree: changed files written, removed ones deleted (and directories left
    /// empty, as git leaves none).
    fn sync(&mut self) {
        let tree = self.model.render();
        for (path, text) in &tree {
            if self.on_disk.get(path) != Some(text) {
                self.p.write(path, text);
            }
        }
        for path in self.on_disk.keys() {
            if !tree.contains_key(path) {
                // As `rm` does: the directories it empties stay on disk (git keeps none of them, so
                // a clone's library must be the same without them).
                std::fs::remove_file(self.p.path(path)).expect("remove a deleted file");
            }
        }
        self.on_disk = tree;
    }

    /// Carry out an agent's edit; `false` when the design file it edits does not exist.
    fn edit_library(&self, edit: &LibraryEdit) -> Result<bool, String> {
        let edit_design = |source: &str, change: &dyn Fn(&str) -> String| {
            let rel = format!(".lexibrary/{source}.md");
            match std::fs::read_to_string(self.p.path(&rel)) {
                Ok(text) => {
                    self.p.write(&rel, change(&text));
                    true
                }
                Err(_) => false,
            }
        };
        Ok(match edit {
            LibraryEdit::Description { source, text } => {
                edit_design(source, &|design| agent_description(design, text))
            }
            LibraryEdit::Section { source, text } => edit_design(source, &|design| {
                insert_before_footer(design, &format!("## Why\n\n{text}\n\n"))
            }),
            LibraryEdit::AfterFooter { source, text } => edit_design(source, &|design| {
                format!("{design}\n## Agent notes\n\n{text}\n")
            }),
            LibraryEdit::Describe { dir, text } => {
                let out = self.p.lexi(["describe", dir.as_str(), text.as_str()]).run();
                if out.code != 0 {
                    return Err(format!(
                        "`lexi describe {dir} …` exits {}:\n{}{}",
                        out.code, out.stdout, out.stderr
                    ));
                }
                true
            }
        })
    }

    /// A directory name beside the project that no clone or copy of this lab has taken.
    fn new_copy_name(&self, what: &str) -> String {
        self.copies.set(self.copies.get() + 1);
        format!("{what}-{}", self.copies.get())
    }

    /// A fresh clone, its generated library removed (see the module doc), then one full update.
    pub fn full_run_from_scratch(&self) -> Result<TestProject, String> {
        let scratch = self.p.clone_to(&self.new_copy_name("scratch"));
        let tree = self.model.render();
        for (rel, bytes) in snapshot(&scratch.root) {
            let inner = rel.strip_prefix(".lexibrary/").expect("in the library");
            let text = String::from_utf8_lossy(&bytes);
            let path = scratch.path(&rel);
            if matches!(inner, "config.yaml" | "integrations.json")
                || inner.starts_with("concepts/")
                || inner.starts_with("stack/")
            {
                continue;
            }
            let design = inner.ends_with(".md") && inner != "START_HERE.md";
            if design && text.contains("[agent ") {
                let source = inner.strip_suffix(".md").expect("a design file");
                if tree.contains_key(source) {
                    std::fs::write(&path, stale_source_hash(&text)).expect("write a design file");
                }
                continue;
            }
            std::fs::remove_file(&path).expect("remove a generated file");
            remove_empty_parents(&scratch.root, &rel);
        }
        for (dir, text) in &self.model.billboards {
            let out = scratch
                .lexi(["describe", dir.as_str(), text.as_str()])
                .run();
            if out.code != 0 {
                return Err(format!(
                    "from scratch, `lexi describe {dir} …` exits {}:\n{}{}",
                    out.code, out.stdout, out.stderr
                ));
            }
        }
        lexictl(&scratch, &["update"], None).map_err(|err| format!("from scratch: {err}"))?;
        Ok(scratch)
    }
}

/// `lexictl args` in `project` (or, with `threads`, with `RAYON_NUM_THREADS` in another
/// directory); its stdout, or a report when it fails.
fn lexictl(
    project: &TestProject,
    args: &[&str],
    threads: Option<(&str, &Path)>,
) -> Result<String, String> {
    let mut exec = project.lexictl(args);
    if let Some((threads, dir)) = threads {
        exec = exec.env("RAYON_NUM_THREADS", threads).current_dir(dir);
    }
    let out = exec.run();
    match out.code {
        0 => Ok(out.stdout),
        code => Err(format!(
            "`lexictl {}` exits {code}:\n{}{}",
            args.join(" "),
            indent(&out.stdout),
            indent(&out.stderr)
        )),
    }
}

/// `git add -A` and a commit (empty when nothing changed).
fn commit(project: &TestProject, message: &str) {
    project.git(["add", "-A"]).success();
    project
        .git(["commit", "-q", "--allow-empty", "-m", message])
        .success();
}

fn remove_empty_parents(root: &Path, rel: &str) {
    let mut dir = Path::new(rel).parent();
    while let Some(rel_dir) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if std::fs::remove_dir(root.join(rel_dir)).is_err() {
            break;
        }
        dir = rel_dir.parent();
    }
}

fn aindex_path(dir: &str) -> String {
    match dir {
        "." => ".lexibrary/.aindex".to_string(),
        dir => format!(".lexibrary/{dir}/.aindex"),
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("    {line}\n"))
        .collect::<String>()
}

/// An agent's new description: the frontmatter's `description` (and any continuation lines) and
/// `updated_by` replaced, every other key kept.
fn agent_description(design: &str, description: &str) -> String {
    let Some((front, rest)) = design
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
    else {
        return format!("---\ndescription: {description}\nupdated_by: agent\n---\n\n{design}");
    };
    let mut out = format!("---\ndescription: {description}\nupdated_by: agent");
    let mut replaced = false;
    for line in front.lines() {
        if line.starts_with("description:") || line.starts_with("updated_by:") {
            replaced = true;
            continue;
        }
        if replaced && line.starts_with([' ', '\t']) {
            continue;
        }
        replaced = false;
        out.push('\n');
        out.push_str(line);
    }
    format!("{out}\n---\n{rest}")
}

/// `block` inserted before the footer (at the end when there is none), after one blank line.
fn insert_before_footer(design: &str, block: &str) -> String {
    match design.rfind("\n<!-- lexibrarian:meta") {
        Some(at) => format!(
            "{}\n\n{block}{}",
            design[..at].trim_end(),
            &design[at + 1..]
        ),
        None => format!("{}\n\n{block}", design.trim_end()),
    }
}

/// The design file with its footer's `source_hash` zeroed, so that the update regenerates the
/// Archivist's sections around the agent's text.
fn stale_source_hash(design: &str) -> String {
    let Some(footer) = design.rfind("<!-- lexibrarian:meta") else {
        return design.to_string();
    };
    let (body, footer) = design.split_at(footer);
    let footer: Vec<String> = footer
        .split_inclusive('\n')
        .map(|line| match line.starts_with("source_hash: ") {
            true => format!("source_hash: {}\n", "0".repeat(64)),
            false => line.to_string(),
        })
        .collect();
    format!("{body}{}", footer.concat())
}
