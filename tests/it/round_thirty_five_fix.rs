//! The twenty-fifth session's fixes of rounds thirty-five and thirty-six, each on a minimal
//! repository written for the test: a value given at run time that a template carries in a
//! variable to a failing call is the run's to decide, not a certain error (R35-2).

use crate::util::repo::Repo;

#[test]
fn a_failure_that_follows_a_run_time_value_through_a_variable_needs_input() {
    let values = "#@data/values\n---\nprofile: \"\"\nclusters:\n  build:\n    name: build-cluster\n  run:\n    name: run-cluster\n";
    let carried = "#@ load(\"@ytt:data\", \"data\")\n#@ p = data.values.profile\n#@ c = getattr(data.values.clusters, p)\npool:\n  cluster: #@ c.name\n";
    let readme = "# Pools\n\nFor each profile:\n\n```\nytt -f values/values.yml --data-value profile=$PROFILE -f templates/pool.yml\n```\n";
    let lint = Repo::of(&[
        ("values/values.yml", values),
        ("templates/pool.yml", carried),
        ("README.md", readme),
    ])
    .lint();
    assert!(lint.errors().is_empty(), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
    assert_eq!(lint.code, 0, "{lint}");

    // Through a function's argument and string formatting alike.
    let formatted = "#@ load(\"@ytt:data\", \"data\")\n#@ def pick(s, name):\n#@   return getattr(s, \"{}\".format(name))\n#@ end\npool:\n  cluster: #@ pick(data.values.clusters, data.values.profile + \"\").name\n";
    let lint = Repo::of(&[
        ("values/values.yml", values),
        ("templates/pool.yml", formatted),
        ("README.md", readme),
    ])
    .lint();
    assert!(lint.errors().is_empty(), "{lint}");

    // A failure that does not follow the value (a key the data values lack whatever the run
    // gives) stays certain.
    let broken = "#@ load(\"@ytt:data\", \"data\")\n#@ p = data.values.profile\npool:\n  cluster: #@ data.values.clusters.staging.name\n  profile: #@ p\n";
    let lint = Repo::of(&[
        ("values/values.yml", values),
        ("templates/pool.yml", broken),
        ("README.md", readme),
    ])
    .lint();
    assert_eq!(lint.errors().len(), 1, "{lint}");
}
