//! `lexictl man` and `lexictl completions`: generated from the clap definitions, checked with the
//! real tools when they are installed (`man`, `git`, `bash`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{project, run, TestProject};

fn installed(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

fn page_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the man dir")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn man_writes_a_page_for_each_binary_and_subcommand() {
    let p = project().build();
    let out = run(&p, p.lexictl(&["man", "--dir", "out/man"]));
    assert_eq!(out.code, 0, "{}", out.both());
    let dir = p.path("out/man");
    let names = page_names(&dir);
    for expected in [
        "lexi.1",
        "lexictl.1",
        "git-lexi.1",
        "git-lexictl.1",
        "lexi-lookup.1",
        "lexi-stack-post.1",
        "lexictl-sweep.1",
        "lexictl-man.1",
        "git-lexi-lookup.1",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected}: {names:?}");
    }
    // The output lists exactly what was written.
    let mut lines = out.stdout.lines();
    assert_eq!(
        lines.next(),
        Some(format!("wrote {} man pages to out/man:", names.len()).as_str())
    );
    let listed: Vec<&str> = lines.collect();
    let expected: Vec<String> = names.iter().map(|n| format!("  out/man/{n}")).collect();
    assert_eq!(listed, expected);

    for name in &names {
        let page = std::fs::read_to_string(dir.join(name)).expect("read page");
        let stem = name.trim_end_matches(".1");
        assert!(
            page.contains(&format!(".TH {stem} 1 ")),
            "{name} has no title line"
        );
        assert!(page.contains(".SH NAME\n"), "{name}");
        assert!(page.contains(".SH SYNOPSIS\n"), "{name}");
    }
    // `git lexi --help` opens git-lexi(1): it must name the command the way git users type it.
    let git_lexi = std::fs::read_to_string(dir.join("git-lexi.1")).expect("read");
    assert!(
        git_lexi.contains("\n.SH NAME\ngit\\-lexi \\- "),
        "{git_lexi}"
    );
    assert!(
        git_lexi.contains("\n.SH SYNOPSIS\n\\fBgit lexi\\fR "),
        "{git_lexi}"
    );
    assert!(git_lexi.contains("git\\-lexi\\-lookup(1)"), "{git_lexi}");
    let sweep = std::fs::read_to_string(dir.join("git-lexictl-sweep.1")).expect("read");
    assert!(sweep.contains("\\fBgit lexictl sweep\\fR"), "{sweep}");
}

#[test]
fn man_pages_render_without_warnings() {
    if !installed("man") {
        eprintln!("skipped: man is not installed");
        return;
    }
    let p = project().build();
    let out = run(&p, p.lexictl(&["man", "--dir", "man"]));
    assert_eq!(out.code, 0, "{}", out.both());
    for name in page_names(&p.path("man")) {
        let rendered = Command::new("man")
            .args(["--warnings", "-l"])
            .arg(p.path("man").join(&name))
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .expect("run man");
        let stderr = String::from_utf8_lossy(&rendered.stderr);
        assert!(rendered.status.success(), "{name}: {stderr}");
        assert!(stderr.trim().is_empty(), "{name}: {stderr}");
        let text = String::from_utf8_lossy(&rendered.stdout);
        assert!(text.contains("NAME"), "{name}: {text}");
    }
}

