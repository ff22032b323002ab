//! PHP: a class name the file uses (resolved by the extraction through its namespace and `use`
//! statements, `source::lang::php::extract`) depends on the file composer's autoloader loads for
//! it — the first that exists of the files its autoload maps name (`source::lang::php::model`:
//! PSR-4, PSR-0, longest prefix first); a `require`/`include` of a path built from `__DIR__` on
//! that file. A class of the PHP runtime (`\Exception`, `Closure`), of a dependency
//! (`Psr\Http\Message\…`) or a namespace named by a `use` (`use Slim\Exception;`) names no file and
//! stays unresolved; `crate::source::resolve::externals` names a dependency's namespace.

use crate::source::interface::Interface;
use crate::source::lang::php::extract::REQUIRE_SPEC;
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

/// The namespace of a dependency a class name names (`Psr\Http` of
/// `Psr\Http\Message\ResponseInterface`: its first two segments); `None` for a class of the global
/// namespace (the PHP runtime's, an extension's), one under a prefix of the project's own
/// autoload maps, and a required path.
pub(crate) fn external_package(spec: &str, context: &Context<'_>) -> Option<String> {
    if spec.starts_with(REQUIRE_SPEC) || context.model.php.owns(spec) {
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
