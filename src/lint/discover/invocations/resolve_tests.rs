use super::*;
use crate::lint::discover::invocations::shell::{calls, Context};

fn run(file: &str, text: &str, files: &[&str]) -> Vec<Outcome> {
    let index = Index::new(files.iter().copied());
    let snippet = crate::lint::discover::invocations::scripts::snippet(file, text).unwrap();
    let ctx = Context {
        script: Word::lit(format!("{REPO}/{file}")),
        line_offset: 0,
    };
    let repo = Repo::new(&index, &[], "repo");
    let mut out = Vec::new();
    for call in calls(&snippet.text, &ctx, snippet.env()).unwrap() {
        out.extend(resolve(&call, &snippet, &repo));
    }
    out
}

type Placed = (Vec<String>, Vec<(String, String)>);

fn found(o: &[Outcome]) -> Vec<&Invocation> {
    o.iter()
        .filter_map(|x| match x {
            Outcome::Found(i) => Some(&**i),
            _ => None,
        })
        .collect()
}

#[test]
fn a_script_run_from_the_repository_root() {
    let o = run(
        "hack/deploy.sh",
        "ytt -f config/config -f config/values-schema.yml -f config-dev -v dev.version=\"$(git describe)+dev\" --data-value-yaml dev.push=true\n",
        &["config/config/a.yml", "config/values-schema.yml", "config-dev/b.yml"],
    );
    let inv = found(&o);
    assert_eq!(inv.len(), 1);
    assert_eq!(
        inv[0].inputs,
        vec!["config/config", "config/values-schema.yml", "config-dev"]
    );
    assert_eq!(inv[0].values[0].value, None);
    assert_eq!(inv[0].values[1].value.as_deref(), Some("true"));
    assert_eq!(inv[0].origin.to_string(), "hack/deploy.sh:1");
}

#[test]
fn a_script_run_from_its_own_directory() {
    let o = run(
        "deploy/run.sh",
        "ytt -f config -f values.yml\n",
        &["deploy/config/a.yml", "deploy/values.yml"],
    );
    assert_eq!(
        found(&o)[0].inputs,
        vec!["deploy/config", "deploy/values.yml"]
    );
}

#[test]
fn a_script_per_package_with_optional_sample_values() {
    let text = "PACKAGE=$1\nVERSION=$2\nDIR=addons/packages/$PACKAGE/$VERSION\ncmd=\"ytt -f .\"\n\
                if [ -d \"$DIR/sample-values\" ]; then cmd=\"$cmd -f ../../sample-values/*.yaml\"; fi\n\
                cd \"$DIR/bundle/config\"\n$cmd >/dev/null\n";
    let files = [
        "addons/packages/a/1.0/bundle/config/values.star",
        "addons/packages/a/1.0/sample-values/one.yaml",
        "addons/packages/a/1.0/sample-values/two.yaml",
        "addons/packages/b/2.0/bundle/config/t.yaml",
    ];
    let o = run("hack/check.sh", text, &files);
    let mut inv: Vec<Placed> = found(&o)
        .iter()
        .map(|i| (i.inputs.clone(), i.binding.clone()))
        .collect();
    inv.sort();
    assert_eq!(
        inv,
        vec![
            (
                vec![
                    "addons/packages/a/1.0/bundle/config".to_string(),
                    "addons/packages/a/1.0/sample-values/one.yaml".to_string(),
                    "addons/packages/a/1.0/sample-values/two.yaml".to_string()
                ],
                vec![
                    ("$1".to_string(), "a".to_string()),
                    ("$2".to_string(), "1.0".to_string())
                ]
            ),
            (
                vec!["addons/packages/b/2.0/bundle/config".to_string()],
                vec![
                    ("$1".to_string(), "b".to_string()),
                    ("$2".to_string(), "2.0".to_string())
                ]
            ),
        ]
    );
}

