//! The crate's layers only look down: `error`, `rng` and `memory` < `board` < `algo` < `games` <
//! `sim` < `search` < `lab` < `python`, with `solve` beside `sim`, `search` and `lab`: it stands on
//! the games, and only `python` uses it. This test reads every source file and fails when a
//! module names a module of a higher layer (`crate::sim` inside `games`, say), in code or in a
//! comment, when a layer below the lab speaks of the lab, or when anything outside `src/python`
//! names pyo3 or numpy; and inside `solve`, when its files import one another in a circle.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module may use its own layer and those before it.
const LAYERS: &[&[&str]] = &[
    &["error", "rng", "memory"],
    &["board"],
    &["algo"],
    &["games"],
    &["sim"],
    &["search"],
    &["lab"],
    &["python"],
];

/// Modules beside the layers: each may use the layers up to the one named, and is used only by
/// the layers above the other one named (`solve` stands on the games, and only `python` uses
/// it).
const BESIDE: &[(&str, &str, &str)] = &[("solve", "games", "python")];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Whether `module` may use `used`, for modules beside the layers.
fn beside_allows(module: &str, used: &str) -> Option<bool> {
    for &(side, below, user) in BESIDE {
        if module == side {
            return Some(used == side || layer_of(used)? <= layer_of(below)?);
        }
        if used == side {
            return Some(module == side || layer_of(module)? >= layer_of(user)?);
        }
    }
    None
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file under `src/` belongs to (`src/games/faraday.rs` → `games`,
/// `src/rng.rs` → `rng`); `None` for the crate root.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

/// Every `crate::name` in a line of code (comments stripped).
fn crate_paths(line: &str) -> Vec<String> {
    crate_paths_in(line.split("//").next().unwrap_or(""))
}

/// Every `crate::name` in a line's comment.
fn comment_paths(line: &str) -> Vec<String> {
    line.split_once("//")
        .map_or_else(Vec::new, |(_, c)| crate_paths_in(c))
}

fn crate_paths_in(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.push(name);
        }
        rest = after;
    }
    found
}

#[test]
fn layers_only_look_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "found the sources");
    let mut violations = Vec::new();
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        let own = layer_of(&module).or_else(|| {
            BESIDE
                .iter()
                .find(|b| b.0 == module)
                .and_then(|b| layer_of(b.1))
        });
        let own = own.unwrap_or_else(|| {
            panic!(
                "{} is in no layer; add `{module}` to LAYERS",
                file.display()
            )
        });
        let text = fs::read_to_string(file).expect("source is readable");
        for (n, line) in text.lines().enumerate() {
            for used in crate_paths(line) {
                if let Some(ok) = beside_allows(&module, &used) {
                    if !ok {
                        violations.push(format!(
                            "{}:{}: `{module}` may not use `crate::{used}`",
                            file.display(),
                            n + 1
                        ));
                    }
                    continue;
                }
                if let Some(l) = layer_of(&used) {
                    if l > own {
                        violations.push(format!(
                            "{}:{}: `{module}` uses `crate::{used}`, a higher layer",
                            file.display(),
                            n + 1
                        ));
                    }
                }
            }
            for used in comment_paths(line) {
                let higher = beside_allows(&module, &used)
                    .map_or_else(|| layer_of(&used).is_some_and(|l| l > own), |ok| !ok);
                if higher {
                    violations.push(format!(
                        "{}:{}: a comment in `{module}` names `crate::{used}`, a higher layer",
                        file.display(),
                        n + 1
                    ));
                }
            }
            let lower = line.to_lowercase();
            if own < layer_of("lab").expect("lab is a layer")
                && (lower.contains("the lab") || lower.contains("variant lab"))
            {
                violations.push(format!(
                    "{}:{}: `{module}` is below the lab and speaks of it",
                    file.display(),
                    n + 1
                ));
            }
            let code = line.split("//").next().unwrap_or("");
            if module != "python" && (code.contains("pyo3") || code.contains("numpy::")) {
                violations.push(format!(
                    "{}:{}: only src/python may name pyo3 or numpy",
                    file.display(),
                    n + 1
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "layer violations:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_sees_a_violation() {
    assert_eq!(
        crate_paths("use crate::sim::Rng; // crate::python"),
        ["sim"]
    );
    assert_eq!(
        crate_paths("x(crate::games::State, crate::rng::Rng)"),
        ["games", "rng"]
    );
    assert_eq!(comment_paths("x(); // see crate::lab::Columns"), ["lab"]);
    // A module beside the layers is higher than the games it stands on, in comments too.
    assert_eq!(beside_allows("games", "solve"), Some(false));
    assert!(layer_of("sim") > layer_of("games"));
    assert!(layer_of("lab") > layer_of("search"));
    assert_eq!(beside_allows("solve", "games"), Some(true));
    assert_eq!(beside_allows("solve", "search"), Some(false));
    assert_eq!(beside_allows("search", "solve"), Some(false));
    assert_eq!(beside_allows("python", "solve"), Some(true));
}

/// The files of `src/solve` as modules (`src/solve/root.rs` and `src/solve/root/tests.rs` →
/// `root`), each with the sibling modules its code names (`super::common`, `super::{pns,
/// table}`, `crate::solve::graph`). `mod.rs`, the front that re-exports the public names, is
/// left out: every file is its child.
fn solve_imports(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    let mut modules: Vec<(String, Vec<String>)> = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(dir).expect("under src/solve");
        let depth = rel.components().count();
        let first = rel.components().next().expect("a file");
        let first = first.as_os_str().to_str().expect("a UTF-8 name");
        let name = first.strip_suffix(".rs").unwrap_or(first).to_string();
        if name == "mod" {
            continue;
        }
        // `super::x` names a sibling from `src/solve/<file>.rs`; one level deeper it is
        // `super::super::x`.
        let sibling = "super::".repeat(depth);
        let text = fs::read_to_string(file).expect("source is readable");
        let mut used = Vec::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            used.extend(names_after(code, "crate::solve::"));
            used.extend(names_after(code, &sibling));
        }
        match modules.iter_mut().find(|m| m.0 == name) {
            Some(m) => m.1.extend(used),
            None => modules.push((name, used)),
        }
    }
    let names: Vec<String> = modules.iter().map(|m| m.0.clone()).collect();
    for (name, used) in &mut modules {
        used.retain(|u| u != name && names.contains(u));
        used.sort();
        used.dedup();
    }
    modules
}

/// The first name after each `prefix` in `code`, and every first name of a braced group
/// (`prefix{a, b::c}` → `a`, `b`) on the same line.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        let after = &code[at + prefix.len()..];
        from = at + prefix.len();
        // `super::super::x` seen from a `super::` prefix is not a sibling.
        if code[..at].ends_with("::") || after.starts_with("super::") {
            continue;
        }
        if let Some(group) = after.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            found.extend(group.split(',').map(ident).filter(|n| !n.is_empty()));
        } else {
            let n = ident(after);
            if !n.is_empty() && n != "super" {
                found.push(n);
            }
        }
    }
    found
}

