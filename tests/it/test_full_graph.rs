//! The whole graph behind design files kept within their budget: `lexi impact` and
//! `lexi lookup --full` read every dependent from the graph of the last update (falling back to the
//! design files' capped lists without one), `lookup --full` renders a cut Interface Contract again
//! from a current source, and `lexi search` finds a public symbol the contract had no room for.

use crate::support::{project, TestProject};

/// Where `lexictl update` keeps the per-clone cache (under the git directory).
const UPDATE_CACHE: &str = ".git/lexibrarian/cache";

/// The line `lexi impact` prints when it had only the design files.
const FROM_DESIGN_FILES: &str =
    "From the design files: lists may be capped; run `lexictl update` for the whole graph.";

/// The `webapp` fixture with 30 more modules and 3 more tests importing `src/shop/wrappers.py`
/// (34 modules and 3 tests in all), documented with the default design file budget.
fn crowded_wrappers() -> TestProject {
    let p = project().fixture("webapp").init().build();
    for i in 0..30 {
        p.write(
            &format!("src/shop/views/page{i:02}.py"),
            "from ..wrappers import Response\n\n\ndef page():\n    return Response()\n",
        );
    }
    for i in 0..3 {
        p.write(
            &format!("tests/test_page{i}.py"),
            "from shop.wrappers import Response\n\n\ndef test_page():\n    assert Response()\n",
        );
    }
    p.lexictl(["update"]).success();
    p
}

