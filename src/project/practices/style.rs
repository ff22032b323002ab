//! The style tools of no one language: the pre-commit hooks and `.editorconfig`. Each language's
//! own linters and formatters are its `practices.rs` (`source/lang/<language>/practices.rs`).

use super::{push, push_items, Practice, Sources};

/// The most rules, options or hooks named in one line (the rest are counted).
const SHOWN: usize = 10;

/// The hooks pre-commit runs.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    pre_commit(sources, found);
}

/// The hook ids of `.pre-commit-config.yaml`.
fn pre_commit(sources: &Sources, found: &mut Vec<Practice>) {
    const FILE: &str = ".pre-commit-config.yaml";
    let Some(config) = sources.yaml(FILE) else {
        return;
    };
    let ids: Vec<String> = config
        .get("repos")
        .and_then(|r| r.as_sequence())
        .into_iter()
        .flatten()
        .filter_map(|repo| repo.get("hooks")?.as_sequence())
        .flatten()
        .filter_map(|hook| hook.get("id")?.as_str().map(str::to_string))
        .collect();
    let practice = match ids.is_empty() {
        true => "pre-commit runs hooks before each commit.".to_string(),
        false => format!(
            "pre-commit runs {} before each commit (`pre-commit run --all-files`).",
            sources.detail.list(&ids, SHOWN)
        ),
    };
    push_items(found, "style", practice, FILE, ids);
}

/// `.editorconfig`'s settings per glob (the first three globs that set any).
pub fn editor(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(text) = sources.text(".editorconfig") else {
        return;
    };
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(glob) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sections.push((glob.to_string(), Vec::new()));
            continue;
        }
        let (Some((key, value)), Some((_, settings))) = (line.split_once('='), sections.last_mut())
        else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if matches!(
            key,
            "indent_style"
                | "indent_size"
                | "end_of_line"
                | "max_line_length"
                | "insert_final_newline"
                | "trim_trailing_whitespace"
        ) {
            settings.push(format!("{key} = {value}"));
        }
    }
    for (glob, settings) in sections
        .iter()
        .filter(|(_, s)| !s.is_empty())
        .take(sources.detail.limit(3))
    {
        let files = match glob.as_str() {
            "*" => "Every file".to_string(),
            glob => format!("`{glob}`"),
        };
        let practice = format!("{files}: {}.", settings.join(", "));
        push(found, "editor", practice, ".editorconfig");
    }
}
