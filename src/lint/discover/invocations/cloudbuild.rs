//! Google Cloud Build configurations (`cloudbuild.yaml`, `cloudbuild-*.yml`): each of its
//! `steps` runs in the checkout (`/workspace`, or its `dir:`), either as shell text
//! (`entrypoint: bash` with `args: [-c, "kapp deploy ... <(ytt -f config/ ...)"]`) or as a
//! program and its arguments (`entrypoint: ytt`, or an image named for ytt and its `args`).
//! Cloud Build replaces its substitutions before the step runs: the file's own
//! (`substitutions: {_NAME: value}`) are known text, its built-in ones (`$PROJECT_ID`,
//! `$COMMIT_SHA`, ...) are known only at run time, and `$$` is a dollar sign (round
//! fourteen's cwlbraa/luanerizer: `ytt -f config/ -v canary.deploy=true ...`).

use super::snippet::Snippet;
use super::word::{Word, REPO};
use crate::lint::repo::yaml_doc::{documents, entries, get, items, string, text_offset};
use crate::yaml::{scalar_key_string, Value};

/// Cloud Build's own substitutions, known only when a build runs.
const BUILT_IN: [&str; 16] = [
    "PROJECT_ID",
    "PROJECT_NUMBER",
    "BUILD_ID",
    "LOCATION",
    "TRIGGER_NAME",
    "TRIGGER_BUILD_CONFIG_PATH",
    "COMMIT_SHA",
    "REVISION_ID",
    "SHORT_SHA",
    "REPO_NAME",
    "REPO_FULL_NAME",
    "BRANCH_NAME",
    "TAG_NAME",
    "REF_NAME",
    "SERVICE_ACCOUNT_EMAIL",
    "SERVICE_ACCOUNT",
];

/// Steps read at most from one file.
const MAX_STEPS: usize = 256;

/// Whether a repository file is a Cloud Build configuration.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.starts_with("cloudbuild") && (name.ends_with(".yaml") || name.ends_with(".yml"))
}

/// The steps of the Cloud Build file at repository-relative `path` that `wanted` says may
/// run ytt.
pub fn snippets(path: &str, src: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let mut out = Vec::new();
    for doc in documents(path, src).iter().take(4) {
        let mut vars: Vec<(String, Word)> = BUILT_IN
            .iter()
            .map(|n| (n.to_string(), Word::unknown(format!("${n}"))))
            .collect();
        for item in entries(get(&doc.value, "substitutions")) {
            if let Some(v) = item.value.as_str() {
                vars.push((scalar_key_string(&item.key), Word::lit(v)));
            }
        }
        let Some(Value::Array(steps)) = get(&doc.value, "steps") else {
            continue;
        };
        for step in steps.items.iter().take(MAX_STEPS) {
            let Some((line, text)) = command(src, &step.value, step.pos.line) else {
                continue;
            };
            let text = text.replace("$$", "$");
            if !wanted(&text) {
                continue;
            }
            let cwd = match string(get(&step.value, "dir")).map(|d| d.trim_matches('/')) {
                None | Some("" | ".") => Word::lit(REPO),
                Some(d) => Word::lit(format!("{REPO}/{}", d.trim_start_matches("./"))),
            };
            let mut s = Snippet::new(path, line, text, cwd);
            s.vars = vars.clone();
            for e in items(get(&step.value, "env")) {
                if let Some((k, v)) = e.as_str().and_then(|e| e.split_once('=')) {
                    s.vars.push((k.to_string(), Word::lit(v)));
                }
            }
            out.push(s);
        }
    }
    out
}

/// The shell text a step runs and the line offset of that text in the file.
fn command(src: &str, step: &Value, step_line: u32) -> Option<(u32, String)> {
    let entrypoint = string(get(step, "entrypoint")).map(str::trim);
    let args: Vec<(u32, &str)> = match get(step, "args") {
        Some(Value::Array(a)) => a
            .items
            .iter()
            .filter_map(|i| Some((i.pos.line, i.value.as_str()?)))
            .collect(),
        _ => Vec::new(),
    };
    let shell = entrypoint.is_some_and(|e| {
        matches!(
            e.rsplit('/').next(),
            Some("bash" | "sh" | "zsh" | "ash" | "dash")
        )
    });
    if shell {
        // `bash -c TEXT` (possibly after `-e`, `-x`, ...).
        let at = args.iter().position(|(_, a)| *a == "-c")?;
        let (line, text) = args.get(at + 1)?;
        return Some((text_offset(src, *line), text.to_string()));
    }
    let image = string(get(step, "name")).unwrap_or("");
    let program = match entrypoint {
        Some(e) => e.to_string(),
        None if image_runs_ytt(image) => "ytt".to_string(),
        None => return None,
    };
    let mut words = vec![program];
    words.extend(args.iter().map(|(_, a)| quoted(a)));
    Some((step_line.saturating_sub(1), words.join(" ")))
}

/// Whether a step's image runs ytt when no entrypoint is given (`.../ytt`, `.../ytt:v0.45`).
fn image_runs_ytt(image: &str) -> bool {
    let last = image.rsplit('/').next().unwrap_or(image);
    let name = last.split([':', '@']).next().unwrap_or(last);
    name == "ytt" || name == "carvel-ytt"
}

/// A word single-quoted for the shell unless it is plain, keeping `$` substitutions readable
/// to the shell walk.
fn quoted(a: &str) -> String {
    let plain = a
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+${}".contains(c));
    if plain && !a.is_empty() {
        a.to_string()
    } else {
        format!("\"{}\"", a.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILD: &str = r#"steps:
- name: gcr.io/cloud-builders/docker
  args: [build, -t, img, .]
- name: builder
  id: deploy
  entrypoint: bash
  args:
  - -c
  - |-
    kapp deploy -a app -y -f <(ytt \
      -f config/ \
      -v image=$_HOST/$PROJECT_ID/app:$$TAG)
- name: example.org/tools/ytt:v0.48.0
  dir: deploy
  args: [-f, config, -v, "greeting=hello world"]
substitutions:
  _HOST: us.gcr.io
"#;

    #[test]
    fn shell_steps_and_ytt_images_with_their_substitutions() {
        let s = snippets("cloudbuild.yaml", BUILD, &|t| t.contains("ytt"));
        assert_eq!(s.len(), 2);
        assert!(s[0].text.starts_with("kapp deploy -a app"));
        assert!(s[0].text.contains(":$TAG)"));
        assert_eq!(s[0].line_offset + 1, 10);
        assert!(s[0]
            .vars
            .iter()
            .any(|(k, v)| k == "_HOST" && v.literal().as_deref() == Some("us.gcr.io")));
        assert!(s[0]
            .vars
            .iter()
            .any(|(k, v)| k == "PROJECT_ID" && v.literal().is_none()));
        assert_eq!(s[1].text, "ytt -f config -v \"greeting=hello world\"");
        assert_eq!(s[1].cwd, Word::lit(format!("{REPO}/deploy")));
        assert_eq!(s[1].line_offset + 1, 13);
    }

    #[test]
    fn names() {
        assert!(candidate("cloudbuild.yaml"));
        assert!(candidate("ci/cloudbuild-prod.yml"));
        assert!(!candidate("build.yaml"));
        assert!(image_runs_ytt("ghcr.io/carvel-dev/ytt@sha256:abc"));
        assert!(!image_runs_ytt("gcr.io/cloud-builders/kubectl"));
    }
}