#[test]
fn generated_inputs_are_skipped_with_what_they_claim_and_a_program_s_pipe_left_out() {
    let o = run(
        "hack/gen.sh",
        "ytt -f tmp/crds -f hack/crd-overlay.yml > out.yml\n./gen-templates.sh | ytt -f - -f overlays\n",
        &["hack/crd-overlay.yml", "overlays/o.yml"],
    );
    let skipped: Vec<&Skipped> = o
        .iter()
        .filter_map(|x| match x {
            Outcome::Skipped(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(skipped.len(), 1);
    assert!(
        skipped[0]
            .reason
            .contains("tmp/crds is not in the repository"),
        "{}",
        skipped[0].reason
    );
    assert_eq!(skipped[0].claims, vec!["hack/crd-overlay.yml"]);
    // What a program the linter cannot run prints is left out: the overlays are judged
    // without it (`piped_stdin.rs`).
    let piped: Vec<&Invocation> = o
        .iter()
        .filter_map(|x| match x {
            Outcome::Found(inv) => Some(inv.as_ref()),
            _ => None,
        })
        .collect();
    assert_eq!(piped.len(), 1);
    assert_eq!(piped[0].inputs, vec!["overlays"]);
    assert_eq!(
        piped[0].unknown,
        vec!["-f - (what `./gen-templates.sh` prints)"]
    );
    assert!(piped[0]
        .assumptions
        .iter()
        .any(|a| matches!(a.subject, Some(crate::report::Subject::Piped { .. }))));
}

#[test]
fn manifests_another_tool_prints_are_an_input_left_out() {
    let o = run(
        "hack/gen.sh",
        "helm template x | ytt -f - -f overlays
ko resolve -f config | ytt -f image.yml=- -f t.txt
",
        &["overlays/o.yml", "t.txt"],
    );
    let inv = found(&o);
    assert_eq!(inv.len(), 1, "{o:?}");
    assert_eq!(inv[0].inputs, vec!["overlays"]);
    let said: Vec<String> = inv[0]
        .assumptions
        .iter()
        .map(|a| a.message.clone())
        .collect();
    assert!(
        said[0].contains("reads the manifests `helm template x`"),
        "{said:?}"
    );
    // Named, standard input is read by name, not only overlaid: still skipped.
    assert!(o
        .iter()
        .any(|x| matches!(x, Outcome::Skipped(s) if s.reason.contains("standard input"))));
}

#[test]
fn values_known_only_at_run_time() {
    let o = run(
        "ci/install.sh",
        "ytt -f config -f $CF_VALUES --data-values-file \"${VALUES}\" --data-values-env CF > out\n",
        &["config/a.yml"],
    );
    let inv = found(&o);
    assert_eq!(inv[0].inputs, vec!["config"]);
    assert_eq!(inv[0].unknown.len(), 3, "{:?}", inv[0].unknown);
}

#[test]
fn a_ci_input_named_after_the_repository() {
    let o = run(
        "ci/tasks/install.sh",
        "ytt -f repo-main/config -f cf-values.yml\n",
        &["config/a.yml"],
    );
    let inv = found(&o);
    assert_eq!(inv[0].inputs, vec!["config"]);
    assert_eq!(
        inv[0].unknown,
        vec!["-f cf-values.yml (not in the repository)"]
    );
}

#[test]
fn absolute_paths_to_a_checkout_or_an_image() {
    let o = run(
        "deploy/install.sh",
        "cd /tmp/kind/repo\nytt -f config > /tmp/out\nytt -f /opt/app/etc/templates/hugo.yaml\n",
        &[
            "config/a.yml",
            "images/base/opt/app/etc/templates/hugo.yaml",
        ],
    );
    let inv = found(&o);
    assert_eq!(inv[0].inputs, vec!["config"]);
    assert_eq!(
        inv[1].inputs,
        vec!["images/base/opt/app/etc/templates/hugo.yaml"]
    );
}

#[test]
fn a_directory_listed_at_run_time_binds_to_what_exists() {
    let o = run(
        "installer/scenarios/test.sh",
        r#"DIR="$( cd -P "$( dirname "${BASH_SOURCE[0]}" )" && pwd )"
function test {
  for test_dir in `ls -d {kind,eks}/test*/`
  do
    pushd ${DIR}/${test_dir} >/dev/null 2>&1
    R=$(ytt --data-values-file values.yaml -f ${DIR}/../bundle/config/ytt | yq)
  done
}
"#,
        &[
            // What `ls -d {kind,eks}/test*/` lists: two levels.
            "installer/scenarios/kind/test-1/values.yaml",
            "installer/scenarios/eks/test-2/other.yaml",
            "installer/bundle/config/ytt/a.yml",
        ],
    );
    let inv = found(&o);
    assert_eq!(inv.len(), 2, "{o:?}");
    assert_eq!(inv[0].inputs, vec!["installer/bundle/config/ytt"]);
}

#[test]
fn process_substitution_is_made_at_run_time_and_urls_are_remote() {
    let files = ["config/t.yml", "gen.sh"];
    let o = run(
        "deploy.sh",
        "ytt -f istio.yaml=<(./gen.sh --set x=1)\n",
        &files,
    );
    let Outcome::Skipped(s) = &o[0] else {
        panic!("{o:?}")
    };
    assert_eq!(
        s.reason,
        "its inputs are made at run time (process substitution)"
    );
    let o = run(
        "deploy.sh",
        "ytt -f config --data-value-file ca=<(cat ca.pem) --data-values-file <(./gen.sh)\n",
        &files,
    );
    let inv = found(&o);
    assert_eq!(inv[0].inputs, vec!["config"]);
    assert_eq!(inv[0].values[0].key, "ca");
    assert_eq!(inv[0].values[0].value, None);
    assert_eq!(inv[0].unknown, vec!["--data-values-file <(./gen.sh)"]);
    let o = run(
        "deploy.sh",
        "ytt -f config -f https://example.com/x.yml\n",
        &files,
    );
    let Outcome::Skipped(s) = &o[0] else {
        panic!("{o:?}")
    };
    assert_eq!(s.reason, "remote input https://example.com/x.yml");
}
