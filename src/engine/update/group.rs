//! Group design files (mapping strategy `grouped`, seed §2 hybrid mirroring): one
//! `.lexibrary/<dir>/_group.md` per *group root* — the outermost directory mapped `grouped`
//! (`tests/fixtures/`, `packages/svelte/tests/runtime/samples/`, `crates/x/resources/`) — whose
//! files are documented together instead of a design file each. It says what the directory holds,
//! lists each of its files with its description and names its subdirectories (each sample of a
//! `samples/` directory), within `design_file_tokens` (the rest counted). The grouped directories
//! below a group root get neither a group file nor an `.aindex`. The indexes stage
//! writes it beside the directory's `.aindex`, and removes it when nothing grouped is left.

/// Directory names whose files are test data (the default `grouped` rules).
const TEST_DATA_DIRS: &[&str] = &[
    "fixtures",
    "__fixtures__",
    "testdata",
    "test-data",
    "test_data",
    "samples",
    "resources",
];
/// Subdirectories named, at most.
const MAX_SUBDIRS: usize = 12;

/// Bytes per token assumed when keeping the list within the budget (as the structural Archivist).
const BYTES_PER_TOKEN: usize = 3;
/// Bytes the heading and the opening sentence take.
const FIXED_BYTES: usize = 300;
/// Fewest members listed, whatever the budget.
const MIN_LISTED: usize = 5;

/// The text of the group design file of `dir` with `members` (name, description), sorted by name.
/// `budget_tokens` 0 = no budget.
pub fn render(
    dir: &str,
    members: &[(String, String)],
    subdirs: &[String],
    budget_tokens: usize,
) -> String {
    let shown_dir = if dir.is_empty() {
        "./".to_string()
    } else {
        format!("{dir}/")
    };
    let test_data = dir.split('/').any(|part| TEST_DATA_DIRS.contains(&part));
    let what = if test_data {
        "Test data: fixture and sample files that tests read."
    } else {
        "Files documented together."
    };
    let count = match (members.len(), subdirs.len()) {
        (1, 0) => "1 file".to_string(),
        (n, 0) => format!("{n} files"),
        (0, 1) => "1 directory".to_string(),
        (0, d) => format!("{d} directories"),
        (n, d) => format!("{n} files and {d} directories"),
    };
    let mut out = format!(
        "# {shown_dir} (grouped)\n\n{what} {count} mapped `grouped`: described here together, with no design file each.\n\n"
    );
    if !subdirs.is_empty() {
        let shown: Vec<String> = subdirs
            .iter()
            .take(MAX_SUBDIRS)
            .map(|sub| format!("`{sub}/`"))
            .collect();
        let more = match subdirs.len().saturating_sub(MAX_SUBDIRS) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        out.push_str(&format!("Directories: {}{more}.\n\n", shown.join(", ")));
    }
    let room = match budget_tokens {
        0 => usize::MAX,
        budget => (budget * BYTES_PER_TOKEN).saturating_sub(FIXED_BYTES),
    };
    let mut used = 0;
    for (index, (name, description)) in members.iter().enumerate() {
        // Beside its name, a description does not repeat it (as a Child Map row).
        let description = crate::workspace::child_map::row_description(name, description);
        let line = format!("- `{name}` — {}\n", description.replace('\n', " "));
        used += line.len();
        if used > room && index >= MIN_LISTED {
            let rest = members.len() - index;
            out.push_str(&format!(
                "… and {rest} more: `lexi index {}`\n",
                if dir.is_empty() { "." } else { dir }
            ));
            break;
        }
        out.push_str(&line);
    }
    crate::secrets::redact(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_lists_its_members_within_the_budget() {
        let members: Vec<(String, String)> = (0..40)
            .map(|i| {
                (
                    format!("case_{i:02}.js"),
                    format!("JavaScript source number {i}"),
                )
            })
            .collect();
        let text = render("tests/fixtures", &members[..2], &[], 1000);
        assert!(
            text.starts_with("# tests/fixtures/ (grouped)\n\nTest data:"),
            "{text}"
        );
        assert!(text.contains("- `case_01.js` — JavaScript source number 1\n"));
        let capped = render("data", &members, &[], 100);
        assert!(
            capped.contains("Files documented together. 40 files"),
            "{capped}"
        );
        assert!(
            capped.contains("… and 35 more: `lexi index data`"),
            "{capped}"
        );
        assert!(render("data", &members, &[], 0).contains("case_39.js"));
        let samples: Vec<String> = (0..20).map(|i| format!("case-{i:02}")).collect();
        let dirs = render("tests/runtime/samples", &[], &samples, 400);
        assert!(
            dirs.contains("Test data: fixture and sample files that tests read. 20 directories"),
            "{dirs}"
        );
        assert!(
            dirs.contains("Directories: `case-00/`, `case-01/`") && dirs.contains(" and 8 more.\n"),
            "{dirs}"
        );
    }
}
