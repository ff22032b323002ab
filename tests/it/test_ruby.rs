//! Ruby (`fixtures/projects/ruby-gems`: two gems, one nested in `plugins/`): design files with the
//! public interface and YARD/RDoc comments (not `private`/`protected` methods), dependencies
//! through `require_relative`, `autoload`, a `require` on the other gem's load path and the
//! constants referenced (resolved through the lexical nesting; a class reopened in another file is
//! its Zeitwerk file's), minitest and RSpec tests mapped to what they exercise, callers and raises,
//! RuboCop's, Rake's and the gemspec's conventions, and a library that validates and stays as it
//! is on a second update.

use crate::support::{
    assert_committed_library_is_a_fixed_point, project, section_paths as section, updated_fixture,
    TestProject,
};

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
        .stdout_has("Called from: 1 test function in 1 test file (see Tests)")
        .stdout_has("- test/circle_test.rb: CircleTest.test_area");
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
    assert_committed_library_is_a_fixed_point(&p);
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

/// A class whose methods call each other by bare words (`route_missing`, `empty?`) beside locals
/// of the same shape, and a minitest test calling `empty?`/`clear!` on a stack.
fn stack_project() -> TestProject {
    let p = project()
        .file(
            "lib/box/stack.rb",
            "# frozen_string_literal: true\n\nmodule Box\n  # A stack of items.\n  class Stack\n    # Whether it holds nothing.\n    def empty?\n      items.empty?\n    end\n\n    # Drops every item.\n    def clear!\n      reset\n      @items = []\n    end\n\n    # The top item, or a missing route.\n    def top(default = nil)\n      count = 0\n      count += 1 if empty?\n      route_missing if count.zero?\n      items.each { |size| size + count }\n      [count, default, size]\n    end\n\n    # How many items it holds.\n    def size\n      items.length\n    end\n\n    private\n\n    def items\n      @items ||= []\n    end\n\n    def reset; end\n\n    def route_missing\n      raise ArgumentError, 'no route'\n    end\n  end\nend\n",
        )
        .file(
            "test/stack_test.rb",
            "require 'minitest/autorun'\nrequire_relative '../lib/box/stack'\n\nclass StackTest < Minitest::Test\n  def test_empty\n    stack = Box::Stack.new\n    stack.clear!\n    assert stack.empty?\n  end\nend\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn ruby_bare_words_are_calls_unless_a_local_holds_the_name() {
    let p = stack_project();
    let stack = "lib/box/stack.rb";
    // `count` and `default` are locals, the block's `size` a parameter: only the last `size`, an
    // undefined name, is a call; `empty?` keeps its `?`.
    p.lexi(["lookup", stack, "--member", "top"])
        .success()
        .stdout_has("- Calls: empty?, route_missing, items, size\n");
    p.lexi(["lookup", stack, "--member", "route_missing"])
        .success()
        .stdout_has("Called by: Stack.top");
    p.lexi(["impact", stack, "--member", "Stack.route_missing"])
        .success()
        .stdout_has("lib/box/stack.rb: Stack.top (calls Stack.route_missing)");
    p.lexi(["lookup", stack, "--member", "clear!"])
        .success()
        .stdout_has("- Calls: reset\n");
}

#[test]
fn ruby_question_and_exclamation_marks_stay_in_method_names() {
    let p = stack_project();
    let stack = "lib/box/stack.rb";
    p.lexi(["lookup", stack, "--full"])
        .success()
        .stdout_has("def empty?  # Whether it holds nothing.")
        .stdout_has("def clear!  # Drops every item.");
    p.lexi(["lookup", stack, "--member", "empty?"])
        .success()
        .stdout_has("Stack.empty? (method")
        .stdout_has("Calls elsewhere: items.empty?")
        .stdout_has("Called by: Stack.top");
    // `empty` is another method: none here.
    p.lexi(["lookup", stack, "--member", "empty"]).code(1);
    p.lexi(["search", "empty"])
        .success()
        .stdout_has("(members: empty?)");
    p.commit_all("library");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["validate"]).success();
}
