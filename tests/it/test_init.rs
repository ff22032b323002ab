//! `lexictl init`: defaults, detection, the scripted wizard, re-init, and failing without residue.

use crate::support::project;

#[test]
fn init_yes_creates_the_library_and_gitignore_entries() {
    let p = project()
        .fixture("rust")
        .file("CLAUDE.md", "# House rules\n")
        .build();
    let _snapshots = p.snapshots().bind();
    let out = p.lexictl(["init", "--yes"]).run();
    insta::assert_snapshot!("init_yes_output", out.both());
    for rel in [
        ".lexibrary/config.yaml",
        ".lexibrary/START_HERE.md",
        ".lexibrary/concepts",
        ".lexibrary/stack",
        ".lexignore",
    ] {
        assert!(p.exists(rel), "{rel} was not created");
    }
    insta::assert_snapshot!("init_config_yaml", p.read(".lexibrary/config.yaml"));
    insta::assert_snapshot!("init_start_here", p.read(".lexibrary/START_HERE.md"));
    insta::assert_snapshot!("init_gitignore", p.read(".gitignore"));
    let claude = p.read("CLAUDE.md");
    assert!(claude.starts_with("# House rules\n\n<!-- >>> lexibrarian rules v1 >>> -->"));
    // git must see the ignore entries: an .iwh note is not a tracked-file candidate.
    p.write(".lexibrary/src/.iwh", "note");
    let status = p
        .git(["status", "--porcelain", "--untracked-files=all"])
        .success()
        .stdout;
    assert!(!status.contains(".iwh"), "{status}");
    assert!(!status.contains(".cache"), "{status}");
}

#[test]
fn non_tty_stdin_takes_defaults_with_a_note() {
    let p = project().fixture("python").build();
    p.lexictl(["init"])
        .success()
        .stderr_has("stdin is not a terminal");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("project_name: weather-cli"), "{config}");
    // The Python package root, not the whole project: `pkg/` holds all its code.
    assert!(config.contains("scope_root: pkg/"), "{config}");
}

#[test]
fn detects_names_and_scope_roots_per_ecosystem() {
    for (fixture, name, scope) in [
        ("rust", "tiny-calc", "scope_root: src/"),
        ("javascript", "todo-web", "scope_root: src/"),
        ("typescript", "orders-api", "scope_root: src/"),
        ("python", "weather-cli", "scope_root: pkg/"),
    ] {
        let p = project().fixture(fixture).init().build();
        let config = p.read(".lexibrary/config.yaml");
        assert!(
            config.contains(&format!("project_name: {name}")),
            "{fixture}: {config}"
        );
        assert!(config.contains(scope), "{fixture}: {config}");
    }
}

/// Test directories are documented beside the source directories (so impact knows the tests), and
/// a package whose entry point sits at the root (`index.js`) is documented whole.
#[test]
fn scope_roots_take_the_tests_and_a_root_entry_point() {
    let p = project()
        .fixture("python-src")
        .file("tests/test_app.py", "def test_app():\n    pass\n")
        .init()
        .build();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("- src/\n- tests/"), "{config}");
    let p = project()
        .fixture("javascript")
        .file("index.js", "module.exports = require('./src/app');\n")
        .file("test/app.test.js", "require('..');\n")
        .init()
        .build();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("scope_root: ."), "{config}");
}

/// A Maven or Gradle build of several modules is documented whole (its modules are directories of
/// any name, each with its own `src/`); one module is documented by its `src/`. Said by the Java
/// model of the project (its one package), not by a rule outside the language's directory.
#[test]
fn a_build_of_several_java_modules_is_documented_whole() {
    let class = "package a;\n\npublic class A {}\n";
    let p = project()
        .file(
            "pom.xml",
            "<project><modules><module>core</module><module>app</module></modules></project>\n",
        )
        .file("core/pom.xml", "<project/>\n")
        .file("core/src/main/java/a/A.java", class)
        .file(
            "app/src/main/java/a/B.java",
            "package a;\n\npublic class B {}\n",
        )
        .file("src/Tool.java", "public class Tool {}\n")
        .init()
        .build();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("scope_root: ."), "{config}");
    let gradle = project()
        .file("settings.gradle.kts", "include(\"core\")\n")
        .file("core/src/main/java/a/A.java", class)
        .file("src/Tool.java", "public class Tool {}\n")
        .init()
        .build();
    let config = gradle.read(".lexibrary/config.yaml");
    assert!(config.contains("scope_root: ."), "{config}");
    let single = project()
        .file("pom.xml", "<project/>\n")
        .file("src/main/java/a/A.java", class)
        .file("tools/Gen.java", "public class Gen {}\n")
        .init()
        .build();
    let config = single.read(".lexibrary/config.yaml");
    assert!(config.contains("scope_root: src/"), "{config}");
}

