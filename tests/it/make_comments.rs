//! A Makefile variable whose definition ends in a comment (`PORT ?= 30951 # must match
//! kind.yml`) is `30951` to make; the recipe that uses it stays one command across its
//! continuation lines, every `--data-value-yaml` given (hoegaarden/harbor-replication's shape,
//! written anew). ytt `4b40e30` on the recipe's command, with a Service on standard input:
//! exit 0, the ports set.

use crate::util::repo::Repo;

const PATCH: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n\n#@overlay/match by=overlay.subset({\"kind\":\"Service\",\"metadata\":{\"name\":\"envoy\"}})\n---\nspec:\n  #@overlay/match\n  type: \"NodePort\"\n  ports:\n  #@overlay/match by=\"name\"\n  - name: http\n    #@overlay/match missing_ok=True\n    nodePort: #@ data.values.nodePort.http\n  #@overlay/match by=\"name\"\n  - name: https\n    #@overlay/match missing_ok=True\n    nodePort: #@ data.values.nodePort.https\n  #@overlay/match missing_ok=True\n  clusterIP: #@ data.values.clusterIP\n";

const MAKEFILE: &str = "MANIFEST ?= https://example.com/contour.yaml\nHTTP_PORT ?= 30950  # must match kind.yml\nHTTPS_PORT ?= 30951 # must match kind.yml\nCLUSTER_IP ?= 10.96.255.254\n\ncontour:\n\tcurl -fsL $(MANIFEST) \\\n\t\t| ytt -f - -f contour.patch.yml \\\n\t\t\t--data-value-yaml nodePort.http=$(HTTP_PORT) \\\n\t\t\t--data-value-yaml nodePort.https=$(HTTPS_PORT) \\\n\t\t\t--data-value-yaml clusterIP=$(CLUSTER_IP) \\\n\t\t| kubectl apply -f -\n";

#[test]
fn a_comment_after_a_make_variable_leaves_the_recipe_whole() {
    let lint = Repo::new()
        .file("contour.patch.yml", PATCH)
        .file("Makefile", MAKEFILE)
        .lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}
