//! Whose method a call through an object reaches, on Rust projects shaped like the false callers
//! agents were shown on ripgrep and tokio: `builder.build()` on a builder the caller made of
//! another type, a test function's name taken for a free function handing out objects, a
//! `send.send(…)` on what `oneshot::channel()` made listed as a test of `mpsc::Sender::send`, and
//! a call through a field of a tuple struct's field (`self.0.matcher.matched(…)`) left unknown.

use crate::support::{project, TestProject};

const CARGO: &str = "[package]\nname = \"s\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// Three builders with a `build` of their own: ripgrep's `GitignoreBuilder`, `OverrideBuilder`
/// (which holds one) and the printer's `StandardBuilder`; `OverrideBuilder` has a method and a
/// test function both named `case_insensitive`.
fn builders() -> TestProject {
    project()
        .file("Cargo.toml", CARGO)
        .file("src/lib.rs", "//! S.\npub mod gi;\npub mod hi;\npub mod ov;\n")
        .file(
            "src/gi.rs",
            "//! Gitignore.\n\n/// Builds.\npub struct GitignoreBuilder;\n\nimpl GitignoreBuilder {\n    /// New.\n    pub fn new() -> GitignoreBuilder {\n        GitignoreBuilder\n    }\n\n    /// Builds it.\n    pub fn build(&self) -> u8 {\n        1\n    }\n}\n\n/// A matcher.\npub struct Gitignore;\n\nimpl Gitignore {\n    /// Makes one.\n    pub fn new() -> u8 {\n        let mut builder = GitignoreBuilder::new();\n        builder.build()\n    }\n\n    /// Whether it matches.\n    pub fn matched(&self) -> bool {\n        true\n    }\n}\n",
        )
        .file(
            "src/ov.rs",
            "//! Overrides.\n\nuse crate::gi::GitignoreBuilder;\n\n/// Builds overrides.\npub struct OverrideBuilder {\n    builder: GitignoreBuilder,\n}\n\nimpl OverrideBuilder {\n    /// New.\n    pub fn new() -> OverrideBuilder {\n        OverrideBuilder { builder: GitignoreBuilder::new() }\n    }\n\n    /// Ignores case.\n    pub fn case_insensitive(&mut self) -> &mut OverrideBuilder {\n        self\n    }\n\n    /// Builds them.\n    pub fn build(&self) -> u8 {\n        self.builder.build()\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn case_insensitive() {}\n}\n",
        )
        .file(
            "src/hi.rs",
            "//! High-level arguments.\n\nuse crate::ov::OverrideBuilder;\n\n/// A printer.\npub struct Printer;\n\n/// Builds printers.\npub struct StandardBuilder;\n\nimpl StandardBuilder {\n    /// New.\n    pub fn new() -> StandardBuilder {\n        StandardBuilder\n    }\n\n    /// Ignores case.\n    pub fn case_insensitive(&mut self) -> &mut StandardBuilder {\n        self\n    }\n\n    /// Builds it.\n    pub fn build(&self) -> Printer {\n        Printer\n    }\n}\n\n/// The globs.\npub fn globs() -> u8 {\n    let mut builder = OverrideBuilder::new();\n    builder.build()\n}\n\n/// The printer.\npub fn printer() -> Printer {\n    let mut builder = StandardBuilder::new();\n    builder.case_insensitive();\n    builder.build()\n}\n",
        )
        .init()
        .build()
}

/// `let mut builder = GitignoreBuilder::new(); builder.build()` calls `GitignoreBuilder::build`:
/// `builder` is the last word of `OverrideBuilder` too, but the caller made a builder of another
/// type, so it is no caller of `OverrideBuilder::build` — nor is a member calling a method of
/// the same name as one of the file's test functions (`case_insensitive`) taken to hold the
/// file's objects.
#[test]
fn a_receiver_named_for_a_type_the_caller_makes_is_that_types() {
    let p = builders();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/ov.rs", "--member", "OverrideBuilder.build"])
        .success()
        .stdout;
    // `printer`'s builder is a `StandardBuilder`: not even a name match.
    assert!(out.contains("- Called from: src/hi.rs (globs)\n"), "{out}");
    assert!(!out.contains("printer"), "{out}");
    assert!(!out.contains("Gitignore.new"), "{out}");
    p.lexi(["lookup", "src/gi.rs", "--member", "GitignoreBuilder.build"])
        .success()
        // In its own file, through the builder `Gitignore::new` makes.
        .stdout_has("- Called by: Gitignore.new\n")
        .stdout_has("- Called from: src/ov.rs (OverrideBuilder.build)\n")
        .stdout_lacks("src/hi.rs");
    p.lexi(["impact", "src/ov.rs", "--member", "OverrideBuilder.build"])
        .success()
        .stdout_has("src/hi.rs: globs")
        .stdout_lacks("printer");
}

