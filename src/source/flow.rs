//! A member's flow: the outline of its body in a few lines — its calls in order, with the `if`,
//! `for`, `while`, `try`, `match`/`switch` around them, its returns, raises and awaits — what
//! `lexi lookup <file> --member <name>` shows so that "how does it work" is answered without the
//! body:
//!
//! ```text
//! if req.routing_exception is not None:
//!   raise_routing_exception(req)
//! if getattr(rule, "provide_automatic_options", False) and req.method == "OPTIONS":
//!   return make_default_options_response(ctx)
//! return ensure_sync(view_functions[rule.endpoint])(**view_args)
//! ```
//!
//! Read from the syntax tree, so it is exact: every statement is shown (whitespace collapsed,
//! `self.` and `this.` left out, long argument lists folded to `(…)`) — calls, returns, raises and
//! awaits, and as much the assignments that set what they read (`var status = 302`,
//! `self._got_first_request = True`, `this.settings[setting] = val`): what a statement does is not
//! told by its kind, so only size cuts the outline. Comments, imports and `pass` are left out; a
//! function defined inside (a decorator's `wrapper`, a callback bound to a name) shows as its
//! header with its body's steps under it, a class or type defined inside as its name. What a Rust block ends in reads `→ Ok(false)`
//! (its tail expression), a match arm `BinaryDetection::Quit(b) => b`. A call of the member itself
//! is marked `(recursive)`. Headers read the same in every language:
//! `if cond:`, `elif cond:`/`else if cond:`, `else:`, `for x in xs:`, `while cond:`, `try:`,
//! `except E:`/`catch (e):`, `finally:`, `match x:`, `case P:`/`P =>`. At most [`MAX_LINES`]
//! lines unless the whole outline is asked for ([`FULL_LINES`]): deeper levels fold first (`if x: …`), the room left opens folded steps again one by one
//! in order, then the last steps are counted. A call handed an object of callbacks (express's
//! `this.format({ text: function () { … }, html: … })`) shows, under it, each callback's key and
//! its body's last statement (`html: body = '<!DOCTYPE html><head><title>' + …`).
//!
//! Computed when asked from the file as it is: never stored, so it moves no design file.

use std::collections::HashSet;

use tree_sitter::Node;

use super::syntax::{code_children, text_of};
use super::Language;

/// Lines of a flow, at most, as a member is shown by default.
pub const MAX_LINES: usize = 20;
/// Lines of a flow asked for whole (`--full`), at most: every step a body of [`MAX_STEPS`] has.
pub const FULL_LINES: usize = MAX_STEPS;
/// Characters of one line, at most (its indentation not counted).
pub const LINE_CHARS: usize = 90;
/// The start of the line naming the classes and types a body defines.
const DEFINES: &str = "defines ";
/// Steps looked at in one body, at most (a generated function of thousands of statements).
const MAX_STEPS: usize = 400;

/// A member's flow as shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    pub lines: Vec<FlowLine>,
    /// Steps were folded or left out to fit the lines asked for.
    pub cut: bool,
}

impl Flow {
    /// The lines as shown: two spaces a level, then the step.
    pub fn indented(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|line| format!("{}{}", "  ".repeat(line.depth), line.text))
            .collect()
    }
}

/// One line of a flow.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FlowLine {
    /// Nesting: 0 for the body's own statements.
    pub depth: usize,
    pub text: String,
}

/// A step of the outline and the steps inside it.
#[derive(Debug, Default)]
struct Step {
    text: String,
    children: Vec<Step>,
}

/// The flow of the body of `definition` (a function, a method, a function bound to a name),
/// named `name`, in at most `max_lines` lines; empty when it has no body.
pub fn flow(
    language: Language,
    definition: Node<'_>,
    src: &str,
    name: &str,
    max_lines: usize,
) -> Flow {
    let Some(body) = body_of(definition) else {
        return Flow::default();
    };
    let mut reader = Reader {
        language,
        src,
        name,
        steps: 0,
    };
    let steps = reader.body(body);
    render(&steps, max_lines)
}

/// The body of a function's definition: its `body` field, or the body of the function it binds
/// (`x = function …`, `key: () => …`, `a = b = function …`), or of a test block's callback
/// (`it('works', function () { … })`).
fn body_of(node: Node<'_>) -> Option<Node<'_>> {
    let mut node = node;
    if node.kind() == "call_expression" {
        let args = node.child_by_field_name("arguments")?;
        node = code_children(args).into_iter().rev().find(|arg| {
            matches!(
                arg.kind(),
                "function_expression" | "function" | "arrow_function"
            )
        })?;
    }
    for _ in 0..8 {
        if let Some(body) = node.child_by_field_name("body") {
            return Some(body);
        }
        node = node
            .child_by_field_name("value")
            .or_else(|| node.child_by_field_name("right"))?;
    }
    None
}

struct Reader<'s> {
    language: Language,
    src: &'s str,
    name: &'s str,
    /// Statements read so far.
    steps: usize,
}

