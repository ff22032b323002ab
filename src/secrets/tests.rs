//! The scanner's table: one row per format, a sample that must be found and redacted and a near
//! miss that must be left alone; then ordinary code that must never be touched. Every sample is
//! put together at run time (`join`), so that no credential-shaped literal sits in this file.

use super::*;

/// Pieces joined: the prefixes are split so that this file holds no whole token.
fn join(parts: &[&str]) -> String {
    parts.concat()
}

/// Random-looking bodies (no vendor prefix: harmless alone).
const B20: &str = "q8Zt3LwX9vKp2RmN7cYh";
const B24: &str = "iK2ZWeqhFWCEPyYngFb51yBM";
const B32HEX: &str = "a397f43a1d2c44a3c2728b93e8319002";
const B34: &str = "RVxfCQGgXkHzxFUbEctTNLLzPkkGoaXmIJ";
const B35: &str = "a5IDnOdcdbWB2dC4-DSDC6Lc1mxLpQ2yMK0";
const B36: &str = "VkAKqiaJ42cL0n95KDk033XTNGcymwgnKR5B";
const B40: &str = "0ofyE1uo5vEun3WLG9OmAOfdbLO5YOZiiO6oGB8T";
const B43: &str = "ZKYivBnrRg1y7Jw641RIFXIpeUcfikk6InrWvMG1qxv";

/// One format: its name, a line holding it (the secret part in `secret`), the kind `scan` must name,
/// whether it makes a file secret, and a near miss on the same theme that is no finding.
struct Row {
    format: &'static str,
    line: String,
    secret: String,
    kind: &'static str,
    high: bool,
    near_miss: String,
}

fn row(
    format: &'static str,
    secret: String,
    line: impl Fn(&str) -> String,
    kind: &'static str,
    high: bool,
    near_miss: String,
) -> Row {
    Row {
        format,
        line: line(&secret),
        secret,
        kind,
        high,
        near_miss,
    }
}

fn default_arg(secret: &str) -> String {
    format!("def connect(value=\"{secret}\"):")
}

fn docstring(secret: &str) -> String {
    format!("    \"\"\"Example: `client.login({secret})` works.\"\"\"")
}

