//! One ytt command's output piped into another (`ytt -f base | ytt -f - -f env/prod.yaml |
//! kubectl apply -f -`): the second reads the first's rendered documents on `-f -`. Linted as
//! any other program's output (`piped_stdin.rs`), the second command lacked them, so an
//! overlay of it that matches nothing there was a note; ytt stops on it.
//!
//! Where the second command's own files are overlays and nothing else, it is the first
//! command with those files after its own: ytt evaluates the first command's templates and
//! overlays, and then the second's overlays over the documents it printed, which is what one
//! command giving both does in the same order (overlays apply in the order of the files, after
//! every template). So the second command is linted as that one command. The second's files
//! may give it nothing else: no data values (no `@ytt:data` load, no values flags), no
//! library (`@ytt:library`), no loads of other files (which the first's files would satisfy
//! in one command and not in two), no template documents (which the first's overlays would
//! reach in one command), no flags of its own. A pipeline written over several lines, a
//! chain of three, or a first command that prints something else (an inspection, files of
//! its own) is left as it was.

use super::resolve::Invocation;
use crate::files::paths::is_within;
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::Subject;

/// The most files of the second command read.
const MAX_FILES: usize = 64;

/// Whether the text of a file is overlays and nothing else the second command could give the
/// first's: each document has an `@overlay/match` (or is empty), its loads are only of
/// `@ytt:` modules that give no data values or libraries, and it is no data values or schema
/// document.
fn only_overlays(text: &str) -> bool {
    let mut pending_match = false;
    let mut in_doc = false;
    let mut doc_matched = false;
    for line in text.lines() {
        let t = line.trim_start();
        if line == "---" || line.starts_with("--- ") {
            in_doc = true;
            doc_matched = pending_match;
            pending_match = false;
            continue;
        }
        if let Some(ann) = t.strip_prefix("#@") {
            let ann = ann.trim();
            if ann.starts_with("data/") || ann.starts_with("schema/") || ann.starts_with("library/")
            {
                return false;
            }
            if ann.starts_with("load(") {
                let module = ann
                    .trim_start_matches("load(")
                    .trim_start()
                    .trim_start_matches(['"', '\''])
                    .split(['"', '\''])
                    .next()
                    .unwrap_or("");
                if !module.starts_with("@ytt:") || matches!(module, "@ytt:data" | "@ytt:library") {
                    return false;
                }
            }
            if line.starts_with("#@overlay/match ") || line.trim_end() == "#@overlay/match" {
                pending_match = true;
            }
            continue;
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        // Content: a document's, which must be an overlay; or content before any `---`.
        if !in_doc || !doc_matched {
            return false;
        }
        pending_match = false;
    }
    true
}

/// The second commands of `ytt … | ytt -f - …` pipelines in `invocations`, each made the first
/// command with its own files after the first's where that is what ytt does (see the module's
/// words); `files` lists the repository, `read` reads one of its files.
pub fn merge(
    invocations: &mut [Invocation],
    files: &[RepoFile],
    read: &dyn Fn(&str) -> Option<String>,
) {
    let merged: Vec<(usize, Invocation)> = invocations
        .iter()
        .enumerate()
        .filter_map(|(i, inv)| Some((i, merged(inv, invocations, files, read)?)))
        .collect();
    for (i, inv) in merged {
        invocations[i] = inv;
    }
}

/// `second` as the one command it is with the ytt command it reads, if it is.
fn merged(
    second: &Invocation,
    all: &[Invocation],
    files: &[RepoFile],
    read: &dyn Fn(&str) -> Option<String>,
) -> Option<Invocation> {
    second.piped_ytt.as_ref()?;
    // What it assumes is only that it lacks the pipe (`piped_stdin.rs`).
    let own = second.unknown.len() == 1
        && second.assumptions.len() == 1
        && matches!(second.assumptions[0].subject, Some(Subject::Piped { .. }))
        && second.flags.is_empty()
        && second.file_marks.is_empty()
        && second.values.is_empty()
        && second.values_files.is_empty()
        && second.value_files.is_empty()
        && second.values_docs.is_empty()
        && second.stand_ins.is_empty()
        && !second.inputs.is_empty()
        && second.inputs.iter().all(|i| !i.contains('='));
    if !own {
        return None;
    }
    // The first command: the one other ytt command of that line, which reads no pipe itself.
    let firsts: Vec<&Invocation> = all
        .iter()
        .filter(|o| o.origin == second.origin && o.piped_ytt.is_none())
        .collect();
    let [first] = firsts.as_slice() else {
        return None;
    };
    if first.inspect || first.split_output || first.inputs.is_empty() {
        return None;
    }
    // The second's files: each overlays alone.
    let mut read_files = 0;
    for input in &second.inputs {
        let listed: Vec<&RepoFile> = files
            .iter()
            .filter(|f| f.path == *input || is_within(&f.path, input))
            .collect();
        if listed.is_empty() {
            return None;
        }
        for f in listed {
            match f.kind {
                Kind::YttYaml | Kind::PlainYaml => {}
                Kind::Starlark | Kind::TextTemplate => return None,
                _ => continue,
            }
            read_files += 1;
            if read_files > MAX_FILES || !only_overlays(&read(&f.path)?) {
                return None;
            }
        }
    }
    let mut inv = (*first).clone();
    inv.origin = second.origin.clone();
    inv.scripted = first.scripted || second.scripted;
    inv.inputs.extend(second.inputs.iter().cloned());
    inv.output_deployed = second.output_deployed.clone();
    inv.output_compared = second.output_compared.clone();
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_overlays_alone() {
        let ov = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nspec:\n  #@ x = 1\n  replicas: 5\n";
        assert!(only_overlays(ov));
        assert!(!only_overlays("---\nkind: ConfigMap\n"));
        assert!(!only_overlays("#@data/values\n---\na: 1\n"));
        assert!(!only_overlays(
            "#@ load(\"@ytt:data\", \"data\")\n#@overlay/match by=overlay.all\n---\na: #@ data.values.a\n"
        ));
        assert!(!only_overlays(
            "#@ load(\"lib.star\", \"f\")\n#@overlay/match by=overlay.all\n---\na: 1\n"
        ));
        assert!(!only_overlays("kind: ConfigMap\n"));
    }
}
