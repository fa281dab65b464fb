//! Policies over the rendered objects of a root: what a deployment would refuse or regret
//! that ytt renders without a word, reported at the template line that wrote the field a
//! finding names (when the field is missing, at its nearest written ancestor: `containers[0]`,
//! `metadata:`).
//!
//! Three kinds of checks, each a [`Check`] in a file of its own:
//! - [`cross`]: the objects of a root taken together, on by default: the same object twice
//!   (`duplicate-object`), selectors that match no pod template of the output
//!   (`dangling-selector`), a Service `targetPort` that names no container port
//!   (`unknown-target-port`);
//! - [`kube_linter`]: kube-linter's 31 default checks under kube-linter's names, a category
//!   off by default;
//! - [`starlark`]: the repository's own policies, `check(obj)` functions written in ytt's
//!   Starlark, evaluated in the same sandbox and limits as templates (`policy/NAME`).
//!
//! ```ignore
//! let docs: Vec<&Document> = output.docs.items.iter().collect();
//! for f in policy::run(&[Rule::DuplicateObject, Rule::LatestTag], &docs, &[]) { /* f.at */ }
//! ```

pub mod cross;
pub mod kube_linter;
pub mod object;
pub mod ports;
pub mod quantity;
pub mod selector;
pub mod starlark;
pub mod workload;

use crate::kubernetes::{written_at, Step};
use crate::pos::Pos;
use crate::report::{Rule, Severity};
use crate::yaml::Document;
use object::Object;

/// The objects of one root's output that the checks read.
pub struct Output<'a> {
    pub objects: Vec<Object<'a>>,
    /// The image names a kbld configuration of the output resolves (built from source,
    /// or replaced): kbld pins them to a digest when the output is deployed.
    pub kbld_images: Vec<String>,
}