fn rows() -> Vec<Row> {
    vec![
        row(
            "Stripe live key",
            join(&["sk_", "live_", B24]),
            default_arg,
            "a Stripe secret key",
            true,
            default_arg(&join(&["sk_", "live_", "docs"])),
        ),
        row(
            "Stripe restricted key",
            join(&["rk_", "live_", B24]),
            docstring,
            "a Stripe secret key",
            true,
            docstring("rk_live_"),
        ),
        row(
            "Google API key",
            join(&["AI", "za", B35]),
            default_arg,
            "a Google API key",
            true,
            default_arg(&join(&["AI", "za", "SyShort"])),
        ),
        row(
            "GitLab personal access token",
            join(&["gl", "pat-", B20]),
            default_arg,
            "a GitLab token",
            true,
            default_arg(&join(&["gl", "pat-", "short"])),
        ),
        row(
            "Hugging Face token",
            join(&["h", "f_", B34]),
            docstring,
            "a Hugging Face token",
            true,
            docstring("hf_hub_download_model_file_from_the_hub"),
        ),
        row(
            "Slack webhook URL",
            join(&[
                "https://hooks.slack.com/services/",
                "T0Z6WW3R9/BAY6I79N1/",
                B24,
            ]),
            default_arg,
            "a Slack webhook URL",
            true,
            default_arg("https://hooks.slack.com/services/"),
        ),
        row(
            "Slack bot token",
            join(&["xo", "xb-", "123456789012-", B24]),
            docstring,
            "a Slack token",
            true,
            docstring("xoxb-short"),
        ),
        row(
            "password in a database URL",
            "S3cr3tPa55w0rd".into(),
            |secret| default_arg(&format!("postgres://admin:{secret}@db.example.com:5432/app")),
            "a password in a URL",
            false,
            default_arg("postgres://user:password@localhost:5432/app"),
        ),
        row(
            "password in any URL",
            "Tr0ub4dor&3".into(),
            |secret| format!("    \"\"\"Fetch https://deploy:{secret}@ci.example.org/hook.\"\"\""),
            "a password in a URL",
            false,
            docstring("https://user@ci.example.org/hook"),
        ),
        row(
            "JSON Web Token",
            join(&["ey", "JhbGciOiJIUzI1NiJ9", ".ey", "JzdWIiOiIxMjM0NTY3ODkwIn0", ".", B43]),
            default_arg,
            "a JSON Web Token",
            false,
            default_arg("eyJhbGciOiJIUzI1NiJ9"),
        ),
        row(
            "npm token",
            join(&["np", "m_", B36]),
            default_arg,
            "an npm token",
            true,
            default_arg("npm_config_cache_directory"),
        ),
        row(
            "SendGrid API key",
            join(&["S", "G.", &B24[..22], ".", B43]),
            default_arg,
            "a SendGrid API key",
            true,
            default_arg("SG.config"),
        ),
        row(
            "Twilio API key",
            join(&["S", "K", B32HEX]),
            docstring,
            "a Twilio API key",
            true,
            docstring(&join(&["S", "K", &B32HEX[..31]])),
        ),
        row(
            "AWS access key id",
            join(&["AK", "IA", "Q3EGRIPOZJ7VNW4X"]),
            default_arg,
            "an AWS access key id",
            true,
            default_arg(&join(&["AK", "IA", "SHORT"])),
        ),
        row(
            "AWS secret access key",
            B40.into(),
            |secret| format!("def client(aws_secret_access_key=\"{secret}\"):"),
            "an AWS secret access key",
            true,
            "def client(aws_secret_access_key=os.environ[\"AWS_SECRET_ACCESS_KEY\"]):".into(),
        ),
        row(
            "GitHub classic token",
            join(&["gh", "p_", B36]),
            default_arg,
            "a GitHub token",
            true,
            default_arg("ghp_short"),
        ),
        row(
            "GitHub OAuth token",
            join(&["gh", "o_", B36]),
            docstring,
            "a GitHub token",
            true,
            docstring("gho_"),
        ),
        row(
            "GitHub app token",
            join(&["gh", "s_", B36]),
            default_arg,
            "a GitHub token",
            true,
            default_arg("ghs_x"),
        ),
        row(
            "GitHub fine-grained token",
            join(&["github", "_pat_", B24, "_", B34]),
            default_arg,
            "a GitHub token",
            true,
            default_arg("github_pat_"),
        ),
        row(
            "OpenAI API key",
            join(&["sk", "-proj-", B36]),
            default_arg,
            "an OpenAI API key",
            true,
            default_arg("sk-proj"),
        ),
        row(
            "Anthropic API key",
            join(&["sk", "-ant-", "api03-", B36]),
            default_arg,
            "an Anthropic API key",
            true,
            default_arg("sk-ant-"),
        ),
        row(
            "PEM private key block",
            samples::private_key(),
            |secret| format!("KEY = \"\"\"\n{secret}\"\"\""),
            "a private key block",
            true,
            format!(
                "CERT = \"\"\"\n-----{} CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ3J5cHRvZ3JhcGh5IGlzIGhhcmQ\n-----END CERTIFICATE-----\n\"\"\"",
                "BEGIN"
            ),
        ),
        row(
            "password literal in a default argument",
            "hunter2x".into(),
            |secret| format!("def login(user, password=\"{secret}\"):"),
            "a password or secret literal",
            false,
            "def login(user, password=\"changeme\"):".into(),
        ),
        row(
            "secret literal in a constant",
            "Xk9#mQ2$vL7pR4tZ".into(),
            |secret| format!("const CLIENT_SECRET: &str = \"{secret}\";"),
            "a high-entropy secret assignment",
            false,
            "const CLIENT_SECRET_ENV: &str = \"Xk9#mQ2$vL7pR4tZ\";".into(),
        ),
        row(
            "token literal in a docstring",
            "Pa55-w0rd!".into(),
            |secret| format!("    Example: ``api.call(token='{secret}')``"),
            "a password or secret literal",
            false,
            "    Example: ``api.call(token=get_token())``".into(),
        ),
        row(
            "api_key in YAML",
            "q8Zt3LwX9vKp2RmN".into(),
            |secret| format!("api_key: {secret}"),
            "a high-entropy secret assignment",
            false,
            "api_key: ${API_KEY}".into(),
        ),
        row(
            "password in an INI or YAML line",
            "Xk9#mQ2$vL7pR4tZ".into(),
            |secret| format!("db_password = {secret}"),
            "a high-entropy secret assignment",
            false,
            "db_password = $DB_PASSWORD_FROM_ENV_2".into(),
        ),
        row(
            "password in JSON",
            "s3cr3t!Pw".into(),
            |secret| format!("{{\"db_password\": \"{secret}\"}}"),
            "a password or secret literal",
            false,
            "{\"db_password\": \"<your password>\"}".into(),
        ),
    ]
}

