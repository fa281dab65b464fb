//! Fixes of session twenty-seven's shell-script helper, each on a minimal repository written
//! for the test: a loop over globs after `shopt -s nullglob` has no entry for a glob that
//! matches nothing, so no `input-missing` for it (R42-2), while without the option bash
//! passes the glob as written and ytt fails on it; a `cd` back to a directory saved with
//! `$(pwd)` inside a branch leaves the script where it was, so its later command is the
//! script's (N43-1). A committed template `envsubst` renders into the values file a script
//! reads is named by a layout root's finding that rests on its placeholder (R43-1), and a
//! file `sed` renders into the folder a command reads is read from its template when the
//! rules leave a placeholder in it (R37-4).

use crate::util::repo::Repo;

const SETTINGS: &str = "#! shared settings\n---\nregion: eu\n";
const SITE: &str = "---\nname: site-a\n";

fn settings_repo(script: &str) -> Repo {
    Repo::of(&[
        ("build.sh", script),
        ("conf/common.yml", SETTINGS),
        ("conf/site/site.yml", SITE),
    ])
}

const LOOP: &str = "mkdir -p out\nfor f in conf/*.yml conf/*.yaml conf/site/*.yml conf/site/*.yaml; do\n  ytt -f \"$f\" -o json > \"out/$(basename \"$f\").json\"\ndone\n";

#[test]
fn under_nullglob_a_glob_that_matches_nothing_is_no_entry_of_the_loop() {
    let script = format!("#!/bin/bash\n# every settings file as JSON\nshopt -s nullglob\n{LOOP}");
    let repo = settings_repo(&script);
    let lint = repo.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    // The entries that exist are still rendered one by one.
    let roots = repo.roots();
    assert!(
        roots.contains("conf/common.yml\trun by build.sh:6"),
        "{roots}"
    );
    assert!(
        roots.contains("conf/site/site.yml\trun by build.sh:6"),
        "{roots}"
    );
}

#[test]
fn without_nullglob_the_unmatched_glob_is_passed_as_written_and_missing() {
    let script = format!("#!/bin/bash\n# every settings file as JSON\n{LOOP}");
    let lint = settings_repo(&script).lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 2, "{lint}");
    let text = lint.to_string();
    assert!(
        text.contains("conf/*.yaml") && text.contains("conf/site/*.yaml"),
        "{text}"
    );
}

#[test]
fn nullglob_set_in_a_sourced_file_and_taken_back() {
    // Set by a file the script sources: it holds for the loop after it.
    let lib = "#!/bin/bash\nshopt -s nullglob\n";
    let script = format!("#!/bin/bash\nsource ./lib.sh\n{LOOP}");
    let repo = Repo::of(&[
        ("build.sh", script.as_str()),
        ("lib.sh", lib),
        ("conf/common.yml", SETTINGS),
        ("conf/site/site.yml", SITE),
    ]);
    assert!(
        repo.lint().of("input-missing").is_empty(),
        "{}",
        repo.lint()
    );
    // `shopt -u` takes it back before the loop.
    let script = format!("#!/bin/bash\nshopt -s nullglob\nshopt -u nullglob\n{LOOP}");
    assert_eq!(settings_repo(&script).lint().of("input-missing").len(), 2);
}

