//! C#'s projects and namespaces, as the compiler sees them. A `.csproj` is a project (an
//! assembly): it compiles every `.cs` file under its directory but those of a project nested
//! below, sees the types of the projects its `ProjectReference`s name (transitively), and adds
//! the global usings its build declares (`<Using Include="A.B" />` items of the project, of the
//! nearest `Directory.Build.props` and `Directory.Build.targets` and of the files they import)
//! to the `global using` directives of its files. A namespace is no file: the model lists, per
//! namespace, the files declaring a type of it (with the type's arity: ``Box`1`` is `Box<T>`) and
//! the extension methods their static classes declare, so that a name a file uses resolves to
//! the files declaring that type — every part of a partial type.
//!
//! A `.cs` file is a manifest of this model, as the project files are: what it declares decides
//! how other files resolve, so a `--changed-only` run that touches one rebuilds the model (a full
//! update); the model's fingerprint changes only when a declared type, extension method or global
//! using does.

use std::collections::BTreeMap;

use crate::relpath::RelPath;
use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{FileIndex, ReadFile};
use crate::source::model::packages::CodePackage;

/// C# files read for the model at most; past it, the rest are left out (a warning says so).
const MAX_FILES: usize = 50_000;

/// Build files' imports followed at most, from one project (`<Import Project="…" />` chains).
const MAX_IMPORTS: usize = 16;

/// The projects and the namespaces of a solution.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CSharpModel {
    /// Every `.csproj`, sorted by path.
    pub projects: Vec<Project>,
    /// By namespace (`""`: the global one), the files declaring its types, in path order. Empty
    /// when the tree has no C# file.
    pub namespaces: BTreeMap<String, Vec<TypeFile>>,
}

/// One project: its file, the projects it references and its global usings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Project {
    /// The `.csproj` file.
    pub file: String,
    /// The project files its `ProjectReference`s name, project-relative, sorted.
    pub references: Vec<String>,
    /// Its global usings, as its files' `using` entries are written (`A.B`, `static A.B.C`,
    /// `D=A.B.C` for an alias), sorted.
    pub usings: Vec<String>,
}

impl Project {
    /// The directory of its project file.
    pub fn dir(&self) -> &str {
        RelPath::new(&self.file).dir()
    }

    /// Its name: the project file's stem (`Polly.Core`).
    pub fn name(&self) -> &str {
        RelPath::new(&self.file).stem()
    }
}

/// One file of a namespace: its path, the types it declares there and their extension methods.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TypeFile {
    pub path: String,
    /// Sorted, deduplicated: `Box`, ``Box`1``.
    pub types: Vec<String>,
    /// The extension methods (`static … M(this T x)`) of its static classes, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
}