#[test]
fn every_format_is_found_and_redacted_and_its_near_miss_is_left_alone() {
    for row in rows() {
        let found = scan(row.line.as_bytes());
        assert_eq!(
            found.iter().map(|f| f.kind).collect::<Vec<_>>(),
            [row.kind],
            "{}: {:?}",
            row.format,
            row.line
        );
        assert_eq!(
            secret_material(row.line.as_bytes()).is_some(),
            row.high,
            "{}: makes a file secret",
            row.format
        );
        let redacted = redact(&row.line);
        assert!(
            !redacted.contains(&row.secret),
            "{}: {redacted}",
            row.format
        );
        assert!(
            scan(redacted.as_bytes()).is_empty(),
            "{}: {redacted}",
            row.format
        );
        assert_eq!(
            redact(&redacted),
            redacted,
            "{}: redaction is idempotent",
            row.format
        );
        assert_eq!(
            scan(row.near_miss.as_bytes()),
            [],
            "{}: near miss {:?}",
            row.format,
            row.near_miss
        );
        assert!(
            matches!(redact(&row.near_miss), std::borrow::Cow::Borrowed(_)),
            "{}",
            row.format
        );
    }
}

#[test]
fn ordinary_code_is_left_alone() {
    let ordinary = [
        // Lockfile hashes and checksums.
        "\"integrity\": \"sha512-3Jp1WvO2P3t0sA9i0xk8x3YcQ1mO8aC3o9rB7Z5JwVf7Zs2YpQ6lR1cS2iK0eL7uN0hD4jM6aX9zT3qW5eR8yA==\"",
        "checksum = \"7b0f6a1e0f5b3c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e\"",
        "version = \"1.0.197\" # sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        // Hex test vectors, UUIDs, base64 of ordinary text.
        "let vector = hex!(\"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\");",
        "id = \"550e8400-e29b-41d4-a716-446655440000\"",
        "GREETING_B64 = \"SGVsbG8sIFdvcmxkISBUaGlzIGlzIG5vdCBhIHNlY3JldC4=\"",
        "commit = \"3dccc77a1d2c44a3c2728b93e8319002f43a1d2c\"",
        // Names that contain a secret word but are not secrets.
        "token_type = \"Bearer\"",
        "password_field = \"hunter2x\"",
        "TOKEN_URL = \"https://oauth2.googleapis.com/token\"",
        "let token = tokens.next()?;",
        // tokio's tests: a call on a variable, not a value.
        "let child_token1 = token1.child_token();",
        "let grandchild2_token = child1_token.child_token();",
        "MAX_TOKEN = MAX_RETRIES_2_AND_MORE",
        "secret: 'keyboard cat'",
        "SECRET_KEY = None",
        "app.secret_key = os.environ[\"SECRET_KEY\"]",
        "password = getpass.getpass()",
        "api_key = settings.API_KEY",
        "if token == \"}\" {",
        "csrf_token = \"csrf_token\"",
        // Placeholders.
        "password = \"changeme\"",
        "DATABASE_URL = \"postgres://user:password@localhost/app\"",
        "redis://:${REDIS_PASSWORD}@cache:6379/0",
        "api_key = \"<your-api-key>\"",
        "token = \"xxxxxxxxxxxxxxxx\"",
        "http://tobi:learnboost@localhost:3000/",
        // Prose.
        "Use the `api_key_env` setting, never a literal key.",
        "The token is refreshed every hour.",
        "class=\"sk-button-primary\"",
        "fn main() {}",
    ];
    for line in ordinary {
        assert_eq!(scan(line.as_bytes()), [], "{line}");
        assert!(
            matches!(redact(line), std::borrow::Cow::Borrowed(_)),
            "{line}"
        );
    }
}

