//! An input of a `ytt` command that is not in the repository, judged: made by another command
//! of the repository (a copy of an example, text a here-document or a README writes, a tool's
//! output), filled by `vendir sync`, outside the repository, the user's own values file (with
//! an example of it in the repository, or not), hidden by `.gitignore`, or missing: moved,
//! deleted or misspelt, which ytt fails on (`input-missing`); a committed `P.template` beside
//! it stands in for it ([`super::example_beside`]).

use super::index::Index;
use super::made::{self, Fit, Maker};
use super::resolve::{Repo, ValuesDoc};
use super::word::Word;
use crate::files::paths;
use crate::lint::discover::vendir;
use crate::report::{Assumption, AssumptionKind, Subject};

/// How a command gives the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    /// `-f`: templates, or data values documents.
    File,
    /// `--data-values-file`: plain YAML data values.
    ValuesFile,
    /// `--data-value-file key=path`: one value's text.
    ValueFile,
}

/// What to do with an input that is not in the repository.
#[derive(Clone, Debug, PartialEq)]
pub enum Absent {
    /// Another repository file stands in for it (the example the user copies).
    Instead(String, Option<Assumption>),
    /// Text stands in for it (a here-document, a README's block).
    Text(ValuesDoc, Option<Assumption>),
    /// The command is linted without it.
    Without(Assumption),
    /// Given at run time: the linter does not know it (the user's own values file).
    Unknown,
    /// The command cannot be linted; why.
    Skip(String),
    /// It does not exist and nothing makes it: ytt fails. A path of the repository that
    /// looks like the one meant, when there is one.
    Missing(Option<String>),
    /// It does not exist, and only a command whose output path is known only in part may
    /// make it (`mkdir -p "config/$name"`): missing, assuming that command does not (the
    /// assumption names it).
    Doubtful(Option<String>, Assumption),
}

/// What to do with the input `shown` (as the command writes it), at `target` (its normalized
/// path word), given as `given` with the command's file marks `marks`. `unattended`: the
/// command runs with no user at hand (a CI job), who could give a values file of their own.
pub fn judge(
    target: &Word,
    shown: &str,
    given: Given,
    marks: &[String],
    repo: &Repo,
    unattended: bool,
) -> Absent {
    let path = target.repo_path();
    let name = path.clone().unwrap_or_else(|| target.to_string());
    let data = given != Given::File || looks_like_values(&name) || plain_marked(shown, marks);
    // A CI job does not run a page's steps (`mkdir k8s` in a README, for a reader at a
    // terminal): only what scripts, Makefiles and CI files make is there when it runs.
    let unattended_made: Vec<made::MadeAt>;
    let made_by = if unattended {
        unattended_made = repo
            .made
            .iter()
            .filter(|m| !m.documented())
            .cloned()
            .collect();
        &unattended_made[..]
    } else {
        repo.made
    };
    if let Some((m, from)) = made::maker(made_by, target, repo.index) {
        let absent = from_made(m, from, &name, given, data);
        if m.certain || !matches!(absent, Absent::Skip(_)) {
            return absent;
        }
        // A maker whose output path is a guess does not make a template certainly: what the
        // command would be without it decides, and a missing input stays reported.
        return match unmade(target, shown, given, marks, repo, unattended) {
            Absent::Missing(hint) => Absent::Doubtful(
                hint,
                Assumption::new(
                    AssumptionKind::MissingInput,
                    format!(
                        "{name} is not made by {}, whose output path `{}` is known only at run time",
                        m.at.described(),
                        m.at.made.path
                    ),
                ),
            ),
            _ => absent,
        };
    }
    unmade(target, shown, given, marks, repo, unattended)
}

/// The end of the reason of a command skipped because `.gitignore` hides its input (the
/// path comes first): `ignored_skip.rs` reports such a command in a note.
pub const IGNORED_SKIP: &str = " is ignored by .gitignore: something makes it at run time";

