//! Chains of calls typed across files: `SearcherBuilder::new().line(2).build().search_slice(…)`
//! is extracted as a call of `search_slice` through `SearcherBuilder+new+line+build`
//! (`source::calls::typed::CHAIN`) — what no one file can type — and the graph, which sees every
//! file, follows it through the return types the files' methods declare (`new` gives a
//! `SearcherBuilder`, `line` one too, `build` a `Searcher`) to a call through a `Searcher`. Types
//! sharing a name are told apart by the methods the chain calls (tokio's `runtime::Builder` is the
//! one `Builder` with `enable_all`); a step no type declares, or that the types left disagree on,
//! leaves the call's object unknown, as it was before. Methods declared inside a macro call of an
//! `impl` block (`cfg_rt! { … }`) are not among the return types.

use std::collections::HashMap;

use crate::source::calls::typed::CHAIN;
use crate::source::calls::{decode_returns, Callee};

/// The return type of every `Type.method` the files declare, per declaring type: a name several
/// types share (tokio's five `Builder`s) is told apart by the chain itself — only the types
/// declaring every method it calls are followed.
#[derive(Debug, Default)]
pub struct Returns {
    /// Per type name, each declaring type (a file's): its methods' return types.
    by_type: HashMap<String, Vec<HashMap<String, String>>>,
}

impl Returns {
    /// Read the `=Type.method:Returned` items among one file's calls items (`encode_returns`).
    pub fn add_file(&mut self, items: &[String]) {
        let mut types: HashMap<String, HashMap<String, String>> = HashMap::new();
        for item in items {
            let Some(pairs) = decode_returns(item) else {
                continue;
            };
            for (label, returned) in pairs {
                let Some((ty, method)) = label.rsplit_once('.') else {
                    continue;
                };
                let ty = ty.rsplit(['.', ':']).next().unwrap_or(ty);
                types
                    .entry(ty.to_string())
                    .or_default()
                    .insert(method.to_string(), returned.to_string());
            }
        }
        for (ty, methods) in types {
            self.by_type.entry(ty).or_default().push(methods);
        }
    }

    /// The type a chain ends in (`SearcherBuilder+new+line+build` → `Searcher`): at each step, of
    /// the types of the current name those declaring the method, and what they agree it returns;
    /// a step returning the same type name stays with the types that declared it.
    pub fn resolve(&self, chain: &str) -> Option<String> {
        let mut steps = chain.split(CHAIN);
        let mut ty = steps.next()?.to_string();
        let mut candidates: Vec<&HashMap<String, String>> = self.by_type.get(&ty)?.iter().collect();
        for method in steps {
            candidates.retain(|methods| methods.contains_key(method));
            let mut returned = candidates.iter().map(|methods| &methods[method]);
            let first = returned.next()?;
            if returned.any(|other| other != first) {
                return None;
            }
            if *first != ty {
                ty = first.clone();
                candidates = self
                    .by_type
                    .get(&ty)
                    .map_or(Vec::new(), |found| found.iter().collect());
            }
        }
        Some(ty)
    }

    /// `item` (a member's encoded calls) with each call through a chain typed: `.search_slice:
    /// SearcherBuilder+new+line+build` → `.search_slice:Searcher`, or `.search_slice` when the
    /// chain cannot be followed. `None` when it holds no chain.
    pub fn typed_item(&self, item: &str) -> Option<String> {
        if !item.contains(CHAIN) || !item.contains(':') {
            return None;
        }
        let mut changed = false;
        let words: Vec<String> = item
            .split(' ')
            .map(|word| match self.typed_word(word) {
                Some(typed) => {
                    changed = true;
                    typed
                }
                None => word.to_string(),
            })
            .collect();
        changed.then(|| words.join(" "))
    }

    fn typed_word(&self, word: &str) -> Option<String> {
        if !word.starts_with('.') || !word.contains(CHAIN) {
            return None;
        }
        let Ok(Callee::TypedReceiver { name, ty }) = word.parse::<Callee>() else {
            return None;
        };
        let callee = match self.resolve(&ty) {
            Some(resolved) => Callee::TypedReceiver { name, ty: resolved },
            None => Callee::Receiver {
                name,
                receiver: None,
            },
        };
        Some(callee.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_is_followed_through_the_declared_return_types() {
        let mut returns = Returns::default();
        returns.add_file(&[
            "=SearcherBuilder.new:SearcherBuilder SearcherBuilder.line:SearcherBuilder SearcherBuilder.build:Searcher".to_string(),
            "run Searcher.new".to_string(),
        ]);
        // tokio's `runtime::Builder` and another `Builder`: told apart by the methods called.
        returns.add_file(&[
            "=Builder.new_current_thread:Builder Builder.enable_all:Builder Builder.build:Runtime"
                .to_string(),
        ]);
        returns.add_file(&["=Builder.new:Builder Builder.build:Histogram".to_string()]);
        assert_eq!(
            returns.resolve("SearcherBuilder+new+line+build").as_deref(),
            Some("Searcher")
        );
        assert_eq!(returns.resolve("SearcherBuilder+missing"), None);
        assert_eq!(
            returns
                .resolve("Builder+new_current_thread+enable_all+build")
                .as_deref(),
            Some("Runtime")
        );
        assert_eq!(
            returns.resolve("Builder+new+build").as_deref(),
            Some("Histogram")
        );
        // Two types of one name declaring `build` differently, nothing telling them apart.
        assert_eq!(returns.resolve("Builder+build"), None);
        assert_eq!(
            returns
                .typed_item("one SearcherBuilder.new .search_slice:SearcherBuilder+new+line+build")
                .as_deref(),
            Some("one SearcherBuilder.new .search_slice:Searcher")
        );
        assert_eq!(
            returns.typed_item("two .run:Builder+build").as_deref(),
            Some("two .run")
        );
        assert_eq!(returns.typed_item("three .run:Searcher"), None);
    }
}
