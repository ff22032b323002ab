//! Secrets by shape, by name and by content (issue 30, defect 3): every common token format, a
//! password inside a URL and `password = "…"` literals — in default arguments, constants and
//! docstrings — never reach a design file, an `.aindex`, START_HERE.md or a request to the model;
//! a kubeconfig, a dotenv file or a credentials file is never sent whatever its name; `lexictl
//! validate` reports a secret an agent wrote into a design file, with its file and line.
//!
//! Every token is put together at run time, so that no credential-shaped literal sits in this
//! repository.

use crate::fake_llm::{FakeLlm, Reply};
use crate::support::{project, TestProject};

/// One format: a name for the file, the secret, and whether it makes its file secret (a
/// high-confidence credential: never documented at all) or is redacted where it is copied.
struct Sample {
    name: &'static str,
    secret: String,
    whole_file: bool,
}

fn sample(name: &'static str, parts: &[&str], whole_file: bool) -> Sample {
    Sample {
        name,
        secret: parts.concat(),
        whole_file,
    }
}

/// Every format the issue names, with random-looking bodies.
fn samples() -> Vec<Sample> {
    let b24 = "iK2ZWeqhFWCEPyYngFb51yBM";
    let b36 = "VkAKqiaJ42cL0n95KDk033XTNGcymwgnKR5B";
    vec![
        sample("stripe", &["sk_", "live_", b24], true),
        sample(
            "google",
            &["AI", "za", "a5IDnOdcdbWB2dC4-DSDC6Lc1mxLpQ2yMK0"],
            true,
        ),
        sample("gitlab", &["gl", "pat-", "q8Zt3LwX9vKp2RmN7cYh"], true),
        sample(
            "huggingface",
            &["h", "f_", "RVxfCQGgXkHzxFUbEctTNLLzPkkGoaXmIJ"],
            true,
        ),
        sample(
            "slack_webhook",
            &[
                "https://hooks.slack.com/",
                "services/T0Z6WW3R9/BAY6I79N1/",
                b24,
            ],
            true,
        ),
        sample("npm", &["np", "m_", b36], true),
        sample(
            "sendgrid",
            &[
                "S",
                "G.",
                "LmFg8QysGFbuN3z5sbkm2u.",
                "ZKYivBnrRg1y7Jw641RIFXIpeUcfikk6InrWvMG1qxv",
            ],
            true,
        ),
        sample(
            "twilio",
            &["S", "K", "a397f43a1d2c44a3c2728b93e8319002"],
            true,
        ),
        sample("github", &["gh", "p_", b36], true),
        sample("github_app", &["gh", "s_", b36], true),
        sample("github_pat", &["github", "_pat_", b24, "_", b36], true),
        sample("aws_key_id", &["AK", "IA", "Q3EGRIPOZJ7VNW4X"], true),
        sample(
            "jwt",
            &[
                "ey",
                "JhbGciOiJIUzI1NiJ9.",
                "ey",
                "JzdWIiOiIxMjM0NTY3ODkwIn0.",
                "ZKYivBnrRg1y7Jw641RIFXIpeUcfikk6InrW",
            ],
            false,
        ),
        sample("db_url_password", &["S3cr3tPa55", "w0rd"], false),
        sample("password_literal", &["hunter", "2x"], false),
    ]
}

/// A Python module that copies `sample` into a default argument, a constant and a docstring.
fn module_for(sample: &Sample) -> String {
    let secret = &sample.secret;
    match sample.name {
        "db_url_password" => format!(
            "\"\"\"Database access.\n\nConnects to postgres://admin:{secret}@db.example.com/app by default.\n\"\"\"\n\nDATABASE_URL = \"postgres://admin:{secret}@db.example.com/app\"\n\n\ndef connect(url=\"postgres://admin:{secret}@db.example.com/app\"):\n    \"\"\"Open a connection.\"\"\"\n    return url\n"
        ),
        "password_literal" => format!(
            "\"\"\"Logins.\"\"\"\n\nDEFAULT_PASSWORD = \"{secret}\"\n\n\ndef login(user, password=\"{secret}\"):\n    \"\"\"Log in; the test password is {secret}.\"\"\"\n    return user\n"
        ),
        _ => format!(
            "\"\"\"Client for {name}.\"\"\"\n\nDEFAULT = \"{secret}\"\n\n\ndef connect(value=\"{secret}\"):\n    \"\"\"Connect with {secret}.\"\"\"\n    return value\n",
            name = sample.name
        ),
    }
}