impl<'a> Output<'a> {
    /// The Kubernetes objects among `docs` (documents with a string `apiVersion` and
    /// `kind`), in output order.
    pub fn new(docs: &[&'a Document]) -> Output<'a> {
        Output::with_context(docs, &[])
    }

    /// [`Output::new`], with the other documents of the output (not objects a cluster
    /// receives: kbld's configuration) for what they say about the objects.
    pub fn with_context(docs: &[&'a Document], others: &[&Document]) -> Output<'a> {
        Output {
            objects: docs.iter().filter_map(|d| Object::new(d)).collect(),
            kbld_images: others.iter().flat_map(|d| kbld_images(d)).collect(),
        }
    }

    /// Every workload with its pod template, with its index.
    pub fn workloads(&self) -> impl Iterator<Item = (usize, workload::PodTemplate<'a>)> + '_ {
        self.objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| workload::pod_template(o).map(|t| (i, t)))
    }
}

/// What a check found about one object: the field (steps from the top of the object) and
/// what is wrong with it.
#[derive(Clone, Debug)]
pub struct Found {
    /// The object's index in [`Output::objects`].
    pub object: usize,
    pub at: Vec<Step>,
    pub message: String,
    /// Other places that explain it: a message, an object's index and the steps to a field.
    pub related: Vec<(String, usize, Vec<Step>)>,
    /// The message ends with the files and lines of the finding and its related places (two
    /// objects in two files: the message names both).
    pub cite_places: bool,
    /// A severity other than the rule's default, for a milder case of the rule.
    pub severity: Option<Severity>,
}

impl Found {
    pub fn new(object: usize, at: Vec<Step>, message: impl Into<String>) -> Found {
        Found {
            object,
            at,
            message: message.into(),
            related: Vec::new(),
            cite_places: false,
            severity: None,
        }
    }
}

/// One built-in check: its rule and what it finds in an output.
pub struct Check {
    pub rule: Rule,
    pub run: fn(&Output<'_>) -> Vec<Found>,
}

/// Where a finding is: a node of the output (its template line is known to the job that
/// rendered it), or a line of a policy file of the repository.
#[derive(Clone, Debug, PartialEq)]
pub enum At {
    Output(Pos),
    /// `file` is the repository-relative path of the policy file.
    Policy(Pos),
}

/// A finding of the policy layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub rule: Rule,
    /// The severity the policy gave (`None`: the rule's default).
    pub severity: Option<Severity>,
    /// The message, which names the object.
    pub message: String,
    /// `Deployment prod/web`.
    pub object: Option<String>,
    pub at: At,
    pub related: Vec<(String, At)>,
    /// The message is to end with where the finding and its related places are (see
    /// [`Found::cite_places`]).
    pub cite_places: bool,
}

/// The images a kbld configuration document names (`sources`, `overrides` and
/// `destinations` of `kbld.k14s.io` kinds).
fn kbld_images(doc: &Document) -> Vec<String> {
    let Some(o) = Object::new(doc).filter(|o| o.group() == "kbld.k14s.io") else {
        return Vec::new();
    };
    ["sources", "overrides", "destinations"]
        .iter()
        .flat_map(|key| object::items(o.get(&[key])))
        .filter_map(|item| object::text(item, "image"))
        .map(str::to_string)
        .collect()
}

/// Every built-in check: the cross-object ones, then kube-linter's.
pub fn checks() -> impl Iterator<Item = &'static Check> {
    cross::CHECKS
        .iter()
        .chain(kube_linter::CHECKS.iter())
        .copied()
}

/// The findings of the built-in checks of `rules` over `docs` (the objects something
/// applies; `others`, the rest of the output, tells what kbld resolves), in check order and
/// then output order.
pub fn run(rules: &[Rule], docs: &[&Document], others: &[&Document]) -> Vec<Finding> {
    let out = Output::with_context(docs, others);
    let mut findings = Vec::new();
    for check in checks().filter(|c| rules.contains(&c.rule)) {
        for found in (check.run)(&out) {
            let Some(obj) = out.objects.get(found.object) else {
                continue;
            };
            if kube_linter::ignored(check.rule, obj) {
                continue;
            }
            findings.push(finding(&out, check.rule, obj, found));
        }
    }
    findings
}

fn finding(out: &Output<'_>, rule: Rule, obj: &Object<'_>, found: Found) -> Finding {
    let related = found
        .related
        .into_iter()
        .filter_map(|(message, i, steps)| {
            let other = out.objects.get(i)?;
            Some((message, At::Output(written_at(other.doc, &steps))))
        })
        .collect();
    Finding {
        rule,
        severity: found.severity,
        message: format!("{}: {}", obj.describe(), found.message),
        object: Some(obj.describe()),
        at: At::Output(written_at(obj.doc, &found.at)),
        related,
        cite_places: found.cite_places,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::object::tests::docs;

    #[test]
    fn every_check_is_listed_once_with_its_rule() {
        let rules: Vec<Rule> = checks().map(|c| c.rule).collect();
        let mut unique = rules.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), rules.len());
        for r in Rule::KUBE_LINTER.iter().chain(Rule::CROSS_OBJECT) {
            assert!(rules.contains(r), "{r} has no check");
        }
    }

    #[test]
    fn only_the_rules_asked_for_run_and_findings_name_the_object() {
        let d = docs("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostPID: true\n  containers: [{name: c, image: nginx}]\n");
        let refs: Vec<&Document> = d.iter().collect();
        assert!(run(&[Rule::DuplicateObject], &refs, &[]).is_empty());
        let found = run(&[Rule::HostPid, Rule::LatestTag], &refs, &[]);
        let rules: Vec<Rule> = found.iter().map(|f| f.rule).collect();
        assert_eq!(rules, vec![Rule::HostPid, Rule::LatestTag]);
        assert!(
            found[0].message.starts_with("Pod p: "),
            "{}",
            found[0].message
        );
        assert!(matches!(&found[0].at, At::Output(p) if p.line == 5));
    }
}