/// Every dependent of `src/shop/wrappers.py`, sorted.
fn all_dependents() -> Vec<String> {
    let mut all: Vec<String> = [
        "src/shop/__init__.py",
        "src/shop/app.py",
        "src/shop/errors.py",
        "src/shop/json/__init__.py",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    all.extend((0..30).map(|i| format!("src/shop/views/page{i:02}.py")));
    all.extend((0..3).map(|i| format!("tests/test_page{i}.py")));
    all.sort();
    all
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}

/// The files of an impact answer at `depth`, in order.
fn at_depth(value: &serde_json::Value, depth: u64) -> Vec<String> {
    let files = value["files"].as_array().expect("files");
    files
        .iter()
        .filter(|f| f["depth"] == depth)
        .map(|f| f["file"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn impact_reports_every_dependent_from_the_graph_not_the_capped_list() {
    let p = crowded_wrappers();
    let design = p.read(".lexibrary/src/shop/wrappers.py.md");
    let listed = design.matches("\n- src/shop/views/page").count();
    assert!(
        listed < 30 && design.contains("more: `lexi impact src/shop/wrappers.py`"),
        "the premise: the design file's Dependents list is capped\n{design}"
    );
    let value = p
        .lexi([
            "impact",
            "src/shop/wrappers.py",
            "--depth",
            "1",
            "--format",
            "json",
        ])
        .json();
    assert_eq!(value["from"], "graph", "{value}");
    assert_eq!(at_depth(&value, 1), all_dependents());
    // The tests among them, and (one level further) the one `src/shop/__init__.py`'s design file
    // names.
    assert_eq!(
        strings(&value["tests"]),
        [
            "tests/test_page0.py",
            "tests/test_page1.py",
            "tests/test_page2.py",
            "tests/test_basic.py"
        ]
    );
    let text = p
        .lexi(["impact", "src/shop/wrappers.py", "--depth", "1"])
        .success()
        .stdout;
    assert!(
        text.contains("37 files depend on it directly, 37 within 1 level; 4 tests.")
            && !text.contains(FROM_DESIGN_FILES),
        "{text}"
    );
    // Text: the first 20 of a level, the rest counted by directory, and the way to see them all.
    let listed = text
        .lines()
        .filter(|l| l.starts_with("- src/shop/"))
        .count();
    assert_eq!(listed, 20, "{text}");
    assert!(
        text.contains("- … and 17 more: src/shop/views/ ("),
        "{text}"
    );
    assert!(
        text.contains("`lexi impact src/shop/wrappers.py --depth 1 --full` lists every file."),
        "{text}"
    );
    let full = p
        .lexi(["impact", "src/shop/wrappers.py", "--depth", "1", "--full"])
        .success()
        .stdout;
    for dependent in all_dependents() {
        assert!(
            full.contains(&format!("- {dependent}")),
            "{dependent}:\n{full}"
        );
    }
    assert!(!full.contains("--full` lists every file"), "{full}");
}

#[test]
fn impact_without_the_update_cache_follows_the_design_files_and_says_so() {
    let p = crowded_wrappers();
    let design = p.read(".lexibrary/src/shop/wrappers.py.md");
    let listed: Vec<String> = design
        .lines()
        .skip_while(|line| *line != "## Dependents")
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter_map(|line| line.strip_prefix("- "))
        .map(str::to_string)
        .collect();
    assert!(!listed.is_empty() && listed.len() < 37, "{design}");
    std::fs::remove_file(p.path(UPDATE_CACHE)).expect("the update cache exists");
    let text = p
        .lexi(["impact", "src/shop/wrappers.py", "--depth", "1"])
        .success()
        .stdout;
    assert!(
        text.contains(&format!("\n\n{FROM_DESIGN_FILES}\n\n"))
            && text.contains(&format!("{} files depend on it directly", listed.len())),
        "{text}"
    );
    let value = p
        .lexi([
            "impact",
            "src/shop/wrappers.py",
            "--depth",
            "1",
            "--format",
            "json",
        ])
        .json();
    assert_eq!(value["from"], "design_files");
    assert_eq!(at_depth(&value, 1), listed);
    // The next update brings the whole graph back.
    p.lexictl(["update"]).success();
    let value = p
        .lexi(["impact", "src/shop/wrappers.py", "--format", "json"])
        .json();
    assert_eq!(value["from"], "graph");
    assert_eq!(at_depth(&value, 1), all_dependents());
}

/// A Python module with 150 public functions, then `make_default_response` and `make_response`:
/// its contract is cut.
fn big_module() -> String {
    let mut module = String::from("\"\"\"A module with many functions.\"\"\"\n\n");
    for i in 0..150 {
        module.push_str(&format!(
            "\n\ndef function_number_{i}(argument, other=None):\n    return argument\n"
        ));
    }
    module.push_str("\n\ndef make_default_response():\n    return None\n");
    module.push_str("\n\ndef make_response(body, status=200):\n    return body\n");
    module
}

/// `crowded_wrappers` with `src/shop/big.py` (151 functions) imported by the 30 pages.
fn big_and_crowded() -> TestProject {
    let p = project()
        .fixture("webapp")
        .file("src/shop/big.py", big_module())
        .init()
        .build();
    for i in 0..30 {
        p.write(
            &format!("src/shop/views/page{i:02}.py"),
            "from ..big import function_number_0\n\n\ndef page():\n    return function_number_0(1)\n",
        );
    }
    p.lexictl(["update"]).success();
    p
}

/// The body of section `heading` in a lookup's JSON.
fn section(value: &serde_json::Value, heading: &str) -> String {
    value["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .find(|s| s["heading"] == heading)
        .unwrap_or_else(|| panic!("no {heading} in {value}"))["body"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn lookup_full_prints_the_whole_contract_and_every_dependent() {
    let p = big_and_crowded();
    let design = p.read(".lexibrary/src/shop/big.py.md");
    assert!(
        design.contains("more lines: read src/shop/big.py")
            && design.contains("more: `lexi impact src/shop/big.py`")
            && !design.contains("def make_response"),
        "the premise: contract and Dependents are capped\n{design}"
    );
    let full = p
        .lexi(["lookup", "--full", "src/shop/big.py"])
        .success()
        .stdout;
    assert_eq!(full.matches("def function_number_").count(), 150, "{full}");
    assert!(
        full.contains("def make_response(body, status=200)")
            && !full.contains("more lines: read")
            && !full.contains("more: `lexi impact"),
        "{full}"
    );
    for i in 0..30 {
        assert!(
            full.contains(&format!("- src/shop/views/page{i:02}.py\n")),
            "{full}"
        );
    }
    // The default lookup shows what fits its own budget (more than the design file), the list
    // summarised.
    let short = p.lexi(["lookup", "src/shop/big.py"]).success().stdout;
    assert!(!short.contains("def make_response"), "{short}");
    // JSON: as stored without --full, whole with it.
    let stored = p
        .lexi(["lookup", "src/shop/big.py", "--format", "json"])
        .json();
    assert!(section(&stored, "Interface Contract").contains("more lines: read"));
    assert!(stored.get("expanded").is_none(), "{stored}");
    let whole = p
        .lexi(["lookup", "--full", "src/shop/big.py", "--format", "json"])
        .json();
    let contract = section(&whole, "Interface Contract");
    assert_eq!(contract.matches("def function_number_").count(), 150);
    assert!(contract.contains("def make_response"), "{contract}");
    let dependents = section(&whole, "Dependents");
    assert_eq!(dependents.lines().count(), 30, "{dependents}");
    assert_eq!(
        strings(&whole["expanded"]),
        ["Interface Contract", "Dependents"]
    );
}

#[test]
fn lookup_full_keeps_the_stored_contract_of_a_changed_source() {
    let p = big_and_crowded();
    p.write(
        "src/shop/big.py",
        format!("{}\n\ndef added_later():\n    pass\n", big_module()),
    );
    let full = p
        .lexi(["lookup", "--full", "src/shop/big.py"])
        .success()
        .stdout;
    assert!(
        full.starts_with("> ⚠️ This doc may be outdated. Source file changed since last update."),
        "{full}"
    );
    assert!(
        full.contains("more lines: read src/shop/big.py")
            && !full.contains("added_later")
            && !full.contains("def make_response"),
        "{full}"
    );
    // The lists still come whole from the last update's graph.
    assert!(full.contains("- src/shop/views/page29.py\n"), "{full}");
}

#[test]
fn lookup_full_without_the_update_cache_keeps_capped_lists_and_says_so() {
    let p = big_and_crowded();
    std::fs::remove_file(p.path(UPDATE_CACHE)).expect("the update cache exists");
    let full = p
        .lexi(["lookup", "--full", "src/shop/big.py"])
        .success()
        .stdout;
    assert!(
        full.contains("run `lexictl update` for the whole graph")
            && full.contains("more: `lexi impact src/shop/big.py`")
            && full.contains("def make_response"),
        "{full}"
    );
}

#[test]
fn search_finds_a_symbol_the_contract_had_no_room_for() {
    let p = big_and_crowded();
    assert!(
        !p.read(".lexibrary/src/shop/big.py.md")
            .contains("make_response"),
        "the premise: the contract is cut before make_response"
    );
    let value = p
        .lexi(["search", "make_response", "--format", "json"])
        .json();
    let hits = value["hits"].as_array().expect("hits");
    let big = hits
        .iter()
        .take(3)
        .find(|hit| hit["name"] == "src/shop/big.py")
        .unwrap_or_else(|| panic!("src/shop/big.py not in the top 3: {value}"));
    // The symbol the query names first, then the others holding its words.
    assert_eq!(
        big["reason"], "members: make_response, make_default_response",
        "{big}"
    );
    p.lexi(["search", "make_response"])
        .success()
        .stdout_has("(members: make_response, make_default_response)");
    // A new public function after an update is found too; one removed is not.
    p.write(
        "src/shop/big.py",
        big_module().replace("def make_response(", "def build_reply("),
    );
    p.lexictl(["update"]).success();
    let value = p.lexi(["search", "build_reply", "--format", "json"]).json();
    assert_eq!(value["hits"][0]["name"], "src/shop/big.py", "{value}");
    let value = p
        .lexi(["search", "make_response", "--partial", "--format", "json"])
        .json();
    let reasons: Vec<&str> = value["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .filter(|hit| hit["name"] == "src/shop/big.py")
        .map(|hit| hit["reason"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(reasons, ["members: make_default_response"], "{value}");
}

#[test]
fn search_merges_the_names_again_when_only_the_update_cache_changed() {
    let p = big_and_crowded();
    std::fs::remove_file(p.path(UPDATE_CACHE)).expect("the update cache exists");
    // big.py's reason for a `make_response` search: the members that match it.
    let reason = |p: &TestProject| -> String {
        let value = p
            .lexi(["search", "make_response", "--format", "json"])
            .json();
        value["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .find(|hit| hit["name"] == "src/shop/big.py")
            .map(|hit| hit["reason"].as_str().unwrap_or_default().to_string())
            .unwrap_or_default()
    };
    // No update cache: only what the design file says (its contract is cut before the end).
    let design = p.read(".lexibrary/src/shop/big.py.md");
    assert!(!design.contains("def make_response("), "{design}");
    assert!(!reason(&p).contains("make_response,"), "{}", reason(&p));
    // An update that rewrites no design file brings the cache, and its names, back.
    p.lexictl(["update"]).success();
    assert_eq!(p.read(".lexibrary/src/shop/big.py.md"), design);
    assert!(
        reason(&p).contains("make_response, make_default_response"),
        "{}",
        reason(&p)
    );
}
