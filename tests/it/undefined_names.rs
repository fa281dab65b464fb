//! Every name a template or Starlark file does not define is reported, each at its use, as ytt
//! lists them when it compiles the file (the evaluation stops at the first): once per use at
//! the top of a file, once per name in a function, with ytt's hint, one finding however many
//! scenarios run the root, and an error in a `.star` file nothing loads too (ytt resolves and
//! runs every file of the root, loaded or not: round fifty's N50-1). The ignored test
//! compares the list with what ytt itself prints (`.ci/run` runs it where ytt is installed).

use std::process::Command;

use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, Run, TempDir};

const APP: &str = "\
#@ load(\"@ytt:data\", \"data\")
#@ names = [data.values.name]
#@ def labels(values):
#@   return {\"app\": valuse[0], \"tier\": nmes, \"zone\": nmes}
#@ end
---
kind: ConfigMap
metadata:
  name: #@ nmes[0]
  labels: #@ labels(names)
data:
  size: #@ str(sise)
";

const VALUES: &str = "#@data/values\n---\nname: web\n";

/// A repository whose `render.sh` runs `config/` twice, with different values.
fn repo() -> TempDir {
    let dir = TempDir::new();
    dir.write("config/app.yml", APP);
    dir.write("config/values.yml", VALUES);
    dir.write(
        "config/unused.star",
        "def helper():\n  return missing\nend\n",
    );
    dir.write(
        "render.sh",
        "#!/bin/sh\nytt -f config\nytt -f config -v name=api\n",
    );
    dir
}

fn undefined(run: &Run) -> Vec<String> {
    let report = run.json();
    diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "rule") == "template-error")
        .map(|d| {
            format!(
                "{} {}:{}:{} {}",
                str_of(d, "severity"),
                str_of(d, "file"),
                d["line"],
                d["column"],
                str_of(d, "message")
            )
        })
        .collect()
}

#[test]
fn every_undefined_name_is_reported_once_at_its_use() {
    let dir = repo();
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        undefined(&run),
        [
            "error config/app.yml:4:21 undefined: valuse (did you mean values?)",
            "error config/app.yml:4:40 undefined: nmes (did you mean names?)",
            "error config/app.yml:9:12 undefined: nmes (did you mean names?)",
            "error config/app.yml:12:16 undefined: sise",
            "error config/unused.star:2:10 undefined: missing",
        ]
    );
    // The evaluation's own error is one of them, in both scenarios: one finding.
    let report = run.json();
    let first = diagnostics(&report)
        .iter()
        .find(|d| str_of(d, "message").starts_with("undefined: valuse"))
        .expect("the finding about valuse, where the engine stops");
    let related: Vec<&str> = first["related"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| str_of(r, "message"))
        .collect();
    assert!(
        related.iter().any(|m| m.starts_with("also in root config")),
        "{related:?}"
    );
}

#[test]
#[ignore = "needs ytt"]
fn the_names_are_those_ytt_lists() {
    let dir = repo();
    let out = Command::new(crate::util::ytt())
        .current_dir(&*dir)
        .args(["-f", "config/app.yml", "-f", "config/values.yml"])
        .output()
        .expect("ytt runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // `- undefined: NAME (hint)` then `    app.yml:LINE | code`.
    let lines: Vec<&str> = stderr.lines().collect();
    let mut from_ytt: Vec<String> = lines
        .windows(2)
        .filter_map(|w| {
            let message = w[0].trim().strip_prefix("- ")?;
            let line = w[1].trim().strip_prefix("app.yml:")?.split(' ').next()?;
            message
                .starts_with("undefined: ")
                .then(|| format!("config/app.yml:{line} {message}"))
        })
        .collect();
    from_ytt.sort();
    let mut ours: Vec<String> = undefined(&yttlint(&dir, &["--format", "json", "--no-cache"]))
        .into_iter()
        .filter(|l| l.contains("config/app.yml"))
        .map(|l| {
            let (place, message) = l.split_once(" undefined").unwrap_or_default();
            let place = place.trim_start_matches("error ");
            let line = place.rsplit_once(':').map_or(place, |(p, _)| p);
            format!("{line} undefined{message}")
        })
        .collect();
    ours.sort();
    assert_eq!(ours, from_ytt, "ytt printed:\n{stderr}");
}
