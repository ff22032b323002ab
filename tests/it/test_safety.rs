//! File safety and secrets (issue 17), one scenario per item, as an attacker and an unlucky user
//! would meet them: symlinks arriving in a pull request, key files in the tree with a model
//! configured, a run killed in the middle of a write, a file that cannot be written, a bare
//! repository and `.git/`, group-writable files and the umask, a binary without a telltale byte.
//! (The parsers' properties, item 8, are in `tests/properties.rs`.)

use std::os::unix::fs::PermissionsExt;

use crate::fake_llm::{FakeLlm, Reply};
use crate::support::{project, TestProject};

/// What `/etc/passwd` starts with: it must never show up in the library, the output or a request.
const PASSWD_MARK: &str = "root:x:0:0";

fn mode(p: &TestProject, rel: &str) -> u32 {
    std::fs::metadata(p.path(rel))
        .unwrap_or_else(|err| panic!("stat {rel}: {err}"))
        .permissions()
        .mode()
        & 0o777
}

fn is_symlink(p: &TestProject, rel: &str) -> bool {
    std::fs::symlink_metadata(p.path(rel)).is_ok_and(|meta| meta.file_type().is_symlink())
}

/// Every regular file under `dir` (not following symlinks) whose bytes contain `needle`.
fn files_containing(p: &TestProject, dir: &str, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![p.path(dir)];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
            let kind = entry.file_type().expect("type");
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                let bytes = std::fs::read(entry.path()).expect("read");
                if String::from_utf8_lossy(&bytes).contains(needle) {
                    found.push(entry.path().display().to_string());
                }
            }
        }
    }
    found
}

