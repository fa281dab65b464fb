//! Committed templates a command of the repository renders into another file before ytt reads
//! that file: `envsubst < values-template.yaml > values.yaml` (the environment's values fill
//! its `$VAR`s), `sed -e "s/{{ .domain }}/$DOMAIN/g" config.tpl > config.yml` (the script's
//! rules replace its placeholders). The committed template holds placeholders, not what ytt
//! reads: a root that renders the template itself (one the linter inferred from the layout)
//! rests on that text, and its findings name the rendering (a `changed-at-run-time`
//! assumption about the template: round forty-three's R43-1, where a Contour `fqdn` built from
//! a `$APP_DOMAIN` placeholder was called a schema violation with only the inferred command
//! named).

use super::index::Index;
use super::resolve::caller_bases;
use super::shell::Interp;
use super::snippet::CALLER;
use super::word::{Word, REPO};
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// A rendering found in a script: what writes which file from which template.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rendering {
    /// The line of the command.
    pub line: u32,
    /// The tool (`envsubst`, `sed`).
    pub by: String,
    /// The template, from the working directory made absolute.
    pub template: Word,
    /// The file written, as the command writes it.
    pub to: Word,
    /// For `sed`, the patterns of its `s` commands, when each is literal text; `None` when
    /// a rule cannot be read (see [`sed_patterns`]).
    pub patterns: Option<Vec<String>>,
    /// Where the command is written when another script holds it (the script a page's
    /// `./render.sh` runs), with its line there.
    pub written: Option<(String, u32)>,
}

/// A committed template a command of the repository renders.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Template {
    /// The template's repository path.
    pub path: String,
    /// The tool.
    pub by: String,
    /// The file it writes, as the command writes it.
    pub to: String,
    /// Where the command is (`deploy.sh:3`).
    pub origin: String,
    /// The file and line of the command.
    pub file: String,
    pub line: u32,
    /// See [`Rendering::patterns`].
    pub patterns: Option<Vec<String>>,
    /// Where the command is written when another script holds it, run at [`Template::origin`]
    /// (`to-yaml.sh:4`).
    pub written: Option<String>,
}

impl Template {
    /// Where the rendering command is: its line, and the line that runs its script when
    /// another script holds it (`to-yaml.sh:4, run by README.md:6`).
    pub fn place(&self) -> String {
        match &self.written {
            Some(w) => format!("{w}, run by {}", self.origin),
            None => self.origin.clone(),
        }
    }

    /// What a root that renders the template itself assumes.
    pub fn assumption(&self) -> Assumption {
        let how = how(&self.by);
        Assumption::new(
            AssumptionKind::ChangedAtRunTime,
            format!(
                "{} is a template: `{}` at {} renders it into {}, {how}; the committed \
                 text, placeholders and all, was linted",
                self.path,
                self.by,
                self.place(),
                self.to
            ),
        )
        .about(Subject::Rewritten {
            file: self.path.clone(),
            shell: by_shell(&self.by),
        })
    }
}

/// Whether the tool `by` is the shell itself, expanding the template as a here-document: it
/// fills in its commands' output as well as its variables.
pub fn by_shell(by: &str) -> bool {
    by == super::heredoc_wrapper::TOOL
}

/// How the tool `by` renders a template, for a message.
pub fn how(by: &str) -> &'static str {
    match by {
        "envsubst" => "which fills its variables from the environment at run time",
        super::heredoc_wrapper::TOOL => {
            "which the script runs, expanding its variables and commands at run time (a line \
             only a command's output fills, `$(…)`, was linted empty)"
        }
        _ => "whose rules replace its placeholders at run time",
    }
}

