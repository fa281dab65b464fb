//! Carvel `Package` resources (kapp-controller's `data.packaging.carvel.dev`): the ytt paths
//! their template steps name (`spec.template.spec.template[].ytt.paths`), found on disk. The
//! paths are relative to the fetched bundle, which the repository usually holds next to the
//! Package file or under its `git` fetch's `subPath`: each path is looked up there, then at the
//! repository root, and the first place it exists wins.

use std::path::Path;
use std::sync::Arc;

use crate::files::paths;
use crate::lint::repo::yaml_doc::{get, items, string};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::Value;

/// The ytt step of one Package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageYtt {
    /// Repository-relative file of the Package.
    pub file: String,
    /// Line of its document.
    pub line: u32,
    /// `metadata.name`.
    pub name: String,
    /// The ytt paths found on disk (repository-relative), in the Package's order.
    pub inputs: Vec<String>,
    /// Paths that exist nowhere (reported by `--list-roots`).
    pub missing: Vec<String>,
}

/// The Packages of one YAML file (`text`, at repository-relative `file`) that have a ytt step.
pub fn packages(base: &Path, file: &str, text: &str) -> Vec<PackageYtt> {
    let name: Arc<str> = Arc::from(file);
    let Ok(docs) = parse(text, &name, &ParseOpts::default()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for doc in &docs.items {
        let v = &doc.value;
        let api = string(get(v, "apiVersion")).unwrap_or("");
        if !api.starts_with("data.packaging.carvel.dev/")
            || string(get(v, "kind")) != Some("Package")
        {
            continue;
        }
        let spec = get(v, "spec")
            .and_then(|s| get(s, "template"))
            .and_then(|t| get(t, "spec"));
        let Some(spec) = spec else { continue };
        let sub_path = items(get(spec, "fetch"))
            .into_iter()
            .find_map(|f| get(f, "git").and_then(|g| string(get(g, "subPath"))));
        let wanted: Vec<&str> = items(get(spec, "template"))
            .into_iter()
            .filter_map(|step| get(step, "ytt"))
            .flat_map(|ytt| items(get(ytt, "paths")))
            .filter_map(Value::as_str)
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let fetches = items(get(spec, "fetch"));
        let from_bundle = fetches.iter().any(|f| get(f, "imgpkgBundle").is_some());
        let dir = paths::parent(file).to_string();
        let mut bases = vec![dir.clone()];
        bases.extend(sub_path.map(|s| s.trim_matches('/').to_string()));
        if from_bundle {
            // The bundle's directory: one next to the Package holding `.imgpkg`.
            bases.splice(0..0, bundle_dirs(base, &dir));
        } else {
            // A git fetch of the repository itself: paths are relative to its root.
            bases.push(".".to_string());
        }
        let mut pkg = PackageYtt {
            file: file.to_string(),
            line: doc.pos.line.max(1),
            name: string(get(v, "metadata").and_then(|m| get(m, "name")))
                .unwrap_or("")
                .to_string(),
            inputs: Vec::new(),
            missing: Vec::new(),
        };
        for p in wanted {
            match locate(base, &bases, p) {
                Some(found) if !pkg.inputs.contains(&found) => pkg.inputs.push(found),
                Some(_) => {}
                None => pkg.missing.push(p.to_string()),
            }
        }
        out.push(pkg);
    }
    out
}

/// Directories of imgpkg bundles at or just below `dir` (they hold `.imgpkg`, or are named
/// `bundle`).
fn bundle_dirs(base: &Path, dir: &str) -> Vec<String> {
    let abs = base.join(dir);
    let mut out = Vec::new();
    if abs.join(".imgpkg").is_dir() {
        out.push(dir.to_string());
    }
    if let Ok(entries) = std::fs::read_dir(&abs) {
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| {
                e.file_type().is_ok_and(|t| t.is_dir())
                    && (e.path().join(".imgpkg").is_dir() || e.file_name() == "bundle")
            })
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|n| paths::join(dir, &n)));
    }
    out
}

/// The first of `bases` under which the bundle path `p` exists, as a repository-relative path.
fn locate(base: &Path, bases: &[String], p: &str) -> Option<String> {
    if p == "-" || p.is_empty() {
        return None;
    }
    bases.iter().find_map(|b| {
        let abs = paths::absolute(&base.join(b), Path::new(p));
        let rel = paths::relative(base, &abs)?;
        abs.exists().then_some(rel)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKAGE: &str = "\
apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  name: harbor.corp.com.1.0.0
spec:
  template:
    spec:
      fetch:
      - git: {url: https://example.com/x, subPath: bundles/harbor}
      template:
      - ytt:
          paths: [config/, values.yml, missing/]
      - kbld:
          paths: ['-', .imgpkg/images.yml]
";

    #[test]
    fn ytt_paths_are_found_next_to_the_package_or_under_sub_path() {
        let dir = std::env::temp_dir().join(format!("yttlint-pkg-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("packages/harbor/config")).unwrap();
        std::fs::create_dir_all(dir.join("bundles/harbor")).unwrap();
        std::fs::write(dir.join("bundles/harbor/values.yml"), "a: 1\n").unwrap();
        let text = format!("---\nkind: ConfigMap\n---\n{PACKAGE}");
        let found = packages(&dir, "packages/harbor/package.yml", &text);
        assert_eq!(found.len(), 1);
        let p = &found[0];
        assert_eq!(p.name, "harbor.corp.com.1.0.0");
        assert_eq!(p.line, 3);
        assert_eq!(
            p.inputs,
            vec!["packages/harbor/config", "bundles/harbor/values.yml"]
        );
        assert_eq!(p.missing, vec!["missing/"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn other_kinds_and_broken_yaml_give_nothing() {
        let base = Path::new("/nonexistent");
        assert!(packages(base, "a.yml", "kind: Package\n").is_empty());
        assert!(packages(base, "a.yml", "a: [\n").is_empty());
    }
}
