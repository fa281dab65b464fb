//! Session twenty-seven's fixes of pages and container images, each on a minimal repository
//! written for the test: a script a Dockerfile copies into its image renders the templates the
//! same Dockerfile copies, at their image paths (R45-1, N45-1); a code fence left open runs to
//! the page's end (N41-1); a CONTRIBUTING.md's commands are read as a README's (N43-2).

use crate::util::repo::Repo;

const SCHEMA: &str = "#@data/values-schema\n---\nsvc:\n  #@schema/type any=True\n  owner:\n  #@schema/type any=True\n  tier:\n";
const LABELS: &str = "#@ def full_name(svc):\n#@   return svc.owner + \".\" + svc.tier\n#@ end\n";
const SECRET: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"labels.lib.yaml\", \"full_name\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: #@ full_name(data.values.svc)\nstringData:\n  token: x\n";

/// An image whose entry script writes the data values into the copied templates' folder and
/// renders it there; `copy_templates` is the Dockerfile's copy of them.
fn imaged(copy_templates: &str) -> Repo {
    let dockerfile = format!(
        "FROM debian:bookworm-slim\nRUN apt-get update && apt-get install -y curl\nCOPY entrypoint.sh /bin/render-and-apply\n{copy_templates}\nENTRYPOINT [\"/bin/render-and-apply\"]\n"
    );
    let entry = "#!/usr/bin/env bash\nset -euo pipefail\ncat > /srv/render/config/values.yml <<VALUES\n#@data/values\n---\nsvc:\n  owner: ${OWNER}\n  tier: ${TIER}\nVALUES\nytt -f /srv/render/config/ > /tmp/out.yaml\nkubectl apply -f /tmp/out.yaml\n";
    Repo::of(&[
        ("deploy/image/Dockerfile", &dockerfile),
        ("deploy/image/entrypoint.sh", entry),
        ("deploy/image/config/schema.yml", SCHEMA),
        ("deploy/image/config/labels.lib.yaml", LABELS),
        ("deploy/image/config/secret.yml", SECRET),
    ])
}

#[test]
fn an_image_s_entry_script_renders_the_templates_its_dockerfile_copies() {
    let repo = imaged("COPY config /srv/render/config");
    let lint = repo.lint();
    // The script's here-document gives the values: nothing fails.
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    let roots = repo.roots();
    assert!(roots.contains("deploy/image/entrypoint.sh:10"), "{roots}");
    assert!(
        !roots.contains("skipped: deploy/image/entrypoint.sh"),
        "{roots}"
    );
}

#[test]
fn without_the_copy_the_image_s_paths_stay_outside_and_the_layout_root_is_guessed() {
    let repo = imaged("COPY other /srv/render/config");
    let lint = repo.lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(failed[0]["severity"], "warning", "{lint}");
    repo.assert_lists("is outside the repository");
}

#[test]
fn an_entry_script_s_flags_from_the_environment_set_the_copied_file_s_values() {
    let agent = "#@ load(\"@ytt:data\", \"data\")\nreceivers:\n  #@ if data.values.traces_off != True:\n  otlp:\n    port: 4317\n  #@ end\nexporter:\n  url: #@ data.values.collector or \"https://collector.example.invalid\"\n";
    let entry = "#!/bin/sh\nCONFIG=\"$(ytt -f /etc/collector/config.yaml \\\n  --data-value-yaml traces_off=${TRACES_OFF:-false} \\\n  --data-value collector=$COLLECTOR)\"\nexec /collector --config=\"$CONFIG\"\n";
    let dockerfile = "FROM alpine:3.20\nCOPY ./run.sh /run.sh\nCOPY ./collector.yaml /etc/collector/config.yaml\nCMD sh /run.sh\n";
    let repo = Repo::of(&[
        ("Dockerfile", dockerfile),
        ("run.sh", entry),
        ("collector.yaml", agent),
    ]);
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
    let roots = repo.roots();
    assert!(roots.contains("run.sh:2"), "{roots}");
}

