//! `--file-mark PATH:KEY=VALUE`: renames files (`path=`), excludes them (`exclude=true`), sets
//! their type (`type=yaml-template|yaml-plain|text-template|text-plain|starlark|data`) or makes
//! them output (`for-output=true`, `exclusive-for-output=true`). PATH matches the file's
//! original relative path; `*` stands for one path segment and `**/*` for several (each only at
//! its first occurrence, as in ytt).

use crate::files::{FileType, InputFile};

/// ytt's pattern: the text quoted, then the first `**/*` and the first `*` made wild.
fn matcher(pattern: &str) -> Result<regex::Regex, String> {
    let mut quoted = regex::escape(pattern);
    let multi = regex::escape("**/*");
    if let Some(i) = quoted.find(&multi) {
        quoted.replace_range(i..i + multi.len(), ".+");
    }
    let single = regex::escape("*");
    if let Some(i) = quoted.find(&single) {
        quoted.replace_range(i..i + single.len(), "[^/]+");
    }
    regex::Regex::new(&format!("^{quoted}$")).map_err(|e| e.to_string())
}

/// Whether a mark's PATH pattern matches a file's relative path, as ytt matches it (an
/// unreadable pattern matches nothing).
pub fn matches(pattern: &str, rel_path: &str) -> bool {
    matcher(pattern).is_ok_and(|re| re.is_match(rel_path))
}

/// Applies the marks in order; returns the files that remain.
pub fn apply(mut files: Vec<InputFile>, marks: &[String]) -> Result<Vec<InputFile>, String> {
    let mut exclusive: Vec<String> = Vec::new();
    for mark in marks {
        let Some((path, kv)) = mark.split_once(':') else {
            return Err(format!(
                "Expected file mark '{mark}' to be in format path:key=value"
            ));
        };
        let Some((key, value)) = kv.split_once('=') else {
            return Err(format!(
                "Expected file mark '{mark}' key-value portion to be in format key=value"
            ));
        };
        let re = matcher(path)?;
        let unknown_value = || format!("Unknown value in file mark '{mark}'");
        let mut matched = false;
        let mut kept = Vec::with_capacity(files.len());
        for mut f in files {
            if !re.is_match(&f.orig_path) {
                kept.push(f);
                continue;
            }
            matched = true;
            match (key, value) {
                ("path", new) => f.rel_path = new.to_string(),
                ("exclude", "true") => continue,
                ("type", t) => {
                    let (ty, template) = match t {
                        "yaml-template" => (FileType::Yaml, true),
                        "yaml-plain" => (FileType::Yaml, false),
                        "text-template" => (FileType::Text, true),
                        "text-plain" => (FileType::Text, false),
                        "starlark" => (FileType::Starlark, false),
                        "data" => (FileType::Unknown, false),
                        _ => return Err(unknown_value()),
                    };
                    f.marked_type = Some(ty);
                    f.marked_template = Some(template);
                }
                ("for-output", "true") => f.marked_for_output = Some(true),
                ("exclusive-for-output", "true") => exclusive.push(f.orig_path.clone()),
                ("exclude" | "for-output" | "exclusive-for-output", _) => {
                    return Err(unknown_value())
                }
                _ => return Err(format!("Unknown key in file mark '{mark}'")),
            }
            kept.push(f);
        }
        files = kept;
        if !matched {
            return Err(format!(
                "Expected file mark '{mark}' to match at least one file by path, but did not"
            ));
        }
    }
    if !exclusive.is_empty() {
        for f in &mut files {
            f.marked_for_output = Some(exclusive.contains(&f.orig_path));
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(fs: &[InputFile]) -> Vec<&str> {
        fs.iter().map(|f| f.rel_path.as_str()).collect()
    }

    #[test]
    fn wildcards_follow_ytt() {
        assert!(matcher("*.yml").unwrap().is_match("a.yml"));
        assert!(!matcher("*.yml").unwrap().is_match("d/a.yml"));
        assert!(matcher("**/*.yml").unwrap().is_match("d/e/a.yml"));
        assert!(matcher("a.(x)").unwrap().is_match("a.(x)"));
    }

    #[test]
    fn marks_exclude_rename_and_type_files() {
        let fs = vec![
            InputFile::new("a.yml", ""),
            InputFile::new("b.txt", ""),
            InputFile::new("c.yml", ""),
        ];
        let out = apply(
            fs,
            &[
                "a.yml:exclude=true".into(),
                "b.txt:path=renamed.txt".into(),
                "c.yml:type=yaml-plain".into(),
            ],
        )
        .unwrap();
        assert_eq!(names(&out), ["renamed.txt", "c.yml"]);
        assert_eq!(out[1].marked_template, Some(false));
        assert!(out[1].is_for_output());
        assert!(apply(out, &["zzz:exclude=true".into()]).is_err());
    }
}
