//! PHP: a class name the file uses (resolved by the extraction through its namespace and `use`
//! statements, `source::lang::php::extract`) depends on the file composer's autoloader loads for
//! it — the first that exists of the files its autoload maps name (`source::lang::php::model`:
//! PSR-4, PSR-0, longest prefix first); a `require`/`include` of a path built from `__DIR__` on
//! that file. A function the file calls (or a constant a `use const` names) depends on the
//! project file declaring it (`source::lang::php::declared`): the first of the names PHP tries
//! (`A\f`, then the global `f` for an unqualified call in namespace `A`) that a file declares.
//! A function declared only in a test file (a test bootstrap's `curl_setopt_array()` in the
//! namespace of the code it intercepts) is no dependency of code outside the tests: the test
//! runner alone loads that file, and there PHP's fallback reaches the global function. A function
//! no project file declares (PHP's own, an extension's, a dependency's) is left out, neither
//! unresolved nor external. A class of the PHP runtime (`\Exception`, `Closure`), of a dependency
//! (`Psr\Http\Message\…`) or a namespace named by a `use` (`use Slim\Exception;`) names no file and
//! stays unresolved; `crate::source::resolve::externals` names a dependency's namespace.

use crate::source::interface::Interface;
use crate::source::lang::files::is_test_path;
use crate::source::lang::php::extract::{CONST_SPEC, FUNCTION_SPEC, REQUIRE_SPEC};
use crate::source::lang::php::model::PhpModel;
use crate::source::model::files::{dir_of, normalize};
use crate::source::resolve::{Collected, Context};

/// Record the dependencies of `file` from the classes it names and the files it requires.
pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let model = &context.model.php;
    for import in &interface.imports {
        let spec = import.spec.as_str();
        if let Some(declared) = declared_in(file, spec, model) {
            if let Some(path) = declared {
                out.record(spec, Some(path));
            }
            continue;
        }
        let found = match spec.strip_prefix(REQUIRE_SPEC) {
            Some(path) => normalize(dir_of(file), path).filter(|path| (context.exists)(path)),
            None => model
                .candidates(spec)
                .into_iter()
                .find(|path| (context.exists)(path)),
        };
        out.record(spec, found);
    }
}

/// For a function or constant spec, the project file declaring what it names (`Some(None)`: no
/// file `file` may depend on declares it); `None` for any other spec.
fn declared_in(file: &str, spec: &str, model: &PhpModel) -> Option<Option<String>> {
    let (names, function) = match spec.strip_prefix(FUNCTION_SPEC) {
        Some(names) => (names, true),
        None => (spec.strip_prefix(CONST_SPEC)?, false),
    };
    let from_tests = is_test_path(file);
    let found = names.split(',').find_map(|name| {
        let files = match function {
            true => model.function_files(name),
            false => model.constant_files(name),
        };
        files
            .iter()
            .find(|path| from_tests || !is_test_path(path))
            .cloned()
    });
    Some(found.filter(|path| path != file))
}

/// The namespace of a dependency a class name names (`Psr\Http` of
/// `Psr\Http\Message\ResponseInterface`: its first two segments); `None` for a class of the global
/// namespace (the PHP runtime's, an extension's), one under a prefix of the project's own
/// autoload maps, and a required path.
pub(crate) fn external_package(spec: &str, context: &Context<'_>) -> Option<String> {
    let named = [REQUIRE_SPEC, FUNCTION_SPEC, CONST_SPEC];
    if named.iter().any(|prefix| spec.starts_with(prefix)) || context.model.php.owns(spec) {
        return None;
    }
    let segments: Vec<&str> = spec.split('\\').collect();
    let namespace = &segments[..segments.len().saturating_sub(1)];
    (!namespace.is_empty()).then(|| namespace[..namespace.len().min(2)].join("\\"))
}

#[cfg(test)]
mod tests {
    use crate::source::resolve::testing::Files;

