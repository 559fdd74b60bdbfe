//! The house rules for `src/`, read from the source itself (CONTRIBUTING.md,
//! "The layers"):
//! - the top-level modules (the children of `src/lib.rs`) import one another
//!   without a cycle;
//! - state never reaches into drawing: nothing under `src/app*` names `ui`;
//! - the course never reaches into the engine: nothing under `src/content*`
//!   names `check`;
//! - no file in `src/` is over 500 lines.
//!
//! Imports are read from `crate::…` paths (in `use` items and inline) and
//! from `super::…` paths that climb out of a top-level module. Test code
//! (`tests.rs` files and `#[cfg(test)]` items) is left out: a test may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 500;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The top-level module a file belongs to (`src/app/map.rs` → `app`,
/// `src/app.rs` → `app`), or `None` for `lib.rs` and `main.rs`.
fn top_module(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// How deep a file sits below its top-level module: `src/app.rs` and
/// `src/app/mod.rs` are 0, `src/app/map.rs` is 1, `src/app/map/keys.rs` is 2.
/// A `super::` path climbs out of the top-level module after this many steps.
fn depth(file: &Path) -> usize {
    let rel = file.strip_prefix(src()).unwrap();
    let parts = rel.components().count();
    let stem = file.file_stem().unwrap().to_str().unwrap();
    if stem == "mod" { parts - 2 } else { parts - 1 }
}

/// `text` without test code: `#[cfg(test)]` items (to their closing brace,
/// or their `;`) are blanked out, keeping line numbers.
fn without_tests(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            out.push('\n');
            let mut depth = 0i32;
            let mut opened = false;
            for line in lines.by_ref() {
                out.push('\n');
                for c in line.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                if (opened && depth <= 0) || (!opened && line.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The top-level modules named by `crate::` paths in `code`, with the line
/// of each. Grouped imports (`use crate::{a::X, b};`) name each member.
fn crate_paths(code: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                // The members of the group up to its closing brace, at depth 0.
                let mut depth = 0;
                let mut member = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            push_ident(&member, n, &mut found);
                            member.clear();
                            continue;
                        }
                        _ => {}
                    }
                    member.push(c);
                }
                push_ident(&member, n, &mut found);
            } else {
                push_ident(after, n, &mut found);
            }
            rest = after;
        }
    }
    found
}

fn push_ident(path: &str, line: usize, found: &mut Vec<(String, usize)>) {
    let ident: String = path
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if !ident.is_empty() {
        found.push((ident, line + 1));
    }
}

/// The top-level modules named by `super::` paths that climb out of the
/// file's own top-level module (`super::super::ui` from `src/app/map.rs`).
fn climbing_super_paths(code: &str, depth: usize) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find("super::") {
            let mut after = &rest[at..];
            let mut climbs = 0;
            while let Some(next) = after.strip_prefix("super::") {
                climbs += 1;
                after = next;
            }
            if climbs > depth {
                push_ident(after, n, &mut found);
            }
            rest = after;
        }
    }
    found
}