#[test]
fn json_output_reports_what_was_created() {
    let p = project().fixture("typescript").build();
    let value = p.lexictl(["init", "--yes", "--format", "json"]).json();
    let _snapshots = p.snapshots().bind();
    insta::assert_json_snapshot!("init_json", value);
}

#[test]
fn scripted_wizard_answers_every_question() {
    let p = project()
        .fixture("rust")
        .file("benches/speed.rs", "fn main() {}\n")
        .build();
    let answers = "calc\nsrc/, benches/\ncodex\nstructural\n*.generated.rs, vendor/\nn\n900\n300\n150\n350\nn\ny\n";
    let out = p
        .lexictl(["init", "--interactive"])
        .stdin(answers)
        .success();
    insta::assert_snapshot!("wizard_prompts", out.stderr);
    let config = p.read(".lexibrary/config.yaml");
    insta::assert_snapshot!("wizard_config_yaml", config);
    let lexignore = p.read(".lexignore");
    assert!(
        lexignore.contains("*.generated.rs\nvendor/\n"),
        "{lexignore}"
    );
    assert!(p.read("AGENTS.md").contains("lexibrarian rules v1"));
}

#[test]
fn declining_the_summary_creates_nothing() {
    let p = project().fixture("rust").build();
    p.lexictl(["init", "--interactive"])
        .stdin("\n\n\n\n\n\n\nn\n")
        .success();
    assert!(!p.exists(".lexibrary"));
    assert!(!p.exists(".lexignore"));
}

#[test]
fn reinit_points_at_setup_update() {
    let p = project().init().build();
    p.lexictl(["init", "--yes"])
        .code(1)
        .stderr_has("already a Lexibrarian project")
        .stderr_has("lexictl setup --update");
    std::fs::create_dir_all(p.path("sub")).expect("mkdir");
    p.lexictl(["init", "--yes", "sub"])
        .code(1)
        .stderr_has("already inside the Lexibrarian project");
}

#[test]
fn a_write_failing_midway_leaves_the_project_as_it_was() {
    // An obstacle makes the third write fail after .lexignore and .gitignore were written:
    // `.cursor` is a file, so `.cursor/rules/lexibrarian.mdc` cannot be created.
    let p = project()
        .file(".gitignore", "target/\n")
        .file(".cursor", "a file where a directory should be")
        .build();
    let before_gitignore = p.read(".gitignore");
    p.lexictl(["init", "--interactive"])
        .stdin("\n\ncursor\n\n\n\n\n\n")
        .code(1)
        .stderr_has("cannot write .cursor/rules/lexibrarian.mdc");
    assert!(!p.exists(".lexibrary"), ".lexibrary/ must not be half-made");
    assert!(!p.exists(".lexignore"), ".lexignore must be removed again");
    assert_eq!(
        p.read(".gitignore"),
        before_gitignore,
        ".gitignore must be restored byte for byte"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&p.root)
        .expect("list")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".lexibrary") || name.starts_with(".lexi-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "staging left behind: {leftovers:?}");
}

#[test]
fn a_read_only_directory_fails_cleanly() {
    use std::os::unix::fs::PermissionsExt;
    let p = project().no_git().build();
    let mut perms = std::fs::metadata(&p.root).expect("meta").permissions();
    perms.set_mode(0o555);
    std::fs::set_permissions(&p.root, perms.clone()).expect("chmod");
    // root ignores permission bits; then there is nothing to observe here, and the obstacle test
    // above covers the rollback path.
    let writable_anyway = std::fs::write(p.path("probe"), "x").is_ok();
    let out = p.lexictl(["init", "--yes"]).run();
    perms.set_mode(0o755);
    std::fs::set_permissions(&p.root, perms).expect("chmod back");
    if writable_anyway {
        out.success();
        return;
    }
    out.code(1).stderr_has("cannot write to");
    assert_eq!(std::fs::read_dir(&p.root).expect("list").count(), 0);
}

