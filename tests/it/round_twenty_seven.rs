//! Round twenty-seven's constructs, each on a minimal repository written for the test: a YAML
//! file whose text breaks where it holds the shell's expansions is a here-document's body that
//! a script expands before ytt reads it (R27-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

#[test]
fn yaml_broken_at_a_shell_expansion_is_a_here_document_s_body() {
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\nregistry:\n  host: #@ data.values.HOST\n  ca: |\n$(sed 's/^/    /' < \"$CA_FILE\")\nmode: #@ data.values.MODE\n";
    let script = "#!/bin/bash\n( echo \"cat <<EOF >out/settings.yaml\"\n  cat template/settings.yaml\n  echo \"EOF\"\n) > out/tmp.sh\n. out/tmp.sh\nytt -f out/settings.yaml --data-values-env APP\n";
    let lint = Repo::of(&[
        ("template/settings.yaml", template),
        ("scripts/generate.sh", script),
    ])
    .lint();
    // A line that is only the command's output is linted empty (`lint/job/shell_expanded.rs`):
    // the YAML holds.
    assert!(lint.of("yaml-syntax").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");

    // Where other text shares the line, the break stays, as the other tool's text.
    let shared = template.replace("\"$CA_FILE\")", "\"$CA_FILE\") # the CA");
    let lint = Repo::of(&[
        ("template/settings.yaml", shared.as_str()),
        ("scripts/generate.sh", script),
    ])
    .lint();
    let broken = lint.of("yaml-syntax");
    assert_eq!(broken.len(), 1, "{lint}");
    assert_eq!(str_of(broken[0], "severity"), "info", "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");

    // The same break without the shell's text stays an error: ytt fails on the file.
    let plain = template.replace("$(sed 's/^/    /' < \"$CA_FILE\")", "not: [closed");
    let lint = Repo::of(&[("template/settings.yaml", plain.as_str())]).lint();
    assert_eq!(lint.errors().len(), 1, "{lint}");
}
