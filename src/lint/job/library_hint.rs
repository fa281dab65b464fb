//! What a load of a private library that fails can be told: ytt says `Could not find private
//! library (directory '_ytt_lib' missing?)` or `Expected to find library 'x'`; the finding's
//! help names the libraries the command does give (and where), or says it gives none.

use std::collections::BTreeSet;

use crate::library::tree::PRIVATE_DIR;
use crate::library::Workspace;
use crate::report::{Diagnostic, Rule};

/// At most this many libraries are named.
const NAMED: usize = 8;

/// `found` with a help on each failed load of a private library that has none.
pub fn add(ws: &Workspace, found: &mut [Diagnostic]) {
    let mut libraries: Option<BTreeSet<String>> = None;
    for d in found.iter_mut() {
        let about_library = d.message.contains("Could not find private library")
            || d.message.contains("Expected to find library");
        if d.rule != Rule::LoadError || !about_library || d.help.is_some() {
            continue;
        }
        let libs = libraries.get_or_insert_with(|| given(ws));
        d.help = Some(help(libs));
    }
}

/// The private libraries the workspace's files make: `dir/_ytt_lib/name` (the name as
/// `library.get` takes it, one level below `_ytt_lib`).
fn given(ws: &Workspace) -> BTreeSet<String> {
    let marker = format!("{PRIVATE_DIR}/");
    ws.files
        .iter()
        .filter_map(|f| {
            let path = f.rel_path.as_str();
            let at = if path.starts_with(&marker) {
                0
            } else {
                path.find(&format!("/{marker}"))? + 1
            };
            let rest = &path[at + marker.len()..];
            let name = rest.split('/').next().filter(|_| rest.contains('/'))?;
            Some(format!("{}{name}", &path[..at + marker.len()]))
        })
        .collect()
}

fn help(libs: &BTreeSet<String>) -> String {
    if libs.is_empty() {
        return format!(
            "the files this command gives hold no `{PRIVATE_DIR}` directory: give ytt the directory that holds the library too"
        );
    }
    let shown: Vec<String> = libs.iter().take(NAMED).map(|l| format!("`{l}`")).collect();
    let more = match libs.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(
        "the private libraries this command gives: {}{more} (`library.get` names them from the `{PRIVATE_DIR}` next to the loading file)",
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_names_the_libraries_or_says_there_are_none() {
        let none = BTreeSet::new();
        assert!(help(&none).contains("hold no `_ytt_lib` directory"));
        let some: BTreeSet<String> = ["common/_ytt_lib/ytt-k8s-lib".to_string()].into();
        assert_eq!(
            help(&some),
            "the private libraries this command gives: `common/_ytt_lib/ytt-k8s-lib` (`library.get` names them from the `_ytt_lib` next to the loading file)"
        );
    }
}