/// Every regular file under `dir` whose bytes contain `needle`.
fn files_containing(p: &TestProject, dir: &str, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![p.path(dir)];
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path).expect("read dir").flatten() {
                stack.push(entry.path());
            }
        } else if meta.is_file()
            && String::from_utf8_lossy(&std::fs::read(&path).expect("read")).contains(needle)
        {
            found.push(path.display().to_string());
        }
    }
    found
}

const KUBECONFIG: &str = "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://k8s.example.com\n  name: prod\ncontexts:\n- context:\n    cluster: prod\n    user: admin\n  name: prod\nusers:\n- name: admin\n  user:\n    token: kube-admin-token-value\n";

/// Item 3: with a model configured (in the personal config), a fresh update of a project holding
/// every format, a kubeconfig under another name, `secrets.env` and a credentials file: not one
/// secret in any library file or any request; the credentials files are neither documented nor
/// sent; the files holding a password-like literal are documented with it redacted; the library
/// validates clean.
#[test]
fn no_token_format_reaches_the_library_or_the_model() {
    let leak = samples()[0].secret.clone();
    let server = FakeLlm::start(move |request| {
        // A model that repeats a secret back must not get it into the library either.
        Reply::anthropic(&format!(
            "Description: Documents {} (it mentions {leak}).\n\n## Tags\n- test\n",
            request.source()
        ))
    });
    let mut builder = project().file("app/__init__.py", "\"\"\"The app.\"\"\"\n");
    for sample in samples() {
        builder = builder.file(&format!("app/{}.py", sample.name), module_for(&sample));
    }
    let p = builder
        .file("deploy/cluster-prod", KUBECONFIG)
        .file("deploy/secrets.env", "DB_HOST=db\nDB_PASSWORD=hunter2x-env\n")
        .file(
            "deploy/auth.cfg",
            "machine api.example.com login bot password netrc-pw-value\n",
        )
        .file(
            "app/settings.py",
            "\"\"\"Settings.\"\"\"\n\npassword = \"Settings-pw-42\"\nDB = {\"password\": \"Dict-pw-42\"}\n",
        )
        .init()
        .config("scope_root: .\n")
        .build();
    p.global_config(&format!(
        "llm:\n  provider: anthropic\n  model: test-model\n  api_key_env: LEXI_TEST_KEY\n  base_url: {}\n  max_retries: 0\n",
        server.url()
    ));
    p.commit_all("config");
    p.lexictl(["update"])
        .env("LEXI_TEST_KEY", "test-key")
        .success();

    let requests = server.requests();
    let sent: Vec<String> = requests.iter().map(|request| request.source()).collect();
    let mut secrets: Vec<String> = samples().into_iter().map(|s| s.secret).collect();
    secrets.extend(
        [
            "kube-admin-token-value",
            "hunter2x-env",
            "netrc-pw-value",
            "Settings-pw-42",
            "Dict-pw-42",
        ]
        .map(String::from),
    );
    for secret in &secrets {
        for request in &requests {
            assert!(
                !request.body.contains(secret.as_str()),
                "{secret} was sent:\n{}",
                request.body
            );
        }
        assert_eq!(
            files_containing(&p, ".lexibrary", secret),
            Vec::<String>::new(),
            "{secret} is in the library"
        );
    }
    for credentials in [
        "deploy/cluster-prod",
        "deploy/secrets.env",
        "deploy/auth.cfg",
    ] {
        assert!(
            !sent.contains(&credentials.to_string()),
            "{credentials} was sent"
        );
        assert!(
            !p.exists(&format!(".lexibrary/{credentials}.md")),
            "{credentials} documented"
        );
    }
    let deploy = p.read(".lexibrary/deploy/.aindex");
    assert_eq!(
        deploy
            .matches("Secret: holds a private key or credential")
            .count(),
        3,
        "{deploy}"
    );
    for sample in samples() {
        let design = format!(".lexibrary/app/{}.py.md", sample.name);
        let source = format!("app/{}.py", sample.name);
        if sample.whole_file {
            assert!(!p.exists(&design), "{} documented", sample.name);
            assert!(!sent.contains(&source), "{} sent", sample.name);
        } else {
            assert!(
                p.read(&design).contains('…'),
                "{}: {}",
                sample.name,
                p.read(&design)
            );
            assert!(sent.contains(&source), "{} not sent", sample.name);
        }
    }
    assert!(sent.contains(&"app/settings.py".to_string()));
    let settings = p.read(".lexibrary/app/settings.py.md");
    assert!(settings.contains("Documents app/settings.py"), "{settings}");
    p.lexictl(["validate"]).success();
}

