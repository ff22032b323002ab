//! Kotlin (`fixtures/projects/kotlin-gradle`: a Gradle build of two modules, one with a Java
//! class): design files with the public interface and KDoc (not `private`/`internal` members),
//! dependencies resolved through the packages' declarations (an import of a class, of an extension
//! function with an alias, of a package on demand, the file's own package without an import, a
//! Java class of the same package), kotlin.test tests mapped to the classes they exercise, callers,
//! raises and the interface methods implemented, Gradle's and ktlint's and detekt's conventions, and a library that
//! validates and stays as it is on a second update.

use crate::support::{
    assert_committed_library_is_a_fixed_point, project, section_paths as section, updated_fixture,
    TestProject,
};

const CIRCLE: &str = "core/src/main/kotlin/com/example/shapes/Circle.kt";
const GEOMETRY: &str = "core/src/main/kotlin/com/example/shapes/Geometry.kt";
const CIRCLE_TEST: &str = "core/src/test/kotlin/com/example/shapes/CircleTest.kt";
const MAIN: &str = "app/src/main/kotlin/com/example/app/Main.kt";

fn updated() -> TestProject {
    updated_fixture("kotlin-gradle")
}

#[test]
fn a_kotlin_design_file_has_the_public_interface_with_kdoc() {
    let p = updated();
    let design = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert!(
        design.starts_with("---\ndescription: '`Circle`: A circle of a given radius.'"),
        "{design}"
    );
    assert!(
        design.contains(
            "```kotlin\ndata class Circle(val radius: Double): Shape  // A circle of a given radius.\n  val radius: Double\n  override fun area(): Double  // The area: `PI` times the radius squared.\n  fun unit(): Circle  // The circle of radius 1, shared.\nfun Double.toCircle(): Circle  // A circle of this radius.\n```"
        ),
        "{design}"
    );
    // `private` and `internal` declarations are not the interface.
    let contract = p.lexi(["lookup", CIRCLE, "--full"]).success();
    contract.stdout_lacks("secret").stdout_lacks("hidden");
    p.lexi(["lookup", GEOMETRY, "--full"])
        .success()
        .stdout_has("const val PI: Double  // Pi, to the precision the shapes need.")
        .stdout_lacks("unused");
}

#[test]
fn kotlin_dependencies_resolve_through_the_packages_declarations() {
    let p = updated();
    let main = p.read(&format!(".lexibrary/{MAIN}.md"));
    // `import com.example.shapes.*` brings the classes it uses, the aliased extension function
    // its file, and the Java class of its own package needs no import.
    assert_eq!(
        section(&main, "Dependencies"),
        [
            "app/src/main/java/com/example/app/Banner.java",
            "core/src/main/kotlin/com/example/shapes/Circle.kt",
            "core/src/main/kotlin/com/example/shapes/Shape.kt",
            "core/src/main/kotlin/com/example/shapes/Square.kt",
        ]
    );
    assert_eq!(
        section(&main, "External Dependencies"),
        ["com.google.common.collect"]
    );
    // Top-level functions and constants of the package, used without an import.
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(
        section(&circle, "Dependencies"),
        [
            GEOMETRY,
            "core/src/main/kotlin/com/example/shapes/Shape.kt",
            "core/src/main/kotlin/com/example/shapes/internal/Cache.kt",
        ]
    );
    let test = p.read(&format!(".lexibrary/{CIRCLE_TEST}.md"));
    assert_eq!(section(&test, "Dependencies"), [CIRCLE, GEOMETRY]);
}

#[test]
fn kotlin_tests_are_mapped_to_the_classes_they_exercise() {
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
    p.lexi(["lookup", CIRCLE, "--member", "Circle.area"])
        .success()
        .stdout_has("Called from: 1 test function in 1 test file (see Tests)")
        .stdout_has(
            "- core/src/test/kotlin/com/example/shapes/CircleTest.kt: CircleTest.areaIsPiRSquared",
        )
        .stdout_has(
            "Implements: interface Shape.area (core/src/main/kotlin/com/example/shapes/Shape.kt)",
        )
        .stdout_has(
            "Calls elsewhere: square (core/src/main/kotlin/com/example/shapes/Geometry.kt)",
        );
}

#[test]
fn inherited_members_callers_and_raises() {
    let p = updated();
    p.lexi(["lookup", CIRCLE, "--member", "describe"])
        .success()
        .stdout_has("Circle.describe — inherited from interface Shape")
        .stdout_has("Called from: app/src/main/kotlin/com/example/app/Main.kt (main)");
    p.lexi(["lookup", GEOMETRY, "--member", "positive"])
        .success()
        .stdout_has("Raises: IllegalArgumentException (\"A … must be positive: …\")");
}

#[test]
fn gradle_ktlint_and_detekt_are_the_kotlin_conventions() {
    let p = updated();
    p.lexi(["conventions"])
        .success()
        .stdout_has("`./gradlew test` runs the Kotlin tests (`src/test/kotlin`).")
        .stdout_has("ktlint checks and formats the Kotlin code.")
        .stdout_has("detekt analyses the Kotlin code (configured in `detekt.yml`).")
        .stdout_has("Kotlin compiles for JVM 17 (`jvmToolchain`).");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("- kotlin\n"), "{config}");
    assert!(config.contains("scope_root: .\n"), "{config}");
}

#[test]
fn a_kotlin_library_validates_and_a_second_update_changes_nothing() {
    let p = updated();
    assert_committed_library_is_a_fixed_point(&p);
    // A new top-level function another file of the package calls without an import: it depends
    // on the new file at once.
    p.write(
        "core/src/main/kotlin/com/example/shapes/Square.kt",
        "package com.example.shapes\n\n/** A square of a given side. */\nclass Square(val side: Double) : Shape {\n    override fun area(): Double = squareArea(side)\n}\n",
    );
    p.write(
        "core/src/main/kotlin/com/example/shapes/Areas.kt",
        "package com.example.shapes\n\n/** The area of a square of side [side]. */\nfun squareArea(side: Double): Double = side * side\n",
    );
    p.commit_all("areas");
    p.lexictl(["update", "--changed-only"]).success();
    let square = p.read(".lexibrary/core/src/main/kotlin/com/example/shapes/Square.kt.md");
    assert_eq!(
        section(&square, "Dependencies"),
        [
            "core/src/main/kotlin/com/example/shapes/Areas.kt",
            "core/src/main/kotlin/com/example/shapes/Shape.kt",
        ]
    );
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
}

/// A member's parameters are named in `lexi lookup`'s member list whatever their default values
/// hold: kotlinpoet's `joinToCode(separator: CharSequence = ", ", …)` was listed as
/// `joinToCode(separator, ", prefix, suffix)`.
#[test]
fn a_string_default_holding_a_comma_is_one_parameter() {
    let p = project()
        .file(
            "src/main/kotlin/a/Join.kt",
            "package a\n\n/** Joins the parts. */\npublic fun List<String>.joinParts(\n  separator: CharSequence = \", \",\n  prefix: CharSequence = \"(\",\n  suffix: CharSequence = \"\",\n): String = prefix.toString() + joinToString(separator) + suffix\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/main/kotlin/a/Join.kt"])
        .success()
        .stdout_has("joinParts(separator, prefix, suffix)");
}