/// A test's `send.send(…)` on what `oneshot::channel()` made is no test of `mpsc`'s
/// `Sender::send`, however its local is named, nor `tx.send(…)` where the test file binds `mpsc`
/// to the standard library; `tx.send(…)` on what the project's `mpsc::channel()` made is.
#[test]
fn tests_of_a_method_are_those_holding_the_files_objects() {
    let p = project()
        .file("Cargo.toml", CARGO)
        .file("src/lib.rs", "//! S.\npub mod mpsc;\npub mod oneshot;\n")
        .file(
            "src/mpsc.rs",
            "//! A bounded channel.\n\n/// Sends.\npub struct Sender;\n\n/// Receives.\npub struct Receiver;\n\nimpl Sender {\n    /// Sends a value.\n    pub fn send(&self) -> u8 {\n        1\n    }\n}\n\n/// A channel.\npub fn channel() -> (Sender, Receiver) {\n    (Sender, Receiver)\n}\n",
        )
        .file(
            "src/oneshot.rs",
            "//! A one-shot channel.\n\n/// Sends once.\npub struct Sender;\n\nimpl Sender {\n    /// Sends the value.\n    pub fn send(self) -> u8 {\n        2\n    }\n}\n\n/// A channel.\npub fn channel() -> (Sender, u8) {\n    (Sender, 0)\n}\n",
        )
        .file(
            "tests/channels.rs",
            "use s::{mpsc, oneshot};\n\n#[test]\nfn bounded_send() {\n    let (tx, _rx) = mpsc::channel();\n    tx.send();\n}\n\n#[test]\nfn oneshot_send() {\n    let (send, _n) = oneshot::channel();\n    send.send();\n}\n",
        )
        // A test file binding `mpsc` to the standard library (tokio's `rt_threaded.rs`).
        .file(
            "tests/threads.rs",
            "use s::oneshot;\nuse std::sync::{mpsc, Arc};\n\n#[test]\nfn std_send() {\n    let (tx, _rx) = mpsc::channel();\n    tx.send();\n    let (send, _n) = oneshot::channel();\n    send.send();\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/mpsc.rs", "--member", "Sender.send"])
        .success()
        .stdout_has("- tests/channels.rs: bounded_send\n")
        .stdout_lacks("oneshot_send")
        .stdout_lacks("std_send");
}

/// `self.0.matcher.matched(…)` through `struct Ignore(Arc<IgnoreInner>)` and `IgnoreInner {
/// matcher: Gitignore }` is a call of `Gitignore::matched` (ripgrep's `Ignore::matched_ignore`),
/// found by following the fields the file declares from `self`.
#[test]
fn a_call_through_fields_of_fields_is_the_declared_types() {
    let p = builders();
    p.write(
        "src/dir.rs",
        "//! Directories.\n\nuse std::sync::Arc;\n\nuse crate::gi::Gitignore;\n\n/// Ignore rules.\npub struct Ignore(Arc<IgnoreInner>);\n\nstruct IgnoreInner {\n    matcher: Gitignore,\n}\n\nimpl Ignore {\n    /// Whether the rules ignore it.\n    pub fn matched_ignore(&self) -> bool {\n        self.0.matcher.matched()\n    }\n}\n",
    );
    p.write(
        "src/lib.rs",
        "//! S.\npub mod dir;\npub mod gi;\npub mod hi;\npub mod ov;\n",
    );
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/gi.rs", "--member", "Gitignore.matched"])
        .success()
        .stdout_has("- Called from: src/dir.rs (Ignore.matched_ignore)\n")
        .stdout_lacks("Unresolved");
}

/// A parameter's stated type is the object's type even when a package the file sits in has the
/// type's name: ripgrep's `should_skip_entry(ig: &Ignore, …)` in the `ignore` crate calls
/// `Ignore::matched_dir_entry`, not something of the `ignore` package.
#[test]
fn a_parameter_of_a_type_named_like_its_package_is_that_type() {
    let p = project()
        .file("Cargo.toml", "[workspace]\nmembers = [\"ignore\"]\n")
        .file(
            "ignore/Cargo.toml",
            "[package]\nname = \"ignore\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("ignore/src/lib.rs", "//! Ignore.\npub mod dir;\npub mod walk;\n")
        .file(
            "ignore/src/dir.rs",
            "//! Directories.\n\n/// Ignore rules.\npub struct Ignore;\n\nimpl Ignore {\n    /// Whether an entry is ignored.\n    pub fn matched_dir_entry(&self) -> bool {\n        true\n    }\n}\n",
        )
        .file(
            "ignore/src/walk.rs",
            "//! Walking.\n\nuse crate::dir::Ignore;\n\n/// Whether to skip it.\npub fn should_skip_entry(ig: &Ignore) -> bool {\n    ig.matched_dir_entry()\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi([
        "lookup",
        "ignore/src/dir.rs",
        "--member",
        "Ignore.matched_dir_entry",
    ])
    .success()
    .stdout_has("- Called from: ignore/src/walk.rs (should_skip_entry)\n");
}