/// Every import between top-level modules: (from, to) → where it is written.
fn imports() -> BTreeMap<(String, String), Vec<String>> {
    let mut edges: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let modules: BTreeSet<String> = rust_files(&src()).iter().filter_map(|f| top_module(f)).collect();
    for file in rust_files(&src()) {
        let Some(from) = top_module(&file) else { continue };
        if file.file_stem().is_some_and(|s| s == "tests") {
            continue;
        }
        let code = without_tests(&fs::read_to_string(&file).unwrap());
        let rel = file
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .display()
            .to_string();
        let named = crate_paths(&code)
            .into_iter()
            .chain(climbing_super_paths(&code, depth(&file)));
        for (to, line) in named {
            if to != from && modules.contains(&to) {
                edges
                    .entry((from.clone(), to))
                    .or_default()
                    .push(format!("{rel}:{line}"));
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<(String, String), Vec<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let next = |n: &String| -> Vec<&String> { edges.keys().filter(|(a, _)| a == n).map(|(_, b)| b).collect() };
    struct State<'a> {
        index: BTreeMap<&'a String, usize>,
        low: BTreeMap<&'a String, usize>,
        stack: Vec<&'a String>,
        on_stack: BTreeSet<&'a String>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(n: &'a String, st: &mut State<'a>, next: &dyn Fn(&String) -> Vec<&'a String>) {
        let i = st.index.len();
        st.index.insert(n, i);
        st.low.insert(n, i);
        st.stack.push(n);
        st.on_stack.insert(n);
        for m in next(n) {
            if !st.index.contains_key(m) {
                visit(m, st, next);
                let low = st.low[n].min(st.low[m]);
                st.low.insert(n, low);
            } else if st.on_stack.contains(m) {
                let low = st.low[n].min(st.index[m]);
                st.low.insert(n, low);
            }
        }
        if st.low[n] == st.index[n] {
            let mut component = Vec::new();
            while let Some(m) = st.stack.pop() {
                st.on_stack.remove(m);
                component.push(m.clone());
                if m == n {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                st.found.push(component);
            }
        }
    }
    let mut st = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for n in nodes {
        if !st.index.contains_key(n) {
            visit(n, &mut st, &next);
        }
    }
    st.found
}

fn describe(edges: &BTreeMap<(String, String), Vec<String>>, within: &[String]) -> String {
    edges
        .iter()
        .filter(|((a, b), _)| within.contains(a) && within.contains(b))
        .map(|((a, b), at)| format!("  {a} → {b}: {}", at.join(", ")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn top_level_modules_import_each_other_without_a_cycle() {
    let edges = imports();
    let cycles = cycles(&edges);
    let report: Vec<String> = cycles
        .iter()
        .map(|c| format!("cycle among {}:\n{}", c.join(", "), describe(&edges, c)))
        .collect();
    assert!(cycles.is_empty(), "{}", report.join("\n"));
}

#[test]
fn state_never_imports_drawing() {
    let edges = imports();
    let wrong = edges.get(&("app".to_string(), "ui".to_string()));
    assert!(wrong.is_none(), "src/app* imports ui at {}", wrong.unwrap().join(", "));
}

#[test]
fn the_course_never_imports_the_engine() {
    let edges = imports();
    let wrong = edges.get(&("content".to_string(), "check".to_string()));
    assert!(
        wrong.is_none(),
        "src/content* imports check at {}",
        wrong.unwrap().join(", ")
    );
}

#[test]
fn no_file_in_src_is_over_the_limit() {
    let long: Vec<String> = rust_files(&src())
        .into_iter()
        .filter_map(|f| {
            let lines = fs::read_to_string(&f).unwrap().lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines, split by concern: {}",
        long.join(", ")
    );
}

/// The reader itself: it must see what the rules are about, or every rule
/// above passes vacuously.
#[test]
fn the_reader_finds_imports_of_every_kind() {
    let code = "use crate::{app::Msg, check::{self, Event}};\nlet x = crate::ui::draw();\n// crate::text\nuse super::super::progress::X;\n#[cfg(test)]\nmod tests {\n    use crate::cli;\n}\n";
    let code = without_tests(code);
    let named: Vec<String> = crate_paths(&code).into_iter().map(|(m, _)| m).collect();
    assert_eq!(named, ["app", "check", "ui"]);
    let climbing: Vec<String> = climbing_super_paths(&code, 1).into_iter().map(|(m, _)| m).collect();
    assert_eq!(climbing, ["progress"]);
    assert!(climbing_super_paths("use super::x;", 1).is_empty());
    let edges = imports();
    assert!(edges.contains_key(&("tui".to_string(), "app".to_string())), "{edges:?}");
    let mut planted = edges.clone();
    planted.insert(("jsonrpc".into(), "tui".into()), vec!["planted".into()]);
    assert!(
        !cycles(&planted).is_empty(),
        "a planted cycle tui → … → jsonrpc → tui is found"
    );
}
