//! The repository walk: every file of the repository's listing (`tree.rs`, the one place the
//! `ignore` walker is configured for it: `.gitignore`, `.ignore` and the configuration's
//! `exclude` globs are honoured; hidden entries are walked, as `.github/`, `.tanzu-managed/` or
//! `.ci/` hold real configuration, but version control's own directories and the result cache
//! are not; the order is fixed) read once and classified by the one function that decides what
//! a walked file is to the linter, and the texts discovery asks for kept, so that it reads no
//! file twice.
//! A sub-directory with its own `.yttlint.yaml` is another project: it is not walked, and the
//! walk says so; a run lints it with its own configuration (`lint::projects`).

use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::WalkBuilder;

use crate::files::paths;
use crate::lint::repo::marker::{annotated, has_annotation};
use rayon::prelude::*;

/// What a file is to ytt and to discovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// YAML with at least one `#@` annotation or code line.
    YttYaml,
    /// YAML without annotations (data values files, plain documents, Package resources).
    PlainYaml,
    /// A Starlark module.
    Starlark,
    /// A `.txt` file using text templating (`(@ ... @)`).
    TextTemplate,
    /// Anything else (including `.txt` files without templating).
    Other,
}

impl Kind {
    /// Whether the file makes its directory a ytt library.
    pub fn is_ytt(self) -> bool {
        matches!(self, Kind::YttYaml | Kind::Starlark | Kind::TextTemplate)
    }
}

/// A file found by the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepoFile {
    /// Repository-relative path.
    pub path: String,
    pub kind: Kind,
    /// YAML (or a `*.tpl` file) that mentions a Carvel `Package` or a kapp-controller `App`
    /// (worth parsing for ytt paths).
    pub package: bool,
    /// YAML that mentions a `Template` or a `VirtualMachine` (worth reading for KubeVirt).
    pub kubevirt: bool,
    /// A ytt file (YAML, Starlark, text) whose text may hold a `yttlint:` directive (worth
    /// reading for suppressions).
    pub directives: bool,
    /// The CustomResourceDefinition documents of a YAML file, found in its text.
    pub crds: Vec<crate::lint::repo::crds::CrdDoc>,
    /// The ytt documents its YAML holds as strings (`values.yaml: |` then `#@data/values`).
    pub embedded: Vec<crate::lint::repo::embedded::Embedded>,
    /// A fingerprint of the text the walk read (0: not read), which tells the plan where two
    /// private libraries are copies of each other (the plan's `content`).
    pub digest: u64,
    /// The length in bytes of the text the walk read (0: not read): the plan's measure of the
    /// work of the jobs that read the file (`plan::cost`).
    pub size: u64,
    /// Text the walk read that calls `with_data_values` (worth reading again for the private
    /// libraries it hands data values whole: `discover::handed_values`).
    pub hands_values: bool,
    /// A ytt file whose text may give a private library data values: it names
    /// [`HANDS_VALUES_CALL`] or `library/ref`, or the walk could not read it as UTF-8 (the
    /// plan's `gives_no_library_values`, which then reads no text again).
    pub library_values: bool,
}

/// What the text of a file that hands a private library data values says
/// ([`RepoFile::hands_values`]).
pub const HANDS_VALUES_CALL: &str = "with_data_values";

#[cfg(test)]
impl RepoFile {
    /// A walked file of `kind` at `path` with nothing else found in it, for tests.
    pub fn for_test(path: &str, kind: Kind) -> RepoFile {
        RepoFile {
            path: path.to_string(),
            kind,
            package: false,
            kubevirt: false,
            directives: false,
            crds: Vec::new(),
            embedded: Vec::new(),
            digest: 0,
            size: 0,
            hands_values: false,
            library_values: true,
        }
    }
}

/// The `exclude` globs, matched against repository-relative paths (`*` stops at `/`).
pub fn exclude_set(globs: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let glob = GlobBuilder::new(g)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("invalid glob \"{g}\": {}", e.kind()))?;
        builder.add(glob);
    }
    builder.build().map_err(|e| e.to_string())
}

