//! `overlay-matches-nothing`: an overlay document of a root's output whose `expects=` or
//! `missing_ok=` lets it match no document, and which matched none. ytt applies it without a
//! word and the output is as if the overlay were not there. It is reported when a quoted word
//! of its selector is a near miss of a kind or name of the documents it was applied to (a
//! misspelt kind, a renamed object); an overlay that matches nothing with no near miss is
//! usually generic on purpose (`expects="0+"` on whatever DaemonSet a package may have). A
//! job reports the
//! overlays that matched nothing in its evaluation; the run keeps those that matched nothing
//! in every scenario of the root (see `post/`).

use std::collections::BTreeMap;

use crate::library::Workspace;
use crate::lint::job::engine::SpanOf;
use crate::pos::Pos;
use crate::report::{Diagnostic, Rule};
use crate::schema::spell::{edits, nearest};

/// An overlay document's applications summed: where it is, the documents it matched in all,
/// and the documents it was applied to when it matched none.
type Applied<'a> = (&'a Pos, usize, Vec<&'a str>);

/// How far a quoted word of a selector may be from a kind or a name to be a typo of it.
const MAX_EDITS: usize = 2;

/// How many of the documents an overlay was applied to the message lists.
const LISTED: usize = 5;

/// The findings for the overlays of the job's evaluation that matched no document at all
/// (over every time they were applied).
pub fn findings(workspace: &Workspace, span_of: SpanOf<'_>) -> Vec<Diagnostic> {
    let matched = workspace.env.overlay_matches.borrow();
    let mut by_pos: BTreeMap<(String, u32, u32), Applied<'_>> = BTreeMap::new();
    for m in matched.iter() {
        let key = (
            m.pos.file.as_deref().unwrap_or_default().to_string(),
            m.pos.line,
            m.pos.col,
        );
        let entry = by_pos.entry(key).or_insert((&m.pos, 0, Vec::new()));
        entry.1 += m.count;
        entry.2.extend(m.candidates.iter().map(String::as_str));
    }
    let mut out = Vec::new();
    for (_, (pos, count, mut candidates)) in by_pos {
        if count > 0 {
            continue;
        }
        let (matcher, match_line) = matcher_text(workspace, pos);
        // At the `#@overlay/match` line when there is one, else at the document.
        let at = Pos {
            line: match_line.unwrap_or(pos.line),
            col: 1,
            ..pos.clone()
        };
        let Some(span) = span_of(&at) else {
            continue;
        };
        candidates.sort_unstable();
        candidates.dedup();
        // Without a near miss it is most often a generic overlay on purpose (`expects="0+"`
        // on whatever DaemonSet a package may have): not reported.
        let Some(help) = suggestion(&matcher, &candidates) else {
            continue;
        };
        out.push(
            Diagnostic::new(Rule::OverlayMatchesNothing, message(&candidates))
                .at(span)
                .with_help(help),
        );
    }
    out
}

fn message(candidates: &[&str]) -> String {
    let mut m = "this overlay matched no document (its expects allows none), so it changes nothing"
        .to_string();
    if candidates.is_empty() {
        m.push_str("; there was no document to match");
    } else {
        let shown: Vec<&str> = candidates.iter().take(LISTED).copied().collect();
        m.push_str(&format!(
            "; documents it was applied to: {}",
            shown.join(", ")
        ));
        if candidates.len() > LISTED {
            m.push_str(&format!(" and {} more", candidates.len() - LISTED));
        }
    }
    m
}

/// The annotation lines above the overlay document at `pos`, and the line of its
/// `#@overlay/match`.
fn matcher_text(workspace: &Workspace, pos: &Pos) -> (String, Option<u32>) {
    let file = pos.file.as_deref().unwrap_or_default();
    let mut text = String::new();
    let mut match_line = None;
    let mut line = pos.line;
    while line > 1 {
        line -= 1;
        let Some(src) = workspace.env.source_line(file, line) else {
            break;
        };
        if !src.trim_start().starts_with("#@") {
            break;
        }
        if src.trim_start().starts_with("#@overlay/match ") {
            match_line = Some(line);
        }
        text.push_str(&src);
        text.push('\n');
    }
    (text, match_line)
}

/// "did you mean": a quoted value of the matcher close to, but not, a kind or a name of the
/// documents the overlay was applied to, compared like with like: the value given for `kind`
/// with the kinds, the one given for `name` with the names (`{"kind": "Deploymnt"}`,
/// `l["metadata"]["name"] == "wbe"`). Keys and other values are not compared.
fn suggestion(matcher: &str, candidates: &[&str]) -> Option<String> {
    let part = |i: usize| -> Vec<String> {
        candidates
            .iter()
            .filter_map(|c| c.split('/').nth(i))
            .map(str::to_string)
            .collect()
    };
    let (kinds, names) = (part(0), part(1));
    let quoted = quoted_words(matcher);
    for (i, (word, key)) in quoted.iter().enumerate() {
        if *key || word.len() < 3 {
            continue;
        }
        let words = match i.checked_sub(1).map(|p| quoted[p].0.as_str()) {
            Some("kind") => &kinds,
            Some("name") => &names,
            _ => continue,
        };
        if words.iter().any(|w| w == word) {
            continue;
        }
        // A typo: at most two edits (`AWSCluster` is not a typo of `Cluster`).
        if let Some(best) = nearest(word, words).filter(|b| edits(b, word) <= MAX_EDITS) {
            return Some(format!("did you mean \"{best}\" for \"{word}\"?"));
        }
    }
    None
}

/// The double-quoted words of a matcher, each with whether it is a key (a `:` follows it).
fn quoted_words(matcher: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = matcher;
    while let Some(open) = rest.find('"') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('"') else {
            break;
        };
        let word = after[..close].to_string();
        rest = &after[close + 1..];
        let key = rest.trim_start().starts_with(':');
        out.push((word, key));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_selector_close_to_a_kind_or_name_is_suggested() {
        let matcher =
            "#@overlay/match by=overlay.subset({\"kind\": \"Deploymnt\"}), expects=\"0+\"\n";
        assert_eq!(
            suggestion(matcher, &["Deployment/web", "Service/web"]).as_deref(),
            Some("did you mean \"Deployment\" for \"Deploymnt\"?")
        );
        assert_eq!(suggestion(matcher, &["ConfigMap/x"]), None);
        let other =
            "#@overlay/match by=overlay.subset({\"kind\": \"AWSCluster\"}), missing_ok=True\n";
        assert_eq!(suggestion(other, &["Cluster/c", "AzureCluster/c"]), None);
        // A key is not a kind: `namespace` is no typo of `Namespace`.
        let keyed = "#@overlay/match by=overlay.subset({\"metadata\": {\"namespace\": \"prod\"}}), expects=\"0+\"\n";
        assert_eq!(
            suggestion(keyed, &["Namespace/prod", "Deployment/web"]),
            None
        );
        // A name is compared with the names.
        let named = "#@overlay/match by=lambda i,l,r: l[\"metadata\"][\"name\"] == \"wbe\", expects=\"0+\"\n";
        assert_eq!(
            suggestion(named, &["Deployment/web"]).as_deref(),
            Some("did you mean \"web\" for \"wbe\"?")
        );
    }

    #[test]
    fn the_message_lists_a_few_documents() {
        let many: Vec<String> = (0..7).map(|i| format!("ConfigMap/c{i}")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let m = message(&refs);
        assert!(m.ends_with("ConfigMap/c4 and 2 more"), "{m}");
        assert!(message(&[]).ends_with("no document to match"));
    }
}
