//! Local names whose type a declaration states, so that a call through one is a call of that
//! type's method: `rt.block_on(…)` with `rt: &crate::runtime::Runtime` (a Rust parameter), `ctx:
//! AppContext` (a Python annotation), `let sem: Arc<Semaphore> = …`, `const app: Express = …` —
//! recorded as `.block_on@Runtime`, which `workspace::calls` matches to `Runtime::block_on` as it
//! matches a receiver named for its type. Only what is written: a declared type, a constructor
//! (`x = Cls(…)`, `new Cls(…)`), or a function of the file whose return type is written (`ctx =
//! self.request_context(environ)` with `-> AppContext`).

use tree_sitter::Node;

use crate::source::syntax::{code_children, text_of};

/// Return types that tell nothing of whose method a call is (a `Result` or an `Option` is
/// unwrapped first, `Self` is the impl's own type, a builder names itself).
const UNTELLING: &[&str] = &["Result", "Option", "Self", "String", "Vec"];

/// The shortest type name told apart from a generic parameter's (the length `workspace::calls`
/// matches public names by across files).
const MIN_TYPE_NAME: usize = 3;

/// Separates the steps of a chain type: a root type and the methods called on it in order
/// (`SearcherBuilder+new+line+build` of `SearcherBuilder::new().line(2).build()`), typed across
/// files by the graph from the return types the files declare (`workspace::graph`).
pub const CHAIN: char = '+';

/// Method calls that give back what their receiver holds (`?`, `.await` likewise): skipped in a
/// chain (`build().unwrap()` is what `build` returns, a `Result` unwrapped).
const PASS_THROUGH: &[&str] = &["unwrap", "expect", "clone", "to_owned", "unwrap_or_default"];

/// Chains followed at most this many steps deep.
const MAX_CHAIN: usize = 8;

/// Smart pointers and wrappers whose methods are (through `Deref`) their content's.
const WRAPPERS: &[&str] = &[
    "Arc",
    "Rc",
    "Box",
    "Pin",
    "Ref",
    "RefMut",
    "MutexGuard",
    "RwLockReadGuard",
    "RwLockWriteGuard",
    "ManuallyDrop",
    "LazyLock",
    "Lazy",
    "Cow",
];

/// How one language's locals and receivers are typed (its [`crate::source::lang::walks::Walks`]).
pub(crate) trait TypedSyntax {
    /// The object a method call goes through (`x` of `x.name(…)`, `rt()` of `rt().block_on(…)`).
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>>;

    /// The local names `node` declares with a stated or made type, appended to `out`.
    fn declared(
        &self,
        node: Node<'_>,
        src: &str,
        returns: &Returns,
        out: &mut Vec<(String, String)>,
    );

    /// Whether its functions' written return types type the receivers they make.
    fn reads_return_types(&self) -> bool {
        false
    }
}

/// A declarator's name and type (Rust `let x: T = …`, JavaScript/TypeScript/Java `x = …`), or the
/// type of the value it is made from.
pub(crate) fn declarator(
    node: Node<'_>,
    src: &str,
    returns: &Returns,
    out: &mut Vec<(String, String)>,
) {
    let field = |name: &str| node.child_by_field_name(name);
    let name = field("pattern").or(field("name"));
    match field("type") {
        Some(ty) => push(out, name, Some(ty), src),
        None => push_made(out, name, field("value"), src, returns),
    }
}

