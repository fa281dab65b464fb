//! A committed file a script copies, then edits in place before its `ytt` command reads the
//! copy (round thirteen's R13A-1: `cp config/cert-secret.yaml generated/`, `sed -i
//! "s~change-me-secret-crt1~$CRT~" generated/cert-secret.yaml`, `ytt -f
//! generated/cert-secret.yaml`). The command is linted with the committed file standing in
//! for the copy (see `missing.rs`), whose text ytt never reads: the command assumes it
//! (`changed-at-run-time`, about the committed file), as when the committed file itself is
//! edited in place (see `edits.rs`), and a value check of placeholder text in it is a note
//! (see `lint/job/rewritten_text.rs`).

use super::edits;
use super::index::Index;
use super::made::{self, MadeAt};
use super::resolve::Invocation;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// Adds to `inv` a `changed-at-run-time` assumption for each file standing in for a copy
/// that a step of the same file edits in place before the command (a copied directory's file
/// too: `cp -r config/ out/` then `sed -i … out/secret.yaml`). The copy may be made anywhere,
/// as the stand-in was chosen (see `made.rs`); made in the same file, it comes before the edit.
pub fn mark(inv: &mut Invocation, made: &[MadeAt], index: &Index) {
    if inv.stand_ins.is_empty() {
        return;
    }
    // A script a page runs has each of its steps on the page's line: their order is not
    // known there, and a copy and an edit on that line count (the script's own commands,
    // linted from the script, keep its order).
    let line = inv.origin.line;
    let scripted = inv.scripted;
    let before = |m: &MadeAt, line: u32| m.made.line < line || (scripted && m.made.line == line);
    let edits: Vec<&MadeAt> = made
        .iter()
        .filter(|m| m.file == inv.origin.file && before(m, line) && edits::in_place(m))
        .collect();
    if edits.is_empty() {
        return;
    }
    let mut found: Vec<Assumption> = Vec::new();
    for copy in made.iter().filter(|m| m.made.from.is_some()) {
        for (place, from) in made::places(copy, index) {
            let (Some(to), Some(from)) = (place.repo_path(), from) else {
                continue;
            };
            for edit in &edits {
                if copy.file == edit.file && !before(copy, edit.made.line) {
                    continue;
                }
                for edited in edits::places(edit) {
                    let Some(file) = source_of(&edited, &to, &from) else {
                        continue;
                    };
                    if !inv.stand_ins.contains(&file) && !inv.stand_ins.contains(&from) {
                        continue;
                    }
                    let a = Assumption::new(
                        AssumptionKind::ChangedAtRunTime,
                        format!(
                            "{file} is copied to {edited} by {} and changed at run time: `{}` \
                             edits the copy at {} before this command reads it; the committed \
                             content was linted",
                            copy.described(),
                            edit.made.by,
                            edit.origin()
                        ),
                    )
                    .about(Subject::Rewritten { file, shell: false });
                    if !found.contains(&a) && !inv.assumptions.contains(&a) {
                        found.push(a);
                    }
                }
            }
        }
    }
    inv.assumptions.extend(found);
}

/// The committed file whose copy `edited` is, when the copy `to` of `from` is it or holds it.
fn source_of(edited: &str, to: &str, from: &str) -> Option<String> {
    if edited == to {
        return Some(from.to_string());
    }
    let rest = edited.strip_prefix(to)?.strip_prefix('/')?;
    Some(paths::join(from, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_of_a_copy_names_the_committed_file() {
        assert_eq!(
            source_of("out/secret.yaml", "out/secret.yaml", "config/secret.yaml").as_deref(),
            Some("config/secret.yaml")
        );
        assert_eq!(
            source_of("out/certs/secret.yaml", "out/certs", "config/certs").as_deref(),
            Some("config/certs/secret.yaml")
        );
        assert_eq!(
            source_of("out/other.yaml", "out/secret.yaml", "c/s.yaml"),
            None
        );
        assert_eq!(source_of("outside/x.yaml", "out", "config"), None);
    }
}
