//! `START_HERE.md`, the bootloader every agent reads first (seed §1): topology, ontology, navigation by
//! intent, convention index and the navigation protocol, within a small token budget.
//!
//! `lexictl init` writes the initial file from [`initial`]; the sections are plain markdown that agents
//! and humans may extend.

/// The last row of the Convention Index: where the rules the project's own files declare are.
pub const PRACTICES_ROW: &str = "- Practices the project's files declare (PR checklist, test/lint/format commands, linter settings, where tests go, language level, CI): `lexi conventions`";

/// The navigation protocol: how an agent uses the library. Only commands that exist are named.
pub const NAVIGATION_PROTOCOL: &str = "\
1. Read this file at the start of every session.
2. Before working in a directory, read its index: `lexi index <dir>` (the Child Map says what each file is for; Local Conventions apply to everything below), and any note left there: `lexi iwh read <dir>`.
3. Before editing a file, read its design file: `lexi lookup <file>`, or everything at once (concepts, Stack posts): `lexi context <file>`.
4. Before debugging, search what others hit: `lexi stack search <words>`; for a topic, `lexi search <words>` or `lexi concepts <topic>`.
5. After editing a file, update its design file `.lexibrary/<file>.md` yourself: keep `description` current and set `updated_by: agent`. You know *why* you changed it; say so.
6. When a directory's purpose changes, say so with `lexi describe <dir> \"…\"`.
7. Record what you learn: a solved problem with `lexi stack post` (with evidence), a cross-cutting rule with `lexi concept new`; leaving work unfinished, `lexi iwh write <dir>`.";

/// The generated intro: what this library is and which part of the repository it documents
/// (`scope_roots` normalised: `""` is the whole repository).
pub fn intro(project_name: &str, scope_roots: &[String]) -> String {
    let scope = if scope_roots.iter().all(|root| root.is_empty()) {
        "the whole repository".to_string()
    } else {
        scope_roots
            .iter()
            .map(|root| format!("`{root}/`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "This is the library of {project_name}, kept by Lexibrarian for coding agents. It documents {scope}: \
         one design file per source file under `.lexibrary/`, and a `.aindex` per directory."
    )
}

/// The START_HERE.md written by `lexictl init`, before any design file exists. It names only
/// commands that work before the first update.
pub fn initial(project_name: &str, scope_roots: &[String]) -> String {
    let intro = intro(project_name, scope_roots);
    format!(
        "# {project_name} — start here\n\n\
         {intro}\n\n\
         ## Project Topology\n\n\
         Not mapped yet: the library is empty until the first `lexictl update`, which writes the design files, the indexes and this topology.\n\n\
         ## Ontology\n\n\
         - **design file** — `.lexibrary/<path>.md`: what a source file is for, its interface, dependencies and dependents.\n\
         - **.aindex** — a directory's billboard, Child Map and Local Conventions.\n\n\
         ## Navigation by Intent\n\n\
         | I need to… | Start at |\n\
         | --- | --- |\n\
         | build the library (first of all) | `lexictl update` |\n\
         | see whether it is current | `lexictl status` |\n\n\
         ## Convention Index\n\n\
         {PRACTICES_ROW}\n\n\
         ## Navigation Protocol\n\n\
         Once `lexictl update` has run (before it, `lexi index`, `lexi lookup` and `lexi context` have nothing to show):\n\n\
         {NAVIGATION_PROTOCOL}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_file_names_the_project_and_scope() {
        let text = initial("demo", &["src".to_string()]);
        assert!(text.starts_with("# demo — start here\n"));
        assert!(text.contains("`src/`"));
        assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
        assert!(
            !text.contains("lexi index ."),
            "fails before the first update"
        );
    }
}