const CM: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.app\n";
const VALUES: &str = "#@data/values\n---\napp: shop\n";

#[test]
fn a_fence_left_open_runs_to_the_page_s_end() {
    let readme = "# shop\n\n## Deploy\n```\n$ ytt -f . | kapp deploy -a shop -f- -y\n$ kapp inspect -a shop\n";
    let repo = Repo::of(&[
        ("README.md", readme),
        ("k8s/cm.yaml", CM),
        ("values.yaml", VALUES),
    ]);
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    repo.assert_lists("README.md:5");
}

#[test]
fn a_contributing_page_s_commands_are_read() {
    let page = "# Contributing\n\n## Local cluster\n\n1. Render the test builder:\n   ```shell\n   ytt -v app=builder-dev -f dev/cm.yaml | kubectl apply -f -\n   ```\n";
    let repo = Repo::of(&[("CONTRIBUTING.md", page), ("dev/cm.yaml", CM)]);
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    repo.assert_lists("CONTRIBUTING.md:7");
}

#[test]
fn a_script_s_paths_are_the_folders_a_page_s_docker_run_mounts() {
    let page = "# Bootstrap\n\n```sh\ndocker run --rm -v \"$(pwd)/values:/opt/values\" \\\n  -v \"$(pwd)/bin:/opt/bin\" -v \"$(pwd)/apps:/opt/apps\" bootstrap:1 setup\n```\n\nThe image runs `/opt/bin/setup.sh`.\n";
    let setup = "#!/bin/bash\nset -e\nif [ \"$1\" = setup ]; then\n  ytt -f /opt/values/shared.yaml -f /opt/apps/shop/cm.yaml | kubectl apply -f -\nfi\n";
    let repo = Repo::of(&[
        ("README.md", page),
        ("bin/setup.sh", setup),
        ("values/shared.yaml", VALUES),
        ("apps/shop/cm.yaml", CM),
    ]);
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
    let roots = repo.roots();
    assert!(roots.contains("bin/setup.sh:4"), "{roots}");
    assert!(!roots.contains("skipped"), "{roots}");
}

const PATCH: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"PackageInstall\", \"metadata\": {\"name\": \"shop\"}})\n---\nspec:\n  #@overlay/match missing_ok=True\n  paused: false\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop-patch\n  namespace: apps\ndata:\n  note: patched\n";

#[test]
fn a_command_runs_from_the_folder_its_heading_names_when_only_that_folder_holds_its_file() {
    let readme = "# Customizations\n\n## Ingress_Patches\n\nOnce the package is installed, patch its PackageInstall:\n\n```\nkubectl get packageinstall -n apps shop -o yaml | ytt -f pi-patch.yaml --file - | kubectl apply -f -\n```\n";
    let repo = Repo::of(&[
        ("README.md", readme),
        ("Ingress_Patches/pi-patch.yaml", PATCH),
    ]);
    let lint = repo.lint();
    // The overlay's match is the document on standard input: nothing certain, nothing guessed.
    assert!(lint.errors().is_empty(), "{lint}");
    assert!(
        lint.diagnostics().iter().all(|d| d["severity"] == "info"),
        "{lint}"
    );
    let roots = repo.roots();
    assert!(roots.contains("README.md:8"), "{roots}");
    assert!(!roots.contains("skipped"), "{roots}");
}

#[test]
fn a_block_s_cd_into_the_folder_its_heading_names_is_one_step() {
    let page = "# Variants\n\n### plain/\nThe plain variant.\n\n```bash\ncd plain\nytt -f . -v app=web\n```\n";
    let repo = Repo::of(&[
        ("variants/README.md", page),
        ("variants/plain/cm.yaml", CM),
        ("variants/plain/values.yaml", VALUES),
    ]);
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
    let roots = repo.roots();
    assert!(roots.contains("variants/README.md:8"), "{roots}");
    assert!(!roots.contains("skipped"), "{roots}");
}