pub use super::tree::{Link, NotUtf8};

/// Whether the walk keeps a file's text for discovery (its repository path, its kind, its
/// text), which then reads no file twice: `never_kept` keeps none.
pub type Keep<'a> = dyn Fn(&str, Kind, &str) -> bool + Sync + 'a;

/// Keeps no text.
pub fn never_kept(_: &str, _: Kind, _: &str) -> bool {
    false
}

/// What the walk found: the files, the entries it could not read, the names it could not.
pub struct Walked {
    /// Every file not ignored or excluded, in path order.
    pub files: Vec<RepoFile>,
    /// Unreadable entries and nested repositories, said in a sentence each.
    pub problems: Vec<String>,
    /// Entries whose name is not UTF-8, in walk order.
    pub not_utf8: Vec<NotUtf8>,
    /// Entries that are neither directories nor regular files (symlinks, named pipes,
    /// devices), in path order: never read by the walk.
    pub others: Vec<String>,
    /// The ignore files not read, and their lines not understood (`ignores`).
    pub ignore_notes: Vec<String>,
    /// The symbolic links of the directories walked, ignored ones too (`tree::Link`).
    pub links: Vec<Link>,
    /// The texts the walk read that `keep` asked to keep, by repository path: UTF-8 with no
    /// NUL byte, as read.
    pub kept: std::collections::HashMap<String, String>,
}

/// Every file under `base` that is not ignored or excluded, in path order. Unreadable entries
/// and entries whose name is not UTF-8 (discovery cannot name them) are skipped, and said.
pub fn walk(base: &Path, exclude: &GlobSet) -> Walked {
    walk_tree(&super::tree::list(base, &[], exclude), &never_kept)
}

/// The files of a repository's listing (`tree::list`), each read and classified, the texts
/// `keep` asks for kept.
pub fn walk_tree(tree: &super::tree::Tree, keep: &Keep<'_>) -> Walked {
    let base = &tree.base;
    let mut problems = tree.problems.clone();
    // Reading and classifying the files is most of the walk's time: on every core. Each is
    // read under the repository's read policy: a file swapped for a symlink since the walk
    // listed it is not followed out of the repository.
    let policy = crate::files::ReadPolicy::repository(base);
    let mut classified: Vec<(RepoFile, Option<String>)> = tree
        .files
        .par_iter()
        .map(|(abs, rel)| classify_keeping(abs, rel.clone(), &policy, keep))
        .collect();
    classified.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    let mut kept = std::collections::HashMap::new();
    let mut files = Vec::with_capacity(classified.len());
    for (file, text) in classified {
        if let Some(text) = text {
            kept.insert(file.path.clone(), text);
        }
        files.push(file);
    }
    for dir in &tree.nested {
        problems.push(format!(
            "{dir} has its own {}: its files are linted with that configuration",
            crate::lint::config::FILE_NAME
        ));
    }
    Walked {
        files,
        problems,
        not_utf8: tree.not_utf8.clone(),
        others: tree.others.clone(),
        ignore_notes: tree.ignore_notes.clone(),
        links: tree.links.clone(),
        kept,
    }
}

/// The `name-not-utf8` finding of each entry, under the repository's top (`.`); `reader`
/// names the root that reads the entry, if one does.
pub fn not_utf8_findings(
    names: &[NotUtf8],
    reader: &dyn Fn(&str) -> Option<String>,
) -> Vec<crate::report::Diagnostic> {
    use crate::report::{Diagnostic, Rule, Span};
    names
        .iter()
        .map(|n| {
            let what = if n.dir { "what it holds" } else { "it" };
            let read = match reader(&n.path) {
                Some(root) => {
                    format!("ytt reads it with root {root}, the linter cannot name {what}")
                }
                None => format!("the linter cannot name {what}"),
            };
            let mut d = Diagnostic::new(
                Rule::NameNotUtf8,
                format!(
                    "{} is not a UTF-8 name (shown with U+FFFD for its invalid bytes): {read}",
                    n.path
                ),
            )
            .at(Span::point(&n.path, 1, 1));
            d.root = Some(".".to_string());
            d
        })
        .collect()
}

