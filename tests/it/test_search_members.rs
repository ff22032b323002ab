//! `lexi search` naming the members a hit matched (`members: route, add_url_rule`) — functions and
//! methods before type variables and constants — and ranking the code that declares a topic's
//! members above the test files whose test functions merely mention it.

use crate::support::project;

/// The top hits' names and reasons for `words`.
fn top(p: &crate::support::TestProject, words: &str) -> Vec<(String, String)> {
    let value = p.lexi(["search", words, "--format", "json"]).json();
    value
        .as_array()
        .or_else(|| value["hits"].as_array())
        .expect("hits")
        .iter()
        .filter(|hit| hit["kind"] == "design")
        .take(3)
        .map(|hit| {
            let name = hit["name"].as_str().unwrap_or_default().to_string();
            (name, hit["reason"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

#[test]
fn routing_names_the_routing_members_of_the_code_before_its_tests() {
    let p = project().fixture("inherit-python").init().build();
    p.lexictl(["update"]).success();
    let hits = top(&p, "routing");
    insta::assert_debug_snapshot!("search_members_routing", hits);
    let names: Vec<&str> = hits.iter().map(|(name, _)| name.as_str()).collect();
    // The code declaring `route` first; the type variable `T_route` after it; the test file whose
    // test functions are named for routes after the code.
    assert_eq!(names[0], "src/web/scaffold.py", "{hits:?}");
    assert_eq!(hits[0].1, "members: route");
    let at = |file: &str| names.iter().position(|name| *name == file);
    assert!(at("src/web/typing.py").is_none_or(|typing| typing > 0));
    assert!(at("tests/test_app.py").is_none_or(|test| test > 0));
    let test_reason = hits.iter().find(|(name, _)| name == "tests/test_app.py");
    if let Some((_, reason)) = test_reason {
        assert!(reason.starts_with("members: test_route"), "{reason}");
    }
}
