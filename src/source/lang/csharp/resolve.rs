//! C#: a name a file uses resolves to the files declaring that type (`source::lang::csharp::
//! model`), never to a namespace, as the compiler looks it up: in the namespace the file
//! declares, then each parent namespace (`A.B.C`, `A.B`, `A`, the global one), then the
//! namespaces its `using` directives and its project's global usings bring in. Generic types are
//! told apart by arity (`Box<int>` is ``Box`1``); every part of a partial type is a declaring file.
//! A dotted name (`A.B.Box`) resolves through its namespace, absolute or relative to the file's;
//! `using static A.B.T;` and `using D = A.B.T;` name the file declaring `T`; a member called after
//! a `.` that is an extension method of a namespace in scope names the file declaring it (the
//! compiler binds `builder.AddRetry()` so when the type has no such method of its own).
//!
//! Only the files of the projects the file's project sees are candidates: its own and the ones
//! its `ProjectReference`s name, transitively (a file under no project sees every project). A
//! `using` of a namespace no project file declares is left unresolved, and
//! `crate::source::resolve::externals` names it (the standard library's `System.*` left out).

use crate::source::interface::Interface;
use crate::source::lang::csharp::extract::{NAMESPACE_SPEC, STATIC_SPEC};
use crate::source::lang::csharp::model::CSharpModel;
use crate::source::resolve::{Collected, Context};

/// Record the dependencies of `file` from its usings and the names it uses.
pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let model = &context.model.csharp;
    let scope = Scope::of(file, interface, model);
    let Some(entry) = interface
        .imports
        .iter()
        .find(|import| import.spec.starts_with(NAMESPACE_SPEC))
    else {
        return;
    };
    for using in &scope.usings {
        match using {
            Using::Namespace(namespace) if !model.has_namespace(namespace) => {
                if scope.written.contains(namespace) {
                    out.record(namespace, None);
                }
            }
            // Relative to the file's namespace: no longer the written spec, and resolved.
            Using::Namespace(_) => {}
            Using::Static(ty) | Using::Alias(_, ty) => {
                let found = scope.qualified(model, ty);
                let spec = match using {
                    Using::Static(_) => format!("{STATIC_SPEC}{ty}"),
                    _ => ty.clone(),
                };
                if found.is_empty() && scope.written.contains(&spec) && !model.has_namespace(ty) {
                    out.record(&spec, None);
                }
                for path in found {
                    out.record(&spec, Some(path));
                }
            }
        }
    }
    for name in &entry.names {
        let found = match name.as_bytes().first() {
            Some(b'.') => scope.extension(model, &name[1..]),
            Some(b'~') => scope.qualified(model, &name[1..]),
            _ => scope.simple(model, name),
        };
        for path in found {
            out.record(&entry.spec, Some(path));
        }
    }
}

/// One `using`: of a namespace, of a type's static members, or an alias of a type or namespace.
enum Using {
    Namespace(String),
    Static(String),
    Alias(String, String),
}

/// What a file sees: its namespaces and their parents, its usings and its project's.
struct Scope<'m> {
    file: String,
    /// The namespaces searched first, innermost first, the global one (`""`) last.
    chain: Vec<String>,
    usings: Vec<Using>,
    /// The specs of the file's own `using` directives (its project's are not its to report).
    written: Vec<String>,
    /// The project files it sees; `None`: every one.
    visible: Option<Vec<&'m str>>,
}