/// The ytt files (templates, Starlark, text templates) under `base` that only `.gitignore`,
/// `.ignore` and git's excludes hide: walked again without them (version control's
/// directories and the `exclude` globs still skipped, special files and symlinks never read).
pub fn ignored_ytt_files(base: &Path, exclude: &GlobSet) -> Vec<String> {
    let filter_base = base.to_path_buf();
    let excluded = exclude.clone();
    let policy = crate::files::ReadPolicy::repository(base);
    let walker = WalkBuilder::new(base)
        .standard_filters(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |e| {
            let nested = e.file_type().is_some_and(|t| t.is_dir())
                && crate::lint::config::file_in(e.path()).is_some();
            paths::relative(&filter_base, e.path()).is_none_or(|rel| {
                rel == "." || !(never_walked(e) || nested || excluded.is_match(&rel))
            })
        })
        .build();
    walker
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let rel = paths::relative(base, e.path())?;
            let f = classify(e.path(), rel, &policy);
            f.kind.is_ytt().then_some(f.path)
        })
        .collect()
}

/// Directories no walk enters, hidden or not: version control's own (`.git`, `.hg`, `.svn`)
/// and the result cache.
pub fn never_walked(e: &ignore::DirEntry) -> bool {
    let is_dir = e.file_type().is_some_and(|t| t.is_dir());
    let name = e.file_name().to_str().unwrap_or("");
    is_dir && matches!(name, ".git" | ".hg" | ".svn" | crate::files::LINT_CACHE_DIR)
}

/// The fingerprint of a file's text in [`RepoFile::digest`]: foldhash with a fixed seed, so
/// the same every run (it only places work, never decides a finding).
pub fn text_digest(text: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x5954_544c_494e_5401).hash_one(text)
}

/// Decides what a file is: by extension, then (for YAML and text) by its content, read under
/// `policy` (an editor's buffer in its place). `abs` is a regular file the walk listed: it is
/// opened without an `lstat` first (`files::listed`).
pub fn classify(abs: &Path, path: String, policy: &crate::files::ReadPolicy) -> RepoFile {
    classify_keeping(abs, path, policy, &never_kept).0
}

