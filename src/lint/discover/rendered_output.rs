//! A layout root's subfolder that is the committed output of its templates (round
//! thirty-six's R36-3: `argocd/app.yaml`, a template, and `argocd/cd/app.yaml`, the same
//! Deployment as rendered for one environment, the folder an Argo CD Application syncs).
//! The layout's guess, `ytt -f argocd`, gives ytt the template and its output together, and
//! every object comes out twice: `duplicate-object` warnings about a command nobody runs.
//! A subfolder of plain YAML (no annotation) holding an object the root's templates also make
//! (same API group, kind, namespace and name, all written out) is the weakest part of that
//! guess: it is taken out of the layout root and checked as a root of its own (ytt renders
//! plain YAML as it is, so the Kubernetes checks still see its objects), with a note. A command
//! of the repository that renders both is not a layout root, and keeps its findings.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use super::{Discovery, Reason, Root};
use crate::files::paths::{self, is_within};
use crate::files::repo_text::read_repo_text;
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::yaml::node::Value;
use crate::yaml::parse::{parse, ParseOpts};

/// The most files of a layout root read for the objects they make: a larger root is not
/// looked at (its subfolders stay its inputs).
const MAX_FILES: usize = 256;

/// An object's identity as written: API group, kind, namespace, name.
type Identity = (String, String, String, String);

/// The layout roots of `top`, with each subfolder that holds the committed output of the
/// root's own templates made a root of its own (a note in `d` says which, and why).
pub fn set_apart(repo: &Path, files: &[RepoFile], top: Vec<Root>, d: &mut Discovery) -> Vec<Root> {
    let mut out = Vec::new();
    for mut root in top {
        if !matches!(root.reason, Reason::Topmost) {
            out.push(root);
            continue;
        }
        let mut apart = Vec::new();
        let mut inputs = Vec::new();
        for input in std::mem::take(&mut root.inputs) {
            match outputs_in(repo, files, &input) {
                Some(found) if !found.is_empty() => {
                    let dirs: Vec<&str> = found.iter().map(|(dir, _)| dir.as_str()).collect();
                    inputs.extend(without(files, &input, &dirs));
                    apart.extend(found);
                }
                _ => inputs.push(input),
            }
        }
        root.inputs = inputs;
        for (dir, (object, template)) in apart {
            d.notes.push(format!(
                "{dir} is checked as a root of its own, not with the other files of {}: it holds {object}, which {template} renders, so it is taken for the templates' committed output, not an input of the same command",
                root.name
            ));
            let mut own = Root::found(&dir, Reason::Topmost);
            own.inputs = vec![dir];
            out.push(own);
        }
        if !root.inputs.is_empty() {
            out.push(root);
        }
    }
    out
}

/// The subfolders of the input directory `input` (topmost first) that hold only plain YAML,
/// each with an object of it that a template of `input` outside it makes (shown, and the
/// template's path). `None` when `input` is no directory or is too large to look at.
fn outputs_in(
    repo: &Path,
    files: &[RepoFile],
    input: &str,
) -> Option<Vec<(String, (String, String))>> {
    let mine: Vec<&RepoFile> = files
        .iter()
        .filter(|f| f.path != input && is_within(&f.path, input) && read_by_ytt(&f.path))
        .collect();
    if mine.is_empty() || mine.len() > MAX_FILES {
        return None;
    }
    // Directories below `input` whose files ytt reads are all plain YAML.
    let below: BTreeSet<&str> = mine
        .iter()
        .map(|f| paths::parent(&f.path))
        .filter(|p| *p != input)
        .collect();
    let mut candidates: Vec<&str> = Vec::new();
    for dir in below {
        let plain = mine
            .iter()
            .filter(|f| is_within(&f.path, dir))
            .all(|f| f.kind == Kind::PlainYaml);
        if plain && !candidates.iter().any(|c| is_within(dir, c)) {
            candidates.push(dir);
        }
    }
    if candidates.is_empty() {
        return Some(Vec::new());
    }
    // The objects the templates make (no template is inside a candidate: it holds plain YAML
    // only), each file parsed once.
    let mut made: Vec<(Identity, &str)> = Vec::new();
    for t in mine.iter().filter(|f| f.kind == Kind::YttYaml) {
        made.extend(
            identities(repo, &t.path)
                .into_iter()
                .map(|i| (i, t.path.as_str())),
        );
    }
    let mut out = Vec::new();
    if made.is_empty() {
        return Some(out);
    }
    for dir in candidates {
        let found = mine
            .iter()
            .filter(|f| is_within(&f.path, dir))
            .flat_map(|f| identities(repo, &f.path))
            .find_map(|i| made.iter().find(|(m, _)| *m == i).map(|(_, t)| (i, *t)));
        if let Some((i, t)) = found {
            out.push((dir.to_string(), (shown(&i), t.to_string())));
        }
    }
    Some(out)
}

