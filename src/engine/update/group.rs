//! Group design files (mapping strategy `grouped`, seed §2 hybrid mirroring): one
//! `.lexibrary/<dir>/_group.md` per directory whose files are documented together — test fixtures
//! and samples by default — instead of a design file each. It says what the directory holds and
//! lists each member with its description, within `design_file_tokens` (the rest counted). The
//! indexes stage writes it beside the directory's `.aindex`, and removes it when the directory has
//! no grouped file left.

/// Directory names whose files are test data (the default `grouped` rules).
const TEST_DATA_DIRS: &[&str] = &["fixtures", "__fixtures__", "testdata", "samples"];

/// Bytes per token assumed when keeping the list within the budget (as the structural Archivist).
const BYTES_PER_TOKEN: usize = 3;
/// Bytes the heading and the opening sentence take.
const FIXED_BYTES: usize = 300;
/// Fewest members listed, whatever the budget.
const MIN_LISTED: usize = 5;

/// The text of the group design file of `dir` with `members` (name, description), sorted by name.
/// `budget_tokens` 0 = no budget.
pub fn render(dir: &str, members: &[(String, String)], budget_tokens: usize) -> String {
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
    let count = match members.len() {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let mut out = format!(
        "# {shown_dir} (grouped)\n\n{what} {count} mapped `grouped`: described here together, with no design file each.\n\n"
    );
    let room = match budget_tokens {
        0 => usize::MAX,
        budget => (budget * BYTES_PER_TOKEN).saturating_sub(FIXED_BYTES),
    };
    let mut used = 0;
    for (index, (name, description)) in members.iter().enumerate() {
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
                    format!("JavaScript source ({i} lines)"),
                )
            })
            .collect();
        let text = render("tests/fixtures", &members[..2], 1000);
        assert!(
            text.starts_with("# tests/fixtures/ (grouped)\n\nTest data:"),
            "{text}"
        );
        assert!(text.contains("- `case_01.js` — JavaScript source (1 lines)\n"));
        let capped = render("data", &members, 100);
        assert!(
            capped.contains("Files documented together. 40 files"),
            "{capped}"
        );
        assert!(
            capped.contains("… and 35 more: `lexi index data`"),
            "{capped}"
        );
        assert!(render("data", &members, 0).contains("case_39.js"));
    }
}