/// [`judge`] for an input no command of the repository makes.
fn unmade(
    target: &Word,
    shown: &str,
    given: Given,
    marks: &[String],
    repo: &Repo,
    unattended: bool,
) -> Absent {
    let path = target.repo_path();
    let name = path.clone().unwrap_or_else(|| target.to_string());
    let data = given != Given::File || looks_like_values(&name) || plain_marked(shown, marks);
    if let Some(t) = path
        .as_deref()
        .and_then(|p| vendir::unsynced(repo.vendir, p))
    {
        return Absent::Skip(format!(
            "{name} is filled by `vendir sync` ({}:{}) and is not synced",
            t.file, t.line
        ));
    }
    if let Some(p) = placeholder(shown) {
        return Absent::Skip(format!(
            "{shown} names the reader's own file (`{p}` is a placeholder)"
        ));
    }
    let Some(path) = path else {
        return if data {
            Absent::Unknown
        } else if file_like(&name) {
            Absent::Without(Assumption::new(
                AssumptionKind::OutsideInput,
                format!("{name} is outside the repository; linted without it"),
            ))
        } else {
            Absent::Skip(format!("input {shown} is outside the repository"))
        };
    };
    if data {
        if let Some(example) = example_of(&path, repo.index) {
            let a = Assumption::new(
                AssumptionKind::ExampleValues,
                format!("{path} is the user's copy of {example}; linted with the example"),
            )
            .about(Subject::StandIn {
                example: example.clone(),
                copy: path.clone(),
            });
            return Absent::Instead(example, Some(a));
        }
    }
    // `P.template` (`.example`, `.sample`, `.tmpl`) beside it: the text the user's `P`
    // starts from, whatever `P`'s name says.
    if let Some(example) = super::example_beside::example(&path, repo.index) {
        let a = super::example_beside::assumption(&path, &example);
        return Absent::Instead(example, Some(a));
    }
    if let Some(near) = near_miss(&path, repo.index) {
        return Absent::Missing(Some(near));
    }
    let ignored = repo.ignored.is_some_and(|i| i.is_ignored(&path));
    if data && unattended && !ignored && existing_ancestor(&path, repo.index) != "." {
        // Nobody gives a CI job a values file of their own: one the repository does not
        // hold, in a directory it does, was moved or deleted (as any other input).
        return Absent::Missing(moved_to(&path, repo.index));
    }
    if data {
        return Absent::Unknown;
    }
    if ignored {
        return Absent::Skip(format!("{path}{IGNORED_SKIP}"));
    }
    if existing_ancestor(&path, repo.index) != "."
        || ((repo.nested || repo.settled) && names_a_file(&path))
    {
        // A script another runs from a known directory reads it from there: missing (a
        // YAML file it names; a directory path the script builds from its arguments,
        // `$dir/upstream`, is the linter's guess at them).
        return Absent::Missing(moved_to(&path, repo.index));
    }
    Absent::Skip(format!(
        "{path} is not in the repository, and no command of the repository makes it"
    ))
}

