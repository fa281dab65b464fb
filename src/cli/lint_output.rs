//! Where the linter's output goes: standard output (a closed pipe or a full disk is one line
//! on standard error and exit status 2, never a panic) and report files, written whole or not
//! at all: each target is removed when the run starts and written through a temporary file
//! renamed into place, so that an interrupted run never leaves an older report that could be
//! read as this run's.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `text` to standard output.
pub fn stdout(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// Removes the report files of an earlier run before anything is linted.
pub fn clear_reports(targets: &[(String, PathBuf)]) -> Result<(), String> {
    for (_, path) in targets {
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot replace the report {}: {e}", path.display())),
        }
    }
    Ok(())
}

/// Writes a report: into a temporary file next to `path`, then renamed to it.
pub fn write_report(path: &Path, text: &str) -> Result<(), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".to_string());
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::write(&temp, text).and_then(|()| std::fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("cannot write the report {}: {e}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_cleared_then_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("yttlint-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.sarif");
        std::fs::write(&path, "old").unwrap();
        clear_reports(&[("sarif".to_string(), path.clone())]).unwrap();
        assert!(!path.exists());
        write_report(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