/// A circle in the import graph, as the modules along it (the first again at the end); `None`
/// when there is none.
fn find_circle(modules: &[(String, Vec<String>)]) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        modules: &[(String, Vec<String>)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut circle = path[i..].to_vec();
            circle.push(at.to_string());
            return Some(circle);
        }
        if done.iter().any(|d| d == at) {
            return None;
        }
        path.push(at.to_string());
        let used = modules.iter().find(|m| m.0 == at).map(|m| &m.1);
        for next in used.into_iter().flatten() {
            if let Some(c) = visit(next, modules, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.push(at.to_string());
        None
    }
    let mut done = Vec::new();
    modules
        .iter()
        .find_map(|m| visit(&m.0, modules, &mut Vec::new(), &mut done))
}

/// Inside `solve`, the files import in one direction: the shared pieces (`common`, `table`,
/// `memory`) below both methods (`alphabeta`, `pns`), and the front door (`root`) above them,
/// so no two files import each other, directly or round a longer circle.
#[test]
fn the_solvers_files_import_in_one_direction() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/solve");
    let modules = solve_imports(&dir);
    let uses = |m: &str, u: &str| {
        modules
            .iter()
            .any(|(n, used)| n == m && used.iter().any(|x| x == u))
    };
    // The checker reads the imports it must judge.
    assert!(
        uses("root", "alphabeta") && uses("root", "pns"),
        "{modules:?}"
    );
    assert!(
        uses("alphabeta", "common") && uses("pns", "common"),
        "{modules:?}"
    );
    if let Some(circle) = find_circle(&modules) {
        panic!(
            "the files of solve import in a circle: {}",
            circle.join(" -> ")
        );
    }
    for method in ["alphabeta", "pns"] {
        for above in ["root", "alphabeta", "pns"] {
            assert!(
                method == above || !uses(method, above),
                "`{method}` imports `{above}`: the methods stand on the shared pieces only"
            );
        }
    }
}

#[test]
fn the_circle_finder_sees_a_circle() {
    let m = |n: &str, u: &[&str]| (n.to_string(), u.iter().map(|s| s.to_string()).collect());
    assert_eq!(
        names_after("use super::{pns, table::Table}; super::super::x", "super::"),
        ["pns", "table"]
    );
    assert_eq!(
        names_after("use super::super::common::Budget;", "super::super::"),
        ["common"]
    );
    let line = vec![
        m("root", &["alphabeta", "pns"]),
        m("alphabeta", &["common"]),
        m("pns", &["common"]),
    ];
    assert_eq!(find_circle(&line), None);
    let circle = vec![
        m("root", &["alphabeta"]),
        m("alphabeta", &["pns"]),
        m("pns", &["alphabeta"]),
    ];
    assert_eq!(
        find_circle(&circle).expect("a circle"),
        ["alphabeta", "pns", "alphabeta"]
    );
}