/// Item 1: symlinks committed by another clone (a pull request) point the library at
/// `/etc/passwd`; nothing reads through them, nothing replaces or writes through them, and
/// every command names them.
#[test]
fn symlinks_from_a_pull_request_are_never_followed() {
    let passwd = std::fs::read("/etc/passwd").expect("this test needs /etc/passwd");
    assert!(String::from_utf8_lossy(&passwd).contains(PASSWD_MARK));
    let p = project()
        .file("src/a.rs", "pub fn a() {}\n")
        .file("src/b.rs", "pub fn b() {}\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    // Another clone replaces two library files with links and opens a pull request; it is merged.
    let contributor = p.clone_to("contributor");
    for rel in [".lexibrary/src/a.rs.md", ".lexibrary/START_HERE.md"] {
        std::fs::remove_file(contributor.path(rel)).expect("remove");
        std::os::unix::fs::symlink("/etc/passwd", contributor.path(rel)).expect("symlink");
    }
    contributor.write("src/b.rs", "pub fn b() {}\npub fn c() {}\n");
    contributor.commit_all("innocent-looking change");
    p.git(["pull", "-q", "--no-rebase", "../contributor", "main"])
        .success();
    assert!(is_symlink(&p, ".lexibrary/src/a.rs.md"));

    // lookup: an error naming the link, never the target's bytes.
    let out = p.lexi(["lookup", "src/a.rs"]).code(1);
    assert!(
        out.stderr
            .contains(".lexibrary/src/a.rs.md: is a symbolic link (to /etc/passwd)"),
        "{}",
        out.stderr
    );
    out.stdout_lacks(PASSWD_MARK);
    assert!(!out.stderr.contains(PASSWD_MARK));

    // concept link: refused; the link is neither replaced nor written through.
    p.lexi(["concept", "new", "Auth"]).success();
    let out = p.lexi(["concept", "link", "src/a.rs", "Auth"]).code(1);
    assert!(out.stderr.contains("is a symbolic link"), "{}", out.stderr);
    assert!(is_symlink(&p, ".lexibrary/src/a.rs.md"));

    // update: the two links fail by name, everything else is written, exit 1.
    let out = p.lexictl(["update"]).code(1);
    for rel in ["src/a.rs", ".lexibrary/START_HERE.md"] {
        assert!(
            out.stderr.contains(&format!("  {rel}: ")),
            "{rel} is not named:\n{}",
            out.stderr
        );
    }
    assert!(out.stderr.contains("is a symbolic link (to /etc/passwd)"));
    assert!(is_symlink(&p, ".lexibrary/START_HERE.md"));
    assert!(is_symlink(&p, ".lexibrary/src/a.rs.md"));
    assert!(
        p.read(".lexibrary/src/b.rs.md").contains("pub fn c()"),
        "the other design file is written"
    );
    assert_eq!(std::fs::read("/etc/passwd").expect("read"), passwd);

    // validate: both are errors.
    let out = p.lexictl(["validate", "--format", "json"]).code(2);
    let symlinks: Vec<String> = out.json()["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter(|issue| issue["check"] == "symlink")
        .map(|issue| issue["file"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        symlinks,
        [".lexibrary/START_HERE.md", ".lexibrary/src/a.rs.md"]
    );

    // Nothing the tool wrote holds the target's bytes: the merge job would commit nothing of it.
    assert_eq!(
        files_containing(&p, ".lexibrary", PASSWD_MARK),
        Vec::<String>::new()
    );
    p.git(["add", "-A"]).success();
    let staged = p.git(["diff", "--cached"]).success();
    assert!(!staged.stdout.contains(PASSWD_MARK), "{}", staged.stdout);
}

/// Item 1, the project's own files: a `.lexignore`, the config and an agent rule file that are
/// symlinks out of the repository are refused by name and never read through.
#[test]
fn a_symlinked_lexignore_config_or_rule_file_is_refused() {
    let p = project()
        .file("src/a.rs", "pub fn a() {}\n")
        .file("AGENTS.md", "# Our agents\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    let outside = p.root.parent().expect("temp dir").join("outside.txt");
    std::fs::write(&outside, "*.rs\n").expect("write");

    std::fs::remove_file(p.path(".lexignore")).expect("remove");
    std::os::unix::fs::symlink(&outside, p.path(".lexignore")).expect("symlink");
    p.write("src/b.rs", "pub fn b() {}\n");
    let out = p.lexictl(["update"]).code(1);
    assert!(
        out.stderr.contains(".lexignore is a symbolic link")
            && out.stderr.contains("nothing was written"),
        "{}",
        out.stderr
    );
    assert!(!p.exists(".lexibrary/src/b.rs.md"));
    let out = p.lexictl(["validate"]).code(2);
    assert!(out.stdout.contains(".lexignore"), "{}", out.stdout);
    std::fs::remove_file(p.path(".lexignore")).expect("remove");

    // The project config: every command refuses it.
    let config = p.read(".lexibrary/config.yaml");
    std::fs::write(&outside, config).expect("write");
    std::fs::remove_file(p.path(".lexibrary/config.yaml")).expect("remove");
    std::os::unix::fs::symlink(&outside, p.path(".lexibrary/config.yaml")).expect("symlink");
    for out in [
        p.lexi(["lookup", "src/a.rs"]).code(1),
        p.lexictl(["update"]).code(1),
    ] {
        assert!(
            out.stderr
                .contains(".lexibrary/config.yaml: is a symbolic link"),
            "{}",
            out.stderr
        );
    }

    // An agent rule file: `lexictl init` leaves a symlinked one alone and says so.
    let q = project()
        .file("src/a.rs", "pub fn a() {}\n")
        .file("AGENTS.md", "# Our agents\n")
        .build();
    std::os::unix::fs::symlink("AGENTS.md", q.path("CLAUDE.md")).expect("symlink");
    let out = q.lexictl(["init", "--yes"]).success();
    assert!(
        out.stdout
            .contains("note      CLAUDE.md: is a symbolic link (to AGENTS.md) — left alone"),
        "{}",
        out.stdout
    );
    assert!(is_symlink(&q, "CLAUDE.md"));
    assert!(
        q.read("AGENTS.md").contains("lexibrarian rules"),
        "AGENTS.md gets the block once"
    );
    assert_eq!(
        q.read("AGENTS.md").matches("lexibrarian rules v1").count(),
        1
    );
}

/// Item 2: private keys and credentials in the tree — by name and by content — get no design file,
/// are listed as secret, and with a model configured not one byte of them reaches the provider.
#[test]
fn key_files_are_never_documented_or_sent_to_the_model() {
    let key = key_block();
    let server = FakeLlm::start(|request| {
        let source = request.source();
        Reply::anthropic(&format!(
            "Description: Documents {source} for the test.\n\n## Tags\n- test\n"
        ))
    });
    let p = project()
        .file("lib/lib.rs", "//! The library.\npub fn run() {}\n")
        .file("deploy/id_ed25519", &key)
        .file(
            "deploy/id_ed25519.pub",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHx deploy@ci\n",
        )
        .file("deploy/id_ecdsa", &key)
        .file(
            "ops/kubeconfig",
            "apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: abc\n",
        )
        .file(
            "gcp/service-account-prod.json",
            format!("{{\"private_key\": {:?}}}\n", key),
        )
        .file(
            "infra/terraform.tfstate.backup",
            "{\"password\": \"hunter2\"}\n",
        )
        .file("certs/client.p12", &key)
        .file("certs/store.jks", &key)
        .file(".git-credentials", "https://user:token@example.com\n")
        .file("notes/server-key.txt", format!("The staging key:\n\n{key}"))
        .file(
            "notes/readme.md",
            format!(
                "# Notes\n\nKeys start with `-----{} OPENSSH PRIVATE KEY-----`.\n",
                "BEGIN"
            ),
        )
        .init()
        .config("scope_root: .\n")
        .build();
    p.config(&format!(
        "llm:\n  provider: anthropic\n  model: test-model\n  api_key_env: LEXI_TEST_KEY\n  base_url: {}\n  max_retries: 0\n",
        server.url()
    ));
    p.commit_all("config");
    p.lexictl(["trust"]).success();
    p.lexictl(["update"])
        .env("LEXI_TEST_KEY", "sk-test-key")
        .success();

    let requests = server.requests();
    let mut sent: Vec<String> = requests.iter().map(|request| request.source()).collect();
    sent.sort();
    assert_eq!(
        sent,
        ["deploy/id_ed25519.pub", "lib/lib.rs", "notes/readme.md"],
        "only what holds no secret is sent (AGENTS.md, init's rule file, is mapped `skip`)"
    );
    for request in &requests {
        for needle in [
            KEY_BODY,
            "b3BlbnNzaC1rZXktdjEAAAAA",
            "hunter2",
            "user:token",
            "token: abc",
        ] {
            assert!(
                !request.body.contains(needle),
                "{needle} was sent:\n{}",
                request.body
            );
        }
    }
    for rel in [
        "deploy/id_ed25519",
        "deploy/id_ecdsa",
        "ops/kubeconfig",
        "gcp/service-account-prod.json",
        "infra/terraform.tfstate.backup",
        "certs/client.p12",
        "certs/store.jks",
        ".git-credentials",
        "notes/server-key.txt",
    ] {
        assert!(
            !p.exists(&format!(".lexibrary/{rel}.md")),
            "{rel} was documented"
        );
    }
    // A file secret by content is listed as such; one secret by name is not listed at all.
    let notes = p.read(".lexibrary/notes/.aindex");
    assert!(
        notes.contains("| `server-key.txt` | file | Secret: holds a private key or credential"),
        "{notes}"
    );
    assert!(!p.read(".lexibrary/deploy/.aindex").contains("`id_ed25519`"));
    assert!(files_containing(&p, ".lexibrary", KEY_BODY).is_empty());
    p.lexictl(["validate"]).success();
}

/// A line of key material (random-looking base64) and a whole OpenSSH private key around it, built
/// at run time so that no key-shaped literal sits in this repository.
const KEY_BODY: &str = "QyNTUxOQAAACDx3f0L1wVv9Yc2kq7p8Hc0sZmR4tN6jW2eB5uA9gK";

fn key_block() -> String {
    format!(
        "-----{begin} OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n{KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\n",
        begin = "BEGIN"
    )
}

/// Item 3: a run killed in the middle of a design file write leaves its temporary file; git never
/// sees it, `validate` reports it, and the next run removes it under the lock.
#[test]
fn a_killed_update_leaves_debris_that_is_ignored_reported_and_removed() {
    // Big enough that its design file is larger than the file size limit below.
    let big: String = (0..300)
        .map(|i| format!("/// Function number {i}.\npub fn function_{i}(value: u64) -> u64 {{ value + {i} }}\n"))
        .collect();
    let p = project()
        .file("src/big.rs", big)
        .init()
        .config("token_budgets:\n  design_file_tokens: 10000\n")
        .build();
    p.commit_all("library config");
    // The kernel kills the process (SIGXFSZ) the moment a write goes past 1 KiB: exactly where a
    // `kill -9` that lands mid-write would, every time.
    let out = p
        .cmd(
            "sh",
            ["-c", "ulimit -c 0 && ulimit -f 2 && exec lexictl update"],
        )
        .run();
    assert_eq!(out.code, -1, "killed by a signal:\n{}", out.stderr);
    let debris: Vec<String> = std::fs::read_dir(p.path(".lexibrary/src"))
        .expect("the mirror exists")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".lexi-tmp-"))
        .collect();
    assert_eq!(debris.len(), 1, "{debris:?}");
    let debris = format!(".lexibrary/src/{}", debris[0]);

    // Gitignored: `git add .lexibrary` does not pick it up.
    p.git(["add", ".lexibrary"]).success();
    let staged = p.git(["diff", "--cached", "--name-only"]).success();
    assert!(!staged.stdout.contains(".lexi-tmp-"), "{}", staged.stdout);

    let out = p.lexictl(["validate"]).code(2);
    assert!(
        out.stdout.contains(&debris) && out.stdout.contains("stray-file"),
        "{}",
        out.stdout
    );
    let out = p.lexictl(["update", "--check"]).code(2);
    assert!(
        out.stdout.contains(&format!(
            "would remove 1 temporary file left by an interrupted write: {debris}"
        )),
        "{}",
        out.stdout
    );
    assert!(p.exists(&debris), "--check writes nothing");

    let out = p.lexictl(["update"]).success();
    assert!(
        out.stdout.contains(&format!(
            "removed 1 temporary file left by an interrupted write: {debris}"
        )),
        "{}",
        out.stdout
    );
    assert!(!p.exists(&debris));
    assert!(p.exists(".lexibrary/src/big.rs.md"));
    p.lexictl(["validate"]).success();
}

/// Item 3 for projects made by an older `lexictl init`: `lexictl setup --update` adds the
/// temporary files' line to their `.gitignore`, next to the lines it already has.
#[test]
fn setup_update_gitignores_temporary_files_in_older_projects() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    let older = p.read(".gitignore").replace(".lexi-tmp-*\n", "");
    p.write(".gitignore", &older);
    let out = p.lexictl(["setup", "--update"]).success();
    out.stdout_has("added the missing Lexibrarian lines to .gitignore");
    assert_eq!(
        p.read(".gitignore"),
        older.replace(".lexibrary/.cache/\n", ".lexibrary/.cache/\n.lexi-tmp-*\n")
    );
    p.lexictl(["setup", "--update"])
        .success()
        .stdout_lacks(".gitignore");
}

/// Item 3 with a real `kill -9`: an update killed while it waits for the model leaves its marker;
/// the next run, even one that has nothing else to do, removes what a killed writer left.
#[test]
fn the_run_after_a_kill_9_removes_the_debris() {
    let server = FakeLlm::start(|_| {
        Reply::anthropic("Description: Slow.\n").after(std::time::Duration::from_secs(20))
    });
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    p.lexictl(["update"]).success();
    p.config(&format!(
        "llm:\n  provider: anthropic\n  model: m\n  api_key_env: LEXI_TEST_KEY\n  base_url: {}\n",
        server.url()
    ));
    p.write("src/a.rs", "pub fn a() {}\npub fn b() {}\n");
    p.commit_all("change");
    p.lexictl(["trust"]).success();
    let mut running = p
        .lexictl(["update", "--changed-only"])
        .env("LEXI_TEST_KEY", "k")
        .spawn();
    let started = std::time::Instant::now();
    while server.requests().is_empty() && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!server.requests().is_empty(), "the update asked the model");
    let pid = running.child.id();
    running.child.kill().expect("kill -9");
    let _ = running.child.wait();
    assert!(
        p.exists(".git/lexibrarian/update.running"),
        "the killed run left its marker"
    );
    // What the killed process would have left had the answer arrived: its temp file.
    let debris = format!(".lexibrary/src/.lexi-tmp-{pid}-0");
    p.write(&debris, "half a design fi");
    p.config("llm:\n  provider: structural\n");
    p.commit_all("back to structural");
    let out = p.lexictl(["update", "--changed-only"]).success();
    assert!(out.stdout.contains(&debris), "{}", out.stdout);
    assert!(!p.exists(&debris));
    assert!(!p.exists(".git/lexibrarian/update.running"));
}