#[test]
fn credentials_files_are_known_by_content() {
    let files = [
        (
            "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://k8s\n  name: prod\nusers:\n- name: admin\n  user:\n    token: abc\n",
            Some("a kubeconfig"),
        ),
        (
            "# local settings\nDB_HOST=localhost\nDB_PASSWORD=hunter2x\n",
            Some("a dotenv file with secrets"),
        ),
        (
            "export API_TOKEN='q8Zt3LwX'\nexport REGION=eu\n",
            Some("a dotenv file with secrets"),
        ),
        (
            "[default]\naws_access_key_id = x\naws_secret_access_key = y\n",
            Some("an AWS credentials file"),
        ),
        (
            "machine api.example.com login bot password s3cret\n",
            Some("a netrc file"),
        ),
        (
            "https://bot:q8Zt3LwX@github.com\n",
            Some("a git credentials file"),
        ),
        (
            "//registry.npmjs.org/:_authToken=abc\n",
            Some("an npm credentials file"),
        ),
        (
            "{\"auths\": {\"ghcr.io\": {\"auth\": \"Ym90OnM=\"}}}\n",
            Some("a Docker credentials file"),
        ),
        (
            "[pypi]\nusername = __token__\npassword = pypi-abc\n",
            Some("a PyPI credentials file"),
        ),
        ("db.example.com:5432:app:admin:s3cret\n", Some("a pgpass file")),
        ("admin:$apr1$abc$def\n", Some("an htpasswd file")),
        // Not credentials files.
        ("FLASK_APP=hello\nFLASK_DEBUG=1\n", None),
        // flask's tests/static/config.toml: a fixture, not a secret.
        ("TEST_KEY=\"foo\"\nSECRET_KEY=\"config\"\n", None),
        ("API_KEY=\nSECRET_TOKEN=<your token>\n", None),
        ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n", None),
        ("import os\nTOKEN=os.environ['TOKEN']\nprint(TOKEN)\n", None),
        ("x = 1\n", None),
        ("# Notes\n\nmachine learning is fun\n", None),
        // Sources that mention the keys of credentials files are not credentials files.
        (
            "KEYS = [\"_authToken=\", \"_auth=\"]\nif has(\"\\\"auths\\\"\") and has(\"\\\"auth\\\"\"):\n    pass\n",
            None,
        ),
        (
            "import boto3\n[x for x in y]\nkey = cfg['aws_secret_access_key']\n",
            None,
        ),
        (
            "# Deploying\n\n```yaml\napiVersion: v1\nkind: Config\nclusters: []\n```\n",
            None,
        ),
        (
            "{\"type\": \"service_account\", \"private_key\": \"k\"}\n",
            Some("a cloud service account key"),
        ),
    ];
    for (text, kind) in files {
        assert_eq!(credentials_file(text.as_bytes()), kind, "{text}");
    }
}

