//! Round twenty-five's constructs the lead fixed, each on a minimal repository written for the
//! test: a values directory committed empty (`.gitkeep`) that a script fills is given at run
//! time (R25-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

#[test]
fn a_values_directory_a_script_fills_is_given_at_run_time() {
    let schema =
        "#@data/values-schema\n---\nsource:\n  #@schema/validation min_len=1\n  url: \"\"\n";
    let app = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: source\ndata:\n  url: #@ data.values.source.url\n";
    let configure = "#!/usr/bin/env bash\nset -euo pipefail\nurl=$(git config --get remote.origin.url)\ncat > sync/values/source.yaml <<EOF\nsource:\n  url: ${url}\nEOF\n";
    let deploy = "#!/usr/bin/env bash\nkubectl apply -f <(ytt -f sync/config --data-values-file sync/values/)\n";
    let files = |with_configure: bool| {
        let mut f = vec![
            ("sync/config/schema.yaml", schema),
            ("sync/config/app.yaml", app),
            ("sync/values/.gitkeep", ""),
            ("sync/deploy.sh", deploy),
        ];
        if with_configure {
            f.push(("sync/configure.sh", configure));
        }
        f
    };
    let lint = Repo::of(&files(true)).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let notes = lint.of("needs-input");
    assert_eq!(notes.len(), 1, "{lint}");
    let assumed = notes[0]["certainty"].to_string() + &lint.report["roots"].to_string();
    assert!(
        assumed.contains("sync/values/ holds no values file in the repository"),
        "{assumed}"
    );

    // Nothing fills it: the committed, empty directory is the input, and ytt fails on it.
    let lint = Repo::of(&files(false)).lint();
    let failed = lint.of("required-value");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "error", "{lint}");
}
