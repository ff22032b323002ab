//! Ruby (`fixtures/projects/ruby-gems`: two gems, one nested in `plugins/`): design files with the
//! public interface and YARD/RDoc comments (not `private`/`protected` methods), dependencies
//! through `require_relative`, `autoload`, a `require` on the other gem's load path and the
//! constants referenced (resolved through the lexical nesting; a class reopened in another file is
//! its Zeitwerk file's), minitest and RSpec tests mapped to what they exercise, callers and raises,
//! RuboCop's, Rake's and the gemspec's conventions, and a library that validates and stays as it
//! is on a second update.

use crate::support::{section_paths as section, updated_fixture, TestProject};

const CIRCLE: &str = "lib/shapes/circle.rb";
const GEOMETRY: &str = "lib/shapes/geometry.rb";
const CIRCLE_TEST: &str = "test/circle_test.rb";
const GEOMETRY_SPEC: &str = "spec/geometry_spec.rb";
const SVG: &str = "plugins/shapes-svg/lib/shapes/svg.rb";

fn updated() -> TestProject {
    updated_fixture("ruby-gems")
}

/// A design file's Interface Contract block.
fn contract(design: &str) -> String {
    design
        .split("## Interface Contract\n\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n## ").next())
        .unwrap_or("")
        .to_string()
}

#[test]
fn a_ruby_design_file_has_the_public_interface_with_its_comments() {
    let p = updated();
    let design = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert!(
        design.starts_with("---\ndescription: '`Circle`: A circle of a given radius.'"),
        "{design}"
    );
    insta::assert_snapshot!("ruby_circle_contract", contract(&design));
    // `private def`, `private :name` and the `protected` section are not the interface.
    p.lexi(["lookup", CIRCLE, "--full"])
        .success()
        .stdout_lacks("secret")
        .stdout_lacks("hidden_by_name")
        .stdout_lacks("compare_with");
    // `module_function` makes the module's own method; the file's doc describes the gem's entry.
    p.lexi(["lookup", GEOMETRY, "--full"])
        .success()
        .stdout_has("def self.square(x)")
        .stdout_has("PI");
    let entry = p.read(".lexibrary/lib/shapes.rb.md");
    assert!(
        entry.starts_with(
            "---\ndescription: 'Shapes: circles and squares with their areas, drawn as SVG by the plugin.'"
        ),
        "{entry}"
    );
}

#[test]
fn ruby_dependencies_follow_requires_autoloads_and_constants() {
    let p = updated();
    let entry = p.read(".lexibrary/lib/shapes.rb.md");
    // `require_relative` and the two `autoload`s.
    assert_eq!(
        section(&entry, "Dependencies"),
        [CIRCLE, GEOMETRY, "lib/shapes/version.rb"]
    );
    // `Geometry` inside `module Shapes` is `Shapes::Geometry`; `Shape` is required and named.
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(
        section(&circle, "Dependencies"),
        [GEOMETRY, "lib/shapes/shape.rb"]
    );
    // `require 'shapes/circle'` from the other gem goes through the load path; `nokogiri` is a gem.
    let svg = p.read(&format!(".lexibrary/{SVG}.md"));
    assert_eq!(section(&svg, "Dependencies"), [CIRCLE]);
    assert_eq!(section(&svg, "External Dependencies"), ["nokogiri"]);
    // A file reopening `Shapes::Circle` defines it itself: no edge to `circle.rb`, but its
    // namespace `Shapes` (whose Zeitwerk file is `lib/shapes.rb`) and `Shapes::Geometry`.
    let ext = p.read(".lexibrary/lib/shapes/ext/circle_ext.rb.md");
    assert_eq!(section(&ext, "Dependencies"), ["lib/shapes.rb", GEOMETRY]);
}