#[test]
fn zsh_s_setopt_nullglob_drops_the_glob_too() {
    let script = format!("#!/usr/bin/env zsh\nsetopt null_glob\n{LOOP}");
    let lint = settings_repo(&script).lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

const INSTANCE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\n";

#[test]
fn a_cd_back_to_the_saved_pwd_keeps_the_script_s_command() {
    let script = "#!/bin/bash\nname=\"demo\"\noffline=1\nwhile [ $# -gt 0 ]; do declare ${1/--/}=\"$2\"; shift; shift; done\nif [ $offline -eq 1 ]; then\n  saved=$(pwd)\n  cd $unpack_dir\n  tar xzf bundle.tgz\n  cd $saved\nfi\nytt -f instance.yaml --data-value-yaml name=$name | kubectl apply -f-\n";
    let repo = Repo::of(&[("install.sh", script), ("instance.yaml", INSTANCE)]);
    let roots = repo.roots();
    assert!(
        roots.contains("instance.yaml\trun by install.sh:11"),
        "{roots}"
    );
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
}

const PROXY: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: projectcontour.io/v1\nkind: HTTPProxy\nmetadata:\n  name: web\nspec:\n  virtualhost:\n    fqdn: #@ \"web.\" + data.values.domain\n  routes:\n  - services:\n    - name: web\n      port: 80\n";
const SERVICE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  domain: #@ data.values.domain\n";
const VALUES_TEMPLATE: &str = "#@data/values\n---\ndomain: $APP_DOMAIN\n";

fn envsubst_repo(deploy: &str) -> Repo {
    Repo::of(&[
        (".gitignore", "values.yaml\n"),
        ("deploy.sh", deploy),
        ("values-template.yaml", VALUES_TEMPLATE),
        ("app/service.yaml", SERVICE),
        ("proxy.yaml", PROXY),
    ])
}

#[test]
fn a_schema_check_of_an_envsubst_template_s_placeholder_names_the_rendering() {
    let deploy = "#!/bin/bash\n# renders the values from the template, then the app\nenvsubst < values-template.yaml > values.yaml\nytt -f app/service.yaml -f values.yaml | kubectl apply -f -\n";
    let lint = envsubst_repo(deploy).lint();
    let schema = lint.in_file("k8s-schema", "proxy.yaml");
    assert_eq!(schema.len(), 1, "{lint}");
    // The rendering fills `$APP_DOMAIN` in before ytt reads it: the check of its text is a
    // note (thirty-seventh session).
    assert_eq!(schema[0]["severity"], "info", "{lint}");
    let text = schema[0].to_string();
    assert!(
        text.contains("`web.$APP_DOMAIN` is placeholder text that ytt never reads"),
        "{text}"
    );
    assert!(
        text.contains("values-template.yaml is a template: `envsubst` at deploy.sh:3 renders it into values.yaml"),
        "{text}"
    );
    assert!(text.contains("changed-at-run-time"), "{text}");
}

#[test]
fn without_the_rendering_the_schema_check_names_only_the_inferred_command() {
    let deploy = "#!/bin/bash\nkubectl apply -f app/\n";
    let lint = envsubst_repo(deploy).lint();
    let schema = lint.in_file("k8s-schema", "proxy.yaml");
    assert_eq!(schema.len(), 1, "{lint}");
    assert!(
        !schema[0].to_string().contains("changed-at-run-time"),
        "{lint}"
    );
}

const CONFIG_TPL: &str = "#@ load(\"@ytt:yaml\", \"yaml\")\n---\n#@ def settings():\nservice:\n  host: {{ .host }}\n  bucket: {{ .bucket }}\n#@ end\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: service-settings\ndata:\n  settings.yml: #@ yaml.encode(settings())\n";
const NAMESPACE: &str = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n";

fn rendered_repo(render: &str) -> Repo {
    Repo::of(&[
        ("deploy/render.sh", render),
        ("deploy/setup/settings.tpl", CONFIG_TPL),
        ("deploy/setup/namespace.yml", NAMESPACE),
    ])
}

#[test]
fn a_file_sed_renders_into_the_command_s_folder_is_read_from_its_template() {
    // The rule fills `{{ .host }}` only: the file ytt reads keeps `{{ .bucket }}`.
    let render = "#!/usr/bin/env bash\nsed -e \"s/{{ .host }}/$HOST/g\" setup/settings.tpl > setup/settings.yml\nytt --file setup | kapp deploy --app shop-setup --file - --yes\n";
    let repo = rendered_repo(render);
    let roots = repo.roots();
    assert!(roots.contains("-f settings.yml=settings.tpl"), "{roots}");
    let lint = repo.lint();
    let said = lint.to_string();
    assert!(
        said.contains("whose rules leave `{{ .bucket }}` (line 6) in it"),
        "{said}"
    );
    assert!(said.contains("by `sed` at deploy/render.sh:2"), "{said}");
}

#[test]
fn a_sed_rendering_that_fills_every_placeholder_leaves_the_template_unread() {
    let render = "#!/usr/bin/env bash\nsed -e \"s/{{ .host }}/$HOST/g\" -e \"s/{{ .bucket }}/$BUCKET/g\" setup/settings.tpl > setup/settings.yml\nytt --file setup | kapp deploy --app shop-setup --file - --yes\n";
    let repo = rendered_repo(render);
    let roots = repo.roots();
    assert!(!roots.contains("settings.tpl"), "{roots}");
    assert!(!repo.lint().to_string().contains("rendered at run time"));
}