impl CSharpModel {
    /// The projects and namespaces of the C# files among `files`; none when no C# file is.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        let mut model = CSharpModel::default();
        let sources: Vec<&str> = files.under("").filter(|p| is_csharp_source(p)).collect();
        if sources.is_empty() {
            return model;
        }
        if sources.len() > MAX_FILES {
            warnings.push(format!(
                "{} C# files: the first {MAX_FILES} are read for name resolution",
                sources.len()
            ));
        }
        for file in files.under("").filter(|p| p.ends_with(".csproj")) {
            model.projects.push(read_project(files, read, file));
        }
        let mut parser = super::CSHARP.grammar.and_then(|grammar| {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&grammar()).ok().map(|_| parser)
        });
        let mut global: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for path in sources.into_iter().take(MAX_FILES) {
            let Some(text) = read.read(path) else {
                continue;
            };
            let Some(tree) = parser.as_mut().and_then(|p| p.parse(&text, None)) else {
                continue;
            };
            let root = tree.root_node();
            for (namespace, types) in super::extract::namespaces(root, &text) {
                let mut names: Vec<String> = types
                    .iter()
                    .filter_map(|t| super::extract::type_key(*t, &text))
                    .collect();
                names.sort();
                names.dedup();
                let mut extensions: Vec<String> = types
                    .iter()
                    .flat_map(|t| extension_methods(*t, &text))
                    .collect();
                extensions.sort();
                extensions.dedup();
                if !names.is_empty() {
                    model.add(namespace, path, names, extensions);
                }
            }
            if let Some(project) = model.project_index(path) {
                let usings = global_usings(root, &text);
                global.entry(project).or_default().extend(usings);
            }
        }
        for (project, usings) in global {
            model.projects[project].usings.extend(usings);
        }
        for project in &mut model.projects {
            project.usings.sort();
            project.usings.dedup();
        }
        model
    }

    /// Record `path` in `namespace`, declaring `types` with `extensions`.
    fn add(&mut self, namespace: String, path: &str, types: Vec<String>, extensions: Vec<String>) {
        let files = self.namespaces.entry(namespace).or_default();
        files.push(TypeFile {
            path: path.to_string(),
            types,
            extensions,
        });
        files.sort_by(|a, b| a.path.cmp(&b.path));
    }

    /// The index of the project compiling `file`: the one of the deepest directory holding it.
    pub fn project_index(&self, file: &str) -> Option<usize> {
        self.projects
            .iter()
            .enumerate()
            .filter(|(_, p)| p.dir().is_empty() || file.starts_with(&format!("{}/", p.dir())))
            .max_by_key(|(_, p)| p.dir().len())
            .map(|(at, _)| at)
    }

    /// The project files whose types a file of `project` sees: its own and those it references,
    /// transitively. `None` for a file of no project: it sees every project.
    pub fn visible(&self, project: Option<usize>) -> Option<Vec<&str>> {
        let start = &self.projects.get(project?)?.file;
        let mut seen: Vec<&str> = vec![start.as_str()];
        let mut at = 0;
        while at < seen.len() && seen.len() <= self.projects.len() {
            let current = seen[at];
            if let Some(p) = self.projects.iter().find(|p| p.file == current) {
                for reference in &p.references {
                    if !seen.contains(&reference.as_str()) {
                        seen.push(reference);
                    }
                }
            }
            at += 1;
        }
        Some(seen)
    }

    /// The files of `namespace` declaring type `key` (``Box`1``).
    pub fn declaring<'m>(&'m self, namespace: &str, key: &str) -> Vec<&'m str> {
        self.files_of(namespace, |file| file.types.iter().any(|t| t == key))
    }

    /// The files of `namespace` declaring a type named `name` of any arity (a qualified name's
    /// last part: `A.B.Box` of `A.B.Box<int>.Make()` is read without its type arguments).
    pub fn declaring_any_arity<'m>(&'m self, namespace: &str, name: &str) -> Vec<&'m str> {
        self.files_of(namespace, |file| {
            file.types.iter().any(|t| t.split('`').next() == Some(name))
        })
    }

    /// The files of `namespace` whose static classes declare the extension method `name`.
    pub fn extending<'m>(&'m self, namespace: &str, name: &str) -> Vec<&'m str> {
        self.files_of(namespace, |file| file.extensions.iter().any(|e| e == name))
    }

    fn files_of<'m>(&'m self, namespace: &str, keep: impl Fn(&TypeFile) -> bool) -> Vec<&'m str> {
        self.namespaces
            .get(namespace)
            .map(|files| {
                files
                    .iter()
                    .filter(|file| keep(file))
                    .map(|file| file.path.as_str())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether the project's files declare types in `namespace`.
    pub fn has_namespace(&self, namespace: &str) -> bool {
        self.namespaces.contains_key(namespace)
            || self
                .namespaces
                .keys()
                .any(|n| n.starts_with(namespace) && n[namespace.len()..].starts_with('.'))
    }
}

/// The extension methods a static class declares: its methods whose first parameter is `this`.
fn extension_methods(node: tree_sitter::Node<'_>, src: &str) -> Vec<String> {
    use crate::source::syntax::code_children;
    if node.kind() != "class_declaration"
        || !super::extract::modifier_words(node, src).contains(&"static")
    {
        return Vec::new();
    }
    code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "declaration_list")
        .flat_map(code_children)
        .filter(|m| m.kind() == "method_declaration")
        .filter(|m| {
            m.child_by_field_name("parameters")
                .and_then(|list| code_children(list).into_iter().next())
                .is_some_and(|first| {
                    let mut cursor = first.walk();
                    let found = first
                        .children(&mut cursor)
                        .any(|c| c.kind() == "modifier" && src.get(c.byte_range()) == Some("this"));
                    found
                })
        })
        .filter_map(|m| super::extract::declared_name(m, src).map(str::to_string))
        .collect()
}

