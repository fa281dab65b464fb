//! A `ytt` command that reads a file a step of its script renders from a committed template
//! (`envsubst < t.yaml > v.yaml`, `sed … t.tpl > v.yml`, a here-document wrapped around the
//! template and run): the template stands in for the file, under a `changed-at-run-time`
//! assumption that names the rendering, instead of the command being dropped as "made at run
//! time" (round twenty-seven's R27-2), also when the file's name is known only at run time.
//! Each repository is written for the test.

use crate::util::repo::{Lint, Repo};

/// A template that reads two data values; nothing in the repository sets them.
const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: $NAMESPACE\ndata:\n  registry: #@ data.values.registry\n";

fn rendered(script: &str) -> Repo {
    Repo::of(&[
        ("deploy/run.sh", script),
        ("deploy/settings-template.yaml", TEMPLATE),
    ])
}

/// The one warning in the template, as JSON text.
#[track_caller]
fn one_warning_in_template(lint: &Lint) -> String {
    let failed: Vec<_> = lint
        .all_in("deploy/settings-template.yaml")
        .into_iter()
        .filter(|d| d["severity"] == "warning")
        .collect();
    assert_eq!(failed.len(), 1, "{lint}");
    failed[0].to_string()
}

#[test]
fn the_template_envsubst_renders_stands_in_for_the_file_ytt_reads() {
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nenvsubst < settings-template.yaml > settings.yaml\nytt -f settings.yaml | kubectl apply -f -\n";
    let repo = rendered(script);
    let roots = repo.roots();
    assert!(
        roots.contains("settings.yaml=settings-template.yaml")
            || roots.contains("settings-template.yaml"),
        "{roots}"
    );
    let lint = repo.lint();
    // ytt fails whatever `envsubst` fills in: nothing gives `registry`. The command's one
    // input is the rendering's output, so the failure is said with that assumption.
    let text = one_warning_in_template(&lint);
    assert!(text.contains("registry"), "{text}");
    assert!(text.contains("changed-at-run-time"), "{text}");
    assert!(
        text.contains(
            "settings.yaml is rendered from deploy/settings-template.yaml by `envsubst` at deploy/run.sh:3"
        ),
        "{text}"
    );
}

#[test]
fn a_file_made_by_another_tool_still_drops_the_command() {
    // `helm template` writes the file: nothing committed stands in for it.
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nhelm template chart > settings.yaml\nytt -f settings.yaml | kubectl apply -f -\n";
    let repo = rendered(script);
    let lint = repo.lint();
    assert!(!lint.to_string().contains("is rendered from"), "{lint}");
}

#[test]
fn a_template_wrapped_in_a_here_document_the_script_runs_stands_in_too() {
    // The script prints `cat <<EOF >settings.yaml`, the template and `EOF` into a script of
    // its own, runs that, and ytt reads what it wrote.
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\n( echo \"cat <<EOF >settings.yaml\";\n  cat settings-template.yaml\n  echo \"EOF\";\n) > render.sh\n. render.sh\nytt -f settings.yaml | kubectl apply -f -\n";
    let lint = rendered(script).lint();
    let text = one_warning_in_template(&lint);
    assert!(
        text.contains(
            "settings.yaml is rendered from deploy/settings-template.yaml by `here-document` at deploy/run.sh:3"
        ),
        "{text}"
    );
}

#[test]
fn a_rendered_file_whose_name_is_known_only_at_run_time_is_read_from_its_template() {
    // `$ENV` is the user's: no committed file matches `$ENV-settings.yaml`, but the script
    // renders exactly that path before ytt reads it.
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nenvsubst < settings-template.yaml > \"${ENV}-settings.yaml\"\nytt -f \"${ENV}-settings.yaml\" | kubectl apply -f -\n";
    let lint = rendered(script).lint();
    let text = lint.to_string();
    assert!(
        text.contains(
            "-settings.yaml is rendered from deploy/settings-template.yaml by `envsubst`"
        ),
        "{lint}"
    );
    assert!(lint.errors().is_empty(), "{lint}");
}

/// A template with a block scalar that a command's output fills, at column 0 as the shell
/// needs it: as committed, its YAML breaks at the next key.
const FILLED: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  ca.crt: |\n$(awk '{printf \"    %s\\n\", $0}' < \"$CA_CERT_PATH\")\n  registry: #@ data.values.registry\n";

/// The lint of [`FILLED`], rendered and read by `script`.
fn filled(script: &str) -> Lint {
    Repo::of(&[
        ("deploy/run.sh", script),
        ("deploy/settings-template.yaml", FILLED),
    ])
    .lint()
}

#[test]
fn a_line_the_shell_fills_with_a_command_s_output_is_linted_empty() {
    // The shell expands the here-document: `$(awk …)` becomes the indented certificate, so
    // ytt reads valid YAML and fails only on `registry`, which nothing gives.
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\n( echo \"cat <<EOF >settings.yaml\";\n  cat settings-template.yaml\n  echo \"EOF\";\n) > render.sh\n. render.sh\nytt -f settings.yaml | kubectl apply -f -\n";
    let lint = filled(script);
    let text = one_warning_in_template(&lint);
    assert!(text.contains("registry"), "{text}");
    assert!(text.contains("\"line\":10"), "{text}");
    assert!(
        text.contains("a line only a command's output fills, `$(…)`, was linted empty"),
        "{text}"
    );
    assert!(!lint.to_string().contains("yaml-syntax"), "{lint}");
}

#[test]
fn envsubst_leaves_a_command_substitution_as_text() {
    // `envsubst` fills variables only: ytt reads `$(awk …)` at column 0 and its YAML breaks.
    // The line is linted as committed.
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nenvsubst < settings-template.yaml > settings.yaml\nytt -f settings.yaml | kubectl apply -f -\n";
    let lint = filled(script);
    assert!(lint.to_string().contains("yaml-syntax"), "{lint}");
    assert!(!lint.to_string().contains("was linted empty"), "{lint}");
}

#[test]
fn a_quoted_here_document_copies_the_template_as_it_is() {
    // `cat <<'EOF'` expands nothing: ytt reads the template's text, and fails on `registry`,
    // which nothing gives, whatever the environment holds.
    // (A file named as a template or an example would be the user's copy to edit.)
    let script = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\n( echo \"cat <<'EOF' >settings.yaml\";\n  cat base.yaml\n  echo \"EOF\";\n) > render.sh\n. render.sh\nytt -f settings.yaml | kubectl apply -f -\n";
    let lint = Repo::of(&[("deploy/run.sh", script), ("deploy/base.yaml", TEMPLATE)]).lint();
    assert!(!lint.to_string().contains("is rendered from"), "{lint}");
    let errors = lint.errors();
    assert!(
        errors.iter().any(|d| d.to_string().contains("registry")),
        "{lint}"
    );
}
