//! CI files: the `run:` steps of GitHub workflows (`.github/workflows/*.yml`, with
//! `working-directory` and `env` of the workflow, job and step; `${{ ... }}` is known only at
//! run time) and of local composite actions (`.github/actions/<name>/action.yml`) and the `script:`, `before_script:` and `after_script:` lists of GitLab CI jobs
//! (`.gitlab-ci.yml` and `*.gitlab-ci.yml`, with `variables:`), each run from the repository
//! root.

use super::snippet::{substitute, Snippet};
use super::word::{Word, REPO};
use crate::lint::repo::yaml_doc::{documents, entries, entry, get, items, string, text_offset};
use crate::yaml::Value;

/// Whether a repository file is a GitHub workflow.
pub fn is_workflow(path: &str) -> bool {
    path.starts_with(".github/workflows/") && (path.ends_with(".yml") || path.ends_with(".yaml"))
}

/// Whether a repository file is a local GitHub action (`.github/actions/<name>/action.yml`).
pub fn is_action(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.starts_with(".github/") && (name == "action.yml" || name == "action.yaml")
}

/// Whether a repository file is a GitLab CI file.
pub fn is_gitlab(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == ".gitlab-ci.yml" || name.ends_with(".gitlab-ci.yml") || path.starts_with(".gitlab/ci/")
}

fn dir_word(dir: Option<&str>) -> Word {
    match dir.map(|d| d.trim_start_matches("./").trim_end_matches('/')) {
        None | Some("") | Some(".") => Word::lit(REPO),
        Some(d) => Word::lit(format!("{REPO}/{d}")),
    }
}

/// The variable a CI runner sets to the checkout's directory (`$GITHUB_WORKSPACE`,
/// `$CI_PROJECT_DIR`), bound to the repository's top, where its steps run: a path under it is
/// the repository's whatever directory a step `cd`s into first (round twenty-eight's R28-3).
/// Nothing when a checkout step puts the repository elsewhere (`moved`).
fn workspace(name: &str, moved: bool) -> Vec<(String, Word)> {
    if moved {
        return Vec::new();
    }
    vec![(name.to_string(), Word::lit(REPO))]
}

/// Whether a job checks the repository out below the workspace (`actions/checkout` with
/// `path:`), so that `$GITHUB_WORKSPACE` is not its top.
pub(super) fn moved_checkout(job: &Value) -> bool {
    items(get(job, "steps")).into_iter().any(|step| {
        string(get(step, "uses")).is_some_and(|u| u.starts_with("actions/checkout"))
            && get(step, "with").and_then(|w| get(w, "path")).is_some()
    })
}

/// Known `env:` / `variables:` values of a map (those without run-time expressions).
fn known_vars(v: Option<&Value>, out: &mut Vec<(String, Word)>) {
    for item in entries(v) {
        let key = crate::yaml::scalar_key_string(&item.key);
        let value = match &item.value {
            Value::String(s) if !s.contains("${{") => Word::lit(s.clone()),
            Value::Map(m) => match m
                .items
                .iter()
                .find(|i| crate::yaml::scalar_key_string(&i.key) == "value")
            {
                Some(i) => match &i.value {
                    Value::String(s) => Word::lit(s.clone()),
                    _ => Word::unknown(format!("${key}")),
                },
                None => Word::unknown(format!("${key}")),
            },
            Value::Int(i) => Word::lit(i.to_string()),
            Value::Bool(b) => Word::lit(b.to_string()),
            _ => Word::unknown(format!("${key}")),
        };
        out.retain(|(k, _)| *k != key);
        out.push((key, value));
    }
}

/// The `run:` steps of a workflow that `mentions` says may run ytt.
pub fn workflow(path: &str, src: &str, mentions: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    workflow_with(path, src, mentions, &|_| None)
}

/// [`workflow`], with the values `expression` knows for some `${{ ... }}` expressions (a
/// reusable workflow's `inputs.X` from its caller's `with:`, see `reusable.rs`).
pub fn workflow_with(
    path: &str,
    src: &str,
    mentions: &dyn Fn(&str) -> bool,
    expression: &dyn Fn(&str) -> Option<String>,
) -> Vec<Snippet> {
    let mut out = Vec::new();
    for doc in documents(path, src) {
        let wf = &doc.value;
        let wf_dir = string(
            get(wf, "defaults")
                .and_then(|d| get(d, "run"))
                .and_then(|r| get(r, "working-directory")),
        );
        let mut wf_env = Vec::new();
        known_vars(get(wf, "env"), &mut wf_env);
        for job in entries(get(wf, "jobs")) {
            let j = &job.value;
            let job_dir = string(
                get(j, "defaults")
                    .and_then(|d| get(d, "run"))
                    .and_then(|r| get(r, "working-directory")),
            );
            let mut job_env = workspace("GITHUB_WORKSPACE", moved_checkout(j));
            job_env.extend(wf_env.iter().cloned());
            known_vars(get(j, "env"), &mut job_env);
            let within = Within {
                env: &job_env,
                dir: job_dir.or(wf_dir),
                mentions,
                expression,
            };
            steps(path, src, get(j, "steps"), &within, &mut out);
        }
    }
    out
}

