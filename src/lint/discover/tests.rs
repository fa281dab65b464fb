//! Tests of discovery: topmost directories, Package paths, configured roots and private
//! libraries (nested and path-named).

use std::path::Path;

use super::*;
use crate::lint::repo::walk::Kind;

fn file(path: &str, kind: Kind) -> RepoFile {
    RepoFile::for_test(path, kind)
}

fn paths_of(d: &Discovery) -> Vec<(&str, &Reason)> {
    d.roots
        .iter()
        .map(|r| (r.path.as_str(), &r.reason))
        .collect()
}

#[test]
fn topmost_directories_holding_ytt_files_are_roots() {
    let files = vec![
        file("README.md", Kind::Other),
        file("apps/a/config/app.yml", Kind::YttYaml),
        file("apps/a/config/sub/more.star", Kind::Starlark),
        file("apps/b/t.txt", Kind::TextTemplate),
        file("values/prod.yml", Kind::PlainYaml),
        file("apps/a/config/_ytt_lib/mon/x.yml", Kind::YttYaml),
    ];
    let d = from_files(&Config::default_for(Path::new("/repo")), &files);
    assert_eq!(
        paths_of(&d),
        vec![
            ("apps/a/config", &Reason::Topmost),
            ("apps/b", &Reason::Topmost)
        ]
    );
    assert_eq!(
        d.libraries,
        vec![Library {
            path: "apps/a/config/_ytt_lib/mon".into(),
            parent: "apps/a/config".into(),
            ..Library::default()
        }]
    );
}

#[test]
fn a_ytt_file_at_the_top_makes_the_repository_one_root() {
    let files = vec![file("a.yml", Kind::YttYaml), file("x/b.yml", Kind::YttYaml)];
    let d = from_files(&Config::default_for(Path::new("/repo")), &files);
    assert_eq!(paths_of(&d), vec![(".", &Reason::Topmost)]);
}

#[test]
fn nested_and_path_named_libraries() {
    let files = vec![
        file("_ytt_lib/github.com/org/lib/a.yml", Kind::YttYaml),
        file("_ytt_lib/github.com/org/lib/sub/b.star", Kind::Starlark),
        file(
            "_ytt_lib/github.com/org/lib/_ytt_lib/inner/c.yml",
            Kind::YttYaml,
        ),
        file("_ytt_lib/stray.yml", Kind::YttYaml),
    ];
    let d = from_files(&Config::default_for(Path::new("/repo")), &files);
    assert!(d.roots.is_empty());
    let libs: Vec<(&str, &str)> = d
        .libraries
        .iter()
        .map(|l| (l.path.as_str(), l.parent.as_str()))
        .collect();
    assert_eq!(
        libs,
        vec![
            ("_ytt_lib/github.com/org/lib", "."),
            (
                "_ytt_lib/github.com/org/lib/_ytt_lib/inner",
                "_ytt_lib/github.com/org/lib"
            ),
        ]
    );
}

#[test]
fn configured_roots_replace_discovery() {
    let mut config = Config::default_for(Path::new("/repo"));
    config.roots.push(crate::lint::config::RootConfig {
        path: "only".into(),
        args: vec!["-f".into(), ".".into(), "-f".into(), "../shared".into()],
        loc: crate::lint::config::Loc { line: 2, column: 3 },
        ..Default::default()
    });
    let files = vec![file("other/a.yml", Kind::YttYaml)];
    let d = from_files(&config, &files);
    assert_eq!(
        paths_of(&d),
        vec![(
            "only",
            &Reason::Config {
                line: 2,
                assumed: Vec::new(),
                package: None
            }
        )]
    );
    assert_eq!(d.roots[0].inputs, vec!["only", "shared"]);
}

#[test]
fn package_paths_come_first_and_cover_their_files() {
    let dir = std::env::temp_dir().join(format!("yttlint-disc-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("pkg/config")).unwrap();
    std::fs::write(
        dir.join("pkg/package.yml"),
        "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata: {name: p.1}\nspec:\n  template:\n    spec:\n      template:\n      - ytt: {paths: [config]}\n",
    )
    .unwrap();
    let mut pkg = file("pkg/package.yml", Kind::PlainYaml);
    pkg.package = true;
    let files = vec![
        pkg,
        file("pkg/config/app.yml", Kind::YttYaml),
        file("loose/t.yml", Kind::YttYaml),
    ];
    let d = from_files(&Config::default_for(&dir), &files);
    let reason = Reason::Package {
        kind: "Package",
        file: "pkg/package.yml".into(),
        line: 1,
        name: "p.1".into(),
    };
    assert_eq!(
        paths_of(&d),
        vec![("loose", &Reason::Topmost), ("pkg/config", &reason)]
    );
    assert_eq!(
        reason.to_string(),
        "ytt path of Package p.1 (pkg/package.yml:1)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn starlark_and_supplementary_files_make_no_root() {
    let dir = std::env::temp_dir().join(format!("yttlint-disc-sup-{}", std::process::id()));
    for (f, text) in [
        ("tools/BUILD.star", "def f(): pass\n"),
        ("overlays/o.yml", "#@overlay/match by=x\n---\na: 1\n"),
        ("app/t.yml", "a: #@ 1\n"),
        ("app/values.yml", "#@data/values\n---\na: 1\n"),
    ] {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let files = vec![
        file("app/t.yml", Kind::YttYaml),
        file("app/values.yml", Kind::YttYaml),
        file("overlays/o.yml", Kind::YttYaml),
        file("tools/BUILD.star", Kind::Starlark),
    ];
    let d = from_files(&Config::default_for(&dir), &files);
    assert_eq!(paths_of(&d), vec![("app", &Reason::Topmost)]);
    let libs: Vec<(&str, bool, &[String])> = d
        .libraries
        .iter()
        .map(|l| (l.path.as_str(), l.partial.is_some(), l.files.as_slice()))
        .collect();
    assert_eq!(
        libs,
        vec![("overlays", true, &["overlays/o.yml".to_string()][..])]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn design_documents_make_no_root_of_their_own() {
    let files = vec![
        file("config/app.yml", Kind::YttYaml),
        file("proposals/ytt/001-schemas/example.yaml", Kind::YttYaml),
        file("proposals/ytt/001-schemas/_ytt_lib/l/a.yml", Kind::YttYaml),
        file("proposals/README.md", Kind::Other),
    ];
    let d = from_files(&Config::default_for(Path::new("/repo")), &files);
    assert_eq!(paths_of(&d), vec![("config", &Reason::Topmost)]);
    assert!(d.libraries.is_empty(), "{:?}", d.libraries);
    assert!(
        d.notes
            .iter()
            .any(|n| n.starts_with("proposals: design documents, not linted")),
        "{:?}",
        d.notes
    );
}