/// The parts of directory `input` that hold none of `dirs`: the largest ones, as a layout
/// root's inputs are narrowed (ytt takes a directory whole).
fn without(files: &[RepoFile], input: &str, dirs: &[&str]) -> Vec<String> {
    let holds = |d: &str| dirs.iter().any(|x| is_within(x, d));
    let mut out = BTreeSet::new();
    for f in files.iter().filter(|f| is_within(&f.path, input)) {
        if dirs.iter().any(|x| is_within(&f.path, x)) || !read_by_ytt(&f.path) {
            continue;
        }
        let mut best = f.path.clone();
        let mut p = paths::parent(&f.path);
        while p != input && is_within(p, input) {
            if !holds(p) {
                best = p.to_string();
            }
            p = paths::parent(p);
        }
        out.insert(best);
    }
    out.into_iter().collect()
}

/// Whether ytt reads a file of a directory it is given.
fn read_by_ytt(p: &str) -> bool {
    let ext = p.rsplit('.').next().unwrap_or("");
    matches!(ext, "yml" | "yaml" | "star" | "txt" | "json")
}

/// The identities of the objects of the YAML file at `path` whose API version, kind, name and
/// namespace (if any) are written out as text.
fn identities(repo: &Path, path: &str) -> Vec<Identity> {
    let Some(text) = read_repo_text(repo, path) else {
        return Vec::new();
    };
    let file: Arc<str> = Arc::from(path);
    let Ok(ds) = parse(&text, &file, &ParseOpts::default()) else {
        return Vec::new();
    };
    ds.items
        .iter()
        .filter_map(|doc| identity(&doc.value))
        .collect()
}

/// The identity of one object, when it is written out.
fn identity(v: &Value) -> Option<Identity> {
    let api = v.field("apiVersion")?.as_str()?;
    let kind = v.field("kind")?.as_str()?;
    let meta = v.field("metadata")?;
    let name = meta.field("name")?.as_str()?;
    let namespace = match meta.field("namespace") {
        None | Some(Value::Null) => "",
        Some(n) => n.as_str()?,
    };
    let group = api.rsplit_once('/').map_or("", |(g, _)| g);
    Some((
        group.to_string(),
        kind.to_string(),
        namespace.to_string(),
        name.to_string(),
    ))
}

/// An identity as a message shows it: `Deployment demo/web`.
fn shown(i: &Identity) -> String {
    match i.2.as_str() {
        "" => format!("{} {}", i.1, i.3),
        ns => format!("{} {ns}/{}", i.1, i.3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, kind: Kind) -> RepoFile {
        RepoFile::for_test(path, kind)
    }

    #[test]
    fn a_layout_root_is_narrowed_around_the_folders_set_apart() {
        let files = [
            file("a/app.yaml", Kind::YttYaml),
            file("a/lib/x.star", Kind::Starlark),
            file("a/out/cd/app.yaml", Kind::PlainYaml),
            file("a/out/keep.yaml", Kind::YttYaml),
            file("a/README.md", Kind::Other),
        ];
        assert_eq!(
            without(&files, "a", &["a/out/cd"]),
            ["a/app.yaml", "a/lib", "a/out/keep.yaml"]
        );
    }

    #[test]
    fn an_identity_is_written_out_or_none() {
        let doc = |text: &str| {
            let file: Arc<str> = Arc::from("x.yaml");
            parse(text, &file, &ParseOpts::default()).unwrap().items[0]
                .value
                .clone()
        };
        let v = doc(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: demo\n",
        );
        assert_eq!(
            identity(&v),
            Some((
                "apps".into(),
                "Deployment".into(),
                "demo".into(),
                "web".into()
            ))
        );
        assert_eq!(shown(&identity(&v).unwrap()), "Deployment demo/web");
        let templated =
            doc("apiVersion: v1\nkind: Service\nmetadata:\n  name: #@ data.values.name\n");
        assert_eq!(identity(&templated), None);
    }
}
