//! Ruby: what a file depends on — the files it loads and the files defining the constants it
//! references (`source::lang::ruby::model`).
//!
//! - `require_relative 'b'` (`./b`): the file beside it, `b.rb`;
//! - `require 'a/b'`, `autoload :B, 'a/b'`, `load`: the first `a/b.rb` on the file's load path
//!   (`RubyModel::load_path`: its gem's `require_paths`, its gem's `test` and `spec`, the other
//!   gems' `require_paths`); none is an external gem or the standard library;
//! - a constant referenced (`Utils`, `Rack::Utils`, `::Foo`): looked up as Ruby does through the
//!   lexical nesting where it is written — its first segment in each enclosing class or module,
//!   innermost first, then at the top level — and the constant found depends on the files defining
//!   it. A constant reopened in several files is defined by each: the edge goes to the file its
//!   name maps to by Zeitwerk's convention (`Rack::Utils` → `…/rack/utils.rb`, underscores and case
//!   ignored: `URLMap` → `urlmap.rb`), else to the files that give it content (not only open it as
//!   a namespace of nested classes) — chosen among the referencing file's own gem's definers
//!   first (another gem's reopening is loaded only when something requires it, an edge of its
//!   own), then among all. A constant every file only opens as a namespace is defined elsewhere
//!   (an external gem's `module Rack` that rack-protection reopens): no edge. A file that defines the constant
//!   itself gets no edge for it. Ancestors (a constant of a superclass or an included module) are
//!   not searched, nor is the nesting of a constant defined through metaprogramming
//!   (`const_set`, `Class.new` blocks).

use crate::source::interface::Interface;
use crate::source::lang::ruby::extract::{decode_reference, CONSTANTS_SPEC};
use crate::source::lang::ruby::model::RubyModel;
use crate::source::model::files::{dir_of, join, normalize};
use crate::source::resolve::{Collected, Context};

/// Record the dependencies of `file` from its requires and the constants it references.
pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let model = &context.model.ruby;
    let exists = |path: &str| (context.exists)(path);
    for import in &interface.imports {
        let spec = import.spec.as_str();
        if spec == CONSTANTS_SPEC {
            for reference in &import.names {
                let (nesting, path) = decode_reference(reference);
                for found in constant_files(model, file, &nesting, path) {
                    out.record(spec, Some(found));
                }
            }
            continue;
        }
        out.record(spec, loaded_file(model, file, spec, &exists));
    }
}

/// The project file a `require`-like spec loads, if any.
pub fn loaded_file(
    model: &RubyModel,
    file: &str,
    spec: &str,
    exists: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let with_ext = |path: String| match path.ends_with(".rb") {
        true => path,
        false => format!("{path}.rb"),
    };
    if spec.starts_with("./") || spec.starts_with("../") {
        let path = with_ext(normalize(dir_of(file), spec)?);
        return (exists(&path) && path != file).then_some(path);
    }
    model
        .load_path(file)
        .iter()
        .map(|root| with_ext(join(root, spec)))
        .find(|path| exists(path))
        .filter(|path| path != file)
}

/// The full name a reference names (`Rack::Utils` for `Utils` inside `module Rack`), when the
/// project defines it.
pub fn constant_name(model: &RubyModel, nesting: &[&str], path: &str) -> Option<String> {
    if let Some(top) = path.strip_prefix("::") {
        return (!model.defining(top).is_empty()).then(|| top.to_string());
    }
    let first = path.split("::").next().unwrap_or(path);
    let full = nesting
        .iter()
        .find(|outer| !model.defining(&format!("{outer}::{first}")).is_empty())
        .map_or_else(|| path.to_string(), |outer| format!("{outer}::{path}"));
    (!model.defining(&full).is_empty()).then_some(full)
}

