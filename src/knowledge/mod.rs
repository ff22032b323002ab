//! Read-side queries over the library: what `lexi` answers. Each query returns plain data; the CLI
//! decides how to print it.

pub mod index;
pub mod lookup;
