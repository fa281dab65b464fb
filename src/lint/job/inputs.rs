//! Prepares one job's evaluation as `yttlint template` would with the job's flags: the input
//! files (each `-f` read as ytt reads it, file marks applied), the data values from the flags,
//! and a map from the names ytt gives files in positions back to repository-relative paths.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::files::paths;
use crate::files::{self, InputFile};
use crate::library::{EvalOpts, ExternalValues, Workspace};
use crate::pos::Pos;
use crate::ytt_flags::stdin_text::{self, StdinText};
use crate::ytt_flags::TemplateArgs;

/// A job ready to evaluate.
pub struct Prepared {
    pub workspace: Workspace,
    pub external: ExternalValues,
    pub names: Names,
    /// Files not read: outside the repository, or not regular files.
    pub refused: Vec<files::Refused>,
}

/// File names in positions → repository-relative paths. Two inputs can give files the same
/// name (`-f base -f pr`, each with a `pipeline.yml`; ytt names both so in its messages too):
/// such a name is told apart by the position's byte offset, which falls on the position's line
/// in only one of the files, as a rule.
#[derive(Clone, Debug, Default)]
pub struct Names {
    paths: HashMap<String, String>,
    /// The text of the first file of each name, kept in case another comes.
    first: HashMap<String, Arc<str>>,
    /// Names of more than one file: each file's repository path and text, in input order.
    twins: HashMap<String, Vec<(String, Arc<str>)>>,
    /// Examples given under the name of a file a template loads: the repository path the
    /// user's copy has, and the example's (see [`crate::lint::job::loaded_example`]).
    stood_in: Vec<(String, String)>,
    /// Names of files whose text starts inside their repository file: the lines before it
    /// and the columns before each of its lines (standard input that a script's
    /// here-document gives, or a configuration's block).
    offsets: HashMap<String, (u32, u32)>,
}

impl Names {
    /// The repository-relative path of a file named `name` in a position, if it is known (the
    /// first file of that name; see [`Names::repo_path_at`]).
    pub fn repo_path(&self, name: &str) -> Option<&str> {
        self.paths.get(name).map(String::as_str)
    }

    /// The repository paths of the files named `name` whose text is `text`: one, unless two
    /// inputs give files that name (each of those with that text, in input order).
    pub fn repo_paths_with(&self, name: &str, text: &str) -> Vec<&str> {
        match self.twins.get(name) {
            Some(twins) => twins
                .iter()
                .filter(|(_, t)| t.as_ref() == text)
                .map(|(p, _)| p.as_str())
                .collect(),
            None => self.repo_path(name).into_iter().collect(),
        }
    }

    /// Every repository path of the files named `name`: one, or each of the files two
    /// inputs give under that name (`-f app/` and `-f deploy/values.yaml` both give a
    /// `values.yaml`).
    pub fn all_repo_paths(&self, name: &str) -> Vec<&str> {
        match self.twins.get(name) {
            Some(twins) => twins.iter().map(|(p, _)| p.as_str()).collect(),
            None => self.repo_path(name).into_iter().collect(),
        }
    }

    /// The name the workspace gives the file at the repository path `path` (the first, when
    /// several names lead there).
    pub fn name_of(&self, path: &str) -> Option<&str> {
        let mut names: Vec<&String> = self
            .paths
            .iter()
            .filter(|(_, p)| p.as_str() == path)
            .map(|(n, _)| n)
            .collect();
        names.sort();
        names.first().map(|n| n.as_str())
    }

    /// The repository-relative path of the file `pos` is in: for a name several files have,
    /// the first whose text has the position's line at its byte offset.
    pub fn repo_path_at(&self, pos: &Pos) -> Option<&str> {
        let name = pos.file.as_deref()?;
        let Some(twins) = self.twins.get(name) else {
            return self.repo_path(name);
        };
        let on_line = |text: &str| {
            let at = pos.offset as usize;
            at <= text.len()
                && text.is_char_boundary(at)
                && 1 + text[..at].matches('\n').count() == pos.line as usize
        };
        twins
            .iter()
            .find(|(_, text)| on_line(text))
            .map(|(path, _)| path.as_str())
            .or_else(|| self.repo_path(name))
    }

    /// The line and column of the repository file that `pos` is at: its own, or for text
    /// that starts inside a repository file (a here-document on standard input), below the
    /// lines and right of the columns before the text.
    pub fn line_col_at(&self, pos: &Pos) -> (u32, u32) {
        let (lines, cols) = pos
            .file
            .as_deref()
            .and_then(|f| self.offsets.get(f))
            .copied()
            .unwrap_or((0, 0));
        (pos.line.saturating_add(lines), pos.col.saturating_add(cols))
    }

    /// The line of the repository file that `pos` is at (see [`Names::line_col_at`]).
    pub fn line_at(&self, pos: &Pos) -> u32 {
        self.line_col_at(pos).0
    }

