//! Input files as ytt sees them: `-f` paths (files, directories, `-` for stdin, `name=path`),
//! each with the relative path ytt gives it, its type by extension, and ytt's order (inputs in
//! the order given, each directory's files sorted by relative path).

use std::path::Path;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Yaml,
    Text,
    Starlark,
    Unknown,
}

/// One input file.
#[derive(Clone, Debug)]
pub struct InputFile {
    /// Path relative to its input (forward slashes).
    pub rel_path: String,
    /// The path before any `--file-mark path=` renamed it (what marks match against).
    pub orig_path: String,
    pub data: Arc<str>,
    pub marked_type: Option<FileType>,
    pub marked_template: Option<bool>,
    pub marked_for_output: Option<bool>,
}

impl InputFile {
    pub fn new(rel_path: &str, data: &str) -> InputFile {
        InputFile {
            rel_path: rel_path.to_string(),
            orig_path: rel_path.to_string(),
            data: Arc::from(data),
            marked_type: None,
            marked_template: None,
            marked_for_output: None,
        }
    }

    fn base_name(&self) -> &str {
        self.rel_path.rsplit('/').next().unwrap_or(&self.rel_path)
    }

    pub fn file_type(&self) -> FileType {
        if let Some(t) = self.marked_type {
            return t;
        }
        let base = self.base_name();
        if base.ends_with(".yml") || base.ends_with(".yaml") {
            FileType::Yaml
        } else if base.ends_with(".star") {
            FileType::Starlark
        } else if base.ends_with(".txt") {
            FileType::Text
        } else {
            FileType::Unknown
        }
    }

    /// `x.lib.yml`, `x.lib.txt` and Starlark files are libraries (loaded, not output).
    pub fn is_library(&self) -> bool {
        let parts: Vec<&str> = self.base_name().split('.').collect();
        (parts.len() > 2 && parts[parts.len() - 2] == "lib")
            || self.file_type() == FileType::Starlark
    }

    pub fn is_template(&self) -> bool {
        if let Some(t) = self.marked_template {
            return t;
        }
        !self.is_library() && matches!(self.file_type(), FileType::Yaml | FileType::Text)
    }

    pub fn is_for_output(&self) -> bool {
        if let Some(o) = self.marked_for_output {
            return o;
        }
        if self.marked_template == Some(true) {
            return true;
        }
        !self.is_library() && matches!(self.file_type(), FileType::Yaml | FileType::Text)
    }
}

/// Reads the files named by `-f` arguments. `stdin` supplies the content of `-`.
pub fn collect(
    paths: &[String],
    stdin: &mut dyn FnMut() -> Result<String, String>,
) -> Result<Vec<InputFile>, String> {
    let mut all = Vec::new();
    for arg in paths {
        let (name, path) = match arg.split('=').collect::<Vec<_>>().as_slice() {
            [p] => (None, p.to_string()),
            [n, p] => (Some(n.to_string()), p.to_string()),
            _ => {
                return Err(format!(
                    "Expected file '{arg}' to only have single '=' sign to for relative path assignment"
                ))
            }
        };
        let mut group = Vec::new();
        if path == "-" {
            let data = stdin()?;
            group.push(InputFile::new(
                name.as_deref().unwrap_or("stdin.yml"),
                &data,
            ));
        } else {
            let p = Path::new(&path);
            let meta = std::fs::symlink_metadata(p)
                .map_err(|e| format!("Checking file '{path}': lstat {path}: {}", go_errno(&e)))?;
            if meta.is_dir() {
                walk(p, p, &mut group).map_err(|e| format!("Listing files '{path}': {e}"))?;
            } else {
                let data = read(p)?;
                let rel = match &name {
                    Some(n) => n.clone(),
                    None => p
                        .file_name()
                        .map(|f| f.to_string_lossy().to_string())
                        .unwrap_or_else(|| path.clone()),
                };
                group.push(InputFile::new(&rel, &data));
            }
        }
        group.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        all.extend(group);
    }
    Ok(all)
}

/// Go's text of an I/O error's cause (`no such file or directory`): Rust's own text without its
/// ` (os error N)` suffix.
pub fn go_errno(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::NotADirectory => "not a directory".to_string(),
        _ => {
            let text = e.to_string();
            let plain = text.split(" (os error").next().unwrap_or(&text);
            let mut chars = plain.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => plain.to_string(),
            }
        }
    }
}

fn read(p: &Path) -> Result<String, String> {
    let bytes = std::fs::read(p).map_err(|e| format!("Reading file '{}': {e}", p.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<InputFile>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let ft = e.file_type().map_err(|e| e.to_string())?;
        if ft.is_dir() {
            walk(root, &p, out)?;
        } else if ft.is_symlink() {
            return Err(format!(
                "Checking symlink file '{}': Expected symlinks to be allowed, but was not",
                p.display()
            ));
        } else {
            let rel = p
                .strip_prefix(root)
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| p.to_string_lossy().to_string());
            let data = read(&p)?;
            out.push(InputFile::new(&rel, &data));
        }
    }
    Ok(())
}
