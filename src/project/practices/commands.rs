//! The commands a contributor runs to test, lint and format that belong to no one language:
//! Makefile and justfile targets, and the commands the GitHub Actions workflows `run:`. A
//! language's own runners (`package.json` scripts, tox, nox) are its `practices.rs`.

use super::{is_check, push, push_items, Practice, Sources};
use crate::relpath::RelPath;

/// The most commands of one kind listed.
const SHOWN: usize = 6;
/// The most CI commands named in one line (the rest are counted).
const CI_SHOWN: usize = 4;

/// Tools whose name alone makes a CI step a check.
const CHECK_TOOLS: &[&str] = &[
    "pytest",
    "tox",
    "nox",
    "mypy",
    "pyright",
    "ruff",
    "flake8",
    "black",
    "eslint",
    "prettier",
    "vitest",
    "jest",
    "mocha",
    "pre-commit",
    "rustfmt",
    "cargo-deny",
];

pub(super) fn is_check_command(word: &str) -> bool {
    is_check(word) || CHECK_TOOLS.contains(&word)
}

/// Make and just targets (a language's own runners — npm scripts, tox, nox — are its
/// `practices.rs`).
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    targets(sources, found);
}

/// Makefile and justfile targets that test, lint, format or check, with their first command.
fn targets(sources: &Sources, found: &mut Vec<Practice>) {
    for (file, tool) in [
        ("Makefile", "make"),
        ("GNUmakefile", "make"),
        ("justfile", "just"),
        ("Justfile", "just"),
    ] {
        let Some(text) = sources.text(file) else {
            continue;
        };
        let mut shown = 0;
        let lines: Vec<&str> = text.lines().collect();
        for (index, line) in lines.iter().enumerate() {
            let Some(target) = target_name(line) else {
                continue;
            };
            if !is_check(&target) || shown == sources.detail.limit(SHOWN) {
                continue;
            }
            let recipe = lines[index + 1..]
                .iter()
                .take_while(|l| l.starts_with([' ', '\t']) || l.trim().is_empty())
                .map(|l| l.trim().trim_start_matches(['@', '-']))
                .find(|l| !l.is_empty() && !l.starts_with('#'));
            let practice = match recipe {
                Some(recipe) => format!(
                    "`{tool} {target}` runs `{}`.",
                    sources.detail.shorten(recipe, 80)
                ),
                None => format!("`{tool} {target}`."),
            };
            push(found, "commands", practice, file);
            shown += 1;
        }
        return;
    }
}

/// The target a Makefile/justfile rule line defines (`test:`, `lint *args:`), if it is one.
fn target_name(line: &str) -> Option<String> {
    if line.starts_with([' ', '\t', '#', '.']) {
        return None;
    }
    let (head, tail) = line.split_once(':')?;
    if tail.starts_with('=') || head.contains('=') || head.contains('$') {
        return None;
    }
    let name = head.split_whitespace().next()?;
    name.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .then(|| name.to_string())
}

