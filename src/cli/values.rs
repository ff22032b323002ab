//! Command-line values of the library's own enums: `clap::ValueEnum` for the types that `library` and
//! `knowledge` define (post and concept statuses, `.iwh` scopes, vote directions, validation tiers),
//! written here so that `clap` stays in `cli` and the lower layers know nothing of argument parsing.
//! Each value is spelled as the on-disk format spells it; the help text is the variant's meaning.

use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::knowledge::stack::Direction;
use crate::knowledge::validate::Severity;
use crate::library::concept::ConceptStatus;
use crate::library::iwh::IwhScope;
use crate::library::stack::PostStatus;
use crate::project::config::AgentEnvironment;

/// `impl ValueEnum for $ty` from its variants, their names and (optionally) a help line each.
macro_rules! value_enum {
    ($ty:ty { $($variant:ident => $name:literal $(: $help:literal)?),+ $(,)? }) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$(<$ty>::$variant),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(match self {
                    $(<$ty>::$variant => PossibleValue::new($name)$(.help($help))?,)+
                })
            }
        }
    };
}

value_enum!(PostStatus {
    Open => "open",
    Resolved => "resolved",
    Outdated => "outdated",
    Duplicate => "duplicate",
});

value_enum!(ConceptStatus {
    Active => "active",
    Draft => "draft",
    Deprecated => "deprecated",
});

value_enum!(IwhScope {
    Warning => "warning": "Be aware of this before working here",
    Incomplete => "incomplete": "Work was started but not finished",
    Blocked => "blocked": "Something is broken here; fix it before proceeding",
});

value_enum!(Direction {
    Up => "up",
    Down => "down",
});

/// `--agents`: an agent environment, or `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentChoice {
    Agent(AgentEnvironment),
    None,
}

impl ValueEnum for AgentChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            AgentChoice::Agent(AgentEnvironment::Claude),
            AgentChoice::Agent(AgentEnvironment::Cursor),
            AgentChoice::Agent(AgentEnvironment::Codex),
            AgentChoice::None,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            AgentChoice::Agent(AgentEnvironment::Claude) => {
                PossibleValue::new("claude").help("Claude Code: CLAUDE.md, .claude/, .mcp.json")
            }
            AgentChoice::Agent(AgentEnvironment::Cursor) => PossibleValue::new("cursor")
                .help("Cursor: .cursor/rules/lexibrarian.mdc, .cursor/mcp.json"),
            AgentChoice::Agent(AgentEnvironment::Codex) => PossibleValue::new("codex")
                .help("Codex and every agent reading AGENTS.md: AGENTS.md, .codex/config.toml"),
            AgentChoice::None => PossibleValue::new("none").help("No agent files at all"),
        })
    }
}

/// The environments named, `none` dropped.
pub fn environments(choices: &[AgentChoice]) -> Vec<AgentEnvironment> {
    let mut out: Vec<AgentEnvironment> = choices
        .iter()
        .filter_map(|choice| match choice {
            AgentChoice::Agent(environment) => Some(*environment),
            AgentChoice::None => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

value_enum!(Severity {
    Info => "info",
    Warning => "warning",
    Error => "error",
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line spells every value as the file formats do.
    #[test]
    fn values_match_the_serialised_names() {
        fn check<T: ValueEnum + serde::Serialize>() {
            for value in T::value_variants() {
                let name = value.to_possible_value().expect("a value");
                let json = serde_json::to_string(value).expect("serialise");
                assert_eq!(json, format!("\"{}\"", name.get_name()));
            }
        }
        check::<PostStatus>();
        check::<ConceptStatus>();
        check::<IwhScope>();
        check::<Direction>();
        check::<Severity>();
    }
}
