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

use super::calls::CallSyntax;
use super::syntax::{code_children, text_of};

/// Lines of a flow, at most, as a member is shown by default.
pub const MAX_LINES: usize = 20;
/// Lines of a flow asked for whole (`--full`), at most: every step a body of [`MAX_STEPS`] has.
pub const FULL_LINES: usize = MAX_STEPS;
/// Characters of one line, at most (its indentation not counted).
pub const LINE_CHARS: usize = 90;
/// Characters a step's line may take when the whole outline is asked for (`--full`): an
/// expression is shown whole unless it is longer still (express's `redirect` builds its HTML
/// body in one 160-character concatenation).
pub const WHOLE_LINE_CHARS: usize = 400;
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
pub(crate) fn flow(
    syntax: &'static dyn FlowSyntax,
    definition: Node<'_>,
    src: &str,
    name: &str,
    max_lines: usize,
) -> Flow {
    let Some(body) = syntax
        .function_body(definition)
        .or_else(|| body_of(definition))
    else {
        return Flow::default();
    };
    let mut reader = Reader {
        syntax,
        src,
        name,
        line_chars: match max_lines >= FULL_LINES {
            true => WHOLE_LINE_CHARS,
            false => LINE_CHARS,
        },
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

/// How one language's statements show in a flow (its [`crate::source::lang::walks::Walks`]).
pub(crate) trait FlowSyntax: CallSyntax {
    /// How a statement shows in a member's flow.
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t>;

    /// The body of a function's definition when its grammar holds it in no `body` field (Kotlin's
    /// `function_body` child); `None`: the `body` field, as most grammars name it.
    fn function_body<'t>(&self, _definition: Node<'t>) -> Option<Node<'t>> {
        None
    }

    /// Whether a block ends in a value (Rust's tail expressions), shown as `→ value`.
    fn blocks_end_in_values(&self) -> bool {
        false
    }

    /// The condition a statement is compiled under, written before it (Rust's `#[cfg(unix)]`):
    /// shown before its step, which without it would say the step always runs.
    fn gate(&self, _statement: Node<'_>, _src: &str) -> Option<String> {
        None
    }
}

pub(crate) struct Reader<'s> {
    syntax: &'static dyn FlowSyntax,
    pub(crate) src: &'s str,
    name: &'s str,
    /// The characters a line may take ([`LINE_CHARS`], or [`WHOLE_LINE_CHARS`] for a whole
    /// outline).
    pub(crate) line_chars: usize,
    /// Statements read so far.
    steps: usize,
}

/// What a statement is to the outline.
pub(crate) enum Shape<'t> {
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

pub(crate) struct Branch<'t> {
    pub(crate) header: String,
    pub(crate) body: Option<Node<'t>>,
    pub(crate) always: bool,
}