/// The names `node` declares with a stated type: a function's parameters, a `let` / annotated
/// assignment / declarator with a type; `(name, type)` pairs, the type its final identifier.
pub(super) fn declared(
    syntax: &dyn TypedSyntax,
    node: Node<'_>,
    src: &str,
    returns: &Returns,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let kind = node.kind();
    if !declares(kind) {
        return out;
    }
    let field = |name: &str| node.child_by_field_name(name);
    syntax.declared(node, src, returns, &mut out);
    if let Some(parameters) = field("parameters").filter(|_| takes_parameters(kind)) {
        for parameter in code_children(parameters) {
            let (name, ty) = match parameter.kind() {
                // Java `T x`.
                "formal_parameter" => (
                    parameter.child_by_field_name("name"),
                    parameter.child_by_field_name("type"),
                ),
                // Rust `x: T`, TypeScript `x: T` / `x?: T`.
                "parameter" | "required_parameter" | "optional_parameter" => (
                    parameter.child_by_field_name("pattern"),
                    parameter.child_by_field_name("type"),
                ),
                // Go `x *T` (the names before one type: `a, b T`).
                "parameter_declaration" => {
                    let ty = parameter.child_by_field_name("type");
                    let mut cursor = parameter.walk();
                    for name in parameter.children_by_field_name("name", &mut cursor) {
                        push(&mut out, Some(name), ty, src);
                    }
                    continue;
                }
                // Python `x: T`, `x: T = d`.
                "typed_parameter" => (
                    code_children(parameter)
                        .into_iter()
                        .find(|c| c.kind() == "identifier"),
                    parameter.child_by_field_name("type"),
                ),
                "typed_default_parameter" => (
                    parameter.child_by_field_name("name"),
                    parameter.child_by_field_name("type"),
                ),
                _ => continue,
            };
            push(&mut out, name, ty, src);
        }
    }
    out
}

/// What a member's calls are typed by: its typed locals, the file's return types, and the fields
/// its type declares (`self.inner` of a member of `container`).
#[derive(Clone, Copy)]
pub(super) struct Typed<'a> {
    pub locals: &'a [(String, String)],
    pub returns: &'a Returns,
    pub fields: &'a Fields,
    /// The member's container (its class, `impl` type), whose fields `self.x` names.
    pub container: Option<&'a str>,
}

/// The fields a file's types declare with a written type: Rust `struct Tx { inner: Chan<T> }`,
/// Python class annotations `application: Flask`, TypeScript `private inner: Chan` — what
/// `self.inner.send(…)` goes through (`(Tx, inner, Chan)`).
#[derive(Debug, Default)]
pub(crate) struct Fields(Vec<(String, String, String)>);

impl Fields {
    /// The typed fields of the module's types and of those one level down (a Rust `mod`, an
    /// `export`ed or decorated class).
    pub(super) fn of(root: Node<'_>, src: &str) -> Fields {
        let mut out = Vec::new();
        collect_fields(root, src, 0, &mut out);
        Fields(out)
    }

    fn of_field(&self, container: &str, field: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(owner, name, _)| owner == container && name == field)
            .map(|(_, _, ty)| ty.as_str())
    }
}

/// The types of `node` (and of the modules, exports and decorations one level down) with their
/// typed fields.
fn collect_fields(
    node: Node<'_>,
    src: &str,
    depth: usize,
    out: &mut Vec<(String, String, String)>,
) {
    for child in code_children(node) {
        match child.kind() {
            "struct_item" | "class_definition" | "class_declaration" | "class" => {
                type_fields(child, src, out);
            }
            "mod_item" if depth < 1 => {
                if let Some(body) = child.child_by_field_name("body") {
                    collect_fields(body, src, depth + 1, out);
                }
            }
            "export_statement" | "decorated_definition" if depth < 1 => {
                collect_fields(child, src, depth + 1, out);
            }
            _ => {}
        }
    }
}

