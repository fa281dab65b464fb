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
