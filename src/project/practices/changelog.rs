//! Where changes are recorded: the first changelog at the root and its newest section, else each
//! package's own (one directory down: tokio's `tokio/CHANGELOG.md`, `tokio-util/CHANGELOG.md`).
//! The language levels the manifests pin are each language's `practices.rs`.

use super::{push, Practice, Sources};

/// Changelog file names, in the order they are looked for at the root.
const CHANGELOGS: [&str; 8] = [
    "CHANGELOG.md",
    "CHANGES.md",
    "CHANGES.rst",
    "HISTORY.md",
    "History.md",
    "HISTORY.rst",
    "CHANGELOG",
    "CHANGES",
];

/// Where changes are recorded.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    changelog(sources, found);
}

/// Where changes are recorded: the first changelog at the root, with its first section's title
/// (where an entry goes: "Unreleased", "TBD", the next version).
fn changelog(sources: &Sources, found: &mut Vec<Practice>) {
    let Some((name, text)) = CHANGELOGS
        .iter()
        .find_map(|name| Some((*name, sources.text(name)?)))
    else {
        package_changelogs(sources, found);
        return;
    };
    let practice = match newest_section(&text) {
        Some(section) => {
            format!("Changes are recorded in {name}; the newest section is \"{section}\".")
        }
        None => format!("Changes are recorded in {name}."),
    };
    push(found, "changelog", practice, name);
}

/// Changelog files named at most, then how many more.
const PACKAGE_CHANGELOGS_NAMED: usize = 3;

/// Without a changelog at the root, the changelogs of the directories one level down — each
/// package its own — with the first one's newest section.
fn package_changelogs(sources: &Sources, found: &mut Vec<Practice>) {
    let files: Vec<String> = sources
        .dir_names("")
        .into_iter()
        .filter_map(|dir| {
            let names = sources.file_names(&dir);
            let name = CHANGELOGS.iter().find(|c| names.iter().any(|n| n == *c))?;
            Some(format!("{dir}/{name}"))
        })
        .collect();
    let Some(first) = files.first() else {
        return;
    };
    let mut named: Vec<String> = files
        .iter()
        .take(PACKAGE_CHANGELOGS_NAMED)
        .cloned()
        .collect();
    if files.len() > PACKAGE_CHANGELOGS_NAMED {
        named.push(format!("{} more", files.len() - PACKAGE_CHANGELOGS_NAMED));
    }
    let mut practice = format!(
        "Each package records its changes in its own changelog: {}",
        named.join(", ")
    );
    if let Some(section) = sources.text(first).as_deref().and_then(newest_section) {
        practice.push_str(&format!("; {first}'s newest section is \"{section}\""));
    }
    practice.push('.');
    push(found, "changelog", practice, first);
}

/// The first section title of a changelog — a Markdown `#` heading or a setext/reST title (a line
/// underlined with `=`, `-` or `~`) — past a title that only says it is a changelog.
fn newest_section(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let underline = |line: &str| {
        line.len() >= 3
            && ['=', '-', '~']
                .iter()
                .any(|mark| line.chars().all(|c| c == *mark))
    };
    let headings = lines.iter().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        if let Some(title) = line.strip_prefix('#') {
            return Some(title.trim_start_matches('#').trim().to_string());
        }
        let next = lines.get(i + 1).map(|next| next.trim()).unwrap_or("");
        (!line.is_empty() && !underline(line) && underline(next)).then(|| line.to_string())
    });
    headings.filter(|title| !title.is_empty()).find(|title| {
        let lower = title.to_ascii_lowercase();
        ![
            "changelog",
            "change log",
            "changes",
            "history",
            "release notes",
            "release history",
        ]
        .iter()
        .any(|generic| lower.trim_end_matches('.') == *generic)
    })
}

#[cfg(test)]
mod tests {
    use super::newest_section;

    #[test]
    fn a_changelogs_newest_section_is_its_first_title_past_the_generic_one() {
        assert_eq!(
            newest_section("# Changelog\n\n## [Unreleased]\n\n- x\n\n## 1.0.0\n").as_deref(),
            Some("[Unreleased]")
        );
        assert_eq!(
            newest_section("TBD\n===\nUnreleased changes.\n\n15.2.0 (2026-07-15)\n===\n")
                .as_deref(),
            Some("TBD")
        );
        assert_eq!(
            newest_section("Version 3.2.0\n-------------\n\nUnreleased\n").as_deref(),
            Some("Version 3.2.0")
        );
        assert_eq!(newest_section("Just prose.\n"), None);
    }
}
