//! The directory a script runs from, shown by its own commands (round thirteen's LR13A-3). A
//! script runs from wherever it is started, so an input one of its commands names that is
//! not in the repository is usually not reported: from another directory it might exist.
//! When the script's other commands read every input from the script's own directory, and
//! from no other directory it may start in, the script is run from there: a command whose
//! input is missing from there fails (`ytt -f db-values.yaml` beside
//! `ytt -f cluster-template.yaml --data-values-file values.yaml`, where only the second
//! command's files are). What a command of the repository makes is still made (see
//! `missing.rs`), and a placeholder is still the reader's own file.

use super::resolve::{Outcome, Placements};
use super::snippet::Snippet;
use super::word::{Word, REPO};

/// The script's own directory (as a caller's directory, `REPO/dir`), when its commands show
/// it runs from there: at least one command reads every input from there, every command that
/// reads every input from somewhere does from there, and, for a script below the top, one of
/// them reads them from there alone (not from the repository's top too). `None` for what is
/// not a shell script (a page's reader stands where the page says, see `prose_dir.rs`).
pub fn own_dir(placed: &Placements, snippet: &Snippet) -> Option<Word> {
    if !super::scripts::is_script(&snippet.file, &snippet.text) {
        return None;
    }
    let dir = crate::files::paths::parent(&snippet.file);
    let top = Word::lit(REPO);
    let own = if dir == "." {
        top.clone()
    } else {
        Word::lit(format!("{REPO}/{dir}"))
    };
    let complete = &placed.complete;
    if complete.is_empty() || !complete.iter().all(|c| c.contains(&own)) {
        return None;
    }
    let alone = own == top || complete.iter().any(|c| !c.contains(&top));
    alone.then_some(own)
}

/// Whether the outcomes of a command resolved from its script's own directory hold an input
/// missing from there.
pub fn missing_here(out: &[Outcome]) -> bool {
    out.iter()
        .any(|o| matches!(o, Outcome::Missing(m) if m.evident))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(complete: Vec<Vec<Word>>) -> Placements {
        Placements {
            complete,
            dot: false,
        }
    }

    fn script(file: &str) -> Snippet {
        Snippet::new(
            file,
            0,
            "ytt -f t.yaml\n".into(),
            Word::lit(super::super::snippet::CALLER),
        )
    }

    #[test]
    fn a_script_s_own_directory_is_known_when_its_commands_read_from_there_alone() {
        let own = Word::lit(format!("{REPO}/deploy/cluster"));
        let top = Word::lit(REPO);
        let s = script("deploy/cluster/prepare.sh");
        assert_eq!(
            own_dir(&placed(vec![vec![own.clone()]]), &s),
            Some(own.clone())
        );
        // From the top too: nothing shows which.
        assert_eq!(
            own_dir(&placed(vec![vec![top.clone(), own.clone()]]), &s),
            None
        );
        // Another command reads its inputs from the top only: not its own directory.
        assert_eq!(
            own_dir(&placed(vec![vec![own.clone()], vec![top.clone()]]), &s),
            None
        );
        // No command reads every input: nothing is shown.
        assert_eq!(own_dir(&placed(Vec::new()), &s), None);
        // A script at the top runs from the top.
        let s = script("prepare.sh");
        assert_eq!(own_dir(&placed(vec![vec![top.clone()]]), &s), Some(top));
        // A page is not a script.
        let mut page = script("deploy/cluster/README.md");
        page.text = "```\nytt -f t.yaml\n```\n".into();
        assert_eq!(own_dir(&placed(vec![vec![own]]), &page), None);
    }
}