/// An input a command of the repository makes (copying the repository file `from`).
fn from_made(maker: Maker, from: Option<String>, name: &str, given: Given, data: bool) -> Absent {
    let (m, fit) = (maker.at, maker.fit);
    if m.made.rendered.is_some() {
        if let (Some(template), Fit::Exact) = (&from, fit) {
            // A template ytt reads as rendered: the committed template stands in for what
            // the rendering writes, which may differ from it wherever the rendering fills in.
            return Absent::Instead(template.clone(), Some(rendered_stand_in(m, template, name)));
        }
    }
    if let Some(from) = from.filter(|_| fit == Fit::Exact) {
        // A rename (`mv values.yaml values.yaml.original`) is the same content, whoever runs
        // it; a page's copy is the reader's own to edit.
        let example = (m.documented() && m.made.by != "mv") || names_example(&from);
        let a = example.then(|| {
            Assumption::new(
                AssumptionKind::ExampleValues,
                format!(
                    "{name} is the user's copy of {from} ({}); linted with {from}",
                    m.origin()
                ),
            )
            .about(Subject::StandIn {
                example: from.clone(),
                copy: name.to_string(),
            })
        });
        return Absent::Instead(from, a);
    }
    if let (Some(w), Fit::Exact) = (m.text(), fit) {
        if given != Given::File || is_values_text(&w.text) {
            let a = if m.documented() {
                Some(Assumption::new(
                    AssumptionKind::ExampleValues,
                    format!(
                        "{name} holds the values {} shows; linted with them",
                        m.origin()
                    ),
                ))
            } else if w.expanded {
                Some(Assumption::new(
                    AssumptionKind::RuntimeValues,
                    format!(
                        "{name} is written by {} with values known only at run time",
                        m.origin()
                    ),
                ))
            } else {
                None
            };
            let doc = ValuesDoc {
                origin: format!("{}:{}", m.file, w.line),
                text: w.text.clone(),
                expanded: w.expanded,
                stdin: false,
                after: 0,
            };
            return Absent::Text(doc, a);
        }
    }
    if given == Given::File && !looks_like_values(name) && data {
        // Plain YAML a tool makes (`helm template > chart.yaml`, marked `type=yaml-plain`).
        return Absent::Without(Assumption::new(
            AssumptionKind::MissingInput,
            format!(
                "{name} is made at run time by {}; linted without it",
                m.described()
            ),
        ));
    }
    if data {
        // Data values made at run time: given at run time, as far as the linter knows.
        return Absent::Unknown;
    }
    Absent::Skip(format!("{name} is made at run time by {}", m.described()))
}

/// What a command assumes that reads `name`, which `m` renders from the committed `template`.
fn rendered_stand_in(m: &made::MadeAt, template: &str, name: &str) -> Assumption {
    Assumption::new(
        AssumptionKind::ChangedAtRunTime,
        format!(
            "{name} is rendered from {template} by `{}` at {}, {}; the committed template, \
             placeholders and all, was linted in its place",
            m.made.by,
            m.origin(),
            super::rendered::how(&m.made.by)
        ),
    )
    .about(Subject::Rewritten {
        file: template.to_string(),
        shell: super::rendered::by_shell(&m.made.by),
    })
}

/// The part of a path that stands for the reader's own (`my-env`, `your-values.yml`,
/// `path/to/values.yml`, `<env>`, `{ca-cert-path}`, `change-me-values.yml`,
/// `REPLACE-ME.yaml`), if any.
pub(super) fn placeholder(path: &str) -> Option<String> {
    if path.contains("path/to/") {
        return Some("path/to".into());
    }
    path.split('/')
        .find(|seg| {
            let s = seg.to_ascii_lowercase();
            s.starts_with("my-")
                || s.starts_with("my_")
                || s.starts_with("my.")
                || s.starts_with("your")
                || s.starts_with('<')
                || curly(&s)
                || s.contains("xxx")
                || s.contains("changeme")
                || s.contains("change-me")
                || s.contains("change_me")
                || s.contains("replace-me")
                || s.contains("replace_me")
                || (s.contains("replaceme") && !s.contains("replacement"))
        })
        .map(str::to_string)
}

/// Whether a path segment holds a word in curly braces (`{ca-cert-path}`, `values-{env}.yml`),
/// the way a page writes "your value here" ("replace the curly-braced parameters"). A
/// variable (`${env}`), a shell brace expansion (`{dev,prod}`, `{1..3}`) and another tool's
/// template (`{{ .x }}`) are not.
fn curly(segment: &str) -> bool {
    let mut from = 0;
    while let Some(open) = segment[from..].find('{').map(|i| i + from) {
        from = open + 1;
        let before = segment[..open].chars().next_back();
        if matches!(before, Some('$' | '{')) {
            continue;
        }
        let Some(len) = segment[from..].find('}') else {
            return false;
        };
        let inner = &segment[from..from + len];
        let word = inner.starts_with(|c: char| c.is_ascii_alphabetic())
            && inner
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !inner.contains("..");
        let doubled = segment[from + len + 1..].starts_with('}');
        if word && !doubled {
            return true;
        }
    }
    false
}

