//! The README's opening commands, run as a newcomer pastes them: from the checkout, with the
//! binaries installed (here: the binaries under test, first on PATH), leaving the shell where it was.

use crate::support::project;

/// The README's first `sh` block.
fn opening_block() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("read README.md");
    let start = readme.find("```sh\n").expect("an sh block") + "```sh\n".len();
    let end = start + readme[start..].find("```").expect("its end");
    readme[start..end].to_string()
}

#[test]
fn the_readme_demo_works_from_the_checkout_and_leaves_you_there() {
    let block = opening_block();
    let commands: Vec<&str> = block
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .collect();
    assert_eq!(commands.len(), 2, "two opening commands: {block}");
    assert_eq!(commands[1], "cargo test --locked");
    // The install step is what the harness already did (its binaries come first on PATH).
    let demo = commands[0]
        .strip_prefix("cargo install --path . --locked && ")
        .expect("the first command installs from this checkout, then runs the demo");
    let p = project().build();
    let checkout = env!("CARGO_MANIFEST_DIR");
    let out = p
        .cmd("sh", ["-c", &format!("{demo} && pwd")])
        .current_dir(checkout)
        .success();
    out.stdout_has("src/lib.rs").stdout_has("## Members");
    assert_eq!(
        out.stdout.lines().last(),
        Some(checkout),
        "the demo leaves the shell in the checkout:\n{}",
        out.stdout
    );
}

/// One command of a README example: the command line (continuation lines joined), its comment,
/// and the output lines the README shows under it.
#[derive(Debug)]
struct Example {
    command: String,
    comment: String,
    output: Vec<String>,
}

/// The `$ ` commands of the README's transcript of the demo (its ```` ```text ```` block).
fn transcript() -> Vec<Example> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("read README.md");
    let start = readme
        .find("```text\n$ ")
        .expect("a transcript of the demo")
        + "```text\n".len();
    let end = start + readme[start..].find("```").expect("its end");
    let mut examples: Vec<Example> = Vec::new();
    let mut continued = false;
    for line in readme[start..end].lines() {
        if continued {
            let example = examples.last_mut().expect("a command continues");
            let (part, comment) = split_comment(line.trim());
            continued = part.ends_with('\\');
            example.command.push(' ');
            example.command.push_str(part.trim_end_matches('\\').trim());
            example.comment.push_str(comment);
        } else if let Some(command) = line.strip_prefix("$ ") {
            let (command, comment) = split_comment(command);
            continued = command.ends_with('\\');
            examples.push(Example {
                command: command.trim_end_matches('\\').trim().to_string(),
                comment: comment.to_string(),
                output: Vec::new(),
            });
        } else if let Some(example) = examples.last_mut() {
            match line.trim().strip_prefix('#') {
                Some(comment) => {
                    example.comment.push(' ');
                    example.comment.push_str(comment.trim());
                }
                None if !line.trim().is_empty() => example.output.push(line.trim().to_string()),
                None => {}
            }
        }
    }
    examples
}

/// A command line and the comment after it (`cmd   # comment`).
fn split_comment(line: &str) -> (&str, &str) {
    match line.find("  #") {
        Some(at) => (
            line[..at].trim_end(),
            line[at..].trim_start_matches([' ', '#']),
        ),
        None => (line.trim_end(), ""),
    }
}

/// What a comment promises the command prints: every name it quotes (`fn tokens` → `tokens`),
/// every file it names (`lexer.rs`), and a reason it shows (`(members: tokens, …)`).
fn promised(comment: &str) -> Vec<String> {
    let mut out: Vec<String> = comment
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .filter_map(|(_, quoted)| quoted.split_whitespace().last().map(str::to_string))
        .collect();
    out.extend(
        comment
            .split_whitespace()
            .map(|word| word.trim_matches([',', '.', '(', ')', ':']))
            .filter(|word| word.ends_with(".rs"))
            .map(str::to_string),
    );
    if let Some(at) = comment.find("(members: ") {
        let members = &comment[at + 1..];
        let first = members.split([',', ')']).next().unwrap_or(members);
        out.push(first.trim().to_string());
    }
    out
}

/// The fixture the README's demo copies (`cp -r fixtures/projects/<name>/.`).
fn demo_fixture() -> String {
    let block = opening_block();
    let at = block
        .find("fixtures/projects/")
        .expect("the demo copies a fixture")
        + "fixtures/projects/".len();
    block[at..].split('/').next().expect("its name").to_string()
}

#[test]
fn every_command_of_the_readme_transcript_runs_against_the_demo_and_prints_what_it_says() {
    let examples = transcript();
    assert!(examples.len() >= 10, "the transcript: {examples:#?}");
    let p = project().fixture(&demo_fixture()).build();
    for example in &examples {
        let out = p
            .cmd("sh", ["-c", &example.command])
            .context(format!("README: $ {}", example.command))
            .success();
        for line in &example.output {
            // The README aligns columns with spaces; compare words.
            let words: Vec<&str> = line.split_whitespace().collect();
            let found = out
                .stdout
                .lines()
                .any(|printed| printed.split_whitespace().collect::<Vec<_>>() == words);
            assert!(
                found,
                "README: $ {}\nshows `{line}`, which it did not print:\n{}",
                example.command, out.stdout
            );
        }
        for promise in promised(&example.comment) {
            assert!(
                out.stdout.contains(&promise),
                "README: $ {}  # {}\npromises `{promise}`, not in:\n{}",
                example.command,
                example.comment,
                out.stdout
            );
        }
    }
    let searched = examples
        .iter()
        .find(|e| e.command == "lexi search tokenizing")
        .expect("the README searches for `tokenizing`");
    assert_eq!(
        promised(&searched.comment),
        ["tokens", "lexer.rs", "members: tokens"]
    );
}

/// The README's "Use it on your repository" block, run in a copy of the demo as a newcomer's
/// repository.
#[test]
fn the_readme_steps_for_your_own_repository_run() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("read README.md");
    let section = readme
        .split("## Use it on your repository")
        .nth(1)
        .expect("the section");
    let start = section.find("```sh\n").expect("its block") + "```sh\n".len();
    let end = start + section[start..].find("```").expect("its end");
    let commands: Vec<&str> = section[start..end]
        .lines()
        .map(|line| split_comment(line).0)
        .filter(|line| !line.is_empty())
        .collect();
    assert!(commands.len() >= 4, "{commands:?}");
    let p = project().fixture(&demo_fixture()).build();
    for command in &commands {
        p.cmd("sh", ["-c", command])
            .context(format!("README: {command}"))
            .success();
    }
    p.lexictl(["update", "--check"]).success();
    p.lexi(["search", "tokenizing"])
        .success()
        .stdout_has("src/parser/lexer.rs");
}