#[test]
fn credentials_are_found_and_ordinary_text_is_not() {
    let text = [
        format!("aws: {}{}", "AKIA", "IOSFODNN7ABCDEFG"),
        format!("-----{} OPENSSH PRIVATE KEY-----", "BEGIN"),
        format!("token {}", samples::github_token()),
        format!("slack {}-123456789012-abcdefABCDEF", "xoxb"),
        format!("key {}-api03-abcdefghijklmnopqrstuv", "sk-ant"),
        format!("OPENAI {}-abcdefghijklmnopqrstuvwx", "sk-proj"),
        "password = \"Xk9#mQ2$vL7pR4tZ\"".to_string(),
        "password = example-password".to_string(),
        "Use the `api_key_env` setting, never a literal key.".to_string(),
        "The token is refreshed every hour.".to_string(),
    ]
    .join("\n");
    let found = scan(text.as_bytes());
    let lines: Vec<usize> = found.iter().map(|f| f.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(found[1].confidence, Confidence::Likely, "a header alone");
    assert_eq!(found[0].confidence, Confidence::High);
}

#[test]
fn redaction_leaves_nothing_the_scan_flags() {
    let text = [
        format!(
            "def connect(api_key=\"{}-abcdefghijklmnopqrstuvwx\"):",
            "sk-proj"
        ),
        format!("Use the bot token {}-abcdefghijklmnop for tests.", "xoxb"),
        "def login(password=\"Xk9#mQ2$vL7pR4tZ\"):".to_string(),
        format!("token: {}", samples::github_token()),
        samples::private_key(),
        "The token is refreshed every hour.".to_string(),
    ]
    .join("\n");
    assert!(!scan(text.as_bytes()).is_empty());
    let redacted = redact(&text);
    assert!(scan(redacted.as_bytes()).is_empty(), "{redacted}");
    let lines: Vec<&str> = redacted.lines().collect();
    assert_eq!(lines[0], "def connect(api_key=\"…\"):");
    assert_eq!(lines[1], "Use the bot token \"…\" for tests.");
    assert_eq!(lines[2], "def login(password=\"…\"):");
    assert_eq!(lines[3], "token: \"…\"");
    assert_eq!(lines[4], "\"…\"", "the whole key block, END line included");
    assert!(redacted.ends_with("The token is refreshed every hour."));
    let clean = "fn main() {}";
    assert!(matches!(redact(clean), std::borrow::Cow::Borrowed(_)));
    let url = "postgres://admin:S3cr3tPa55w0rd@db:5432/app";
    assert_eq!(redact(url), "postgres://admin:…@db:5432/app");
}

#[test]
fn a_secret_found_once_is_redacted_wherever_it_is_repeated() {
    let text =
        "def login(password=\"hunter2x\"):\n    \"\"\"The default is hunter2x, see above.\"\"\"\n";
    let redacted = redact(text);
    assert_eq!(
        redacted,
        "def login(password=\"…\"):\n    \"\"\"The default is \"…\", see above.\"\"\"\n"
    );
    assert_eq!(scan(text.as_bytes()).len(), 2, "both lines are reported");
}

#[test]
fn whole_keys_and_random_tokens_make_a_file_secret() {
    let key = samples::private_key();
    assert_eq!(secret_material(key.as_bytes()), Some("a private key block"));
    let in_code = format!("const KEY: &str = \"{}\";", key.replace('\n', "\\n"));
    assert_eq!(
        secret_material(in_code.as_bytes()),
        Some("a private key block")
    );
    let token = format!("export GITHUB_TOKEN={}\n", samples::github_token());
    assert_eq!(secret_material(token.as_bytes()), Some("a GitHub token"));
    // What documentation says about keys is not a key.
    for prose in [
        format!(
            "Keys start with `-----{} OPENSSH PRIVATE KEY-----`.\n",
            "BEGIN"
        ),
        format!("aws_access_key_id = {}{}\n", "AKIA", "IOSFODNN7EXAMPLE"),
        "password = \"Xk9#mQ2$vL7pR4tZ\"\n".to_string(),
        format!("class=\"{}-button-primary-large-variant\"\n", "sk"),
        "fn main() {}\n".to_string(),
    ] {
        assert_eq!(secret_material(prose.as_bytes()), None, "{prose}");
    }
}

#[test]
fn passwords_and_placeholders_are_told_apart() {
    for password in [
        "hunter2",
        "P@ssw0rd!",
        "S3cr3tPa55w0rd",
        "Tr0ub4dor&3",
        "x9-k2-p7",
    ] {
        assert!(looks_like_password(password), "{password}");
    }
    for not in [
        "learnboost",
        "changeme",
        "${DB_PASSWORD}",
        "<password>",
        "%(password)s",
        "123456789",
        "os.environ",
        "settings.SECRET_KEY",
        "/run/secrets/db",
        "https://example.com",
        "has space 1",
        "abc1",
        "xxxxxxxx",
        "my-test-key-1",
    ] {
        assert!(!looks_like_password(not), "{not}");
    }
}
