//! Inputs a script changes at run time: a committed file that a step of the same script
//! rewrites before its `ytt` command reads it (`yq eval -i '.tls.crt = "…"' values.yaml`,
//! `sed -i 's/…/…/' values.yaml`, `> values.yaml`, `>> values.yaml`, `tee values.yaml`, `cat
//! <<EOF > values.yaml`, a `cp` or `mv` onto it). The linter lints the committed content, which
//! the command never reads: the command's findings that rest on its inputs assume it (a
//! `changed-at-run-time` assumption, a warning that names the step), the others stay as they
//! are. The in-place edits are recorded with the other paths a command writes
//! ([`super::outputs`]).

use super::env::Env;
use super::index::Index;
use super::made::MadeAt;
use super::resolve::{caller_bases, Invocation};
use super::shell::Interp;
use super::snippet::CALLER;
use super::word::Word;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// How an in-place edit is named among the paths commands make (`yq -i`, `sed -i`).
const IN_PLACE: &str = " -i";

impl<'t> Interp<'t> {
    /// Records the files one expanded command line edits in place.
    pub(super) fn edits(&mut self, line: u32, fields: &[Word], env: &Env) {
        let Some(name) = fields.first().and_then(Word::literal) else {
            return;
        };
        let tool = name.rsplit('/').next().unwrap_or(&name).to_string();
        let by = format!("{tool}{IN_PLACE}");
        for path in edited(&tool, &fields[1..]) {
            self.make(line, &by, &path, None, None, env);
        }
    }
}

/// The files `tool` with `args` edits in place: `yq -i EXPR FILE...` (also `yq eval -i`, `yq e
/// --inplace`), `sed -i SCRIPT FILE...` (also `-i.bak`, `-ri`, `--in-place`, `-e SCRIPT`).
pub fn edited(tool: &str, args: &[Word]) -> Vec<Word> {
    match tool {
        "yq" => yq_files(args),
        "sed" | "gsed" => sed_files(args),
        _ => Vec::new(),
    }
}

/// The files of `yq -i`: the words after the expression.
fn yq_files(args: &[Word]) -> Vec<Word> {
    const VALUED: [&str; 10] = [
        "-o",
        "--output-format",
        "-p",
        "--input-format",
        "-I",
        "--indent",
        "--front-matter",
        "--from-file",
        "--expression",
        "--split-exp",
    ];
    let mut in_place = false;
    let mut plain: Vec<&Word> = Vec::new();
    let mut expression_given = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let lit = a.literal();
        match lit.as_deref() {
            Some("-i" | "--inplace" | "-i=true" | "--inplace=true") => in_place = true,
            Some("--arg" | "--argjson") => {
                it.next();
                it.next();
            }
            Some(f) if VALUED.contains(&f) => {
                expression_given |= f == "--expression" || f == "--from-file";
                it.next();
            }
            Some(f) if f.starts_with('-') && f.len() > 1 => {
                // `-iP`: a cluster of short flags, one of them `-i`.
                if !f.starts_with("--") && f[1..].chars().all(|c| c.is_ascii_alphabetic()) {
                    in_place |= f.contains('i');
                }
            }
            _ => plain.push(a),
        }
    }
    if !in_place {
        return Vec::new();
    }
    // `yq eval -i`, `yq e -i`: the subcommand is no file.
    if plain
        .first()
        .and_then(|w| w.literal())
        .is_some_and(|s| matches!(s.as_str(), "eval" | "e" | "eval-all" | "ea"))
    {
        plain.remove(0);
    }
    let skip = usize::from(!expression_given);
    plain.into_iter().skip(skip).cloned().collect()
}

/// The files of `sed -i`: the words after the script (or all of them, given `-e`/`-f`).
fn sed_files(args: &[Word]) -> Vec<Word> {
    let mut in_place = false;
    let mut script_given = false;
    let mut plain: Vec<&Word> = Vec::new();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let lit = a.literal();
        match lit.as_deref() {
            Some("-e" | "--expression" | "-f" | "--file") => {
                script_given = true;
                it.next();
            }
            Some("-i") => {
                in_place = true;
                // BSD sed's `-i ''`: the empty suffix is no script.
                if it.peek().and_then(|w| w.literal()).as_deref() == Some("") {
                    it.next();
                }
            }
            Some(f) if f.starts_with("--in-place") => in_place = true,
            Some(f) if f.starts_with("--") => {}
            Some(f) if f.starts_with('-') && f.len() > 1 => {
                // `-i.bak`, `-ri`, `-Ei`: short flags before any suffix.
                let flags: String = f[1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                in_place |= flags.contains('i');
                script_given |= flags.ends_with('e') && !flags.contains('i');
            }
            _ => plain.push(a),
        }
    }
    if !in_place {
        return Vec::new();
    }
    let skip = usize::from(!script_given);
    plain.into_iter().skip(skip).cloned().collect()
}