/// Item 4: one design file that cannot be written (here a directory in its way — it fails even for
/// root) is reported with its reason; every other file, the indexes and START_HERE.md are written;
/// exit 1. A source name too long to mirror gets a shortened design file name, not an error.
#[test]
fn one_bad_file_never_stops_the_run() {
    let long = format!("{}.rs", "n".repeat(252));
    assert_eq!(long.len(), 255, "the longest legal name");
    let p = project()
        .file("src/a.rs", "pub fn a() {}\n")
        .file("src/b.rs", "pub fn b() {}\n")
        .file("src/c.rs", "pub fn c() {}\n")
        .file(&format!("src/{long}"), "pub fn long() {}\n")
        .init()
        // A 255-byte name in a Child Map is over the default index budget.
        .config("token_budgets:\n  aindex_tokens: 1000\n")
        .build();
    std::fs::create_dir_all(p.path(".lexibrary/src/b.rs.md/obstacle")).expect("mkdir");
    let out = p.lexictl(["update"]).code(1);
    assert!(
        out.stderr.contains("error: 3 written, 1 failed:")
            && out
                .stderr
                .contains("  src/b.rs: cannot write .lexibrary/src/b.rs.md: "),
        "{}",
        out.stderr
    );
    for rel in [
        ".lexibrary/src/a.rs.md",
        ".lexibrary/src/c.rs.md",
        ".lexibrary/src/.aindex",
        ".lexibrary/.aindex",
        ".lexibrary/START_HERE.md",
    ] {
        assert!(p.path(rel).is_file(), "{rel} was not written");
    }
    // The long name: a stable shortened design file, found by lookup, clean for validate.
    let shortened = format!("{}~", "n".repeat(235));
    let mirror: Vec<String> = std::fs::read_dir(p.path(".lexibrary/src"))
        .expect("list")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&shortened))
        .collect();
    assert_eq!(mirror.len(), 1, "{mirror:?}");
    assert!(mirror[0].len() <= 255 && mirror[0].ends_with(".md"));
    let out = p.lexi(["lookup", &format!("src/{long}")]).success();
    out.stdout_has("- long()");

    // The obstacle goes: the next run writes the file it could not, and all is clean.
    std::fs::remove_dir_all(p.path(".lexibrary/src/b.rs.md")).expect("rmdir");
    p.lexictl(["update"]).success();
    assert!(p.read(".lexibrary/src/b.rs.md").contains("pub fn b()"));
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
}

