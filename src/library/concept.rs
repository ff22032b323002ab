//! Concept files: `.lexibrary/concepts/<Name>.md`, one per cross-cutting idea (seed §4, D-029…D-034).
//!
//! ```text
//! ---
//! title: Money Handling
//! aliases: [currency, pricing]
//! tags: [domain, finance]
//! status: active            # active | draft | deprecated
//! superseded_by: null       # the replacing concept, when deprecated
//! ---
//!
//! # Money Handling
//!
//! ## Summary
//! …
//! ## Rules
//! …
//! ```
//!
//! Concepts are written by agents and humans only; there is no footer. The file name is the concept's
//! canonical name (`[[MoneyHandling]]`); title and aliases are alternative names for lookup. Parsing is
//! lenient (a concept missing a mandatory field still lists and resolves) and [`Concept::problems`]
//! reports what D-029 requires, for `lexictl validate`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::markdown::{list_items, Document};
use super::{frontmatter, normalize_newlines, FormatError};

/// The concept directory inside `.lexibrary/`.
pub const CONCEPTS_DIR: &str = "concepts";

/// `status:`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConceptStatus {
    #[default]
    Active,
    Draft,
    Deprecated,
}

impl ConceptStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ConceptStatus::Active => "active",
            ConceptStatus::Draft => "draft",
            ConceptStatus::Deprecated => "deprecated",
        }
    }
}

/// The frontmatter of a concept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConceptMeta {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// `None` when the key is missing (a D-029 problem); treated as active.
    #[serde(default)]
    pub status: Option<ConceptStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// Keys we do not know, preserved.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_yaml::Value>,
}

/// A parsed concept file.
#[derive(Clone, Debug, PartialEq)]
pub struct Concept {
    /// The canonical name: the file stem (`MoneyHandling`).
    pub name: String,
    pub meta: ConceptMeta,
    pub body: Document,
    /// Whether the file had a frontmatter block at all.
    pub has_frontmatter: bool,
}

impl Concept {
    /// Parse `text`, the content of `concepts/<name>.md`; `path` is used in errors.
    pub fn parse(path: &str, name: &str, text: &str) -> Result<Concept, FormatError> {
        let text = normalize_newlines(text);
        let split = frontmatter::split(path, &text)?;
        let meta: ConceptMeta = match split.yaml {
            Some(yaml) => frontmatter::parse(path, yaml)?,
            None => ConceptMeta::default(),
        };
        Ok(Concept {
            name: name.to_string(),
            meta,
            body: Document::parse(split.body),
            has_frontmatter: split.yaml.is_some(),
        })
    }

    /// The status, `active` when missing.
    pub fn status(&self) -> ConceptStatus {
        self.meta.status.unwrap_or_default()
    }

    /// The display title: `title:`, else the name.
    pub fn title(&self) -> &str {
        if self.meta.title.trim().is_empty() {
            &self.name
        } else {
            self.meta.title.trim()
        }
    }

    /// The first paragraph of `## Summary`, else of the text before the first section, on one line.
    pub fn summary(&self) -> String {
        let source = self
            .body
            .section("Summary")
            .map(|section| section.body.as_str())
            .unwrap_or(self.body.preamble.as_str());
        first_paragraph(source)
    }

    /// The `## Rules` section's body, if any.
    pub fn rules(&self) -> Option<&str> {
        self.body
            .section("Rules")
            .map(|section| section.body.as_str())
            .filter(|body| !body.trim().is_empty())
    }

    /// Tags, lower-cased (tags share one namespace across the library, D-037).
    pub fn tags(&self) -> Vec<String> {
        self.meta
            .tags
            .iter()
            .map(|tag| tag.trim().to_lowercase())
            .filter(|tag| !tag.is_empty())
            .collect()
    }

    /// What D-029/D-031 require and this concept lacks, one message each.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if !self.has_frontmatter {
            problems.push("no frontmatter (title, aliases, tags and status are required)".into());
            return problems;
        }
        if self.meta.title.trim().is_empty() {
            problems.push("`title` is missing or empty".into());
        }
        if self.meta.aliases.is_empty() {
            problems.push("`aliases` needs at least one alias".into());
        }
        if self.meta.tags.is_empty() {
            problems.push("`tags` needs at least one tag".into());
        }
        if self.meta.status.is_none() {
            problems.push("`status` is missing (active, draft or deprecated)".into());
        }
        if self.body.section("Summary").is_none() && self.body.preamble.trim().is_empty() {
            problems.push("no `## Summary`".into());
        }
        problems
    }

    /// Items of the `## Related` section, as written.
    pub fn related(&self) -> Vec<String> {
        self.body
            .section("Related")
            .map(|section| list_items(&section.body))
            .unwrap_or_default()
    }
}