/// A field whose type is written through another module (tokio's `Semaphore { ll_sem:
/// ll::Semaphore }`) keeps its callers in that module: `self.ll_sem.acquire()` calls the batch
/// semaphore's `acquire`. (That the file's own `Semaphore::acquire` is then also taken to call
/// itself is a known limit: types are matched by their last name.)
#[test]
fn a_field_of_another_modules_type_of_the_same_name_calls_that_type() {
    let p = project()
        .file("Cargo.toml", CARGO)
        .file("src/lib.rs", "//! S.\npub mod batch;\npub mod sem;\n")
        .file(
            "src/batch.rs",
            "//! The batch semaphore.\n\n/// Permits.\npub struct Semaphore;\n\nimpl Semaphore {\n    /// Acquires.\n    pub fn acquire(&self) {}\n}\n",
        )
        .file(
            "src/sem.rs",
            "//! The semaphore.\n\nuse crate::batch as ll;\n\n/// A semaphore.\npub struct Semaphore {\n    ll_sem: ll::Semaphore,\n}\n\nimpl Semaphore {\n    /// Acquires a permit.\n    pub fn acquire(&self) {\n        self.ll_sem.acquire()\n    }\n\n    /// Acquires many.\n    pub fn acquire_many(&self) {\n        self.ll_sem.acquire()\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/batch.rs", "--member", "Semaphore.acquire"])
        .success()
        .stdout_has("- Called from: src/sem.rs (Semaphore.acquire, Semaphore.acquire_many)\n");
}

/// A free function called through its module (`oneshot::channel()`) keeps its caller though the
/// caller also makes a type whose name ends with the module's (`AtomicOneshot::new(…)`); a
/// receiver named for the file's object as a whole (`matcher` of `matcher.rs`) keeps its caller
/// though the member makes a `RegexMatcher`; and an in-file call through a local is told only
/// when one made type explains it.
#[test]
fn a_made_type_tells_a_receiver_only_where_the_name_says_less() {
    let p = project()
        .file("Cargo.toml", CARGO)
        .file(
            "src/lib.rs",
            "//! S.\npub mod atomic;\npub mod matcher;\npub mod oneshot;\npub mod regex;\npub mod user;\n",
        )
        .file(
            "src/oneshot.rs",
            "//! One-shot.\n\n/// A channel.\npub fn channel() -> u8 {\n    0\n}\n",
        )
        .file(
            "src/atomic.rs",
            "//! Atomics.\n\n/// An atomic one-shot.\npub struct AtomicOneshot;\n\nimpl AtomicOneshot {\n    /// New.\n    pub fn new(_n: u8) -> AtomicOneshot {\n        AtomicOneshot\n    }\n}\n",
        )
        .file(
            "src/matcher.rs",
            "//! Matchers.\n\n/// Matches.\npub trait Matcher {\n    /// Whether it matches.\n    fn is_match_at(&self) -> bool;\n}\n",
        )
        .file(
            "src/regex.rs",
            "//! Regexes.\n\n/// A regex matcher.\npub struct RegexMatcher;\n\nimpl RegexMatcher {\n    /// New.\n    pub fn new() -> RegexMatcher {\n        RegexMatcher\n    }\n}\n",
        )
        .file(
            "src/user.rs",
            "//! Users.\n\nuse crate::atomic::AtomicOneshot;\nuse crate::matcher::Matcher;\nuse crate::oneshot;\nuse crate::regex::RegexMatcher;\n\n/// Spawns.\npub fn pool_spawn() {\n    let tx = oneshot::channel();\n    let _a = AtomicOneshot::new(tx);\n}\n\n/// Any match.\npub fn any_match(matchers: &[Box<dyn Matcher>]) -> bool {\n    let _r = RegexMatcher::new();\n    for matcher in matchers {\n        if matcher.is_match_at() {\n            return true;\n        }\n    }\n    false\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/oneshot.rs", "--member", "channel"])
        .success()
        .stdout_has("- Called from: src/user.rs (pool_spawn)\n");
    p.lexi([
        "lookup",
        "src/matcher.rs",
        "--member",
        "Matcher.is_match_at",
    ])
    .success()
    .stdout_has("src/user.rs (any_match)");
}
