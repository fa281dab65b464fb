//! A committed template that a script's shell expands as a here-document before ytt reads what
//! it writes (round twenty-seven's R27-2: `( echo "cat <<EOF >OUT"; cat T; echo "EOF" ) > f;
//! . f`, then `ytt -f OUT`). The shell fills in the template's variables and the output of its
//! commands (`$(…)`, `` `…` ``). A line that is only a command substitution gets text the
//! linter cannot know: a certificate that `awk` indents into a block scalar, say. As committed,
//! at column 0, it breaks the YAML that ytt only ever reads expanded. The job lints such a line
//! empty, and every other line as committed, so each keeps its number. The assumption that
//! names the rendering says so (`discover/invocations/rendered.rs`, `how`). A variable stays as
//! written: `$NAME` in a YAML value is text either way.

use crate::lint::job::Job;
use crate::report::{AssumptionKind, Subject};

/// The repository paths of the job's inputs that a script's shell expands before ytt reads
/// them (the `changed-at-run-time` assumptions of its provenance that say so).
pub fn files(job: &Job) -> Vec<String> {
    let Some(p) = job.provenance.as_ref() else {
        return Vec::new();
    };
    let mut out: Vec<String> = p
        .assumptions
        .iter()
        .filter(|a| a.kind == AssumptionKind::ChangedAtRunTime)
        .filter_map(|a| match &a.subject {
            Some(Subject::Rewritten { file, shell: true }) => Some(file.clone()),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `text` with each line that is only a command substitution left empty; `None` when it has
/// no such line.
pub fn blank_substitutions(text: &str) -> Option<String> {
    if !text.contains("$(") && !text.contains('`') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if only_substitution(body) {
            out.push_str(&line[body.len()..]);
            changed = true;
        } else {
            out.push_str(line);
        }
    }
    changed.then_some(out)
}

/// Whether `line` is one command substitution, blanks around it: `$(…)` whose parentheses
/// balance to its end, or `` `…` `` with no other backquote. A ytt line (`#@`, `#!`) or a
/// comment is never one.
fn only_substitution(line: &str) -> bool {
    let t = line.trim();
    if let Some(inner) = t.strip_prefix('`') {
        return inner.len() > 1 && inner.ends_with('`') && inner.matches('`').count() == 1;
    }
    let Some(inner) = t.strip_prefix("$(") else {
        return false;
    };
    // The `(` opened above closes at the last character, and not before.
    let mut depth = 1usize;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == inner.len() && i > 0;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_a_command_output_is_left_empty_and_the_lines_keep_their_numbers() {
        let t = "  ca_cert_data: |\n$(awk '{printf \"    %s\\n\", $0}' < $CA_PATH)\n\nnext: 1\n";
        assert_eq!(
            blank_substitutions(t).as_deref(),
            Some("  ca_cert_data: |\n\n\nnext: 1\n")
        );
        assert_eq!(
            blank_substitutions("a: 1\r\n  `cat extra.yaml`\r\nb: 2").as_deref(),
            Some("a: 1\r\n\r\nb: 2")
        );
    }

    #[test]
    fn a_substitution_inside_other_text_stays() {
        for t in [
            "key: $(cat v)\n",
            "$(a) $(b)\n",
            "$(a) x\n",
            "x: `date`\n",
            "#@ x = \"$(y)\"\n",
            "$(unclosed\n",
            "$()\n",
            "``\n",
            "plain: $NAME\n",
        ] {
            assert_eq!(blank_substitutions(t), None, "{t}");
        }
    }
}