/// One type's typed fields.
fn type_fields(ty: Node<'_>, src: &str, out: &mut Vec<(String, String, String)>) {
    let (Some(name), Some(body)) = (
        ty.child_by_field_name("name"),
        ty.child_by_field_name("body"),
    ) else {
        return;
    };
    let owner = text_of(name, src).to_string();
    let field = |name: String, written: &str| Some((owner.clone(), name, type_name(written)?));
    // A tuple struct's fields are named by position (`struct Ignore(Arc<IgnoreInner>)`: `0`).
    if body.kind() == "ordered_field_declaration_list" {
        let mut cursor = body.walk();
        let types = body.children_by_field_name("type", &mut cursor);
        for (at, ty) in types.enumerate() {
            out.extend(field(at.to_string(), text_of(ty, src)));
        }
        return;
    }
    for child in code_children(body) {
        if let Some((name, written)) = typed_field(child, src) {
            out.extend(field(name, &written));
        }
    }
}

/// A field declaration with a written type, and the type as written: Rust `inner: Chan<T, S>`,
/// Python `application: Flask` (a class-level annotation), TypeScript `private inner: Chan`.
fn typed_field(field: Node<'_>, src: &str) -> Option<(String, String)> {
    let (name, ty) = match field.kind() {
        "field_declaration" | "public_field_definition" => (
            field
                .child_by_field_name("name")
                .or_else(|| field.child_by_field_name("property"))?,
            field.child_by_field_name("type")?,
        ),
        "expression_statement" => {
            let assign = code_children(field)
                .into_iter()
                .find(|c| c.kind() == "assignment")?;
            let left = assign.child_by_field_name("left")?;
            (left.kind() == "identifier").then_some(())?;
            (left, assign.child_by_field_name("type")?)
        }
        // PHP `private ?\App\Router $router;`: its element's variable without the `$`, its
        // class's last segment.
        "property_declaration" => {
            let element = code_children(field)
                .into_iter()
                .find(|c| c.kind() == "property_element")?;
            let name = text_of(element.child_by_field_name("name")?, src);
            let ty = text_of(field.child_by_field_name("type")?, src);
            let class = ty.trim_start_matches('?').rsplit('\\').next()?;
            return Some((name.trim_start_matches('$').to_string(), class.to_string()));
        }
        _ => return None,
    };
    Some((text_of(name, src).to_string(), text_of(ty, src).to_string()))
}

/// Fields followed from `self` at most (`self.0.custom_ignore_matcher`: two).
const MAX_FIELD_PATH: usize = 4;

/// The type of `self.field` / `this.field` (`object`) when the member's type declares it, and of
/// a field of that field when the file declares its type too (ripgrep's
/// `self.0.custom_ignore_matcher` of `struct Ignore(Arc<IgnoreInner>)` is `IgnoreInner`'s
/// `Gitignore`); `depth`: the fields followed so far.
fn field_type<'r>(object: Node<'_>, src: &str, typed: &Typed<'r>, depth: usize) -> Option<&'r str> {
    (depth < MAX_FIELD_PATH).then_some(())?;
    let owner = first_field(object, &["value", "object"])?;
    // PHP's `$this->inner` names its property by `name`.
    let field = match object.kind() {
        "member_access_expression" => object.child_by_field_name("name")?,
        _ => first_field(object, &["field", "attribute", "property"])?,
    };
    let owner_type = match text_of(owner, src) {
        "self" | "this" | "$this" => typed.container?,
        _ if owner.kind() == object.kind() => field_type(owner, src, typed, depth + 1)?,
        _ => return None,
    };
    typed.fields.of_field(owner_type, text_of(field, src))
}

/// The functions and methods of a file whose return type is written (`def app_context(self) ->
/// AppContext`, `function make(): Router`, `fn rt() -> Arc<Runtime>`), by name: what a local set
/// from a call of one of them holds (`ctx = self.request_context(environ)`). Python, TypeScript
/// and Rust; a type that tells nothing of whose method is called (`Result`, `Self`: [`UNTELLING`])
/// is left out.
#[derive(Debug, Default)]
pub(crate) struct Returns(Vec<(String, String)>);