/// The `global using` directives of a file, as its `using` entries are written.
fn global_usings(root: tree_sitter::Node<'_>, src: &str) -> Vec<String> {
    crate::source::syntax::code_children(root)
        .into_iter()
        .filter(|c| c.kind() == "using_directive" && super::extract::is_global_using(*c))
        .filter_map(|c| super::extract::using_of(c, src))
        .map(|import| match import.names.first() {
            Some(alias) => format!("{alias}={}", import.spec),
            None => import.spec,
        })
        .collect()
}

/// A project read from its file and the build files MSBuild reads around it.
fn read_project(files: &FileIndex, read: &dyn ReadFile, file: &str) -> Project {
    let dir = RelPath::new(file).dir().to_string();
    let mut build = Build::default();
    let nearest = |name: &str| -> Option<String> {
        let mut current = Some(RelPath::new(&dir));
        while let Some(at) = current {
            let candidate = at.join(name).into_string();
            if files.contains(&candidate) {
                return Some(candidate);
            }
            current = match at.as_str() {
                "" => None,
                _ => Some(at.parent().unwrap_or(RelPath::new(""))),
            };
        }
        None
    };
    if let Some(props) = nearest("Directory.Build.props") {
        build.read(files, read, &props, 0);
    }
    build.read(files, read, file, 0);
    if let Some(targets) = nearest("Directory.Build.targets") {
        build.read(files, read, &targets, 0);
    }
    let mut references: Vec<String> = build
        .references
        .iter()
        .filter_map(|(from, include)| resolve_path(from, include))
        .filter(|path| files.contains(path))
        .collect();
    references.sort();
    references.dedup();
    let mut usings = build.usings;
    usings.sort();
    usings.dedup();
    Project {
        file: file.to_string(),
        references,
        usings,
    }
}

/// What MSBuild's evaluation of a project gives the model, read as text: its properties (for the
/// conditions and imports that name them), its `ProjectReference`s and its `Using` items.
#[derive(Default)]
struct Build {
    properties: BTreeMap<String, String>,
    /// (the build file naming it, the path as written)
    references: Vec<(String, String)>,
    usings: Vec<String>,
    imports: usize,
}

impl Build {
    /// Read one build file: its properties, items and imports (followed when they name a file of
    /// the tree). An item group whose condition compares a property (`'$(P)' == 'true'`) is read
    /// only when it holds; any other condition is taken to hold.
    fn read(&mut self, files: &FileIndex, read: &dyn ReadFile, file: &str, depth: usize) {
        let Some(text) = read.read(file) else {
            return;
        };
        let mut group_holds = true;
        let mut property: Option<(String, usize)> = None;
        for (tag, at) in tags(&text) {
            let name = tag_name(tag);
            if let Some((open, start)) = &property {
                if name == format!("/{open}") {
                    let value = text.get(*start..at).unwrap_or("").trim().to_string();
                    self.properties.insert(open.clone(), value);
                    property = None;
                }
                continue;
            }
            match name {
                "ItemGroup" | "PropertyGroup" => {
                    group_holds = attribute(tag, "Condition").is_none_or(|c| self.holds(&c));
                }
                "/ItemGroup" | "/PropertyGroup" => group_holds = true,
                "Import" if depth < 4 && self.imports < MAX_IMPORTS => {
                    let Some(project) = attribute(tag, "Project") else {
                        continue;
                    };
                    if attribute(tag, "Condition").is_some_and(|c| !self.holds(&c)) {
                        continue;
                    }
                    let dir = RelPath::new(file).dir().to_string();
                    let expanded = self.expand(&project, &dir);
                    if let Some(path) = resolve_path(file, &expanded) {
                        if files.contains(&path) {
                            self.imports += 1;
                            self.read(files, read, &path, depth + 1);
                        }
                    }
                }
                "ProjectReference" if group_holds => {
                    if let Some(include) = attribute(tag, "Include") {
                        self.references.push((file.to_string(), include));
                    }
                }
                "Using" if group_holds => {
                    if let Some(include) = attribute(tag, "Include") {
                        let static_ = attribute(tag, "Static").is_some_and(|s| s == "true");
                        let using = match (attribute(tag, "Alias"), static_) {
                            (Some(alias), _) => format!("{alias}={include}"),
                            (None, true) => format!("{}{include}", super::extract::STATIC_SPEC),
                            (None, false) => include,
                        };
                        self.usings.push(using);
                    }
                }
                _ if !name.starts_with('/')
                    && !tag.ends_with('/')
                    && group_holds
                    && is_property_group_child(&text, at) =>
                {
                    property = Some((name.to_string(), at + tag.len() + 2));
                }
                _ => {}
            }
        }
    }

