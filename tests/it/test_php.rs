//! PHP (`fixtures/projects/php-composer`: a composer package with PSR-4 and PSR-0 autoload maps):
//! design files with the public interface and PHPDoc (not `private`/`protected` members),
//! dependencies resolved through the namespace, `use` statements (a group use with an alias) and
//! the autoload maps, a `require_once __DIR__ . '…'`, a template with `<?php` blocks in HTML,
//! PHPUnit tests mapped to the classes they exercise, callers, raises and the interface methods
//! implemented, composer's, PHP_CodeSniffer's, PHP-CS-Fixer's and PHPStan's conventions, and a
//! library that validates and stays as it is on a second update.

use crate::support::{section_paths as section, updated_fixture, TestProject};

const CIRCLE: &str = "src/Shapes/Circle.php";
const GEOMETRY: &str = "src/Support/Geometry.php";
const SHAPE: &str = "src/Shapes/Shape.php";
const CIRCLE_TEST: &str = "tests/Shapes/CircleTest.php";
const FUNCTIONS: &str = "src/functions.php";
const PRINTER: &str = "lib/Legacy/Printer.php";
const PAGE: &str = "src/views/page.php";

fn updated() -> TestProject {
    updated_fixture("php-composer")
}

#[test]
fn a_php_design_file_has_the_public_interface_with_phpdoc() {
    let p = updated();
    let design = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert!(
        design.starts_with("---\ndescription: '`Circle`: A circle of a given radius.'"),
        "{design}"
    );
    insta::assert_snapshot!(
        "php_circle_contract",
        p.lexi(["lookup", CIRCLE, "--full"]).success().stdout
    );
    // `private` members and constants are not the interface.
    p.lexi(["lookup", CIRCLE, "--full"])
        .success()
        .stdout_lacks("SECRET")
        .stdout_lacks("secret()");
    p.lexi(["lookup", GEOMETRY, "--full"])
        .success()
        .stdout_has("public const PI = 3.14159  // Pi, to the precision the shapes need.");
    let functions = p.read(&format!(".lexibrary/{FUNCTIONS}.md"));
    assert!(
        functions.starts_with("---\ndescription: Helpers loaded by composer's `files` autoload."),
        "{functions}"
    );
}

#[test]
fn php_dependencies_resolve_through_uses_and_the_autoload_maps() {
    let p = updated();
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    // A group use with an alias, the interface of its own namespace without a `use`.
    assert_eq!(
        section(&circle, "Dependencies"),
        [SHAPE, "src/Support/Cache.php", GEOMETRY]
    );
    assert_eq!(section(&circle, "External Dependencies"), ["Psr\\Log"]);
    // `require_once __DIR__ . '/../lib/…'`, and a name relative to the namespace.
    let functions = p.read(&format!(".lexibrary/{FUNCTIONS}.md"));
    assert_eq!(section(&functions, "Dependencies"), [PRINTER, SHAPE]);
    // A fully qualified name; a PSR-0 class (`Legacy_Printer` → `lib/Legacy/Printer.php`) from a
    // template's `<?php` blocks.
    let printer = p.read(&format!(".lexibrary/{PRINTER}.md"));
    assert_eq!(section(&printer, "Dependencies"), [SHAPE]);
    let page = p.read(&format!(".lexibrary/{PAGE}.md"));
    assert_eq!(section(&page, "Dependencies"), [PRINTER, CIRCLE]);
    // A global class (`\InvalidArgumentException`) is PHP's own: no dependency, no external.
    let geometry = p.read(&format!(".lexibrary/{GEOMETRY}.md"));
    assert_eq!(section(&geometry, "Dependencies"), Vec::<String>::new());
    assert!(!geometry.contains("## External Dependencies"), "{geometry}");
}

