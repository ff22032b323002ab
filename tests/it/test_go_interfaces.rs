//! Go interfaces and the types implementing them (fixtures/projects/go-interfaces, a module
//! `example.com/zoo`: interfaces in shape/shape.go, implementers in sibling files and in the
//! package geo importing it, a type with only some of the methods, a struct embedding another):
//! `lexi lookup --member` both ways, promoted members through embedding, and the same in
//! `lexi impact --member`.

use crate::support::{project, TestProject};

fn zoo() -> TestProject {
    let p = project()
        .fixture("go-interfaces")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p
}

/// The lines of `lexi lookup <source> --member <name>` saying what it implements, overrides or
/// is implemented or overridden by.
fn relations(p: &TestProject, source: &str, name: &str) -> String {
    let out = p.lexi(["lookup", source, "--member", name]).success();
    let lines: Vec<&str> = out
        .stdout
        .lines()
        .filter(|line| {
            [
                "- Implements",
                "- Implemented by",
                "- Overrides",
                "- Overridden by",
            ]
            .iter()
            .any(|start| line.starts_with(start))
        })
        .collect();
    format!("==> {source} --member {name}\n{}\n", lines.join("\n"))
}

#[test]
fn an_interface_method_lists_the_types_with_its_whole_method_set() {
    let p = zoo();
    let mut snapshot = String::new();
    for name in ["Shape.Area", "Shape.Perimeter", "Named.Name", "Sink.Flush"] {
        snapshot.push_str(&relations(&p, "shape/shape.go", name));
    }
    // Line and Tri have an Area but no Perimeter: no Shape.
    assert!(!snapshot.contains("Line."), "{snapshot}");
    assert!(!snapshot.contains("Tri."), "{snapshot}");
    insta::assert_snapshot!(snapshot);
}

#[test]
fn a_method_lists_the_interfaces_its_type_implements() {
    let p = zoo();
    let mut snapshot = String::new();
    for (source, name) in [
        ("shape/square.go", "Square.Area"),
        ("shape/square.go", "Square.Name"),
        ("shape/circle.go", "Circle.Area"),
        ("shape/line.go", "Line.Area"),
        ("shape/line.go", "Line.Flush"),
        ("geo/hexagon.go", "Hexagon.Perimeter"),
        ("geo/tri.go", "Tri.Area"),
    ] {
        snapshot.push_str(&relations(&p, source, name));
    }
    insta::assert_snapshot!(snapshot);
}

#[test]
fn an_embedded_struct_gives_its_members_and_is_overridden_by_the_embedding_type() {
    let p = zoo();
    let inherited = p
        .lexi(["lookup", "shape/circle.go", "--member", "Circle.Name"])
        .success();
    inherited
        .stdout_has("Circle.Name — inherited from Base (shape/base.go)")
        .stdout_has("func (b *Base) Name() string");
    let mut snapshot = relations(&p, "shape/base.go", "Base.Describe");
    snapshot.push_str(&relations(&p, "shape/circle.go", "Circle.Describe"));
    insta::assert_snapshot!(snapshot);
}

#[test]
fn impact_of_an_interface_method_names_its_implementations() {
    let p = zoo();
    let out = p
        .lexi(["impact", "shape/shape.go", "--member", "Shape.Area"])
        .success();
    out.stdout_has("- shape/square.go: Square.Area")
        .stdout_has("- geo/hexagon.go: Hexagon.Area");
    let json = p
        .lexi([
            "impact",
            "geo/hexagon.go",
            "--member",
            "Hexagon.Area",
            "--format",
            "json",
        ])
        .success();
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        value["implements"],
        serde_json::json!(["Shape.Area (shape/shape.go)"])
    );
}

#[test]
fn the_library_validates_and_a_second_update_changes_nothing() {
    let p = zoo();
    p.lexictl(["validate"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["update"]).success();
    let status = p.git(["status", "--porcelain"]).success();
    assert_eq!(status.stdout, "");
}
