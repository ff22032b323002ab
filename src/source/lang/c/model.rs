//! The include directories of a C or C++ project: where `#include` looks after the including
//! file's own directory, as the build tells the compiler — `-I`, `-isystem` and `-iquote` flags of
//! a `compile_commands.json` (the build's own record), CMake's `include_directories` and
//! `target_include_directories`, Makefile `-I` flags (`Makefile`, `GNUmakefile`, automake's
//! `Makefile.am`), then every directory named `include` that holds a header (the convention a
//! build without flags follows). In that order, each once: one list for the whole project (a
//! target's flags are not told apart from another's: an include a target's own flags resolve
//! is resolved for every file).
//!
//! CMake's variables are read where they name a source directory (`${PROJECT_SOURCE_DIR}`,
//! `${CMAKE_SOURCE_DIR}`, `${CMAKE_CURRENT_SOURCE_DIR}`, `${CMAKE_CURRENT_LIST_DIR}`) and
//! `$<BUILD_INTERFACE:…>` is read through; a directory under any other variable or generator
//! expression (a build directory, an install path) is left out. Make's `$(srcdir)`,
//! `$(top_srcdir)` and `$(CURDIR)` are the Makefile's directory.

use serde::{Deserialize, Serialize};

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{dir_of, file_name, normalize, FileIndex, ReadFile};
use crate::source::model::packages::CodePackage;

/// The project's include directories, project-relative (`""`: the root), in search order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncludeModel {
    pub dirs: Vec<String>,
    /// Every file an include may name (headers and sources), sorted: a file added or removed
    /// moves the model, so that every include is resolved again (a new header beside a source
    /// shadows the include directory's for a quoted include).
    pub files: Vec<String>,
}

/// Makefiles whose `-I` flags are read.
const MAKEFILES: &[&str] = &["Makefile", "makefile", "GNUmakefile", "Makefile.am"];

/// Extensions of the files an include names (headers, and the sources some projects include).
const INCLUDED: &[&str] = &[
    "h", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "inl", "inc", "def", "c", "cc", "cpp", "cxx",
];

impl IncludeModel {
    /// The include directories of the tree's build files.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        let mut model = IncludeModel::default();
        for path in files.named("compile_commands.json") {
            match read.read(path) {
                Some(text) => model.compile_commands(files, path, &text, warnings),
                None => warnings.push(format!("{path}: cannot be read")),
            }
        }
        for path in files.named("CMakeLists.txt") {
            if let Some(text) = read.read(path) {
                model.cmake(dir_of(path), &text);
            }
        }
        for path in files
            .under("")
            .filter(|p| MAKEFILES.contains(&file_name(p)))
        {
            if let Some(text) = read.read(path) {
                model.makefile(dir_of(path), &text);
            }
        }
        let mut conventional: Vec<String> = files
            .under("")
            .filter(|path| is_header(path))
            .filter_map(|path| {
                let parts: Vec<&str> = path.split('/').collect();
                let at = parts[..parts.len() - 1]
                    .iter()
                    .position(|part| *part == "include")?;
                Some(parts[..=at].join("/"))
            })
            .collect();
        conventional.sort();
        conventional.dedup();
        for dir in conventional {
            model.push(dir);
        }
        model.files = files
            .under("")
            .filter(|path| may_be_included(path))
            .map(str::to_string)
            .collect();
        model
    }

    /// Add a directory at the end of the search order, once.
    fn push(&mut self, dir: String) {
        if !self.dirs.contains(&dir) {
            self.dirs.push(dir);
        }
    }

    /// The `-I`, `-isystem` and `-iquote` directories of a compilation database; its absolute
    /// paths are made project-relative through an entry's file that is a project file.
    fn compile_commands(
        &mut self,
        files: &FileIndex,
        path: &str,
        text: &str,
        warnings: &mut Vec<String>,
    ) {
        let entries: Vec<serde_json::Value> = match serde_json::from_str(text) {
            Ok(serde_json::Value::Array(entries)) => entries,
            Ok(_) => {
                warnings.push(format!("{path}: not a JSON array of compile commands"));
                return;
            }
            Err(error) => {
                warnings.push(format!("{path}:{}: not valid JSON: {error}", error.line()));
                return;
            }
        };
        let mut root: Option<String> = None;
        let mut found: Vec<(String, String)> = Vec::new();
        for entry in &entries {
            let field = |name: &str| entry.get(name).and_then(|v| v.as_str()).unwrap_or("");
            let directory = field("directory").trim_end_matches('/');
            let file = field("file");
            let absolute_file = match file.starts_with('/') {
                true => file.to_string(),
                false => format!("{directory}/{file}"),
            };
            if root.is_none() {
                root = project_root(files, &absolute_file);
            }
            let arguments: Vec<String> = match entry.get("arguments").and_then(|a| a.as_array()) {
                Some(list) => list
                    .iter()
                    .filter_map(|a| a.as_str().map(str::to_string))
                    .collect(),
                None => field("command")
                    .split_whitespace()
                    .map(|a| a.trim_matches('"').to_string())
                    .collect(),
            };
            for dir in include_flags(&arguments) {
                let absolute = match dir.starts_with('/') {
                    true => dir,
                    false => format!("{directory}/{dir}"),
                };
                found.push((directory.to_string(), absolute));
            }
        }
        let Some(root) = root else {
            return;
        };
        for (_, absolute) in found {
            let relative = match absolute.strip_prefix(&root) {
                Some(rest) if rest.is_empty() || rest.starts_with('/') => rest,
                _ => continue,
            };
            if let Some(dir) = normalize("", relative) {
                self.push(dir);
            }
        }
    }

    /// `include_directories(…)` and `target_include_directories(target …)` of a CMakeLists.txt.
    fn cmake(&mut self, dir: &str, text: &str) {
        let text = strip_cmake_comments(text);
        let lower = text.to_ascii_lowercase();
        for command in ["target_include_directories", "include_directories"] {
            let mut from = 0;
            while let Some(at) = lower[from..].find(command) {
                let start = from + at;
                from = start + command.len();
                let before = lower[..start].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = lower[from..].trim_start();
                if !rest.starts_with('(') {
                    continue;
                }
                let open = from + (lower[from..].len() - rest.len());
                let Some(close) = text[open..].find(')') else {
                    continue;
                };
                let arguments = arguments_of(&text[open + 1..open + close]);
                let skip = usize::from(command == "target_include_directories");
                for argument in arguments.into_iter().skip(skip) {
                    if let Some(found) = cmake_dir(dir, &argument) {
                        self.push(found);
                    }
                }
            }
        }
    }

    /// The `-I` flags of a Makefile.
    fn makefile(&mut self, dir: &str, text: &str) {
        let words: Vec<String> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("ACLOCAL_AMFLAGS"))
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect();
        for flag in include_flags(&words) {
            let mut flag = flag;
            for variable in ["$(srcdir)", "$(top_srcdir)", "$(CURDIR)", "${srcdir}"] {
                flag = flag.replace(variable, ".");
            }
            if flag.contains(['$', '{', '}', '*']) || flag.starts_with('/') {
                continue;
            }
            if let Some(found) = normalize(dir, &flag) {
                self.push(found);
            }
        }
    }
}

