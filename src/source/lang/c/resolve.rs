//! C and C++ includes resolved as the compiler searches for them: `#include "a.h"` in the
//! including file's directory first, then in the project's include directories
//! ([`super::model::IncludeModel`]); `#include <a/b.h>` in the include directories only — a system
//! header (`<stdio.h>`) or a library's found in none of them is external and resolves to nothing.
//! The first directory that has the file wins; a path leaving the project resolves to nothing.

use crate::source::interface::Interface;
use crate::source::model::files::{dir_of, normalize};
use crate::source::resolve::{Collected, Context};

pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let dirs = &context.model.c.dirs;
    for import in &interface.imports {
        let spec = import.spec.as_str();
        let found = include_target(file, spec, dirs, context.exists);
        out.record(spec, found);
    }
}

/// The project file an include spec (`"a.h"`, `<a/b.h>`, delimiters included) names from `file`.
pub(crate) fn include_target(
    file: &str,
    spec: &str,
    dirs: &[String],
    exists: &(dyn Fn(&str) -> bool + Sync),
) -> Option<String> {
    let (quoted, path) = match (spec.strip_prefix('"'), spec.strip_prefix('<')) {
        (Some(rest), _) => (true, rest.strip_suffix('"')?),
        (_, Some(rest)) => (false, rest.strip_suffix('>')?),
        _ => return None,
    };
    if path.starts_with('/') || path.contains('\\') {
        return None;
    }
    let own = quoted.then(|| dir_of(file));
    own.into_iter()
        .chain(dirs.iter().map(String::as_str))
        .filter_map(|dir| normalize(dir, path))
        .find(|candidate| exists(candidate))
}

#[cfg(test)]
mod tests {
    use crate::source::resolve::testing::Files;

    fn files() -> Files {
        Files::new(&[
            ("CMakeLists.txt", "include_directories(include)\n"),
            ("include/lib/api.h", "#include \"detail.h\"\n#include <stdio.h>\nint api(void);\n"),
            ("include/lib/detail.h", "int detail(void);\n"),
            ("src/api.c", "#include <lib/api.h>\n#include \"local.h\"\n#include \"../include/lib/detail.h\"\n#include \"lib/api.h\"\nint api(void) { return 0; }\n"),
            ("src/local.h", "#define LOCAL 1\n"),
            ("local.h", "#define ROOT 1\n"),
            ("examples/ex.c", "#include \"local.h\"\n#include <local.h>\n#include \"config.h\"\n"),
        ])
    }

    #[test]
    fn quoted_includes_search_the_files_directory_first_then_the_include_directories() {
        let files = files();
        let resolved = files.resolve("src/api.c");
        assert_eq!(
            resolved.deps,
            ["include/lib/api.h", "include/lib/detail.h", "src/local.h"]
        );
        assert!(resolved.unresolved.is_empty(), "{:?}", resolved.unresolved);
        assert_eq!(files.deps("include/lib/api.h"), ["include/lib/detail.h"]);
        assert_eq!(files.resolve("include/lib/api.h").unresolved, ["<stdio.h>"]);
    }

    #[test]
    fn angle_includes_search_only_the_include_directories() {
        let files = files();
        let resolved = files.resolve("examples/ex.c");
        // `"local.h"` is not beside examples/ex.c nor in include/: nothing; `<local.h>` neither
        // (the root is no include directory here); a generated `config.h` is missing.
        assert!(resolved.deps.is_empty(), "{:?}", resolved.deps);
        assert_eq!(
            resolved.unresolved,
            ["\"local.h\"", "<local.h>", "\"config.h\""]
        );
    }
}
