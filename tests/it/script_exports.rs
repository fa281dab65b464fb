//! A script's own `export PREFIX_KEY=${VALUE}` lines before its `ytt … --data-values-env
//! PREFIX` (tanzu-end-to-end/end-to-end-workshop's setup step, written anew): the keys are given
//! at run time, so the committed values file's `null`s for them are not what renders. The
//! HTTPProxy's `fqdn` is then no `webdb-None.None` for the Contour schema to reject (ytt
//! `4b40e30`, `YTT_session=s1 YTT_ingress__domain=example.com ytt -f httpproxy.yaml -f
//! values.yaml --data-values-env YTT`: exit 0, `fqdn: webdb-s1.example.com`).

use crate::util::repo::Repo;

const VALUES: &str = "#@data/values\n---\nsession:\ningress:\n  domain:\n";

const PROXY: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: projectcontour.io/v1\nkind: HTTPProxy\nmetadata:\n  name: webdb\nspec:\n  virtualhost:\n    fqdn: #@ \"webdb-{}.{}\".format(data.values.session, data.values.ingress.domain)\n  routes:\n  - services:\n    - name: webdb\n      port: 80\n";

fn setup(exports: &str) -> String {
    format!("#!/bin/bash\nset -x\n\nif [ $WORKSHOP_FILE == \"workshop-gitops.yaml\" ]\nthen\n{exports}\n  cd app\n  ytt -f httpproxy.yaml -f values.yaml --data-values-env YTT | tee out.yaml\nfi\n")
}

#[test]
fn the_keys_a_script_exports_are_given_at_run_time() {
    let script = setup(
        "  export YTT_session=${SESSION_NAMESPACE}\n  export YTT_ingress__domain=${INGRESS_DOMAIN}",
    );
    let lint = Repo::new()
        .file("app/values.yaml", VALUES)
        .file("app/httpproxy.yaml", PROXY)
        .file("setup.sh", script)
        .lint();
    assert!(lint.of("k8s-schema").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn a_key_no_line_exports_keeps_its_committed_null() {
    // Only `session` is exported: the domain is the committed `null`, which renders `None`.
    let script = setup("  export YTT_session=${SESSION_NAMESPACE}");
    let lint = Repo::new()
        .file("app/values.yaml", VALUES)
        .file("app/httpproxy.yaml", PROXY)
        .file("setup.sh", script)
        .lint();
    let found = lint.of("k8s-schema");
    assert_eq!(found.len(), 1, "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}
