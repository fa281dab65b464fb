//! Files a step adds to an input directory at run time: the same script, CI task or Makefile
//! writes a file inside a directory its `ytt` command renders (`cat > k8s/values.yml <<EOF`
//! before `ytt -f k8s`; a Makefile target's `./gen.sh > vals/values.yml` beside the target
//! that runs `ytt -f config -f vals`). The committed directory lacks that file, so the
//! linter's evaluation is not the command's: the findings that rest on its inputs assume it
//! (a `changed-at-run-time` assumption that names the writer, so a warning; for a downloaded
//! file, one more file the command gives, a `missing-input` one, which an overlay's matches
//! rest on too), the others stay as they are. A here-document of data values is read with
//! its text, as one more values document after the directory's. A program's printed output (`./gen.sh >
//! vals/values.yml`) is text the linter does not have: its values are given at run time, so
//! what a data value could change waits for them (`needs-input`), as when the command names
//! such a file itself. [`super::edits`] does the same for a committed input a step rewrites.
//!
//! Which files count: data values (by name, `values.yml`, or by a here-document's
//! `#@data/values`) and YAML files `curl` or `wget` downloads there; another tool's output
//! written beside the templates does not. Which
//! writes count: a step of a script or CI job on a line before the command's (in a
//! Concourse task, a step of the same task, whose container the command shares); in a
//! Makefile or Taskfile, a step of any other line, since its targets run in the order the
//! user (or a prerequisite) picks.

use super::concourse_inputs::Checkout;
use super::edits;
use super::index::Index;
use super::made::MadeAt;
use super::missing;
use super::outputs::Written;
use super::resolve::{Invocation, ValuesDoc};
use super::script_set::ScriptSet;
use super::snippet::{Snippet, CALLER};
use super::{make, shell, word};
use crate::files::paths;
use crate::lint::discover::provenance::source_of;
use crate::report::{Assumption, AssumptionKind, Source};

/// What the recipes of the Makefiles among `texts` that run ytt write, each recipe line
/// followed as a shell of its own (the recipes that run no ytt are not among the snippets
/// discovery follows: `gen: ./gen.sh > vals/values.yml`).
pub fn recipe_writes<K>(texts: &[(String, K, String)], set: &ScriptSet) -> Vec<MadeAt> {
    let mut out = Vec::new();
    for (path, _, text) in texts {
        if !make::candidate(path) || !set.mentioned_in(text) {
            continue;
        }
        for snippet in make::snippets(path, text, &|_| true) {
            let ctx = shell::Context {
                script: word::Word::lit(format!("{}/{}", word::REPO, snippet.file)),
                line_offset: snippet.line_offset,
            };
            let Ok(f) = shell::follow(&snippet.text, &ctx, snippet.env(), set, None) else {
                continue;
            };
            out.extend(f.made.into_iter().map(|m| MadeAt {
                file: path.clone(),
                made: m,
            }));
        }
    }
    out
}

/// Adds to `inv` a `changed-at-run-time` assumption for each file a step of `snippet`'s file
/// (`made`, and `recipes` for a Makefile's) writes inside one of the command's input
/// directories that the repository does not hold.
pub fn mark(
    inv: &mut Invocation,
    (made, recipes): (&[MadeAt], &[MadeAt]),
    snippet: &Snippet,
    index: &Index,
) {
    let dirs: Vec<&str> = inv
        .inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p))
        .filter(|p| index.is_dir(p))
        .collect();
    if dirs.is_empty() {
        return;
    }
    let any_order = matches!(
        source_of(&inv.origin.file),
        Source::Makefile | Source::Taskfile
    );
    let mut added: Vec<(String, String, &MadeAt)> = Vec::new();
    for m in made.iter().chain(recipes) {
        if !writes_before(m, inv, snippet, any_order) {
            continue;
        }
        for path in places(m, &snippet.checkouts) {
            if index.is_file(&path) || index.is_dir(&path) || !values_like(&path, m) {
                continue;
            }
            let Some(dir) = dirs.iter().find(|d| paths::is_within(&path, d)) else {
                continue;
            };
            if !added.iter().any(|(p, _, _)| *p == path) {
                added.push((path, dir.to_string(), m));
            }
        }
    }
    for (path, dir, m) in added {
        let when = if any_order && m.made.line > inv.origin.line {
            "in another target, which may run first"
        } else {
            "before this command reads the directory"
        };
        let heredoc = m.text().filter(|w| missing::is_values_text(&w.text));
        if let Some(w) = heredoc {
            // A here-document's text is known: the command reads it as one more data values
            // document, its expansions given at run time.
            let doc = written_doc(m, w);
            if !inv.values_docs.contains(&doc) {
                inv.values_docs.push(doc);
            }
        }
        // A downloaded file is one more file the command gives, unknown to the linter: what
        // rests on the files given (an overlay's matches) assumes it too.
        let kind = if downloaded_yaml(&path, m) {
            AssumptionKind::MissingInput
        } else if heredoc.is_some() && m.documented() {
            AssumptionKind::ExampleValues
        } else if heredoc.is_some() && !any_order {
            // The step before the command writes this text: what its `$VAR`s expand to is
            // given at run time, the rest is the command's input as certainly as a committed
            // file (a key the text lacks fails in ytt too).
            if !heredoc.is_some_and(|w| w.expanded) {
                continue;
            }
            AssumptionKind::RuntimeValues
        } else if unknown_text(m) {
            // A program's output (`./gen.sh > vals/values.yml`): its values are given at run
            // time, as far as the linter knows, as for `--data-values-file <(./gen.sh)` or a
            // values file a program writes where the command names it (`missing::judge`). What
            // a data value could change waits for that input (`needs-input`).
            let given = format!("-f {dir} ({path} written at run time)");
            if !inv.unknown.contains(&given) {
                inv.unknown.push(given);
            }
            AssumptionKind::RuntimeValues
        } else {
            AssumptionKind::ChangedAtRunTime
        };
        let a = Assumption::new(kind, message(&path, &dir, m, when));
        if !inv.assumptions.contains(&a) {
            inv.assumptions.push(a);
        }
    }
}