    /// The examples given under the name of a file a template loads, each as the repository
    /// path of the user's copy and the example's.
    pub fn stood_in(&self) -> &[(String, String)] {
        &self.stood_in
    }

    /// The file named `from` is given as `to`, a file a template loads that the command does
    /// not give: its example. `false` (nothing changed) when several files have the name
    /// `from`, or `to` names one already.
    pub(crate) fn stand_in(&mut self, from: &str, to: &str) -> bool {
        if self.twins.contains_key(from) || self.paths.contains_key(to) {
            return false;
        }
        let Some(example) = self.paths.remove(from) else {
            return false;
        };
        if let Some(text) = self.first.remove(from) {
            self.first.insert(to.to_string(), text);
        }
        let base = to.rsplit('/').next().unwrap_or(to);
        let copy = paths::join(paths::parent(&example), base);
        self.paths.insert(to.to_string(), example.clone());
        self.stood_in.push((copy, example));
        true
    }

    fn add(&mut self, name: &str, repo_path: String) {
        self.paths.entry(name.to_string()).or_insert(repo_path);
    }

    /// Adds an input file: its name, repository path and text.
    pub(crate) fn add_file(&mut self, name: &str, repo_path: String, text: &Arc<str>) {
        let Some(first) = self.paths.get(name) else {
            self.first.insert(name.to_string(), text.clone());
            self.paths.insert(name.to_string(), repo_path);
            return;
        };
        if *first == repo_path {
            return;
        }
        let twins = self.twins.entry(name.to_string()).or_default();
        if twins.is_empty() {
            let text = self
                .first
                .get(name)
                .cloned()
                .unwrap_or_else(|| Arc::from(""));
            twins.push((first.clone(), text));
        }
        twins.push((repo_path, text.clone()));
    }
}

fn no_stdin() -> Result<String, String> {
    Err("standard input is not available to the linter".to_string())
}

/// Reads `-` as the text `flags` say standard input holds, once, as ytt reads it once.
fn known_stdin(text: Option<&StdinText>) -> impl FnMut() -> Result<String, String> + '_ {
    let mut read = false;
    move || match text {
        Some(t) if !read => {
            read = true;
            Ok(t.text.clone())
        }
        Some(_) => Err(format!(
            "Reading file '{}': Standard input has already been read, has the '-' argument \
             been used in more than one flag?",
            stdin_text::NAME
        )),
        None => no_stdin(),
    }
}

/// Reads the inputs and data values named by `flags` (paths absolute) in the repository `repo`;
/// the data values of `provided` (given at run time) get placeholders; the files of `expanded`
/// (repository paths), which a script's shell expands before ytt reads them, are read as
/// [`super::shell_expanded`] says.
pub fn prepare(
    repo: &Path,
    flags: &TemplateArgs,
    provided: &[String],
    expanded: &[String],
) -> Result<Prepared, String> {
    let mut names = Names::default();
    let mut inputs = Vec::new();
    let policy = files::ReadPolicy::repository(repo);
    let mut refused = Vec::new();
    let mut stdin = known_stdin(flags.stdin.as_ref());
    for arg in &flags.files {
        let given = (&mut stdin as &mut dyn FnMut() -> _, flags.stdin.as_ref());
        inputs.extend(read_input(
            repo,
            arg,
            &mut names,
            (&policy, &mut refused),
            given,
            expanded,
        )?);
    }
    let inputs = crate::ytt_flags::file_marks::apply(inputs, &flags.file_marks)?;
    // The committed example of a file a template loads and the command lacks, in its place.
    let inputs = crate::lint::job::loaded_example::stand_in(inputs, &mut names);
    for arg in &flags.dv_files {
        name_values_files(repo, arg, &mut names, &policy);
    }
    let opts = EvalOpts {
        ignore_unknown_comments: flags.ignore_unknown_comments,
        implicit_map_key_overrides: flags.implicit_map_key_overrides,
        strict: flags.strict,
        extensions: crate::schema::extensions::Extensions::from_names(&flags.extensions)?,
        ..EvalOpts::default()
    };
    let workspace = Workspace::new(inputs, opts);
    let external = external_values(repo, &workspace, flags, provided, &mut refused)?;
    Ok(Prepared {
        workspace,
        external,
        names,
        refused,
    })
}

/// The data values `flags` give (read from the repository `repo`), with placeholders for the
/// values of `provided` (given at run time) as the schema of `workspace` types them.
pub fn external_values(
    repo: &Path,
    workspace: &Workspace,
    flags: &TemplateArgs,
    provided: &[String],
    refused: &mut Vec<files::Refused>,
) -> Result<ExternalValues, String> {
    let mut dv = flags.data_values_flags(files::ReadPolicy::repository(repo));
    dv.kv_yaml
        .extend(crate::lint::job::placeholder::flags(workspace, provided));
    let env: Vec<(String, String)> = std::env::vars().collect();
    dv.to_values_with(flags.strict, &env, &mut no_stdin, refused)
}

