//! Which schema source of a kind is certain. A `k8s-schema` finding is checked against the
//! CRDs the root renders itself (certain: they are applied with the objects), else against a
//! CustomResourceDefinition file elsewhere in the repository, used only when every CRD of the
//! kind in the repository is the same definition (`lint::job::kubernetes`). That file is
//! certain when it is the repository's only definition of the kind and nothing says the
//! cluster gets the kind another way. It is an assumption, and what is found against it a
//! warning naming the file, when
//!
//! - a Crossplane XRD of the repository gives the kind (its composite's `names` or its
//!   claim's `claimNames`): Crossplane makes the cluster's CRD from the XRD;
//! - the CRD is a copy of what a controller made on a cluster (`metadata.ownerReferences`):
//!   its owner makes the cluster's, from whatever version the cluster runs;
//! - the CRD lies in a directory another tool owns, a cdk8s project (`cdk8s.yaml` in its
//!   directory or above): it is kept for that tool's code generation, not applied.
//!
//! A CRD under a directory `kubernetes.schemas` of `.yttlint.yaml` names is the user's choice
//! and certain.

use std::path::Path;

use crate::lint::job::kubernetes::KubeCheck;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Source};
use crate::yaml::{Document, Value};

/// The assumption a finding checked against the repository CRD `doc` (in the repository file
/// `file`) of `group`/`kind` rests on, or `None` when that CRD is certain.
pub fn doubt(
    check_with: &KubeCheck,
    repo: &Path,
    file: &str,
    doc: &Document,
    group: &str,
    kind: &str,
) -> Option<Assumption> {
    if check_with
        .schemas
        .iter()
        .any(|dir| crate::files::paths::is_within(file, dir))
    {
        return None;
    }
    let why = xrd_of(check_with, group, kind)
        .map(|xrd| format!("the Crossplane XRD in {xrd} gives the kind"))
        .or_else(|| owner(doc).map(|o| format!("a copy of what {o} made on a cluster")))
        .or_else(|| cdk8s_project(repo, file).map(|p| format!("kept for cdk8s ({p})")))?;
    Some(Assumption::new(
        AssumptionKind::RepositoryCrd,
        format!(
            "{kind} was checked against the CRD in {file}, which this root does not render; \
             the cluster's may differ ({why})"
        ),
    ))
}

/// Makes `d` rest on `a` besides what its job assumes (`certainty::attach` keeps it and sets
/// the job's source and origin).
pub fn assume(d: &mut Diagnostic, a: Assumption) {
    d.assume(a, || Certainty::from(Source::Config, None));
}

/// The file of a Crossplane XRD of the repository that gives `group`/`kind`.
fn xrd_of<'a>(check_with: &'a KubeCheck, group: &str, kind: &str) -> Option<&'a str> {
    check_with
        .crds
        .docs()?
        .iter()
        .find(|(_, c)| c.xrd && c.group == group && c.kind == kind)
        .map(|(file, _)| file.as_str())
}

/// `KIND NAME` of the first owner a CRD document names in `metadata.ownerReferences`.
fn owner(doc: &Document) -> Option<String> {
    let Value::Array(owners) = doc.value.field("metadata")?.field("ownerReferences")? else {
        return None;
    };
    let first = &owners.items.first()?.value;
    let kind = first
        .field("kind")
        .and_then(Value::as_str)
        .unwrap_or("its owner");
    Some(match first.field("name").and_then(Value::as_str) {
        Some(name) => format!("the {kind} {name}"),
        None => format!("the {kind}"),
    })
}