impl<'m> Scope<'m> {
    fn of(file: &str, interface: &Interface, model: &'m CSharpModel) -> Scope<'m> {
        let project = model.project_index(file);
        let mut chain: Vec<String> = Vec::new();
        let mut usings: Vec<Using> = Vec::new();
        let mut written: Vec<String> = Vec::new();
        for import in &interface.imports {
            if let Some(namespace) = import.spec.strip_prefix(NAMESPACE_SPEC) {
                let mut current = namespace;
                loop {
                    if !chain.iter().any(|c| c == current) {
                        chain.push(current.to_string());
                    }
                    match current.rfind('.') {
                        Some(at) => current = &current[..at],
                        None if current.is_empty() => break,
                        None => current = "",
                    }
                }
                continue;
            }
            written.push(import.spec.clone());
            usings.push(using_of(
                &import.spec,
                import.names.first().map(String::as_str),
            ));
        }
        if !chain.iter().any(String::is_empty) {
            chain.push(String::new());
        }
        // The global namespace last.
        chain.sort_by_key(String::is_empty);
        if let Some(project) = project.and_then(|at| model.projects.get(at)) {
            for spec in &project.usings {
                let using = match spec.split_once('=') {
                    Some((alias, target)) => Using::Alias(alias.to_string(), target.to_string()),
                    None => using_of(spec, None),
                };
                usings.push(using);
            }
        }
        // A `using` inside a namespace names a namespace relative to it (`namespace MediatR;
        // using Wrappers;` is `MediatR.Wrappers`) when there is one.
        for using in &mut usings {
            if let Using::Namespace(name) = using {
                let relative = chain
                    .iter()
                    .filter(|base| !base.is_empty())
                    .map(|base| format!("{base}.{name}"))
                    .find(|full| model.has_namespace(full));
                if let Some(full) = relative {
                    *name = full;
                }
            }
        }
        Scope {
            file: file.to_string(),
            chain,
            usings,
            written,
            visible: model.visible(project),
        }
    }

    /// Whether a file declaring a name is one this file sees: not itself, in a visible project.
    fn sees(&self, model: &CSharpModel, path: &str) -> bool {
        if path == self.file {
            return false;
        }
        let Some(visible) = &self.visible else {
            return true;
        };
        match model.project_index(path) {
            Some(at) => visible.contains(&model.projects[at].file.as_str()),
            None => true,
        }
    }

    /// The files `paths` this file sees.
    fn seen(&self, model: &CSharpModel, paths: Vec<&str>) -> Vec<String> {
        paths
            .into_iter()
            .filter(|p| self.sees(model, p))
            .map(str::to_string)
            .collect()
    }

    /// The namespaces the usings bring in, in order.
    fn using_namespaces(&self) -> impl Iterator<Item = &str> {
        self.usings.iter().filter_map(|u| match u {
            Using::Namespace(n) => Some(n.as_str()),
            _ => None,
        })
    }

    /// A simple name (``Box`1``): the first namespace of the chain declaring it, else every
    /// namespace the usings bring in that declares it, else the type an alias of that name names.
    fn simple(&self, model: &CSharpModel, key: &str) -> Vec<String> {
        for namespace in &self.chain {
            let found = self.seen(model, model.declaring(namespace, key));
            if !found.is_empty() {
                return found;
            }
        }
        let mut found: Vec<String> = Vec::new();
        for namespace in self.using_namespaces() {
            found.extend(self.seen(model, model.declaring(namespace, key)));
        }
        if found.is_empty() {
            for using in &self.usings {
                if let Using::Alias(alias, target) = using {
                    if alias == key {
                        found.extend(self.qualified(model, target));
                    }
                }
            }
        }
        found
    }

    /// A dotted name (`A.B.Box`, `Retry.Options`): the longest namespace prefix, absolute or
    /// under a namespace of the chain (or an alias's), whose namespace declares the next part.
    fn qualified(&self, model: &CSharpModel, path: &str) -> Vec<String> {
        let path = path.strip_prefix("global::").unwrap_or(path);
        let segments: Vec<&str> = path.split('.').collect();
        for at in (1..segments.len()).rev() {
            let namespace = segments[..at].join(".");
            let ty = segments[at];
            let mut bases: Vec<String> = self.chain.clone();
            for using in &self.usings {
                if let Using::Alias(alias, target) = using {
                    if segments[0] == alias {
                        let rest = segments[1..at].join(".");
                        let full = match rest.is_empty() {
                            true => target.clone(),
                            false => format!("{target}.{rest}"),
                        };
                        let found = self.seen(model, model.declaring_any_arity(&full, ty));
                        if !found.is_empty() {
                            return found;
                        }
                    }
                }
            }
            bases.retain(|b| !b.is_empty());
            bases.push(String::new());
            for base in bases {
                let full = match base.is_empty() {
                    true => namespace.clone(),
                    false => format!("{base}.{namespace}"),
                };
                let found = self.seen(model, model.declaring_any_arity(&full, ty));
                if !found.is_empty() {
                    return found;
                }
            }
        }
        Vec::new()
    }

    /// A member called after a `.`: the files of the namespaces in scope (the chain's, the
    /// usings') whose static classes declare it as an extension method.
    fn extension(&self, model: &CSharpModel, name: &str) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        let namespaces = self
            .chain
            .iter()
            .map(String::as_str)
            .chain(self.using_namespaces());
        for namespace in namespaces {
            for path in self.seen(model, model.extending(namespace, name)) {
                if !found.contains(&path) {
                    found.push(path);
                }
            }
        }
        found
    }
}