impl Returns {
    /// The return types of the module's and its classes' functions.
    pub(super) fn of(syntax: &dyn TypedSyntax, root: Node<'_>, src: &str) -> Returns {
        let mut out = Vec::new();
        if syntax.reads_return_types() {
            collect_returns(root, src, 0, &mut out);
        }
        out.retain(|(_, ty)| !UNTELLING.contains(&ty.as_str()));
        Returns(out)
    }

    pub(super) fn of_name(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(function, _)| function == name)
            .map(|(_, ty)| ty.as_str())
    }
}

/// Functions of the module and of its classes (two levels of bodies), with their return types.
fn collect_returns(node: Node<'_>, src: &str, depth: usize, out: &mut Vec<(String, String)>) {
    for child in code_children(node) {
        match child.kind() {
            "function_definition"
            | "function_declaration"
            | "method_definition"
            | "function_item" => {
                let name = child.child_by_field_name("name");
                let ty = child.child_by_field_name("return_type");
                if let (Some(name), Some(ty)) = (name, ty) {
                    if let Some(ty) = type_name(text_of(ty, src)) {
                        out.push((text_of(name, src).to_string(), ty));
                    }
                }
            }
            "decorated_definition" | "export_statement" => collect_returns(child, src, depth, out),
            "class_definition" | "class_declaration" | "class" | "mod_item" | "impl_item"
                if depth < 2 =>
            {
                if let Some(body) = child.child_by_field_name("body") {
                    collect_returns(body, src, depth + 1, out);
                }
            }
            _ => {}
        }
    }
}

/// `x = Cls(…)` / `new Cls(…)`: a `Cls`; `x = self.make(…)` / `make(…)` of a function of the
/// file whose return type is written: that type.
pub(crate) fn push_made(
    out: &mut Vec<(String, String)>,
    name: Option<Node<'_>>,
    value: Option<Node<'_>>,
    src: &str,
    returns: &Returns,
) {
    let (Some(name), Some(value)) = (name, value) else {
        return;
    };
    let callee = match value.kind() {
        "call" | "call_expression" => value.child_by_field_name("function"),
        "new_expression" => value.child_by_field_name("constructor"),
        _ => None,
    };
    let Some(callee) = callee else {
        return;
    };
    let text = text_of(callee, src);
    let last = text.rsplit('.').next().unwrap_or(text);
    let ty = match last.starts_with(char::is_uppercase) {
        true => type_name(last),
        false => own_function(text)
            .and_then(|own| returns.of_name(own))
            .map(str::to_string),
    };
    // `let s = SearcherBuilder::new().line(2).build()`: a chain the graph types. A local made by
    // a static call alone (`let p = Parser::new()`) keeps its name: the graph tells its type from
    // the member constructing it.
    let ty = ty.or_else(|| chain_of(value, src, &[], 0).filter(|t| t.matches(CHAIN).count() >= 2));
    if let Some(ty) = ty {
        let name = text_of(name, src);
        if name.chars().all(|c| c.is_alphanumeric() || c == '_') && !name.is_empty() {
            out.push((name.to_string(), ty));
        }
    }
}

/// The type method `node` returns, as written (`-> Searcher`, `-> io::Result<Runtime>`: a
/// `Result`, `Option` or `Poll` unwrapped; `Self` its own type), with its label `label`
/// (`SearcherBuilder.build`); none for a free function or an untold type.
pub(crate) fn method_return(node: Node<'_>, src: &str, label: &str) -> Option<(String, String)> {
    let (container, _) = label.rsplit_once('.')?;
    let annotation = match node.kind() {
        "method_declaration" => node
            .child_by_field_name("result")
            .or_else(|| node.child_by_field_name("type")),
        _ => node.child_by_field_name("return_type"),
    }?;
    let mut text = text_of(annotation, src)
        .trim()
        .trim_start_matches(':')
        .trim();
    for _ in 0..3 {
        let Some((head, inner)) = text.split_once('<').or_else(|| text.split_once('[')) else {
            break;
        };
        let last = head.rsplit([':', '.']).next().unwrap_or(head).trim();
        if !matches!(last, "Result" | "Option" | "Poll" | "Optional") {
            break;
        }
        text = inner.split([',', '>', ']']).next().unwrap_or("").trim();
    }
    let own = container.rsplit(['.', ':']).next().unwrap_or(container);
    let ty = match text
        .trim_start_matches(['&', '*'])
        .trim_start_matches("mut ")
        .trim()
    {
        "Self" => Some(own.to_string()),
        _ => type_name(text),
    }?;
    Some((label.to_string(), ty))
}

