//! The members a file declares, as `lexi lookup --member` can open them: every definition of the
//! file (`source::definitions`: public or private, nested, class expressions, object literals,
//! callbacks' assignments) and the members only its interface knows (CommonJS getters such as
//! express's `req.protocol`). A member its interface shows is shown as the contract shows it (its
//! normalised signature, decorators kept); a constant's, a variable's or an alias's value comes
//! from its definition, as written.

use crate::source::definitions::Definition;
use crate::source::{OutlineLine, SourceFile, SymbolKind};

/// One member of the file: its label, its interface line and its definition (one or both).
#[derive(Clone, Copy, Debug)]
pub struct Declared<'a> {
    pub outline: Option<usize>,
    pub definition: Option<&'a Definition>,
}

impl Declared<'_> {
    /// No member (an inherited one that could not be read again).
    pub fn none() -> Declared<'static> {
        Declared {
            outline: None,
            definition: None,
        }
    }
}

/// A declared member's label.
pub fn label_of(file: &SourceFile, declared: &Declared<'_>) -> String {
    match (declared.definition, declared.outline) {
        (Some(definition), _) => definition.label.clone(),
        (None, Some(at)) => outline_label(&file.interface.outline()[at]),
        (None, None) => String::new(),
    }
}

/// Every member of `file`, in source order (those only its interface knows last), one per label.
/// A label defined several times is the definition in effect: the last where a later definition
/// replaces an earlier one (Python's implementation after its `@overload` stubs), else the first
/// ([`crate::source::lang::Spec::later_definition_replaces`]) — unless the first is a
/// documentation stub (`#[cfg(doc)]`) and a later one is not.
pub fn declared(file: &SourceFile) -> Vec<Declared<'_>> {
    let outline = file.interface.outline();
    let lines: Vec<(usize, String)> = (0..outline.len())
        .filter(|&i| is_member(&outline[i]))
        .map(|i| (i, outline_label(&outline[i])))
        .collect();
    let last_wins = file.language.spec().later_definition_replaces;
    let mut out: Vec<Declared<'_>> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for definition in &file.definitions {
        let label = definition.label.as_str();
        let mut matching_lines = lines.iter().filter(|(_, line)| line == label);
        let line = match last_wins {
            true => matching_lines.next_back(),
            false => matching_lines.next(),
        };
        let declared = Declared {
            outline: line.map(|(i, _)| *i),
            definition: Some(definition),
        };
        match at.get(label) {
            Some(&known) if last_wins => out[known] = declared,
            // A documentation stub gives way to the definition the code compiles.
            Some(&known)
                if out[known]
                    .definition
                    .is_some_and(|first| file.is_doc_only(first))
                    && !file.is_doc_only(definition) =>
            {
                out[known] = declared
            }
            Some(_) => {}
            None => {
                at.insert(label, out.len());
                out.push(declared);
            }
        }
    }
    for (i, label) in &lines {
        if !at.contains_key(label.as_str()) {
            out.push(Declared {
                outline: Some(*i),
                definition: None,
            });
        }
    }
    out
}

/// An outline line that declares something (not a header, not `impl Trait for Type`).
pub fn is_member(line: &OutlineLine) -> bool {
    line.kind.is_some_and(|kind| kind != SymbolKind::Impl) && !line.name.is_empty()
}

/// `Container.name`, or the name (CommonJS names are already qualified: `res.json`).
pub fn outline_label(line: &OutlineLine) -> String {
    match &line.parent {
        // `impl<T> Sender<T>`'s methods are `Sender.send`, as `workspace::calls` names them.
        Some(parent) => {
            let parent = parent.split('<').next().unwrap_or(parent).trim();
            format!("{parent}.{}", line.name)
        }
        None => line.name.clone(),
    }
}

/// Whether a member of this kind is shown by its value (`X = t.Union[…]`), not its signature.
pub fn shows_value(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Constant | SymbolKind::Static | SymbolKind::TypeAlias | SymbolKind::Variable
    )
}

/// The signature of a member known only by its definition, under the headers of the definitions
/// it sits in (`class _Base(object)`, `def outer(x)`; `impl Sender` for a Rust type's method),
/// indented two spaces a level — its value when it has one.
pub fn definition_signature(file: &SourceFile, definition: &Definition) -> String {
    let mut chain: Vec<String> = Vec::new();
    // A Rust method's header is its `impl` block's, whatever the type's definition says.
    if let Some(block) = &definition.block {
        chain.push(block.clone());
    }
    let mut parent = definition
        .parent
        .clone()
        .filter(|_| definition.block.is_none());
    for _ in 0..8 {
        let Some(label) = parent else { break };
        let header = match file.definition(&label) {
            Some(up) if matches!(up.kind, SymbolKind::Struct | SymbolKind::Enum) => {
                format!("impl {}", up.name)
            }
            Some(up) => up.signature.clone(),
            None => format!("impl {label}"),
        };
        chain.push(header);
        parent = file.definition(&label).and_then(|up| up.parent.clone());
    }
    chain.reverse();
    let own = match (&definition.value, shows_value(definition.kind)) {
        (Some(value), true) => value.clone(),
        _ => definition.signature.clone(),
    };
    let depth = chain.len();
    let mut out: Vec<String> = chain
        .into_iter()
        .enumerate()
        .map(|(i, header)| format!("{}{header}", "  ".repeat(i)))
        .collect();
    out.push(indented(&own, depth));
    out.join("\n")
}

/// `text` with every line indented two spaces a level.
pub fn indented(text: &str, depth: usize) -> String {
    let pad = "  ".repeat(depth);
    text.lines()
        .map(|line| match line.is_empty() {
            true => String::new(),
            false => format!("{pad}{line}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
