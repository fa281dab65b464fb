//! The repository's source files as reports need them: code frames in the terminal, the line
//! text that fingerprints hash. Files are read once, lazily, relative to the repository root.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Lazily read source files, keyed by repository-relative path.
#[derive(Debug)]
pub struct Sources {
    root: PathBuf,
    /// Only regular files inside the repository are read (never a FIFO, never through a
    /// symlink to elsewhere).
    policy: crate::files::ReadPolicy,
    files: Mutex<HashMap<String, Option<Arc<str>>>>,
    /// Where each line of a file starts (byte offsets), computed once per file so that finding
    /// a line costs the same whatever its number.
    starts: Mutex<HashMap<String, Arc<Vec<usize>>>>,
}

impl Sources {
    /// Sources read from the repository at `root`.
    pub fn new(root: impl Into<PathBuf>) -> Sources {
        let root = root.into();
        Sources {
            policy: crate::files::ReadPolicy::repository(&root),
            root,
            files: Mutex::new(HashMap::new()),
            starts: Mutex::new(HashMap::new()),
        }
    }

    /// Adds a file's text without reading the disk (tests; rendered or piped input).
    pub fn insert(&self, file: &str, text: &str) {
        if let Ok(mut files) = self.files.lock() {
            files.insert(file.to_string(), Some(Arc::from(text)));
        }
        if let Ok(mut starts) = self.starts.lock() {
            starts.remove(file);
        }
    }

    /// The whole text of `file`, or `None` when it cannot be read as UTF-8.
    pub fn text(&self, file: &str) -> Option<Arc<str>> {
        if let Some(kept) = self.files.lock().ok()?.get(file) {
            return kept.clone();
        }
        // Read without holding the lock: other threads read other files meanwhile.
        let text = crate::files::read_allowed(&self.root.join(file), &self.policy)
            .and_then(|bytes| String::from_utf8(bytes).ok().map(Arc::from));
        let mut files = self.files.lock().ok()?;
        files.entry(file.to_string()).or_insert(text).clone()
    }

    /// The text of `file` as [`Sources::text`] gives it, without keeping it when it was not
    /// kept already: for a pass over many files that reports need only a few of.
    pub fn text_once(&self, file: &str) -> Option<Arc<str>> {
        if let Some(kept) = self.files.lock().ok()?.get(file) {
            return kept.clone();
        }
        let bytes = crate::files::read_allowed(&self.root.join(file), &self.policy)?;
        String::from_utf8(bytes).ok().map(Arc::from)
    }

    /// The first ytt file (`.yml`, `.yaml`, `.star`, `.txt`) under the repository-relative
    /// directory `dir` (`.` or empty for the repository itself): in name order, a directory's
    /// files before its subdirectories, hidden entries skipped. Files added with
    /// [`Sources::insert`] count as well as files on disk. Reports anchor findings about a whole
    /// root there.
    pub fn first_file(&self, dir: &str) -> Option<String> {
        let dir = dir.trim_end_matches('/');
        let prefix = match dir {
            "" | "." => String::new(),
            d => format!("{d}/"),
        };
        let inserted = self.files.lock().ok().and_then(|files| {
            files
                .keys()
                .filter_map(|k| k.strip_prefix(prefix.as_str()))
                .filter(|rel| is_ytt_file(rel) && !rel.split('/').any(|c| c.starts_with('.')))
                .min_by(|a, b| walk_order(a).cmp(&walk_order(b)))
                .map(str::to_string)
        });
        let on_disk = first_on_disk(&self.root.join(dir), MAX_DEPTH);
        [inserted, on_disk]
            .into_iter()
            .flatten()
            .min_by(|a, b| walk_order(a).cmp(&walk_order(b)))
            .map(|rel| format!("{prefix}{rel}"))
    }

    /// Line `line` (from 1) of `file`, without its line ending.
    pub fn line(&self, file: &str, line: u32) -> Option<String> {
        let text = self.text(file)?;
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        let starts = {
            let mut all = self.starts.lock().ok()?;
            all.entry(file.to_string())
                .or_insert_with(|| Arc::new(line_starts(&text)))
                .clone()
        };
        let from = *starts.get(index)?;
        let l = crate::pos::lines(text.get(from..)?).next()?;
        Some(text[from..from + l.end].to_string())
    }
}

