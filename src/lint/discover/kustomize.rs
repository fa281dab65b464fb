//! A Package's or App's ytt path that is a kustomize tree: a directory with a
//! `kustomization.yaml` (`kustomization.yml`, `Kustomization`) and the files it names, bases,
//! resources and strategic-merge patches (a `Deployment` with only `spec.replicas`). kustomize
//! would merge the patches into the base; kapp-controller's ytt step does not run kustomize,
//! and ytt renders every file as it is: each patch becomes an object of its own, a Deployment
//! without selector or template, the same name twice. ytt itself succeeds, so what fails is
//! the deploy, and only if the App is meant to deploy that tree as ytt gives it, which an
//! author who wrote a kustomization seldom means (a book's App that shows what kapp-controller
//! cannot do). The root's findings that rest on its command or inputs assume it
//! (`kustomize-tree`): warnings that say so, never errors.

use crate::files::paths::{self, is_within};
use crate::lint::repo::walk::RepoFile;
use crate::report::{Assumption, AssumptionKind};

/// The file names kustomize reads as a directory's kustomization.
const NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// The assumption of a ytt step (`step`: `App web (apps/web.yaml:4)`) whose `inputs` hold a
/// kustomization, naming the first one.
pub fn assumption(files: &[RepoFile], inputs: &[String], step: &str) -> Option<Assumption> {
    let found = files.iter().find(|f| {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        NAMES.contains(&name) && inputs.iter().any(|i| is_within(&f.path, i))
    })?;
    let dir = match paths::parent(&found.path) {
        "" => ".",
        d => d,
    };
    Some(Assumption::new(
        AssumptionKind::KustomizeTree,
        format!(
            "{dir} is a kustomize tree ({}): the ytt step of {step} renders its files as they are (each patch an object of its own), not kustomize's output; the findings about what it renders hold only if the step is meant to deploy that",
            found.path
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    fn file(path: &str) -> RepoFile {
        RepoFile::for_test(path, Kind::PlainYaml)
    }

    #[test]
    fn a_ytt_path_that_holds_a_kustomization_is_a_kustomize_tree() {
        let files = [
            file("deploy/overlays/prod/kustomization.yaml"),
            file("deploy/overlays/prod/replicas.yaml"),
            file("config/app.yaml"),
        ];
        let step = "App web (apps/web.yaml:1)";
        let at = |inputs: &[&str]| {
            let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
            assumption(&files, &inputs, step).map(|a| a.message)
        };
        assert!(at(&["deploy/overlays/prod"])
            .is_some_and(|m| m.starts_with("deploy/overlays/prod is a kustomize tree (deploy/overlays/prod/kustomization.yaml): the ytt step of App web (apps/web.yaml:1)")));
        assert!(at(&["deploy"]).is_some());
        assert_eq!(at(&["config"]), None);
        assert_eq!(at(&["deploy/overlays/prod/replicas.yaml"]), None);
    }
}
