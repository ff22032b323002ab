//! C# (`fixtures/projects/csharp-dotnet`: a solution of two library projects and an xUnit test
//! project referencing one of them): design files with the interface (public and internal types,
//! non-private members) and XML doc summaries, dependencies resolved to the files declaring the
//! types used (the namespace and its parents, a `using`, a global using, `using static`, an
//! extension method, every part of a partial class, never a type of a project the file's project
//! does not reference), xUnit tests mapped to the classes they exercise, callers, raises and the
//! interface members implemented, the .NET conventions, and a library that validates and stays
//! as it is on a second update.

use crate::support::{
    assert_committed_library_is_a_fixed_point, section_paths as section, updated_fixture,
    TestProject,
};

const CIRCLE: &str = "src/Shapes/Circle.cs";
const CIRCLE_PART: &str = "src/Shapes/Circle.Describe.cs";
const GEOMETRY: &str = "src/Shapes/Geometry/Geometry.cs";
const CACHE: &str = "src/Shapes/Internal/Cache.cs";
const SHAPE: &str = "src/Shapes/IShape.cs";
const CIRCLE_TESTS: &str = "test/Shapes.Tests/CircleTests.cs";

fn updated() -> TestProject {
    updated_fixture("csharp-dotnet")
}

#[test]
fn a_csharp_design_file_has_the_interface_with_xml_docs() {
    let p = updated();
    let design = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    insta::assert_snapshot!(
        "csharp_circle_design",
        design.split("<!-- lexibrarian:meta").next().unwrap_or("")
    );
    // Private members (declared so, or by default in a class) are not the interface.
    p.lexi(["lookup", CIRCLE, "--full"])
        .success()
        .stdout_lacks("secret")
        .stdout_lacks("Hidden")
        .stdout_lacks("double Positive");
    // An internal type is: its assembly uses it.
    p.lexi(["lookup", CACHE, "--full"])
        .success()
        .stdout_has("internal static class Cache");
    p.lexi(["lookup", GEOMETRY, "--full"])
        .success()
        .stdout_has("public const double Pi  // Pi, to the precision the shapes need.");
}

#[test]
fn csharp_names_resolve_to_the_files_declaring_the_types() {
    let p = updated();
    // `IShape` from its own namespace, `Cache` through a `using`, `Geometry` and its extension
    // method `Squared` through a global using, and the other part of the partial class.
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(
        section(&circle, "Dependencies"),
        [CIRCLE_PART, GEOMETRY, SHAPE, CACHE]
    );
    // A part names the other parts; a type of the parent namespace needs no `using`.
    let part = p.read(&format!(".lexibrary/{CIRCLE_PART}.md"));
    assert_eq!(section(&part, "Dependencies"), [CIRCLE]);
    let cache = p.read(&format!(".lexibrary/{CACHE}.md"));
    assert_eq!(section(&cache, "Dependencies"), [CIRCLE_PART, CIRCLE]);
    // `using static`, a parent namespace's type, never `Banner` of the project the tests do not
    // reference.
    let tests = p.read(&format!(".lexibrary/{CIRCLE_TESTS}.md"));
    assert_eq!(
        section(&tests, "Dependencies"),
        [CIRCLE_PART, CIRCLE, GEOMETRY]
    );
}

#[test]
fn csharp_tests_are_mapped_to_the_classes_they_exercise() {
    let p = updated();
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(section(&circle, "Tests"), [CIRCLE_TESTS]);
    let tests = p.read(&format!(".lexibrary/{CIRCLE_TESTS}.md"));
    assert!(
        tests.starts_with(
            "---\ndescription: 'Tests `Circle`: `AreaIsPiRSquared`, `ARadiusMustBePositive`.'"
        ),
        "{tests}"
    );
    p.lexi(["lookup", CIRCLE, "--member", "Circle.Area"])
        .success()
        .stdout_has("Called from: 1 test function in 1 test file (see Tests)")
        .stdout_has("- test/Shapes.Tests/CircleTests.cs: CircleTests.AreaIsPiRSquared")
        .stdout_has("Implements: interface IShape.Area (src/Shapes/IShape.cs)");
    p.lexi(["lookup", CIRCLE, "--member", "Positive"])
        .success()
        .stdout_has("Raises: ArgumentException")
        .stdout_has("    if value <= 0:\n      throw new ArgumentException(");
}

#[test]
fn dotnet_test_the_sdk_and_editorconfig_are_the_csharp_conventions() {
    let p = updated();
    p.lexi(["conventions"])
        .success()
        .stdout_has("`dotnet test Shapes.sln` runs the test projects (xUnit).")
        .stdout_has("The .NET SDK is pinned to 8.0.100 (`global.json`).")
        .stdout_has("Every project builds with `LangVersion` latest, `Nullable` enable, `ImplicitUsings` enable (`Directory.Build.props`).")
        .stdout_has("`.editorconfig` sets 3 C# style and analyzer rules");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("- csharp\n"), "{config}");
}

#[test]
fn a_csharp_library_validates_and_a_second_update_changes_nothing() {
    let p = updated();
    assert_committed_library_is_a_fixed_point(&p);
    // A new type another file of the namespace names without a `using`: it depends on the new
    // file at once, in a changed-only run.
    p.write(
        "src/Shapes/Square.cs",
        "namespace Shapes;\n\n/// <summary>A square.</summary>\npublic class Square : IShape\n{\n    public double Area() => Sides.Four;\n}\n",
    );
    p.write(
        "src/Shapes/Sides.cs",
        "namespace Shapes;\n\n/// <summary>Counts of sides.</summary>\npublic static class Sides\n{\n    public const double Four = 4;\n}\n",
    );
    p.commit_all("square");
    p.lexictl(["update", "--changed-only"]).success();
    let square = p.read(".lexibrary/src/Shapes/Square.cs.md");
    assert_eq!(
        section(&square, "Dependencies"),
        [SHAPE, "src/Shapes/Sides.cs"]
    );
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
    // A part of a partial class in a file whose name holds a space (Polly's `IssuesTests
    // .OnRetryContext_2597.cs`): the other parts list it, and it validates.
    p.write(
        "src/Shapes/Circle .Extra.cs",
        "namespace Shapes;\n\npublic partial class Circle\n{\n    public double Diameter => 2 * Radius;\n}\n",
    );
    p.commit_all("extra");
    p.lexictl(["update"]).success();
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert!(
        section(&circle, "Dependencies").contains(&"src/Shapes/Circle .Extra.cs".to_string()),
        "{circle}"
    );
    p.lexictl(["validate"]).success();
}

/// A partial class is one type: a member declared in another part is found from either part's
/// file, said to be declared there, with that part's line and doc.
#[test]
fn a_member_of_another_part_of_a_partial_class_is_found_from_either_part() {
    let p = updated();
    p.lexi(["lookup", CIRCLE, "--member", "Describe"])
        .success()
        .stdout_has(&format!(
            "# {CIRCLE}: Circle.Describe — declared in another part of Circle ({CIRCLE_PART}) (method, line 6)"
        ))
        .stdout_has("Says what the circle is.");
    let json = p
        .lexi([
            "lookup",
            CIRCLE_PART,
            "--member",
            "Area",
            "--format",
            "json",
        ])
        .success()
        .json();
    let text = json.to_string();
    assert!(
        text.contains(&format!("\"part_of\":\"Circle ({CIRCLE})\"")),
        "{text}"
    );
    p.lexi(["lookup", CIRCLE, "--member", "NoSuchMember"])
        .code(1);
}