/// The first of `names` that `node` has as a field.
fn first_field<'t>(node: Node<'t>, names: &[&str]) -> Option<Node<'t>> {
    names.iter().find_map(|name| node.child_by_field_name(name))
}

/// The chain type of an expression made of calls (`SearcherBuilder::new().line(2).build()?` →
/// `SearcherBuilder+new+line+build`): its root a type (a static call's `Type::f`, a constructor
/// `Cls(…)`/`new Cls(…)`) or a local whose type is known (`locals`), then each method called,
/// those that give back their receiver's content left out ([`PASS_THROUGH`]). A root alone is
/// the type itself.
pub(crate) fn chain_of(
    expr: Node<'_>,
    src: &str,
    locals: &[(String, String)],
    depth: usize,
) -> Option<String> {
    if depth > MAX_CHAIN {
        return None;
    }
    match expr.kind() {
        "try_expression" | "await_expression" | "parenthesized_expression" => {
            chain_of(*code_children(expr).first()?, src, locals, depth + 1)
        }
        "identifier" => {
            let name = text_of(expr, src);
            let found = locals.iter().rev().find(|(local, _)| local == name);
            found.map(|(_, ty)| ty.clone())
        }
        "new_expression" => type_name(text_of(expr.child_by_field_name("constructor")?, src)),
        "call_expression" | "call" | "method_invocation" => {
            let (object, method) = match expr.child_by_field_name("function") {
                Some(callee) => match (
                    first_field(callee, &["value", "object", "operand"]),
                    first_field(callee, &["field", "attribute", "property"]),
                ) {
                    (Some(object), Some(method)) => (object, text_of(method, src)),
                    // `Type::f(…)`: the type, then `f`.
                    _ if callee.kind() == "scoped_identifier" => {
                        let path = text_of(callee.child_by_field_name("path")?, src);
                        let ty = type_name(path.rsplit("::").next().unwrap_or(path))?;
                        let name = text_of(callee.child_by_field_name("name")?, src);
                        return Some(format!("{ty}{CHAIN}{name}"));
                    }
                    // `Cls(…)`: a constructor.
                    _ if callee.kind() == "identifier" => {
                        let name = text_of(callee, src);
                        return name
                            .starts_with(char::is_uppercase)
                            .then(|| type_name(name))
                            .flatten();
                    }
                    _ => return None,
                },
                // Java `object.name(…)`.
                None => (
                    expr.child_by_field_name("object")?,
                    text_of(expr.child_by_field_name("name")?, src),
                ),
            };
            let base = chain_of(object, src, locals, depth + 1)?;
            match PASS_THROUGH.contains(&method) {
                true => Some(base),
                false => Some(format!("{base}{CHAIN}{method}")),
            }
        }
        _ => None,
    }
}

/// Whether a node of this kind may declare a typed name (a cheap test: `declared` is asked of
/// every node inside a member).
fn declares(kind: &str) -> bool {
    matches!(
        kind,
        "let_declaration" | "variable_declarator" | "assignment" | "local_variable_declaration"
    ) || takes_parameters(kind)
}

/// A function, method, closure or constructor: its parameters are typed names.
fn takes_parameters(kind: &str) -> bool {
    kind.contains("function")
        || kind.contains("method")
        || kind.contains("constructor")
        || matches!(kind, "closure_expression" | "func_literal" | "lambda")
}