#[test]
fn ruby_tests_and_specs_are_mapped_to_what_they_exercise() {
    let p = updated();
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(section(&circle, "Tests"), [CIRCLE_TEST]);
    let geometry = p.read(&format!(".lexibrary/{GEOMETRY}.md"));
    assert_eq!(section(&geometry, "Tests"), [GEOMETRY_SPEC]);
    let test = p.read(&format!(".lexibrary/{CIRCLE_TEST}.md"));
    assert!(
        test.starts_with("---\ndescription: Tests `CircleTest` (2 cases).\n"),
        "{test}"
    );
    let spec = p.read(&format!(".lexibrary/{GEOMETRY_SPEC}.md"));
    assert!(
        spec.starts_with("---\ndescription: Tests `Shapes::Geometry` (2 cases).\n"),
        "{spec}"
    );
    // The helpers are no tests.
    let entry = p.read(".lexibrary/lib/shapes.rb.md");
    assert!(
        !section(&entry, "Tests")
            .iter()
            .any(|t| t.contains("helper")),
        "{entry}"
    );
    // `Class#method` and the full constant path name the member too.
    p.lexi(["lookup", CIRCLE, "--member", "Shapes::Circle#area"])
        .success()
        .stdout_has("Called from: test/circle_test.rb (CircleTest.test_area)");
    p.lexi(["lookup", GEOMETRY, "--member", "square"])
        .success()
        .stdout_has("spec/geometry_spec.rb: squares_a_length");
}

#[test]
fn ruby_raises_and_conventions() {
    let p = updated();
    p.lexi(["lookup", CIRCLE, "--member", "initialize"])
        .success()
        .stdout_has("Raises: ArgumentError (\"A radius must be positive: …\")");
    p.lexi(["lookup", SVG, "--member", "render"])
        .success()
        .stdout_has("Raises: TypeError (\"not a circle\")");
    p.lexi(["conventions"])
        .success()
        .stdout_has("RuboCop checks the Ruby style (`.rubocop.yml`: target Ruby 3.1, with `rubocop-minitest`; `bundle exec rubocop`).")
        .stdout_has("`bundle exec rspec` runs the RSpec specs (`spec/**/*_spec.rb`).")
        .stdout_has("`bundle exec rake test` runs the minitest tests (`test/`).")
        .stdout_has("Rake tasks: `rake test`, `rake default`, `rake lint`.")
        .stdout_has("Ruby >= 3.1 (`required_ruby_version`).");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("- ruby\n"), "{config}");
    assert!(config.contains("- plugins/shapes-svg/lib/\n"), "{config}");
}

#[test]
fn a_ruby_library_validates_and_a_second_update_changes_nothing() {
    let p = updated();
    p.commit_all("library");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["validate"]).success();
    // Cold: without the cache, the same bytes.
    let state = p
        .git(["rev-parse", "--git-path", "lexibrarian"])
        .success()
        .stdout;
    std::fs::remove_dir_all(p.path(state.trim())).expect("the cache exists");
    p.lexictl(["update"]).success();
    let status = p.git(["status", "--porcelain"]).success().stdout;
    assert_eq!(status, "", "a second update changed the library");
    // A new file defining a constant another file already names: a changed-only run resolves
    // the name to it at once.
    p.write(
        "lib/shapes/shape.rb",
        "# frozen_string_literal: true\n\nmodule Shapes\n  # What every shape answers.\n  class Shape\n    # A sentence naming the shape and its area.\n    def describe\n      \"#{self.class.name} of area #{Units.format(area)}\"\n    end\n  end\nend\n",
    );
    p.write(
        "lib/shapes/units.rb",
        "# frozen_string_literal: true\n\nmodule Shapes\n  # Units of area.\n  module Units\n    # The area with its unit.\n    def self.format(area) = \"#{area} m2\"\n  end\nend\n",
    );
    p.commit_all("units");
    p.lexictl(["update", "--changed-only"]).success();
    let shape = p.read(".lexibrary/lib/shapes/shape.rb.md");
    assert_eq!(section(&shape, "Dependencies"), ["lib/shapes/units.rb"]);
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
}
