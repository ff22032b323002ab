//! The INI dialect of `setup.cfg`, `tox.ini`, `.flake8` and `mypy.ini` as Python's `configparser`
//! reads it: `[section]` headers, `key = value` (or `key: value`), indented continuation lines, `#`
//! and `;` comments. Keys are kept as written.

/// One `[section]` with its keys in file order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub entries: Vec<(String, String)>,
}

impl Section {
    pub fn get(&self, key: &str) -> Option<&str> {
        let wanted = key.replace('_', "-");
        self.entries
            .iter()
            .find(|(k, _)| k.replace('_', "-") == wanted)
            .map(|(_, v)| v.as_str())
    }
}

/// The sections of an INI text; `Err("line N: …")` at the first line that is none of the forms.
pub fn parse(text: &str) -> Result<Vec<Section>, String> {
    let mut sections: Vec<Section> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if raw.starts_with([' ', '\t']) {
            // A continuation of the previous value.
            if let Some((_, value)) = sections.last_mut().and_then(|s| s.entries.last_mut()) {
                if !value.is_empty() {
                    value.push('\n');
                }
                value.push_str(trimmed);
                continue;
            }
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sections.push(Section {
                name: name.trim().to_string(),
                entries: Vec::new(),
            });
            continue;
        }
        let split = trimmed
            .find(['=', ':'])
            .map(|at| (trimmed[..at].trim(), trimmed[at + 1..].trim()));
        match (split, sections.last_mut()) {
            (Some((key, value)), Some(section)) if !key.is_empty() => {
                section.entries.push((key.to_string(), value.to_string()));
            }
            _ => {
                return Err(format!(
                    "line {}: not a `[section]` or `key = value`",
                    index + 1
                ))
            }
        }
    }
    Ok(sections)
}

/// The values of a list option: split on newlines and commas.
pub fn values(value: &str) -> Vec<String> {
    value
        .split(['\n', ','])
        .map(|v| v.split('#').next().unwrap_or("").trim())
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keys_and_continuations() {
        let text = "[flake8]\nmax-line-length = 100\nextend-ignore =\n    E203,\n    W503\n\n[tox]\nenvlist: py310, lint\n";
        let sections = parse(text).unwrap();
        assert_eq!(sections[0].get("max_line_length"), Some("100"));
        assert_eq!(
            values(sections[0].get("extend-ignore").unwrap()),
            ["E203", "W503"]
        );
        assert_eq!(
            values(sections[1].get("envlist").unwrap()),
            ["py310", "lint"]
        );
    }

    #[test]
    fn a_stray_line_is_an_error_with_its_number() {
        assert_eq!(
            parse("[a]\nok = 1\njunk\n").unwrap_err(),
            "line 3: not a `[section]` or `key = value`"
        );
        assert!(parse("key = 1\n").is_err());
    }
}
