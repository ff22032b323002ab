//! The Archivist: who writes design files when an agent did not.
//!
//! An [`Archivist`] gets everything known about one source file (its text, public interface,
//! resolved dependencies, dependents and tests) and returns the description and the sections it owns.
//! The update engine merges that into the existing design file, keeping every section the Archivist
//! does not own, and never touches a file an agent or human edited (DESIGN §5, seed D-019).
//!
//! [`structural::StructuralArchivist`] is the default: offline, deterministic, free.
//! [`llm::LlmArchivist`] asks a model (Anthropic, OpenAI or an OpenAI-compatible server) for the prose
//! and keeps the structural facts. Either way the output says who wrote it ([`Generation`]), which the
//! update report carries as provenance.

pub mod abridge;
mod content;
pub mod describe;
pub mod documented;
pub mod generic;
pub mod llm;
pub mod structural;
mod tested;

use crate::library::markdown::Section;
use crate::relpath::RelPath;
use crate::source::{Interface, Language};

/// Which sections the Archivist owns. Anything else in a design file belongs to agents and humans.
pub const OWNED_SECTIONS: &[&str] = &[
    crate::library::design_file::sections::INTERFACE_CONTRACT,
    crate::library::design_file::sections::DEPENDENCIES,
    crate::library::design_file::sections::EXTERNAL_DEPENDENCIES,
    crate::library::design_file::sections::DEPENDENTS,
    crate::library::design_file::sections::TESTS,
    crate::library::design_file::sections::COMPLEXITY_WARNING,
    crate::library::design_file::sections::TAGS,
];

/// Everything the Archivist may use to describe one file.
pub struct ArchivistInput<'a> {
    /// Project-relative source path.
    pub source: &'a str,
    /// The source text (lossily decoded if it was not UTF-8).
    pub text: &'a str,
    /// The parsed language, for code files.
    pub language: Option<Language>,
    /// The public interface, for code files that parsed.
    pub interface: Option<&'a Interface>,
    /// Project files this one imports, sorted.
    pub dependencies: &'a [String],
    /// Those of `dependencies` imported only for the type checker (Python `if TYPE_CHECKING:`):
    /// listed with [`structural::TYPE_ONLY_MARK`].
    pub type_only: &'a [String],
    /// Project files that import this one, sorted.
    pub dependents: &'a [String],
    /// The tests that reach this file, sorted: those among its importers, and those that import
    /// it through test helpers (`engine::update::dependents`).
    pub tests: &'a [String],
    /// The external packages it imports, by name, sorted (`Resolution::externals`).
    pub externals: &'a [String],
    /// The existing design file's text above its footer, when there is one (the LLM carries forward
    /// what people wrote in it).
    pub existing: Option<&'a str>,
    /// CONTENT_ONLY: the code changed but its public interface did not, and the Interface Contract is
    /// kept as it is.
    pub content_only: bool,
    /// Mapping strategy `abridged` (generated files by default): the interface only, within
    /// `design_file_abridged_tokens`.
    pub abridged: bool,
    /// The design file's token budget (`token_budgets.design_file_tokens`, or the abridged one);
    /// the structural Archivist abridges its lists to stay within it. 0 = no budget.
    pub budget_tokens: usize,
}

impl<'a> ArchivistInput<'a> {
    /// A file on its own: no graph around it, no design file yet, no budget (what a description is
    /// made from when only the file is known). Struct update syntax adds the rest.
    pub fn of_file(
        source: &'a str,
        text: &'a str,
        language: Option<Language>,
        interface: Option<&'a Interface>,
    ) -> ArchivistInput<'a> {
        ArchivistInput {
            source,
            text,
            language,
            interface,
            dependencies: &[],
            type_only: &[],
            dependents: &[],
            tests: &[],
            externals: &[],
            existing: None,
            content_only: false,
            abridged: false,
            budget_tokens: 0,
        }
    }
}

