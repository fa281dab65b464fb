//! Round seventeen's R17B-2 (issue 39, item 2i): a step before a `ytt` command moves or
//! copies a directory inside the directory the command reads (`$ mv ./demo/_ytt_lib{1,}`,
//! then `$ ytt -f ./demo`), so ytt reads the tree as the step leaves it; and round sixteen's
//! R16A-1 where the file that hands a library a whole object is no root's (a Go bridge runs
//! it). Each case is a minimal repository written for the test.

use serde_json::Value;

use crate::util::json::{diagnostics, errors, lint_json, of, root_paths, summary};
use crate::util::TempDir;

const MAIN: &str = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n\n#@ app = library.get(\"app\").with_data_values({\"app_name\": \"outer\"})\n--- #@ template.replace(app.eval())\n";
const LIB_CONFIG: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.app_name\n";
/// The library's template adding a number to a string: ytt fails on it whatever the values.
const LIB_BROKEN: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.app_name + 1\n";
const LIB_VALUES: &str = "#@data/values\n---\napp_name: inner\n";

fn repo(readme: &str, lib_config: &str) -> TempDir {
    TempDir::with_files(&[
        ("demo/README.md", readme),
        ("demo/config.yml", MAIN),
        ("demo/_ytt_lib1/app/config.yml", lib_config),
        ("demo/_ytt_lib1/app/values.yml", LIB_VALUES),
    ])
}

fn page(step: &str) -> String {
    format!(
        "The private library is kept under another name so that the test loop skips it.\n\n```\n# turn _ytt_lib1 -> _ytt_lib\n{step}\n\n$ ytt -f ./demo\n```\n"
    )
}

/// Whether the report is clean: no error, no warning.
fn clean(report: &Value) -> bool {
    diagnostics(report)
        .iter()
        .all(|d| d["severity"] != "error" && d["severity"] != "warning")
}

/// The `load-error` ytt gives when the library is not where `library.get` looks.
fn library_missing(report: &Value, severity: &str) -> bool {
    of(report, "load-error").iter().any(|d| {
        d["severity"] == severity
            && d["file"] == "demo/config.yml"
            && d["message"]
                .as_str()
                .is_some_and(|m| m.contains("Could not find private library"))
    })
}

#[test]
fn a_page_that_renames_the_library_first_renders_it() {
    // R17B-2's repro: `mv ./demo/_ytt_lib{1,}` is `mv ./demo/_ytt_lib1 ./demo/_ytt_lib`
    // (bash's brace expansion). ytt after it: rc 0, `name: outer`.
    let dir = repo(&page("$ mv ./demo/_ytt_lib{1,}"), LIB_CONFIG);
    let (_, report) = lint_json(&dir, &[]);
    assert!(clean(&report), "{}", summary(&report));
    assert!(of(&report, "load-error").is_empty(), "{}", summary(&report));
    let roots = root_paths(&report);
    assert!(
        roots
            .iter()
            .any(|r| r == "demo (demo/_ytt_lib1 moved to demo/_ytt_lib, demo/README.md:5)"),
        "{roots:?}"
    );
}

#[test]
fn an_error_inside_the_renamed_library_is_certain_at_the_committed_file() {
    // ytt after the `mv`: `unknown binary op: string + int` in the library's template. The
    // step is the page's own and nothing is guessed: an error, at the committed file.
    let dir = repo(&page("$ mv ./demo/_ytt_lib{1,}"), LIB_BROKEN);
    let (_, report) = lint_json(&dir, &[]);
    let failed: Vec<&Value> = errors(&report)
        .into_iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("unknown binary op: string + int"))
        })
        .collect();
    assert!(!failed.is_empty(), "{}", summary(&report));
    assert!(
        failed.iter().any(|d| {
            d["file"] == "demo/_ytt_lib1/app/config.yml"
                || d["related"].as_array().is_some_and(|r| {
                    r.iter()
                        .any(|x| x["file"] == "demo/_ytt_lib1/app/config.yml" && x["line"] == 6)
                })
        }),
        "{}",
        summary(&report)
    );
    assert!(of(&report, "load-error").is_empty(), "{}", summary(&report));
}