/// Whether the inputs of a command said to be missing show that the command is meant to run
/// here: a typo of a file that exists, a path written from the script's own place
/// (`$DIR/../docs`, `../docs`), or one that leads into the repository's directories from
/// where it runs before it fails. A page (a README) counts only with a typo or with a file
/// moved within its own directory tree: a page copied from elsewhere names the paths of where
/// it came from (`../../../ingress/contour`).
pub fn evident(
    missing: &Word,
    written: &Word,
    cwd: &Word,
    hint: Option<&str>,
    page: Option<&str>,
    index: &Index,
) -> bool {
    let Some(target) = missing.repo_path() else {
        return false;
    };
    let typo = hint.is_some_and(|h| paths::parent(h) == paths::parent(&target));
    if let Some(dir) = page {
        // Moved within the page's own tree, named from there (not with `..` out of it, as a
        // page copied from a bundle names the bundle's other directories).
        let moved = hint.is_some_and(|h| h != dir) && paths::is_within(&target, dir);
        return typo || moved;
    }
    let text = written.normalized();
    let anchored = text.literal_prefix().starts_with(super::word::REPO)
        || text.literal_prefix().starts_with("..");
    typo || anchored || leads_in(missing, cwd, index)
}

/// Whether a missing path leads into the repository's directories from where the command
/// runs: it is below `cwd`, and its first segment there exists (`config/deps/x.yaml`, run
/// from the top of a repository that holds `config/`).
pub fn leads_in(missing: &Word, cwd: &Word, index: &Index) -> bool {
    let Some(target) = missing.repo_path() else {
        return false;
    };
    cwd.repo_path().is_some_and(|c| {
        let rest = if c == "." {
            Some(target.as_str())
        } else {
            target
                .strip_prefix(c.as_str())
                .and_then(|r| r.strip_prefix('/'))
        };
        rest.and_then(|r| r.split('/').next())
            .is_some_and(|first| index.exists(&paths::join(&c, first)))
    })
}

/// Whether text is data values a `-f` input gives (`#@data/values`).
pub fn is_values_text(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("#!") && *l != "---")
        .is_some_and(|l| l.starts_with("#@data/values") && !l.starts_with("#@data/values-schema"))
}

/// A `-f` path that is not in the repository but reads like data values made at run time.
pub fn looks_like_values(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    (name.ends_with(".yml") || name.ends_with(".yaml"))
        && (name.contains("value") || name.contains("vars"))
}

/// Whether a `--file-mark` says the input is plain data (`chart.yaml:type=yaml-plain`).
fn plain_marked(shown: &str, marks: &[String]) -> bool {
    marks.iter().any(|m| {
        let plain = m.contains("type=yaml-plain") || m.contains("type=data");
        plain && marks_input(m, shown)
    })
}

/// Whether a `--file-mark` (`path:mark=value`) names the input `shown` (as the command writes
/// it): its path, or its file name.
pub fn marks_input(mark: &str, shown: &str) -> bool {
    let Some((file, _)) = mark.split_once(':') else {
        return false;
    };
    let base = shown.rsplit('/').next().unwrap_or(shown);
    file == shown || file == base || shown.ends_with(&format!("/{file}"))
}

/// Whether a path names a file (its last segment has an extension), not a directory.
fn file_like(path: &str) -> bool {
    !path.ends_with('/')
        && path
            .rsplit('/')
            .next()
            .is_some_and(|n| n.rfind('.').is_some_and(|i| i > 0 && i + 1 < n.len()))
}

/// Whether a file's name says it is an example to copy (`values-example.yml`).
fn names_example(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    [
        "example", "sample", "template", "tmpl", "tpl", "default", "dist",
    ]
    .iter()
    .any(|w| name.contains(w))
}