/// Item 4, a full disk on one file: a file size limit (with its signal ignored, the write fails
/// with `EFBIG`, as a full disk or quota fails it with `ENOSPC`/`EDQUOT`) stops the one large design
/// file; the small ones, the indexes and START_HERE.md are written, and the run exits 1.
#[test]
fn a_write_that_fails_for_space_fails_only_its_file() {
    let big: String = (0..300)
        .map(|i| format!("pub fn function_{i}(value: u64) -> u64 {{ value + {i} }}\n"))
        .collect();
    let p = project()
        .file("src/big.rs", big)
        .file("src/small.rs", "pub fn small() {}\n")
        .init()
        // A budget big enough that the whole contract is written.
        .config("token_budgets:\n  design_file_tokens: 100000\n")
        .build();
    let out = p
        .cmd(
            "sh",
            ["-c", "trap '' XFSZ && ulimit -f 8 && exec lexictl update"],
        )
        .code(1);
    assert!(
        out.stderr
            .contains("  src/big.rs: cannot write .lexibrary/src/big.rs.md: File too large"),
        "{}",
        out.stderr
    );
    for rel in [
        ".lexibrary/src/small.rs.md",
        ".lexibrary/src/.aindex",
        ".lexibrary/START_HERE.md",
    ] {
        assert!(p.path(rel).is_file(), "{rel} was not written");
    }
    assert!(!p.exists(".lexibrary/src/big.rs.md"));
    let leftovers = files_containing(&p, ".lexibrary", "pub fn function_1(");
    assert!(
        leftovers.is_empty(),
        "no partial file is left: {leftovers:?}"
    );
    p.lexictl(["update"]).success();
    assert!(p.exists(".lexibrary/src/big.rs.md"));
}

