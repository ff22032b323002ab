//! Java (`fixtures/projects/java-maven`: a Maven build of two modules): design files with the
//! public interface and Javadoc, dependencies resolved through the source roots (single-type,
//! on-demand and static imports, the file's own package without an import, a module's main code
//! from another module), JUnit tests mapped to the classes they exercise, inherited members,
//! callers and raises, the package doc of `package-info.java`, Maven's conventions, and a library
//! that validates and stays as it is on a second update.

use crate::support::{
    assert_committed_library_is_a_fixed_point, section_paths as section, updated_fixture,
    TestProject,
};

const CIRCLE: &str = "core/src/main/java/com/example/shapes/Circle.java";
const CIRCLE_TEST: &str = "core/src/test/java/com/example/shapes/CircleTest.java";
const MAIN: &str = "app/src/main/java/com/example/app/Main.java";

fn updated() -> TestProject {
    updated_fixture("java-maven")
}

#[test]
fn a_java_design_file_has_the_public_interface_with_javadoc() {
    let p = updated();
    let design = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    insta::assert_snapshot!("java_circle_design_file", design);
    // Private fields and package-private methods are not the interface.
    let contract = p.lexi(["lookup", CIRCLE, "--full"]).success();
    contract
        .stdout_has("  public Circle(double radius)  // Creates a circle.\n")
        .stdout_has(
            "  public static Circle of(double radius)  // The circle of radius `radius`, shared.\n",
        )
        .stdout_has("- new Circle ← core/src/test/java/com/example/shapes/CircleTest.java")
        .stdout_lacks("CACHE")
        .stdout_lacks("corners");
    let shape = p.read(".lexibrary/core/src/main/java/com/example/shapes/Shape.java.md");
    assert!(
        shape.starts_with("---\ndescription: '`Shape`: A closed plane figure.'"),
        "{shape}"
    );
}

#[test]
fn java_dependencies_resolve_through_the_source_roots() {
    let p = updated();
    let main = p.read(&format!(".lexibrary/{MAIN}.md"));
    // `import com.example.shapes.*;` brings the types it uses, `import static` the class.
    assert_eq!(
        section(&main, "Dependencies"),
        [
            "core/src/main/java/com/example/shapes/Circle.java",
            "core/src/main/java/com/example/shapes/Geometry.java",
            "core/src/main/java/com/example/shapes/Shape.java",
            "core/src/main/java/com/example/shapes/Square.java",
        ]
    );
    assert_eq!(
        section(&main, "External Dependencies"),
        ["com.google.common.collect"]
    );
    // The same package needs no import; Javadoc's `{@link}` is no dependency.
    let test = p.read(&format!(".lexibrary/{CIRCLE_TEST}.md"));
    assert_eq!(
        section(&test, "Dependencies"),
        [
            "core/src/main/java/com/example/shapes/Circle.java",
            "core/src/main/java/com/example/shapes/Geometry.java",
        ]
    );
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(
        section(&circle, "Dependencies"),
        [
            "core/src/main/java/com/example/shapes/AbstractShape.java",
            "core/src/main/java/com/example/shapes/Geometry.java",
            "core/src/main/java/com/example/shapes/Shape.java",
            "core/src/main/java/com/example/shapes/internal/Cache.java",
        ]
    );
}

#[test]
fn junit_tests_are_mapped_to_the_classes_they_exercise() {
    let p = updated();
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(section(&circle, "Tests"), [CIRCLE_TEST]);
    let test = p.read(&format!(".lexibrary/{CIRCLE_TEST}.md"));
    assert!(
        test.starts_with(
            "---\ndescription: 'Tests `Circle`: `areaIsPiRSquared`, `aRadiusMustBePositive`.'"
        ),
        "{test}"
    );
    // `@ParameterizedTest` is a test case too, found by the member it calls.
    p.lexi(["lookup", CIRCLE, "--member", "Circle.Circle"])
        .success()
        .stdout_has("CircleTest.aRadiusMustBePositive")
        .stdout_has("CircleTest.areaIsPiRSquared");
}

#[test]
fn inherited_members_callers_and_raises() {
    let p = updated();
    let describe = p.lexi(["lookup", CIRCLE, "--member", "describe"]).success();
    insta::assert_snapshot!("java_inherited_describe", describe.stdout);
    describe
        .stdout_has("Circle.describe — inherited from interface Shape")
        .stdout_has("Called from: app/src/main/java/com/example/app/Main.java (Main.main)");
    p.lexi([
        "lookup",
        "core/src/main/java/com/example/shapes/AbstractShape.java",
        "--member",
        "positive",
    ])
    .success()
    .stdout_has("Raises: IllegalArgumentException (\"A dimension must be positive: …\")")
    .stdout_has("Called from: core/src/main/java/com/example/shapes/Circle.java (Circle.Circle)");
}

#[test]
fn a_package_info_describes_its_package_and_maven_says_how_to_test() {
    let p = updated();
    let index = p.read(".lexibrary/core/src/main/java/com/example/shapes/.aindex");
    assert!(
        index.starts_with(
            "# core/src/main/java/com/example/shapes/\n\nPlane shapes with their areas and outlines.\n"
        ),
        "{index}"
    );
    p.lexi(["conventions"])
        .success()
        .stdout_has("`mvn test` runs the tests")
        .stdout_has("Spotless formats the code");
    // A multi-module build is documented whole, not its `app/` module alone.
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("scope_root: .\n"), "{config}");
}

#[test]
fn a_java_library_validates_and_a_second_update_changes_nothing() {
    let p = updated();
    assert_committed_library_is_a_fixed_point(&p);
    // A new class its package's files name without an import: they depend on it at once.
    p.write(
        "core/src/main/java/com/example/shapes/Geometry.java",
        "package com.example.shapes;\n\n/** Formulas. */\npublic final class Geometry {\n  private Geometry() {}\n\n  /** The area. */\n  public static double circleArea(double r) {\n    return Units.PI * r * r;\n  }\n}\n",
    );
    p.write(
        "core/src/main/java/com/example/shapes/Units.java",
        "package com.example.shapes;\n\n/** Units. */\npublic final class Units {\n  /** Pi. */\n  public static final double PI = 3.14;\n}\n",
    );
    p.commit_all("units");
    p.lexictl(["update", "--changed-only"]).success();
    let geometry = p.read(".lexibrary/core/src/main/java/com/example/shapes/Geometry.java.md");
    assert_eq!(
        section(&geometry, "Dependencies"),
        ["core/src/main/java/com/example/shapes/Units.java"]
    );
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
}
