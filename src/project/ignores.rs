//! The ignore layers, in order: `.gitignore` (with `.git/info/exclude`, when `ignore.use_gitignore`),
//! `.lexignore` (gitignore syntax, Lexibrarian-only), `ignore.additional_patterns` from the config, and a
//! fixed secrets denylist ([`SECRETS_DENYLIST`]) that keeps credential files out of design files,
//! indexes and LLM prompts.
//!
//! `.git/` and `.lexibrary/` are never part of the source tree. Ignored directories are pruned, never
//! descended into: a 20,000-file `target/` costs nothing.

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::config::Config;

/// Lexibrarian's own ignore file name, at the project root (and, like `.gitignore`, in any directory).
pub const LEXIGNORE_FILE: &str = ".lexignore";

/// Patterns that are always ignored because such files usually hold secrets (gitignore syntax; a
/// pattern without a `/` matches at any depth). Whatever its name, a file whose *content* holds a
/// private key or a high-confidence credential is secret too (`project::walk::sniff`).
pub const SECRETS_DENYLIST: &[&str] = &[
    // Environment files and generic key material.
    ".env*",
    "*.pem",
    "*.key",
    "*.p8",
    "*.ppk",
    // SSH private keys (every `id_*` key type; the public `.pub` halves are not secret).
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "id_xmss*",
    "!id_*.pub",
    "ssh_host_*_key",
    ".ssh/",
    // Key stores and password databases.
    "*.p12",
    "*.pfx",
    "*.pkcs12",
    "*.jks",
    "*.keystore",
    "*.bks",
    "*.kdbx",
    "secring.*",
    // Cloud and cluster credentials.
    ".aws/",
    ".azure/",
    "**/.config/gcloud/",
    "credentials.json",
    "application_default_credentials.json",
    "*service-account*.json",
    "*service_account*.json",
    "client_secret*.json",
    "kubeconfig",
    "kubeconfig.yaml",
    "kubeconfig.yml",
    "*.kubeconfig",
    "**/.kube/config",
    // Infrastructure state and variables (state files hold every secret the resources have).
    "*.tfvars",
    "*.tfvars.json",
    "*.tfstate*",
    ".terraformrc",
    "terraform.rc",
    ".vault-token",
    // Registry and tool credentials.
    ".git-credentials",
    "**/.docker/config.json",
    ".dockercfg",
    ".npmrc",
    ".pypirc",
    "**/.gem/credentials",
    "**/.cargo/credentials",
    "**/.cargo/credentials.toml",
    ".netrc",
    "_netrc",
    ".pgpass",
    ".htpasswd",
];

/// Top-level directories that are never part of the source tree.
pub const ALWAYS_EXCLUDED_DIRS: &[&str] = &[".git", super::LIBRARY_DIR];

/// The config-driven layers (additional patterns + secrets denylist), as one gitignore matcher rooted
/// at the project root. The file-based layers are read by the walker as it descends.
#[derive(Clone, Debug)]
pub struct ExtraIgnores {
    matcher: Gitignore,
}

impl ExtraIgnores {
    /// Build the matcher. Invalid patterns in the config are returned as warnings and skipped.
    pub fn new(root: &Path, config: &Config) -> (ExtraIgnores, Vec<String>) {
        let mut builder = GitignoreBuilder::new(root);
        let mut warnings = Vec::new();
        for pattern in SECRETS_DENYLIST {
            if let Err(err) = builder.add_line(None, pattern) {
                warnings.push(format!("built-in ignore pattern `{pattern}`: {err}"));
            }
        }
        for pattern in &config.ignore.additional_patterns {
            if let Err(err) = builder.add_line(None, pattern) {
                warnings.push(format!(
                    ".lexibrary/config.yaml: ignore.additional_patterns `{pattern}` is not a valid pattern ({err}); skipped"
                ));
            }
        }
        let matcher = builder.build().unwrap_or_else(|err| {
            warnings.push(format!("ignore patterns could not be compiled: {err}"));
            Gitignore::empty()
        });
        (ExtraIgnores { matcher }, warnings)
    }

    /// Whether the project-relative `rel` (or one of its parent directories) is excluded by the
    /// always-excluded dirs, the config patterns or the denylist.
    /// [`is_ignored`](Self::is_ignored) for an entry met by a walk from the root, whose parent
    /// directories the walk checked as it entered them: the entry alone is matched (checking every
    /// parent again cost ~9,000 instructions an entry, a fifth of a 20,000-file scan's walk).
    pub fn is_ignored_walked(&self, rel: &str, is_dir: bool) -> bool {
        if !rel.contains('/') && ALWAYS_EXCLUDED_DIRS.contains(&rel) {
            return true;
        }
        !rel.is_empty() && self.matcher.matched(rel, is_dir).is_ignore()
    }

    pub fn is_ignored(&self, rel: &str, is_dir: bool) -> bool {
        let top = rel.split('/').next().unwrap_or("");
        if ALWAYS_EXCLUDED_DIRS.contains(&top) {
            return true;
        }
        !rel.is_empty()
            && self
                .matcher
                .matched_path_or_any_parents(rel, is_dir)
                .is_ignore()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_files_are_denied_and_their_public_halves_and_lookalikes_are_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (extra, warnings) = ExtraIgnores::new(dir.path(), &Config::default());
        assert!(warnings.is_empty(), "{warnings:?}");
        for secret in [
            "id_rsa",
            "deploy/id_ed25519",
            "keys/id_ecdsa",
            "id_dsa",
            "id_ed25519_sk",
            "ops/prod.kubeconfig",
            "kubeconfig",
            "home/.kube/config",
            "gcp/my-service-account-key.json",
            "client_secret_123.apps.json",
            "certs/client.p12",
            "certs/client.pfx",
            "android/release.jks",
            "android/release.keystore",
            "infra/terraform.tfstate",
            "infra/terraform.tfstate.backup",
            "infra/prod.tfvars",
            ".git-credentials",
            "ci/.docker/config.json",
            ".ssh/authorized_keys",
            "etc/ssh/ssh_host_ed25519_key",
        ] {
            assert!(extra.is_ignored(secret, false), "{secret} should be denied");
        }
        for fine in [
            "id_ed25519.pub",
            "deploy/id_rsa.pub",
            "src/id_generator.rs",
            "src/kubeconfig.go",
            "docs/service-accounts.md",
            "config.json",
            "etc/ssh/ssh_host_ed25519_key.pub",
        ] {
            assert!(
                !extra.is_ignored(fine, false),
                "{fine} should be documented"
            );
        }
    }
}
