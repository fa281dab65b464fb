//! Round seventeen's false findings of commands whose output goes elsewhere (issue 39, the
//! seventeenth session; docs/precision.md "Round seventeen"), each as a general rule on a
//! minimal repository written for the test: a folder rendered into an output directory
//! hands nothing over as one stream unless the script deploys that directory (R17B-1).

use crate::util::json::{assumption_text, str_of};
use crate::util::repo::Repo;

/// A ServiceAccount named by the values, with `labels` (YAML flow text) when given.
fn account(labels: Option<&str>) -> String {
    let labels = labels.map_or(String::new(), |l| format!("  labels: {l}\n"));
    format!(
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: #@ data.values.name\n{labels}"
    )
}

const VALUES: &str = "#@data/values\n---\nname: builder\n";

/// Each variant of the account renders into its own file, compared with `diff`.
const RENDER: &str = "#!/bin/bash\n# Each file under alts/ is one variant of the same account.\nset -e\nytt -f alts/ --dangerous-emptied-output-directory=out\ndiff out/first.yml out/second.yml || true\n";

fn variants(script: &str) -> (Repo, String, String) {
    let (first, second) = (account(None), account(Some("{tier: alt}")));
    let files = [
        ("render.sh", script),
        ("alts/first.yml", first.as_str()),
        ("alts/second.yml", second.as_str()),
        ("alts/values.yml", VALUES),
    ];
    (Repo::of(&files), first, second)
}

#[test]
fn variants_rendered_into_an_output_directory_are_not_one_stream() {
    // R17B-1: the two variants differ (a label), which in one stream is a certain error;
    // each lands in its own output file and nothing deploys the directory: a note that
    // names what it rests on.
    let (dir, _, _) = variants(RENDER);
    let lint = dir.lint();
    lint.assert_verdicts("duplicate-object", &[("info", &["split-output"])]);
    assert_eq!(lint.code, 0, "{lint}");
    let d = lint.of("duplicate-object")[0];
    let assumed = assumption_text(d);
    assert!(
        assumed.contains("`alts/first.yml` and `alts/second.yml` each get a file of their own")
            && assumed.contains("nothing the script runs after it deploys them as one"),
        "{d:#}"
    );

    // `--output-files DIR`, the other spelling, is the same.
    let (dir, _, _) = variants(&RENDER.replace(
        "--dangerous-emptied-output-directory=out",
        "--output-files out",
    ));
    let lint = dir.lint();
    lint.assert_verdicts("duplicate-object", &[("info", &["split-output"])]);
}

#[test]
fn variants_the_script_deploys_as_one_directory_meet_at_the_deploy() {
    // The same, and the script then deploys the output directory as one: both copies reach
    // kapp together, an error that names the deploying line.
    let script = format!("{RENDER}kapp deploy -a accounts -f out/ --yes\n");
    let (dir, _, _) = variants(&script);
    let lint = dir.lint();
    lint.assert_verdicts("duplicate-object", &[("error", &[])]);
    assert_eq!(lint.code, 1, "{lint}");
    let d = lint.of("duplicate-object")[0];
    let at_deploy = d["related"].as_array().into_iter().flatten().any(|r| {
        r["file"] == "render.sh"
            && r["line"] == 6
            && str_of(r, "message").starts_with("the output files are deployed as one here")
    });
    assert!(at_deploy, "{d:#}");

    // A deploy of another directory, or a command without the output directory, changes
    // nothing of the first case.
    let script = format!("{RENDER}kapp deploy -a other -f config/ --yes\n");
    let (dir, _, _) = variants(&script);
    let lint = dir.lint();
    lint.assert_verdicts("duplicate-object", &[("info", &["split-output"])]);
}

#[test]
fn two_copies_in_one_output_file_stay_an_error() {
    // One input file is one output file: its two documents of one object are one stream
    // whatever follows.
    let one = account(None);
    let both = format!(
        "{one}{}",
        account(Some("{tier: alt}")).replacen("#@ load(\"@ytt:data\", \"data\")\n", "", 1)
    );
    let files = [
        ("render.sh", RENDER),
        ("alts/first.yml", both.as_str()),
        ("alts/values.yml", VALUES),
    ];
    let lint = Repo::of(&files).lint();
    lint.assert_verdicts("duplicate-object", &[("error", &[])]);
    assert_eq!(lint.code, 1, "{lint}");
}