/// The directories of a command line's `-I dir`, `-Idir`, `-isystem dir`, `-iquote dir` flags.
fn include_flags(arguments: &[String]) -> Vec<String> {
    let mut dirs = Vec::new();
    let mut iter = arguments.iter();
    while let Some(argument) = iter.next() {
        let argument = argument.trim_matches(['"', '\'']);
        for flag in ["-isystem", "-iquote", "-I"] {
            if let Some(rest) = argument.strip_prefix(flag) {
                let dir = match rest.is_empty() {
                    true => iter.next().map(|d| d.trim_matches(['"', '\'']).to_string()),
                    false => Some(rest.to_string()),
                };
                dirs.extend(dir.filter(|d| !d.is_empty() && !d.starts_with('-')));
                break;
            }
        }
    }
    dirs
}

/// The absolute directory of the project's root, from a compile command's absolute file path
/// ending in a project file's path.
fn project_root(files: &FileIndex, absolute: &str) -> Option<String> {
    let parts: Vec<&str> = absolute.split('/').collect();
    (1..parts.len()).find_map(|at| {
        let relative = parts[at..].join("/");
        files.contains(&relative).then(|| parts[..at].join("/"))
    })
}

/// A CMake file without its `#` comments.
fn strip_cmake_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find('#') {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A CMake command's arguments, unquoted.
fn arguments_of(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|word| word.trim_matches('"').to_string())
        .filter(|word| !word.is_empty())
        .collect()
}

/// The directory a CMake include-directory argument names, project-relative; `None` for a
/// keyword, a build or install directory, or a path under a variable not known here.
fn cmake_dir(dir: &str, argument: &str) -> Option<String> {
    const KEYWORDS: &[&str] = &[
        "SYSTEM",
        "BEFORE",
        "AFTER",
        "PUBLIC",
        "PRIVATE",
        "INTERFACE",
    ];
    if KEYWORDS.contains(&argument) {
        return None;
    }
    let mut path = argument.to_string();
    if let Some(inner) = path
        .strip_prefix("$<BUILD_INTERFACE:")
        .and_then(|rest| rest.strip_suffix('>'))
    {
        path = inner.to_string();
    }
    let mut absolute = false;
    for (variable, root) in [
        ("${PROJECT_SOURCE_DIR}", true),
        ("${CMAKE_SOURCE_DIR}", true),
        ("${CMAKE_CURRENT_SOURCE_DIR}", false),
        ("${CMAKE_CURRENT_LIST_DIR}", false),
    ] {
        if let Some(rest) = path.strip_prefix(variable) {
            absolute = root;
            path = format!(".{rest}");
            break;
        }
    }
    if path.contains('$') || path.starts_with('/') {
        return None;
    }
    normalize(if absolute { "" } else { dir }, &path)
}

