//! Round fifteen's nicholasdille/k8s-templates constructs (issue 39; docs/precision.md
//! "Round fifteen, k8s-templates constructs"), each as a general rule on a minimal repository
//! written for the test.

use serde_json::Value;

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A deployment driver: one configuration of `deploy/config/`, then the proxy's and the
/// console's scripts in the same shell.
const RUN: &str = "#!/bin/bash\nset -o errexit\nCONFIG=$1\nif ! test -f deploy/config/${CONFIG}.sh; then\n    echo \"no configuration ${CONFIG}\"\n    exit 1\nfi\nsource deploy/config/${CONFIG}.sh\nif ${PROXY_ENABLED}; then\n    source deploy/proxy.sh\nfi\nif ${CONSOLE_ENABLED}; then\n    source deploy/console.sh\nfi\n";

/// The proxy's script: sets the console's record overlay to its own when its records are on.
const PROXY: &str = "if ${PROXY_RECORDS_ENABLED}; then\n    CONSOLE_RECORD_ARGS=\"-f overlay/proxy-records/\"\nfi\nytt -f app/proxy/ -f deploy/values.yaml | kapp deploy --app proxy --file - --yes\nif ${PROXY_RECORDS_ENABLED}; then\n    ytt -f app/proxy/values.yaml ${CONSOLE_RECORD_ARGS} -f deploy/values.yaml | kapp deploy --app proxy-records --file - --yes\nfi\n";

/// The console's script: sets the overlay again when records are on, and renders; with
/// records on, a job whose template reads a value nothing gives (a certain failure).
const CONSOLE: &str = "if ${RECORDS_ENABLED}; then\n    CONSOLE_RECORD_ARGS=\"-f overlay/console-records/\"\nfi\nytt -f app/console/ ${CONSOLE_RECORD_ARGS} -f deploy/values.yaml | kapp deploy --app console --file - --yes\nif ${RECORDS_ENABLED}; then\n    ytt -f app/records-job/ -f deploy/values.yaml | kapp deploy --app records-job --file - --yes\nfi\n";

const CONSOLE_APP: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: console\ndata:\n  host: #@ \"console.\" + data.values.zone\n";

const PROXY_APP: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proxy\ndata:\n  mode: edge\n";

const PROXY_VALUES: &str = "#@data/values\n---\nzone: \"\"\nproxy:\n  namespace: edge\n";

/// Reads the proxy's own value: only with the proxy's values file.
const PROXY_RECORDS: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proxy-records\n  namespace: #@ data.values.proxy.namespace\ndata:\n  name: #@ \"proxy.\" + data.values.zone\n";

const CONSOLE_RECORDS: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: console-records\ndata:\n  name: #@ \"console.\" + data.values.zone\n";

const RECORDS_JOB: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: records-job\ndata:\n  token: #@ data.values.records.token\n";

const VALUES: &str = "#@data/values\n---\nzone: example.org\n";

/// A configuration: records on or off, the proxy's records tied to them.
fn config(records: bool) -> String {
    format!(
        "# Deploy the proxy\nPROXY_ENABLED=true\n# Deploy the console\nCONSOLE_ENABLED=true\n# Publish DNS records\nRECORDS_ENABLED={records}\n# Publish the proxy's records\nPROXY_RECORDS_ENABLED=${{RECORDS_ENABLED}}\n"
    )
}