/// The GitHub Actions workflows and the check commands their steps `run:`.
pub fn ci(sources: &Sources, found: &mut Vec<Practice>) {
    const DIR: &str = ".github/workflows";
    let names: Vec<String> = sources
        .file_names(DIR)
        .into_iter()
        .filter(|n| n.ends_with(".yml") || n.ends_with(".yaml"))
        .collect();
    if names.is_empty() {
        return;
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let practice = format!(
        "CI runs GitHub Actions workflows {}.",
        sources.detail.list(&quoted, 6)
    );
    push(found, "ci", practice, &format!("{DIR}/"));
    let mut runs: Vec<String> = Vec::new();
    // The jobs and their matrices come after what a change must pass (warnings, commands).
    let mut described: Vec<Practice> = Vec::new();
    // Flags making warnings errors in whole workflows, with the workflow setting them.
    let mut denying_everywhere: Vec<(String, String)> = Vec::new();
    for name in names.iter().take(20) {
        let path = format!("{DIR}/{name}");
        let Some(workflow) = sources.yaml(&path) else {
            continue;
        };
        let (everywhere, in_jobs) = warnings(&path, &workflow);
        if let Some(flags) = everywhere {
            denying_everywhere.push((flags, path.clone()));
        }
        found.extend(in_jobs);
        jobs(sources, &path, &workflow, &mut described);
        matrices(sources, &path, &workflow, &mut described);
        let jobs = workflow.get("jobs").and_then(|j| j.as_mapping());
        for job in jobs.into_iter().flat_map(|m| m.values()) {
            let steps = job.get("steps").and_then(|s| s.as_sequence());
            for run in steps
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("run")?.as_str())
            {
                for line in run.lines().map(str::trim) {
                    let command = line.trim_end_matches('\\').trim();
                    let first = command.split_whitespace().next().unwrap_or("");
                    // The program and its words, past runners (`uv run --group dev tox`).
                    let head: Vec<&str> = command
                        .split_whitespace()
                        .filter(|w| !w.starts_with('-') && !w.contains(['/', '.', '$']))
                        .take(6)
                        .collect();
                    // Installing the tools is setup, not a check.
                    let installs = head.iter().any(|w| matches!(*w, "install" | "ci" | "i"));
                    let checks = !installs && head.iter().any(|w| is_check_command(w));
                    if checks
                        && !first.starts_with('#')
                        && first != "echo"
                        && !runs.iter().any(|r| r == command)
                    {
                        runs.push(command.to_string());
                    }
                }
            }
        }
    }
    for (flags, paths) in grouped(denying_everywhere) {
        let files: Vec<String> = paths
            .iter()
            .map(|p| format!("`{}`", RelPath::new(p).file_name()))
            .collect();
        let (noun, verb) = match files.len() {
            1 => ("workflow", "makes"),
            _ => ("workflows", "make"),
        };
        let practice = format!(
            "CI {noun} {} {verb} warnings errors ({flags}, set for the whole workflow; a job may \
             set it otherwise): a change must build without warnings.",
            files.join(", ")
        );
        push(found, "ci", practice, &paths[0]);
    }
    if !runs.is_empty() {
        let quoted: Vec<String> = runs
            .iter()
            .map(|r| format!("`{}`", sources.detail.shorten(r, 60)))
            .collect();
        let practice = format!("CI checks with {}.", sources.detail.list(&quoted, CI_SHOWN));
        push_items(found, "ci", practice, &format!("{DIR}/"), runs);
    }
    found.append(&mut described);
}

/// `pairs` grouped by key, keys in first-seen order, each key's values in order.
fn grouped<K: PartialEq, V>(pairs: Vec<(K, V)>) -> Vec<(K, Vec<V>)> {
    let mut groups: Vec<(K, Vec<V>)> = Vec::new();
    for (key, value) in pairs {
        match groups.iter_mut().find(|(known, _)| *known == key) {
            Some((_, values)) => values.push(value),
            None => groups.push((key, vec![value])),
        }
    }
    groups
}

/// Job names of one workflow listed, at most, unless whole.
const JOBS_SHOWN: usize = 12;

/// The jobs a workflow runs, by name: what a change is checked by (tokio's `basics`, `minrust`,
/// `semver` run on no matrix, so only this line names them).
fn jobs(sources: &Sources, path: &str, workflow: &serde_yaml::Value, found: &mut Vec<Practice>) {
    let names: Vec<String> = workflow_jobs(workflow)
        .map(|(name, _)| format!("`{name}`"))
        .collect();
    if names.len() < 2 {
        return;
    }
    let file = RelPath::new(path).file_name();
    let practice = format!(
        "CI workflow `{file}` runs jobs {}.",
        sources.detail.list(&names, JOBS_SHOWN)
    );
    push(found, "ci", practice, path);
}