/// The files `file` depends on for the reference `path` written in `nesting`.
pub fn constant_files(model: &RubyModel, file: &str, nesting: &[&str], path: &str) -> Vec<String> {
    let Some(name) = constant_name(model, nesting, path) else {
        return Vec::new();
    };
    let all = model.defining(&name);
    if all.iter().any(|(path, _)| path == file) {
        return Vec::new();
    }
    let gem = model.gem_of(file).map(|gem| gem.dir.as_str());
    let own_gem: Vec<&(String, bool)> = all
        .iter()
        .filter(|(path, _)| model.gem_of(path).map(|g| g.dir.as_str()) == gem)
        .collect();
    let chosen = chosen_definers(&name, &own_gem);
    match chosen.is_empty() {
        false => chosen,
        true => chosen_definers(&name, &all.iter().collect::<Vec<_>>()),
    }
}

/// Of the files defining `name`, the one its name maps to by Zeitwerk's convention, else those
/// giving it content; none when they only open it as a namespace (rack-protection's `module
/// Rack`, the rack gem's): it is defined elsewhere.
fn chosen_definers(name: &str, defining: &[&(String, bool)]) -> Vec<String> {
    let named: Vec<String> = defining
        .iter()
        .filter(|(path, _)| zeitwerk_match(path, name))
        .map(|(path, _)| path.clone())
        .collect();
    if !named.is_empty() {
        return named;
    }
    defining
        .iter()
        .filter(|(_, substantive)| *substantive)
        .map(|(path, _)| path.clone())
        .collect()
}

/// Whether `path` is the file Zeitwerk maps the constant `name` to: its last directories and stem
/// are the constant's segments, compared without underscores and case (`rack/urlmap.rb` for
/// `Rack::URLMap`, `sinatra/show_exceptions.rb` for `Sinatra::ShowExceptions`).
pub fn zeitwerk_match(path: &str, name: &str) -> bool {
    let normal = |s: &str| s.replace('_', "").to_ascii_lowercase();
    let Some(stem) = path.strip_suffix(".rb") else {
        return false;
    };
    let files: Vec<String> = stem.split('/').map(normal).collect();
    let constants: Vec<String> = name.split("::").map(normal).collect();
    files.len() >= constants.len() && files[files.len() - constants.len()..] == constants[..]
}

/// Libraries of Ruby's standard library and default gems a `require` names (never reported as
/// external packages).
const STANDARD: &[&str] = &[
    "abbrev",
    "base64",
    "benchmark",
    "bigdecimal",
    "cgi",
    "coverage",
    "csv",
    "date",
    "delegate",
    "digest",
    "English",
    "erb",
    "etc",
    "fcntl",
    "fiber",
    "fileutils",
    "find",
    "forwardable",
    "io",
    "ipaddr",
    "json",
    "logger",
    "monitor",
    "net",
    "objspace",
    "observer",
    "open-uri",
    "open3",
    "openssl",
    "optparse",
    "ostruct",
    "pathname",
    "pp",
    "prettyprint",
    "pstore",
    "psych",
    "rbconfig",
    "resolv",
    "ripper",
    "securerandom",
    "set",
    "shellwords",
    "singleton",
    "socket",
    "stringio",
    "strscan",
    "tempfile",
    "thread",
    "time",
    "timeout",
    "tmpdir",
    "tsort",
    "un",
    "uri",
    "weakref",
    "webrick",
    "yaml",
    "zlib",
    "rubygems",
    "bundler",
    "mkmf",
    "racc",
];