#[test]
fn a_recursive_copy_a_prose_rename_and_a_script_move_are_followed_too() {
    for step in [
        "$ cp -r demo/_ytt_lib1 demo/_ytt_lib",
        "$ cp -R ./demo/_ytt_lib1/ ./demo/_ytt_lib",
        "$ mv demo/_ytt_lib1 demo/_ytt_lib",
    ] {
        let dir = repo(&page(step), LIB_CONFIG);
        let (_, report) = lint_json(&dir, &[]);
        assert!(clean(&report), "{step}: {}", summary(&report));
    }
    // The page's prose says it, from the page's own directory.
    let prose = "First rename `_ytt_lib1` to `_ytt_lib`.\n\n```\n$ ytt -f ./demo\n```\n";
    let dir = repo(prose, LIB_CONFIG);
    let (_, report) = lint_json(&dir, &[]);
    assert!(clean(&report), "{}", summary(&report));
    // A script that moves the library before it renders: its error is certain too.
    let dir = TempDir::with_files(&[
        (
            "render.sh",
            "#!/bin/sh\nset -e\nmv demo/_ytt_lib1 demo/_ytt_lib\nytt -f demo > out.yml\n",
        ),
        ("demo/config.yml", MAIN),
        ("demo/_ytt_lib1/app/config.yml", LIB_BROKEN),
        ("demo/_ytt_lib1/app/values.yml", LIB_VALUES),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(of(&report, "load-error").is_empty(), "{}", summary(&report));
    assert!(
        errors(&report).iter().any(|d| d["message"]
            .as_str()
            .is_some_and(|m| m.contains("unknown binary op"))),
        "{}",
        summary(&report)
    );
}

#[test]
fn without_a_step_the_library_is_missing_as_before() {
    // No step, a step after the command, a plain `cp` of a directory (which cp refuses), a
    // move of a source not there: ytt fails to find the library, as the linter says.
    for text in [
        "```\n$ ytt -f ./demo\n```\n".to_string(),
        "```\n$ ytt -f ./demo\n$ mv ./demo/_ytt_lib{1,}\n```\n".to_string(),
        page("$ cp demo/_ytt_lib1 demo/_ytt_lib"),
        page("$ mv ./demo/_ytt_lib{2,}"),
    ] {
        let dir = repo(&text, LIB_CONFIG);
        let (_, report) = lint_json(&dir, &[]);
        assert!(
            library_missing(&report, "error"),
            "{text}: {}",
            summary(&report)
        );
    }
}

#[test]
fn a_brace_bomb_is_bounded() {
    // 2^40 words if expanded: left as written, the step names nothing and the library is
    // missing, quickly.
    let bomb = format!("$ mv ./demo/_ytt_lib{}", "{1,}".repeat(40));
    let dir = repo(&page(&bomb), LIB_CONFIG);
    let started = std::time::Instant::now();
    let (_, report) = lint_json(&dir, &[]);
    assert!(library_missing(&report, "error"), "{}", summary(&report));
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

/// R16A-1's library: a schema that declares every top-level key of the custom resource a
/// handler hands it whole, and a template that reads two of them.
const WIDGET_SCHEMA: &str = "#@data/values-schema\n---\napiVersion: \"\"\nkind: \"\"\n#@schema/type any=True\nmetadata:\n  name: \"\"\nspec:\n  size: 1\n#@schema/type any=True\nstatus: null\n";
const WIDGET_CM: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.metadata.name\ndata:\n  size: #@ str(data.values.spec.size)\n";

fn unused_keys(report: &Value) -> Vec<String> {
    of(report, "data-value-unused")
        .iter()
        .filter(|d| d["severity"] == "warning")
        .filter_map(|d| d["message"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_library_a_handler_no_root_gives_hands_an_object_keeps_its_declarations() {
    // R16A-1 in GrahamDumpleton/fat-controller: a Go bridge runs `handler.star` (no ytt
    // command, nothing loads it), which hands the library a whole custom resource. Removing
    // `apiVersion` from the schema makes ytt reject the object: the keys are needed.
    let handler = "load(\"@ytt:library\", \"library\")\n\ndef sync(parent):\n  registry = library.get(\"widget\")\n  registry = registry.with_data_values(parent, plain=True)\n  return registry.eval()\nend\n";
    let dir = TempDir::with_files(&[
        ("toolkit/widget/handler.star", handler),
        ("toolkit/widget/_ytt_lib/widget/schema.yaml", WIDGET_SCHEMA),
        ("toolkit/widget/_ytt_lib/widget/configmap.yaml", WIDGET_CM),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(unused_keys(&report).is_empty(), "{}", summary(&report));
    // The same library handed literal values that name two keys: the others are unused.
    let fixed = "load(\"@ytt:library\", \"library\")\n\ndef sync():\n  return library.get(\"widget\").with_data_values({\"metadata\": {\"name\": \"w\"}, \"spec\": {\"size\": 2}}).eval()\nend\n";
    let dir = TempDir::with_files(&[
        ("toolkit/widget/handler.star", fixed),
        ("toolkit/widget/_ytt_lib/widget/schema.yaml", WIDGET_SCHEMA),
        ("toolkit/widget/_ytt_lib/widget/configmap.yaml", WIDGET_CM),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    let unused = unused_keys(&report);
    assert!(
        unused.iter().any(|m| m.contains("data value apiVersion")),
        "{}",
        summary(&report)
    );
}
