//! Constructs of round eight's first contact (issue 39, docs/precision.md) that the linter
//! misread, each as a general rule on a minimal repository written for the test.

use crate::util::repo::Repo;

/// A module that fails with the linter's placeholder for a value given at run time, loaded
/// by a template named `template`.
fn loaded_module_repo(template: &str) -> Repo {
    Repo::of(&[
        (
            "bin/render",
            "#!/bin/bash\nytt --data-value-file cfg=inputs/${1}/cfg.yml -f templates\n",
        ),
        ("templates/values.yml", "#@data/values\n---\ncfg: \"\"\n"),
        (
            "templates/cfg.star",
            "load(\"@ytt:data\", \"data\")\nload(\"@ytt:yaml\", \"yaml\")\ncfg = yaml.decode(data.values.cfg)\nname = cfg.get(\"name\", \"x\")\n",
        ),
        (
            template,
            "#@ load(\"cfg.star\", \"name\")\n---\nname: #@ name\n",
        ),
    ])
}

#[test]
fn a_placeholder_failure_is_needs_input_whichever_file_loads_the_module_first() {
    // `a.yml` sorts before `cfg.star` (ytt reports the failure as a failed load at the
    // template's `load`), `z.yml` after it (at the module's own line).
    for template in ["templates/a.yml", "templates/z.yml"] {
        let dir = loaded_module_repo(template);
        let lint = dir.lint();
        assert_eq!(lint.code, 0, "{template}: {lint}");
        assert!(lint.of("load-error").is_empty(), "{template}: {lint}");
        assert!(lint.of("template-error").is_empty(), "{template}: {lint}");
        let needs = lint.of("needs-input");
        assert_eq!(needs.len(), 1, "{template}: {lint}");
        let message = needs[0]["message"].as_str().unwrap_or("");
        assert!(
            message.ends_with("string has no .get field or method"),
            "{template}: {message}"
        );
    }
}

#[test]
fn a_module_that_fails_in_a_certain_command_is_still_a_load_error() {
    let lint = Repo::of(&[
        (
            "deploy.sh",
            "#!/bin/sh\nytt -f config | kubectl apply -f -\n",
        ),
        ("config/values.yml", "#@data/values\n---\nname: app\n"),
        (
            "config/lib.star",
            "def port():\n  return 1 + \"1\"\nend\nP = port()\n",
        ),
        (
            "config/a.yml",
            "#@ load(\"lib.star\", \"P\")\n---\nport: #@ P\n",
        ),
    ])
    .lint();
    assert_eq!(lint.code, 1, "{lint}");
    let loads = lint.of("load-error");
    assert_eq!(loads.len(), 1, "{lint}");
    assert_eq!(loads[0]["severity"], "error");
}
