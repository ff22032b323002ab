//! C and C++ (`fixtures/projects/c-cmake`: a CMake build of a C library with a C++ layer): design
//! files with a header's interface and its Doxygen comments (not the include guard, not a
//! `static` helper, not a class's private members nor a `detail` namespace), a translation unit's
//! functions of external linkage, `#include` resolved through the file's directory and CMake's
//! include directories (a conditional include kept, a system header external), GoogleTest tests
//! mapped to the headers they include, callers and raises, clang-format's and CTest's
//! conventions, and a library that validates and stays as it is on a second update.

use crate::support::{
    assert_committed_library_is_a_fixed_point, section_paths as section, updated_fixture,
    TestProject,
};

const CIRCLE_H: &str = "include/shapes/circle.h";
const AREA_HPP: &str = "include/shapes/area.hpp";
const CIRCLE_C: &str = "src/circle.c";
const AREA_CPP: &str = "src/area.cpp";
const TEST: &str = "tests/circle_test.cpp";

fn updated() -> TestProject {
    updated_fixture("c-cmake")
}

/// The Interface Contract's code block of a design file.
fn contract(design: &str) -> String {
    design
        .split("## Interface Contract\n\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```\n").next())
        .unwrap_or("")
        .to_string()
}

#[test]
fn a_header_design_file_has_what_it_declares_with_its_doxygen_comments() {
    let p = updated();
    let design = p.read(&format!(".lexibrary/{CIRCLE_H}.md"));
    insta::assert_snapshot!("c_header_contract", contract(&design));
    assert!(
        design.starts_with(
            "---\ndescription: 'Circles: made from a radius, measured by their area.'"
        ),
        "{design}"
    );
    let hpp = p.read(&format!(".lexibrary/{AREA_HPP}.md"));
    insta::assert_snapshot!("cpp_header_contract", contract(&hpp));
    // A translation unit: its functions of external linkage, not its `static` helper.
    let source = contract(&p.read(&format!(".lexibrary/{CIRCLE_C}.md")));
    assert!(
        source.contains("circle *circle_new(double radius)"),
        "{source}"
    );
    assert!(!source.contains("squared"), "{source}");
}

#[test]
fn includes_resolve_through_the_files_directory_and_the_include_directories() {
    let p = updated();
    let header = p.read(&format!(".lexibrary/{CIRCLE_H}.md"));
    // `"shapes/config.h"` through CMake's include directory, `"win32.h"` beside the header
    // (under `#ifdef _WIN32`: every platform's includes are kept); `<stddef.h>` is the system's.
    assert_eq!(
        section(&header, "Dependencies"),
        ["include/shapes/config.h", "include/shapes/win32.h"]
    );
    let source = p.read(&format!(".lexibrary/{CIRCLE_C}.md"));
    let own_header = format!("{CIRCLE_H} (its header)");
    assert_eq!(
        section(&source, "Dependencies"),
        [&own_header, "src/local.h"]
    );
    // An angle include naming a project header through the include directories.
    let demo = p.read(".lexibrary/examples/demo.c.md");
    assert_eq!(section(&demo, "Dependencies"), [CIRCLE_H]);
    let cpp = p.read(&format!(".lexibrary/{AREA_CPP}.md"));
    assert_eq!(
        section(&cpp, "Dependencies"),
        [format!("{AREA_HPP} (its header)")]
    );
    // The header names the files that include it.
    let dependents = section(&header, "Dependents");
    for file in [
        AREA_HPP,
        &format!("{CIRCLE_C} (implements it)"),
        "examples/demo.c",
    ] {
        assert!(
            dependents.iter().any(|d| d == file),
            "{file}: {dependents:?}"
        );
    }
}

