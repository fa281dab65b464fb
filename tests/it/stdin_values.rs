//! A `#@data/values` document a script gives ytt on standard input (`cat <<'EOF' | ytt -f
//! bundle -f -`, `ytt -f bundle -f - <<EOF`) is the file ytt reads it as, `stdin.yml`,
//! overlaid on the values before it: a key the schema does not declare fails as ytt says it
//! ("Overlaying data values (in following order: stdin.yml): … Expected number of matched
//! nodes to be 1, but was 0"), at the script's line of that key (round fifty-one's N51-2). A
//! minimal repro written for the test; ytt (0.48 and its source at `4b40e30`) exits 1 on it
//! with those words.

use crate::util::json::str_of;
use crate::util::repo::Repo;

const SCHEMA: (&str, &str) = (
    "bundle/schema.yaml",
    "#@data/values-schema\n---\nname: demo\nauth:\n  skip_urls: \"\"\n",
);

const TEMPLATE: (&str, &str) = (
    "bundle/cm.yaml",
    "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nskip: #@ data.values.auth.skip_urls\n",
);

/// The test script: its values here-document, piped or redirected, sets `auth.KEY`.
fn script(piped: bool, key: &str) -> String {
    let head = match piped {
        true => "cat << 'EOF' | ytt --file bundle --file -",
        false => "ytt -f bundle -f - <<EOF",
    };
    format!(
        "#!/bin/bash\nset -e\n{head}\n#@data/values\n---\nname: other\nauth:\n  {key}: /x\nEOF\n"
    )
}

#[test]
fn an_undeclared_key_on_standard_input_fails_as_ytt_overlays_stdin_yml() {
    for piped in [true, false] {
        let text = script(piped, "skip_url");
        let repo = Repo::of(&[SCHEMA, TEMPLATE, ("test.sh", text.as_str())]);
        let lint = repo.lint();
        assert_eq!(lint.code, 1, "{lint}");
        let found = lint.all_in("test.sh");
        assert_eq!(found.len(), 1, "{lint}");
        let message = str_of(found[0], "message");
        assert!(
            message.starts_with("Overlaying data values (in following order: stdin.yml):"),
            "{message}"
        );
        assert!(
            message.contains("Map item (key 'skip_url') on line stdin.yml:5")
                && message.contains("Expected number of matched nodes to be 1, but was 0"),
            "{message}"
        );
        assert!(
            !message.contains("Given data value is not declared"),
            "{message}"
        );
        // `skip_url:` is line 5 of the here-document, line 8 of the script.
        assert_eq!(found[0]["line"], 8, "{lint}");
        assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
    }
}

