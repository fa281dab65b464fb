//! Round fifteen's misread commands (issue 39, the fifteenth session; docs/precision.md
//! "Round fifteen's misread commands"), each as a general rule on a minimal repository
//! written for the test.

use serde_json::Value;

use crate::util::json::{diagnostics, errors, lint_json, root_paths, str_of};
use crate::util::TempDir;

/// The report's findings as `rule file:line` lines, for failure messages.
fn summary(report: &Value) -> String {
    diagnostics(report)
        .iter()
        .map(|d| format!("{} {}:{}", d["rule"], d["file"], d["line"]))
        .collect::<Vec<_>>()
        .join("\n")
}

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
        let dir = TempDir::with_files(&[
            ("README.md", readme.as_str()),
            ("app/deploy/values.yaml", VALUES),
            ("app/deploy/svc.yaml", SERVICE),
            ("attic/graveyard/cm.yaml", BROKEN),
        ]);
        let (_, report) = lint_json(&dir, &[]);
        // `cd infra` goes to a folder the repository lacks: that command is not the root's.
        assert!(errors(&report).is_empty(), "{open}: {}", summary(&report));
        assert!(
            !root_paths(&report).iter().any(|r| r == "."),
            "{open}: {:?}",
            root_paths(&report)
        );
        let app: Vec<String> = root_paths(&report);
        assert!(app.iter().any(|r| r == "app/deploy"), "{open}: {app:?}");
        assert!(
            !diagnostics(&report)
                .iter()
                .any(|d| str_of(d, "file").starts_with("attic/") && d["severity"] == "error"),
            "{open}: {}",
            summary(&report)
        );
    }
}
