//! `boolean-string` end to end: a string that spells false, tested as a condition, from a
//! values file or from a `-v` flag in the repository's own script; and the guard that asks
//! only whether a value is there, which is no finding.

use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, TempDir};

const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  #@ if data.values.debug:\n  level: debug\n  #@ end\n  #@ if/end data.values.scale:\n  scale: #@ data.values.scale\n";

/// The `boolean-string` findings of linting `dir`: rule, file and line.
fn findings(dir: &std::path::Path) -> Vec<(String, String, u64)> {
    let run = yttlint(dir, &["--no-cache", "--format", "json"]);
    diagnostics(&run.json())
        .iter()
        .filter(|d| d["rule"] == "boolean-string")
        .map(|d| {
            (
                str_of(d, "rule").to_string(),
                str_of(d, "file").to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn a_quoted_false_in_a_values_file_is_found_where_it_is_set() {
    let repo = TempDir::with_files(&[
        ("config/app.yml", TEMPLATE),
        (
            "config/values.yml",
            "#@data/values\n---\ndebug: \"false\"\nscale: \"0\"\n",
        ),
    ]);
    // `scale` is written where it is tested: `"0"` is the value meant, not a boolean.
    assert_eq!(
        findings(&repo),
        [(
            "boolean-string".to_string(),
            "config/values.yml".to_string(),
            3
        )]
    );
}

#[test]
fn a_v_flag_in_a_script_gives_a_string() {
    let repo = TempDir::with_files(&[
        ("config/app.yml", TEMPLATE),
        (
            "config/values.yml",
            "#@data/values\n---\ndebug: false\nscale: \"\"\n",
        ),
        (
            "hack/render.sh",
            "#!/bin/sh\nytt -f config -v debug=false\nytt -f config --data-value-yaml debug=false\n",
        ),
    ]);
    assert_eq!(
        findings(&repo),
        [(
            "boolean-string".to_string(),
            "hack/render.sh".to_string(),
            2
        )]
    );
}