#[test]
fn phpunit_tests_are_mapped_to_the_classes_they_exercise() {
    let p = updated();
    let circle = p.read(&format!(".lexibrary/{CIRCLE}.md"));
    assert_eq!(section(&circle, "Tests"), [CIRCLE_TEST]);
    let test = p.read(&format!(".lexibrary/{CIRCLE_TEST}.md"));
    assert!(
        test.starts_with(
            "---\ndescription: 'Tests `Circle`: `testAreaIsPiRSquared`, `aRadiusMustBePositive`.'"
        ),
        "{test}"
    );
    assert_eq!(
        section(&test, "External Dependencies"),
        ["PHPUnit\\Framework"]
    );
    p.lexi(["lookup", CIRCLE, "--member", "Circle.area"])
        .success()
        .stdout_has("Called from: tests/Shapes/CircleTest.php (CircleTest.testAreaIsPiRSquared)")
        .stdout_has("Implements: interface Shape.area (src/Shapes/Shape.php)")
        // `Memo::remember` through `use Example\Support\{…, Cache as Memo}`.
        .stdout_has(
            "Calls elsewhere: Cache::remember (src/Support/Cache.php), Geometry::square (src/Support/Geometry.php)",
        );
}

#[test]
fn php_callers_and_raises() {
    let p = updated();
    p.lexi(["lookup", GEOMETRY, "--member", "positive"])
        .success()
        .stdout_has("Called from: src/Shapes/Circle.php (Circle.__construct)")
        .stdout_has("Raises: InvalidArgumentException (\"A … must be positive: …\"), OverflowException (\"Too large\")")
        .stdout_has("tests/Shapes/CircleTest.php: CircleTest.aRadiusMustBePositive");
}

#[test]
fn composer_phpcs_php_cs_fixer_and_phpstan_are_the_php_conventions() {
    let p = updated();
    p.lexi(["conventions"])
        .success()
        .stdout_has("`composer test` runs `phpunit`.")
        .stdout_has("PHP_CodeSniffer checks the code style (`phpcs.xml.dist`): PSR12.")
        .stdout_has(
            "PHP-CS-Fixer formats the code (`.php-cs-fixer.dist.php`): @PSR12, @PHP81Migration.",
        )
        .stdout_has("PHPStan analyses the code at level `8` (`phpstan.neon.dist`).")
        .stdout_has("PHP `^8.1` (composer.json `require.php`).");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("- php\n"), "{config}");
}

#[test]
fn a_php_library_validates_and_a_second_update_changes_nothing() {
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
    // A new PSR-4 root in composer.json: a `--changed-only` run rebuilds the model, and a class
    // under it resolves at once.
    let composer = p.read("composer.json").replace(
        "\"Example\\\\Support\\\\\": \"src/Support/\"",
        "\"Example\\\\Support\\\\\": \"src/Support/\",\n            \"Example\\\\Units\\\\\": \"src/Units/\"",
    );
    p.write("composer.json", &composer);
    p.write(
        "src/Units/Metre.php",
        "<?php\n\nnamespace Example\\Units;\n\n/** A length in metres. */\nfinal class Metre\n{\n}\n",
    );
    p.write(
        "src/Shapes/Square.php",
        "<?php\n\nnamespace Example\\Shapes;\n\nuse Example\\Units\\Metre;\n\n/** A square of a given side. */\nclass Square implements Shape\n{\n    public function __construct(private Metre $side)\n    {\n    }\n\n    public function area(): float\n    {\n        return 1.0;\n    }\n\n    public function describe(): string\n    {\n        return 'A square';\n    }\n}\n",
    );
    p.commit_all("units");
    p.lexictl(["update", "--changed-only"]).success();
    let square = p.read(".lexibrary/src/Shapes/Square.php.md");
    assert_eq!(
        section(&square, "Dependencies"),
        [SHAPE, "src/Units/Metre.php"]
    );
    assert_eq!(
        section(&square, "External Dependencies"),
        Vec::<String>::new()
    );
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
}