/// Item 5: a bare repository and any directory inside `.git/` are refused by `init` and by every
/// command, with a message that says why; nothing is written there.
#[test]
fn bare_repositories_and_git_directories_are_refused() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    let bare = p.clone_bare_to("remote.git");
    let out = bare.lexictl(["init", "--yes"]).code(1);
    assert!(
        out.stderr.contains("is a bare git repository"),
        "{}",
        out.stderr
    );
    assert!(!bare.exists(".lexibrary"));
    let out = bare
        .lexictl(["init", "--yes"])
        .current_dir(bare.path("refs"))
        .code(1);
    assert!(
        out.stderr.contains("is a bare git repository"),
        "{}",
        out.stderr
    );

    let q = project().file("src/a.rs", "pub fn a() {}\n").build();
    let out = q
        .lexictl(["init", "--yes"])
        .current_dir(q.path(".git"))
        .code(1);
    assert!(
        out.stderr.contains("is inside the git directory"),
        "{}",
        out.stderr
    );
    assert!(!q.exists(".git/.lexibrary"));

    // Every command, run from inside `.git/` of a project.
    for dir in [".git", ".git/objects", ".git/refs/heads"] {
        let out = p.lexictl(["update"]).current_dir(p.path(dir)).code(1);
        assert!(
            out.stderr.contains("is inside the git directory"),
            "{dir}: {}",
            out.stderr
        );
        let out = p
            .lexi(["lookup", "src/a.rs"])
            .current_dir(p.path(dir))
            .code(1);
        assert!(
            out.stderr.contains("is inside the git directory"),
            "{}",
            out.stderr
        );
    }
    assert!(!p.exists(".lexibrary/HEAD.md") && !p.exists(".lexibrary/src/a.rs.md"));
}