/// A `using` entry as written by the extraction: `A.B`, `static A.B.T`, or a target with its alias.
fn using_of(spec: &str, alias: Option<&str>) -> Using {
    match (alias, spec.strip_prefix(STATIC_SPEC)) {
        (Some(alias), _) => Using::Alias(alias.to_string(), spec.to_string()),
        (None, Some(ty)) => Using::Static(ty.to_string()),
        (None, None) => Using::Namespace(spec.to_string()),
    }
}

/// The package an unresolved `using` names: its namespace (`Xunit`, `Microsoft.Extensions.
/// DependencyInjection`); `None` for the base class library's `System.*` and for the entries that
/// are no `using`.
pub(crate) fn external_package(spec: &str) -> Option<String> {
    let name = spec.strip_prefix(STATIC_SPEC).unwrap_or(spec);
    if spec.starts_with(NAMESPACE_SPEC) || name == "System" || name.starts_with("System.") {
        return None;
    }
    Some(name.to_string())
}

#[cfg(test)]
mod tests {
    use crate::source::resolve::testing::Files;

    fn solution() -> Files {
        Files::new(&[
            ("src/Core/Core.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\" />\n"),
            ("src/Core/Box.cs", "namespace Core;\n\npublic partial class Box<T> { }\npublic class Box { }\n"),
            ("src/Core/Box.Open.cs", "namespace Core;\n\npublic partial class Box<T> { public void Open() => Guard.Check(); }\n"),
            ("src/Core/Guard.cs", "namespace Core;\n\ninternal static class Guard { public static void Check() { } }\n"),
            ("src/Core/Retry/RetryOptions.cs", "namespace Core.Retry;\n\npublic class RetryOptions { public Box<int> Box { get; } }\n"),
            ("src/Core/Retry/RetryExtensions.cs", "namespace Core.Retry;\n\npublic static class RetryExtensions { public static Box AddRetry(this Box b, RetryOptions o) => b; }\n"),
            ("src/Other/Other.csproj", "<Project />\n"),
            ("src/Other/Hidden.cs", "namespace Core;\n\npublic class Hidden { }\n"),
            ("test/Core.Tests/Core.Tests.csproj", "<Project>\n  <ItemGroup>\n    <ProjectReference Include=\"..\\..\\src\\Core\\Core.csproj\" />\n    <Using Include=\"Core.Retry\" />\n  </ItemGroup>\n</Project>\n"),
            ("test/Core.Tests/BoxTests.cs", "using Xunit;\nusing static Core.Guard;\nusing Opts = Core.Retry.RetryOptions;\n\nnamespace Core.Tests;\n\npublic class BoxTests\n{\n    [Fact]\n    public void Opens() { var b = new Box(); b.AddRetry(new Opts()); Hidden h = null; }\n}\n"),
            ("test/Core.Tests/QualifiedTests.cs", "namespace Core.Tests;\n\npublic class QualifiedTests { Core.Retry.RetryOptions o; Retry.RetryOptions p; global::Core.Box<int> b; }\n"),
        ])
    }

    #[test]
    fn a_name_resolves_through_the_namespace_chain_to_every_part() {
        let files = solution();
        assert_eq!(
            files.deps("src/Core/Box.Open.cs"),
            ["src/Core/Box.cs", "src/Core/Guard.cs"]
        );
        assert_eq!(
            files.deps("src/Core/Retry/RetryOptions.cs"),
            ["src/Core/Box.Open.cs", "src/Core/Box.cs"]
        );
    }

    #[test]
    fn usings_aliases_statics_extensions_and_project_references() {
        let files = solution();
        // `Hidden` is in a project the tests do not reference; `Box` (no arity) is one file's.
        assert_eq!(
            files.deps("test/Core.Tests/BoxTests.cs"),
            [
                "src/Core/Box.cs",
                "src/Core/Guard.cs",
                "src/Core/Retry/RetryExtensions.cs",
                "src/Core/Retry/RetryOptions.cs",
            ]
        );
        let resolution = files.resolve("test/Core.Tests/BoxTests.cs");
        assert_eq!(resolution.unresolved, ["Xunit"]);
        assert_eq!(resolution.externals, ["Xunit"]);
    }

    #[test]
    fn qualified_names_resolve_absolute_or_relative() {
        let files = solution();
        assert_eq!(
            files.deps("test/Core.Tests/QualifiedTests.cs"),
            [
                "src/Core/Box.Open.cs",
                "src/Core/Box.cs",
                "src/Core/Retry/RetryOptions.cs",
            ]
        );
    }
}