/// The committed templates among the renderings `found` of each file (repository path).
pub fn templates(found: &[(String, Vec<Rendering>)], index: &Index) -> Vec<Template> {
    let mut out: Vec<Template> = Vec::new();
    for (file, renderings) in found {
        for r in renderings {
            // A script started from its caller's directory: from each place it may be
            // started, where the template is.
            let bases = match r.template.strip_prefix(CALLER) {
                Some(_) => caller_bases(paths::parent(file)),
                None => vec![Word::lit(REPO)],
            };
            for base in bases {
                let template = rebased(&r.template, &base);
                let Some(path) = template.repo_path().filter(|p| index.is_file(p)) else {
                    continue;
                };
                let to = rebased(&r.to, &base);
                out.push(Template {
                    path,
                    by: r.by.clone(),
                    to: to.repo_path().unwrap_or_else(|| to.to_string()),
                    origin: format!("{file}:{}", r.line),
                    file: file.clone(),
                    line: r.line,
                    patterns: r.patterns.clone(),
                    written: r.written.as_ref().map(|(f, l)| format!("{f}:{l}")),
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `w` with its caller's directory, if it starts with it, replaced by `base`.
fn rebased(w: &Word, base: &Word) -> Word {
    match w.strip_prefix(CALLER) {
        Some(rest) => {
            let mut out = base.clone();
            out.extend(&rest);
            out.normalized()
        }
        None => w.normalized(),
    }
}

/// The templates within the directory or file `path`.
pub fn within<'a>(templates: &'a [Template], path: &'a str) -> impl Iterator<Item = &'a Template> {
    templates
        .iter()
        .filter(move |t| paths::is_within(&t.path, path))
}

/// The template operand of `sed SCRIPT FILE` (or `sed -e S … FILE`, `-E`, `-r`, `-n`): its one
/// file, and the patterns of its rules (see [`sed_patterns`]); `None` for an in-place edit
/// (see `edits.rs`), a script file (`-f`) or several files.
pub fn sed_template(args: &[Word]) -> Option<(Word, Option<Vec<String>>)> {
    let mut script_given = false;
    let mut scripts: Vec<&Word> = Vec::new();
    let mut plain: Vec<&Word> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let lit = a.literal();
        match lit.as_deref() {
            Some("-e" | "--expression") => {
                script_given = true;
                scripts.extend(it.next());
            }
            Some(f) if f.starts_with("-i") || f.starts_with("--in-place") => return None,
            Some("-f" | "--file") => return None,
            Some(f) if f.starts_with('-') && f.len() > 1 => {
                let flags = f.trim_start_matches('-');
                if flags.contains('i') && !f.starts_with("--") {
                    return None;
                }
            }
            _ => plain.push(a),
        }
    }
    if !script_given {
        scripts.extend(plain.first().copied());
    }
    let files = plain.get(usize::from(!script_given)..).unwrap_or(&[]);
    match files {
        [one] if one.names_file() => Some(((*one).clone(), sed_patterns(&scripts))),
        _ => None,
    }
}

/// The patterns of `sed` scripts each made of one `s` command whose pattern is literal text
/// (`s/{{ .domain }}/$DOMAIN/g`: the replacement may be known only at run time); `None` when
/// any script is another command, holds several, or its pattern is not known.
pub fn sed_patterns(scripts: &[&Word]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for w in scripts {
        if w.to_string().contains([';', '\n']) {
            return None;
        }
        let rest = w.literal_prefix().strip_prefix('s')?;
        let delim = rest
            .chars()
            .next()
            .filter(|c| !c.is_alphanumeric() && *c != '\\')?;
        let body = &rest[delim.len_utf8()..];
        let mut pattern = String::new();
        let mut chars = body.chars();
        loop {
            match chars.next()? {
                '\\' => {
                    let next = chars.next()?;
                    if next != delim {
                        pattern.push('\\');
                    }
                    pattern.push(next);
                }
                c if c == delim => break,
                c => pattern.push(c),
            }
        }
        if pattern.is_empty() {
            return None;
        }
        out.push(pattern);
    }
    (!out.is_empty()).then_some(out)
}

impl<'t> Interp<'t> {
    /// Records that a command run in `env` writes `to` (as written) by rendering
    /// `template` (as written) with `tool`: `line` is where it runs, `written` where another
    /// file holds it (see [`Rendering::written`]).
    pub(super) fn rendering(
        &mut self,
        (line, written): (u32, Option<(String, u32)>),
        tool: &str,
        (template, patterns): &(Word, Option<Vec<String>>),
        to: &Word,
        env: &super::env::Env,
    ) {
        let Some(cwd) = &env.cwd else {
            return;
        };
        self.rendered.push(Rendering {
            line,
            by: tool.to_string(),
            template: template.relative_to(cwd),
            to: to.relative_to(cwd),
            patterns: patterns.clone(),
            written,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    #[test]
    fn the_template_of_a_sed_that_writes_elsewhere() {
        let one = |s: &str| sed_template(&words(s)).map(|(w, _)| w.to_string());
        let pats = |s: &str| sed_template(&words(s)).and_then(|(_, p)| p);
        assert_eq!(
            pats("-e s/a/b/g -e s|c/d|e| t.yaml"),
            Some(vec!["a".to_string(), "c/d".to_string()])
        );
        assert_eq!(pats("s/a\\/b/c/ t.yaml"), Some(vec!["a/b".to_string()]));
        assert_eq!(pats("-e 1d t.yaml"), None);
        assert_eq!(pats("-e s/a/b/;s/c/d/ t.yaml"), None);
        assert_eq!(one("-e s/a/b/g config.tpl").as_deref(), Some("config.tpl"));
        assert_eq!(one("s/a/b/g config.tpl").as_deref(), Some("config.tpl"));
        assert_eq!(
            one("-E -e s/a/b/ -e s/c/d/ t.yaml").as_deref(),
            Some("t.yaml")
        );
        assert_eq!(one("-i s/a/b/ t.yaml"), None);
        assert_eq!(one("-ri s/a/b/ t.yaml"), None);
        assert_eq!(one("-f rules.sed t.yaml"), None);
        assert_eq!(one("s/a/b/ a.yaml b.yaml"), None);
        assert_eq!(one("s/a/b/"), None);
    }

    #[test]
    fn a_committed_template_and_its_assumption() {
        let index = Index::new(["values-template.yaml", "app/service.yaml"]);
        let r = Rendering {
            line: 3,
            by: "envsubst".into(),
            template: Word::lit(format!("{CALLER}/values-template.yaml")),
            to: Word::lit(format!("{CALLER}/values.yaml")),
            patterns: None,
            written: None,
        };
        let gone = Rendering {
            template: Word::lit(format!("{REPO}/gone.tpl")),
            ..r.clone()
        };
        let found = templates(&[("deploy.sh".into(), vec![r, gone])], &index);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "values-template.yaml");
        assert_eq!(found[0].to, "values.yaml");
        assert_eq!(found[0].origin, "deploy.sh:3");
        let a = found[0].assumption();
        assert_eq!(a.kind, AssumptionKind::ChangedAtRunTime);
        assert!(
            a.message.contains("`envsubst` at deploy.sh:3"),
            "{}",
            a.message
        );
        assert_eq!(within(&found, ".").count(), 1);
        assert_eq!(within(&found, "app").count(), 0);
    }
}