/// The jobs of a workflow with their names.
fn workflow_jobs(workflow: &serde_yaml::Value) -> impl Iterator<Item = (&str, &serde_yaml::Value)> {
    workflow
        .get("jobs")
        .and_then(|j| j.as_mapping())
        .into_iter()
        .flatten()
        .filter_map(|(name, job)| Some((name.as_str()?, job)))
}

/// The compiler flags a workflow's environment sets that make warnings errors (`RUSTFLAGS
/// -Dwarnings`, `RUSTDOCFLAGS -D warnings`, `CFLAGS -Werror`), said for where they apply: those
/// set for the whole workflow (joined, a change must build without warnings), and a practice
/// per group of jobs setting the same others (ripgrep's `docs` job's `RUSTDOCFLAGS`: those jobs
/// fail on warnings, not every build).
fn warnings(path: &str, workflow: &serde_yaml::Value) -> (Option<String>, Vec<Practice>) {
    let file = RelPath::new(path).file_name();
    let everywhere = denying_flags(std::iter::once(workflow));
    let mut job_flags: Vec<(Vec<String>, String)> = Vec::new();
    for (name, job) in workflow_jobs(workflow) {
        let steps = job
            .get("steps")
            .and_then(|s| s.as_sequence())
            .into_iter()
            .flatten();
        let mut flags = denying_flags(std::iter::once(job).chain(steps));
        flags.retain(|flag| !everywhere.contains(flag));
        if flags.is_empty() {
            continue;
        }
        job_flags.push((flags, format!("`{name}`")));
    }
    let mut in_jobs = Vec::new();
    for (flags, jobs) in grouped(job_flags) {
        let (noun, verb) = match jobs.len() {
            1 => ("job", "makes"),
            _ => ("jobs", "make"),
        };
        let practice = format!(
            "CI {noun} {} (`{file}`) {verb} warnings errors ({}).",
            jobs.join(", "),
            flags.join(", ")
        );
        push(&mut in_jobs, "ci", practice, path);
    }
    let everywhere = (!everywhere.is_empty()).then(|| everywhere.join(", "));
    (everywhere, in_jobs)
}

/// The warnings-denying compiler flags the `env` of these levels (a workflow, a job, its
/// steps) sets, as `KEY flag`.
fn denying_flags<'a>(levels: impl Iterator<Item = &'a serde_yaml::Value>) -> Vec<String> {
    let mut flags: Vec<String> = Vec::new();
    let envs = levels.filter_map(|level| level.get("env")?.as_mapping());
    for (key, value) in envs.flatten() {
        let (Some(key), Some(value)) = (key.as_str(), scalar(value)) else {
            continue;
        };
        let denying = ["-Dwarnings", "-D warnings", "-Werror"]
            .into_iter()
            .find(|flag| value.contains(flag));
        if let (true, Some(flag)) = (key.ends_with("FLAGS"), denying) {
            let setting = format!("{key} {flag}");
            if !flags.contains(&setting) {
                flags.push(setting);
            }
        }
    }
    flags
}

/// Values of one matrix key shown, at most, unless whole (a version list is rarely longer).
const MATRIX_VALUES_SHOWN: usize = 9;
/// Keys of one matrix shown, at most, unless whole.
const MATRIX_KEYS_SHOWN: usize = 4;

/// Each job of a workflow that runs on a matrix: per key, the distinct values it takes — from its
/// lists and from its `include` entries (`os ubuntu-latest, windows-latest; node-version 18, 19,
/// 20`): the platforms and versions the project is checked on.
fn matrices(
    sources: &Sources,
    path: &str,
    workflow: &serde_yaml::Value,
    found: &mut Vec<Practice>,
) {
    let file = RelPath::new(path).file_name();
    // Jobs on the same matrix are one line (tokio's ten jobs on the same three systems).
    let mut job_axes: Vec<(String, String)> = Vec::new();
    for (name, job) in workflow_jobs(workflow) {
        let Some(matrix) = job
            .get("strategy")
            .and_then(|s| s.get("matrix"))
            .and_then(|m| m.as_mapping())
        else {
            continue;
        };
        let keys = matrix_values(matrix);
        if keys.is_empty() {
            continue;
        }
        let axes: Vec<String> = keys
            .iter()
            .take(sources.detail.limit(MATRIX_KEYS_SHOWN))
            .map(|(key, values)| {
                format!("{key} {}", sources.detail.list(values, MATRIX_VALUES_SHOWN))
            })
            .collect();
        job_axes.push((axes.join("; "), format!("`{name}`")));
    }
    for (axes, jobs) in grouped(job_axes) {
        let practice = match jobs.as_slice() {
            [job] => format!("CI job {job} (`{file}`) runs on a matrix: {axes}."),
            _ => format!(
                "CI jobs {} (`{file}`) run on a matrix: {axes}.",
                sources.detail.list(&jobs, JOBS_SHOWN)
            ),
        };
        push(found, "ci", practice, path);
    }
}

