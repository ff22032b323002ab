//! Ruby's project, as `require` and constant lookup see it: the gems (each `*.gemspec`, its
//! `require_paths`, `lib` unless it names others) whose directories are the load path, and the
//! constants each Ruby file defines (its classes and modules by their full names, its constants
//! assigned: `extract::defined_constants`).
//!
//! A `.rb` file is a manifest of this model: what it defines decides how other files' constants
//! resolve, so a `--changed-only` run that touches one rebuilds the model (a full update), and the
//! model's fingerprint changes only when a definition does.

use std::collections::BTreeMap;

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{dir_of, join, FileIndex, ReadFile};
use crate::source::model::packages::CodePackage;

/// Ruby files read for the model at most; past it, the rest are left out (a warning says so).
const MAX_FILES: usize = 50_000;

/// The project's gems and the constants its files define.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RubyModel {
    /// Each gem's directory (`""` at the root) and its load path directories (`lib`), in path
    /// order. A project without a gemspec whose root has `lib/` is one gem at the root.
    pub gems: Vec<Gem>,
    /// By full constant name (`Rack::Request`), the files defining it, in path order, each with
    /// whether it gives it content ([`crate::source::lang::ruby::extract::Defined`]).
    pub constants: BTreeMap<String, Vec<(String, bool)>>,
}

/// One gem: its directory and its load path.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Gem {
    /// Its gemspec's stem (`rack-protection`); `None` for the root without a gemspec.
    pub name: Option<String>,
    pub dir: String,
    /// Project-relative directories (`rack-protection/lib`).
    pub require_paths: Vec<String>,
}

impl RubyModel {
    /// The gems and constants of the Ruby files among `files`; none when no Ruby file is.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        let mut model = RubyModel::default();
        let ruby: Vec<&str> = files.under("").filter(|p| is_ruby_source(p)).collect();
        if ruby.is_empty() {
            return model;
        }
        for gemspec in files.under("").filter(|p| p.ends_with(".gemspec")) {
            let dir = dir_of(gemspec).to_string();
            let paths = read
                .read(gemspec)
                .map(|text| require_paths(&text))
                .unwrap_or_default();
            let paths = match paths.is_empty() {
                true => vec!["lib".to_string()],
                false => paths,
            };
            let require_paths = paths.iter().map(|p| join(&dir, p)).collect();
            let name = crate::relpath::RelPath::new(gemspec).stem().to_string();
            model.gems.push(Gem {
                name: Some(name),
                dir,
                require_paths,
            });
        }
        if !model.gems.iter().any(|gem| gem.dir.is_empty()) {
            model.gems.push(Gem {
                name: None,
                dir: String::new(),
                require_paths: vec!["lib".to_string()],
            });
        }
        model.gems.sort_by(|a, b| a.dir.cmp(&b.dir));
        model.gems.dedup_by(|a, b| a.dir == b.dir);
        if ruby.len() > MAX_FILES {
            warnings.push(format!(
                "{} Ruby files: the first {MAX_FILES} are read for constant resolution",
                ruby.len()
            ));
        }
        let mut parser = super::RUBY.grammar.and_then(|grammar| {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&grammar()).ok().map(|_| parser)
        });
        for path in ruby.into_iter().take(MAX_FILES) {
            let Some(text) = read.read(path) else {
                continue;
            };
            let Some(tree) = parser.as_mut().and_then(|p| p.parse(&text, None)) else {
                continue;
            };
            for defined in super::extract::defined_constants(tree.root_node(), &text) {
                let files = model.constants.entry(defined.name).or_default();
                if let Some(known) = files.iter_mut().find(|(p, _)| p == path) {
                    known.1 |= defined.substantive;
                } else {
                    files.push((path.to_string(), defined.substantive));
                }
            }
        }
        for files in model.constants.values_mut() {
            files.sort();
        }
        model
    }

    /// The gem `file` belongs to: the deepest whose directory holds it.
    pub fn gem_of(&self, file: &str) -> Option<&Gem> {
        self.gems
            .iter()
            .filter(|gem| gem.dir.is_empty() || file.starts_with(&format!("{}/", gem.dir)))
            .max_by_key(|gem| gem.dir.len())
    }

    /// The load path `file` sees, in order: its own gem's `require_paths`, then its gem's `test`
    /// and `spec` directories (RSpec and the test helpers put them there), then the other gems'
    /// `require_paths` (a monorepo's Gemfile loads its gems by path).
    pub fn load_path(&self, file: &str) -> Vec<String> {
        let own = self.gem_of(file);
        let mut out: Vec<String> = Vec::new();
        if let Some(gem) = own {
            out.extend(gem.require_paths.iter().cloned());
            out.push(join(&gem.dir, "test"));
            out.push(join(&gem.dir, "spec"));
        }
        for gem in &self.gems {
            if Some(gem) != own {
                out.extend(gem.require_paths.iter().cloned());
            }
        }
        out
    }

    /// The files defining the constant `name`, with whether each gives it content.
    pub fn defining(&self, name: &str) -> &[(String, bool)] {
        self.constants.get(name).map_or(&[], Vec::as_slice)
    }
}

