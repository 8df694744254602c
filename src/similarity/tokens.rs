//! Source code to tokens of one alphabet shared by C, C++, Python and Rust.
//!
//! A program is parsed with tree-sitter, then its syntax tree is walked and
//! each construct that carries meaning is written as one [`Tok`]: every
//! identifier is `Id` (renaming changes nothing), literals by kind, and
//! statements and operators by what they do, whatever the language's
//! spelling (`for`, `while` and `loop` are all `Loop`; `a += 1`, `a++` and
//! Python's `a += 1` are all `Assign Arith Id Num`). Comments, whitespace,
//! punctuation, types and `#include`/`import` lines write nothing, so
//! reformatting, type changes and comments change nothing, and a line-by-line
//! translation from C++ to Python gives nearly the same tokens. A counted
//! loop (`for (i = a; i < b; i++)`, `for i in range(a, b)`, `for i in a..b`)
//! is written the same way in every language; the operands of a binary
//! operation are written in a canonical order (`x > 0` is `0 < x`). C and C++ macros are written
//! out where they are used first (`macros`), so `rep(i, 0, n)` is the loop
//! it stands for, and so are Rust's `macro_rules!` macros (`rust_macros`). What a disguise changes without changing the program is
//! erased: a statement that reads or writes is one [`Tok::Io`] whatever the
//! call (`scanf`, `cin >>`, `input()`); a conditional expression is the
//! `if`/`else` it stands for and `if (!c) A else B` is `if (c) B else A`,
//! a `switch` the `if`/`else if` chain it stands for;
//! each run of simple statements of a block is in a canonical order; a
//! small function that returns nothing and is called once is written where
//! it is called (`inline`).

use std::fmt;

pub mod inline;
mod macros;
mod rust_macros;

/// One token of the shared alphabet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Tok {
    /// An identifier (variable, function, field), whatever its name.
    Id = 1,
    /// A number literal.
    Num,
    /// A string or character literal.
    Str,
    /// `true`/`false`/`True`/`False`.
    Bool,
    /// A function's definition (or a lambda).
    Func,
    /// The end of a function.
    FuncEnd,
    /// A loop (`for`, `while`, `loop`, `do`).
    Loop,
    /// The end of a loop.
    LoopEnd,
    /// A branch (`if`, `elif`, `?:`, `match`, `switch`).
    If,
    /// The other branch (`else`).
    Else,
    /// The end of a branch.
    IfEnd,
    /// `return`.
    Return,
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// A call.
    Call,
    /// An assignment or a declaration with a value.
    Assign,
    /// A comparison.
    Compare,
    /// Arithmetic (`+ - * / %`).
    Arith,
    /// Logic (`&& || and or`).
    Logic,
    /// Bit operations and shifts.
    Bits,
    /// A unary operator (`!`, `not`, unary `-`).
    Unary,
    /// Indexing (`a[i]`).
    Index,
    /// A field or method (`a.b`, `a->b`).
    Field,
    /// A list, array or tuple written out.
    List,
    /// Reading or writing (`scanf`, `cin >>`, `input()`, `print`, `read_line`,
    /// ...), whatever the call: a statement that reads or writes is this one
    /// token, and a run of them is one.
    Io,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A token and the line (from 1) it starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its line, from 1.
    pub line: u32,
    /// For a [`Tok::Func`], the function's name; for a [`Tok::Call`], the
    /// name called: a number for each name of the program (0: none). Only
    /// [`inline`] reads it; tokens are compared without it.
    pub name: u32,
}

/// A language this module reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// C.
    C,
    /// C++.
    Cpp,
    /// Python.
    Python,
    /// Rust.
    Rust,
}

impl Lang {
    /// Every language, with the names `--language` takes.
    pub const ALL: [(&'static str, Lang); 4] = [
        ("c", Lang::C),
        ("cpp", Lang::Cpp),
        ("python", Lang::Python),
        ("rust", Lang::Rust),
    ];

    /// The language of a name (`c`, `cpp`, `c++`, `python`, `py`, `rust`, `rs`).
    pub fn from_name(name: &str) -> Option<Lang> {
        match name.to_ascii_lowercase().as_str() {
            "c" => Some(Lang::C),
            "cpp" | "c++" | "cc" | "cxx" => Some(Lang::Cpp),
            "python" | "py" | "python3" => Some(Lang::Python),
            "rust" | "rs" => Some(Lang::Rust),
            _ => None,
        }
    }

    /// The language of a file's extension, if it says.
    pub fn from_extension(ext: &str) -> Option<Lang> {
        match ext.to_ascii_lowercase().as_str() {
            "c" | "h" => Some(Lang::C),
            "cpp" | "cc" | "cxx" | "c++" | "hpp" | "hh" => Some(Lang::Cpp),
            "py" => Some(Lang::Python),
            "rs" => Some(Lang::Rust),
            _ => None,
        }
    }

    /// The language's name.
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Python => "python",
            Lang::Rust => "rust",
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        }
    }
}

/// Why a source gives no tokens.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenizeError {
    /// The grammar could not be loaded (a tree-sitter version mismatch).
    #[error("the {0} grammar cannot be loaded")]
    Grammar(&'static str),
    /// The parser gave up.
    #[error("the parser gave up")]
    Parse,
    /// Parsing it takes more than [`PARSE_LIMIT`] of processor time.
    #[error("too costly to compare: parsing its {0} bytes takes more than {PARSE_LIMIT:?} of processor time")]
    TooCostly(usize),
    /// Nesting deeper than [`MAX_DEPTH`].
    #[error("too deep to compare: nesting deeper than {MAX_DEPTH} levels at line {0}")]
    TooDeep(u32),
}