#[test]
fn git_lexi_help_opens_the_generated_page() {
    if !installed("man") {
        eprintln!("skipped: man is not installed");
        return;
    }
    let p = project().build();
    let out = run(&p, p.lexictl(&["man", "--dir", "share/man/man1"]));
    assert_eq!(out.code, 0, "{}", out.both());
    let bin_dir = assert_cmd::cargo::cargo_bin("git-lexi")
        .parent()
        .map(Path::to_path_buf)
        .expect("binary dir");
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let output = git(&p)
        .args(["lexi", "--help"])
        .env("PATH", path)
        .env("MANPATH", p.path("share/man"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
        .expect("run git lexi --help");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("git-lexi - Read and write the codebase library"),
        "{text}"
    );
    assert!(text.contains("git lexi [--format]"), "{text}");
}

fn git(p: &TestProject) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(&p.root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", p.root.join(".gitconfig-none"))
        .env("GIT_PAGER", "cat");
    command
}

#[test]
fn man_json_names_the_directory_and_the_files() {
    let p = project().build();
    std::fs::create_dir_all(p.path("sub")).expect("mkdir");
    let mut command = p.lexictl(&["man", "--dir", "../pages", "--format", "json"]);
    command.current_dir(p.path("sub"));
    let out = run(&p, command);
    assert_eq!(out.code, 0, "{}", out.both());
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert_eq!(value["dir"], "[ROOT]/pages");
    let files: Vec<String> = value["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f.as_str().map(str::to_string))
        .collect();
    assert_eq!(files, page_names(&p.path("pages")));
}

#[test]
fn man_reports_a_directory_it_cannot_create() {
    let p = project().file("blocker", "a file, not a directory").build();
    let out = run(&p, p.lexictl(&["man", "--dir", "blocker/man"]));
    assert_eq!(out.code, 1, "{}", out.both());
    assert!(
        out.stderr
            .starts_with("error: cannot create the directory [ROOT]/blocker/man\n"),
        "{}",
        out.both()
    );
}

fn completions(p: &TestProject, args: &[&str]) -> String {
    let out = run(p, p.lexictl(&[&["completions"], args].concat()));
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(out.stderr.is_empty(), "{}", out.both());
    out.stdout
}

#[test]
fn completions_cover_every_subcommand_of_either_binary() {
    let p = project().build();
    let lexictl = completions(&p, &["bash"]);
    assert!(lexictl.contains("complete -F _lexictl"), "{lexictl}");
    for sub in ["init", "update", "sweep", "completions", "man"] {
        assert!(
            lexictl.contains(&format!("lexictl__subcmd__{sub}")),
            "{sub}"
        );
    }
    assert!(lexictl.contains("--interval"));
    let lexi = completions(&p, &["bash", "--bin", "lexi"]);
    assert!(lexi.contains("complete -F _lexi"), "{lexi}");
    for sub in [
        "lookup", "index", "describe", "context", "search", "stack", "iwh",
    ] {
        assert!(lexi.contains(&format!("lexi__subcmd__{sub}")), "{sub}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        for bin in ["lexictl", "lexi"] {
            let script = completions(&p, &[shell, "--bin", bin]);
            assert!(script.contains(bin), "{shell} {bin}");
            assert!(
                script.contains(if bin == "lexi" { "lookup" } else { "sweep" }),
                "{shell} {bin}"
            );
        }
    }
}

#[test]
fn bash_completions_are_valid_bash() {
    if !installed("bash") {
        eprintln!("skipped: bash is not installed");
        return;
    }
    let p = project().build();
    for bin in ["lexictl", "lexi"] {
        let script = completions(&p, &["bash", "--bin", bin]);
        let file: PathBuf = p.path(&format!("{bin}.bash"));
        std::fs::write(&file, script).expect("write script");
        let check = Command::new("bash")
            .arg("-n")
            .arg(&file)
            .output()
            .expect("run bash -n");
        assert!(
            check.status.success(),
            "{bin}: {}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

#[test]
fn completions_refuse_an_unknown_shell_and_json() {
    let p = project().build();
    let out = run(&p, p.lexictl(&["completions", "tcsh"]));
    assert_eq!(out.code, 1, "{}", out.both());
    assert!(
        out.stderr
            .contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{}",
        out.both()
    );
    let out = run(&p, p.lexictl(&["completions", "bash", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.both());
    assert_eq!(
        out.stderr,
        "error: lexictl completions prints a shell script; --format json does not apply\n"
    );
}