/// [`classify`], with the text read when `keep` asks for it (UTF-8 with no NUL byte only).
fn classify_keeping(
    abs: &Path,
    path: String,
    policy: &crate::files::ReadPolicy,
    keep: &Keep<'_>,
) -> (RepoFile, Option<String>) {
    let ext = path.rsplit('.').next().unwrap_or("");
    // The text, and whether it was UTF-8 as read.
    let read = || {
        crate::files::listed::read_allowed_listed(abs, policy).map(|b| match String::from_utf8(b) {
            Ok(t) => (t, true),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), false),
        })
    };
    let read = match ext {
        "star" | "yml" | "yaml" | "txt" | "tpl" => read(),
        _ if crate::lint::repo::embedded::named_for(&path) => read(),
        _ if crate::lint::repo::embedded_heredoc::named_for(&path) => read(),
        _ => None,
    };
    let utf8 = read.as_ref().is_some_and(|(_, valid)| *valid);
    let text = read.map(|(t, _)| t);
    let digest = text.as_deref().map_or(0, text_digest);
    let size = text.as_deref().map_or(0, |t| t.len() as u64);
    let hands_values = text
        .as_deref()
        .is_some_and(|t| super::holds(t, HANDS_VALUES_CALL));
    let embedded = match text.as_deref() {
        Some(t) if crate::lint::repo::embedded::named_for(&path) => {
            crate::lint::repo::embedded::find(t)
        }
        Some(t) if crate::lint::repo::embedded_heredoc::named_for(&path) => {
            crate::lint::repo::embedded_heredoc::find_in_script(t)
        }
        _ => Vec::new(),
    };
    let directives = text
        .as_deref()
        .is_some_and(crate::lint::repo::marker::may_have_directive);
    let crds = match (ext, text.as_deref()) {
        ("yml" | "yaml", Some(t)) => crate::lint::repo::crds::find(t),
        _ => Vec::new(),
    };
    // ytt's own file tests are no ytt input (`repo::filetest`).
    let filetest = matches!(ext, "yml" | "yaml" | "txt")
        && text
            .as_deref()
            .is_some_and(crate::lint::repo::filetest::is_filetest);
    let (kind, package, kubevirt) = match (ext, text.as_deref()) {
        ("star", _) => (Kind::Starlark, false, false),
        ("yml" | "yaml", Some(text)) => {
            // A `#@daily` after a cron string is no ytt (`repo::stray_marker`).
            let kind = if has_annotation(text)
                && annotated(&path, text)
                && !crate::lint::repo::stray_marker::only_stray(text)
            {
                Kind::YttYaml
            } else {
                Kind::PlainYaml
            };
            (kind, mentions_package(text), mentions_kubevirt(text))
        }
        ("yml" | "yaml", None) => (Kind::PlainYaml, false, false),
        ("txt", Some(text)) if super::holds(text, "(@") => (Kind::TextTemplate, false, false),
        // `app.yaml.tpl`: a resource filled in by some other tool before it is applied.
        ("tpl", Some(text)) => (Kind::Other, mentions_package(text), false),
        _ => (Kind::Other, false, false),
    };
    let kind = match kind {
        Kind::YttYaml | Kind::TextTemplate if filetest => Kind::Other,
        kind => kind,
    };
    let library_values = !utf8
        || text
            .as_deref()
            .is_none_or(|t| hands_values || super::holds(t, "library/ref"));
    let kept =
        text.filter(|t| utf8 && memchr::memchr(0, t.as_bytes()).is_none() && keep(&path, kind, t));
    let file = RepoFile {
        path,
        kind,
        package,
        kubevirt,
        directives,
        crds,
        embedded,
        digest,
        size,
        hands_values,
        library_values,
    };
    (file, kept)
}

/// A `kind: Template` or `kind: VirtualMachine` (block, flow or JSON style) somewhere, in a
/// document that is not a Backstage scaffolder `Template` (`scaffolder.backstage.io`).
fn mentions_kubevirt(text: &str) -> bool {
    static KIND: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"kind["']?\s*:\s*["']?(Template|VirtualMachine)\b"#).ok()
    });
    if !(super::holds(text, "Template") || super::holds(text, "VirtualMachine")) {
        return false;
    }
    let Some(re) = KIND.as_ref() else {
        return true;
    };
    if !super::holds(text, BACKSTAGE) {
        return re.is_match(text);
    }
    documents(text)
        .into_iter()
        .any(|d| !d.contains(BACKSTAGE) && re.is_match(d))
}

/// The API group of Backstage's software templates.
const BACKSTAGE: &str = "scaffolder.backstage.io";