/// Item 3 offline: the structural Archivist copies signatures, constants and docstrings (Python,
/// JavaScript, Rust); none of the secrets lands in a design file, an `.aindex` or START_HERE.md.
#[test]
fn the_structural_archivist_redacts_what_it_copies() {
    let jwt = samples().remove(12).secret;
    let pw = "Tr0ub4dor&3";
    let p = project()
        .file(
            "src/client.js",
            format!("/** Client. Example: `new Client({{ token: \"{jwt}\" }})`. */\nexport function connect(url = \"https://deploy:{pw}@ci.example.org\", apiKey = \"{pw}\") {{ return url; }}\nexport const API_TOKEN = \"{jwt}\";\n"),
        )
        .file(
            "src/lib.rs",
            format!("//! Settings; the admin password is `{pw}` in tests.\n\n/// The default secret.\npub const CLIENT_SECRET: &str = \"{pw}\";\n\npub fn login(password: &str) -> bool {{ password == \"{pw}\" }}\n"),
        )
        .file(
            "README.md",
            format!("# Demo\n\nSet `DATABASE_URL=postgres://app:{pw}@db/app` and go.\n"),
        )
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    for secret in [jwt.as_str(), pw] {
        assert_eq!(
            files_containing(&p, ".lexibrary", secret),
            Vec::<String>::new(),
            "{secret}"
        );
    }
    assert!(p.read(".lexibrary/src/lib.rs.md").contains("CLIENT_SECRET"));
    p.lexictl(["validate"]).success();
}

/// Item 3: a secret an agent (or a pull request) wrote into a design file, a concept and a Stack
/// post is an error of `validate`, with its file and line and never its value.
#[test]
fn validate_reports_a_secret_an_agent_wrote_with_file_and_line() {
    let p = project()
        .file("src/a.py", "\"\"\"A.\"\"\"\n")
        .init()
        .config("scope_root: src\n")
        .build();
    p.lexictl(["update"]).success();
    let samples = samples();
    let body: String = samples
        .iter()
        .map(|sample| match sample.name {
            "db_url_password" => format!("- mysql://root:{}@prod-db/app\n", sample.secret),
            "password_literal" => format!("- `login(password=\"{}\")`\n", sample.secret),
            _ => format!("- {}\n", sample.secret),
        })
        .collect();
    p.design_file("src/a.py", "A module.", &format!("## Notes\n\n{body}"));
    let out = p.lexictl(["validate", "--format", "json"]).code(2);
    let report = out.json();
    let secrets: Vec<&serde_json::Value> = report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter(|issue| issue["check"] == "secret")
        .collect();
    assert_eq!(secrets.len(), samples.len(), "{report:#}");
    let text = p.read(".lexibrary/src/a.py.md");
    for (issue, sample) in secrets.iter().zip(&samples) {
        assert_eq!(issue["file"], ".lexibrary/src/a.py.md");
        let line = issue["line"].as_u64().expect("a line") as usize;
        assert!(
            text.lines()
                .nth(line - 1)
                .expect("the line")
                .contains(&sample.secret),
            "{}: line {line}",
            sample.name
        );
    }
    for sample in &samples {
        assert!(
            !out.stdout.contains(&sample.secret),
            "{} printed",
            sample.name
        );
    }
}