/// The `cdk8s.yaml` in the directory of `file` or above it, within the repository.
fn cdk8s_project(repo: &Path, file: &str) -> Option<String> {
    let mut dir = Path::new(file).parent();
    while let Some(d) = dir {
        let candidate = d.join("cdk8s.yaml");
        let is_file = std::fs::symlink_metadata(repo.join(&candidate)).is_ok_and(|m| m.is_file());
        if is_file {
            return Some(candidate.to_string_lossy().replace('\\', "/"));
        }
        dir = d.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::job::repo_crds::RepoCrds;
    use crate::lint::repo::crds::find;

    fn check(files: &[(&str, &str)], schemas: &[&str]) -> KubeCheck {
        let docs = files
            .iter()
            .flat_map(|(f, text)| find(text).into_iter().map(|c| (f.to_string(), c)))
            .collect();
        KubeCheck {
            version: "1.30".into(),
            version_given: false,
            crds: RepoCrds::new(docs),
            schemas: schemas.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A repository directory of the test's own (no `cdk8s.yaml` unless it writes one).
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("yttlint-crd-source-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn doc(text: &str) -> Document {
        let set = crate::yaml::parse::parse(text, &"crd".into(), &Default::default()).unwrap();
        set.items.into_iter().next().unwrap()
    }

    /// What a `Database` of `example.org` checked against the CRD `text` in `file` assumes.
    fn database(c: &KubeCheck, dir: &Path, file: &str, text: &str) -> Option<Assumption> {
        doubt(c, dir, file, &doc(text), "example.org", "Database")
    }

    const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
        metadata: {name: dbs.example.org}\nspec: {group: example.org, names: {kind: Database}}\n";
    const XRD: &str = "apiVersion: apiextensions.crossplane.io/v1\n\
        kind: CompositeResourceDefinition\nspec:\n  group: example.org\n  \
        names: {kind: XDatabase}\n  claimNames: {kind: Database}\n";

    #[test]
    fn a_crd_nothing_contradicts_is_certain() {
        let dir = std::path::PathBuf::from("/nonexistent/yttlint-crd-source");
        let c = check(&[("crds/db.yaml", CRD)], &[]);
        let d = database(&c, &dir, "crds/db.yaml", CRD);
        assert_eq!(d, None);
    }

    #[test]
    fn an_xrd_of_the_kind_makes_the_crd_an_assumption() {
        let dir = std::path::PathBuf::from("/nonexistent/yttlint-crd-source");
        let c = check(&[("crds/db.yaml", CRD), ("xp/xrd.yaml", XRD)], &[]);
        let d = database(&c, &dir, "crds/db.yaml", CRD);
        let d = d.unwrap();
        assert_eq!(d.kind, AssumptionKind::RepositoryCrd);
        assert_eq!(
            d.message,
            "Database was checked against the CRD in crds/db.yaml, which this root does not \
             render; the cluster's may differ (the Crossplane XRD in xp/xrd.yaml gives the kind)"
        );
        let other = doubt(&c, &dir, "crds/db.yaml", &doc(CRD), "example.org", "Table");
        assert_eq!(other, None, "another kind");
    }

    #[test]
    fn a_copy_a_controller_made_is_an_assumption() {
        let dir = std::path::PathBuf::from("/nonexistent/yttlint-crd-source");
        let owned = CRD.replace(
            "metadata: {name: dbs.example.org}",
            "metadata:\n  name: dbs.example.org\n  ownerReferences:\n  - {kind: CompositeResourceDefinition, name: xdbs.example.org}",
        );
        let c = check(&[("crds/db.yaml", &owned)], &[]);
        let d = database(&c, &dir, "crds/db.yaml", &owned);
        assert!(d.unwrap().message.ends_with(
            "(a copy of what the CompositeResourceDefinition xdbs.example.org made on a cluster)"
        ));
    }

    #[test]
    fn a_crd_of_a_cdk8s_project_is_an_assumption_unless_configured() {
        let dir = scratch("cdk8s");
        std::fs::create_dir_all(dir.join("gen/crds")).unwrap();
        std::fs::write(dir.join("gen/cdk8s.yaml"), "language: go\n").unwrap();
        let c = check(&[("gen/crds/db.yaml", CRD)], &[]);
        let d = database(&c, &dir, "gen/crds/db.yaml", CRD);
        assert!(d
            .unwrap()
            .message
            .ends_with("(kept for cdk8s (gen/cdk8s.yaml))"));
        let configured = check(&[("gen/crds/db.yaml", CRD)], &["gen/crds"]);
        let d = database(&configured, &dir, "gen/crds/db.yaml", CRD);
        assert_eq!(d, None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