#[test]
fn init_never_reads_key_values() {
    let p = project().build();
    let out = p
        .lexictl(["init", "--interactive"])
        .env("ANTHROPIC_API_KEY", "sk-ant-secret-value-123")
        .stdin("\n\n\nanthropic\n\n\n\n\n\n")
        .success();
    out.stderr_has("found ANTHROPIC_API_KEY → anthropic");
    let config = p.read(".lexibrary/config.yaml");
    assert!(
        config.contains("api_key_env: ANTHROPIC_API_KEY"),
        "{config}"
    );
    assert!(config.contains("provider: anthropic"), "{config}");
    assert!(!out.both().contains("secret-value"));
    assert!(!config.contains("secret-value"));
}

/// The wizard on a real terminal (a pseudo-terminal 60 columns wide): no `--interactive` needed,
/// every step answered — a wrong answer first where one is checked — text wrapped to the width.
#[test]
fn the_wizard_runs_on_a_terminal_through_every_step() {
    use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
    use std::io::{Read, Write};
    let p = project().fixture("rust").build();
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().expect("utf-8 name"))
        .expect("open the terminal");
    let size = rustix::termios::Winsize {
        ws_row: 40,
        ws_col: 60,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    rustix::termios::tcsetwinsize(&terminal, size).expect("window size");
    let mut child = p
        .command("lexictl")
        .arg("init")
        .stdin(terminal.try_clone().expect("clone"))
        .stderr(terminal.try_clone().expect("clone"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn lexictl init");
    drop(terminal);
    let mut master = std::fs::File::from(master);
    let answers = [
        "calc",
        "lib/",
        "src/",
        "claud",
        "claude",
        "openai-compatible",
        "localhost:11434",
        "http://localhost:11434/v1",
        "qwen2.5-coder",
        "MY KEY",
        "LOCAL_KEY",
        "vendor/",
        "n",
        "0",
        "900",
        "300",
        "150",
        "350",
        "y",
        "y",
    ];
    let mut reader = master.try_clone().expect("clone");
    let (chunks, screen_output) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        // Reading fails (EIO) once the child closed the terminal: that is the end of the screen.
        while let Ok(read @ 1..) = reader.read(&mut buffer) {
            if chunks.send(buffer[..read].to_vec()).is_err() {
                break;
            }
        }
    });
    // Type each answer when its prompt is on the screen, as a person would.
    let mut seen = Vec::new();
    let mut answers = answers.iter();
    let mut answered_at = 0;
    while let Ok(chunk) = screen_output.recv_timeout(std::time::Duration::from_secs(30)) {
        seen.extend_from_slice(&chunk);
        if seen.ends_with(b": ") && seen.len() > answered_at {
            if let Some(answer) = answers.next() {
                master
                    .write_all(format!("{answer}\n").as_bytes())
                    .expect("type an answer");
                answered_at = seen.len();
            }
        }
    }
    let status = child.wait().expect("wait");
    drop(master);
    let screen = String::from_utf8_lossy(&seen).replace("\r\n", "\n");
    assert_eq!(
        answers.next(),
        None,
        "every answer was asked for:\n{screen}"
    );
    assert!(status.success(), "{screen}");
    for said in [
        "`lib/` is not a directory in this project",
        "`claud` is not an agent environment; did you mean",
        "`localhost:11434` is not a URL",
        "that is not the NAME of an environment variable",
        "`0` is not a whole number of at least 1",
        "8/8 Summary",
        "llm.base_url     http://localhost:11434/v1",
        "llm.model        qwen2.5-coder",
        "llm.api_key_env  LOCAL_KEY",
        "Create the library? (Y/n): y",
    ] {
        assert!(
            screen.contains(said),
            "the screen lacks {said:?}:\n{screen}"
        );
    }
    // What the program wrote fits; a typed answer after a prompt is the terminal's to wrap.
    for line in screen.lines() {
        let written = line.rfind(": ").map_or(line, |at| &line[..at + 2]);
        assert!(
            written.chars().count() <= 60,
            "wider than the terminal: {line:?}"
        );
    }
    let config = p.read(".lexibrary/config.yaml");
    for set in ["api_key_env: LOCAL_KEY", "model: qwen2.5-coder", "claude"] {
        assert!(config.contains(set), "{set}: {config}");
    }
}