/// The byte offsets where the lines of `text` start (an LF, a CR LF or a CR alone ends a
/// line, as ytt and editors count them; a final line break starts no line).
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts: Vec<usize> = crate::pos::lines(text)
        .map(|l| l.start)
        .filter(|&i| i == 0 || i < text.len())
        .collect();
    if text.is_empty() {
        starts.clear();
    }
    starts
}

/// How deep [`Sources::first_file`] looks.
const MAX_DEPTH: usize = 8;

fn is_ytt_file(name: &str) -> bool {
    [".yml", ".yaml", ".star", ".txt"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The order of a depth-first walk that lists a directory's files before its subdirectories:
/// each directory component sorts after every file of its parent.
fn walk_order(rel: &str) -> Vec<(bool, &str)> {
    let parts: Vec<&str> = rel.split('/').collect();
    let last = parts.len().saturating_sub(1);
    parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| (i < last, part))
        .collect()
}

/// The first ytt file under `dir` on disk, as a path relative to `dir` with `/` separators.
fn first_on_disk(dir: &std::path::Path, depth: usize) -> Option<String> {
    let mut entries: Vec<(bool, String)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let is_dir = e.file_type().ok()?.is_dir();
            (!name.starts_with('.')).then_some((is_dir, name))
        })
        .collect();
    entries.sort();
    for (is_dir, name) in entries {
        if !is_dir && is_ytt_file(&name) {
            return Some(name);
        }
        if is_dir && depth > 0 {
            if let Some(rel) = first_on_disk(&dir.join(&name), depth - 1) {
                return Some(format!("{name}/{rel}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_as_str_lines_splits_them() {
        let sources = Sources::new("/nonexistent");
        for text in ["", "a", "a\n", "a\n\nb", "a\r\nb\r\n", "\n\n", "x\ny\nz"] {
            sources.insert("f.yml", text);
            let expected: Vec<&str> = text.lines().collect();
            for n in 0..=expected.len() + 1 {
                let want = n
                    .checked_sub(1)
                    .and_then(|i| expected.get(i))
                    .map(|l| l.trim_end_matches('\r').to_string());
                assert_eq!(sources.line("f.yml", n as u32), want, "{text:?} line {n}");
            }
        }
    }

    #[test]
    fn first_file_prefers_a_directory_s_own_files() {
        let sources = Sources::new("/nonexistent");
        sources.insert("config/_ytt_lib/a/x.yml", "");
        sources.insert("config/z.star", "");
        sources.insert("config/b/a.yml", "");
        sources.insert("config/.hidden.yml", "");
        sources.insert("config/README.md", "");
        assert_eq!(
            sources.first_file("config").as_deref(),
            Some("config/z.star")
        );
        assert_eq!(
            sources.first_file("config/").as_deref(),
            Some("config/z.star")
        );
        assert_eq!(sources.first_file("other"), None);
    }

    #[test]
    fn first_file_of_the_repository_itself() {
        let sources = Sources::new("/nonexistent");
        sources.insert("lib/values.yml", "");
        assert_eq!(sources.first_file(".").as_deref(), Some("lib/values.yml"));
    }

    #[test]
    fn first_file_on_disk() {
        let root = std::env::temp_dir().join(format!("yttlint-sources-{}", std::process::id()));
        std::fs::create_dir_all(root.join("lib/sub")).unwrap();
        std::fs::write(root.join("lib/sub/a.yml"), "").unwrap();
        std::fs::write(root.join("lib/notes.md"), "").unwrap();
        let sources = Sources::new(&root);
        assert_eq!(sources.first_file("lib").as_deref(), Some("lib/sub/a.yml"));
        std::fs::write(root.join("lib/z.yaml"), "").unwrap();
        assert_eq!(sources.first_file("lib").as_deref(), Some("lib/z.yaml"));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
