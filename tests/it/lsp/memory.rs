//! The server's memory does not grow with the texts typed: what the job threads keep per text
//! (parses, compiled templates, rewritten code) is released when a buffer changes (issue 43:
//! +370 MiB over 300 edits of a 2 400-line template). `scripts/lsp-bench.sh` quotes the same
//! figure.

use super::*;

/// A template of about 2 400 lines: blocks of Deployments and Services with functions,
/// loops, conditions and data values.
fn big_template() -> String {
    let mut out = String::from("#@ load(\"@ytt:data\", \"data\")\n");
    let mut i = 0;
    while out.lines().count() < 2400 {
        out.push_str(&format!(
            r#"#@ def labels_{i}(name):
app: #@ name
tier: #@ data.values.tier
index: "{i}"
#@ end
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: #@ "app-{i}-" + data.values.name
  labels: #@ labels_{i}("app-{i}")
spec:
  replicas: #@ data.values.replicas
  selector:
    matchLabels: #@ labels_{i}("app-{i}")
  template:
    metadata:
      labels: #@ labels_{i}("app-{i}")
    spec:
      containers:
      #@ for c in data.values.containers:
      - name: #@ c.name + "-{i}"
        image: #@ c.image
        ports:
        - containerPort: #@ c.port
        resources:
          limits:
            cpu: #@ data.values.cpu
            memory: 128Mi
      #@ end
      #@ if data.values.debug:
      - name: debug-{i}
        image: busybox
      #@ end
---
apiVersion: v1
kind: Service
metadata:
  name: #@ "svc-{i}"
spec:
  selector: #@ labels_{i}("app-{i}")
  ports:
  #@ for c in data.values.containers:
  - port: #@ c.port
    targetPort: #@ c.port
  #@ end
"#
        ));
        i += 1;
    }
    out
}

const VALUES: &str = "#@data/values\n---\nname: web\ntier: front\nreplicas: 2\ncpu: 100m\ndebug: false\ncontainers:\n- name: main\n  image: nginx\n  port: 80\n- name: side\n  image: envoy\n  port: 9000\n";

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// The server's resident memory is measured from outside: other tests running beside it on
/// a 2-core machine change how many runs overlap, so `.ci/run` runs it alone.
#[test]
#[cfg(target_os = "linux")]
#[ignore = "memory: run alone by .ci/run"]
fn three_hundred_distinct_edits_keep_the_memory_flat() {
    let template = big_template();
    let dir = TempDir::with_files(&[
        (".yttlint.yaml", "roots:\n  - path: config\n"),
        ("config/big.yml", &template),
        ("config/values.yml", VALUES),
    ]);
    let file = dir.join("config/big.yml");
    let mut c = Client::start(&dir);
    c.open(&file, &template);
    let first = c.diagnostics(&uri(&file), |p| p["version"] == 1);
    // It renders: only the branches that no scenario takes are noted.
    let found = codes(&first);
    assert!(
        !found.is_empty() && found.iter().all(|c| c == "branch-never-evaluated"),
        "{:?}",
        &found[..found.len().min(5)]
    );
    let mut after_first = 0;
    for i in 0..300 {
        let version = i + 2;
        // A text never seen before, whose run does all the work again.
        let edited = template.replace("index: \"0\"", &format!("index: \"0-{i}\""));
        c.change(&file, version, &edited);
        c.diagnostics(&uri(&file), |p| p["version"] == version);
        c.notes.clear();
        if i == 0 {
            after_first = rss_kib(c.child.id());
        }
    }
    let after_last = rss_kib(c.child.id());
    let grown = after_last.saturating_sub(after_first);
    assert!(
        grown <= 15 << 10,
        "the server grew by {} MiB over 300 edits ({} MiB after the first, {} MiB after the last)",
        grown >> 10,
        after_first >> 10,
        after_last >> 10
    );
    assert_eq!(c.finish(), 0);
}
