//! Constructs of round fourteen's first contact (issue 39, docs/precision.md "Round
//! fourteen"): files an App Accelerator rewrites before ytt reads them, and the commands of
//! npm's `package.json`, Google Cloud Build and Terraform's Carvel provider. Each is a general
//! rule shown on a minimal repository written for it under `fixtures/round-fourteen/`.

use crate::util::json::{assumption_kinds, assumption_text, str_of};
use crate::util::repo::{Lint, Repo};

/// The roots of the report as `(path, provenance source, provenance origin)`.
fn roots(lint: &Lint) -> Vec<(String, String, String)> {
    lint.report["roots"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|r| {
                    let p = &r["provenance"];
                    (
                        str_of(r, "path").to_string(),
                        p["source"].as_str().unwrap_or("").to_string(),
                        p["origin"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The accelerator of the fixture with only its `#withCache` branch (which keeps the text
/// between the markers and removes the marker lines alone).
fn one_branch(text: &str) -> String {
    let cut = text
        .find("  - include: [ \"config/*.yaml\" ]\n    condition: \"!#withCache\"")
        .unwrap_or(text.len());
    text[..cut].to_string()
}

#[test]
fn lines_an_accelerator_removes_in_every_project_are_not_what_ytt_reads() {
    // R14A-1: `# BeginCache` / `# EndCache` are removed by one of the two branches of the
    // option whatever the user picks: ytt never sees them, no finding.
    let dir = Repo::copy_of("round-fourteen/accelerator");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("unknown-comment").is_empty(), "{lint}");

    // Only the branch that keeps the cache section: its pattern removes the marker lines, but
    // without the other branch a project generated with the option off is not known to lose
    // them: the finding assumes the stored text, a warning naming the transform.
    let text = std::fs::read_to_string(dir.join("accelerator.yaml")).unwrap_or_default();
    dir.write("accelerator.yaml", one_branch(&text));
    let lint = dir.lint();
    let found = lint.of("unknown-comment");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    assert_eq!(
        assumption_kinds(found[0]),
        ["changed-at-run-time"],
        "{:#}",
        found[0]
    );
    let said = assumption_text(found[0]);
    assert!(
        said.contains("ReplaceText at accelerator.yaml:16") && said.contains("rewrites line 9"),
        "{said}"
    );
    assert_eq!(lint.code, 0, "{lint}");

    // A marker no pattern matches stays ytt's certain error, and so does every marker once the
    // accelerator is gone.
    let service = std::fs::read_to_string(dir.join("config/service.yaml")).unwrap_or_default();
    dir.write(
        "config/service.yaml",
        service.replace("# BeginCache", "# StartCache"),
    );
    dir.write("accelerator.yaml", &text);
    let lint = dir.lint();
    let found = lint.of("unknown-comment");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{:#}", found[0]);
    assert_eq!(lint.code, 1);
    std::fs::remove_file(dir.join("accelerator.yaml")).unwrap_or_default();
    dir.write("config/service.yaml", &service);
    let lint = dir.lint();
    assert_eq!(lint.of("unknown-comment").len(), 1, "{lint}");
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn a_package_json_script_that_runs_ytt_is_the_repository_s_command() {
    // R14B-1: `npm run render` gives the helpers' directory, whose file the template loads by
    // its name there: the render passes, and the layout's `ytt -f .` is not guessed.
    let dir = Repo::copy_of("round-fourteen/npm-script");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.diagnostics().is_empty(), "{lint}");
    assert_eq!(
        roots(&lint),
        [(
            "site.tpl.yml + parts".to_string(),
            "script".to_string(),
            "package.json:5".to_string()
        )],
        "{lint}"
    );

    // Without the package.json nothing says how the files are rendered.
    std::fs::remove_file(dir.join("package.json")).unwrap_or_default();
    let lint = dir.lint();
    assert_eq!(lint.of("load-error").len(), 1, "{lint}");
}

#[test]
fn a_cloud_build_step_is_a_ci_command_with_its_values() {
    // Round fourteen's cwlbraa/luanerizer: the step's `-v canary.enabled=true` makes the
    // branch run; the substitutions are values known at run time.
    let dir = Repo::copy_of("round-fourteen/cloud-build");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("branch-never-evaluated").is_empty(), "{lint}");
    let r = roots(&lint);
    assert!(
        r.iter()
            .any(|(p, s, o)| p == "config" && s == "ci" && o == "cloudbuild.yaml:11"),
        "{r:?}"
    );

    // Without it the root is the layout's, and the branch is never true.
    std::fs::remove_file(dir.join("cloudbuild.yaml")).unwrap_or_default();
    let lint = dir.lint();
    assert_eq!(lint.of("branch-never-evaluated").len(), 1, "{lint}");
}

#[test]
fn a_terraform_carvel_ytt_block_is_a_command_with_its_files_and_values() {
    // Round fourteen's cloudfoundry repositories: the block renders both directories
    // together with the values it passes, from the directory of its `.tf` file (assumed).
    let dir = Repo::copy_of("round-fourteen/terraform");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    let r = roots(&lint);
    assert!(
        r.iter()
            .any(|(_, s, o)| s == "script" && o == "deploy/main.tf:5"),
        "{r:?}"
    );
    let assumed = lint.report["roots"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|r| r["provenance"].to_string())
                .collect::<String>()
        })
        .unwrap_or_default();
    assert!(assumed.contains("working-directory"), "{assumed}");

    // Without the block each directory is a root of its own, and the app's load fails.
    std::fs::remove_file(dir.join("deploy/main.tf")).unwrap_or_default();
    let lint = dir.lint();
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
}
