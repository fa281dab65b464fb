//! Jenkins pipelines kept under names of their own (`pipeline-steps/02-deploy-test`, a job
//! definition's `scriptPath` without the `Jenkinsfile` name), known by their text: after
//! comments, `#!groovy`, `import` lines and `@Library(…)` annotations, the first code is
//! `pipeline {` (a declarative pipeline) or `node {` / `node('label') {` (a scripted one), and
//! the text has an `sh` step. Only a file with no extension is judged so (a file with one is
//! what its extension says), and only its first lines are looked at.

/// How many lines are skipped looking for the pipeline's first code.
const MAX_LEAD: usize = 200;

/// Whether a repository file with text `text` is a Jenkins pipeline by its text.
pub fn is_pipeline(path: &str, text: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.contains('.') || (text.starts_with("#!") && !text.starts_with("#!groovy")) {
        return false;
    }
    let mut in_comment = false;
    for line in text.lines().take(MAX_LEAD) {
        let t = line.trim();
        if in_comment {
            in_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with("/*") {
            in_comment = !t.contains("*/");
            continue;
        }
        if t.is_empty()
            || t.starts_with("//")
            || t.starts_with("#!")
            || t.starts_with("import ")
            || t.starts_with('@')
            || t == "_"
        {
            continue;
        }
        return opens_pipeline(t) && has_sh_step(text);
    }
    false
}

/// Whether a line opens a declarative (`pipeline {`) or scripted (`node {`, `node('x') {`,
/// `node("x") {`) pipeline.
fn opens_pipeline(line: &str) -> bool {
    let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.starts_with("pipeline{") {
        return true;
    }
    let Some(rest) = compact.strip_prefix("node") else {
        return false;
    };
    if rest.starts_with('{') {
        return true;
    }
    rest.strip_prefix('(')
        .and_then(|r| r.find("){").map(|at| &r[..at]))
        .is_some_and(|label| !label.contains(['(', ')', ';']))
}

/// Whether the text has an `sh` step: `sh '…'`, `sh "…"`, `sh '''…'''`, `sh(…)`.
fn has_sh_step(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        t.strip_prefix("sh")
            .is_some_and(|r| r.trim_start().starts_with(['\'', '"', '(']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines_by_their_text() {
        let declarative = "pipeline {\n  agent any\n  stages {\n    stage('x') {\n      steps {\n        sh '''\n          ytt -f k8s\n        '''\n      }\n    }\n  }\n}\n";
        assert!(is_pipeline("pipeline-steps/02-deploy", declarative));
        let scripted =
            "#!groovy\n// Deploys\n@Library('shared') _\nnode('linux') {\n  sh \"ytt -f k8s\"\n}\n";
        assert!(is_pipeline("ci/deploy", scripted));
        assert!(is_pipeline(
            "ci/deploy",
            "/* a\n comment */\nnode {\n  sh(script: 'ytt -f .')\n}\n"
        ));
        // A file with an extension is what its extension says.
        assert!(!is_pipeline("ci/deploy.txt", declarative));
        // A shell script, and a pipeline with no shell step.
        assert!(!is_pipeline("deploy", "#!/bin/sh\npipeline {\nsh 'x'\n}\n"));
        assert!(!is_pipeline("deploy", "pipeline {\n  agent any\n}\n"));
        // Prose that mentions a pipeline is no pipeline.
        assert!(!is_pipeline("NOTES", "The pipeline { runs }\nsh 'x'\n"));
        assert!(!is_pipeline("NOTES", "node(a(b)) {\nsh 'x'\n"));
    }
}