/// A source and its header name each other: the source's Dependencies mark the header of its
/// name (`src/circle.c` → `include/shapes/circle.h`, across directories), the header's
/// Dependents the source that defines what it declares; a file of another name that includes
/// the header (`examples/demo.c`) is no implementation. `lexi lookup` shows the pair first, and
/// `lexi impact` and `validate` read the marked entries as paths.
#[test]
fn a_source_and_its_header_name_each_other() {
    let p = updated();
    let header = p.read(&format!(".lexibrary/{CIRCLE_H}.md"));
    let dependents = section(&header, "Dependents");
    let marked: Vec<&String> = dependents
        .iter()
        .filter(|d| d.ends_with(" (implements it)"))
        .collect();
    assert_eq!(
        marked,
        [&format!("{CIRCLE_C} (implements it)")],
        "{dependents:?}"
    );
    let hpp = p.read(&format!(".lexibrary/{AREA_HPP}.md"));
    assert!(
        section(&hpp, "Dependents").contains(&format!("{AREA_CPP} (implements it)")),
        "{hpp}"
    );
    let lookup = p.lexi(["lookup", CIRCLE_C]).success().stdout;
    assert!(
        lookup.contains(&format!(
            "Dependencies (2): {CIRCLE_H} (its header), src/local.h"
        )),
        "{lookup}"
    );
    let lookup = p.lexi(["lookup", CIRCLE_H]).success().stdout;
    let line = lookup
        .lines()
        .find(|line| line.starts_with("Dependents ("))
        .unwrap_or_default();
    assert!(
        line.contains(&format!("): {CIRCLE_C} (implements it), ")),
        "{lookup}"
    );
    let impact = p.lexi(["impact", CIRCLE_H]).success().stdout;
    assert!(impact.contains(CIRCLE_C), "{impact}");
    assert!(!impact.contains("(implements it)"), "{impact}");
    p.lexictl(["validate"]).success();
}

#[test]
fn googletest_tests_are_mapped_to_the_headers_they_include() {
    let p = updated();
    let hpp = p.read(&format!(".lexibrary/{AREA_HPP}.md"));
    assert_eq!(section(&hpp, "Tests"), [TEST]);
    let test = p.read(&format!(".lexibrary/{TEST}.md"));
    assert!(
        test.starts_with(
            "---\ndescription: 'Tests `circle`: `area_is_pi_r_squared`, `describe_names_the_area`.'"
        ),
        "{test}"
    );
    p.lexi(["lookup", AREA_HPP]).success().stdout_has(TEST);
}

#[test]
fn callers_raises_and_members() {
    let p = updated();
    p.lexi(["lookup", AREA_CPP, "--member", "Round.Round"])
        .success()
        .stdout_has("Raises: std::invalid_argument (\"bad radius\")");
    // A function is called through the header that declares it.
    p.lexi(["lookup", CIRCLE_H, "--member", "circle_new"])
        .success()
        .stdout_has("Called from: examples/demo.c (main)")
        .stdout_has("Makes a circle of radius `radius`.");
    p.lexi(["lookup", AREA_CPP, "--member", "Round.area"])
        .success()
        .stdout_has("Calls elsewhere: circle_area")
        .stdout_has("Called by: Round.describe");
}

#[test]
fn clang_format_and_ctest_are_the_conventions() {
    let p = updated();
    p.lexi(["conventions"])
        .success()
        .stdout_has("clang-format formats the code (`clang-format -i --style=file`): based on the Google style, 100 columns.")
        .stdout_has("CTest runs the tests")
        .stdout_has("C++17 (CMake)");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("- c\n"), "{config}");
}

#[test]
fn a_c_library_validates_and_a_second_update_changes_nothing() {
    let p = updated();
    assert_committed_library_is_a_fixed_point(&p);
    // A new header beside the source shadows the include directory's for a quoted include:
    // a --changed-only run resolves the includes again.
    p.write(
        "src/shapes/circle.h",
        "/* A local copy. */\n#define LOCAL_CIRCLE 1\n",
    );
    p.commit_all("shadow");
    p.lexictl(["update", "--changed-only"]).success();
    let source = p.read(&format!(".lexibrary/{CIRCLE_C}.md"));
    assert_eq!(
        section(&source, "Dependencies"),
        ["src/local.h", "src/shapes/circle.h (its header)"]
    );
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
}
