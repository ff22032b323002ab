//! The secret scan of `lexictl validate`: anything under `.lexibrary/` that looks like a credential.
//! Design files, concepts and Stack posts are committed and read by every agent; a pasted key there
//! is a leak.
//!
//! What is detected is [`crate::secrets`]'s business (the one scanner, shared with the update and the
//! model request path); here every finding, likely or certain, is an error. The matched value is never
//! printed: findings name the kind, file and line.

use super::validate::{Issue, Severity};
use crate::project::mirror::IWH_FILE;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::library::Listing;

/// Findings for one text (at most one per line); `file` is the project-relative path. The scanner
/// is the one the update uses on sources ([`crate::secrets`]); here every finding is an error.
pub fn scan_text(file: &str, text: &str) -> Vec<Issue> {
    crate::secrets::scan(text.as_bytes())
        .into_iter()
        .map(|finding| Issue {
            check: "secret",
            severity: Severity::Error,
            file: file.to_string(),
            line: Some(finding.line),
            message: format!("line {} looks like {}", finding.line, finding.kind),
            hint: "remove it from the library (and from git history), rotate the credential, and keep secrets out of design files".into(),
        })
        .collect()
}

/// Scan every file of `listing` (the whole library but the derived cache) except `.iwh` notes
/// (gitignored).
pub fn scan_library(project: &Project, listing: &Listing) -> Vec<Issue> {
    use rayon::prelude::*;
    let files: Vec<&str> = listing
        .files
        .iter()
        .filter(|entry| entry.name() != IWH_FILE)
        .map(|entry| entry.rel.as_str())
        .collect();
    files
        .par_iter()
        .flat_map(|rel| {
            let shown = format!("{LIBRARY_DIR}/{rel}");
            // Never past the size a library file may have (a larger one is reported as such).
            match project.read_library(&shown) {
                Ok(bytes) => scan_text(&shown, &String::from_utf8_lossy(&bytes)),
                Err(_) => Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_are_errors_that_never_show_the_value() {
        let text = format!(
            "# notes\n\n{}\nThe token is refreshed every hour.\n",
            crate::secrets::samples::github_token()
        );
        let issues = scan_text(".lexibrary/x.md", &text);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].line, Some(3));
        assert_eq!(issues[0].severity, Severity::Error);
        assert!(
            !issues[0].message.contains("R4nd0m"),
            "{}",
            issues[0].message
        );
    }
}
