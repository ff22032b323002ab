//! What a file that is not parsed code is for, read from its own text and its conventional place
//! (issue 32: a kind alone — "YAML file.", "File." — was shared by every workflow, template and
//! build file of a project). Each reader uses the real parser where the crate has one:
//!
//! - a GitHub Actions workflow (`.github/workflows/*.yml`): its `name` and its triggers;
//! - a GitHub issue form (`.github/ISSUE_TEMPLATE/*.yml`): its `name` and `description`; the issue
//!   template chooser (`config.yml` there): the contact links it offers;
//! - Dependabot's configuration: the ecosystems it updates;
//! - any other YAML or JSON file whose top-level map has a string `name`, `title` or `description`;
//! - a Maven `pom.xml`: its `artifactId`/`name` and `description` (a small scan of the top-level
//!   elements: no XML crate is a dependency);
//! - an HTML document or a template: its `<title>`, else its first heading, with template tags
//!   (`{{ … }}`, `<% … %>`, `{% … %}`) standing as `…` — a title that opens with one says nothing;
//! - a shell script: its first comment line that is not a shebang, licence or `set` line;
//! - a Protocol Buffers file: its `package` and its first messages, enums or services.
//!
//! `None` when nothing can be said: the caller then names the file.

use super::describe::{first_sentence, quoted_list};
use crate::relpath::RelPath;

/// Most names (triggers, ecosystems, messages) a content description lists before "and more".
const LISTED: usize = 3;

/// What `text` at `source` is for, or `None` when its content says nothing.
pub fn about(source: &str, text: &str) -> Option<String> {
    let path = RelPath::new(source);
    let ext = path.extension().map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("yml" | "yaml") => {
            // Read in document order (a workflow's triggers as written), then as JSON values.
            let ordered = serde_yaml::from_str::<serde_yaml::Value>(text).ok()?;
            let value = serde_json::to_value(&ordered).ok()?;
            let triggers = ordered
                .get("on")
                .and_then(serde_yaml::Value::as_mapping)
                .map(|events| {
                    let names = events.keys().filter_map(serde_yaml::Value::as_str);
                    names.map(str::to_string).collect()
                });
            structured(source, &value, triggers)
        }
        Some("json") => {
            let value = serde_json::from_str::<serde_json::Value>(text).ok()?;
            structured(source, &value, None)
        }
        Some("xml") if path.file_name() == "pom.xml" => pom(text),
        Some("proto") => proto(text),
        Some("sh" | "bash" | "zsh" | "fish") => {
            script_comment(text).map(|line| format!("{}: {line}", crate::source::kind_name(source)))
        }
        _ if is_markup(source) => {
            markup_title(text).map(|title| format!("{}: {title}", crate::source::kind_name(source)))
        }
        _ => None,
    }
}

/// Whether `source` is an HTML document or a template of HTML (`.ejs`, `.hbs`, Jinja, …).
fn is_markup(source: &str) -> bool {
    let ext = RelPath::new(source)
        .extension()
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    matches!(
        ext.as_str(),
        "html"
            | "htm"
            | "xhtml"
            | "ejs"
            | "hbs"
            | "handlebars"
            | "mustache"
            | "j2"
            | "jinja"
            | "jinja2"
            | "njk"
            | "twig"
            | "liquid"
            | "erb"
            | "vue"
            | "svelte"
    )
}

