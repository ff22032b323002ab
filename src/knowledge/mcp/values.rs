//! JSON Schemas of the library's enums as tool arguments (`status`, `scope`, `direction`, `type`),
//! spelled as the file formats and the CLI spell them (their comments are not doc comments: the
//! argument's own description is the one listed). The arguments deserialize into the library's
//! own types (which know serde, not JSON Schema); these mirrors only describe them, through
//! `#[schemars(with = …)]`, so `library` stays free of schema concerns.

use schemars::JsonSchema;

// A Stack post's status.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum PostStatusName {
    Open,
    Resolved,
    Outdated,
    Duplicate,
}

// A concept's status.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum ConceptStatusName {
    Active,
    Draft,
    Deprecated,
}

// How urgent an I Was Here note is.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum IwhScopeName {
    // Be aware of this before working here.
    Warning,
    // Work was started but not finished.
    Incomplete,
    // Something is broken here; fix it before proceeding.
    Blocked,
}

// A vote's direction.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum DirectionName {
    Up,
    Down,
}

// A kind of library document.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum DocKindName {
    Concept,
    Design,
    Stack,
    Convention,
}