/// The keys of a job's matrix and the distinct scalar values each takes, in first-seen order: its
/// own lists first, then its `include` entries (`exclude` only removes combinations).
fn matrix_values(matrix: &serde_yaml::Mapping) -> Vec<(String, Vec<String>)> {
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |key: &str, value: &serde_yaml::Value| {
        let Some(value) = scalar(value) else {
            return;
        };
        let at = match keys.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                keys.push((key.to_string(), Vec::new()));
                keys.len() - 1
            }
        };
        if !keys[at].1.contains(&value) {
            keys[at].1.push(value);
        }
    };
    for (key, values) in matrix {
        let Some(key) = key
            .as_str()
            .filter(|k| !matches!(*k, "include" | "exclude"))
        else {
            continue;
        };
        for value in values.as_sequence().into_iter().flatten() {
            add(key, value);
        }
    }
    let include = matrix.get("include").and_then(|i| i.as_sequence());
    for entry in include.into_iter().flatten().filter_map(|e| e.as_mapping()) {
        for (key, value) in entry {
            if let Some(key) = key.as_str() {
                add(key, value);
            }
        }
    }
    keys
}

/// A YAML scalar as written (`18`, `ubuntu-latest`, `3.12`); none for a mapping, a list or an
/// expression (`${{ … }}`).
fn scalar(value: &serde_yaml::Value) -> Option<String> {
    let text = match value {
        serde_yaml::Value::String(s) => s.clone(),
        serde_yaml::Value::Number(n) => n.to_string(),
        serde_yaml::Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    (!text.contains("${{") && !text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_gives_each_key_its_values_from_lists_and_includes() {
        let yaml: serde_yaml::Value = serde_yaml::from_str(
            "os: [ubuntu-latest, windows-latest]\nnode-version: [18, 20]\ninclude:\n  - os: macos-latest\n    node-version: 20\n    experimental: true\n  - python: ${{ inputs.py }}\nexclude:\n  - os: windows-latest\n",
        )
        .expect("yaml");
        let matrix = yaml.as_mapping().expect("mapping");
        assert_eq!(
            matrix_values(matrix),
            [
                (
                    "os".to_string(),
                    vec![
                        "ubuntu-latest".to_string(),
                        "windows-latest".into(),
                        "macos-latest".into()
                    ]
                ),
                (
                    "node-version".to_string(),
                    vec!["18".to_string(), "20".into()]
                ),
                ("experimental".to_string(), vec!["true".to_string()]),
            ]
        );
    }

    #[test]
    fn check_names_are_recognised_by_their_words() {
        assert!(is_check("test"));
        assert!(is_check("lint:fix"));
        assert!(is_check("test-ci"));
        assert!(!is_check("build"));
        assert!(!is_check("latest"));
    }

    #[test]
    fn make_and_just_targets() {
        assert_eq!(target_name("test: build").as_deref(), Some("test"));
        assert_eq!(target_name("lint *args:").as_deref(), Some("lint"));
        assert_eq!(target_name("CC := gcc"), None);
        assert_eq!(target_name(".PHONY: test"), None);
        assert_eq!(target_name("\tcargo test"), None);
    }
}