/// A YAML or JSON document by its place (a workflow, an issue form, Dependabot's configuration),
/// else by the `name`/`title`/`description` strings of its top-level map. `triggers`: a workflow's
/// events in document order, when its `on` is a map.
fn structured(
    source: &str,
    value: &serde_json::Value,
    triggers: Option<Vec<String>>,
) -> Option<String> {
    let kind = crate::source::kind_name(source);
    let map = value.as_object()?;
    let text = |key: &str| {
        map.get(key)
            .and_then(serde_json::Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let path = RelPath::new(source);
    let dir = path.parent().map_or("", |parent| parent.as_str());
    let about = text("description").and_then(first_sentence);
    if dir.ends_with(".github/workflows") {
        return Some(workflow(
            path.file_name(),
            text("name"),
            map.get("on"),
            triggers,
        ));
    }
    if dir.ends_with(".github/ISSUE_TEMPLATE") {
        if let Some(name) = text("name") {
            return Some(with_about(format!("GitHub issue form `{name}`"), about));
        }
        if let Some(links) = map.get("contact_links").and_then(|v| v.as_array()) {
            let names: Vec<&str> = links
                .iter()
                .filter_map(|link| link.get("name").and_then(|n| n.as_str()))
                .collect();
            if !names.is_empty() {
                return Some(format!(
                    "GitHub issue template chooser, with the contact links {}.",
                    quoted_list(&names, 2)
                ));
            }
        }
    }
    if dir.ends_with(".github") && path.stem() == "dependabot" {
        let mut ecosystems: Vec<&str> = Vec::new();
        for update in map.get("updates").and_then(|v| v.as_array())? {
            if let Some(name) = update.get("package-ecosystem").and_then(|v| v.as_str()) {
                if !ecosystems.contains(&name) {
                    ecosystems.push(name);
                }
            }
        }
        if ecosystems.is_empty() {
            return None;
        }
        return Some(format!(
            "Dependabot configuration: updates {}.",
            quoted_list(&ecosystems, LISTED)
        ));
    }
    let title = text("name").or_else(|| text("title")).map(one_line);
    match (title, about) {
        (Some(title), Some(about)) => Some(format!("{kind}: {title} — {about}")),
        (Some(title), None) => Some(terminated(&format!("{kind}: {title}"))),
        (None, Some(about)) => Some(format!("{kind}: {about}")),
        (None, None) => None,
    }
}

/// `what`, then its `about` sentence (ending in its own mark) after a colon, else a period.
fn with_about(what: String, about: Option<String>) -> String {
    match about {
        Some(about) => format!("{what}: {about}"),
        None => format!("{what}."),
    }
}

/// "GitHub Actions workflow `CI` (on push, pull_request)." — named by its file when it has no
/// `name`; its triggers as the `on` key gives them (a word, a list, or a map of events).
fn workflow(
    file: &str,
    name: Option<&str>,
    on: Option<&serde_json::Value>,
    ordered: Option<Vec<String>>,
) -> String {
    let triggers: Vec<String> = match (ordered, on) {
        (Some(ordered), _) => ordered,
        (None, Some(serde_json::Value::String(event))) => vec![event.clone()],
        (None, Some(serde_json::Value::Array(events))) => events
            .iter()
            .filter_map(|e| e.as_str().map(str::to_string))
            .collect(),
        (None, Some(serde_json::Value::Object(events))) => events.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let name = name.map_or_else(|| file.to_string(), one_line);
    let shown: Vec<&str> = triggers.iter().take(LISTED).map(String::as_str).collect();
    let more = if triggers.len() > LISTED {
        " and more"
    } else {
        ""
    };
    match shown.is_empty() {
        true => format!("GitHub Actions workflow `{name}`."),
        false => format!(
            "GitHub Actions workflow `{name}` (on {}{more}).",
            shown.join(", ")
        ),
    }
}

/// `text` on one line, whitespace folded.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A Maven POM: "Maven POM of `gson-parent`: Gson JSON library." from the `artifactId`, `name`
/// and `description` directly under `<project>` (never a parent's or a dependency's).
fn pom(text: &str) -> Option<String> {
    let top = top_level_elements(text);
    let get = |tag: &str| {
        top.iter()
            .find(|(name, _)| *name == tag)
            .map(|(_, value)| one_line(value))
            .filter(|value| !value.is_empty() && !value.contains("${"))
    };
    let artifact = get("artifactId");
    let name = get("name").filter(|name| {
        artifact
            .as_ref()
            .is_none_or(|artifact| !name.eq_ignore_ascii_case(artifact))
    });
    let what = match (&artifact, &name) {
        (Some(artifact), Some(name)) => format!("Maven POM of `{artifact}` ({name})"),
        (Some(artifact), None) => format!("Maven POM of `{artifact}`"),
        (None, Some(name)) => format!("Maven POM of {name}"),
        (None, None) => return None,
    };
    let about = get("description").as_deref().and_then(first_sentence);
    Some(with_about(what, about))
}

/// The simple elements one level below the root element of an XML document, as (tag, text):
/// comments, processing instructions and nested elements skipped; `None`-free, best effort.
fn top_level_elements(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let Some(close) = rest.find('>') else {
            break;
        };
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        if tag.starts_with(['?', '!']) || tag.ends_with('/') {
            continue;
        }
        if tag.starts_with('/') {
            depth = depth.saturating_sub(1);
            continue;
        }
        let name = tag.split_whitespace().next().unwrap_or("");
        depth += 1;
        if depth == 2 {
            let end = format!("</{name}>");
            if let Some(at) = rest.find(&end) {
                let value = &rest[..at];
                if !value.contains('<') {
                    out.push((name, value.trim()));
                    rest = &rest[at + end.len()..];
                    depth -= 1;
                }
            }
        }
    }
    out
}

/// A `.proto` file: "Protocol Buffers schema of package `a.b`: messages `Bag`, `Item` and more."
fn proto(text: &str) -> Option<String> {
    let mut package = None;
    let mut defined: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim) {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("package"), Some(name)) => package = Some(name.trim_end_matches(';')),
            (Some("message" | "enum" | "service"), Some(name)) => {
                defined.push(name.trim_end_matches('{'));
            }
            _ => {}
        }
    }
    let package = package?;
    Some(match defined.is_empty() {
        true => format!("Protocol Buffers schema of package `{package}`."),
        false => format!(
            "Protocol Buffers schema of package `{package}`: defines {}.",
            quoted_list(&defined, 2)
        ),
    })
}

