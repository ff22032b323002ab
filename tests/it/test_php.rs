//! PHP (`fixtures/projects/php-composer`: a composer package with PSR-4 and PSR-0 autoload maps):
//! design files with the public interface and PHPDoc (not `private`/`protected` members),
//! dependencies resolved through the namespace, `use` statements (a group use with an alias) and
//! the autoload maps, a `require_once __DIR__ . '…'`, a template with `<?php` blocks in HTML,
//! PHPUnit tests mapped to the classes they exercise, callers, raises and the interface methods
//! implemented, composer's, PHP_CodeSniffer's, PHP-CS-Fixer's and PHPStan's conventions, and a
//! library that validates and stays as it is on a second update.

use crate::support::{
    assert_committed_library_is_a_fixed_point, project, section_paths as section, updated_fixture,
    TestProject,
};

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
        .stdout_has("Called from: 1 test function in 1 test file (see Tests)")
        .stdout_has("- tests/Shapes/CircleTest.php: CircleTest.testAreaIsPiRSquared")
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
    assert_committed_library_is_a_fixed_point(&p);
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

/// A project whose helpers are namespaced functions loaded by composer's `files`, and a test
/// bootstrap that declares a function in a production namespace (guzzle's way of intercepting
/// `curl_setopt_array()`).
fn functions_project() -> TestProject {
    let p = project()
        .file(
            "composer.json",
            r#"{"name": "ex/fn", "autoload": {"psr-4": {"App\\": "src/"}, "files": ["src/functions.php"]}, "autoload-dev": {"psr-4": {"App\\Tests\\": "tests/"}}}"#,
        )
        .file(
            "src/functions.php",
            "<?php\n\nnamespace App;\n\n/** The unit of every area. */\nconst UNIT = 'm2';\n\n/** An area with its unit. */\nfunction format_area(float $area): string\n{\n    return $area . ' ' . UNIT;\n}\n",
        )
        .file(
            "src/Shapes/Circle.php",
            "<?php\n\nnamespace App\\Shapes;\n\nuse function App\\format_area as show;\nuse const App\\UNIT;\n\n/** A circle. */\nclass Circle\n{\n    public function describe(): string\n    {\n        return show(3.14) . UNIT;\n    }\n}\n",
        )
        .file(
            "src/Handler/Curl.php",
            "<?php\n\nnamespace App\\Handler;\n\n/** Sends requests. */\nclass Curl\n{\n    public function send($handle): void\n    {\n        curl_setopt_array($handle, []);\n    }\n}\n",
        )
        .file(
            "tests/bootstrap.php",
            "<?php\n\nnamespace App\\Handler;\n\nfunction curl_setopt_array($handle, array $options)\n{\n    $GLOBALS['options'] = $options;\n}\n",
        )
        .file(
            "tests/FunctionsTest.php",
            "<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass FunctionsTest extends TestCase\n{\n    public function testFormatsAnArea(): void\n    {\n        self::assertSame('1 m2', \\App\\format_area(1.0));\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn php_namespaced_functions_are_dependencies_on_the_file_declaring_them() {
    let p = functions_project();
    // `use function … as show` and `use const`; a fully qualified call from a test.
    let circle = p.read(".lexibrary/src/Shapes/Circle.php.md");
    assert_eq!(section(&circle, "Dependencies"), ["src/functions.php"]);
    assert!(!circle.contains("## External Dependencies"), "{circle}");
    let test = p.read(".lexibrary/tests/FunctionsTest.php.md");
    assert_eq!(section(&test, "Dependencies"), ["src/functions.php"]);
    // The bootstrap's `App\Handler\curl_setopt_array()` is loaded by the test runner only: no
    // dependency of the production code calling `curl_setopt_array()` in that namespace.
    let curl = p.read(".lexibrary/src/Handler/Curl.php.md");
    assert_eq!(section(&curl, "Dependencies"), Vec::<String>::new());
    p.lexi(["lookup", "src/functions.php", "--member", "format_area"])
        .success()
        .stdout_has("Called from: src/Shapes/Circle.php (Circle.describe); 1 test function in 1 test file (see Tests)");
    p.lexi(["lookup", "src/Shapes/Circle.php", "--member", "describe"])
        .success()
        .stdout_has("Calls elsewhere: format_area (src/functions.php)");
}

#[test]
fn a_php_function_declared_later_is_found_by_a_changed_only_run() {
    let p = functions_project();
    p.commit_all("library");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["validate"]).success();
    // A new function in the helpers file and a file calling it: a `--changed-only` run rebuilds
    // the model (a PHP file is one of its manifests) and resolves the call at once.
    let functions = p.read("src/functions.php")
        + "\n/** A request's timeout. */\nfunction timeout(): int\n{\n    return 30;\n}\n";
    p.write("src/functions.php", &functions);
    p.write(
        "src/Handler/Curl.php",
        "<?php\n\nnamespace App\\Handler;\n\nuse function App\\timeout;\n\n/** Sends requests. */\nclass Curl\n{\n    public function send($handle): void\n    {\n        curl_setopt_array($handle, [timeout()]);\n    }\n}\n",
    );
    p.commit_all("timeout");
    p.lexictl(["update", "--changed-only"]).success();
    let curl = p.read(".lexibrary/src/Handler/Curl.php.md");
    assert_eq!(section(&curl, "Dependencies"), ["src/functions.php"]);
    p.commit_all("library again");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["update"]).success();
    let status = p.git(["status", "--porcelain"]).success().stdout;
    assert_eq!(status, "", "a second update changed the library");
}
