//! A Katacoda scenario (round fifty-three's N53-1): `index.json` copies the asset
//! `assets/kpack-builder.yaml` to `/root/template-with-ytt/`, and the intro's script, run in
//! `/root`, renders `template-with-ytt/kpack-builder.yaml` with the value it gives. ytt
//! (4b40e30) renders the asset with that value (exit 0).

use crate::util::repo::Repo;

const INDEX: &str = "{\n  \"title\": \"Templates with ytt\",\n  \"details\": {\n    \"steps\": [{\"title\": \"Render\", \"text\": \"step1.md\"}],\n    \"intro\": {\"text\": \"intro.md\", \"code\": \"foreground.sh\"},\n    \"assets\": {\"host01\": [{\"file\": \"kpack-builder.yaml\", \"target\": \"/root/template-with-ytt/\"}]}\n  }\n}\n";

const SCRIPT: &str = "#!/bin/bash\nytt -f template-with-ytt/kpack-builder.yaml --data-value registry.server=index.docker.io --output-files kpack-setup\n";

fn asset(read: &str) -> String {
    format!("#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: builder\ndata:\n  tag: #@ data.values.{read} + \"/builder\"\n")
}

#[test]
fn a_scenario_s_script_renders_the_asset_index_json_copies() {
    let repo = Repo::of(&[
        ("sc/index.json", INDEX),
        ("sc/foreground.sh", SCRIPT),
        ("sc/intro.md", "# Intro\n"),
        ("sc/assets/kpack-builder.yaml", &asset("registry.server")),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("sc/foreground.sh:2"), "{roots}");
    assert!(!roots.contains("skipped"), "{roots}");
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
    // A read of a value the script does not give is ytt's error, at the asset's line.
    repo.write("sc/assets/kpack-builder.yaml", asset("registry.port"));
    let lint = repo.lint();
    let found = lint.in_file("template-error", "sc/assets/kpack-builder.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
}
