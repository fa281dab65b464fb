//! Round fifteen's misread commands (issue 39, the fifteenth session; docs/precision.md
//! "Round fifteen's misread commands"), each as a general rule on a minimal repository
//! written for the test.

use crate::util::json::{root_paths, str_of};
use crate::util::repo::{Lint, Repo};

/// A data values file and a Service of its name: a folder that renders on its own.
const VALUES: &str = "#@data/values\n---\nname: shop\n";
const SERVICE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: #@ data.values.name\nspec:\n  ports:\n  - port: 80\n";
/// YAML that does not parse (an alias with no name), in a folder nothing renders.
const BROKEN: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\ndata:\n  hosts:\n  - *\n";

#[test]
fn a_longer_closing_fence_closes_the_block_and_keeps_the_next_blocks_cd() {
    // R15B-6: a block opened with three backticks and closed with four (CommonMark: a closing
    // fence is at least as long as the opening one). Misread, the next block's `cd infra`
    // was lost and its `ytt -f .` rendered the whole repository, broken leftovers included.
    for (open, close) in [("```", "````"), ("~~~", "~~~~~"), ("  ```sh", "   ````")] {
        let readme = format!(
            "# Shop\n\nInstall the controller:\n{open}\nkubectl apply \\\n\t-f https://example.com/c.yaml\n{close}\n\n\
             Edit [infra/values.yaml](infra/values.yaml).\n\n```\ncd infra\nexport SHOP_x=1\n\
             ytt --data-values-env SHOP -f . | kubectl apply -f-\n```\n\nThe app:\n\n\
             ```\ncd app && ytt -f deploy | kubectl apply -f-\n```\n"
        );
        let lint = Repo::of(&[
            ("README.md", readme.as_str()),
            ("app/deploy/values.yaml", VALUES),
            ("app/deploy/svc.yaml", SERVICE),
            ("attic/graveyard/cm.yaml", BROKEN),
        ])
        .lint();
        // `cd infra` goes to a folder the repository lacks: that command is not the root's.
        assert!(lint.errors().is_empty(), "{open}: {}", lint.summary());
        assert!(
            !root_paths(&lint.report).iter().any(|r| r == "."),
            "{open}: {:?}",
            root_paths(&lint.report)
        );
        let app: Vec<String> = root_paths(&lint.report);
        assert!(app.iter().any(|r| r == "app/deploy"), "{open}: {app:?}");
        assert!(
            !lint
                .diagnostics()
                .iter()
                .any(|d| str_of(d, "file").starts_with("attic/") && d["severity"] == "error"),
            "{open}: {}",
            lint.summary()
        );
    }
}

/// A pipeline kept under a name of its own: it clones the repository (under the org it
/// came from) in one step and renders named templates into `test/` from the clone's `k8s/`
/// in another.
const PIPELINE: &str = "pipeline {\n  agent any\n  stages {\n    stage('deploy') {\n      steps {\n        sh '''\n          git clone git@github.com:upstream/shop.git\n        '''\n        sh '''\n          export PW_B64=`echo $PW | base64`\n          cd shop/k8s\n          ytt -f deploy-template.yaml -f config-template.yaml -f schema.yaml -v image=example/shop:1 -v password=$PW_B64 --output-files test\n          kubectl apply -f test/.\n        '''\n      }\n    }\n  }\n}\n";
const SHOP_SCHEMA: &str =
    "#@data/values-schema\n---\nimage: \"example/shop:latest\"\npassword: \"x\"\n";
const SHOP_DEPLOY: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: shop\nspec:\n  selector:\n    matchLabels:\n      app: shop\n  template:\n    metadata:\n      labels:\n        app: shop\n    spec:\n      containers:\n      - name: shop\n        image: #@ data.values.image\n";
const SHOP_CONFIG: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata:\n  image: #@ data.values.image\n";
/// The pipeline's output, committed: the same objects rendered, under the same names.
const SHOP_DEPLOY_OUT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: shop\nspec:\n  selector:\n    matchLabels:\n      app: shop\n  template:\n    metadata:\n      labels:\n        app: shop\n    spec:\n      containers:\n      - name: shop\n        image: example/shop:0\n";
const SHOP_CONFIG_OUT: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata:\n  image: example/shop:0\n";

#[test]
fn an_extensionless_pipeline_renders_from_the_repositorys_own_clone() {
    // R15B-3 (2, 3): the pipeline file has no `Jenkinsfile` name, and it `cd`s into its
    // clone of the repository. Read by its text, with the clone mapped to the checkout (named
    // `shop`, or `OWNER+shop` as mirrors name it), its command is the root's, and the
    // committed output folder is no input: no object is rendered twice.
    for checkout in ["shop", "acme+shop"] {
        let at = |p: &str| format!("{checkout}/{p}");
        let files = [
            (at("pipeline-steps/02-deploy-test"), PIPELINE),
            (at("k8s/schema.yaml"), SHOP_SCHEMA),
            (at("k8s/deploy-template.yaml"), SHOP_DEPLOY),
            (at("k8s/config-template.yaml"), SHOP_CONFIG),
            (at("k8s/test/deploy-template.yaml"), SHOP_DEPLOY_OUT),
            (at("k8s/test/config-template.yaml"), SHOP_CONFIG_OUT),
        ];
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        let dir = Repo::of(&files);
        let lint = Lint::run(&dir.join(checkout), &[]);
        let roots = root_paths(&lint.report);
        assert!(!roots.iter().any(|r| r == "k8s"), "{checkout}: {roots:?}");
        assert!(
            roots
                .iter()
                .any(|r| r.contains("k8s/deploy-template.yaml") && !r.contains("k8s/test")),
            "{checkout}: {roots:?}"
        );
        let scenarios = lint.report.to_string();
        assert!(
            scenarios.contains("pipeline-steps/02-deploy-test:"),
            "{checkout}: {lint}"
        );
        assert!(
            lint.of("duplicate-object").is_empty(),
            "{checkout}: {}",
            lint.summary()
        );
    }
}