/// The directories a gemspec's `require_paths = ["lib", "ext"]` (or `%w[lib]`) lists.
pub fn require_paths(gemspec: &str) -> Vec<String> {
    let Some(at) = gemspec.find("require_paths") else {
        return Vec::new();
    };
    let rest = &gemspec[at + "require_paths".len()..];
    let Some(rest) = rest.trim_start().strip_prefix('=') else {
        return Vec::new();
    };
    let line = rest.lines().next().unwrap_or("").trim();
    let inner = line
        .strip_prefix("%w[")
        .or_else(|| line.strip_prefix("%w("))
        .map(|l| {
            l.trim_end_matches([']', ')'])
                .split_whitespace()
                .collect::<Vec<_>>()
        })
        .unwrap_or_else(|| {
            line.trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .split(',')
                .map(|p| p.trim().trim_matches(['"', '\'']))
                .collect()
        });
    inner
        .into_iter()
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || "_-/.".contains(c)))
        .map(str::to_string)
        .collect()
}

/// Whether `path` is a Ruby source file the model reads.
pub fn is_ruby_source(path: &str) -> bool {
    path.ends_with(".rb")
}

impl EcosystemModel for RubyModel {
    const ECOSYSTEM: &'static str = "ruby";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        RubyModel::build(files, read, warnings)
    }

    /// A Ruby file (what it defines decides what other files' constants name) or a gemspec (its
    /// load path).
    fn is_manifest(name: &str) -> bool {
        is_ruby_source(name) || name.ends_with(".gemspec")
    }

    fn is_empty(&self) -> bool {
        self.gems.is_empty() && self.constants.is_empty()
    }

    /// The gems' directories: a gem nested in another project's package is its own.
    fn package_dirs(&self) -> Vec<String> {
        self.gems
            .iter()
            .filter(|gem| gem.name.is_some())
            .map(|gem| gem.dir.clone())
            .collect()
    }

    /// Each gem with a gemspec: its `require_paths` and its `test/` and `spec/` directories that
    /// hold files.
    fn code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
        self.gems
            .iter()
            .filter(|gem| gem.name.is_some())
            .map(|gem| {
                let roots = gem
                    .require_paths
                    .iter()
                    .cloned()
                    .chain(["test", "spec"].map(|dir| join(&gem.dir, dir)))
                    .filter(|dir| files.under(dir).next().is_some())
                    .collect();
                CodePackage::new(Self::ECOSYSTEM, gem.name.as_deref(), &gem.dir, roots)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gems_load_paths_and_the_constants_defined() {
        let (model, _, warnings) = crate::source::model::build_from(
            &[
                (
                    "sinatra.gemspec",
                    "Gem::Specification.new do |s|\n  s.name = 'sinatra'\nend\n",
                ),
                (
                    "rack-protection/rack-protection.gemspec",
                    "Gem::Specification.new do |s|\n  s.require_paths = %w[lib ext]\nend\n",
                ),
                (
                    "lib/sinatra/base.rb",
                    "module Sinatra\n  class Base\n    def x; end\n  end\nend\n",
                ),
                (
                    "rack-protection/lib/rack/protection.rb",
                    "module Rack\n  module Protection\n    VERSION = '1'\n  end\nend\n",
                ),
                ("README.md", "no"),
            ],
            RubyModel::build,
        );
        assert!(warnings.is_empty());
        assert_eq!(
            model.load_path("rack-protection/spec/a_spec.rb"),
            [
                "rack-protection/lib",
                "rack-protection/ext",
                "rack-protection/test",
                "rack-protection/spec",
                "lib"
            ]
        );
        assert_eq!(
            model.defining("Sinatra::Base"),
            [("lib/sinatra/base.rb".to_string(), true)]
        );
        // `module Rack` holds only `module Protection`: a namespace opened.
        assert_eq!(
            model.defining("Rack"),
            [("rack-protection/lib/rack/protection.rb".to_string(), false)]
        );
        assert_eq!(model.defining("Rack::Protection::VERSION").len(), 1);
        assert!(RubyModel::is_manifest("a.rb") && RubyModel::is_manifest("x.gemspec"));
        assert_eq!(
            require_paths("s.require_paths = [\"lib\", 'ext']\n"),
            ["lib", "ext"]
        );
    }
}
