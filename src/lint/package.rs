//! Carvel `Package` resources (kapp-controller's `data.packaging.carvel.dev`): the ytt paths
//! their template steps name (`spec.template.spec.template[].ytt.paths`), found on disk. The
//! paths are relative to the fetched bundle, which the repository usually holds next to the
//! Package file or under its `git` fetch's `subPath`: each path is looked up there, then at the
//! repository root, and the first place it exists wins.

use std::path::Path;
use std::sync::Arc;

use super::paths;
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{scalar_key_string, Value};

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

fn get<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    match v {
        Value::Map(m) => m
            .items
            .iter()
            .find(|i| scalar_key_string(&i.key) == key)
            .map(|i| &i.value),
        _ => None,
    }
}

fn items(v: Option<&Value>) -> Vec<&Value> {
    match v {
        Some(Value::Array(a)) => a.items.iter().map(|i| &i.value).collect(),
        _ => Vec::new(),
    }
}

fn string(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
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
        let mut bases = vec![paths::parent(file).to_string()];
        bases.extend(sub_path.map(|s| s.trim_matches('/').to_string()));
        bases.push(".".to_string());
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