/// Who wrote a design file and at what cost: the provenance of one generation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Generation {
    /// `structural`, `anthropic`, `openai` or `openai-compatible`.
    pub generator: String,
    /// The model asked (LLM generators only).
    pub model: Option<String>,
    /// Name and version of the prompt template, e.g. `design-file/1` (LLM generators only).
    pub prompt_version: Option<String>,
    /// SHA-256 (hex) of the prompt template text (LLM generators only).
    pub prompt_hash: Option<String>,
    /// Input tokens the provider counted (LLM generators only).
    pub tokens_in: Option<u64>,
    /// Output tokens the provider counted (LLM generators only).
    pub tokens_out: Option<u64>,
    /// Wall time of the generation, retries included.
    pub duration_ms: u64,
}

impl Generation {
    /// A generation by an Archivist that asks no model.
    pub fn offline(generator: &str, duration_ms: u64) -> Generation {
        Generation {
            generator: generator.to_string(),
            model: None,
            prompt_version: None,
            prompt_hash: None,
            tokens_in: None,
            tokens_out: None,
            duration_ms,
        }
    }
}

/// A model's answer longer than the design file budget: the source file may do too much (seed §5).
/// What is taken from the answer is cut to the budget, each cut field ending with a marker that
/// says so (`archivist::llm::cap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OverBudget {
    /// Tokens in the model's answer (cl100k).
    pub tokens: usize,
    /// `token_budgets.design_file_tokens`.
    pub budget: usize,
}

/// What the Archivist wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivistOutput {
    /// The one-sentence frontmatter description.
    pub description: String,
    /// Owned sections in the order they should appear. An owned section absent from this list is
    /// removed from the design file (e.g. a Complexity Warning that no longer applies).
    pub sections: Vec<Section>,
    /// Who wrote it.
    pub generation: Generation,
    /// Set when a model's answer exceeded the design file budget.
    pub over_budget: Option<OverBudget>,
}

impl ArchivistOutput {
    /// The output with every credential-shaped span replaced by `"…"` ([`crate::secrets::redact`],
    /// the scanner `validate` uses): literal values in signatures (default arguments, constants) and
    /// doc sentences are copied from sources, and the library must never hold what `validate` flags.
    pub fn redacted(self) -> ArchivistOutput {
        self.redacted_with(&[])
    }

    /// [`ArchivistOutput::redacted`], with the `known` secret values of the source
    /// ([`crate::secrets::secret_values`]) redacted wherever the output repeats them (a doc comment
    /// that quotes the password a constant below holds).
    pub fn redacted_with(mut self, known: &[String]) -> ArchivistOutput {
        let clean = |text: &mut String| {
            if let std::borrow::Cow::Owned(redacted) = crate::secrets::redact_with(text, known) {
                *text = redacted;
            }
        };
        clean(&mut self.description);
        for section in &mut self.sections {
            clean(&mut section.body);
        }
        self
    }
}

/// Who imports a file and which tests reach it: what its Dependents and Tests lists show.
#[derive(Clone, Copy, Debug, Default)]
pub struct Importers<'a> {
    /// The files that import it, sorted.
    pub dependents: &'a [String],
    /// The tests that reach it directly or through test helpers, sorted.
    pub tests: &'a [String],
}

/// A writer of design files.
pub trait Archivist: Sync {
    /// The generator name recorded in provenance, e.g. `structural`.
    fn name(&self) -> &str;
    /// Describe one file.
    fn describe(&self, input: &ArchivistInput<'_>) -> anyhow::Result<ArchivistOutput>;
    /// Whether a CONTENT_ONLY change keeps the Interface Contract as it is written. A model's
    /// contract carries its notes, worth keeping while the interface holds; the structural
    /// Archivist's is a function of the code (its doc sentences included), written anew like the
    /// rest, so that its design files are what a full run writes (DESIGN §10).
    fn keeps_contract_on_content_only(&self) -> bool {
        false
    }
}

pub use crate::source::lang::files::{is_listed_test, is_test_case, is_test_path};

/// Whether a project-relative path is under an examples, benches or docs directory: code that shows
/// or measures the project rather than being it.
pub fn is_sample_path(path: &str) -> bool {
    let dirs = RelPath::new(path).dir();
    dirs.split('/').any(|dir| {
        matches!(
            dir.to_ascii_lowercase().as_str(),
            "examples" | "example" | "benches" | "bench" | "docs"
        )
    })
}
