//! Checks on the argument definitions themselves: every argument of every subcommand is described,
//! every subcommand shows an example, and `--format` is offered exactly where it applies.

use clap::CommandFactory;

use super::{LexiCli, LexictlCli};

/// Every visible subcommand of `command`, depth first, as (`lexi stack post`, command).
fn subcommands(command: &clap::Command, prefix: &str) -> Vec<(String, clap::Command)> {
    let mut out = Vec::new();
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let name = format!("{prefix} {}", sub.get_name());
        out.push((name.clone(), sub.clone()));
        out.extend(subcommands(sub, &name));
    }
    out
}

fn every_subcommand() -> Vec<(String, clap::Command)> {
    let mut lexi = LexiCli::command();
    lexi.build();
    let mut lexictl = LexictlCli::command();
    lexictl.build();
    let mut all = subcommands(&lexi, "lexi");
    all.extend(subcommands(&lexictl, "lexictl"));
    all.retain(|(name, _)| !name.split(' ').any(|word| word == "help"));
    all
}

#[test]
fn every_argument_of_every_subcommand_is_described() {
    let mut undescribed = Vec::new();
    for (name, command) in every_subcommand() {
        for arg in command.get_arguments() {
            let builtin = matches!(arg.get_id().as_str(), "help" | "version");
            if builtin || arg.is_hide_set() {
                continue;
            }
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                undescribed.push(format!("{name}: {}", arg.get_id()));
            }
        }
    }
    assert!(
        undescribed.is_empty(),
        "arguments without a description:\n{}",
        undescribed.join("\n")
    );
}

#[test]
fn every_subcommand_shows_an_example() {
    let mut missing = Vec::new();
    for (name, command) in every_subcommand() {
        let after = command
            .get_after_long_help()
            .or(command.get_after_help())
            .map(|help| help.to_string())
            .unwrap_or_default();
        if !after.contains("Example") {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "subcommands without an example:\n{}",
        missing.join("\n")
    );
}

/// docs/commands.md's table of which command takes which `--format`, as (`lexi lookup`, "text, json").
fn documented_formats() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md");
    let text = std::fs::read_to_string(path).expect("read docs/commands.md");
    let start = text
        .find("| Command | `--format` |")
        .expect("the --format table");
    text[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[2].to_string())
        })
        .collect()
}

/// The `--format` values of each top-level subcommand, as the table writes them.
fn offered_formats() -> Vec<(String, String)> {
    let mut rows = Vec::new();
    for (bin, command) in [
        ("lexi", LexiCli::command()),
        ("lexictl", LexictlCli::command()),
    ] {
        for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
            let values = sub
                .get_arguments()
                .find(|arg| arg.get_id() == "format")
                .map(|arg| {
                    let names: Vec<String> = arg
                        .get_possible_values()
                        .iter()
                        .map(|value| value.get_name().to_string())
                        .collect();
                    names.join(", ")
                })
                .unwrap_or_else(|| "—".to_string());
            rows.push((format!("{bin} {}", sub.get_name()), values));
        }
    }
    rows
}

#[test]
fn the_docs_say_where_format_applies_as_the_help_does() {
    assert_eq!(documented_formats(), offered_formats());
}

/// Git's client-side hooks that run after or around a commit, merge, rewrite or push (`pre-commit`
/// is left out: it is also the name of a hook manager).
const GIT_HOOKS: &[&str] = &[
    "post-commit",
    "post-merge",
    "post-applypatch",
    "post-rewrite",
    "post-checkout",
    "pre-push",
    "pre-rebase",
    "pre-merge-commit",
    "pre-applypatch",
    "prepare-commit-msg",
    "commit-msg",
];

/// The git hooks a text names, sorted.
fn hooks_named(text: &str) -> Vec<String> {
    let mut names: Vec<String> = GIT_HOOKS
        .iter()
        .filter(|hook| {
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .any(|word| word == **hook)
        })
        .map(|hook| hook.to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn the_docs_and_the_help_name_the_hooks_setup_installs() {
    let mut installed: Vec<String> = crate::git::hooks::HOOKS
        .iter()
        .map(|h| h.to_string())
        .collect();
    installed.sort();
    let setup = LexictlCli::command();
    let setup = setup.find_subcommand("setup").expect("setup");
    let hooks_flag = setup
        .get_arguments()
        .find(|arg| arg.get_id() == "hooks")
        .and_then(|arg| arg.get_help().map(|h| h.to_string()))
        .expect("--hooks is described");
    assert_eq!(hooks_named(&hooks_flag), installed, "lexictl setup --help");
    let about = setup
        .get_long_about()
        .map(|a| a.to_string())
        .unwrap_or_default();
    assert_eq!(
        hooks_named(&about),
        installed,
        "lexictl setup --help (about)"
    );

    let root = env!("CARGO_MANIFEST_DIR");
    let read = |rel: &str| std::fs::read_to_string(format!("{root}/{rel}")).expect(rel);
    let hooks_md = read("docs/hooks.md");
    let paragraph = hooks_md
        .split("\n\n")
        .find(|p| p.starts_with("`--hooks` adds"))
        .expect("docs/hooks.md says what --hooks adds");
    assert_eq!(hooks_named(paragraph), installed, "docs/hooks.md");
    let commands_md = read("docs/commands.md");
    let item = commands_md
        .lines()
        .find(|line| line.starts_with("- `--hooks`:"))
        .expect("docs/commands.md describes --hooks");
    assert_eq!(hooks_named(item), installed, "docs/commands.md");
}