/// What a statement is to the outline.
enum Shape<'t> {
    /// Branches, each a header and the node holding its statements; `always`: shown even when
    /// nothing inside is (a handler: what is caught).
    Branches(Vec<Branch<'t>>),
    /// A plain statement.
    Leaf(Node<'t>),
    /// A definition inside the body: its name (neighbouring ones share a line).
    Nested(String),
    /// A block to read through (Rust `{ … }`, `unsafe { … }`).
    Through(Node<'t>),
    /// A call handed an object of callbacks (express's `this.format({ text: function () { … },
    /// html: … })`): the call, then per callback its key and what its body ends with.
    Callbacks(Node<'t>, Vec<String>),
    Skip,
}

struct Branch<'t> {
    header: String,
    body: Option<Node<'t>>,
    always: bool,
}

impl<'t> Branch<'t> {
    fn new(header: String, body: Option<Node<'t>>) -> Branch<'t> {
        Branch {
            header,
            body,
            always: false,
        }
    }
}

impl<'s> Reader<'s> {
    /// The steps of a body (a block, or one statement standing for one).
    fn body<'t>(&mut self, body: Node<'t>) -> Vec<Step> {
        let mut steps = Vec::new();
        let statements = self.statements(body);
        for (at, statement) in statements.iter().enumerate() {
            if self.steps >= MAX_STEPS {
                break;
            }
            self.steps += 1;
            let last = at + 1 == statements.len();
            match last.then(|| self.ends_in(body, *statement)).flatten() {
                Some(text) => steps.push(Step {
                    text,
                    children: Vec::new(),
                }),
                None => self.statement(*statement, &mut steps),
            }
        }
        steps
    }

    /// `→ value`: what a Rust block ends in — a branch's or the body's own tail expression
    /// (`Ok(false)`, `Err(SendError(value))`, `None`), when it is no control expression (those
    /// show as branches).
    fn ends_in(&self, body: Node<'_>, last: Node<'_>) -> Option<String> {
        if self.language != Language::Rust {
            return None;
        }
        let value = match (body.kind(), last.kind()) {
            ("block", kind)
                if !matches!(
                    kind,
                    "expression_statement" | "let_declaration" | "empty_statement"
                ) && !kind.ends_with("_item")
                    && !is_rust_control(kind) =>
            {
                last
            }
            _ => return None,
        };
        if is_rust_control(value.kind()) {
            return None;
        }
        let mut text = format!("→ {}", shorten(text_of(value, self.src), LINE_CHARS));
        if self.recursive(value) {
            text.push_str("  (recursive)");
        }
        Some(text)
    }

    /// The statements of a block; a node that is no block stands for itself.
    fn statements<'t>(&self, body: Node<'t>) -> Vec<Node<'t>> {
        let kind = body.kind();
        if matches!(
            kind,
            "block"
                | "statement_block"
                | "switch_body"
                | "match_block"
                | "declaration_list"
                | "statement_list"
        ) {
            return code_children(body);
        }
        // A Go `switch`/`select`: its cases.
        if matches!(
            kind,
            "expression_switch_statement" | "type_switch_statement" | "select_statement"
        ) {
            return code_children(body)
                .into_iter()
                .filter(|child| child.kind().ends_with("_case"))
                .collect();
        }
        if matches!(
            kind,
            "switch_case"
                | "switch_default"
                | "expression_case"
                | "type_case"
                | "default_case"
                | "communication_case"
        ) {
            let value = body
                .child_by_field_name("value")
                .or_else(|| body.child_by_field_name("type"))
                .or_else(|| body.child_by_field_name("communication"))
                .map(|v| v.id());
            return code_children(body)
                .into_iter()
                .filter(|child| Some(child.id()) != value)
                .collect();
        }
        // An arrow function's expression body, a match arm's expression.
        vec![body]
    }

    fn statement<'t>(&mut self, node: Node<'t>, out: &mut Vec<Step>) {
        match self.shape(node) {
            Shape::Skip => {}
            Shape::Nested(name) => match out.last_mut() {
                Some(last) if last.text.starts_with(DEFINES) && last.children.is_empty() => {
                    last.text = shorten(&format!("{}, {name}", last.text), LINE_CHARS);
                }
                _ => out.push(Step {
                    text: format!("{DEFINES}{name}"),
                    children: Vec::new(),
                }),
            },
            Shape::Through(block) => out.extend(self.body(block)),
            Shape::Callbacks(call, ends) => {
                if let Some(text) = self.leaf(call) {
                    out.push(Step {
                        text,
                        children: ends
                            .into_iter()
                            .map(|text| Step {
                                text,
                                children: Vec::new(),
                            })
                            .collect(),
                    });
                }
            }
            Shape::Leaf(leaf) => {
                if let Some(text) = self.leaf(leaf) {
                    out.push(Step {
                        text,
                        children: Vec::new(),
                    });
                }
            }
            Shape::Branches(branches) => {
                let read: Vec<(Branch<'t>, Vec<Step>)> = branches
                    .into_iter()
                    .map(|branch| {
                        let steps = branch.body.map(|b| self.body(b)).unwrap_or_default();
                        (branch, steps)
                    })
                    .collect();
                // A chain (`if`/`elif`/`else`, `try`/`except`) shows whole when any part shows;
                // a part that always shows (a handler, a `case`, a nested function) shows it.
                if read
                    .iter()
                    .all(|(branch, steps)| steps.is_empty() && !branch.always)
                {
                    return;
                }
                for (branch, children) in read {
                    if children.is_empty() && !branch.always && read_is_chain_tail(&branch) {
                        continue;
                    }
                    out.push(Step {
                        text: branch.header,
                        children,
                    });
                }
            }
        }
    }

    /// The outline text of a plain statement; none for one without text.
    fn leaf(&self, node: Node<'_>) -> Option<String> {
        let text = text_of(node, self.src).trim_end();
        let text = text.strip_suffix([';', ',']).unwrap_or(text);
        if text.is_empty() {
            return None;
        }
        let mut text = shorten(text, LINE_CHARS);
        if self.recursive(node) {
            text.push_str("  (recursive)");
        }
        Some(text)
    }

    fn shape<'t>(&self, node: Node<'t>) -> Shape<'t> {
        match self.language {
            Language::Python => self.python(node),
            Language::Rust => self.rust(node),
            Language::Go => self.go(node),
            Language::JavaScript | Language::TypeScript | Language::Tsx => self.javascript(node),
            Language::Java => self.java(node),
        }
    }

    fn java<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => self.if_chain(node, "if_statement", true),
            "for_statement"
            | "enhanced_for_statement"
            | "while_statement"
            | "do_statement"
            | "synchronized_statement" => {
                let body = field("body").or_else(|| code_children(node).into_iter().last());
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_expression" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_block_statement_group" | "switch_rule" => {
                let label = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "switch_label");
                let header = format!("{}:", self.header(label).trim_end_matches(':'));
                Shape::Branches(vec![Branch::new(header, Some(node))])
            }
            "switch_label" => Shape::Skip,
            "try_statement" | "try_with_resources_statement" => {
                let body = field("body");
                let mut branches = vec![Branch::new(format!("{}:", self.head(node, body)), body)];
                for part in code_children(node) {
                    match part.kind() {
                        "catch_clause" => {
                            let parameter = code_children(part)
                                .into_iter()
                                .find(|c| c.kind() == "catch_formal_parameter");
                            branches.push(Branch {
                                header: format!("catch ({}):", self.header(parameter)),
                                body: part.child_by_field_name("body"),
                                always: true,
                            });
                        }
                        "finally_clause" => branches.push(Branch {
                            header: "finally:".to_string(),
                            body: code_children(part)
                                .into_iter()
                                .find(|c| c.kind() == "block"),
                            always: true,
                        }),
                        _ => {}
                    }
                }
                Shape::Branches(branches)
            }
            "block" => Shape::Through(node),
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => self.nested(field("name")),
            "line_comment" | "block_comment" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// Go: `if … else if … else` chains, loops, `switch`/`select` cases, blocks read through.
    fn go<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => {
                let mut branches = Vec::new();
                let mut current = node;
                let mut prefix = "if";
                for _ in 0..64 {
                    let condition = current.child_by_field_name("condition");
                    branches.push(Branch::new(
                        format!("{prefix} {}:", self.header(condition)),
                        current.child_by_field_name("consequence"),
                    ));
                    match current.child_by_field_name("alternative") {
                        Some(next) if next.kind() == "if_statement" => {
                            current = next;
                            prefix = "else if";
                        }
                        Some(block) => {
                            branches.push(Branch::new("else:".to_string(), Some(block)));
                            break;
                        }
                        None => break,
                    }
                }
                Shape::Branches(branches)
            }
            "for_statement"
            | "expression_switch_statement"
            | "type_switch_statement"
            | "select_statement" => {
                let body = field("body").or(Some(node));
                let end = field("body")
                    .map_or_else(|| self.go_case_start(node), |b| Some(b.start_byte()));
                let text = self
                    .src
                    .get(node.start_byte()..end.unwrap_or(node.end_byte()))
                    .unwrap_or("")
                    .trim_end()
                    .trim_end_matches('{')
                    .trim_end();
                let header = format!("{}:", shorten(text, LINE_CHARS - 4));
                Shape::Branches(vec![Branch::new(header, body)])
            }
            "expression_case" | "type_case" | "communication_case" => {
                let value = field("value").or_else(|| field("type"));
                let value = value.or_else(|| field("communication"));
                Shape::Branches(vec![Branch::new(
                    format!("case {}:", self.header(value)),
                    Some(node),
                )])
            }
            "default_case" => Shape::Branches(vec![Branch::new("default:".into(), Some(node))]),
            "block" | "statement_list" => Shape::Through(node),
            "break_statement"
            | "continue_statement"
            | "empty_statement"
            | "comment"
            | "fallthrough_statement" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// Where a Go `switch`'s first case starts (its header ends there).
    fn go_case_start(&self, node: Node<'_>) -> Option<usize> {
        code_children(node)
            .into_iter()
            .find(|c| c.kind().ends_with("_case"))
            .map(|c| c.start_byte())
    }

    fn header(&self, node: Option<Node<'_>>) -> String {
        node.map(|n| shorten(text_of(n, self.src), LINE_CHARS - 10))
            .unwrap_or_default()
    }

    /// The text of `node` before its body (a `for` header, a `with` clause).
    fn head(&self, node: Node<'_>, body: Option<Node<'_>>) -> String {
        let end = body.map_or(node.end_byte(), |b| b.start_byte());
        let text = self.src.get(node.start_byte()..end).unwrap_or("");
        let text = text.trim_end().trim_end_matches(':').trim_end();
        shorten(text, LINE_CHARS - 4)
    }

    fn python<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => {
                let mut branches = vec![Branch::new(
                    format!(
                        "if {}:",
                        self.header(field("condition").map(unparenthesized))
                    ),
                    field("consequence"),
                )];
                for clause in code_children(node) {
                    match clause.kind() {
                        "elif_clause" => branches.push(Branch::new(
                            format!(
                                "elif {}:",
                                self.header(
                                    clause.child_by_field_name("condition").map(unparenthesized)
                                )
                            ),
                            clause.child_by_field_name("consequence"),
                        )),
                        "else_clause" => branches.push(Branch::new(
                            "else:".to_string(),
                            clause.child_by_field_name("body"),
                        )),
                        _ => {}
                    }
                }
                Shape::Branches(branches)
            }
            "for_statement" | "while_statement" | "with_statement" => {
                let body = field("body");
                let mut branches = vec![Branch::new(format!("{}:", self.head(node, body)), body)];
                if let Some(alternative) = field("alternative") {
                    let body = alternative.child_by_field_name("body");
                    branches.push(Branch::new("else:".to_string(), body));
                }
                Shape::Branches(branches)
            }
            "try_statement" => {
                let mut branches = vec![Branch::new("try:".to_string(), field("body"))];
                for clause in code_children(node) {
                    let block = code_children(clause)
                        .into_iter()
                        .find(|c| c.kind() == "block");
                    let header = match clause.kind() {
                        "except_clause" | "except_group_clause" => {
                            format!("{}:", self.head(clause, block))
                        }
                        "else_clause" => "else:".to_string(),
                        "finally_clause" => "finally:".to_string(),
                        _ => continue,
                    };
                    let always = clause.kind() != "else_clause";
                    branches.push(Branch {
                        header,
                        body: block,
                        always,
                    });
                }
                Shape::Branches(branches)
            }
            "match_statement" => {
                let subject = code_children(node)
                    .into_iter()
                    .filter(|c| c.kind() != "block")
                    .map(|c| text_of(c, self.src))
                    .collect::<Vec<_>>()
                    .join(", ");
                let header = format!("match {}:", shorten(&subject, LINE_CHARS - 10));
                Shape::Branches(vec![Branch::new(header, field("body"))])
            }
            "case_clause" => {
                let body = field("consequence");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "function_definition" => self.nested_function(node, field("body")),
            "class_definition" => self.nested(field("name")),
            // A docstring (the doc says it), a bare string literal.
            "expression_statement" if is_lone_string(node) => Shape::Skip,
            "decorated_definition" => match field("definition") {
                Some(definition) => self.python(definition),
                None => Shape::Skip,
            },
            "pass_statement"
            | "comment"
            | "import_statement"
            | "import_from_statement"
            | "global_statement"
            | "nonlocal_statement" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// An `if … else if … else` chain (JavaScript `if_statement`, Rust `if_expression`: `kind`) as
    /// one list of branches; `parenthesized`: the condition is written in parentheses, dropped.
    fn if_chain<'t>(&self, node: Node<'t>, kind: &str, parenthesized: bool) -> Shape<'t> {
        let mut branches = Vec::new();
        let mut current = node;
        let mut prefix = "if";
        for _ in 0..64 {
            let mut condition = current.child_by_field_name("condition");
            if parenthesized {
                condition = condition.map(unparenthesized);
            }
            branches.push(Branch::new(
                format!("{prefix} {}:", self.header(condition)),
                current.child_by_field_name("consequence"),
            ));
            let Some(alternative) = current.child_by_field_name("alternative") else {
                break;
            };
            let inner = code_children(alternative).into_iter().next();
            match inner {
                Some(next) if next.kind() == kind => {
                    current = next;
                    prefix = "else if";
                }
                _ => {
                    branches.push(Branch::new("else:".to_string(), inner));
                    break;
                }
            }
        }
        Shape::Branches(branches)
    }

    fn javascript<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            // `if … else if … else`: one chain.
            "if_statement" => self.if_chain(node, "if_statement", true),
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
            | "with_statement" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_statement" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            // A case shows even when empty: it falls through to the next (`case true:` above
            // `case false: return x`).
            "switch_case" => {
                let header = format!("case {}:", self.header(field("value")));
                Shape::Branches(vec![Branch {
                    header,
                    body: Some(node),
                    always: true,
                }])
            }
            "switch_default" => Shape::Branches(vec![Branch {
                header: "default:".into(),
                body: Some(node),
                always: true,
            }]),
            "try_statement" => {
                let mut branches = vec![Branch::new("try:".to_string(), field("body"))];
                if let Some(handler) = field("handler") {
                    let parameter = handler.child_by_field_name("parameter");
                    let header = match parameter {
                        Some(p) => format!("catch ({}):", text_of(p, self.src)),
                        None => "catch:".to_string(),
                    };
                    branches.push(Branch {
                        header,
                        body: handler.child_by_field_name("body"),
                        always: true,
                    });
                }
                if let Some(finalizer) = field("finalizer") {
                    branches.push(Branch {
                        header: "finally:".to_string(),
                        body: finalizer.child_by_field_name("body"),
                        always: true,
                    });
                }
                Shape::Branches(branches)
            }
            "statement_block" => Shape::Through(node),
            "function_declaration" | "generator_function_declaration" => {
                self.nested_function(node, field("body"))
            }
            "class_declaration" => self.nested(field("name")),
            "lexical_declaration" | "variable_declaration" => {
                // `var done = function (…) {…}`: a nested function, its header and its body.
                let declarators = code_children(node);
                let function = declarators.iter().find_map(|d| {
                    d.child_by_field_name("value")
                        .filter(|v| is_function(*v))
                        .map(|v| (d, v))
                });
                let sets_nothing = declarators
                    .iter()
                    .all(|d| d.child_by_field_name("value").is_none());
                match (declarators.len(), function) {
                    (1, Some((_, function))) => {
                        self.nested_function(node, function.child_by_field_name("body"))
                    }
                    // `var body;`: a name declared, set further down.
                    _ if sets_nothing => Shape::Skip,
                    _ => Shape::Leaf(node),
                }
            }
            "empty_statement" | "comment" | "import_statement" => Shape::Skip,
            // A `switch` case's closing `break` (a `break` elsewhere leaves a loop early: shown).
            "break_statement" if ends_a_case(node) => Shape::Skip,
            // A directive (`'use strict'`).
            "expression_statement" if is_lone_string(node) => Shape::Skip,
            "expression_statement" => match self.callback_ends(node) {
                Some(ends) => Shape::Callbacks(node, ends),
                None => Shape::Leaf(node),
            },
            _ => Shape::Leaf(node),
        }
    }

    /// For a statement calling something with an object literal of functions (`format({ text:
    /// function () { body = … }, … })`), each function's key and its body's last statement (`text:
    /// body = statuses.message[status] + '. Redirecting to ' + address`); none otherwise.
    fn callback_ends(&self, statement: Node<'_>) -> Option<Vec<String>> {
        let call = code_children(statement).into_iter().next()?;
        if call.kind() != "call_expression" {
            return None;
        }
        let args = call.child_by_field_name("arguments")?;
        let object = code_children(args)
            .into_iter()
            .find(|a| a.kind() == "object")?;
        let mut ends = Vec::new();
        for pair in code_children(object) {
            let (Some(key), Some(value)) = (
                pair.child_by_field_name("key"),
                pair.child_by_field_name("value"),
            ) else {
                continue;
            };
            if !is_function(value) {
                continue;
            }
            let body = value.child_by_field_name("body")?;
            let last = match body.kind() {
                "statement_block" => code_children(body).into_iter().last(),
                _ => Some(body),
            };
            let text = last.map_or(String::new(), |l| {
                let text = text_of(l, self.src).trim_end();
                shorten(text.strip_suffix(';').unwrap_or(text), LINE_CHARS - 10)
            });
            let key = text_of(key, self.src).trim_matches(['\'', '"']);
            ends.push(format!("{key}: {text}"));
        }
        (!ends.is_empty()).then_some(ends)
    }

    fn rust<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "expression_statement" => match code_children(node).into_iter().next() {
                Some(inner) if is_rust_control(inner.kind()) => self.rust(inner),
                Some(inner) if self.is_diagnostic(inner) => Shape::Skip,
                _ => Shape::Leaf(node),
            },
            "let_declaration" => match field("value") {
                Some(value) if is_rust_control(value.kind()) => {
                    let prefix = self.head(node, Some(value));
                    match self.rust(value) {
                        Shape::Branches(mut branches) => {
                            if let Some(first) = branches.first_mut() {
                                first.header = format!("{prefix} {}", first.header);
                            }
                            Shape::Branches(branches)
                        }
                        _ => Shape::Leaf(node),
                    }
                }
                _ => Shape::Leaf(node),
            },
            "if_expression" => self.if_chain(node, "if_expression", false),
            "match_expression" => {
                let header = format!("match {}:", self.header(field("value")));
                Shape::Branches(vec![Branch::new(header, field("body"))])
            }
            "match_arm" => {
                let value = field("value");
                let pattern = self.header(field("pattern"));
                match value {
                    Some(v) if v.kind() == "block" || is_rust_control(v.kind()) => {
                        Shape::Branches(vec![Branch::new(format!("{pattern} =>"), Some(v))])
                    }
                    // `BinaryDetection::Convert(b) => b`, `_ => Ok(false)`.
                    Some(_) => Shape::Leaf(node),
                    None => Shape::Skip,
                }
            }
            "for_expression" | "while_expression" | "loop_expression" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "block" => Shape::Through(node),
            "unsafe_block" | "async_block" => {
                let block = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "block");
                let header = format!(
                    "{}:",
                    text_of(node, self.src)
                        .split('{')
                        .next()
                        .unwrap_or("")
                        .trim()
                );
                Shape::Branches(vec![Branch::new(header, block)])
            }
            "function_item" => self.nested_function(node, field("body")),
            "struct_item" | "enum_item" | "trait_item" | "mod_item" => self.nested(field("name")),
            "impl_item" => self.nested(field("type")),
            "line_comment" | "block_comment" | "use_declaration" | "attribute_item"
            | "empty_statement" | "const_item" | "static_item" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// A function defined inside the body (a decorator's `wrapper`, a callback bound to a name):
    /// its header, and its body's steps under it — what it does is part of what the member does.
    fn nested_function<'t>(&self, node: Node<'t>, body: Option<Node<'t>>) -> Shape<'t> {
        let header = format!("{}:", self.head(node, body));
        Shape::Branches(vec![Branch {
            header,
            body,
            always: true,
        }])
    }

    /// A definition inside the body, by its name.
    fn nested<'t>(&self, name: Option<Node<'t>>) -> Shape<'t> {
        match name {
            Some(name) => Shape::Nested(text_of(name, self.src).to_string()),
            None => Shape::Skip,
        }
    }

    /// Whether a statement calls the member itself. Nested function bodies are looked into (a
    /// callback's calls are the statement's).
    fn recursive(&self, node: Node<'_>) -> bool {
        let mut recursive = false;
        super::syntax::walk(node, (), |n, ()| {
            match n.kind() {
                "call"
                | "call_expression"
                | "new_expression"
                | "method_invocation"
                | "object_creation_expression"
                    if !self.builds_value(n) && self.calls_itself(n) =>
                {
                    recursive = true;
                }
                "string" | "string_literal" | "comment" | "line_comment" | "block_comment" => {
                    return None;
                }
                _ => {}
            }
            Some(())
        });
        recursive
    }

    /// A developer's diagnostic: `debug!(…)`, `trace!(…)`, `dbg!(…)` (what a run logs at its
    /// finest levels says nothing of what the member does).
    fn is_diagnostic(&self, node: Node<'_>) -> bool {
        node.kind() == "macro_invocation"
            && node
                .child_by_field_name("macro")
                .map(|m| text_of(m, self.src))
                .is_some_and(|name| matches!(name, "debug" | "trace" | "dbg"))
    }

    /// A Rust call of a capitalised name (`Ok(x)`, `Some(x)`, `Kind::Variant(x)`) builds a value.
    fn builds_value(&self, call: Node<'_>) -> bool {
        self.language == Language::Rust
            && call.child_by_field_name("function").is_some_and(|f| {
                let text = text_of(f, self.src);
                let last = text.rsplit("::").next().unwrap_or(text);
                last.starts_with(char::is_uppercase)
            })
    }

    /// A call of the member itself: bare, or through `self`/`this`/`Self`.
    fn calls_itself(&self, call: Node<'_>) -> bool {
        if call.kind() == "method_invocation" {
            let object = call
                .child_by_field_name("object")
                .map(|o| text_of(o, self.src));
            let name = call
                .child_by_field_name("name")
                .map(|n| text_of(n, self.src));
            return name == Some(self.name) && matches!(object, None | Some("this"));
        }
        let Some(function) = call
            .child_by_field_name("function")
            .or_else(|| call.child_by_field_name("constructor"))
        else {
            return false;
        };
        let text: String = text_of(function, self.src)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let callee = ["self.", "this.", "Self::", "cls."]
            .iter()
            .find_map(|prefix| text.strip_prefix(prefix))
            .unwrap_or(&text);
        // A Go method through its receiver (`s.Serve` in `func (s *Server) Serve`).
        let receiver = match self.language {
            Language::Go => super::go::receiver_name_around(call, self.src),
            _ => None,
        };
        let through_receiver = receiver
            .and_then(|r| text.strip_prefix(r)?.strip_prefix('.'))
            .is_some_and(|callee| callee == self.name);
        callee == self.name || through_receiver
    }
}