/// The repository's example of a values file the user writes (`values.yml.example`,
/// `values-example.yml`, `example-values.yml`, `values.sample.yaml`...), next to it.
fn example_of(path: &str, index: &Index) -> Option<String> {
    let dir = paths::parent(path);
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, ext) = name.rsplit_once('.')?;
    let exts: Vec<&str> = match ext {
        "yml" | "yaml" => vec![ext, if ext == "yml" { "yaml" } else { "yml" }],
        _ => vec![ext],
    };
    let words = [
        "example", "sample", "template", "tmpl", "tpl", "dist", "default",
    ];
    let mut names = Vec::new();
    for w in words {
        names.push(format!("{name}.{w}"));
        for e in &exts {
            names.push(format!("{stem}.{w}.{e}"));
            names.push(format!("{stem}-{w}.{e}"));
            names.push(format!("{stem}_{w}.{e}"));
            names.push(format!("{w}-{stem}.{e}"));
            names.push(format!("{w}.{stem}.{e}"));
            names.push(format!("{w}_{stem}.{e}"));
        }
    }
    names
        .iter()
        .map(|n| paths::join(dir, n))
        .find(|p| index.is_file(p))
}

/// The one file or directory next to `path` whose name differs from it by a typo (one or two
/// letters, in a name long enough for that to be a typo), or that is the name with a word put
/// before it (`supply-chain.yaml` renamed `cluster-supply-chain.yaml`).
fn near_miss(path: &str, index: &Index) -> Option<String> {
    let dir = paths::parent(path);
    if !index.is_dir(dir) {
        return None;
    }
    let name = path.trim_end_matches('/').rsplit('/').next()?;
    if name.chars().count() < 8 {
        return None;
    }
    let prefixed = |other: &str| {
        other
            .strip_suffix(name)
            .and_then(|head| head.chars().last())
            .is_some_and(|c| matches!(c, '-' | '_' | '.'))
    };
    let mut found = index
        .entries_in(dir)
        .filter(|p| {
            let other = p.rsplit('/').next().unwrap_or(p);
            other != name && (distance(name, other) <= 2 || prefixed(other))
        })
        .map(str::to_string);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Where a path that moved is now: the one path under the deepest directory of it that
/// exists (or anywhere, for a tail of two segments or more) that ends with the rest of it
/// (`config/_ytt_lib/cc/config` at `config/_ytt_lib/github.com/org/cc/config`).
fn moved_to(path: &str, index: &Index) -> Option<String> {
    let path = path.trim_end_matches('/');
    let base = existing_ancestor(path, index);
    let rest = if base == "." {
        path
    } else {
        path.strip_prefix(base)?.trim_start_matches('/')
    };
    let tail = format!("/{rest}");
    let under: Vec<&str> = index
        .entries_under(base)
        .filter(|p| p.ends_with(&tail))
        .collect();
    if let [one] = under.as_slice() {
        return Some(one.to_string());
    }
    if rest.contains('/') && under.is_empty() {
        return index.by_suffix(rest);
    }
    None
}

/// The deepest directory above `path` that the repository holds (`.` at least).
fn existing_ancestor<'p>(path: &'p str, index: &Index) -> &'p str {
    let mut p = paths::parent(path.trim_end_matches('/'));
    while p != "." && !index.is_dir(p) {
        p = paths::parent(p);
    }
    p
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Whether `path` names a YAML or Starlark file by its extension (`templates/route.yaml`).
fn names_a_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    !name.starts_with('-')
        && [".yml", ".yaml", ".star"]
            .iter()
            .any(|ext| name.len() > ext.len() && name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_words_name_the_reader_s_own_file() {
        for p in [
            "my-values.yml",
            "config/your-env/values.yml",
            "path/to/values.yml",
            "changeme.yml",
            "change-me-values.yml",
            "values/change_me.yaml",
            "replace-me.yaml",
            "REPLACE-ME/values.yaml",
            "values-REPLACE_ME.yml",
            "tools/{ca-cert-path}",
            "{values_file}.yaml",
        ] {
            assert!(placeholder(p).is_some(), "{p}");
        }
        for p in [
            "values.yml",
            "config/replacement.yaml",
            "change-log.yaml",
            "config/{dev,prod}",
            "values-{1..3}.yml",
            "{{.env}}",
            "${env}/values.yml",
        ] {
            assert_eq!(placeholder(p), None, "{p}");
        }
    }

    #[test]
    fn a_nested_script_s_missing_input_is_a_file_it_names() {
        assert!(names_a_file("templates/route.yaml"));
        assert!(names_a_file("./lib/helpers.star"));
        assert!(!names_a_file("k8s/upstream"));
        assert!(!names_a_file("-f"));
        assert!(!names_a_file("--ignore-unknown-comments"));
        assert!(!names_a_file(".yaml"));
    }

    fn index_of(paths: &[&str]) -> Index {
        Index::new(paths.iter().copied())
    }

    fn index() -> Index {
        Index::new([
            "user-provided/values-with-external-db.yml",
            "config/_ytt_lib/github.com/cloudfoundry/cc/config/a.yml",
            "config/values.yml",
            "values.yaml.example",
            "ci/pipeline/p.yml",
        ])
    }

    #[test]
    fn a_typo_and_a_move_name_what_was_meant() {
        let i = index();
        assert_eq!(
            near_miss("user-provided/values-with-exterbal-db.yml", &i).as_deref(),
            Some("user-provided/values-with-external-db.yml")
        );
        assert_eq!(
            near_miss("config/valuez.yml", &i).as_deref(),
            Some("config/values.yml")
        );
        assert_eq!(near_miss("config/b.yml", &i), None, "too short");
        assert_eq!(
            near_miss(
                "chain.yaml",
                &index_of(&["cluster-chain.yaml", "values.yaml"])
            )
            .as_deref(),
            Some("cluster-chain.yaml"),
            "renamed with a word before it"
        );
        assert_eq!(
            near_miss("chain.yaml", &index_of(&["a-chain.yaml", "b-chain.yaml"])),
            None,
            "two candidates: not one meant"
        );
        assert_eq!(
            near_miss("chain.yaml", &index_of(&["blockchain.yaml"])),
            None,
            "not a word before it"
        );
        assert_eq!(
            moved_to("config/_ytt_lib/cc/config", &i).as_deref(),
            Some("config/_ytt_lib/github.com/cloudfoundry/cc/config")
        );
        assert_eq!(existing_ancestor("ci/docs/", &i), "ci");
        assert_eq!(existing_ancestor("build/out/x.yml", &i), ".");
    }

    #[test]
    fn examples_of_the_user_s_values() {
        let i = index();
        assert_eq!(
            example_of("values.yaml", &i).as_deref(),
            Some("values.yaml.example")
        );
        assert_eq!(example_of("config/other.yml", &i), None);
        assert!(names_example("gen/values-template.yaml"));
        assert!(!names_example("config/values.yml"));
    }

    #[test]
    fn what_an_input_holds() {
        assert!(is_values_text("#! comment\n#@data/values\n---\na: 1\n"));
        assert!(!is_values_text("#@data/values-schema\n---\na: 1\n"));
        assert!(!is_values_text("kind: ConfigMap\n"));
        assert!(plain_marked(
            "harbor/chart.yaml",
            &["chart.yaml:type=yaml-plain".to_string()]
        ));
        assert!(!plain_marked(
            "a.yaml",
            &["b.yaml:type=yaml-plain".to_string()]
        ));
        assert!(file_like("$HOME/local-registry.crt"));
        assert!(!file_like("/tmp/bundle/config"));
        assert!(!file_like("/tmp/x.d/"));
        assert_eq!(distance("exterbal", "external"), 1);
    }
}