#[test]
fn declared_keys_on_standard_input_render_as_given() {
    let text = script(true, "skip_urls");
    let repo = Repo::of(&[SCHEMA, TEMPLATE, ("test.sh", text.as_str())]);
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn init_writes_standard_input_as_a_block_that_lints_the_same() {
    let text = script(true, "skip_url");
    let repo = Repo::of(&[SCHEMA, TEMPLATE, ("test.sh", text.as_str())]);
    let before = repo.lint();
    let init = crate::util::yttlint(&repo, &["init"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    let config = std::fs::read_to_string(repo.join(".yttlint.yaml")).unwrap();
    assert!(
        config.contains("        stdin: |\n          #@data/values\n"),
        "{config}"
    );
    let after = repo.lint();
    assert_eq!(after.code, 1, "{after}");
    let (was, now) = (before.of("overlay-error"), after.of("overlay-error"));
    assert_eq!((was.len(), now.len()), (1, 1), "{after}");
    assert_eq!(str_of(was[0], "message"), str_of(now[0], "message"));
    // At the key in the configuration's block: its line, and its column past the indent.
    let line = config
        .lines()
        .position(|l| l.trim_start().starts_with("skip_url:"))
        .unwrap()
        + 1;
    assert_eq!(str_of(now[0], "file"), ".yttlint.yaml", "{after}");
    assert_eq!(now[0]["line"], line, "{after}");
    assert_eq!(now[0]["column"], 13, "{after}");
}

/// A committed values file on standard input (session thirty-one, cmd31): ytt names what it
/// reads there `stdin.yml` (`-f x.yml=-`: `x.yml`), a file of the repository too. A repro
/// written for the test; ytt `4b40e30` exits 1 on each of the three commands, "Overlaying
/// data values (in following order: stdin.yml): Document on line stdin.yml:2: Map item (key
/// 'extra') on line stdin.yml:4: Expected number of matched nodes to be 1, but was 0".
#[test]
fn a_committed_file_on_standard_input_is_named_stdin_yml_and_shown_at_its_own_lines() {
    let schema = (
        "config/schema.yml",
        "#@data/values-schema\n---\nreplicas: 1\nname: app\n",
    );
    let deploy = (
        "config/deploy.yml",
        "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\ndata:\n  replicas: #@ str(data.values.replicas)\n",
    );
    let values = (
        "values/prod.yml",
        "#@data/values\n---\nreplicas: 2\nextra: true\n",
    );
    for (command, name) in [
        ("ytt -f config -f - < values/prod.yml", "stdin.yml"),
        ("cat values/prod.yml | ytt -f config -f -", "stdin.yml"),
        ("ytt -f config -f prod.yml=- < values/prod.yml", "prod.yml"),
    ] {
        let text = format!("#!/bin/sh\nset -e\n{command} | kubectl apply -f -\n");
        let repo = Repo::of(&[schema, deploy, values, ("deploy.sh", text.as_str())]);
        let lint = repo.lint();
        assert_eq!(lint.code, 1, "{command}: {lint}");
        let found = lint.of("overlay-error");
        assert_eq!(found.len(), 1, "{command}: {lint}");
        let message = str_of(found[0], "message");
        assert!(
            message.starts_with(&format!(
                "Overlaying data values (in following order: {name}):"
            )) && message.contains(&format!("Map item (key 'extra') on line {name}:4")),
            "{command}: {message}"
        );
        assert!(!message.contains("values/prod.yml"), "{command}: {message}");
        // At the file's own line of the key.
        assert_eq!(str_of(found[0], "file"), "values/prod.yml", "{lint}");
        assert_eq!(found[0]["line"], 4, "{lint}");
    }
}

/// ytt reads `-` where the command names it among its `-f` inputs (session thirty-one,
/// cmd31): of two data values documents the later wins. The template fails for more than
/// two replicas; the here-document says 5 and `values.yml` says 2. ytt `4b40e30`: `-f config
/// -f - -f values.yml` renders `replicas: 2` (exit 0); `-f config -f values.yml -f -` fails
/// "assert.fail: fail: replicas 5 > 2" (exit 1).
#[test]
fn standard_input_is_read_where_the_command_names_it() {
    let files = [
        ("config/schema.yml", "#@data/values-schema\n---\nreplicas: 1\n"),
        (
            "config/deploy.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  replicas: #@ str(data.values.replicas) if data.values.replicas < 3 else assert.fail(\"replicas {} > 2\".format(data.values.replicas))\n",
        ),
        ("values.yml", "#@data/values\n---\nreplicas: 2\n"),
    ];
    let script = |inputs: &str| {
        format!("#!/bin/sh\nytt {inputs} <<EOF\n#@data/values\n---\nreplicas: 5\nEOF\n")
    };
    let first = script("-f config -f - -f values.yml");
    let repo = Repo::of(&[&files[..], &[("deploy.sh", first.as_str())]].concat());
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
    // `init` keeps the place: the scenario's `stdin_after:`, which lints the same.
    let init = crate::util::yttlint(&repo, &["init"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    let config = std::fs::read_to_string(repo.join(".yttlint.yaml")).unwrap();
    assert!(config.contains("        stdin_after: 1 "), "{config}");
    let after = repo.lint();
    assert!(after.errors().is_empty(), "{config}\n{after}");

    let last = script("-f config -f values.yml -f -");
    let repo = Repo::of(&[&files[..], &[("deploy.sh", last.as_str())]].concat());
    let lint = repo.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let failed = lint.errors();
    assert_eq!(failed.len(), 1, "{lint}");
    assert!(
        str_of(failed[0], "message").contains("replicas 5 > 2"),
        "{lint}"
    );
}