    /// Whether a condition holds: `'$(P)' == 'v'` and `'$(P)' != 'v'` by the properties read so
    /// far; any other condition is taken to hold.
    fn holds(&self, condition: &str) -> bool {
        let (op, negate) = match (condition.find("=="), condition.find("!=")) {
            (Some(at), _) => (at, false),
            (None, Some(at)) => (at, true),
            _ => return true,
        };
        let left = condition[..op].trim().trim_matches('\'');
        let right = condition[op + 2..].trim().trim_matches('\'');
        let Some(name) = left
            .strip_prefix("$(")
            .and_then(|rest| rest.strip_suffix(')'))
            .filter(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'))
        else {
            return true;
        };
        let value = self.properties.get(name).map(String::as_str).unwrap_or("");
        (value.eq_ignore_ascii_case(right)) != negate
    }

    /// A path with `$(MSBuildThisFileDirectory)` and the known properties put in.
    fn expand(&self, text: &str, dir: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("$(") {
            out.push_str(&rest[..start]);
            let inner = &rest[start + 2..];
            let Some(end) = inner.find(')') else {
                rest = &rest[start..];
                break;
            };
            let name = &inner[..end];
            if name.eq_ignore_ascii_case("MSBuildThisFileDirectory") {
                // Relative to the build file: `resolve_path` joins it.
            } else {
                out.push_str(self.properties.get(name).map(String::as_str).unwrap_or(""));
            }
            rest = &inner[end + 1..];
        }
        out.push_str(rest);
        let _ = dir;
        out
    }
}

/// Whether the tag at `at` sits in a `<PropertyGroup>` (the last group opened before it).
fn is_property_group_child(text: &str, at: usize) -> bool {
    let before = &text[..at];
    // The last `<name` that is that element, not one whose name starts so (`<TargetFrameworks>`).
    let last = |name: &str| {
        before.rmatch_indices(name).map(|(i, _)| i).find(|&i| {
            before[i + name.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_whitespace() || c == '>' || c == '/')
        })
    };
    let open = last("<PropertyGroup");
    let close = last("</PropertyGroup");
    let other = last("<ItemGroup").max(last("<Target"));
    match open {
        Some(open) => close.is_none_or(|c| c < open) && other.is_none_or(|o| o < open),
        None => false,
    }
}

/// The tags of an XML text (`<…>`, comments and declarations left out), each with the offset of
/// its `<`; a tag's text is what is between `<` and `>`.
fn tags(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = text[at..].find('<').map(|s| s + at) {
        if text[start..].starts_with("<!--") {
            at = text[start..]
                .find("-->")
                .map_or(text.len(), |end| start + end + 3);
            continue;
        }
        let Some(end) = text[start..].find('>').map(|e| e + start) else {
            break;
        };
        let tag = &text[start + 1..end];
        if !tag.starts_with('?') && !tag.starts_with('!') {
            out.push((tag, start));
        }
        at = end + 1;
    }
    out
}

/// A tag's element name (`/ItemGroup` for a closing tag).
fn tag_name(tag: &str) -> &str {
    tag.split(|c: char| c.is_whitespace() || c == '/' && !tag.starts_with('/'))
        .next()
        .unwrap_or("")
        .trim_end_matches('/')
}

/// The value of attribute `name` in a tag (`Include="a"`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut rest = tag;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().last();
        let after = rest[at + name.len()..].trim_start();
        if before.is_some_and(char::is_whitespace) {
            if let Some(value) = after.strip_prefix('=') {
                let value = value.trim_start();
                let quote = value.chars().next()?;
                if quote == '"' || quote == '\'' {
                    let inner = &value[1..];
                    return Some(inner[..inner.find(quote)?].to_string());
                }
            }
        }
        rest = &rest[at + name.len()..];
    }
    None
}

