//! The project config's held settings (`llm.provider`, `llm.base_url`, `llm.api_key_env`: see
//! `project::held`) that this clone ignores: `untrusted-config` (info) when it never confirmed them
//! — a fresh clone, a CI runner; nothing is wrong, a person may want them — and
//! `trusted-config-changed` (warning) when a commit changed values it had confirmed: someone
//! changed where sources and keys would be sent.

use super::{Issue, Severity};
use crate::workspace::Workspace;

/// The finding, if the held settings are ignored here.
pub(super) fn check(ws: &Workspace) -> Vec<Issue> {
    let Some(notice) = ws.trust_notice() else {
        return Vec::new();
    };
    let (check, severity) = if notice.changed {
        ("trusted-config-changed", Severity::Warning)
    } else {
        ("untrusted-config", Severity::Info)
    };
    vec![Issue {
        check,
        severity,
        file: notice.file,
        line: Some(notice.line),
        message: notice.message,
        hint: notice.hint,
    }]
}