/// Item 6: new files follow the umask; rewriting a file keeps its mode. `init` on a shared checkout
/// leaves the user's group-writable files group-writable.
#[test]
fn files_follow_the_umask_and_rewrites_keep_their_mode() {
    let p = project()
        .file("src/a.rs", "pub fn a() {}\n")
        .file(".gitignore", "target/\n")
        .file("CLAUDE.md", "# Claude\n")
        .file("AGENTS.md", "# Agents\n")
        .build();
    for rel in [".gitignore", "CLAUDE.md", "AGENTS.md"] {
        std::fs::set_permissions(p.path(rel), std::fs::Permissions::from_mode(0o664))
            .expect("chmod");
    }
    p.cmd("sh", ["-c", "umask 022 && exec lexictl init --yes"])
        .success();
    for rel in [".gitignore", "CLAUDE.md", "AGENTS.md"] {
        assert_eq!(mode(&p, rel), 0o664, "{rel} keeps its mode");
        assert!(p.read(rel).contains("lexibrarian") || rel == ".gitignore");
    }
    assert!(p.read(".gitignore").contains(".lexi-tmp-*"));
    for rel in [
        ".lexignore",
        ".lexibrary/config.yaml",
        ".lexibrary/START_HERE.md",
    ] {
        assert_eq!(mode(&p, rel), 0o644, "{rel} follows umask 022");
    }
    assert_eq!(mode(&p, ".lexibrary"), 0o755);
    p.cmd("sh", ["-c", "umask 022 && exec lexictl update"])
        .success();
    for rel in [
        ".lexibrary/src/a.rs.md",
        ".lexibrary/src/.aindex",
        ".lexibrary/.aindex",
    ] {
        assert_eq!(mode(&p, rel), 0o644, "{rel} follows umask 022");
    }
    // A shared checkout: group-writable files stay so when rewritten; new ones follow umask 002.
    std::fs::set_permissions(
        p.path(".lexibrary/src/a.rs.md"),
        std::fs::Permissions::from_mode(0o664),
    )
    .expect("chmod");
    p.write("src/a.rs", "pub fn a() {}\npub fn b() {}\n");
    p.write("src/new.rs", "pub fn new() {}\n");
    p.cmd("sh", ["-c", "umask 022 && exec lexictl update"])
        .success();
    assert!(
        p.read(".lexibrary/src/a.rs.md").contains("pub fn b()"),
        "rewritten"
    );
    assert_eq!(mode(&p, ".lexibrary/src/a.rs.md"), 0o664);
    assert_eq!(mode(&p, ".lexibrary/src/new.rs.md"), 0o644);
    p.write("src/newer.rs", "pub fn newer() {}\n");
    p.cmd("sh", ["-c", "umask 002 && exec lexictl update"])
        .success();
    assert_eq!(
        mode(&p, ".lexibrary/src/newer.rs.md"),
        0o664,
        "follows umask 002"
    );
}