/// The data values a here-document `w` of `m` writes, as a document the command reads after
/// its files (`super::image_entry` gives the same for a file written in an image).
pub(super) fn written_doc(m: &MadeAt, w: &Written) -> ValuesDoc {
    ValuesDoc {
        origin: format!("{}:{}", m.file, w.line),
        text: w.text.clone(),
        expanded: w.expanded,
        stdin: false,
        after: 0,
    }
}

/// Whether `m` is a write that happens before the command `inv` reads its inputs.
fn writes_before(m: &MadeAt, inv: &Invocation, snippet: &Snippet, any_order: bool) -> bool {
    if m.file != inv.origin.file || m.made.line == inv.origin.line {
        return false;
    }
    if matches!(m.made.by.as_str(), "mkdir" | "touch") || m.made.by.ends_with(" -i") {
        return false;
    }
    if any_order {
        return true;
    }
    if m.made.line > inv.origin.line {
        return false;
    }
    // A Concourse task's container is its own: another task's writes are not seen here.
    snippet.checkouts.is_empty() || within(m.made.line, snippet)
}

/// Whether the written file counts: data values, by its name (`values.yml`,
/// `app-vars.yaml`) or by the here-document's text (`#@data/values`), or a YAML file
/// downloaded into the directory (`wget URL/install.yaml` before `ytt -f .`: a release
/// manifest the directory's overlays match, round forty-one's R41-1). Another tool's output
/// written beside the templates (`helm template … > templates/chart-output/x.yaml`) is left
/// alone: the command's data values are what the committed files give.
fn values_like(path: &str, m: &MadeAt) -> bool {
    missing::looks_like_values(path)
        || m.text().is_some_and(|w| missing::is_values_text(&w.text))
        || downloaded_yaml(path, m)
}

/// Whether the text `m` writes is unknown to the linter: neither a here-document's nor a
/// copy of a file (`cp`, `mv`), but what a program prints (`./gen.sh > vals/values.yml`).
fn unknown_text(m: &MadeAt) -> bool {
    m.made.text.is_none() && m.made.from.is_none() && m.made.stdout.is_some()
}

/// Whether `curl` or `wget` downloads the YAML file `path`.
fn downloaded_yaml(path: &str, m: &MadeAt) -> bool {
    matches!(m.made.by.as_str(), "curl" | "wget")
        && (path.ends_with(".yaml") || path.ends_with(".yml"))
}

/// Whether file line `line` is one of the snippet's.
fn within(line: u32, snippet: &Snippet) -> bool {
    let first = snippet.line_offset + 1;
    let count = u32::try_from(snippet.text.lines().count()).unwrap_or(u32::MAX);
    line >= first && line < first.saturating_add(count)
}

/// The repository paths a made path stands for: those [`edits::places`] gives, and for a
/// path under a Concourse input that holds the repository (`infra-repo/k8s/values.yml` in
/// the build directory), the repository path below it.
fn places(m: &MadeAt, checkouts: &[Checkout]) -> Vec<String> {
    let mut out = edits::places(m);
    if let Some(rest) = m.made.path.strip_prefix(&format!("{CALLER}/")) {
        for c in checkouts {
            let mapped = rest
                .strip_prefix(&format!("{}/", c.dir))
                .and_then(|r| r.normalized().literal());
            if let Some(p) = mapped.filter(|p| !p.starts_with("..") && !p.starts_with('/')) {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// What the assumption says: which step adds the file, and that the directory was linted
/// without it.
fn message(path: &str, dir: &str, m: &MadeAt, when: &str) -> String {
    let how = match &m.made.text {
        Some(_) if m.made.by == super::readme::YAML_BLOCK => "a page gives its text".to_string(),
        Some(_) => format!("`{}` writes it from a here-document", m.made.by),
        None if downloaded_yaml(path, m) => format!("`{}` downloads it", m.made.by),
        None => format!("`{}` writes it", m.made.by),
    };
    let form = |w: &Written| written_doc(m, w).entries().is_none();
    let linted = match m.text() {
        Some(w) if missing::is_values_text(&w.text) && form(w) => {
            "its text is no map of data values (a form for the reader to fill in), so the values \
             it gives are known only at run time"
        }
        Some(w) if missing::is_values_text(&w.text) && w.expanded => {
            "linted with its text, the values it expands given at run time"
        }
        Some(w) if missing::is_values_text(&w.text) => "linted with its text",
        _ if unknown_text(m) && !downloaded_yaml(path, m) => {
            "its values are known only at run time"
        }
        _ => "the committed directory was linted without it",
    };
    format!(
        "{path} is added to the input directory {dir} at run time: {how} at {} {when}; {linted}",
        m.origin()
    )
}