/// Whether a path names a header.
fn is_header(path: &str) -> bool {
    let name = file_name(path);
    name.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(
            ext.to_ascii_lowercase().as_str(),
            "h" | "hh" | "hpp" | "hxx" | "h++" | "ipp" | "tpp" | "inl"
        )
    })
}

/// Whether a path is a file an `#include` may name: its existence can change what an include
/// resolves to.
pub(crate) fn may_be_included(path: &str) -> bool {
    let name = file_name(path);
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| INCLUDED.contains(&ext.to_ascii_lowercase().as_str()))
}

impl EcosystemModel for IncludeModel {
    const ECOSYSTEM: &'static str = "c";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        IncludeModel::build(files, read, warnings)
    }

    fn is_manifest(name: &str) -> bool {
        name == "compile_commands.json" || name == "CMakeLists.txt" || MAKEFILES.contains(&name)
    }

    /// A header or source file: an include searched through several directories lands on the
    /// first that has it, and an `include/` directory is one when it holds a header.
    fn shaped_by(path: &str) -> bool {
        may_be_included(path)
    }

    fn is_empty(&self) -> bool {
        self.dirs.is_empty() && self.files.is_empty()
    }

    /// One package at the root: the top-level directories holding C or C++ files — `include/`
    /// with the API's headers as well as `src/` and the tests — or the whole project when the
    /// root holds some (hiredis's `hiredis.c`).
    fn code_packages(&self, _: &FileIndex) -> Vec<CodePackage> {
        if self.files.iter().any(|path| !path.contains('/')) {
            return vec![CodePackage::new(
                Self::ECOSYSTEM,
                None,
                "",
                vec![String::new()],
            )];
        }
        let mut roots: Vec<String> = self
            .files
            .iter()
            .map(|path| path.split('/').next().unwrap_or(path).to_string())
            .collect();
        roots.sort();
        roots.dedup();
        match roots.is_empty() {
            true => Vec::new(),
            false => vec![CodePackage::new(Self::ECOSYSTEM, None, "", roots)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(files: &[(&str, &str)]) -> IncludeModel {
        let (model, _, warnings) = crate::source::model::build_from(files, IncludeModel::build);
        assert!(warnings.is_empty(), "{warnings:?}");
        model
    }

    #[test]
    fn cmake_and_makefile_flags_then_conventional_include_directories() {
        let found = model(&[
            (
                "CMakeLists.txt",
                "target_include_directories(\n  fmt PUBLIC\n  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>\n  $<INSTALL_INTERFACE:${FMT_INC_DIR}>)\n# include_directories(ignored)\n",
            ),
            (
                "test/CMakeLists.txt",
                "target_include_directories(gtest SYSTEM PUBLIC .)\ninclude_directories(${CMAKE_CURRENT_SOURCE_DIR}/../third ${PROJECT_BINARY_DIR}/include)\n",
            ),
            (
                "Makefile.am",
                "ACLOCAL_AMFLAGS = -I config/m4\nAM_CPPFLAGS = -I$(srcdir)/src -I$(srcdir)/vendor -I/usr/include\nfuzz:\n\tfind . | xargs -I{} cp {} x\n",
            ),
            ("include/fmt/base.h", ""),
            ("lib/include/x.h", ""),
        ]);
        assert_eq!(
            found.dirs,
            ["include", "test", "third", "src", "vendor", "lib/include"]
        );
    }

    #[test]
    fn compile_commands_flags_are_made_project_relative() {
        let database = r#"[{"directory": "/home/u/p/build", "file": "/home/u/p/src/a.c",
            "command": "cc -I/home/u/p/inc -I ../gen -isystem /usr/include -c ../src/a.c"}]"#;
        let found = model(&[("compile_commands.json", database), ("src/a.c", "")]);
        assert_eq!(found.dirs, ["inc", "gen"]);
    }

    #[test]
    fn a_broken_compilation_database_is_a_warning_with_its_line() {
        let (_, _, warnings) = crate::source::model::build_from(
            &[("compile_commands.json", "[\n{\"directory\": }\n")],
            IncludeModel::build,
        );
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with("compile_commands.json:2: not valid JSON"),
            "{warnings:?}"
        );
    }
}
