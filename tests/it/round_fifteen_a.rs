//! Round fifteen researcher A's constructs (issue 39, the fifteenth session; docs/precision.md
//! "Round fifteen, researcher A's constructs"), each as a general rule on a minimal repository
//! written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A pipeline's values: two read by a private library's file the pipeline loads, one by a
/// file that file loads, one by nothing.
const PIPELINE_VALUES: &str = "#@data/values\n---\nnotify:\n  hook: \"\"\nregistry:\n  user: \"\"\n  password: \"\"\nregion: eu\n";

const PIPELINE: &str = "#@ load(\"@ci:parts.lib.yml\", \"parts\")\n---\nresources:\n- #@ parts.alert()\n- #@ parts.image(\"app\")\n";

const PARTS: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\n#@ load(\"secrets.star\", \"password\")\n\n#@ def _alert():\nname: alert\nsource:\n  url: #@ data.values.notify.hook\n#@ end\n\n#@ def _image(name):\nname: #@ name\nsource:\n  username: #@ data.values.registry.user\n  password: #@ password()\n#@ end\n\n#@ parts = struct.make(alert=_alert, image=_image)\n";

const SECRETS: &str =
    "load(\"@ytt:data\", \"data\")\n\ndef password():\n  return data.values.registry.password\nend\n";

const SET_PIPELINE: &str = "#!/bin/bash\nset -euo pipefail\nhere=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nytt -f \"$here\" -f \"$here/../shared\" \\\n  --data-value \"notify.hook=$(pass ci/hook)\" \\\n  --data-value \"registry.user=builder\" > /tmp/pipeline.yml\nfly -t ci set-pipeline -p build -c /tmp/pipeline.yml\n";

#[test]
fn values_read_by_a_private_library_file_the_root_loads_are_used() {
    // R15A-1: `load("@ci:parts.lib.yml")` runs the private library's file with the root's
    // data values (ytt renders the hook and the user into the pipeline): its reads, and the
    // reads of the file it loads in turn, count. The value nothing reads stays unused.
    let files = [
        ("pipelines/build/values.yml", PIPELINE_VALUES),
        ("pipelines/build/pipeline.yml", PIPELINE),
        ("pipelines/build/set-pipeline", SET_PIPELINE),
        ("pipelines/shared/_ytt_lib/ci/parts.lib.yml", PARTS),
        ("pipelines/shared/_ytt_lib/ci/secrets.star", SECRETS),
    ];
    let lint = Repo::of(&files).lint();
    let unused = lint.in_file("data-value-unused", "pipelines/build/values.yml");
    let messages: Vec<&str> = unused.iter().map(|d| str_of(d, "message")).collect();
    assert_eq!(messages.len(), 1, "{lint}");
    assert!(
        messages[0].starts_with("data value region is set"),
        "{messages:?}"
    );
    assert_eq!(unused[0]["line"], 8, "{:#}", unused[0]);
    // Nothing else: the root renders.
    assert!(lint.errors().is_empty(), "{lint}");
}

/// A sample's Makefile: renders `config` with the credentials the reader makes.
const SAMPLE_MAKEFILE: &str = ".PHONY: config deploy\nIMAGE ?= registry.example/fn:latest\nCREDS := ./creds.yaml\nCONFIG := out/config.yaml\n$(CONFIG): $(CREDS) $(wildcard config/*)\n\t@mkdir -p $(@D)\n\tytt -f config --data-values-file $(CREDS) -v function_image=\"$(IMAGE)\" > $@\nconfig: $(CONFIG)\ndeploy: $(CONFIG)\n\tkapp deploy -a demo -f $(CONFIG)\n";

const SAMPLE_APP: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\ndata:\n  image: #@ data.values.function_image\n  key: #@ data.values.access_key\n";

const SAMPLE_VALUES: &str = "#@data/values\n---\nfunction_image: \"\"\naccess_key: \"\"\n";

#[test]
fn a_makefile_recipe_s_missing_input_beside_the_makefile_is_missing() {
    // LR15A-1: make runs a recipe in the Makefile's directory; the sample copied without a
    // `config/` folder fails there ("Checking file 'config': no such file"). The credentials
    // file the reader makes stays a run-time input, in both samples.
    let readme =
        "# Sample\nCreate `creds.yaml` here with `access_key: ...`, then run `make deploy`.\n";
    let files = [
        ("samples/with-config/Makefile", SAMPLE_MAKEFILE),
        ("samples/with-config/README.md", readme),
        ("samples/with-config/config/app.yaml", SAMPLE_APP),
        ("samples/with-config/config/values.yaml", SAMPLE_VALUES),
        ("samples/no-config/Makefile", SAMPLE_MAKEFILE),
        ("samples/no-config/README.md", readme),
        ("samples/no-config/src/main.py", "print(\"hello\")\n"),
    ];
    let lint = Repo::of(&files).lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    let m = missing[0];
    assert_eq!(str_of(m, "file"), "samples/no-config/Makefile", "{m:#}");
    assert_eq!(m["line"], 7, "{m:#}");
    let message = str_of(m, "message");
    assert!(message.contains("samples/no-config/config"), "{m:#}");
    assert!(!message.contains("creds"), "{m:#}");
    // The sample with its folder is linted, its credentials given at run time.
    let roots = crate::util::json::root_paths(&lint.report);
    assert!(
        roots.iter().any(|r| r == "samples/with-config/config"),
        "{roots:?}"
    );

    // A recipe that enters another directory first, and an included `*.mk`: where they run
    // is not the Makefile's own directory alone; nothing is reported.
    let entering = "deploy:\n\tcd deploy && ytt -f config > out.yaml\n";
    let included = "render:\n\tytt -f config > out.yaml\n";
    let lint = Repo::of(&[
        ("samples/entering/Makefile", entering),
        ("samples/entering/deploy/README.md", "# deploy\n"),
        ("build/common.mk", included),
        ("build/README.md", "# build\n"),
        ("samples/with-config/config/app.yaml", SAMPLE_APP),
    ])
    .lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}