pub(crate) fn push(
    out: &mut Vec<(String, String)>,
    name: Option<Node<'_>>,
    ty: Option<Node<'_>>,
    src: &str,
) {
    let (Some(name), Some(ty)) = (name, ty) else {
        return;
    };
    // `mut x` in a Rust pattern.
    let name = text_of(name, src).trim_start_matches("mut ").trim();
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') || name.is_empty() {
        return;
    }
    if let Some(ty) = type_name(text_of(ty, src)) {
        out.push((name.to_string(), ty));
    }
}

/// The type an annotation names, by its final identifier (`*gin.Context` → `Context`): `&'a mut crate::runtime::Runtime` →
/// `Runtime`, `Arc<Semaphore>` → `Semaphore`, `t.Optional["AppContext"]` → `AppContext`, `Foo |
/// None` → `Foo`; none for anything else (a lowercase name, a tuple, a function type, a
/// generic parameter's one- or two-letter name).
pub(super) fn type_name(annotation: &str) -> Option<String> {
    let mut text = annotation.trim().trim_start_matches(':').trim();
    for _ in 0..4 {
        text = text.trim_start_matches(['&', '*']).trim_start();
        if text.starts_with('\'') && !text.ends_with('\'') {
            // A lifetime: `'a mut T`.
            text = text
                .split_once(' ')
                .map_or("", |(_, rest)| rest)
                .trim_start();
        }
        for prefix in ["mut ", "dyn ", "impl ", "const "] {
            text = text.strip_prefix(prefix).unwrap_or(text).trim_start();
        }
        text = text.trim_matches(['"', '\'']);
        // `Foo | None`, `Optional[Foo]`.
        if let Some((first, _)) = text.split_once(" | ") {
            text = first.trim();
        }
        let (head, inner) = match text.split_once(['<', '[']) {
            Some((head, rest)) => (head, Some(rest)),
            None => (text, None),
        };
        let last = head.rsplit(['.', ':']).next().unwrap_or(head).trim();
        let unwrap = WRAPPERS.contains(&last) || last == "Optional";
        match (unwrap, inner) {
            (true, Some(inner)) => {
                // The first type argument, past lifetimes (`RwLockReadGuard<'_, Matcher>`).
                text = inner
                    .split([',', '>', ']'])
                    .map(str::trim)
                    .find(|arg| !arg.starts_with('\''))
                    .unwrap_or("");
            }
            _ => {
                // `T`, `K`, `St` are generic parameters' names; `App` is a type's.
                let named = last.len() >= MIN_TYPE_NAME
                    && last.starts_with(char::is_uppercase)
                    && last.chars().all(|c| c.is_alphanumeric() || c == '_');
                return named.then(|| last.to_string());
            }
        }
    }
    None
}

/// The type of the object a call goes through, when it is told: a local whose type is written
/// or made (`rt.block_on(…)` with `rt: &Runtime`), a call of a function of the file whose
/// return type is written (`rt().block_on(…)` with `fn rt() -> Arc<Runtime>`), a field the
/// member's type declares (`self.inner.send(…)`), or a chain of calls the graph types.
pub(super) fn receiver_type(
    syntax: &dyn TypedSyntax,
    call: Node<'_>,
    src: &str,
    typed: Typed<'_>,
) -> Option<String> {
    object_type(syntax.call_receiver(call)?, src, typed)
}