impl<'t> Branch<'t> {
    pub(crate) fn new(header: String, body: Option<Node<'t>>) -> Branch<'t> {
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
        if !self.syntax.blocks_end_in_values() {
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
        let mut text = format!("→ {}", shorten(text_of(value, self.src), self.line_chars));
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
                | "compound_statement"
                | "colon_block"
                // Ruby's bodies: a method's, a branch's, a loop's, a handler's.
                | "body_statement"
                | "block_body"
                | "then"
                | "else"
                | "do"
                | "begin"
                | "ensure"
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
                | "case_statement"
                | "default_statement"
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
        let before = out.len();
        self.shaped_statement(node, out);
        if let (Some(gate), true) = (self.syntax.gate(node, self.src), out.len() > before) {
            let step = &mut out[before];
            step.text = format!("{gate} {}", step.text);
        }
    }

    fn shaped_statement<'t>(&mut self, node: Node<'t>, out: &mut Vec<Step>) {
        match self.shape(node) {
            Shape::Skip => {}
            Shape::Nested(name) => match out.last_mut() {
                Some(last) if last.text.starts_with(DEFINES) && last.children.is_empty() => {
                    last.text = shorten(&format!("{}, {name}", last.text), self.line_chars);
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
                        // Its callbacks' bodies are the lines below: folded on its own line.
                        text: shorten(&text, LINE_CHARS),
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
        let mut text = shorten(text, self.line_chars);
        if self.recursive(node) {
            text.push_str("  (recursive)");
        }
        Some(text)
    }

    fn shape<'t>(&self, node: Node<'t>) -> Shape<'t> {
        self.syntax.flow_shape(self, node)
    }

    pub(crate) fn header(&self, node: Option<Node<'_>>) -> String {
        node.map(|n| shorten(text_of(n, self.src), self.line_chars - 10))
            .unwrap_or_default()
    }

    /// The text of `node` before its body (a `for` header, a `with` clause).
    pub(crate) fn head(&self, node: Node<'_>, body: Option<Node<'_>>) -> String {
        let end = body.map_or(node.end_byte(), |b| b.start_byte());
        let text = self.src.get(node.start_byte()..end).unwrap_or("");
        let text = text.trim_end().trim_end_matches(':').trim_end();
        shorten(text, self.line_chars - 4)
    }

    /// An `if … else if … else` chain (JavaScript `if_statement`, Rust `if_expression`: `kind`) as
    /// one list of branches; `parenthesized`: the condition is written in parentheses, dropped.
    pub(crate) fn if_chain<'t>(
        &self,
        node: Node<'t>,
        kind: &str,
        parenthesized: bool,
    ) -> Shape<'t> {
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

    /// A function defined inside the body (a decorator's `wrapper`, a callback bound to a name):
    /// its header, and its body's steps under it — what it does is part of what the member does.
    pub(crate) fn nested_function<'t>(&self, node: Node<'t>, body: Option<Node<'t>>) -> Shape<'t> {
        let header = format!("{}:", self.head(node, body));
        Shape::Branches(vec![Branch {
            header,
            body,
            always: true,
        }])
    }

    /// A definition inside the body, by its name.
    pub(crate) fn nested<'t>(&self, name: Option<Node<'t>>) -> Shape<'t> {
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
    pub(crate) fn is_diagnostic(&self, node: Node<'_>) -> bool {
        node.kind() == "macro_invocation"
            && node
                .child_by_field_name("macro")
                .map(|m| text_of(m, self.src))
                .is_some_and(|name| matches!(name, "debug" | "trace" | "dbg"))
    }

