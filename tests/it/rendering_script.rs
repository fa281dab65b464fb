//! A page runs a local script that renders a template with `sed` (`./to-yaml.sh`, whose
//! rule fills `{{ .domain }}` and leaves `{{ .role_arn }}`), then a ytt command over the
//! folder the script writes into (round thirty-seven's R37-4). The script runs no ytt; what
//! it writes is still what the later command reads: the template stands in for the file it
//! renders, and ytt's failure on the placeholder the rules leave (a YAML mapping used as a
//! key) is a warning naming the script's rule, the page's line that runs it and the
//! placeholder left.

use crate::util::repo::Repo;

const PAGE: &str = "# App\n\nCopy `.env.sample` to `.env` and fill in its values. Then render the configuration:\n\n```bash\n./to-yaml.sh\n```\n\nInstall it:\n\n```bash\nkapp deploy -a app-init -f <(ytt --file .init) -y\n```\n";

const FILLS_DOMAIN: &str = "#!/usr/bin/env bash\nset -e\nsource .env\nsed -e \"s/{{ .domain }}/$DOMAIN/g\" .init/config.tpl > .init/config.yml\n";

const FILLS_BOTH: &str = "#!/usr/bin/env bash\nset -e\nsource .env\nsed -e \"s/{{ .role_arn }}/$ROLE_ARN/g\" -e \"s/{{ .domain }}/$DOMAIN/g\" .init/config.tpl > .init/config.yml\n";

const CONFIG_TPL: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\n  namespace: #@ data.values.namespace\ndata:\n  roleArn: {{ .role_arn }}\n  domain: {{ .domain }}\n";

const VALUES: &str = "#@data/values\n---\nnamespace: default\n";

const RBAC: &str =
    "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: app-installer\n  namespace: default\n";

fn repo(script: &str) -> Repo {
    Repo::of(&[
        ("app/README.md", PAGE),
        ("app/to-yaml.sh", script),
        ("app/.env.sample", "DOMAIN=example.com\nROLE_ARN=\n"),
        ("app/.gitignore", ".env\n.init/config.yml\n"),
        ("app/.init/config.tpl", CONFIG_TPL),
        ("app/.init/values.yml", VALUES),
        ("app/.init/rbac.yml", RBAC),
    ])
}

#[test]
fn a_script_the_page_runs_before_ytt_renders_the_file_the_command_reads() {
    let repo = repo(FILLS_DOMAIN);
    let roots = repo.roots();
    assert!(roots.contains("config.yml=config.tpl"), "{roots}");
    let lint = repo.lint();
    let found = lint.in_file("template-error", "app/.init/config.tpl");
    assert_eq!(found.len(), 1, "{lint}");
    let f = found[0];
    assert_eq!(f["severity"], "warning", "{lint}");
    assert_eq!(f["line"], 9, "{lint}");
    let text = f.to_string();
    assert!(
        text.contains("hash of unhashable type: yaml.MapSlice"),
        "{text}"
    );
    assert!(
        text.contains("by `sed` at app/to-yaml.sh:4, run by app/README.md:6"),
        "{text}"
    );
    assert!(
        text.contains("whose rules leave `{{ .role_arn }}` (line 9) in it"),
        "{text}"
    );
    assert!(text.contains("changed-at-run-time"), "{text}");
}

#[test]
fn rules_that_fill_every_placeholder_leave_the_command_without_the_template() {
    let repo = repo(FILLS_BOTH);
    let roots = repo.roots();
    assert!(!roots.contains("config.tpl"), "{roots}");
    let lint = repo.lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
}