/// Item 7: an extensionless binary without a single NUL byte is listed as binary, never documented;
/// an extensionless text file in a legacy encoding still is.
#[test]
fn an_extensionless_binary_without_nul_bytes_gets_no_design_file() {
    // Bytes as a compressed file has them: everything but NUL, in no order.
    let blob: Vec<u8> = (0..6000u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 11) as u8).max(1))
        .collect();
    assert!(!blob.contains(&0));
    let p = project()
        .file("assets/blob", &blob)
        .file(
            "assets/NOTES",
            b"Caf\xe9 cr\xe8me: the menu, in Latin-1.\n".as_slice(),
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert!(!p.exists(".lexibrary/assets/blob.md"));
    assert!(p.exists(".lexibrary/assets/NOTES.md"));
    let index = p.read(".lexibrary/assets/.aindex");
    assert!(
        index.contains("| `blob` | file | Binary file (6 KB) |"),
        "{index}"
    );
    p.lexictl(["validate"]).success();
}

/// Item 1, the other special files: a FIFO where a design file belongs never blocks a reader.
#[test]
fn a_fifo_in_the_library_never_blocks_a_reader() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    p.lexictl(["update"]).success();
    std::fs::remove_file(p.path(".lexibrary/src/a.rs.md")).expect("rm");
    let status = std::process::Command::new("mkfifo")
        .arg(p.path(".lexibrary/src/a.rs.md"))
        .status()
        .expect("mkfifo");
    assert!(status.success());
    let out = p.lexi(["lookup", "src/a.rs"]).code(1);
    assert!(
        out.stderr.contains("is not a regular file"),
        "{}",
        out.stderr
    );
}