/// Reads one `-f [name=]path` and records where its files are in the repository.
fn read_input(
    repo: &Path,
    arg: &str,
    names: &mut Names,
    (policy, refused): (&files::ReadPolicy, &mut Vec<files::Refused>),
    (stdin, written): (
        &mut dyn FnMut() -> Result<String, String>,
        Option<&StdinText>,
    ),
    expanded: &[String],
) -> Result<Vec<InputFile>, String> {
    let mut group = files::collect_with(&[arg.to_string()], stdin, policy, refused)?;
    if files::input::path_of(arg) == "-" {
        // Standard input: shown in the repository file that writes it.
        if let (Some(f), Some(at)) = (group.first(), written) {
            names.add_file(&f.rel_path, at.file.clone(), &f.data);
            names
                .offsets
                .insert(f.rel_path.clone(), (at.offset(), at.indent));
        }
        return Ok(group);
    }
    let path = Path::new(files::input::path_of(arg));
    // As ytt, a symlink named here is a file (`lstat`), even one to a directory.
    let dir = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    for f in &mut group {
        let abs = if dir {
            path.join(&f.rel_path)
        } else {
            path.to_path_buf()
        };
        if let Some(rel) = paths::relative(repo, &abs) {
            if expanded.contains(&rel) {
                if let Some(text) = super::shell_expanded::blank_substitutions(&f.data) {
                    f.data = Arc::from(text);
                }
            }
            names.add_file(&f.rel_path, rel, &f.data);
        }
    }
    Ok(group)
}

/// Values files are named `rel=abs` (their position names are repository paths already);
/// files of a values directory are named relative to it.
fn name_values_files(repo: &Path, arg: &str, names: &mut Names, policy: &files::ReadPolicy) {
    let rest = crate::lint::config::parse::split_lib_ref(arg).1;
    let rest = rest.strip_prefix("+:").unwrap_or(rest);
    let input = files::input::parse(rest).unwrap_or(files::input::Input {
        name: None,
        path: rest,
    });
    if let Some(name) = input.name {
        names.add(name, name.to_string());
        return;
    }
    let dir = Path::new(input.path);
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return;
    }
    if let Ok(found) = files::collect_with(
        &[input.path.to_string()],
        &mut no_stdin,
        policy,
        &mut Vec::new(),
    ) {
        for f in found {
            if let Some(rel) = paths::relative(repo, &dir.join(&f.rel_path)) {
                names.add(&f.rel_path, rel);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_one_name_are_told_by_their_text() {
        let mut names = Names::default();
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("a: 1\n"), Arc::from("b: 2\n"));
        names.add_file("values.yml", "config/values.yml".into(), &a);
        names.add_file("values.yml", "dev/values.yml".into(), &b);
        names.add_file("other.yml", "config/other.yml".into(), &a);
        assert_eq!(
            names.repo_paths_with("values.yml", "b: 2\n"),
            ["dev/values.yml"]
        );
        assert_eq!(
            names.repo_paths_with("values.yml", "a: 1\n"),
            ["config/values.yml"]
        );
        assert_eq!(
            names.repo_paths_with("other.yml", "?"),
            ["config/other.yml"]
        );
    }

    #[test]
    fn names_map_back_to_repository_paths() {
        let repo = std::env::temp_dir().join(format!("yttlint-inputs-{}", std::process::id()));
        std::fs::create_dir_all(repo.join("app/sub")).unwrap();
        std::fs::create_dir_all(repo.join("ci")).unwrap();
        std::fs::write(repo.join("app/sub/a.yml"), "a: 1\n").unwrap();
        std::fs::write(repo.join("extra.yml"), "b: 2\n").unwrap();
        std::fs::write(repo.join("ci/v.yml"), "a: 3\n").unwrap();
        let flags = TemplateArgs {
            files: vec![
                repo.join("app").to_string_lossy().into_owned(),
                repo.join("extra.yml").to_string_lossy().into_owned(),
            ],
            dv_files: vec![crate::lint::config::flags::values_file(
                &repo, &repo, "ci/v.yml",
            )],
            ..TemplateArgs::default()
        };
        let p = prepare(&repo, &flags, &[], &[]).unwrap();
        assert_eq!(p.names.repo_path("sub/a.yml"), Some("app/sub/a.yml"));
        assert_eq!(p.names.repo_path("extra.yml"), Some("extra.yml"));
        assert_eq!(p.names.repo_path("ci/v.yml"), Some("ci/v.yml"));
        assert_eq!(p.external.root.len(), 1);
        std::fs::remove_dir_all(&repo).unwrap();
    }
}