/// The YAML documents of `text`, split at `---` lines.
fn documents(text: &str) -> Vec<&str> {
    let mut starts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

fn mentions_package(text: &str) -> bool {
    let has = |word: &str| super::holds(text, word);
    // Two searches settle the files that name no Carvel group (nearly all).
    if !has("carvel.dev") && !has("k14s.io") {
        return false;
    }
    (has("data.packaging.carvel.dev") && has("Package"))
        || (has("kappctrl.k14s.io") && has("App"))
        || (has("kctrl.carvel.dev") && has("PackageBuild"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carvel_objects_are_recognised_by_group_and_kind() {
        let package = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\n";
        assert!(mentions_package(package));
        assert!(mentions_package(
            "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\n"
        ));
        assert!(mentions_package(
            "apiVersion: kctrl.carvel.dev/v1alpha1\nkind: PackageBuild\n"
        ));
        assert!(!mentions_package(
            "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: Config\n"
        ));
        assert!(!mentions_package("apiVersion: apps/v1\nkind: Deployment\n"));
        assert!(!mentions_package(
            "url: https://carvel.dev\nkind: Package\n"
        ));
    }

    #[test]
    fn kubevirt_kinds_are_recognised_in_any_style() {
        assert!(mentions_kubevirt("apiVersion: v1\nkind: Template\n"));
        assert!(mentions_kubevirt(
            "- {kind: VirtualMachine, metadata: {}}\n"
        ));
        assert!(mentions_kubevirt("{\"kind\": \"Template\"}"));
        assert!(!mentions_kubevirt("kind: PodTemplate\n"));
        let backstage = "apiVersion: scaffolder.backstage.io/v1beta3\nkind: Template\n";
        assert!(!mentions_kubevirt(backstage));
        assert!(mentions_kubevirt(&format!(
            "{backstage}---\napiVersion: template.openshift.io/v1\nkind: Template\n"
        )));
        assert!(!mentions_kubevirt("kind: VirtualMachineInstanceTypeX\n"));
        assert!(!mentions_kubevirt(
            "kind: Deployment\nspec:\n  template: {}\n"
        ));
    }

    #[test]
    fn walk_honours_gitignore_and_exclude_and_sorts() {
        let dir = std::env::temp_dir().join(format!("yttlint-walk-{}", std::process::id()));
        for d in ["a", "vendor/x", "build", ".ci", ".git"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        std::fs::write(dir.join(".gitignore"), "build/\n").unwrap();
        std::fs::write(dir.join("a/t.yml"), "a: #@ 1\n").unwrap();
        std::fs::write(dir.join("a/v.yml"), "a: 1\n").unwrap();
        std::fs::write(dir.join("a/h.star"), "x = 1\n").unwrap();
        std::fs::write(dir.join("a/notes.txt"), "hello\n").unwrap();
        std::fs::write(dir.join("a/t.txt"), "(@= \"x\" @)\n").unwrap();
        std::fs::write(dir.join("vendor/x/t.yml"), "a: #@ 1\n").unwrap();
        std::fs::write(dir.join("build/t.yml"), "a: #@ 1\n").unwrap();
        std::fs::write(dir.join(".ci/t.yml"), "a: #@ 1\n").unwrap();
        std::fs::write(dir.join(".git/t.yml"), "a: #@ 1\n").unwrap();
        std::fs::create_dir_all(dir.join("nested")).unwrap();
        std::fs::write(dir.join("nested/.yttlint.yaml"), "").unwrap();
        std::fs::write(dir.join("nested/t.yml"), "a: #@ 1\n").unwrap();
        // A directory whose name is not UTF-8 (Unix names are bytes; Windows names are UTF-16).
        #[cfg(unix)]
        {
            let odd = crate::platform::fs::name_from_bytes(b"a/old\xff");
            std::fs::create_dir_all(dir.join(&odd)).unwrap();
            std::fs::write(dir.join(&odd).join("t.yml"), "a: #@ 1\n").unwrap();
        }
        let Walked {
            files,
            problems,
            not_utf8,
            ..
        } = walk(&dir, &exclude_set(&["vendor/**".into()]).unwrap());
        #[cfg(unix)]
        assert_eq!(
            not_utf8,
            [NotUtf8 {
                path: "a/old\u{FFFD}".to_string(),
                dir: true
            }]
        );
        assert_eq!(
            problems,
            vec!["nested has its own .yttlint.yaml: its files are linted with that configuration"]
        );
        let got: Vec<(&str, Kind)> = files.iter().map(|f| (f.path.as_str(), f.kind)).collect();
        assert_eq!(
            got,
            vec![
                (".ci/t.yml", Kind::YttYaml),
                (".gitignore", Kind::Other),
                ("a/h.star", Kind::Starlark),
                ("a/notes.txt", Kind::Other),
                ("a/t.txt", Kind::TextTemplate),
                ("a/t.yml", Kind::YttYaml),
                ("a/v.yml", Kind::PlainYaml),
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
