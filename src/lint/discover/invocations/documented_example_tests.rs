use super::*;

fn ex(path: &str, data_values: bool) -> Example {
    Example {
        path: path.into(),
        data_values,
    }
}

fn page(p: &str) -> bool {
    p.to_ascii_lowercase().ends_with(".md")
}

#[test]
fn a_page_that_says_to_copy_an_example_documents_it() {
    let examples = [ex("install/values/values-example.yaml", true)];
    let texts = [(
        "install/values/README.MD".to_string(),
        "# Values\n\nMake a copy of the [values-example.yaml](values-example.yaml) file, and customize it.\n",
    )];
    let found = documented(&texts, &examples, page);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].example.path, "install/values/values-example.yaml");
    assert_eq!(found[0].at, "install/values/README.MD:3");
    assert_eq!(found[0].copy, None);
}

#[test]
fn the_copy_s_name_is_the_next_yaml_name_on_the_line() {
    let examples = [ex("setup/values-example.yaml", false)];
    let texts = [(
        "README.md".to_string(),
        "Copy setup/values-example.yaml to values.yaml, and edit for your install.\n",
    )];
    let found = documented(&texts, &examples, page);
    assert_eq!(found[0].copy.as_deref(), Some("values.yaml"));
}

#[test]
fn a_mention_without_copy_words_or_outside_a_page_documents_nothing() {
    let examples = [ex("values-example.yaml", true)];
    let said = [(
        "README.md".to_string(),
        "See values-example.yaml for the keys.\n",
    )];
    assert!(documented(&said, &examples, page).is_empty());
    let script = [("run.sh".to_string(), "cp values-example.yaml values.yaml\n")];
    assert!(documented(&script, &examples, page).is_empty());
}

#[test]
fn a_file_name_two_examples_share_names_neither_unless_written_from_the_page() {
    let examples = [
        ex("a/values-example.yaml", true),
        ex("b/values-example.yaml", true),
    ];
    let top = [(
        "README.md".to_string(),
        "Copy values-example.yaml and edit it.\n",
    )];
    assert!(documented(&top, &examples, page).is_empty());
    let in_b = [(
        "b/README.md".to_string(),
        "Copy values-example.yaml and edit it.\n",
    )];
    let found = documented(&in_b, &examples, page);
    assert_eq!(found[0].example.path, "b/values-example.yaml");
}

#[test]
fn a_run_time_input_whose_whole_name_is_unknown_takes_the_nearest_example() {
    let docs = documented(
        &[(
            "README.md".to_string(),
            "Customize a copy of values-example.yaml first.\n",
        )],
        &[ex("values-example.yaml", true)],
        page,
    );
    let whole = Word::unknown("$1");
    let (path, a) = for_run_time_input(&whole, "install/x/install.sh", &docs, false)
        .expect("the example stands in");
    assert_eq!(path, "values-example.yaml");
    assert_eq!(a.kind, AssumptionKind::ExampleValues);
    assert!(a.message.contains("README.md:1"), "{}", a.message);
    // Not in a CI job, nor for a path whose name is written (`$DIR/config`).
    assert!(for_run_time_input(&whole, "install/x/install.sh", &docs, true).is_none());
    let mut named = Word::unknown("$DIR");
    named.push_lit("/config", false);
    assert!(for_run_time_input(&named, "install/x/install.sh", &docs, false).is_none());
}

#[test]
fn an_example_that_is_no_data_values_text_does_not_stand_in_for_an_f_input() {
    let docs = documented(
        &[(
            "README.md".to_string(),
            "Copy values-example.yaml and edit it.\n",
        )],
        &[ex("values-example.yaml", false)],
        page,
    );
    assert!(for_run_time_input(&Word::unknown("$1"), "x.sh", &docs, false).is_none());
}

#[test]
fn a_secret_made_from_the_copy_holds_the_example() {
    let texts = [(
        "README.md".to_string(),
        "Copy setup/values-example.yaml to values.yaml and edit it.\n\n`kubectl create secret generic install-values -n x \\\n  --from-file=values.yaml`\n",
    )];
    let docs = documented(&texts, &[ex("setup/values-example.yaml", false)], page);
    let made = secrets(&texts);
    assert_eq!(
        made,
        vec![SecretFromFiles {
            name: "install-values".into(),
            files: vec!["values.yaml".into()]
        }]
    );
    let index = Index::new(["setup/values-example.yaml", "README.md"]);
    let d = for_secret("install-values", &made, &docs, &index).expect("bound");
    assert_eq!(d.example.path, "setup/values-example.yaml");
    assert!(for_secret("other", &made, &docs, &index).is_none());
    // A committed `values.yaml` is the file the Secret is made from: no stand-in.
    let committed = Index::new(["setup/values-example.yaml", "values.yaml"]);
    assert!(for_secret("install-values", &made, &docs, &committed).is_none());
}