    fn project() -> Files {
        Files::new(&[
            (
                "composer.json",
                r#"{"autoload": {"psr-4": {"App\\": "src/"}, "files": ["src/functions.php"]}, "autoload-dev": {"psr-4": {"App\\Tests\\": "tests/"}}}"#,
            ),
            ("src/functions.php", "<?php\nnamespace App;\nfunction helper() {}\n"),
            (
                "src/Routing/Route.php",
                "<?php\nnamespace App\\Routing;\n\nuse App\\Http;\nuse Psr\\Log\\LoggerInterface;\n\nclass Route extends Base {\n  public function run(Http\\Request $r, LoggerInterface $l): \\Closure {\n    require_once __DIR__ . '/../functions.php';\n    require __DIR__ . '/missing.php';\n    throw new \\RuntimeException();\n  }\n}\n",
            ),
            ("src/Routing/Base.php", "<?php\nnamespace App\\Routing;\nabstract class Base {}\n"),
            ("src/Http/Request.php", "<?php\nnamespace App\\Http;\nclass Request {}\n"),
            (
                "tests/Routing/RouteTest.php",
                "<?php\nnamespace App\\Tests\\Routing;\n\nuse App\\Routing\\Route;\nuse App\\Tests\\TestCase;\nuse App\\Gone;\n\nclass RouteTest extends TestCase {\n  public function testRuns() { (new Route())->run(); }\n}\n",
            ),
            ("tests/TestCase.php", "<?php\nnamespace App\\Tests;\nclass TestCase extends \\PHPUnit\\Framework\\TestCase {}\n"),
        ])
    }

    #[test]
    fn functions_resolve_to_the_file_declaring_them_by_php_rules() {
        let files = Files::new(&[
            (
                "composer.json",
                r#"{"autoload": {"psr-4": {"App\\": "src/"}, "files": ["src/functions.php"]}}"#,
            ),
            (
                "src/functions.php",
                "<?php\nnamespace App;\nconst VERSION = 1;\nfunction helper() { return helper(); }\n",
            ),
            ("src/global.php", "<?php\nfunction global_helper() {}\n"),
            (
                "src/Routing/Route.php",
                "<?php\nnamespace App\\Routing;\nuse function App\\helper as h;\nuse const App\\VERSION;\nclass Route { function run() { h(); curl_setopt_array(); global_helper(); strlen(''); } }\n",
            ),
            (
                "src/Uses.php",
                "<?php\nnamespace App\\Other;\n\\App\\helper();\nhelper();\n",
            ),
            (
                "tests/bootstrap.php",
                "<?php\nnamespace App\\Routing;\nfunction curl_setopt_array() {}\n",
            ),
            (
                "tests/RouteTest.php",
                "<?php\nnamespace App\\Routing;\ncurl_setopt_array();\nhelper();\n",
            ),
        ]);
        // Through `use function` and `use const`, the global fallback, never into a test file.
        assert_eq!(
            files.deps("src/Routing/Route.php"),
            ["src/functions.php", "src/global.php"]
        );
        let route = files.resolve("src/Routing/Route.php");
        assert!(route.unresolved.is_empty(), "{:?}", route.unresolved);
        assert!(route.externals.is_empty(), "{:?}", route.externals);
        // A fully qualified call; an unqualified `helper()` in `App\Other` is `App\Other\helper`,
        // else the global `helper`: neither is `App\helper`.
        assert_eq!(files.deps("src/Uses.php"), ["src/functions.php"]);
        // A test reaches its bootstrap's function; a file calling itself is no dependency.
        assert_eq!(files.deps("tests/RouteTest.php"), ["tests/bootstrap.php"]);
        assert!(files.deps("src/functions.php").is_empty());
    }

    #[test]
    fn class_names_resolve_through_the_autoload_maps() {
        let files = project();
        assert_eq!(
            files.deps("src/Routing/Route.php"),
            [
                "src/Http/Request.php",
                "src/Routing/Base.php",
                "src/functions.php"
            ]
        );
        let resolution = files.resolve("src/Routing/Route.php");
        assert_eq!(
            resolution.unresolved,
            [
                "App\\Http",
                "Psr\\Log\\LoggerInterface",
                "Closure",
                "require:missing.php",
                "RuntimeException"
            ]
        );
        assert_eq!(resolution.externals, ["Psr\\Log"]);
        assert_eq!(
            files.deps("tests/Routing/RouteTest.php"),
            ["src/Routing/Route.php", "tests/TestCase.php"]
        );
        let test = files.resolve("tests/Routing/RouteTest.php");
        assert_eq!(test.unresolved, ["App\\Gone"]);
        assert!(test.externals.is_empty());
        assert_eq!(
            files.resolve("tests/TestCase.php").externals,
            ["PHPUnit\\Framework"]
        );
    }
}