/// The type of `object`, an expression a method is called on or a protocol is used through
/// (`with self.app_context():`): a typed local, a call of a function of the file whose return type
/// is written, a typed field, or a chain the graph types.
pub(super) fn object_type(object: Node<'_>, src: &str, typed: Typed<'_>) -> Option<String> {
    let told = match object.kind() {
        // PHP's `$request` is the local `request`.
        "identifier" | "variable_name" => {
            let name = text_of(object, src).trim_start_matches('$');
            let found = typed.locals.iter().rev().find(|(local, _)| local == name);
            found.map(|(_, ty)| ty.clone())
        }
        "call_expression" | "call" => object
            .child_by_field_name("function")
            .and_then(|callee| own_function(text_of(callee, src)))
            .and_then(|own| typed.returns.of_name(own))
            .map(str::to_string),
        // `self.inner.send(…)` with `inner: Chan<T>` declared by the member's type.
        "field_expression" | "attribute" | "member_expression" | "member_access_expression" => {
            field_type(object, src, &typed, 0).map(str::to_string)
        }
        _ => None,
    };
    // `SearcherBuilder::new().build().search_slice(…)`: a chain the graph types.
    told.or_else(|| chain_of(object, src, typed.locals, 0).filter(|t| t.contains(CHAIN)))
}

/// The class `object` constructs, when it is a constructor call (`Lock()`, `new Lock()`).
pub(super) fn constructed(object: Node<'_>, src: &str) -> Option<String> {
    matches!(object.kind(), "call" | "call_expression" | "new_expression")
        .then(|| chain_of(object, src, &[], 0))
        .flatten()
        .filter(|ty| !ty.contains(CHAIN))
}

/// The function a callee names when it is the file's own: a bare name, or one through
/// `self.`/`this.`/`cls.`/`Self::` (`make` of `self.make`; none for `self.app.make`).
fn own_function(callee: &str) -> Option<&str> {
    let own = ["self.", "this.", "cls.", "Self::"]
        .iter()
        .find_map(|prefix| callee.strip_prefix(prefix))
        .unwrap_or(callee);
    let is_name = !own.is_empty() && own.chars().all(|c| c.is_alphanumeric() || c == '_');
    is_name.then_some(own)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Language;

    #[test]
    fn a_local_made_by_a_constructor_or_a_typed_function_of_the_file_has_its_type() {
        let text = "class App:\n    def request_context(self, environ) -> AppContext:\n        return AppContext(self)\n\n    def wsgi_app(self, environ):\n        ctx = self.request_context(environ)\n        other = Other()\n        plain = helper()\n        # Another object's method of that name: not the file's.\n        theirs = self.app.request_context(environ)\n        ctx.push()\n";
        let tree = crate::source::parse(Language::Python, text).expect("parses");
        let returns = Returns::of(Language::Python.walks(), tree.root_node(), text);
        assert_eq!(returns.of_name("request_context"), Some("AppContext"));
        let mut found = Vec::new();
        crate::source::syntax::walk(tree.root_node(), (), |node, ()| {
            found.extend(declared(Language::Python.walks(), node, text, &returns));
            Some(())
        });
        assert_eq!(
            found,
            [
                ("ctx".to_string(), "AppContext".to_string()),
                ("other".to_string(), "Other".to_string()),
            ]
        );
    }

    #[test]
    fn annotations_name_their_type_through_references_and_wrappers() {
        assert_eq!(
            type_name("&crate::runtime::Runtime").as_deref(),
            Some("Runtime")
        );
        assert_eq!(type_name("&'a mut Runtime").as_deref(), Some("Runtime"));
        assert_eq!(type_name("Arc<Semaphore>").as_deref(), Some("Semaphore"));
        assert_eq!(
            type_name("t.Optional[\"AppContext\"]").as_deref(),
            Some("AppContext")
        );
        assert_eq!(
            type_name("AppContext | None").as_deref(),
            Some("AppContext")
        );
        assert_eq!(type_name(": Express").as_deref(), Some("Express"));
        // A generic parameter says nothing of which type's method is called.
        assert_eq!(type_name("T"), None);
        assert_eq!(type_name("App").as_deref(), Some("App"));
        assert_eq!(type_name("(u8, u8)"), None);
        assert_eq!(type_name("str"), None);
        assert_eq!(type_name("impl Fn(u8) -> u8"), None);
    }
}
