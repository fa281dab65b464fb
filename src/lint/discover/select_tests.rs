//! Tests of selection by paths: everything, files (ytt inputs, values files, the
//! configuration), directories, and what selects nothing.

use super::*;
use crate::lint::config::ScenarioConfig;
use crate::lint::discover::{Library, Reason};

struct Fixture {
    dir: PathBuf,
    config: Config,
    d: Discovery,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn root(path: &str) -> Root {
    Root::found(path, Reason::Topmost)
}

fn fixture(name: &str) -> Fixture {
    let dir = std::env::temp_dir().join(format!("yttlint-sel-{}-{name}", std::process::id()));
    for f in [
        "a/app.yml",
        "a/README.md",
        "a/_ytt_lib/lib/x.yml",
        "b/app.yml",
        "ci/prod.yml",
        "ci/cert.pem",
        ".yttlint.yaml",
        "vms/templates/t.yaml",
        "vms/vm.yaml",
    ] {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "a: 1\n").unwrap();
    }
    let mut config = Config::default_for(&dir);
    config.file = Some(dir.join(".yttlint.yaml"));
    let mut b = root("b");
    b.scenarios.push(ScenarioConfig {
        name: "prod".into(),
        values_files: vec!["+:ci/prod.yml".into()],
        data_values: Vec::new(),
        loc: Default::default(),
        ..ScenarioConfig::default()
    });
    b.args = vec!["--data-value-file".into(), "cert=../ci/cert.pem".into()];
    let d = Discovery {
        roots: vec![root("a"), b],
        libraries: vec![Library {
            path: "a/_ytt_lib/lib".into(),
            parent: "a".into(),
            ..Library::default()
        }],
        kubevirt_files: vec!["vms/templates/t.yaml".into(), "vms/vm.yaml".into()],
        ..Discovery::default()
    };
    Fixture { dir, config, d }
}

fn pick(f: &Fixture, targets: &[&str]) -> (Vec<usize>, Vec<usize>) {
    let targets: Vec<PathBuf> = targets.iter().map(|t| f.dir.join(t)).collect();
    let none = crate::lint::repo::walk::exclude_set(&["b/excluded*".into()]).unwrap();
    let s = select(&f.config, &f.d, &none, &targets);
    (s.roots, s.libraries)
}

#[test]
fn nothing_or_the_repository_selects_everything() {
    let f = fixture("all");
    assert_eq!(pick(&f, &[]), (vec![0, 1], vec![0]));
    assert_eq!(pick(&f, &["."]), (vec![0, 1], vec![0]));
    assert_eq!(pick(&f, &[".yttlint.yaml"]), (vec![0, 1], vec![0]));
}

#[test]
fn files_select_the_roots_and_libraries_that_contain_them() {
    let f = fixture("files");
    assert_eq!(pick(&f, &["a/app.yml"]), (vec![0], vec![]));
    assert_eq!(pick(&f, &["a/_ytt_lib/lib/x.yml"]), (vec![0], vec![0]));
    assert_eq!(pick(&f, &["ci/prod.yml"]), (vec![1], vec![]));
    assert_eq!(pick(&f, &["ci/cert.pem"]), (vec![1], vec![]));
}

#[test]
fn other_deleted_and_excluded_files_select_nothing() {
    let f = fixture("none");
    assert_eq!(pick(&f, &["a/README.md"]), (vec![], vec![]));
    assert_eq!(pick(&f, &["a/deleted.yml"]), (vec![], vec![]));
    std::fs::write(f.dir.join("b/excluded.yml"), "a: 1\n").unwrap();
    assert_eq!(pick(&f, &["b/excluded.yml"]), (vec![], vec![]));
}

#[test]
fn directories_select_what_they_contain_or_lie_in() {
    let f = fixture("dirs");
    assert_eq!(pick(&f, &["a/_ytt_lib"]), (vec![0], vec![0]));
    assert_eq!(pick(&f, &["b"]), (vec![1], vec![]));
}

#[test]
fn kubevirt_plain_files_are_selected_by_directory_or_together_by_file() {
    let f = fixture("plain");
    let plain = |targets: &[&str]| {
        let targets: Vec<PathBuf> = targets.iter().map(|t| f.dir.join(t)).collect();
        let none = crate::lint::repo::walk::exclude_set(&[]).unwrap();
        select(&f.config, &f.d, &none, &targets).plain
    };
    let all = vec![
        "vms/templates/t.yaml".to_string(),
        "vms/vm.yaml".to_string(),
    ];
    assert_eq!(plain(&[]), all);
    assert_eq!(plain(&["vms/templates"]), vec!["vms/templates/t.yaml"]);
    // A staged VirtualMachine brings the Templates it may be created from.
    assert_eq!(plain(&["vms/vm.yaml"]), all);
    assert!(plain(&["a/app.yml", "b"]).is_empty());
}
