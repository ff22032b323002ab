//! `lexictl trust [--show | --revoke]`: confirm, for this clone, the settings of the project config
//! that choose where sources and keys are sent (`llm.provider`, `llm.base_url`, `llm.api_key_env`),
//! as `direnv allow` or `mise trust` confirm what a checkout brings. See `workspace::trust`.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::project::held::{Held, Sensitive};
use crate::workspace::trust::{Trust, TrustStore};
use crate::workspace::Workspace;

/// Use the project config's LLM provider, URL and key variable on this clone.
///
/// A committed `.lexibrary/config.yaml` cannot alone decide where sources and keys are sent: its
/// `llm.provider` (other than structural), `llm.base_url` and `llm.api_key_env` are ignored — by
/// `lexictl update`, the post-commit hook, `sweep` — until a person confirms them here. `trust`
/// shows the exact values and records a SHA-256 of them for this clone (under the git directory,
/// never committed). When a later commit changes any of them, they are ignored and reported again
/// until you run `lexictl trust` once more. Settings in your personal config
/// (~/.config/lexibrarian/config.yaml) or the LEXI_LLM_* variables need no trust.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl trust --show     # what the project config asks for, and whether it applies here\n  lexictl trust            # confirm those values for this clone\n  lexictl trust --revoke   # take it back"
)]
pub struct Args {
    /// Show the settings and whether this clone trusts them; record nothing.
    #[arg(long, conflicts_with = "revoke")]
    pub show: bool,
    /// Forget every confirmation of this project's settings on this clone: they are ignored again.
    #[arg(long)]
    pub revoke: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

/// What the command did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
enum Action {
    /// Nothing held: nothing to trust.
    Nothing,
    Shown,
    Trusted,
    Revoked,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let held = &ws.project().held;
    let store = TrustStore::locate(ws.project(), ws.repo_if_any()).ok_or_else(|| {
        anyhow::anyhow!(
            "nowhere to record trust: this project is not in a git repository and neither XDG_STATE_HOME nor HOME is set\n  hint: set the LLM settings in your personal config or the LEXI_LLM_* variables instead"
        )
    })?;
    let action = if args.revoke {
        store.revoke()?;
        Action::Revoked
    } else if held.is_empty() {
        Action::Nothing
    } else if args.show {
        Action::Shown
    } else {
        store.confirm(held)?;
        Action::Trusted
    };
    let trust = store.assess(held);
    match ctx.format {
        Format::Json => print_json(&serde_json::json!({
            "action": action,
            "file": held.file,
            "settings": held.settings.iter().map(|setting| serde_json::json!({
                "key": setting.key,
                "value": setting.shown_value(),
                "line": setting.line,
            })).collect::<Vec<_>>(),
            "trusted": trust == Trust::Trusted,
            "changed": match &trust { Trust::Changed { keys } => keys.clone(), _ => Vec::new() },
            "record": store.path,
        }))?,
        Format::Text => print_text(&text(&ws, held, &store, action, &trust))?,
    }
    Ok(Outcome::Ok)
}

fn text(ws: &Workspace, held: &Held, store: &TrustStore, action: Action, trust: &Trust) -> String {
    if held.is_empty() {
        let mut out = format!(
            "{} sets no llm.provider (other than structural), llm.base_url or llm.api_key_env: nothing to trust; this clone uses llm.provider: {}\n",
            held.file,
            ws.llm().provider
        );
        if action == Action::Revoked {
            out.push_str("Forgot this project's earlier confirmations.\n");
        }
        return out;
    }
    let mut out = format!("{} asks for:\n", held.file);
    let width = held
        .settings
        .iter()
        .map(|s| s.key.key().len() + s.shown_value().len())
        .max()
        .unwrap_or(0);
    for setting in &held.settings {
        let shown = format!("{}: {}", setting.key.key(), setting.shown_value());
        out.push_str(&format!(
            "  {shown:<w$}  line {}: {}\n",
            setting.line,
            effect(held, setting.key),
            w = width + 2
        ));
    }
    out.push_str(&match (action, trust) {
        (Action::Trusted, _) => format!(
            "Trusted on this clone (recorded in {}): `lexictl update` and the hook use them. A commit that changes any of them is ignored until you run `lexictl trust` again; `lexictl trust --revoke` takes it back.\n",
            store.path.display()
        ),
        (Action::Revoked, _) => "Revoked: ignored on this clone until you run `lexictl trust`.\n".to_string(),
        (_, Trust::Trusted) => "Trusted on this clone.\n".to_string(),
        (_, Trust::Changed { keys }) => format!(
            "Not trusted: {} changed since this clone confirmed them. Run `lexictl trust` to use these values.\n",
            keys.join(", ")
        ),
        _ => "Not trusted on this clone: ignored. Run `lexictl trust` to use them.\n".to_string(),
    });
    out
}

/// What a setting makes a run do, in a few words.
fn effect(held: &Held, key: Sensitive) -> String {
    match key {
        Sensitive::Provider => {
            "the source of each file to (re)document is sent to this model provider".into()
        }
        Sensitive::BaseUrl => "requests go to this URL".into(),
        Sensitive::ApiKeyEnv => match held.get(key) {
            Some(setting) if crate::project::held::is_variable_name(&setting.value) => {
                format!("the value of ${} is sent with every request", setting.value)
            }
            _ => "the key variable sent with every request".into(),
        },
    }
}
