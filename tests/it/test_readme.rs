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
    out.stdout_has("src/lib.rs").stdout_has("Interface");
    assert_eq!(
        out.stdout.lines().last(),
        Some(checkout),
        "the demo leaves the shell in the checkout:\n{}",
        out.stdout
    );
}