/// Check that `name` can be a concept file name: letters, digits, `-` and `_`, starting with a letter
/// or digit. Rejects `/`, `..`, spaces and anything else that could leave `concepts/`.
pub fn validate_name(name: &str) -> Result<(), String> {
    let suggestion: String = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    let valid = !name.is_empty()
        && name.len() <= 100
        && name.chars().next().is_some_and(|c| c.is_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if valid {
        return Ok(());
    }
    let hint = if suggestion.is_empty() {
        String::new()
    } else {
        format!(" (try `{suggestion}`)")
    };
    Err(format!(
        "{name:?} is not a valid concept name: use letters, digits, `-` and `_` only, e.g. MoneyHandling{hint}"
    ))
}

/// The file name (without `.md`) and the title for a concept written as `written`: a valid name is
/// both (`MoneyHandling`); words with spaces are a title, and the name joins them in PascalCase
/// (`Money Handling` → `MoneyHandling`, titled "Money Handling"). Anything with `/`, `.` or other
/// characters that could leave `concepts/` is refused, as [`validate_name`] says.
pub fn name_and_title(written: &str) -> Result<(String, String), String> {
    let written = written.trim();
    if validate_name(written).is_ok() {
        return Ok((written.to_string(), written.to_string()));
    }
    let words_only = written
        .chars()
        .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_');
    let name: String = written
        .split(' ')
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    if words_only && validate_name(&name).is_ok() {
        return Ok((
            name,
            written.split_whitespace().collect::<Vec<_>>().join(" "),
        ));
    }
    validate_name(written).map(|()| (written.to_string(), written.to_string()))
}

/// The text of a new concept file (seed §4's sections, with prompts for the author).
pub fn template(title: &str, aliases: &[String], tags: &[String]) -> String {
    let meta = ConceptMeta {
        title: title.to_string(),
        aliases: aliases.to_vec(),
        tags: tags.iter().map(|tag| tag.trim().to_lowercase()).collect(),
        status: Some(ConceptStatus::Draft),
        superseded_by: None,
        extra: BTreeMap::new(),
    };
    format!(
        "{}\n# {title}\n\n## Summary\n\nOne to three sentences: what {title} is and why it matters here.\n\n\
         ## Rules\n\n- Do X, not Y, because Z.\n\n\
         ## Where It Applies\n\n- src/…\n\n\
         ## Related\n\n\
         ## Decision Log\n\n",
        frontmatter::render(&meta)
    )
}

/// The first paragraph of `text`, joined onto one line.
pub fn first_paragraph(text: &str) -> String {
    text.trim()
        .split("\n\n")
        .next()
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_round_trips_and_has_no_problems_but_draft() {
        let text = template("Money Handling", &["currency".into()], &["Finance".into()]);
        let concept = Concept::parse("concepts/MoneyHandling.md", "MoneyHandling", &text).unwrap();
        assert_eq!(concept.title(), "Money Handling");
        assert_eq!(concept.tags(), ["finance"]);
        assert_eq!(concept.status(), ConceptStatus::Draft);
        assert!(concept.problems().is_empty(), "{:?}", concept.problems());
        assert!(concept.summary().starts_with("One to three sentences"));
    }

    #[test]
    fn missing_fields_are_problems_not_errors() {
        let concept = Concept::parse("c.md", "X", "---\ntitle: X\n---\nJust text.\n").unwrap();
        assert_eq!(concept.summary(), "Just text.");
        assert_eq!(concept.problems().len(), 3);
        let err = Concept::parse("c.md", "X", "---\ntitle: [\n---\n").unwrap_err();
        assert!(err.to_string().starts_with("c.md:"), "{err}");
    }

    #[test]
    fn names_are_checked() {
        assert!(validate_name("MoneyHandling").is_ok());
        assert!(validate_name("jwt-tokens_2").is_ok());
        for bad in ["", "../x", "a/b", "..", ".hidden", "Money Handling", "a\\b"] {
            assert!(validate_name(bad).is_err(), "{bad}");
        }
        assert!(validate_name("money handling")
            .unwrap_err()
            .contains("MoneyHandling"));
    }

    #[test]
    fn a_title_with_spaces_names_the_file_in_pascal_case() {
        let pair = |name: &str, title: &str| Ok((name.to_string(), title.to_string()));
        assert_eq!(
            name_and_title("Money Handling"),
            pair("MoneyHandling", "Money Handling")
        );
        assert_eq!(
            name_and_title("money  handling "),
            pair("MoneyHandling", "money handling")
        );
        assert_eq!(
            name_and_title("MoneyHandling"),
            pair("MoneyHandling", "MoneyHandling")
        );
        assert_eq!(
            name_and_title("error-handling v2"),
            pair("Error-handlingV2", "error-handling v2")
        );
        for refused in [
            "../Escape",
            "a/b",
            "..",
            "Money.Handling",
            "Money Handling/x",
            " ",
            "",
        ] {
            assert!(name_and_title(refused).is_err(), "{refused:?}");
        }
    }
}
