//! What is in `.lexibrary/` besides the library's own files: symbolic links (which Lexibrarian never
//! follows — one can arrive in a pull request pointing anywhere, `/etc/passwd` included) and stray
//! files (a temporary file a killed write left, anything the library does not know). Plus a
//! symlinked `.lexignore`, which no walk reads through, and ignore files that are FIFOs, sockets or
//! devices, which nothing opens.

use super::{Issue, Severity};
use crate::project::ignores::LEXIGNORE_FILE;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::library::{Kind, Listing};

/// Names any directory may hold that are not library files (placeholders git needs).
const ALLOWED_EXTRA: &[&str] = &[".gitkeep", ".keep", ".gitignore", ".gitattributes"];

/// Symlinks and stray files in `listing` (the whole library), and a symlinked root `.lexignore`.
pub(super) fn check(project: &Project, listing: &Listing) -> Vec<Issue> {
    let mut issues: Vec<Issue> = listing
        .symlinks
        .iter()
        .map(|rel| symlink(project, &format!("{LIBRARY_DIR}/{rel}")))
        .collect();
    if crate::nofollow::is_symlink(&project.root, LEXIGNORE_FILE) {
        issues.push(symlink(project, LEXIGNORE_FILE));
    }
    for entry in &listing.files {
        if entry.kind != Kind::Other || ALLOWED_EXTRA.contains(&entry.name()) {
            continue;
        }
        let file = format!("{LIBRARY_DIR}/{}", entry.rel);
        let temporary = crate::atomic::is_temp_name(entry.name());
        if temporary && !crate::atomic::is_debris(entry.name()) {
            continue; // a write in progress
        }
        issues.push(stray(file, temporary));
    }
    issues
}

/// An ignore file the walk refused to read: a `symlink` error when it is one, else a `special-file`
/// error naming what it is (a FIFO, a socket, a device — never opened).
pub(super) fn unreadable_ignore_file(project: &Project, file: &str) -> Issue {
    match crate::nofollow::entry_type(&project.abs(file)) {
        Some(kind) if kind != rustix::fs::FileType::Symlink => Issue {
            check: "special-file",
            severity: Severity::Error,
            file: file.to_string(),
            line: None,
            message: format!(
                "is {}, not a regular file; Lexibrarian never opens it (a FIFO would block, a device never end)",
                crate::nofollow::describe_type(kind)
            ),
            hint: "remove it, or replace it with a regular file".into(),
        },
        _ => symlink(project, file),
    }
}

/// A `symlink` error for project-relative `file`, naming where it points.
pub(super) fn symlink(project: &Project, file: &str) -> Issue {
    let target = std::fs::read_link(project.abs(file))
        .map(|target| format!(" (to {})", target.display()))
        .unwrap_or_default();
    Issue {
        check: "symlink",
        severity: Severity::Error,
        file: file.to_string(),
        line: None,
        message: format!("is a symbolic link{target}; Lexibrarian never reads or writes through it"),
        hint: "replace it with the regular file it should be (`git rm` it; `lexictl update` writes what belongs there)".into(),
    }
}

fn stray(file: String, temporary: bool) -> Issue {
    let (message, hint) = if temporary {
        (
            "a temporary file left by an interrupted write",
            "delete it (`lexictl update` removes these after an interrupted run); it is gitignored since `lexictl setup --update`",
        )
    } else {
        (
            "not a library file (no design file, index, concept or Stack post is named like this)",
            "move it out of .lexibrary/, or delete it",
        )
    };
    Issue {
        check: "stray-file",
        severity: Severity::Warning,
        file,
        line: None,
        message: message.into(),
        hint: hint.into(),
    }
}
