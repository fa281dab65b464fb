//! Linting plain YAML files on disk: positions are the files' own lines and columns, and the
//! files' texts let findings point inside annotations' JSON.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::pos::Pos;
use crate::report::{Diagnostic, Span};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::DocSet;

use super::{lint, KvInput, Locate, Options};

/// Plain files by repository-relative name, with their texts.
#[derive(Debug, Default)]
pub struct PlainFiles {
    texts: HashMap<String, String>,
}

impl PlainFiles {
    pub fn add(&mut self, name: &str, text: String) {
        self.texts.insert(name.to_string(), text);
    }
}

impl Locate for PlainFiles {
    fn span(&self, pos: &Pos) -> Option<Span> {
        let file = pos.file.as_deref()?;
        if !pos.is_known() {
            return None;
        }
        Some(Span::point(file, pos.line, pos.col.max(1)))
    }

    fn source(&self, pos: &Pos) -> Option<&str> {
        self.texts.get(pos.file.as_deref()?).map(String::as_str)
    }
}

/// The repository-relative name of `path`, with `/` separators.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Lints plain YAML files (paths under `root`). Files that cannot be read or parsed are skipped:
/// other rules report them.
pub fn lint_files(root: &Path, files: &[PathBuf], opts: &Options) -> Vec<Diagnostic> {
    let mut plain = PlainFiles::default();
    let mut sets: Vec<(String, DocSet)> = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let name = relative(root, path);
        let file: Arc<str> = Arc::from(name.as_str());
        if let Ok(docs) = parse(&text, &file, &ParseOpts::default()) {
            sets.push((name.clone(), docs));
            plain.add(&name, text);
        }
    }
    let inputs: Vec<KvInput> = sets
        .iter()
        .map(|(name, docs)| KvInput { file: name, docs })
        .collect();
    lint(&inputs, &plain, opts)
}