/// Adds to `inv` a `changed-at-run-time` assumption for each committed input (a `-f` file, a
/// file in a `-f` directory, a values file) that a step of the same file writes on a line
/// before the command's. A write on the command's own line is left alone: in a pipeline
/// (`ytt -f bundle | kbld -f - --imgpkg-lock-output bundle/.imgpkg/images.yml`) it happens
/// as ytt runs or after; so is a step of a script a README runs (all its steps are placed on
/// the README's line, so their order is not known).
pub fn mark(inv: &mut Invocation, made: &[MadeAt], index: &Index) {
    let inputs = input_paths(inv);
    if inputs.is_empty() {
        return;
    }
    let mut changed: Vec<(String, &MadeAt)> = Vec::new();
    for m in made {
        if m.file != inv.origin.file
            || m.made.line >= inv.origin.line
            || matches!(m.made.by.as_str(), "mkdir" | "touch")
        {
            continue;
        }
        for path in places(m) {
            let read = inputs
                .iter()
                .any(|i| *i == path || paths::is_within(&path, i));
            if read && index.is_file(&path) && !changed.iter().any(|(p, _)| *p == path) {
                changed.push((path, m));
            }
        }
    }
    for (path, m) in changed {
        let a = Assumption::new(AssumptionKind::ChangedAtRunTime, message(&path, m)).about(
            Subject::Rewritten {
                file: path.clone(),
                shell: false,
            },
        );
        if !inv.assumptions.contains(&a) {
            inv.assumptions.push(a);
        }
    }
}

/// Whether the path was made by an in-place edit (`sed -i`, `yq -i`).
pub(super) fn in_place(m: &MadeAt) -> bool {
    m.made.by.ends_with(IN_PLACE)
}

/// What the assumption says: the committed content was linted, and which step rewrites it.
fn message(path: &str, m: &MadeAt) -> String {
    let how = match (m.made.by.strip_suffix(IN_PLACE), &m.made.from) {
        (Some(tool), _) => format!("`{tool} -i` edits it in place"),
        (None, Some(from)) => format!("`{}` replaces it with {}", m.made.by, shown(from)),
        (None, None) => format!("`{}` writes it", m.made.by),
    };
    format!(
        "{path} is changed at run time: {how} at {} before this command reads it; the committed \
         content was linted",
        m.origin()
    )
}

/// A path word as a message shows it (a repository path without its marker).
fn shown(w: &Word) -> String {
    w.repo_path().unwrap_or_else(|| w.to_string())
}

/// The repository paths a made path stands for: itself, or from each directory its script may
/// be started from.
pub(super) fn places(m: &MadeAt) -> Vec<String> {
    match m.made.path.strip_prefix(CALLER) {
        Some(rest) => caller_bases(paths::parent(&m.file))
            .into_iter()
            .filter_map(|mut base| {
                base.extend(&rest);
                base.normalized().repo_path()
            })
            .collect(),
        None => m.made.path.normalized().repo_path().into_iter().collect(),
    }
}

/// The repository paths a command reads: its `-f` inputs, values files and value files.
/// A file that stands in for an input (the source of the `mv` that makes it) is not what a
/// later write to its own path changes.
fn input_paths(inv: &Invocation) -> Vec<String> {
    let mut out: Vec<String> = inv
        .inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string())
        .collect();
    for v in &inv.values_files {
        let rest = match v.strip_prefix('@') {
            Some(r) => r.split_once(':').map_or(r, |(_, p)| p),
            None => v,
        };
        out.push(rest.strip_prefix("+:").unwrap_or(rest).to_string());
    }
    out.extend(inv.value_files.iter().map(|(_, p)| p.clone()));
    out.retain(|p| !inv.stand_ins.contains(p));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    fn files(tool: &str, args: &str) -> Vec<String> {
        edited(tool, &words(args))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn yq_in_place_edits_the_files_after_its_expression() {
        assert_eq!(files("yq", "eval -i .a=1 values.yaml"), ["values.yaml"]);
        assert_eq!(
            files("yq", "e --inplace .a=1 v.yml w.yml"),
            ["v.yml", "w.yml"]
        );
        assert_eq!(files("yq", "-i .a=1 values.yaml"), ["values.yaml"]);
        assert_eq!(files("yq", "-iP -I 4 .a=1 values.yaml"), ["values.yaml"]);
        assert!(files("yq", "eval .a values.yaml").is_empty());
        assert!(files("yq", "-o json .a values.yaml").is_empty());
    }

    #[test]
    fn sed_in_place_edits_the_files_after_its_script() {
        assert_eq!(files("sed", "-i s/a/b/ values.yaml"), ["values.yaml"]);
        assert_eq!(files("sed", "-i.bak s/a/b/ values.yaml"), ["values.yaml"]);
        assert_eq!(files("sed", "-ri -e s/a/b/ -e s/c/d/ v.yml"), ["v.yml"]);
        assert_eq!(files("sed", "--in-place=.orig s/a/b/ v.yml"), ["v.yml"]);
        let bsd = vec![
            Word::lit("-i"),
            Word::lit(""),
            Word::lit("s/a/b/"),
            Word::lit("v.yml"),
        ];
        let got: Vec<String> = edited("sed", &bsd)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(got, ["v.yml"]);
        assert!(files("sed", "-n s/a/b/p values.yaml").is_empty());
        assert!(files("awk", "-i inplace {print} values.yaml").is_empty());
    }
}