/// The `run:` steps of a local composite action (`.github/actions/<name>/action.yml`, used
/// by a workflow as `uses: ./.github/actions/<name>`) that `mentions` says may run ytt. Its
/// steps run from the workspace, the repository root (unless the caller's checkout `moved`
/// it); `expression` gives the `${{ ... }}` its caller binds (see `action_calls.rs`), the
/// others are known at run time.
pub fn action(
    path: &str,
    src: &str,
    mentions: &dyn Fn(&str) -> bool,
    moved: bool,
    expression: &dyn Fn(&str) -> Option<String>,
) -> Vec<Snippet> {
    let mut out = Vec::new();
    for doc in documents(path, src) {
        let runs = get(&doc.value, "runs");
        if string(runs.and_then(|r| get(r, "using"))) != Some("composite") {
            continue;
        }
        let steps_of = runs.and_then(|r| get(r, "steps"));
        // Called after the caller's checkout: without a caller's word, the common one, at
        // the workspace's top.
        let env = workspace("GITHUB_WORKSPACE", moved);
        let within = Within {
            env: &env,
            dir: None,
            mentions,
            expression,
        };
        steps(path, src, steps_of, &within, &mut out);
    }
    out
}

/// What the steps of a job or composite action run within.
struct Within<'a> {
    env: &'a [(String, Word)],
    dir: Option<&'a str>,
    mentions: &'a dyn Fn(&str) -> bool,
    /// The known values of `${{ ... }}` expressions (by their text, trimmed).
    expression: &'a dyn Fn(&str) -> Option<String>,
}

/// The snippets of the `run:` steps of a job or composite action.
fn steps(path: &str, src: &str, list: Option<&Value>, within: &Within, out: &mut Vec<Snippet>) {
    let (env, dir, mentions) = (within.env, within.dir, within.mentions);
    for step in items(list) {
        let Some(run) = entry(step, "run") else {
            continue;
        };
        let Some(text) = run.value.as_str() else {
            continue;
        };
        if !mentions(text) {
            continue;
        }
        let dir = string(get(step, "working-directory")).or(dir);
        let mut vars = env.to_vec();
        known_vars(get(step, "env"), &mut vars);
        let marked = substitute(text, "${{", "}}", within.expression);
        let mut s = marked.into_snippet(path, text_offset(src, run.pos.line), dir_word(dir));
        s.vars.extend(vars);
        out.push(s);
    }
}

/// Keys of a GitLab CI file that are not jobs.
const GITLAB_GLOBAL: [&str; 9] = [
    "stages",
    "variables",
    "include",
    "workflow",
    "image",
    "services",
    "cache",
    "before_script",
    "after_script",
];

/// The script lists of a GitLab CI file's jobs (and of `default:`) that `mentions` says may
/// run ytt.
pub fn gitlab(path: &str, src: &str, mentions: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let mut out = Vec::new();
    for doc in documents(path, src) {
        let mut globals = workspace("CI_PROJECT_DIR", false);
        known_vars(get(&doc.value, "variables"), &mut globals);
        for job in entries(Some(&doc.value)) {
            let name = crate::yaml::scalar_key_string(&job.key);
            if GITLAB_GLOBAL.contains(&name.as_str()) {
                continue;
            }
            let mut vars = globals.clone();
            known_vars(get(&job.value, "variables"), &mut vars);
            for key in ["before_script", "script", "after_script"] {
                let Some(list) = entry(&job.value, key) else {
                    continue;
                };
                for (line, text) in script_lines(list) {
                    if !mentions(&text) {
                        continue;
                    }
                    let mut s = Snippet::new(path, text_offset(src, line), text, Word::lit(REPO));
                    s.vars = vars.clone();
                    out.push(s);
                }
            }
        }
    }
    out
}

/// The commands of a `script:` entry: a string, or a list of strings and nested lists.
fn script_lines(item: &crate::yaml::MapItem) -> Vec<(u32, String)> {
    fn walk(v: &Value, line: u32, out: &mut Vec<(u32, String)>) {
        match v {
            Value::String(s) => out.push((line, s.clone())),
            Value::Array(a) => {
                for i in &a.items {
                    walk(&i.value, i.pos.line, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&item.value, item.pos.line, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_steps_with_directories_and_expressions() {
        let src = "on: push\njobs:\n  lint:\n    defaults:\n      run:\n        working-directory: deploy\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          ytt -f config -v v=${{ github.sha }}\n        env:\n          MODE: prod\n";
        let s = workflow(".github/workflows/ci.yml", src, &|t| t.contains("ytt"));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line_offset, 9);
        assert_eq!(s[0].cwd.to_string(), "deploy");
        assert!(s[0].text.starts_with("ytt -f config -v v=${__yttlint_0}"));
        assert!(s[0]
            .vars
            .iter()
            .any(|(k, v)| k == "MODE" && v.literal().as_deref() == Some("prod")));
    }

    #[test]
    fn composite_action_steps() {
        assert!(is_action(".github/actions/render/action.yml"));
        assert!(!is_action("deploy/action.yml"));
        let src = "name: r\nruns:\n  using: composite\n  steps:\n  - shell: bash\n    run: ytt -f config\n  - uses: actions/checkout@v4\n";
        let found = action(
            ".github/actions/r/action.yml",
            src,
            &|t| t.contains("ytt"),
            false,
            &|_| None,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line_offset, 5);
        let docker = src.replace("composite", "docker");
        assert!(action(
            ".github/actions/r/action.yml",
            &docker,
            &|_| true,
            false,
            &|_| None
        )
        .is_empty());
    }

    #[test]
    fn gitlab_script_lists() {
        let src = "variables:\n  CONFIG: config\nstages: [test]\nlint:\n  script:\n    - echo hi\n    - ytt -f $CONFIG > /dev/null\n";
        let s = gitlab(".gitlab-ci.yml", src, &|t| t.contains("ytt"));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line_offset, 6);
        assert!(s[0].vars.iter().any(|(k, _)| k == "CONFIG"));
    }
}
