//! Ruby in the registry: `.rb` files (and `.rake`, `.gemspec`, `config.ru`'s `.ru`), `#` comments
//! with YARD/RDoc comments above a declaration, public methods by Ruby's visibility sections
//! (`private`, `protected`, `private :name`, `private def x`, `private_class_method`,
//! `module_function`), gems (`*.gemspec` and their `require_paths`) as packages, and RSpec's
//! (`*_spec.rb`) and minitest's (`test_*.rb`, `*_test.rb`, rack's `spec_*.rb`) test files.

mod calls;
mod definitions;
pub mod extract;
mod flow;
mod locals;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [ruby]`: Ruby.
pub const RUBY_FAMILY: AstLanguage = AstLanguage {
    name: "ruby",
    display_name: "Ruby",
    feature: "lang-ruby",
};

/// Ruby's registry entry.
pub const RUBY: Spec = Spec {
    language: Language::Ruby,
    name: "ruby",
    display_name: "Ruby",
    fence: "ruby",
    config: RUBY_FAMILY,
    extensions: &["rb", "rake", "gemspec", "ru"],
    #[cfg(feature = "lang-ruby")]
    grammar: Some(|| tree_sitter_ruby::LANGUAGE.into()),
    #[cfg(not(feature = "lang-ruby"))]
    grammar: None,
    comments: Comments {
        line: "#",
        trailing: "  # ",
        doc: &["#", "=begin"],
    },
    declaration_keywords: &["class", "module", "def"],
    modifiers: &["private", "protected", "public", "module_function"],
    visibility: "classes, modules and constants (not `private_constant`), and the methods of a \
                 public section: those before a bare `private`/`protected` (or after `public`), \
                 not named by `private :name`/`protected :name`/`private_class_method :name` nor \
                 defined as `private def x`; `module_function` methods as the module's; \
                 `attr_reader`/`attr_writer`/`attr_accessor` as attributes; a file's top-level \
                 `def`s as its functions",
    files: FileConventions {
        module_stems: &[],
        entry_stems: &[],
        directory_files: &[],
        package_entries: &[],
        package_manifests: &[],
        test_cases: TestCases::UnimportedOrNamed,
        test_functions: TestFunctions::SuitesOrNamed,
    },
    extraction: "source::lang::ruby::extract (classes, modules, methods by visibility, \
                 constants, YARD/RDoc comments, requires, constants referenced)",
    resolver: "source::lang::ruby::resolve over source::lang::ruby::model (gems' load paths and \
               the constants each file defines)",
    later_definition_replaces: true,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
