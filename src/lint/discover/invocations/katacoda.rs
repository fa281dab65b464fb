//! Katacoda scenarios (round fifty-three's N53-1). A scenario's folder holds `index.json`,
//! its pages, its scripts (`details.intro.code`, a step's `code`: `foreground.sh`) and
//! `assets/`; `details.assets.host01` copies each asset `file` (under `assets/`) to a
//! `target` folder of the session's machine (`/root/template-with-ytt/`), and the scripts run
//! in the terminal, in `/root`. A script's `ytt -f template-with-ytt/x.yaml` then reads the
//! asset `assets/x.yaml`: the session is an image ([`super::image_entry`]) holding the assets
//! at their targets, whose scripts run from [`HOME`].

use crate::files::paths;

/// Where a scenario's terminal, and the scripts it runs, start.
pub const HOME: &str = "/root";

/// Whether a repository file is a scenario's `index.json`.
pub fn candidate(path: &str) -> bool {
    name_of(path) == "index.json"
}

/// The last segment of a path.
fn name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// What one scenario's `index.json` says the session holds and runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scenario {
    /// Each asset: its absolute path on the machine, and its repository path.
    pub assets: Vec<(String, String)>,
    /// The scenario's scripts the session runs (repository paths).
    pub scripts: Vec<String>,
}

/// The scenario of the `index.json` at repository path `path`, when it copies assets.
pub fn scenario(path: &str, text: &str) -> Option<Scenario> {
    if !text.contains("\"assets\"") {
        return None;
    }
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    let details = json.get("details")?;
    let dir = paths::parent(path);
    let mut out = Scenario::default();
    let hosts = details.get("assets")?.as_object()?;
    for list in hosts.values() {
        for asset in list.as_array().into_iter().flatten() {
            let (Some(file), Some(target)) = (
                asset.get("file").and_then(|f| f.as_str()),
                asset.get("target").and_then(|t| t.as_str()),
            ) else {
                continue;
            };
            // A glob (`*.yaml`) or a path out of `assets/` is not followed.
            if file.contains(['*', '?', '[']) || file.contains("..") || !target.starts_with('/') {
                continue;
            }
            let name = name_of(file);
            let machine = format!("{}/{name}", target.trim_end_matches('/'));
            let repo = paths::join(&paths::join(dir, "assets"), file);
            out.assets.push((machine, repo));
        }
    }
    let mut script = |v: Option<&serde_json::Value>| {
        if let Some(s) = v.and_then(|c| c.as_str()) {
            if !s.contains("..") {
                out.scripts.push(paths::join(dir, s));
            }
        }
    };
    script(details.get("intro").and_then(|i| i.get("code")));
    script(details.get("finish").and_then(|i| i.get("code")));
    for step in details
        .get("steps")
        .and_then(|s| s.as_array())
        .into_iter()
        .flatten()
    {
        script(step.get("code"));
    }
    (!out.assets.is_empty() && !out.scripts.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assets_and_scripts_of_an_index() {
        let index = r#"{"title": "t", "details": {"steps": [{"title": "s", "text": "step1.md", "code": "step1.sh"}], "intro": {"text": "intro.md", "code": "foreground.sh"}, "assets": {"host01": [{"file": "kpack-builder.yaml", "target": "/root/template-with-ytt/"}, {"file": "*.sh", "target": "/usr/local/bin"}]}}}"#;
        let s = scenario("sc/index.json", index);
        assert_eq!(
            s,
            Some(Scenario {
                assets: vec![(
                    "/root/template-with-ytt/kpack-builder.yaml".into(),
                    "sc/assets/kpack-builder.yaml".into()
                )],
                scripts: vec!["sc/foreground.sh".into(), "sc/step1.sh".into()],
            })
        );
        assert_eq!(scenario("sc/index.json", "{\"details\": {}}"), None);
        assert!(candidate("a/b/index.json"));
        assert!(!candidate("a/b/package.json"));
    }
}
