//! `lexictl man` and `lexictl completions`: generated from the clap definitions, checked with the
//! real tools (`man`, `git`, `bash`). A test that needs `man` or `bash` is ignored, with the reason,
//! where the tool is missing (build.rs probes for it).

use std::path::Path;

use crate::support::{project, TestProject};

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
    let out = p.lexictl(["man", "--dir", "out/man"]).success();
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
#[cfg_attr(not(has_man), ignore = "needs `man` on PATH")]
fn man_pages_render_without_warnings() {
    let p = project().build();
    p.lexictl(["man", "--dir", "man"]).success();
    // In the plain C locale (the hermetic default) as on a UTF-8 terminal: the help text's `…`
    // and `—` are written as roff that renders in both.
    for locale in ["C", "C.UTF-8"] {
        for name in page_names(&p.path("man")) {
            p.cmd("man", ["--warnings", "-l"])
                .args([p.path("man").join(&name)])
                .env("LC_ALL", locale)
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "80")
                .success()
                .no_stderr()
                .stdout_has("NAME");
        }
    }
}

#[test]
#[cfg_attr(not(has_man), ignore = "needs `man` on PATH")]
fn man_page_examples_are_printed_as_written() {
    let p = project().build();
    p.lexictl(["man", "--dir", "man"]).success();
    // At a narrow width a refilled example would be joined with the next line or hyphenated.
    let page = p
        .cmd("man", ["-l"])
        .args([p.path("man/lexictl-validate.1")])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "60")
        .success();
    page.stdout_has("\n         lexictl validate --severity error\n")
        .stdout_has("\n         lexictl validate --list-checks\n");
    let top = p
        .cmd("man", ["-l"])
        .args([p.path("man/lexictl.1")])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "60")
        .success();
    top.stdout_has("  lexictl update --check   exit 2 if the library is stale (for CI)\n");
}

#[test]
#[cfg_attr(not(has_man), ignore = "needs `man` on PATH")]
fn git_lexi_help_opens_the_generated_page() {
    let p = project().build();
    p.lexictl(["man", "--dir", "share/man/man1"]).success();
    // git finds `git-lexi` on PATH (the harness puts the binaries under test first) and opens
    // its page from MANPATH.
    p.git(["lexi", "--help"])
        .env("MANPATH", p.path("share/man"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .env("GIT_PAGER", "cat")
        .success()
        .stdout_has("git-lexi - Read and write the codebase library")
        .stdout_has("git lexi [-h|--help]");
}

#[test]
fn man_json_names_the_directory_and_the_files() {
    let p = project().build();
    std::fs::create_dir_all(p.path("sub")).expect("mkdir");
    let value = p
        .lexictl(["man", "--dir", "../pages", "--format", "json"])
        .current_dir("sub")
        .json();
    assert_eq!(value["dir"], p.path("pages").display().to_string());
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
    let out = p.lexictl(["man", "--dir", "blocker/man"]).code(1);
    assert!(
        out.stderr.starts_with(&format!(
            "error: cannot create the directory {}\n",
            p.path("blocker/man").display()
        )),
        "{}",
        out.both()
    );
}

/// `lexictl completions <args>`, which must succeed quietly; returns the script.
fn completions(p: &TestProject, args: &[&str]) -> String {
    p.lexictl(["completions"].iter().chain(args))
        .success()
        .no_stderr()
        .stdout
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
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn bash_completions_are_valid_bash() {
    let p = project().build();
    for bin in ["lexictl", "lexi"] {
        let script = completions(&p, &["bash", "--bin", bin]);
        let file = format!("{bin}.bash");
        p.write(&file, script);
        p.cmd("bash", ["-n", file.as_str()]).success();
    }
}

#[test]
fn completions_refuse_an_unknown_shell_and_offer_no_format() {
    let p = project().build();
    p.lexictl(["completions", "tcsh"])
        .code(1)
        .stderr_has("[possible values: bash, elvish, fish, powershell, zsh]");
    p.lexictl(["completions", "bash", "--format", "json"])
        .code(1)
        .stderr_has("unexpected argument '--format' found");
}