/// A path written in the build file `from` (`..\Polly.Core\Polly.Core.csproj`), project-relative;
/// `None` when it leaves the project.
fn resolve_path(from: &str, written: &str) -> Option<String> {
    let written = written.replace('\\', "/");
    let mut parts: Vec<&str> = RelPath::new(from)
        .dir()
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    for part in written.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` is a C# source file.
pub fn is_csharp_source(path: &str) -> bool {
    path.ends_with(".cs")
}

impl EcosystemModel for CSharpModel {
    const ECOSYSTEM: &'static str = "dotnet";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        CSharpModel::build(files, read, warnings)
    }

    /// A C# file (its types and global usings), a project file, or a build file around it.
    fn is_manifest(name: &str) -> bool {
        is_csharp_source(name)
            || name.ends_with(".csproj")
            || name.ends_with(".props")
            || name.ends_with(".targets")
    }

    fn is_empty(&self) -> bool {
        self.namespaces.is_empty() && self.projects.is_empty()
    }

    fn package_dirs(&self) -> Vec<String> {
        self.projects.iter().map(|p| p.dir().to_string()).collect()
    }

    /// Each project is a package, its directory its code; the directories of C# files no project
    /// directory holds (shared sources projects link with `<Compile Include="../Shared/*.cs">`)
    /// are one more, but for the files at the root (build scripts).
    fn code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
        let mut packages: Vec<CodePackage> = self
            .projects
            .iter()
            .map(|p| {
                CodePackage::new(
                    Self::ECOSYSTEM,
                    Some(p.name()),
                    p.dir(),
                    vec![p.dir().to_string()],
                )
            })
            .collect();
        let mut linked: Vec<String> = files
            .under("")
            .filter(|path| is_csharp_source(path) && self.project_index(path).is_none())
            .map(|path| RelPath::new(path).dir().to_string())
            .filter(|dir| !dir.is_empty())
            .collect();
        linked.sort();
        linked.dedup();
        if !self.projects.is_empty() && !linked.is_empty() {
            packages.push(CodePackage::new(
                Self::ECOSYSTEM,
                Some("linked sources"),
                "",
                linked,
            ));
        }
        packages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution() -> (CSharpModel, Vec<String>) {
        let (model, _, warnings) = crate::source::model::build_from(
            &[
                ("Directory.Build.targets", "<Project>\n  <ItemGroup>\n    <Using Include=\"System.Reflection\" />\n  </ItemGroup>\n  <ItemGroup Condition=\"'$(IncludeCoreUsings)' == 'true'\">\n    <Using Include=\"Core.Retry\" />\n  </ItemGroup>\n</Project>\n"),
                ("src/Core/Core.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <IncludeCoreUsings>true</IncludeCoreUsings>\n  </PropertyGroup>\n</Project>\n"),
                ("src/Core/Box.cs", "namespace Core;\n\npublic partial class Box<T> { }\ninternal static class BoxExtensions { public static void Open(this Box<int> b) { } }\n"),
                ("src/Core/Box.Part.cs", "namespace Core\n{\n    public partial class Box<T> { }\n    public class Box { }\n}\n"),
                ("src/Core/Usings.cs", "global using Core.Retry;\nglobal using static Core.Guard;\n"),
                ("test/Core.Tests/Core.Tests.csproj", "<Project>\n  <ItemGroup>\n    <ProjectReference Include=\"..\\..\\src\\Core\\Core.csproj\" />\n  </ItemGroup>\n  <ItemGroup>\n    <Using Include=\"Core.Tests.Helpers\" />\n  </ItemGroup>\n</Project>\n"),
                ("test/Core.Tests/BoxTests.cs", "namespace Core.Tests;\npublic class BoxTests { }\n"),
            ],
            CSharpModel::build,
        );
        (model, warnings)
    }

    #[test]
    fn projects_their_references_and_global_usings() {
        let (model, warnings) = solution();
        assert!(warnings.is_empty());
        let files: Vec<&str> = model.projects.iter().map(|p| p.file.as_str()).collect();
        assert_eq!(
            files,
            ["src/Core/Core.csproj", "test/Core.Tests/Core.Tests.csproj"]
        );
        assert_eq!(
            model.projects[0].usings,
            ["Core.Retry", "System.Reflection", "static Core.Guard"]
        );
        assert_eq!(
            model.projects[1].usings,
            ["Core.Tests.Helpers", "System.Reflection"]
        );
        assert_eq!(model.projects[1].references, ["src/Core/Core.csproj"]);
        let tests = model.project_index("test/Core.Tests/BoxTests.cs");
        assert_eq!(
            model.visible(tests),
            Some(vec![
                "test/Core.Tests/Core.Tests.csproj",
                "src/Core/Core.csproj"
            ])
        );
        assert_eq!(model.visible(model.project_index("tools/x.cs")), None);
    }

    /// Polly's layout: `Directory.Build.targets` imports `eng/$(ProjectType).targets`, which sets
    /// a property an item group of usings is conditioned on, after the import.
    #[test]
    fn imported_build_files_bring_usings_and_properties() {
        let (model, _, _) = crate::source::model::build_from(
            &[
                ("Directory.Build.targets", "<Project>\n  <Import Project=\"$(MsBuildThisFileDirectory)eng/$(ProjectType).targets\" Condition=\"$(ProjectType) != ''\" />\n  <ItemGroup Condition=\"'$(IncludeCoreUsings)' == 'true'\">\n    <Using Include=\"Core.Retry\" />\n  </ItemGroup>\n</Project>\n"),
                ("eng/Test.targets", "<Project>\n  <PropertyGroup>\n    <IncludeCoreUsings>true</IncludeCoreUsings>\n  </PropertyGroup>\n  <ItemGroup>\n    <Using Include=\"Xunit\" />\n  </ItemGroup>\n</Project>\n"),
                ("test/A.Tests/A.Tests.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFrameworks>net8.0</TargetFrameworks>\n    <ProjectType>Test</ProjectType>\n  </PropertyGroup>\n</Project>\n"),
                ("test/A.Tests/ATests.cs", "namespace A.Tests;\npublic class ATests { }\n"),
                ("src/B/B.csproj", "<Project />\n"),
                ("src/B/B.cs", "namespace B;\npublic class B { }\n"),
            ],
            CSharpModel::build,
        );
        assert_eq!(model.projects[1].usings, ["Core.Retry", "Xunit"]);
        assert!(model.projects[0].usings.is_empty());
    }

    #[test]
    fn namespaces_list_their_types_by_arity_and_extension_methods() {
        let (model, _) = solution();
        assert_eq!(
            model.declaring("Core", "Box`1"),
            ["src/Core/Box.Part.cs", "src/Core/Box.cs"]
        );
        assert_eq!(model.declaring("Core", "Box"), ["src/Core/Box.Part.cs"]);
        assert_eq!(model.extending("Core", "Open"), ["src/Core/Box.cs"]);
        assert!(model.has_namespace("Core") && !model.has_namespace("Cor"));
        assert!(CSharpModel::is_manifest("Box.cs") && CSharpModel::is_manifest("Core.csproj"));
    }
}