/// The gem an unresolved `require` names (`rack` of `rack/utils`); `None` for the standard
/// library, relative paths and the constants entry.
pub(crate) fn external_package(spec: &str) -> Option<String> {
    if spec == CONSTANTS_SPEC || spec.starts_with('.') || spec.starts_with('/') {
        return None;
    }
    let top = spec.split('/').next().unwrap_or(spec);
    let plain = !top.is_empty()
        && top
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    (plain && !STANDARD.contains(&top)).then(|| top.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::resolve::testing::Files;

    fn project() -> Files {
        Files::new(&[
            ("rack.gemspec", "Gem::Specification.new do |s|\nend\n"),
            (
                "lib/rack.rb",
                "# Rack.\nrequire_relative 'rack/version'\nmodule Rack\n  autoload :Utils, 'rack/utils'\nend\n",
            ),
            ("lib/rack/version.rb", "module Rack\n  RELEASE = '3'\nend\n"),
            (
                "lib/rack/utils.rb",
                "require 'set'\nrequire 'uri'\nmodule Rack\n  module Utils\n    def self.escape(s) = s\n  end\nend\n",
            ),
            (
                "lib/rack/urlmap.rb",
                "module Rack\n  class URLMap\n    def call(env)\n      Utils.escape(env)\n      Rack::RELEASE\n      Request\n    end\n  end\nend\n",
            ),
            (
                "lib/rack/request.rb",
                "module Rack\n  class Request\n    def get; end\n  end\nend\n",
            ),
            (
                "lib/rack/helpers.rb",
                "module Rack\n  class Request\n    def helper; end\n  end\nend\n",
            ),
            (
                "test/spec_urlmap.rb",
                "require_relative 'helper'\nrequire 'rack/urlmap'\nrequire 'minitest/autorun'\n\ndescribe Rack::URLMap do\n  it 'maps' do\n    Rack::Request\n  end\nend\n",
            ),
            ("test/helper.rb", "module Helper; end\n"),
            ("lib/a/x.rb", "module Ns\n  class X; end\nend\n"),
            ("lib/a/y.rb", "module Ns\n  class Y; end\nend\n"),
            ("lib/a/use.rb", "Ns.constants\nNs::X\n"),
        ])
    }

    #[test]
    fn requires_resolve_beside_the_file_and_on_the_load_path() {
        let files = project();
        assert_eq!(
            files.deps("lib/rack.rb"),
            ["lib/rack/utils.rb", "lib/rack/version.rb"]
        );
        let resolution = files.resolve("test/spec_urlmap.rb");
        assert_eq!(
            resolution.deps,
            [
                "lib/rack/request.rb",
                "lib/rack/urlmap.rb",
                "test/helper.rb"
            ]
        );
        assert_eq!(resolution.unresolved, ["minitest/autorun"]);
        assert_eq!(resolution.externals, ["minitest"]);
        assert!(files.resolve("lib/rack/utils.rb").externals.is_empty());
    }

    #[test]
    fn constants_resolve_through_the_nesting_to_their_zeitwerk_file() {
        let files = project();
        // `Utils` in `Rack::URLMap` is `Rack::Utils`; `Rack::RELEASE` is defined in one file;
        // `Rack::Request`, reopened in `helpers.rb`, is `request.rb`'s by its name.
        assert_eq!(
            files.deps("lib/rack/urlmap.rb"),
            [
                "lib/rack/request.rb",
                "lib/rack/utils.rb",
                "lib/rack/version.rb"
            ]
        );
        assert!(zeitwerk_match("lib/rack/urlmap.rb", "Rack::URLMap"));
        assert!(zeitwerk_match(
            "a/lib/sinatra/show_exceptions.rb",
            "Sinatra::ShowExceptions"
        ));
        assert!(!zeitwerk_match("lib/rack/helpers.rb", "Rack::Request"));
        // `Ns` is only opened as a namespace (as rack-protection opens the rack gem's `Rack`):
        // defined elsewhere, no edge; `Ns::X` is `x.rb`'s.
        assert_eq!(files.deps("lib/a/use.rb"), ["lib/a/x.rb"]);
    }

    #[test]
    fn external_gems_are_named_by_their_first_segment() {
        assert_eq!(external_package("rack/utils").as_deref(), Some("rack"));
        assert_eq!(external_package("set"), None);
        assert_eq!(external_package("./helper"), None);
        assert_eq!(external_package(CONSTANTS_SPEC), None);
    }
}