impl TokenizeError {
    /// The line where the nesting passes [`MAX_DEPTH`], if that is why.
    pub fn too_deep_at(&self) -> Option<u32> {
        match self {
            TokenizeError::TooDeep(line) => Some(*line),
            _ => None,
        }
    }
}

/// The deepest syntax tree walked (a generated expression could be deeper).
pub const MAX_DEPTH: usize = 1000;

/// The tokens of `source` in `lang`, and the share of its syntax tree that
/// is in error (0 for a program that parses cleanly).
pub fn tokenize(source: &str, lang: Lang) -> Result<(Vec<Token>, f64), TokenizeError> {
    let expanded = match lang {
        Lang::C | Lang::Cpp => macros::expand(source),
        Lang::Rust => rust_macros::expand(source, &lang.grammar()),
        Lang::Python => None,
    };
    let source = expanded.as_deref().unwrap_or(source);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&lang.grammar())
        .map_err(|_| TokenizeError::Grammar(lang.name()))?;
    let tree = parse(&mut parser, source)?;
    let mut walker = Walker {
        src: source.as_bytes(),
        out: Vec::new(),
        errors: 0,
        nodes: 0,
        stack: Vec::new(),
        marks: Vec::new(),
        runs: Vec::new(),
        names: std::collections::HashMap::new(),
    };
    walker.walk(tree.root_node())?;
    walker
        .out
        .dedup_by(|next, prev| next.tok == Tok::Io && prev.tok == Tok::Io);
    let error_share = walker.errors as f64 / walker.nodes.max(1) as f64;
    Ok((inline::called_once(&walker.out), error_share))
}