/// An empty `else`/`elif` is left out; an empty `if` of a chain that shows stays (so an `else`
/// never stands alone).
fn read_is_chain_tail(branch: &Branch<'_>) -> bool {
    let header = branch.header.as_str();
    header.starts_with("else") || header.starts_with("elif")
}

fn is_rust_control(kind: &str) -> bool {
    matches!(
        kind,
        "if_expression"
            | "match_expression"
            | "for_expression"
            | "while_expression"
            | "loop_expression"
            | "unsafe_block"
            | "block"
    )
}

fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_expression" | "function" | "arrow_function" | "generator_function"
    )
}

/// Whether `statement` is the last of a `switch` case.
fn ends_a_case(statement: Node<'_>) -> bool {
    statement.next_named_sibling().is_none()
        && statement
            .parent()
            .is_some_and(|p| matches!(p.kind(), "switch_case" | "switch_default"))
}

/// A statement that is a string literal alone: a docstring, a directive.
fn is_lone_string(statement: Node<'_>) -> bool {
    let children = code_children(statement);
    children.len() == 1 && matches!(children[0].kind(), "string" | "concatenated_string")
}

/// `(cond)` → `cond`.
fn unparenthesized(node: Node<'_>) -> Node<'_> {
    match node.kind() {
        "parenthesized_expression" => code_children(node).into_iter().next().unwrap_or(node),
        _ => node,
    }
}

/// `steps` as lines, within `max_lines`: the deepest levels folded first (a folded step ends
/// with ` …`), then the steps past the limit counted on a last line.
fn render(steps: &[Step], max_lines: usize) -> Flow {
    let deepest = depth_of(steps);
    let mut depth = deepest;
    while depth > 0 && count(steps, depth) > max_lines {
        depth -= 1;
    }
    // The room left opens folded steps one by one, in order, each by one level.
    let mut room = max_lines.saturating_sub(count(steps, depth));
    let mut open: HashSet<*const Step> = HashSet::new();
    open_within(steps, 0, depth, &mut room, &mut open);
    let mut lines = Vec::new();
    push_lines(steps, 0, depth, &open, &mut lines);
    let cut = depth < deepest || lines.len() > max_lines;
    if lines.len() > max_lines {
        let more = lines.len() - (max_lines - 1);
        lines.truncate(max_lines - 1);
        lines.push(FlowLine {
            depth: 0,
            text: format!("… and {more} more steps"),
        });
    }
    Flow { lines, cut }
}

/// The levels of steps below the first.
fn depth_of(steps: &[Step]) -> usize {
    steps
        .iter()
        .map(|s| match s.children.is_empty() {
            true => 0,
            false => 1 + depth_of(&s.children),
        })
        .max()
        .unwrap_or(0)
}

/// Lines shown when levels below `depth` are folded.
fn count(steps: &[Step], depth: usize) -> usize {
    steps
        .iter()
        .map(|s| match depth {
            0 => 1,
            _ => 1 + count(&s.children, depth - 1),
        })
        .sum()
}

/// Marks the steps folded at `depth` whose children fit in `room` lines as open, in order.
fn open_within(
    steps: &[Step],
    at: usize,
    depth: usize,
    room: &mut usize,
    open: &mut HashSet<*const Step>,
) {
    for step in steps.iter().filter(|s| !s.children.is_empty()) {
        if at < depth {
            open_within(&step.children, at + 1, depth, room, open);
        } else if step.children.len() <= *room {
            *room -= step.children.len();
            open.insert(step as *const Step);
        }
    }
}

fn push_lines(
    steps: &[Step],
    at: usize,
    depth: usize,
    open: &HashSet<*const Step>,
    out: &mut Vec<FlowLine>,
) {
    for step in steps {
        let opened = open.contains(&(step as *const Step));
        let folded = !step.children.is_empty() && at >= depth && !opened;
        let text = match folded {
            true => format!("{} …", step.text),
            false => step.text.clone(),
        };
        out.push(FlowLine { depth: at, text });
        if opened {
            // One level more: its children's own children stay folded.
            push_lines(&step.children, at + 1, at + 1, &HashSet::new(), out);
        } else if !folded {
            push_lines(&step.children, at + 1, depth, open, out);
        }
    }
}

/// `text` on one line: whitespace collapsed, `self.`/`this.` left out, and — past `max`
/// characters — the innermost bracket groups folded to `(…)`, `[…]`, `{…}` until it fits, then
/// cut with `…`.
pub fn shorten(text: &str, max: usize) -> String {
    let mut line = String::with_capacity(text.len().min(4 * max));
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = !line.is_empty();
            continue;
        }
        if space && !matches!(c, ')' | ']' | ',' | '.' | ';') && !line.ends_with(['(', '[']) {
            line.push(' ');
        }
        space = false;
        line.push(c);
    }
    let mut line = without_self(&line);
    let mut level = deepest_level(&line);
    while line.chars().count() > max && level > 0 {
        let chars: Vec<char> = line.chars().collect();
        if let Some(folded) = fold_level(&chars, level) {
            line = folded;
        }
        level -= 1;
    }
    if line.chars().count() > max {
        line = line.chars().take(max.saturating_sub(1)).collect::<String>() + "…";
    }
    line
}