    /// A Rust call of a capitalised name (`Ok(x)`, `Some(x)`, `Kind::Variant(x)`) builds a value.
    fn builds_value(&self, call: Node<'_>) -> bool {
        self.syntax.call_kinds().capitalised_builds_value
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
        let receiver = self.syntax.own_receiver(call, self.src);
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

pub(crate) fn is_rust_control(kind: &str) -> bool {
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

pub(crate) fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_expression" | "function" | "arrow_function" | "generator_function"
    )
}

/// Whether `statement` is the last of a `switch` case that does something before it: a closing
/// `break` there says nothing the outline needs. A case holding only `break` is not one — it does
/// nothing, where a case with no statement falls through to the next (`case false: break;` is not
/// `case false:` above `case 'strong': fn = etag`).
pub(crate) fn ends_a_case(statement: Node<'_>) -> bool {
    let Some(case) = statement
        .parent()
        .filter(|p| matches!(p.kind(), "switch_case" | "switch_default"))
    else {
        return false;
    };
    let value = case.child_by_field_name("value").map(|v| v.id());
    let after_another = statement
        .prev_named_sibling()
        .is_some_and(|before| Some(before.id()) != value && before.kind() != "comment");
    statement.next_named_sibling().is_none() && after_another
}

/// A statement that is a string literal alone: a docstring, a directive.
pub(crate) fn is_lone_string(statement: Node<'_>) -> bool {
    let children = code_children(statement);
    children.len() == 1 && matches!(children[0].kind(), "string" | "concatenated_string")
}

/// `(cond)` → `cond`.
pub(crate) fn unparenthesized(node: Node<'_>) -> Node<'_> {
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

/// `line` without the `self.`/`this.` receivers that start a name — unless the line names a
/// local of that name too (`mem::swap(&mut paths, &mut self.paths)` keeps its `self.`).
fn without_self(line: &str) -> String {
    let bare = bare_words(line);
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
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !bare.contains(&name) {
                    rest = after;
                    continue;
                }
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

/// The identifiers of `line` that follow no `.` (locals and free names, not fields).
fn bare_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut previous: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let starts = (c.is_alphabetic() || c == '_')
            && previous.is_none_or(|p| !(p.is_alphanumeric() || p == '_' || p == '.'));
        if starts {
            let mut end = at + c.len_utf8();
            while let Some(&(next_at, next)) = chars.peek() {
                if !(next.is_alphanumeric() || next == '_') {
                    break;
                }
                end = next_at + next.len_utf8();
                chars.next();
            }
            words.push(line[at..end].to_string());
            previous = line[..end].chars().next_back();
            continue;
        }
        previous = Some(c);
    }
    words
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
    use crate::source::Language;

    /// `self.` goes unless the line has a local of the field's name (ripgrep's
    /// `std::mem::swap(&mut paths, &mut self.paths)` read as swapping `paths` with itself).
    #[test]
    fn self_stays_where_a_local_shares_the_fields_name() {
        assert_eq!(without_self("self.inner.send(x)"), "inner.send(x)");
        assert_eq!(
            without_self("std::mem::swap(&mut paths, &mut self.paths)"),
            "std::mem::swap(&mut paths, &mut self.paths)"
        );
        assert_eq!(without_self("this.x = x.y + this.z"), "this.x = x.y + z");
    }

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

    /// A whole outline (`--full`) shows a long statement whole — flask's `raise TypeError(…)`
    /// messages tied to their branch — where the default folds it to a line.
    #[test]
    fn a_whole_outline_keeps_long_lines_whole() {
        let message = "The view function did not return a valid response tuple. The tuple must have the form (body, status, headers).";
        let text = format!("def make(rv):\n    if rv is None:\n        raise TypeError(\"{message}\")\n    return rv\n");
        let file = SourceFile::parse(Language::Python, text).expect("parses");
        let definition = file.definition("make").expect("defined");
        let folded = file.flow(definition, MAX_LINES).indented();
        assert!(folded[1].chars().count() <= LINE_CHARS + 2, "{folded:?}");
        let whole = file.flow(definition, FULL_LINES).indented();
        assert_eq!(whole[1], format!("  raise TypeError(\"{message}\")"));
    }

    /// express's `compileETag`: `case false: break;` does nothing; shown as the labels above
    /// `case 'strong':` it would say that `false` gives the strong etag.
    #[test]
    fn javascript_a_case_holding_only_break_is_not_a_fall_through() {
        let text = "exports.compileETag = function (val) {\n  var fn;\n  switch (val) {\n    case true:\n    case 'weak':\n      fn = exports.wetag;\n      break;\n    case false:\n      break;\n    case 'strong':\n      fn = exports.etag;\n      break;\n    default:\n      throw new TypeError('unknown');\n  }\n  return fn;\n};\n";
        assert_eq!(
            flow_of(Language::JavaScript, text, "compileETag"),
            [
                "switch (val):",
                "  case true:",
                "  case 'weak':",
                "    fn = exports.wetag",
                "  case false:",
                "    break",
                "  case 'strong':",
                "    fn = exports.etag",
                "  default:",
                "    throw new TypeError('unknown')",
                "return fn",
            ]
        );
    }

    /// A statement compiled only under a `cfg` says so: without it the step would read as one
    /// that always runs.
    #[test]
    fn rust_statements_keep_their_cfg_gate() {
        let text = "fn open(p: &Path) -> io::Result<File> {\n    #[cfg(unix)]\n    let f = unix_open(p)?;\n    #[cfg(windows)]\n    #[allow(unused)]\n    let f = windows_open(p)?;\n    Ok(f)\n}\n";
        assert_eq!(
            flow_of(Language::Rust, text, "open"),
            [
                "#[cfg(unix)] let f = unix_open(p)?",
                "#[cfg(windows)] let f = windows_open(p)?",
                "→ Ok(f)",
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