/// The most processor time a source is parsed for: tree-sitter's error
/// recovery over 1 MiB of garbage, or its ambiguous parses of `a<a<a<...`
/// in C++, take tens of seconds where an honest program of that size takes
/// a fraction of one. Counted on the parsing thread's own clock, so a busy
/// machine (a judge at work beside the teacher's page) does not turn an
/// honest program into a refused one.
pub const PARSE_LIMIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The processor time this thread has used.
fn thread_time() -> std::time::Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// `source` parsed, unless that takes more than [`PARSE_LIMIT`] of this
/// thread's processor time (the parser reports its progress every 100
/// operations and stops when told): then it is too costly to compare.
fn parse(parser: &mut tree_sitter::Parser, source: &str) -> Result<tree_sitter::Tree, TokenizeError> {
    let deadline = thread_time() + PARSE_LIMIT;
    let mut stopped = false;
    let mut progress = |_: &tree_sitter::ParseState| {
        stopped = thread_time() > deadline;
        if stopped {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let bytes = source.as_bytes();
    let mut read = |at: usize, _: tree_sitter::Point| bytes.get(at..).unwrap_or_default();
    let tree = parser.parse_with_options(&mut read, None, Some(options));
    match tree {
        Some(tree) => Ok(tree),
        None if stopped => Err(TokenizeError::TooCostly(source.len())),
        None => Err(TokenizeError::Parse),
    }
}

/// The syntax tree written as tokens. The walk keeps its own stack of
/// [`Task`]s: a program's nesting never reaches the thread's stack, and
/// every node counts one level towards [`MAX_DEPTH`].
struct Walker<'a, 't> {
    src: &'a [u8],
    out: Vec<Token>,
    errors: usize,
    nodes: usize,
    /// What is left to do, the next on top.
    stack: Vec<Task<'t>>,
    /// Lengths of `out` noted by [`Task::Mark`], the last on top.
    marks: Vec<usize>,
    /// For each block being written, its run of simple statements so far.
    runs: Vec<Vec<(usize, usize)>>,
    /// The number of each function name met (from 1), for [`Token::name`].
    names: std::collections::HashMap<&'a str, u32>,
}

/// Where a node is walked from.
#[derive(Clone, Copy)]
struct At<'t> {
    /// Levels below the root.
    depth: usize,
    /// The parent's kind (`""` for the root).
    parent: &'t str,
    /// Nothing at or under the node reads or writes: a statement above it
    /// was looked through already.
    quiet: bool,
    /// The node itself is no read or write: it is the left operand of a
    /// binary operation judged as a whole (a `cin >>` chain is judged at its
    /// top, once, not at every level).
    judged: bool,
}

/// One step of the walk.
enum Task<'t> {
    /// Write a node.
    Walk(tree_sitter::Node<'t>, At<'t>),
    /// Write a token.
    Emit(Token),
    /// Note the length of the output (for [`Task::Order`], [`Task::Statement`]).
    Mark,
    /// Two operands written after two marks: put the smaller first.
    Order,
    /// A statement of a block written after a mark (its kind).
    Statement(&'t str),
    /// A block's statements all written.
    EndBlock,
}

/// `tok` on the first line of `node`.
fn starts(tok: Tok, node: tree_sitter::Node<'_>) -> Task<'static> {
    let line = node.start_position().row as u32 + 1;
    Task::Emit(Token { tok, line, name: 0 })
}

/// `tok` on the first line of `node`, naming `name` (a function's, or the
/// one a call calls).
fn named(tok: Tok, node: tree_sitter::Node<'_>, name: u32) -> Task<'static> {
    let line = node.start_position().row as u32 + 1;
    Task::Emit(Token { tok, line, name })
}

/// `tok` on the last line of `node`.
fn ends(tok: Tok, node: tree_sitter::Node<'_>) -> Task<'static> {
    let line = node.end_position().row as u32 + 1;
    Task::Emit(Token { tok, line, name: 0 })
}

/// The left operand of a binary expression (the rest of a `cin >>` chain).
fn left_operand(node: tree_sitter::Node) -> Option<tree_sitter::Node> {
    (node.kind() == "binary_expression")
        .then(|| node.child_by_field_name("left"))
        .flatten()
}

/// Subtrees that write nothing: comments, includes, imports, types.
const SKIPPED: &[&str] = &[
    "comment",
    "line_comment",
    "block_comment",
    "preproc_include",
    "preproc_def",
    "preproc_function_def",
    "preproc_call",
    "macro_definition",
    "using_declaration",
    "alias_declaration",
    "type_definition",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "use_declaration",
    "extern_crate_declaration",
    "attribute_item",
    "inner_attribute_item",
    "primitive_type",
    "type_identifier",
    "sized_type_specifier",
    "type_qualifier",
    "storage_class_specifier",
    "template_type",
    "qualified_type",
    "generic_type",
    "reference_type",
    "pointer_type",
    "array_type",
    "tuple_type",
    "type_arguments",
    "type_descriptor",
    "type",
    "mutable_specifier",
    "lifetime",
    "placeholder_type_specifier",
    "struct_specifier",
    "pass_statement",
];

impl<'a, 't> Walker<'a, 't> {
    /// Writes the tree under `root`, task by task.
    fn walk(&mut self, root: tree_sitter::Node<'t>) -> Result<(), TokenizeError> {
        let at = At {
            depth: 0,
            parent: "",
            quiet: false,
            judged: false,
        };
        self.stack.push(Task::Walk(root, at));
        while let Some(task) = self.stack.pop() {
            match task {
                Task::Walk(node, at) => self.node(node, at)?,
                Task::Emit(token) => self.out.push(token),
                Task::Mark => self.marks.push(self.out.len()),
                Task::Order => {
                    let mid = self.marks.pop().unwrap_or(self.out.len());
                    let start = self.marks.pop().unwrap_or(mid);
                    self.order(start, mid);
                }
                Task::Statement(kind) => {
                    let start = self.marks.pop().unwrap_or(self.out.len());
                    self.statement_written(kind, start);
                }
                Task::EndBlock => {
                    let mut run = self.runs.pop().unwrap_or_default();
                    self.sort_run(&mut run);
                }
            }
        }
        Ok(())
    }

    /// Does `plan` next, in its order.
    fn then(&mut self, plan: Vec<Task<'t>>) {
        self.stack.extend(plan.into_iter().rev());
    }

    fn text(&self, node: tree_sitter::Node) -> &'a str {
        std::str::from_utf8(&self.src[node.byte_range()]).unwrap_or("")
    }

    /// The number of the name `node` ends with (`helper` of `helper`,
    /// `self.helper`, `obj->helper`, `ns::helper`), numbered as met; 0 for none.
    fn name_of(&mut self, node: Option<tree_sitter::Node>) -> u32 {
        let Some(node) = node else { return 0 };
        let text = self.text(node);
        let Some(last) = text
            .rsplit(|c: char| !c.is_alphanumeric() && c != '_')
            .find(|w| !w.is_empty())
        else {
            return 0;
        };
        let next = self.names.len() as u32 + 1;
        *self.names.entry(last).or_insert(next)
    }

    /// The number of a function definition's name (C and C++: the
    /// declarator's, through pointers and references; Python and Rust: its
    /// `name`); 0 for a lambda.
    fn function_name(&mut self, node: tree_sitter::Node) -> u32 {
        if let Some(name) = node.child_by_field_name("name") {
            return self.name_of(Some(name));
        }
        let mut decl = node.child_by_field_name("declarator");
        // Bounded by the declarator's nesting, each step one level down.
        while let Some(d) = decl {
            if d.kind() == "function_declarator" {
                return self.name_of(d.child_by_field_name("declarator"));
            }
            decl = d.child_by_field_name("declarator");
        }
        0
    }

    /// Every child of `node`, walked in order.
    fn children(&self, node: tree_sitter::Node<'t>, inner: At<'t>, plan: &mut Vec<Task<'t>>) {
        let left = left_operand(node);
        let mut cursor = node.walk();
        for kid in node.children(&mut cursor) {
            let judged = Some(kid) == left;
            plan.push(Task::Walk(kid, At { judged, ..inner }));
        }
    }

    fn node(&mut self, node: tree_sitter::Node<'t>, at: At<'t>) -> Result<(), TokenizeError> {
        if at.depth > MAX_DEPTH {
            return Err(TokenizeError::TooDeep(node.start_position().row as u32 + 1));
        }
        self.nodes += 1;
        if node.is_error() || node.is_missing() {
            self.errors += 1;
        }
        let kind = node.kind();
        if SKIPPED.contains(&kind) {
            return Ok(());
        }
        let mut inner = At {
            depth: at.depth + 1,
            parent: kind,
            quiet: at.quiet,
            judged: false,
        };
        if !at.quiet {
            let io = !at.judged && is_io(node, self.src);
            if io || STATEMENTS.contains(&kind) && contains_io(node, self.src) {
                self.then(vec![starts(Tok::Io, node)]);
                return Ok(());
            }
            inner.quiet = STATEMENTS.contains(&kind);
        }
        if kind == "else" && at.parent == "else_clause" {
            return Ok(()); // the clause wrote `Else`
        }
        let mut plan = Vec::new();
        if BLOCKS.contains(&kind) {
            self.statements(node, inner, &mut plan);
        } else if self.canonical_branch(node, kind, at.parent, inner, &mut plan) {
        } else if let Some((open, close)) = block(kind) {
            let name = if open == Tok::Func {
                self.function_name(node)
            } else {
                0
            };
            plan.push(named(open, node, name));
            self.block_body(node, kind, inner, &mut plan);
            plan.extend(close.map(|close| ends(close, node)));
        } else if let Some(tok) = operation(kind, || self.operator(node)) {
            self.operation(node, kind, tok, inner, &mut plan);
        } else if node.child_count() == 0 || is_literal(kind) {
            plan.extend(leaf(kind, self.text(node)).map(|tok| starts(tok, node)));
        } else {
            self.children(node, inner, &mut plan);
        }
        self.then(plan);
        Ok(())
    }

    /// A statement, expression or operator written as `tok`, its parts after it.
    fn operation(
        &mut self,
        node: tree_sitter::Node<'t>,
        kind: &str,
        tok: Tok,
        inner: At<'t>,
        plan: &mut Vec<Task<'t>>,
    ) {
        let name = match tok {
            Tok::Call => self.name_of(node.child_by_field_name("function")),
            _ => 0,
        };
        plan.push(named(tok, node, name));
        if matches!(tok, Tok::Compare | Tok::Arith | Tok::Logic | Tok::Bits)
            && kind != "update_expression"
            && node.named_child_count() == 2
            && let (Some(left), Some(right)) = (node.named_child(0), node.named_child(1))
        {
            self.operands_in_order(kind, left, right, inner, plan);
            return;
        }
        if tok == Tok::Assign && is_compound(&self.operator(node)) {
            plan.push(starts(Tok::Arith, node));
        }
        self.children(node, inner, plan);
        if kind == "update_expression" {
            plan.push(starts(Tok::Num, node));
        }
    }

    /// A block's statements, each run of simple ones (no loop, branch,
    /// function or jump in them) in a canonical order: statements reordered
    /// within a block give the same tokens.
    fn statements(&mut self, node: tree_sitter::Node<'t>, inner: At<'t>, plan: &mut Vec<Task<'t>>) {
        self.runs.push(Vec::new());
        let mut cursor = node.walk();
        for kid in node.children(&mut cursor) {
            plan.extend([Task::Mark, Task::Walk(kid, inner), Task::Statement(kid.kind())]);
        }
        plan.push(Task::EndBlock);
    }

    /// A statement of `kind` written from `start`: one more of the block's
    /// run of simple statements, or the end of the run.
    fn statement_written(&mut self, kind: &str, start: usize) {
        let end = self.out.len();
        if end == start {
            return;
        }
        let simple = STATEMENTS.contains(&kind) && self.out[start..end].iter().all(|t| !t.tok.is_structure());
        let mut run = self.runs.pop().unwrap_or_default();
        if simple {
            run.push((start, end));
        } else {
            self.sort_run(&mut run);
        }
        self.runs.push(run);
    }

    /// Puts a run of adjacent simple statements (token ranges) in order of their tokens.
    fn sort_run(&mut self, run: &mut Vec<(usize, usize)>) {
        if run.len() > 1 {
            let (from, to) = (run[0].0, run[run.len() - 1].1);
            let mut parts: Vec<&[Token]> = run.iter().map(|&(a, b)| &self.out[a..b]).collect();
            parts.sort_by(|x, y| x.iter().map(|t| t.tok).cmp(y.iter().map(|t| t.tok)));
            let sorted: Vec<Token> = parts.concat();
            self.out[from..to].copy_from_slice(&sorted);
        }
        run.clear();
    }

    /// Branches written one way whatever their spelling: `c ? a : b`,
    /// `a if c else b` as `If c a Else b IfEnd`; an assignment or a return of
    /// one as the `if`/`else` that assigns or returns in each branch (`x = c ?
    /// a : b` is `if (c) x = a; else x = b;`); `if (!c) A else B` as `if (c)
    /// B else A`. Returns whether `node` is written so (by `plan`).
    fn canonical_branch(
        &self,
        node: tree_sitter::Node<'t>,
        kind: &str,
        parent: &str,
        inner: At<'t>,
        plan: &mut Vec<Task<'t>>,
    ) -> bool {
        let walk = |part| Task::Walk(part, inner);
        if let Some((c, a, b)) = conditional_parts(node, parent) {
            plan.extend([
                starts(Tok::If, node),
                walk(c),
                walk(a),
                starts(Tok::Else, b),
                walk(b),
            ]);
            plan.push(ends(Tok::IfEnd, node));
            return true;
        }
        if let Some((target, value)) = target_value(node, kind)
            && let Some((c, a, b)) = conditional_parts(value, kind)
        {
            let compound = is_compound(&self.operator(node));
            plan.extend([starts(Tok::If, node), walk(c)]);
            for (k, part) in [a, b].into_iter().enumerate() {
                if k == 1 {
                    plan.push(starts(Tok::Else, part));
                }
                plan.push(starts(
                    if target.is_some() {
                        Tok::Assign
                    } else {
                        Tok::Return
                    },
                    node,
                ));
                if compound {
                    plan.push(starts(Tok::Arith, node));
                }
                plan.extend(target.map(walk));
                plan.push(walk(part));
            }
            plan.push(ends(Tok::IfEnd, node));
            return true;
        }
        if kind == "switch_statement"
            && let (Some(on), Some(body)) = (
                node.child_by_field_name("condition"),
                node.child_by_field_name("body"),
            )
        {
            self.switch_as_if_chain(node, on, body, inner, plan);
            return true;
        }
        if matches!(kind, "if_statement" | "if_expression")
            && let Some((c, then, other)) = negated_if(node)
        {
            plan.extend([
                starts(Tok::If, node),
                walk(c),
                walk(other),
                starts(Tok::Else, other),
            ]);
            plan.extend([walk(then), ends(Tok::IfEnd, node)]);
            return true;
        }
        false
    }

    /// `switch (v) { case a: A; break; case b: B; break; default: C; }`
    /// written as `if (v == a) A else if (v == b) B else C`: each case a
    /// comparison of the value switched on (written again for each case
    /// when it is short, else only for the first: a long one written per
    /// case would cost their product) with its label, its `break` dropped.
    fn switch_as_if_chain(
        &self,
        node: tree_sitter::Node<'t>,
        on: tree_sitter::Node<'t>,
        body: tree_sitter::Node<'t>,
        inner: At<'t>,
        plan: &mut Vec<Task<'t>>,
    ) {
        let short = on.byte_range().len() <= 64;
        let mut open = 1;
        plan.push(starts(Tok::If, node));
        let mut cursor = body.walk();
        let cases = body
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "case_statement");
        for (k, case) in cases.enumerate() {
            let value = case.child_by_field_name("value");
            if k > 0 {
                plan.push(starts(Tok::Else, case));
            }
            if let Some(value) = value {
                if k > 0 {
                    plan.push(starts(Tok::If, case));
                    open += 1;
                }
                plan.push(starts(Tok::Compare, case));
                if k == 0 || short {
                    self.operands_in_order("", on, value, inner, plan);
                } else {
                    plan.push(Task::Walk(value, inner));
                }
            }
            let mut c = case.walk();
            let statements: Vec<_> = case
                .named_children(&mut c)
                .filter(|s| Some(*s) != value && s.kind() != "break_statement")
                .collect();
            plan.extend(statements.into_iter().map(|s| Task::Walk(s, inner)));
        }
        plan.extend((0..open).map(|_| ends(Tok::IfEnd, node)));
    }

    /// The two operands of a binary operation, the one with the smaller
    /// tokens first ([`Task::Order`]): `a == b` and `b == a`, `x > 0` and
    /// `0 < x` are written the same (which operator it is, `<` or `>`, `+`
    /// or `-`, is not written).
    fn operands_in_order(
        &self,
        kind: &str,
        left: tree_sitter::Node<'t>,
        right: tree_sitter::Node<'t>,
        inner: At<'t>,
        plan: &mut Vec<Task<'t>>,
    ) {
        let judged = kind == "binary_expression";
        plan.extend([
            Task::Mark,
            Task::Walk(left, At { judged, ..inner }),
            Task::Mark,
            Task::Walk(right, inner),
            Task::Order,
        ]);
    }

    /// Operands written at `start..mid` and `mid..`: the smaller first.
    fn order(&mut self, start: usize, mid: usize) {
        // Compared in place, length first: a deep chain (`a + b + c + ...`)
        // costs its length once, not once per level.
        let (l, r) = (&self.out[start..mid], &self.out[mid..]);
        let toks = |t: &[Token]| t.iter().map(|t| t.tok).collect::<Vec<_>>();
        if r.len() < l.len() || r.len() == l.len() && toks(r) < toks(l) {
            self.out[start..].rotate_left(mid - start);
        }
    }

    /// The operator of a binary, unary or assignment node: its first
    /// unnamed child that is not a bracket.
    fn operator(&self, node: tree_sitter::Node) -> String {
        if let Some(op) = node.child_by_field_name("operator") {
            return self.text(op).to_string();
        }
        let mut cursor = node.walk();
        let op = node
            .children(&mut cursor)
            .find(|c| !c.is_named() && !matches!(c.kind(), "(" | ")"))
            .map(|c| self.text(c).to_string());
        op.unwrap_or_default()
    }

    /// A loop, branch or function: a counted loop in its common form, the
    /// rest child by child.
    fn block_body(&self, node: tree_sitter::Node<'t>, kind: &str, inner: At<'t>, plan: &mut Vec<Task<'t>>) {
        if matches!(kind, "for_statement" | "for_expression")
            && let Some((var, from, to, body)) = self.counted_loop(node)
        {
            plan.push(starts(Tok::Id, var));
            plan.push(match from {
                Some(from) => Task::Walk(from, inner),
                None => starts(Tok::Num, var),
            });
            plan.extend([Task::Walk(to, inner), Task::Walk(body, inner)]);
            return;
        }
        self.children(node, inner, plan);
    }

    /// `for (i = a; i < b; i++)`, `for i in range(a, b)`, `for i in a..b`:
    /// the variable, the start (none for 0 in `range(b)`), the bound, the body.
    #[allow(clippy::type_complexity)]
    fn counted_loop(
        &self,
        node: tree_sitter::Node<'t>,
    ) -> Option<(
        tree_sitter::Node<'t>,
        Option<tree_sitter::Node<'t>>,
        tree_sitter::Node<'t>,
        tree_sitter::Node<'t>,
    )> {
        let body = node.child_by_field_name("body")?;
        if let Some(init) = node.child_by_field_name("initializer") {
            // C and C++: `int i = a` or `i = a`; `i < b`; `i++` / `++i` / `i += 1`.
            let (var, from) = self.init_of(init)?;
            let cond = node.child_by_field_name("condition")?;
            let update = node.child_by_field_name("update")?;
            if !matches!(cond.kind(), "binary_expression") || !matches!(update.kind(), "update_expression") {
                return None;
            }
            let left = cond.child_by_field_name("left")?;
            let right = cond.child_by_field_name("right")?;
            let op = self.operator(cond);
            if self.text(left) != self.text(var) || !matches!(op.as_str(), "<" | "<=" | "!=") {
                return None;
            }
            return Some((var, Some(from), right, body));
        }
        let (var, value) = for_in_parts(node)?;
        if value.kind() == "range_expression" {
            let mut cursor = value.walk();
            let parts: Vec<_> = value.named_children(&mut cursor).collect();
            if let [from, to] = parts[..] {
                return Some((var, Some(from), to, body));
            }
            return None;
        }
        if value.kind() == "call" {
            let func = value.child_by_field_name("function")?;
            if self.text(func) != "range" {
                return None;
            }
            let args = value.child_by_field_name("arguments")?;
            let mut cursor = args.walk();
            let parts: Vec<_> = args.named_children(&mut cursor).collect();
            return match parts[..] {
                [to] => Some((var, None, to, body)),
                [from, to] => Some((var, Some(from), to, body)),
                _ => None,
            };
        }
        None
    }

    fn init_of(&self, init: tree_sitter::Node<'t>) -> Option<(tree_sitter::Node<'t>, tree_sitter::Node<'t>)> {
        match init.kind() {
            "declaration" => {
                let decl = init.child_by_field_name("declarator")?;
                Some((
                    decl.child_by_field_name("declarator")?,
                    decl.child_by_field_name("value")?,
                ))
            }
            "assignment_expression" => Some((
                init.child_by_field_name("left")?,
                init.child_by_field_name("right")?,
            )),
            _ => None,
        }
    }
}

/// Simple statements: those whose order within a block is not written, and
/// that are one [`Tok::Io`] when they read or write.
const STATEMENTS: &[&str] = &["declaration", "expression_statement", "let_declaration"];

/// Blocks of statements.
const BLOCKS: &[&str] = &[
    "compound_statement",
    "block",
    "translation_unit",
    "module",
    "source_file",
    "declaration_list",
];

/// Names whose call reads or writes (C, C++, Python, Rust).
const IO_NAMES: &[&str] = &[
    "scanf",
    "printf",
    "puts",
    "gets",
    "fgets",
    "getchar",
    "putchar",
    "fscanf",
    "fprintf",
    "getline",
    "cin",
    "cout",
    "cerr",
    "input",
    "print",
    "readline",
    "readlines",
    "stdin",
    "stdout",
    "read_line",
    "read_to_string",
    "println",
    "eprintln",
    "writeln",
    "write",
    "read",
    "lines",
];

impl Tok {
    /// Whether it opens or closes a loop, branch or function, or jumps.
    fn is_structure(self) -> bool {
        matches!(
            self,
            Tok::Func
                | Tok::FuncEnd
                | Tok::Loop
                | Tok::LoopEnd
                | Tok::If
                | Tok::Else
                | Tok::IfEnd
                | Tok::Return
                | Tok::Break
                | Tok::Continue
        )
    }
}

/// Whether `node` is a call that reads or writes, or a `cin >>` / `cout <<` chain.
fn is_io(node: tree_sitter::Node, src: &[u8]) -> bool {
    let callee = match node.kind() {
        "call_expression" | "call" => node.child_by_field_name("function"),
        "macro_invocation" => node.child_by_field_name("macro"),
        "binary_expression" => {
            let mut left = node;
            while left.kind() == "binary_expression" {
                match left.child_by_field_name("left") {
                    Some(l) => left = l,
                    None => return false,
                }
            }
            Some(left)
        }
        _ => None,
    };
    let Some(callee) = callee else { return false };
    let text = std::str::from_utf8(&src[callee.byte_range()]).unwrap_or("");
    let last = text
        .rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .find(|w| !w.is_empty())
        .unwrap_or("");
    match node.kind() {
        "binary_expression" => matches!(last, "cin" | "cout" | "cerr"),
        _ => IO_NAMES.contains(&last),
    }
}

/// Whether anything under `node` reads or writes.
fn contains_io(node: tree_sitter::Node, src: &[u8]) -> bool {
    let mut stack = vec![(node, false)];
    while let Some((n, judged)) = stack.pop() {
        if !judged && is_io(n, src) {
            return true;
        }
        // The left operand of a binary expression is judged with it.
        let left = left_operand(n);
        let mut c = n.walk();
        stack.extend(n.children(&mut c).map(|k| (k, Some(k) == left)));
    }
    false
}

/// The condition and the two values of a conditional expression (`c ? a :
/// b`, `a if c else b`, Rust's `if c { a } else { b }` of one expression each).
fn conditional_parts<'t>(
    node: tree_sitter::Node<'t>,
    parent: &str,
) -> Option<(
    tree_sitter::Node<'t>,
    tree_sitter::Node<'t>,
    tree_sitter::Node<'t>,
)> {
    match node.kind() {
        "conditional_expression" => match node.child_by_field_name("condition") {
            Some(c) => Some((
                c,
                node.child_by_field_name("consequence")?,
                node.child_by_field_name("alternative")?,
            )),
            None => Some((node.named_child(1)?, node.named_child(0)?, node.named_child(2)?)),
        },
        "if_expression" if !matches!(parent, "expression_statement" | "") => {
            fn one(block: tree_sitter::Node<'_>) -> Option<tree_sitter::Node<'_>> {
                (block.kind() == "block" && block.named_child_count() == 1)
                    .then(|| block.named_child(0))
                    .flatten()
                    .filter(|e| !e.kind().ends_with("statement") && e.kind() != "let_declaration")
            }
            let alt = node.child_by_field_name("alternative")?;
            let other = alt.named_child(0).and_then(one)?;
            Some((
                node.child_by_field_name("condition")?,
                one(node.child_by_field_name("consequence")?)?,
                other,
            ))
        }
        _ => None,
    }
}

/// What an assignment, declaration or `return` writes to (none for a return) and its value.
fn target_value<'t>(
    node: tree_sitter::Node<'t>,
    kind: &str,
) -> Option<(Option<tree_sitter::Node<'t>>, tree_sitter::Node<'t>)> {
    let field = |f: &str| node.child_by_field_name(f);
    match kind {
        "assignment_expression"
        | "assignment"
        | "augmented_assignment"
        | "compound_assignment_expr"
        | "augmented_assignment_expression" => Some((Some(field("left")?), field("right")?)),
        "init_declarator" => Some((Some(field("declarator")?), field("value")?)),
        "let_declaration" => Some((Some(field("pattern")?), field("value")?)),
        "return_statement" | "return_expression" if node.named_child_count() == 1 => {
            Some((None, node.named_child(0)?))
        }
        _ => None,
    }
}

/// `if (!c) A else B` (not `else if`): `c`, `A`, `B`.
fn negated_if(node: tree_sitter::Node) -> Option<(tree_sitter::Node, tree_sitter::Node, tree_sitter::Node)> {
    let mut cond = node.child_by_field_name("condition")?;
    while matches!(cond.kind(), "parenthesized_expression" | "condition_clause")
        && cond.named_child_count() == 1
    {
        cond = cond.named_child(0)?;
    }
    if !matches!(cond.kind(), "unary_expression" | "not_operator") {
        return None;
    }
    let first = cond.child(0)?;
    if !matches!(first.kind(), "!" | "not") {
        return None;
    }
    let inner = cond
        .child_by_field_name("argument")
        .or_else(|| cond.named_child(0))?;
    let then = node.child_by_field_name("consequence")?;
    let mut w = node.walk();
    let alts: Vec<_> = node.children_by_field_name("alternative", &mut w).collect();
    let [alt] = alts[..] else { return None };
    let other = if alt.kind() == "else_clause" {
        alt.child_by_field_name("body").or_else(|| alt.named_child(0))?
    } else {
        alt
    };
    if matches!(other.kind(), "if_statement" | "if_expression") {
        return None;
    }
    Some((inner, then, other))
}

/// Loops, branches and functions: the token that opens them and the one
/// that closes them.
fn block(kind: &str) -> Option<(Tok, Option<Tok>)> {
    Some(match kind {
        "function_definition" | "function_item" | "lambda" | "lambda_expression" | "closure_expression" => {
            (Tok::Func, Some(Tok::FuncEnd))
        }
        "for_statement" | "for_range_loop" | "for_expression" | "while_statement" | "while_expression"
        | "loop_expression" | "do_statement" | "for_in_clause" => (Tok::Loop, Some(Tok::LoopEnd)),
        "if_statement"
        | "if_expression"
        | "conditional_expression"
        | "switch_statement"
        | "match_expression" => (Tok::If, Some(Tok::IfEnd)),
        "elif_clause" => (Tok::If, None),
        "else_clause" | "else" => (Tok::Else, None),
        _ => return None,
    })
}

/// Statements and expressions written as one token, their parts after it.
fn operation(kind: &str, operator: impl FnOnce() -> String) -> Option<Tok> {
    Some(match kind {
        "return_statement" | "return_expression" => Tok::Return,
        "break_statement" | "break_expression" => Tok::Break,
        "continue_statement" | "continue_expression" => Tok::Continue,
        "call_expression" | "call" | "macro_invocation" => Tok::Call,
        "assignment_expression"
        | "assignment"
        | "augmented_assignment"
        | "compound_assignment_expr"
        | "init_declarator"
        | "let_declaration"
        | "update_expression"
        | "augmented_assignment_expression" => Tok::Assign,
        "subscript_expression" | "subscript" | "index_expression" => Tok::Index,
        "field_expression" | "attribute" => Tok::Field,
        "initializer_list" | "list" | "tuple" | "array_expression" | "tuple_expression"
        | "list_comprehension" => Tok::List,
        "not_operator" | "unary_expression" | "unary_operator" | "pointer_expression" => Tok::Unary,
        "binary_expression" | "binary_operator" | "comparison_operator" | "boolean_operator" => {
            binary(&operator())
        }
        _ => return None,
    })
}

fn binary(op: &str) -> Tok {
    match op {
        "<" | ">" | "<=" | ">=" | "==" | "!=" | "in" | "not in" | "is" | "is not" => Tok::Compare,
        "&&" | "||" | "and" | "or" => Tok::Logic,
        "&" | "|" | "^" | "<<" | ">>" => Tok::Bits,
        _ => Tok::Arith,
    }
}

fn is_compound(op: &str) -> bool {
    op.len() >= 2 && op.ends_with('=') && !matches!(op, "==" | "!=" | "<=" | ">=")
        || matches!(op, "++" | "--")
}

fn is_literal(kind: &str) -> bool {
    matches!(
        kind,
        "string_literal" | "string" | "char_literal" | "raw_string_literal" | "concatenated_string"
    )
}

fn leaf(kind: &str, text: &str) -> Option<Tok> {
    Some(match kind {
        "identifier"
        | "field_identifier"
        | "namespace_identifier"
        | "property_identifier"
        | "shorthand_field_identifier"
        | "self"
        | "this" => Tok::Id,
        "number_literal" | "integer" | "float" | "integer_literal" | "float_literal" => Tok::Num,
        "string_literal" | "string" | "char_literal" | "raw_string_literal" | "concatenated_string" => {
            Tok::Str
        }
        "true" | "false" | "boolean_literal" => Tok::Bool,
        _ if matches!(text, "True" | "False") => Tok::Bool,
        _ => return None,
    })
}

/// The loop variable and the iterated value of a Python `for x in v` or a
/// Rust `for x in v` (their grammars name the fields differently).
pub(crate) fn for_in_parts(
    node: tree_sitter::Node<'_>,
) -> Option<(tree_sitter::Node<'_>, tree_sitter::Node<'_>)> {
    let var = node
        .child_by_field_name("left")
        .or_else(|| node.child_by_field_name("pattern"))?;
    let value = node
        .child_by_field_name("right")
        .or_else(|| node.child_by_field_name("value"))?;
    Some((var, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str, lang: Lang) -> Vec<Tok> {
        tokenize(src, lang)
            .unwrap()
            .0
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn a_rust_loop_hidden_behind_macro_rules_has_the_tokens_of_the_loop() {
        let hidden = "macro_rules! each_cell {\n    ($x:ident, $y:ident, $body:block) => {\n        for $x in 0..5 { for $y in 0..7 $body }\n    };\n}\nfn clear(g: &mut [[u8; 7]; 5]) {\n    each_cell!(x, y, {\n        if g[x][y] == 9 { g[x][y] = 0; }\n    });\n}\n";
        let plain = "fn clear(g: &mut [[u8; 7]; 5]) {\n    for x in 0..5 {\n        for y in 0..7 {\n            if g[x][y] == 9 { g[x][y] = 0; }\n        }\n    }\n}\n";
        assert_eq!(toks(hidden, Lang::Rust), toks(plain, Lang::Rust));
    }

    #[test]
    fn renaming_and_reformatting_change_nothing() {
        let a = "int f(int a){ for(int i=0;i<a;i++){ a+=i; } return a; }";
        let b = "long  g(long q)\n{\n  // sum\n  for (long j = 0; j < q; ++j)\n  {\n    q += j;\n  }\n  return q;\n}\n";
        assert_eq!(toks(a, Lang::Cpp), toks(b, Lang::Cpp));
    }

    #[test]
    fn a_counted_loop_is_the_same_in_every_language() {
        let c = toks(
            "void f(int n){ for (int i = 0; i < n; i++) { s += a[i]; } }",
            Lang::C,
        );
        let py = toks(
            "def f(n):\n    for i in range(0, n):\n        s += a[i]\n",
            Lang::Python,
        );
        let rs = toks("fn f(n: usize) { for i in 0..n { s += a[i]; } }", Lang::Rust);
        assert_eq!(c, py);
        assert_eq!(c, rs);
    }

    #[test]
    fn a_conditional_expression_is_the_if_else_it_stands_for() {
        let stmt = toks(
            "int f(int c, int a, int b) { int x; if (c > 0) x = a; else x = b; return x; }",
            Lang::Cpp,
        );
        let expr = toks(
            "int f(int c, int a, int b) { int x; x = c > 0 ? a : b; return x; }",
            Lang::Cpp,
        );
        assert_eq!(stmt, expr);
        let py_stmt = toks("if c > 0:\n    x = a\nelse:\n    x = b\n", Lang::Python);
        let py_expr = toks("x = a if c > 0 else b\n", Lang::Python);
        assert_eq!(py_stmt, py_expr);
        let ret = toks("int f(int c) { return c > 0 ? 1 : 2; }", Lang::C);
        let ret_if = toks("int f(int c) { if (c > 0) return 1; else return 2; }", Lang::C);
        assert_eq!(ret, ret_if);
        let negated = toks("void f(int c) { if (!(c > 0)) g(1); else h(2, 3); }", Lang::C);
        let plain = toks("void f(int c) { if (c > 0) h(2, 3); else g(1); }", Lang::C);
        assert_eq!(negated, plain);
    }

    #[test]
    fn reading_the_input_another_way_changes_nothing() {
        let cin = toks(
            "int main() { int n, m; cin >> n >> m; cout << n + m << endl; }",
            Lang::Cpp,
        );
        let scanf = toks(
            "int main() { int n, m; scanf(\"%d\", &n); scanf(\"%d\", &m); printf(\"%d\\n\", n + m); }",
            Lang::Cpp,
        );
        assert_eq!(cin, scanf);
        let line = toks("n = int(input())\nm = int(input())\n", Lang::Python);
        let whole = toks("n, m = map(int, sys.stdin.read().split())\n", Lang::Python);
        assert_eq!(line, whole);
    }

    #[test]
    fn a_block_extracted_into_a_function_called_once_changes_nothing() {
        let inline = "int g[5][7];\nint main() {\n    for (int x = 0; x < 5; x++)\n        for (int y = 0; y < 7; y++)\n            if (g[x][y] == 9) g[x][y] = 0;\n    return 0;\n}\n";
        let extracted = "int g[5][7];\nvoid clear_nines(void) {\n    for (int x = 0; x < 5; x++)\n        for (int y = 0; y < 7; y++)\n            if (g[x][y] == 9) g[x][y] = 0;\n}\nint main() {\n    clear_nines();\n    return 0;\n}\n";
        assert_eq!(toks(inline, Lang::C), toks(extracted, Lang::C));
    }

    #[test]
    fn a_switch_is_the_if_else_chain_it_stands_for() {
        let chain = toks(
            "void f(int k) { if (k == 0) { d = 1; } else if (k == 2) { d = 5; } else { d = -1; } }",
            Lang::Cpp,
        );
        let switch = toks(
            "void f(int k) { switch (k) { case 0: d = 1; break; case 2: d = 5; break; default: d = -1; } }",
            Lang::Cpp,
        );
        assert_eq!(chain, switch);
    }

    #[test]
    fn a_function_called_twice_or_calling_itself_stays_where_it_is() {
        let twice = toks(
            "void h(void) { x = 1; y = 2; }\nint main() { h(); h(); return 0; }\n",
            Lang::C,
        );
        assert_eq!(twice.iter().filter(|&&t| t == Tok::Func).count(), 2, "{twice:?}");
        let recursive = toks(
            "void dfs(int d) { if (d) dfs(d - 1); }\nint main() { dfs(3); return 0; }\n",
            Lang::C,
        );
        assert_eq!(
            recursive.iter().filter(|&&t| t == Tok::Func).count(),
            2,
            "{recursive:?}"
        );
    }

    #[test]
    fn simple_statements_reordered_within_a_block_change_nothing() {
        let a = toks(
            "void f() { x = 1; y[2] = z + 3; g(x, y); while (x) x--; }",
            Lang::C,
        );
        let b = toks(
            "void f() { y[2] = z + 3; g(x, y); x = 1; while (x) x--; }",
            Lang::C,
        );
        assert_eq!(a, b);
    }

    #[test]
    fn lines_are_counted_from_one() {
        let (t, errors) = tokenize("x = 1\n\ny = f(x)\n", Lang::Python).unwrap();
        assert_eq!(t.first().unwrap().line, 1);
        assert_eq!(t.last().unwrap().line, 3);
        assert_eq!(errors, 0.0);
    }

    #[test]
    fn broken_code_gives_an_error_share() {
        let (_, errors) = tokenize("int main( { {{ ]] return", Lang::C).unwrap();
        assert!(errors > 0.0);
    }
}
