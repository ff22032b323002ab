//! The member outline store (issue 33, lookups under 10 ms): `lexictl update` keeps each parsed
//! file's members under the state directory so `lexi lookup` and `lexi search` list them without
//! parsing; the answers are the same bytes with the store, without it and with damaged records,
//! the store follows the code (a changed or removed file's record goes), and `--check` writes none.

use std::path::PathBuf;

use crate::support::{project, TestProject};

const STORE: &str = ".git/lexibrarian/outlines";

fn records(p: &TestProject) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(p.path(STORE))
        .map(|entries| entries.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    found.sort();
    found
}

/// Every lookup of the project's code files, and searches that describe members, as one text.
fn answers(p: &TestProject, sources: &[&str]) -> String {
    let mut out = String::new();
    for source in sources {
        out.push_str(&p.lexi(["lookup", source]).success().stdout);
    }
    for query in ["forecast", "route", "render"] {
        out.push_str(&p.lexi(["search", query]).success().stdout);
    }
    out
}

const SOURCES: &[&str] = &[
    "src/flaskish/app.py",
    "src/flaskish/typing.py",
    "src/flaskish/__init__.py",
    "src/flaskish/forecast.py",
];

fn flask_like() -> TestProject {
    let p = project()
        .fixture("flask-like")
        .file(
            "src/flaskish/forecast.py",
            "\"\"\"Forecasts.\"\"\"\n\n\nclass Forecast:\n    \"\"\"A forecast for one day. It may rain.\"\"\"\n\n    def render(self, unit):\n        \"\"\"Render it in `unit`.\"\"\"\n        return unit\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn answers_are_the_same_with_the_store_without_it_and_with_damaged_records() {
    let p = flask_like();
    let sources: Vec<&str> = SOURCES
        .iter()
        .copied()
        .filter(|source| p.exists(source))
        .collect();
    assert!(sources.len() >= 3, "{sources:?}");
    assert!(!records(&p).is_empty(), "the update keeps records");
    let with_store = answers(&p, &sources);
    assert!(with_store.contains("render(unit)"), "{with_store}");
    // The search's line under a hit names the member from the same outline.
    assert!(
        with_store.contains("→ render(unit) — Render it in `unit`."),
        "{with_store}"
    );
    for record in records(&p) {
        let text = std::fs::read(&record).expect("a record");
        std::fs::write(&record, &text[..text.len() / 3]).expect("torn");
    }
    assert_eq!(answers(&p, &sources), with_store, "torn records");
    std::fs::remove_dir_all(p.path(STORE)).expect("store removed");
    assert_eq!(answers(&p, &sources), with_store, "no store");
}

/// The lookup reads the record rather than parsing: a record edited by hand shows (which is why
/// the record's name holds the content's hash — a changed source is never answered from it).
#[test]
fn a_lookup_of_a_current_file_reads_its_record() {
    let p = flask_like();
    let edited = records(&p).into_iter().find_map(|record| {
        let text = std::fs::read_to_string(&record).ok()?;
        text.contains("A forecast for one day.")
            .then_some((record, text))
    });
    let (record, text) = edited.expect("the record of forecast.py");
    std::fs::write(
        &record,
        text.replace("A forecast for one day.", "Read from the record."),
    )
    .expect("edited");
    p.lexi(["lookup", "src/flaskish/forecast.py"])
        .success()
        .stdout_has("class Forecast — Read from the record.");
    // Once the source changes, the record of the old content is not this content's.
    p.write(
        "src/flaskish/forecast.py",
        std::fs::read_to_string(p.path("src/flaskish/forecast.py")).expect("source")
            + "\n\ndef today():\n    \"\"\"Today's forecast.\"\"\"\n",
    );
    p.lexi(["lookup", "src/flaskish/forecast.py"])
        .success()
        .stdout_has("class Forecast — A forecast for one day.")
        .stdout_has("today() — Today's forecast.");
}

#[test]
fn the_store_follows_the_code_and_check_writes_nothing() {
    let p = flask_like();
    p.commit_all("library");
    let before = records(&p);
    p.write(
        "src/flaskish/forecast.py",
        "\"\"\"Forecasts.\"\"\"\n\n\ndef today():\n    \"\"\"Today.\"\"\"\n",
    );
    p.lexictl(["update", "--check"]).run();
    assert_eq!(records(&p), before, "--check writes no record");
    p.lexictl(["update", "--dry-run"]).success();
    assert_eq!(records(&p), before, "--dry-run writes no record");
    p.commit_all("edit");
    p.lexictl(["update", "--changed-only"]).success();
    let after = records(&p);
    assert_eq!(after.len(), before.len(), "the old content's record went");
    assert_ne!(after, before);
    p.git(["rm", "-q", "src/flaskish/forecast.py"]).success();
    p.commit_all("remove");
    p.lexictl(["update", "--changed-only"]).success();
    assert_eq!(
        records(&p).len(),
        before.len() - 1,
        "a removed file's record went"
    );
    // A complete run drops records no file names (left by a killed run, an older release).
    std::fs::write(p.path(STORE).join("0123456789abcdef0123456789abcdef"), "{}").expect("debris");
    p.write(
        "src/flaskish/extra.py",
        "def extra():\n    \"\"\"Extra.\"\"\"\n",
    );
    p.lexictl(["update"]).success();
    let last = records(&p);
    assert_eq!(last.len(), before.len(), "debris swept, extra.py kept");
    assert!(!p
        .path(STORE)
        .join("0123456789abcdef0123456789abcdef")
        .exists());
}