fn driver_files(configs: &[(&'static str, String)]) -> Repo {
    let mut files: Vec<(&str, &str)> = vec![
        ("deploy/run.sh", RUN),
        ("deploy/proxy.sh", PROXY),
        ("deploy/console.sh", CONSOLE),
        ("deploy/values.yaml", VALUES),
        ("app/console/deployment.yaml", CONSOLE_APP),
        ("app/proxy/deployment.yaml", PROXY_APP),
        ("app/proxy/values.yaml", PROXY_VALUES),
        ("app/records-job/job.yaml", RECORDS_JOB),
        ("overlay/proxy-records/records.yaml", PROXY_RECORDS),
        ("overlay/console-records/records.yaml", CONSOLE_RECORDS),
    ];
    for (p, t) in configs {
        files.push((p, t.as_str()));
    }
    Repo::of(&files)
}

#[test]
fn a_variable_one_sourced_script_leaks_is_combined_only_as_a_configuration_allows() {
    // R15A-4: every configuration ties the proxy's records to the records flag, so whenever
    // the proxy's script sets the overlay, the console's script sets it again: the console
    // never renders with the proxy's overlay. The job that fails under records on stays a
    // certain error (one flag, which a configuration sets).
    let dir = driver_files(&[
        ("deploy/config/full.sh", config(true)),
        ("deploy/config/simple.sh", config(false)),
    ]);
    let lint = dir.lint();
    let leaked = lint.all_in("overlay/proxy-records/records.yaml");
    assert!(
        leaked
            .iter()
            .all(|d| !str_of(d, "root").contains("app/console")),
        "{lint}"
    );
    assert!(leaked.iter().all(|d| d["severity"] != "error"), "{lint}");
    let errs = lint.errors();
    assert_eq!(errs.len(), 1, "{lint}");
    assert_eq!(str_of(errs[0], "file"), "app/records-job/job.yaml");
}

#[test]
fn a_combination_of_flags_no_file_decides_is_an_assumption() {
    // R15A-4 (b): without configurations the two flags are the environment's; the console
    // with the proxy's overlay rests on both being chosen together: a warning naming them,
    // never a certain error.
    let dir = driver_files(&[]);
    let lint = dir.lint();
    let leaked: Vec<&Value> = lint
        .all_in("overlay/proxy-records/records.yaml")
        .into_iter()
        .filter(|d| str_of(d, "root").contains("app/console"))
        .collect();
    assert!(!leaked.is_empty(), "{lint}");
    for d in &leaked {
        assert_eq!(d["severity"], "warning", "{d:#}");
        let text = d.to_string();
        assert!(
            text.contains("PROXY_RECORDS_ENABLED true") && text.contains("RECORDS_ENABLED false"),
            "{d:#}"
        );
    }
    // The job's failure rests on one flag alone: certain.
    let errs = lint.errors();
    assert_eq!(errs.len(), 1, "{lint}");
    assert_eq!(str_of(errs[0], "file"), "app/records-job/job.yaml");
}

/// Two apps' commands share one values file; the clock reads the time zone, with a default
/// in its own `values.yaml`, which the shared file's value overrides.
const SHARED_VALUES: &str = "#@data/values\n---\n#@overlay/match missing_ok=True\nzone: Europe/Berlin\n#@overlay/match missing_ok=True\nrecords:\n  token: placeholder\n#@overlay/match missing_ok=True\nunread: 1\n";

const CLOCK: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: clock\ndata:\n  tz: #@ data.values.zone\n";

const CLOCK_VALUES: &str = "#@data/values\n---\nzone: UTC\n";

const RECORDS: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: Secret\nmetadata:\n  name: records\nstringData:\n  token: #@ data.values.records.token\n";

const SHARED_RUN: &str = "#!/bin/bash\nset -e\nytt -f app/clock/ -f deploy/values.yaml | kapp deploy --app clock --file - --yes\nytt -f app/records/ -f deploy/values.yaml | kapp deploy --app records --file - --yes\n";

#[test]
fn a_shared_values_file_s_key_is_used_when_any_root_taking_the_file_reads_it() {
    // R15A-5: `-f app/clock/` and `-f deploy/values.yaml` both give the clock root a
    // `values.yaml`; the shared file is one of the files that declare the clock's values, so
    // its `zone` is read there (ytt renders `tz: Europe/Berlin`). Only `unread` is unused.
    let files = [
        ("deploy/run.sh", SHARED_RUN),
        ("deploy/values.yaml", SHARED_VALUES),
        ("app/clock/deployment.yaml", CLOCK),
        ("app/clock/values.yaml", CLOCK_VALUES),
        ("app/records/secret.yaml", RECORDS),
    ];
    let lint = Repo::of(&files).lint();
    let unused: Vec<&str> = lint
        .all_in("deploy/values.yaml")
        .into_iter()
        .filter(|d| d["rule"] == "data-value-unused")
        .map(|d| str_of(d, "message"))
        .collect();
    assert_eq!(unused.len(), 1, "{lint}");
    assert!(
        unused[0].starts_with("data value unread is set"),
        "{unused:?}"
    );
}

/// A test Makefile: every folder of `app/` is rendered by a pattern rule its functions name
/// (`$(wildcard app/*)` through `addprefix`/`addsuffix` and a second pattern rule), unless
/// the app's test folder has a script of its own.
const TEST_MAKEFILE: &str = "APP_DIR=app\nAPPS:=$(wildcard $(APP_DIR)/*)\nAPP_TESTS:=$(addsuffix /diff.txt,$(addprefix test/,$(APPS)))\n\n.PHONY: test\ntest: $(APP_TESTS)\n\ntest/%/diff.txt: test/%/result.txt test/%/expected.txt\n\tdiff -u $(@D)/expected.txt $(@D)/result.txt | tee $@\n\n.SECONDARY:\ntest/app/%/result.txt:\n\t@set -o errexit; \\\n\tTEST_DIR=$(@:%/result.txt=%); \\\n\tmkdir -p $${TEST_DIR}; \\\n\tAPP=$${TEST_DIR#test/}; \\\n\tif test -f $${TEST_DIR}/run.sh; then \\\n\t    bash $${TEST_DIR}/run.sh > $${TEST_DIR}/result.txt; \\\n\telse \\\n\t    ytt --ignore-unknown-comments -f $${APP} > $${TEST_DIR}/result.txt; \\\n\tfi\n";

const WEB: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  port: #@ str(data.values.web.port)\n  tz: #@ data.values.zone\n";

const WEB_VALUES: &str = "#@data/values\n---\nweb:\n  port: 80\n";

const API: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  namespace: #@ data.values.namespace\nspec:\n  ports:\n  - port: 80\n";

const STATIC_APP: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\ndata:\n  a: b\n";

/// The worker's test runs a script of its own with the values it needs.
const WORKER_RUN: &str = "#!/bin/bash\nytt -f app/worker -v namespace=jobs\n";

#[test]
fn a_makefile_pattern_rule_over_a_wildcard_renders_each_folder() {
    // LR15A-4: `make test` renders app/web and app/api with no data values: ytt fails for
    // both ("struct has no .zone", "struct has no .namespace"), each an error of a command
    // the Makefile runs. app/worker's test runs its own script, which gives the value: the
    // Makefile's ytt does not run for it, and nothing fails there.
    let files = [
        ("Makefile", TEST_MAKEFILE),
        ("app/web/deployment.yaml", WEB),
        ("app/web/values.yaml", WEB_VALUES),
        ("app/api/service.yaml", API),
        ("app/plain/cm.yaml", STATIC_APP),
        ("app/worker/service.yaml", API),
        ("test/app/web/expected.txt", "x\n"),
        ("test/app/api/expected.txt", "x\n"),
        ("test/app/plain/expected.txt", "x\n"),
        ("test/app/worker/expected.txt", "x\n"),
        ("test/app/worker/run.sh", WORKER_RUN),
    ];
    let lint = Repo::of(&files).lint();
    let errs = lint.errors();
    let mut failed: Vec<&str> = errs.iter().map(|d| str_of(d, "file")).collect();
    failed.sort_unstable();
    assert_eq!(
        failed,
        ["app/api/service.yaml", "app/web/deployment.yaml"],
        "{lint}"
    );
    for d in &errs {
        assert!(str_of(d, "scenario").starts_with("Makefile:"), "{d:#}");
    }
}
