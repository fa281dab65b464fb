//! ytt documents a shell script writes inside a here-document (round fifty-two's N52-2). A
//! script often writes a Kubernetes object with `cat <<EOF > x.yaml` or `kubectl apply -f - <<EOF`
//! (a `package_overlays` Secret whose `stringData.patch.yaml: |` is a ytt overlay
//! kapp-controller applies to a package): the body's lines are the object's lines, at the
//! script's own line numbers, so the literal blocks [`super::embedded::find`] takes in YAML
//! files are taken in them too, and checked as those are. Only blocks inside a here-document
//! body count: the rest of the script is shell.

use super::embedded::{find, Embedded};

/// Scripts are read for here-documents when their name ends so.
const NAMES: [&str; 2] = [".sh", ".bash"];

/// Whether a file of this repository path is a script whose here-documents are read.
pub fn named_for(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    NAMES.iter().any(|n| lower.ends_with(n))
}

/// The ytt documents `text`, a shell script, holds as literal blocks inside here-documents.
pub fn find_in_script(text: &str) -> Vec<Embedded> {
    if !text.contains("<<") || !text.contains("#@") {
        return Vec::new();
    }
    let bodies = bodies(text);
    if bodies.is_empty() {
        return Vec::new();
    }
    find(text)
        .into_iter()
        .filter(|e| {
            let last = e.line as usize + e.text.lines().count().saturating_sub(1);
            bodies
                .iter()
                .any(|(first, end)| *first <= e.line as usize && last <= *end)
        })
        .collect()
}

/// The here-document bodies of `text`: their first and last lines (1-based, inclusive).
fn bodies(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((word, tabs)) = opener(lines[i]) else {
            i += 1;
            continue;
        };
        let closes = |l: &str| {
            let l = if tabs { l.trim_start_matches('\t') } else { l };
            l == word
        };
        match (i + 1..lines.len()).find(|&j| closes(lines[j])) {
            Some(end) => {
                if end > i + 1 {
                    out.push((i + 2, end));
                }
                i = end + 1;
            }
            None => break,
        }
    }
    out
}

/// The delimiter of the here-document a line opens (`<<EOF`, `<<'EOF'`, `<< "EOF"`, `<<-EOF`),
/// and whether its body's leading tabs are stripped (`<<-`); not a here-string (`<<<`).
fn opener(line: &str) -> Option<(String, bool)> {
    let at = line.find("<<")?;
    let rest = &line[at + 2..];
    if rest.starts_with('<') || line.trim_start().starts_with('#') {
        return None;
    }
    let (rest, tabs) = match rest.strip_prefix('-') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let rest = rest.trim_start();
    let rest = rest.trim_start_matches(['\'', '"', '\\']);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some((word, tabs))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "#!/bin/bash\nset -e\ncat <<EOT > overlay-secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: grype-overlay\nstringData:\n  patch.yaml: |\n    #@ load(\"@ytt:overlay\", \"overlay\")\n    #@overlay/match by=overlay.subset({\"kind\": \"ScanTemplate\"}), expects=\"1+\"\n    ---\n    spec: {}\nEOT\necho done\n";

    #[test]
    fn a_block_inside_a_here_document_is_found_at_the_script_s_lines() {
        let found = find_in_script(SCRIPT);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].key, "patch.yaml");
        assert_eq!(found[0].line, 10);
        assert!(found[0].text.starts_with("#@ load("));
    }

    #[test]
    fn a_block_outside_every_here_document_is_not() {
        let outside = "#!/bin/bash\nx=1\ncat <<EOF\nhello\nEOF\nvalues: |\n  #@ load(\"@ytt:data\", \"data\")\n  a: 1\n";
        assert!(find_in_script(outside).is_empty());
        assert!(find_in_script("echo \"$(cat <<< x)\"\n").is_empty());
    }

    #[test]
    fn openers() {
        assert_eq!(opener("cat <<EOT > x.yaml"), Some(("EOT".into(), false)));
        assert_eq!(
            opener("kubectl apply -f - <<'EOF'"),
            Some(("EOF".into(), false))
        );
        assert_eq!(opener("cat <<-END"), Some(("END".into(), true)));
        assert_eq!(opener("grep x <<< \"$y\""), None);
    }
}