/// `line` without the `self.`/`this.` receivers that start a name.
fn without_self(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        let starts_name = out
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'));
        if starts_name {
            if let Some(after) = rest
                .strip_prefix("self.")
                .or_else(|| rest.strip_prefix("this."))
            {
                rest = after;
                continue;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// The deepest bracket nesting of `line` outside string literals.
fn deepest_level(line: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// `chars` with the contents of the bracket groups at `level` (1: outermost) folded to `…`;
/// `None` when nothing changed. A quote inside a group is folded with it.
fn fold_level(chars: &[char], level: usize) -> Option<String> {
    if level == 0 {
        return None;
    }
    let mut out = String::new();
    let mut inside = String::new();
    let mut depth = 0usize;
    let mut changed = false;
    let mut quote: Option<char> = None;
    for &c in chars {
        let was_quoted = quote.is_some();
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            _ => {}
        }
        let opening = !was_quoted && matches!(c, '(' | '[' | '{');
        let closing = !was_quoted && matches!(c, ')' | ']' | '}');
        if closing && depth == level {
            if !inside.is_empty() && inside != "…" {
                changed = true;
                out.push('…');
            } else {
                out.push_str(&inside);
            }
            inside.clear();
        }
        match depth >= level && !(closing && depth == level) {
            true => inside.push(c),
            false => out.push(c),
        }
        if opening {
            depth += 1;
        }
        if closing {
            depth = depth.saturating_sub(1);
        }
    }
    out.push_str(&inside);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::super::SourceFile;
    use super::*;

    /// The flow of member `label` of `text`, one line a step, indented two spaces a level.
    fn flow_of(language: Language, text: &str, label: &str) -> Vec<String> {
        let file = SourceFile::parse(language, text.to_string()).expect("parses");
        let definition = file.definition(label).expect("defined");
        file.flow(definition, MAX_LINES).indented()
    }

    #[test]
    fn python_every_statement_branches_and_recursion_but_no_docstring() {
        let text = "class App:\n    def dispatch_request(self, ctx):\n        \"\"\"Doc.\"\"\"\n        req = ctx.request\n        if req.routing_exception is not None:\n            self.raise_routing_exception(req)\n        elif req.x:\n            y = 1\n        else:\n            pass\n        for rule in self.rules:\n            z = 2\n        try:\n            rv = self.ensure_sync(self.view_functions[rule.endpoint])(**req.view_args)\n        except KeyError as e:\n            raise NotFound() from e\n        finally:\n            pass\n        return rv\n\n\
                    def walk(n):\n    for c in n.children:\n        walk(c)\n    return helper(n)\n";
        assert_eq!(
            flow_of(Language::Python, text, "App.dispatch_request"),
            [
                "req = ctx.request",
                "if req.routing_exception is not None:",
                "  raise_routing_exception(req)",
                "elif req.x:",
                "  y = 1",
                "for rule in rules:",
                "  z = 2",
                "try:",
                "  rv = ensure_sync(view_functions[rule.endpoint])(**req.view_args)",
                "except KeyError as e:",
                "  raise NotFound() from e",
                "finally:",
                "return rv",
            ]
        );
        let decorator = "def copy_context(f):\n    ctx = current()\n\n    @wraps(f)\n    def wrapper(*args):\n        with ctx:\n            return f(*args)\n\n    return wrapper\n";
        assert_eq!(
            flow_of(Language::Python, decorator, "copy_context"),
            [
                "ctx = current()",
                "def wrapper(*args):",
                "  with ctx:",
                "    return f(*args)",
                "return wrapper",
            ]
        );
        assert_eq!(
            flow_of(Language::Python, text, "walk"),
            [
                "for c in n.children:",
                "  walk(c)  (recursive)",
                "return helper(n)",
            ]
        );
    }

    #[test]
    fn javascript_every_statement_chains_switches_and_callbacks() {
        let text = "res.send = function send(body) {\n  var chunk = body;\n  switch (typeof chunk) {\n    case 'string':\n      this.type('html');\n      break;\n    case 'number':\n    case 'object':\n      return this.json(chunk);\n  }\n  if (req.fresh) this.status(304);\n  else if (x) { y = 1 }\n  else { this.end(); }\n  var done = function (err) { next(err); };\n  onFinished(this, function () { done(); });\n  return this;\n};\n";
        assert_eq!(
            flow_of(Language::JavaScript, text, "res.send"),
            [
                "var chunk = body",
                "switch (typeof chunk):",
                "  case 'string':",
                "    type('html')",
                "  case 'number':",
                "  case 'object':",
                "    return json(chunk)",
                "if req.fresh:",
                "  status(304)",
                "else if x:",
                "  y = 1",
                "else:",
                "  end()",
                "var done = function (err):",
                "  next(err)",
                "onFinished(this, function () { done(); })",
                "return this",
            ]
        );
    }

    #[test]
    fn rust_matches_lets_and_question_marks() {
        let text = "impl Semaphore {\n    pub async fn acquire(&self) -> Result<Permit<'_>, AcquireError> {\n        let inner = trace::async_op(|| self.ll_sem.acquire(1), self.resource_span.clone());\n        match inner.await {\n            Ok(()) => Ok(Permit { sem: self, permits: 1 }),\n            Err(e) => return Err(e),\n        }\n    }\n}\n";
        assert_eq!(
            flow_of(Language::Rust, text, "Semaphore.acquire"),
            [
                "let inner = trace::async_op(|| ll_sem.acquire(1), resource_span.clone())",
                "match inner.await:",
                "  Ok(()) => Ok(Permit { sem: self, permits: 1 })",
                "  Err(e) => return Err(e)",
            ]
        );
    }

    #[test]
    fn long_flows_fold_deep_levels_then_count() {
        let mut text = String::from("def big(x):\n");
        for i in 0..12 {
            text.push_str(&format!(
                "    if x == {i}:\n        a{i}()\n        b{i}()\n"
            ));
        }
        // Folded to one line a branch, the 8 lines left open the first four branches again.
        let lines = flow_of(Language::Python, &text, "big");
        assert_eq!(lines.len(), MAX_LINES);
        assert_eq!(
            lines[9..13],
            ["if x == 3:", "  a3()", "  b3()", "if x == 4: …"]
        );
        for i in 0..10 {
            text.push_str(&format!("    c{i}()\n"));
        }
        let lines = flow_of(Language::Python, &text, "big");
        assert_eq!(lines.len(), MAX_LINES);
        assert_eq!(lines[19], "… and 3 more steps");
        // Asked for whole: every step, nothing folded.
        let file = SourceFile::parse(Language::Python, text).expect("parses");
        let definition = file.definition("big").expect("defined");
        let whole = file.flow(definition, FULL_LINES);
        assert!(!whole.cut);
        assert_eq!(whole.lines.len(), 12 * 3 + 10);
        assert!(file.flow(definition, MAX_LINES).cut);
    }

    #[test]
    fn long_lines_fold_their_innermost_groups() {
        assert_eq!(
            shorten("self.app.ensure_sync(func)(**req.view_args)", 90),
            "app.ensure_sync(func)(**req.view_args)"
        );
        let call = "return f(alpha(beta, gamma), delta(epsilon), zeta)";
        assert_eq!(shorten(call, 40), "return f(alpha(…), delta(…), zeta)");
        assert_eq!(shorten(call, 30), "return f(…)");
        assert_eq!(shorten("x = call(a,\n    b)", 90), "x = call(a, b)");
        assert_eq!(shorten("g(\"(\", a(b))", 8), "g(…)");
    }
}
