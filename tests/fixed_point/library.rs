//! A library as bytes, and what differs between two of them: the report a failed property prints.
//!
//! A snapshot is every file under `.lexibrary/` except the gitignored `.cache/` (the lock), by
//! path.
//! The comparison lists every file that is only on one side or differs, then shows the unified diff
//! of the first differing file (all of it when it is short, else its first lines).

use std::collections::BTreeMap;
use std::path::Path;

/// Every file of the library under `root`, by path relative to `root`.
pub fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    collect(root, &root.join(".lexibrary"), &mut files);
    files
}

fn collect(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let rel = path
            .strip_prefix(root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if rel == ".lexibrary/.cache" {
            continue;
        }
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => collect(root, &path, files),
            Ok(_) => {
                files.insert(rel, std::fs::read(&path).expect("read a library file"));
            }
            Err(err) => panic!("{}: {err}", path.display()),
        }
    }
}

/// Lines of a diff shown at most.
const MAX_DIFF_LINES: usize = 80;

/// `None` when `left` and `right` hold the same bytes, else a report naming every difference and
/// showing the first differing file's unified diff.
pub fn compare(
    left_name: &str,
    left: &BTreeMap<String, Vec<u8>>,
    right_name: &str,
    right: &BTreeMap<String, Vec<u8>>,
) -> Option<String> {
    let mut lines = Vec::new();
    let mut first_diff = None;
    let paths: std::collections::BTreeSet<&String> = left.keys().chain(right.keys()).collect();
    for path in paths {
        match (left.get(path), right.get(path)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => {
                lines.push(format!("  differs:          {path}"));
                if first_diff.is_none() {
                    first_diff = Some(unified(path, left_name, a, right_name, b));
                }
            }
            (Some(a), None) => {
                lines.push(format!("  only in {left_name}: {path}"));
                if first_diff.is_none() {
                    first_diff = Some(unified(path, left_name, a, right_name, b""));
                }
            }
            (None, Some(b)) => {
                lines.push(format!("  only in {right_name}: {path}"));
                if first_diff.is_none() {
                    first_diff = Some(unified(path, left_name, b"", right_name, b));
                }
            }
            (None, None) => {}
        }
    }
    if lines.is_empty() {
        return None;
    }
    Some(format!(
        "{} library file(s) differ between {left_name} (-) and {right_name} (+):\n{}\n\n{}",
        lines.len(),
        lines.join("\n"),
        first_diff.unwrap_or_default()
    ))
}

/// The unified diff of one file, cut at [`MAX_DIFF_LINES`].
pub fn unified(path: &str, left_name: &str, left: &[u8], right_name: &str, right: &[u8]) -> String {
    let left = String::from_utf8_lossy(left);
    let right = String::from_utf8_lossy(right);
    let diff = similar::TextDiff::from_lines(left.as_ref(), right.as_ref());
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("{left_name}/{path}"),
            &format!("{right_name}/{path}"),
        )
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_DIFF_LINES {
        return text;
    }
    format!(
        "{}\n… {} more diff lines",
        lines[..MAX_DIFF_LINES].join("\n"),
        lines.len() - MAX_DIFF_LINES
    )
}

/// What kind of difference there is at `path`: the kind of library file and the part of it that
/// differs (`design file: Dependents`, `.aindex: Child Map`, `START_HERE.md: Navigation by
/// Intent`, `design file: only in full`), one entry per differing part.
pub fn difference_kinds(
    path: &str,
    (left_name, left): (&str, Option<&[u8]>),
    (right_name, right): (&str, Option<&[u8]>),
) -> Vec<String> {
    let file = file_kind(path);
    let (left, right) = match (left, right) {
        (Some(left), Some(right)) => (left, right),
        (Some(_), None) => return vec![format!("{file}: only in {left_name}")],
        (None, Some(_)) => return vec![format!("{file}: only in {right_name}")],
        (None, None) => return Vec::new(),
    };
    let left = parts(&String::from_utf8_lossy(left));
    let right = parts(&String::from_utf8_lossy(right));
    let names: std::collections::BTreeSet<&String> = left.keys().chain(right.keys()).collect();
    names
        .into_iter()
        .filter(|name| left.get(*name) != right.get(*name))
        .map(|name| format!("{file}: {name}"))
        .collect()
}

/// Every kind of difference between two libraries (see [`difference_kinds`]).
pub fn all_difference_kinds(
    left_name: &str,
    left: &BTreeMap<String, Vec<u8>>,
    right_name: &str,
    right: &BTreeMap<String, Vec<u8>>,
) -> std::collections::BTreeSet<String> {
    left.keys()
        .chain(right.keys())
        .filter(|path| left.get(*path) != right.get(*path))
        .flat_map(|path| {
            difference_kinds(
                path,
                (left_name, left.get(path).map(Vec::as_slice)),
                (right_name, right.get(path).map(Vec::as_slice)),
            )
        })
        .collect()
}

fn file_kind(path: &str) -> &'static str {
    match path.rsplit('/').next().unwrap_or(path) {
        "START_HERE.md" => "START_HERE.md",
        ".aindex" => ".aindex",
        "_group.md" => "group file",
        name if name.ends_with(".md") => "design file",
        _ => "other file",
    }
}

/// A library file cut into named parts: `frontmatter`, `title` (the text under the `# ` heading:
/// a billboard, an intro), each `## ` section by its heading, `footer`, `after the footer`.
/// Headings inside code fences are content.
fn parts(text: &str) -> BTreeMap<String, String> {
    let mut parts: BTreeMap<String, String> = BTreeMap::new();
    let mut current = "before the title".to_string();
    let mut lines = text.split_inclusive('\n').peekable();
    if text.starts_with("---\n") {
        let mut front = String::new();
        front.push_str(lines.next().unwrap_or_default());
        for line in lines.by_ref() {
            front.push_str(line);
            if line == "---\n" {
                break;
            }
        }
        parts.insert("frontmatter".into(), front);
    }
    let mut fenced = false;
    let mut footer_done = false;
    for line in lines {
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
        }
        if !fenced {
            if line.starts_with("<!-- lexibrarian:meta") {
                current = "footer".into();
            } else if current == "footer" && footer_done {
                current = "after the footer".into();
            } else if current != "footer" && current != "after the footer" {
                if line.starts_with("# ") {
                    current = "title".into();
                } else if let Some(heading) = line.strip_prefix("## ") {
                    current = heading.trim().to_string();
                }
            }
        }
        parts.entry(current.clone()).or_default().push_str(line);
        if current == "footer" && line.trim_end() == "-->" {
            footer_done = true;
        }
    }
    parts
}