/// The first comment paragraph of a script that says something — its first sentence: not a
/// shebang, a licence or copyright line, a tool directive (`#compdef`, `shellcheck`, `vim:`) or a
/// ruler; `None` when code comes before any such comment (a `set -e` line does not count).
fn script_comment(text: &str) -> Option<String> {
    let mut paragraph: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("#!") || (paragraph.is_empty() && line.is_empty()) {
            continue;
        }
        let Some(comment) = line.strip_prefix('#') else {
            if !paragraph.is_empty() {
                break;
            }
            if line.starts_with("set ") {
                continue;
            }
            return None;
        };
        let comment = comment.trim_start_matches('#').trim();
        let lower = comment.to_lowercase();
        let directive = [
            "shellcheck",
            "compdef",
            "autoload",
            "vim:",
            "-*-",
            "spdx-",
            "copyright",
            "licen",
            "(c)",
        ]
        .iter()
        .any(|word| lower.contains(word));
        let letters = comment.chars().filter(|c| c.is_alphabetic()).count();
        let says = !directive && letters >= 3 && comment.split_whitespace().count() >= 2;
        match (says, paragraph.is_empty()) {
            (true, _) => paragraph.push(comment),
            // A blank comment line or a directive ends the paragraph begun.
            (false, false) => break,
            (false, true) => {}
        }
    }
    first_sentence(&paragraph.join(" "))
}

/// The `<title>` of a markup document or template, else its first `<h1>`…`<h6>`: template tags
/// read as `…`, HTML tags dropped. A text that opens with a template tag (`{{user.name}}`) or has no
/// word left says nothing of the page.
fn markup_title(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let element = |open: &str, close: &str| -> Option<String> {
        let start = lower.find(open)?;
        let inner_start = start + lower[start..].find('>')? + 1;
        let end = inner_start + lower[inner_start..].find(close)?;
        text.get(inner_start..end).map(str::to_string)
    };
    let mut candidates = vec![element("<title", "</title>")];
    let first_heading = (1..=6)
        .filter_map(|level| {
            let open = format!("<h{level}");
            let at = lower
                .match_indices(&open)
                .find(|(at, _)| lower[at + open.len()..].starts_with(['>', ' ', '\t', '\n']))?
                .0;
            Some((at, level))
        })
        .min();
    if let Some((_, level)) = first_heading {
        candidates.push(element(&format!("<h{level}"), &format!("</h{level}>")));
    }
    candidates
        .into_iter()
        .flatten()
        .find_map(|inner| readable_text(&inner))
        .map(|title| terminated(&title))
}

/// The text of a markup fragment: template tags as `…`, HTML tags dropped, whitespace folded;
/// `None` when it opens with a template tag or holds no word.
fn readable_text(fragment: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = fragment;
    loop {
        let next = ["{{", "<%", "{%", "<"]
            .iter()
            .filter_map(|open| rest.find(open).map(|at| (at, *open)))
            .min_by_key(|(at, _)| *at);
        let Some((at, open)) = next else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..at]);
        let close = match open {
            "{{" => "}}",
            "<%" => "%>",
            "{%" => "%}",
            _ => ">",
        };
        let after = &rest[at + open.len()..];
        let Some(end) = after.find(close) else {
            break;
        };
        if open != "<" {
            if out.trim().is_empty() {
                return None;
            }
            out.push_str(" … ");
        } else {
            out.push(' ');
        }
        rest = &after[end + close.len()..];
    }
    let folded = one_line(&out.replace("… …", "…"));
    let has_word = folded
        .split_whitespace()
        .any(|word| word.chars().filter(|c| c.is_alphabetic()).count() >= 2);
    has_word.then_some(folded)
}

/// `text` ending in a period unless it ends in a mark already (a trailing colon goes).
fn terminated(text: &str) -> String {
    let text = text.trim().trim_end_matches(':').trim_end();
    match text.ends_with(['.', '!', '?', '…']) {
        true => text.to_string(),
        false => format!("{text}."),
    }
}
