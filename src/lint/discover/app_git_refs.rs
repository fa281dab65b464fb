//! A local branch's ref file (`.git/refs/heads/main`) that a kapp-controller App's ytt step
//! names, to read the commit it renders, judged by what the App's `git` fetch really leaves
//! (round thirty-one's R31-2).
//!
//! kapp-controller fetches with vendir (carvel-dev/kapp-controller `pkg/app/app_fetch.go`,
//! `pkg/fetch/vendir.go`: one directory per fetch, no include or exclude paths, so the fetched
//! tree keeps `.git`). vendir's git fetch (carvel-dev/vendir `pkg/vendir/fetch/git/git.go`,
//! `sync.go`, HEAD 58ff583) runs `git init`, `git remote add origin URL`, `git fetch origin`
//! (only `BRANCH` for a ref `origin/BRANCH`), then `git checkout REF`: detached, no local
//! branch, except the one git's checkout makes of a bare name that is a branch of the remote
//! (`git checkout main` makes `main` from `origin/main`; a tag or a commit stays detached). A
//! `subPath` moves its folder out of the clone, leaving `.git` behind (`sub_path.go`).
//! kapp-controller's own fetch before vendir checked out with a pathspec
//! (`git checkout REF --recurse-submodules .`), which makes no branch either.
//!
//! So `.git/refs/heads/NAME` is certainly absent after a ref `origin/BRANCH`, a commit's full
//! hash, a `refSelection` (a tag), a literal `subPath`, or a bare ref other than NAME: the
//! App's ytt step stops ("no such file or directory"), an error at the path's line. After the
//! bare ref NAME the file is there when NAME is a branch: a NAME that reads as a version
//! (`v1.2.0`) or a short hash is taken for a tag or a commit, a warning naming that
//! assumption; any other is taken for a branch, and nothing is said. A templated ref or path,
//! another fetch than `git`, or another `.git/` path is not judged.
//!
//! Bounded: the first four documents of a file, [`MAX_PATHS`] paths of a step.

use crate::files::paths;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::package_nearest::clean;
use crate::lint::repo::yaml_doc::{documents, get, items, string};
use crate::report::{
    Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Rule, Severity, Source, Span,
};
use crate::yaml::Value;

/// Paths of one step read at most.
const MAX_PATHS: usize = 256;

/// A branch's ref file an App's ytt step names, which its git fetch does not leave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingRef {
    /// The App's file, and the line of the path.
    pub file: String,
    pub line: u32,
    /// The line of the App's document.
    pub doc_line: u32,
    pub name: String,
    /// The path as written (`.git/refs/heads/main`).
    pub path: String,
    /// Why the fetch does not leave it.
    pub why: String,
    /// What that rests on, when it is not certain (the ref is taken for a tag or a commit).
    pub assumed: Option<String>,
    /// The App's other paths that the repository holds, which its step would have rendered.
    pub claims: Vec<String>,
}

impl MissingRef {
    /// The `input-missing` finding at the path's line: an error, or a warning naming what it
    /// assumes.
    pub fn finding(&self) -> Diagnostic {
        let app = match self.name.as_str() {
            "" => "the App".to_string(),
            n => format!("App {n}"),
        };
        let mut d = Diagnostic::new(
            Rule::InputMissing,
            format!(
                "input {} of {app}'s ytt step is not in what its git fetch gives: {}",
                self.path, self.why
            ),
        )
        .at(Span::point(&self.file, self.line, 1))
        .with_help(
            "kapp-controller's ytt stops with \"no such file or directory\"; the checkout is detached, so `.git/HEAD` holds the commit",
        );
        let origin = format!("{}:{}", self.file, self.doc_line);
        let mut p = Provenance::of(Source::Package, Some(origin));
        if let Some(a) = &self.assumed {
            p.assume(Assumption::new(AssumptionKind::MissingInput, a.clone()));
        }
        d.certainty = Some(p.certainty(Basis::Command));
        d.severity = match self.assumed {
            None => Severity::Error,
            Some(_) => Severity::Warning,
        };
        d.root = Some(self.path.clone());
        d
    }
}

/// The branch ref files the Apps of the file `file` (text `text`) name that their git fetch
/// does not leave; `index`: the repository's paths.
pub fn missing(file: &str, text: &str, index: &Index) -> Vec<MissingRef> {
    let mut out = Vec::new();
    for doc in documents(file, text).iter().take(4) {
        let v = &doc.value;
        let api = string(get(v, "apiVersion")).unwrap_or("");
        if string(get(v, "kind")) != Some("App") || !api.starts_with("kappctrl.k14s.io/") {
            continue;
        }
        let Some(spec) = get(v, "spec") else { continue };
        let Some(ytt) = items(get(spec, "template"))
            .into_iter()
            .find_map(|s| get(s, "ytt"))
        else {
            continue;
        };
        let Some(Value::Array(list)) = get(ytt, "paths") else {
            continue;
        };
        let name = string(get(v, "metadata").and_then(|m| get(m, "name"))).unwrap_or("");
        let fetches = items(get(spec, "fetch"));
        let mut found: Vec<MissingRef> = Vec::new();
        let mut claims: Vec<String> = Vec::new();
        for item in list.items.iter().take(MAX_PATHS) {
            let Some(p) = item.value.as_str() else {
                continue;
            };
            let c = clean(p);
            if index.exists(c) {
                if !claims.iter().any(|x| x == c) {
                    claims.push(c.to_string());
                }
                continue;
            }
            let Some((why, assumed)) = judge(&fetches, c) else {
                continue;
            };
            found.push(MissingRef {
                file: file.to_string(),
                line: item.pos.line.max(1),
                doc_line: doc.pos.line.max(1),
                name: name.to_string(),
                path: p.to_string(),
                why,
                assumed,
                claims: Vec::new(),
            });
        }
        for mut m in found {
            m.claims = claims.clone();
            out.push(m);
        }
    }
    out
}

/// Why `path` (cleaned) is not in what the App's `fetches` give, and what that assumes;
/// `None` when it is not a branch's ref file of a git fetch, or may be there.
fn judge(fetches: &[&Value], path: &str) -> Option<(String, Option<String>)> {
    // One fetch without a `path:` is the step's directory; several land in `path:` or their
    // index.
    let (git, branch) = if fetches.len() == 1 && get(fetches[0], "path").is_none() {
        (
            get(fetches[0], "git")?,
            path.strip_prefix(".git/refs/heads/")?,
        )
    } else {
        fetches.iter().enumerate().find_map(|(i, f)| {
            let dir = string(get(f, "path")).map_or_else(|| i.to_string(), |d| clean(d).into());
            let rest = path.strip_prefix(dir.as_str())?.strip_prefix('/')?;
            Some((get(f, "git")?, rest.strip_prefix(".git/refs/heads/")?))
        })?
    };
    if branch.is_empty() {
        return None;
    }
    match get(git, "subPath") {
        None => {}
        Some(Value::String(s)) if clean(s) == "." => {}
        Some(Value::String(s)) => {
            return Some((
                format!(
                "its `subPath: {s}` is moved out of the clone, which keeps `.git` behind (vendir)"
            ),
                None,
            ))
        }
        Some(_) => return None,
    }
    let detached = |what: &str| {
        format!("vendir checks {what} out detached (`git checkout`), which makes no local branch")
    };
    let reference = match get(git, "ref") {
        Some(Value::String(r)) => r.trim(),
        Some(_) => return None,
        None if get(git, "refSelection").is_some() => {
            return Some((detached("the tag its `refSelection` picks"), None));
        }
        None => return None,
    };
    if let Some(b) = reference.strip_prefix("origin/") {
        let why = format!(
            "{} (`git fetch origin {b}` makes `.git/refs/remotes/origin/{b}`)",
            detached(&format!("`{reference}`"))
        );
        return Some((why, None));
    }
    if reference.len() == 40 && hex(reference) {
        return Some((detached(&format!("the commit `{reference}`")), None));
    }
    if reference.contains('/') || reference.is_empty() {
        return None;
    }
    if reference != branch {
        let why = format!(
            "its ref is `{reference}`, and git's checkout makes no local branch but `{reference}`'s (vendir)"
        );
        return Some((why, None));
    }
    // The bare name of the file itself: there when it is a branch.
    let guess = if hex(reference) && reference.len() >= 7 {
        "a commit"
    } else if version(reference) {
        "a tag"
    } else {
        return None;
    };
    let why = format!(
        "{} (were `{reference}` a branch, git's checkout would make the file)",
        detached(&format!("`{reference}`"))
    );
    let assumed = format!(
        "the App's git ref `{reference}` names {guess}, not a branch (the file {} exists only for a branch)",
        paths::join(".git/refs/heads", reference)
    );
    Some((why, Some(assumed)))
}

/// Hexadecimal digits only.
fn hex(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_hexdigit())
}

/// Reads as a version: `v1.2.0`, `1.4`, `v2`.
fn version(s: &str) -> bool {
    let rest = s.strip_prefix('v').unwrap_or(s);
    rest.starts_with(|c: char| c.is_ascii_digit())
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(fetch: &str, paths: &str) -> String {
        format!(
            "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: demo\nspec:\n  fetch:\n{fetch}  template:\n  - ytt:\n      paths:\n{paths}  deploy:\n  - kapp: {{}}\n"
        )
    }

    fn git(reference: &str) -> String {
        format!("  - git:\n      url: https://example.invalid/r.git\n      {reference}\n")
    }

    const PATHS: &str = "      - deploy/job.yaml\n      - .git/refs/heads/main\n";

    #[test]
    fn a_detached_checkout_leaves_no_branch_file() {
        let index = Index::new(["deploy/job.yaml", "deploy/app.yaml"]);
        for reference in [
            "ref: origin/main",
            "ref: develop",
            "ref: 0123456789abcdef0123456789abcdef01234567",
            "refSelection: {semver: {constraints: '>0.0.0'}}",
        ] {
            let text = app(&git(reference), PATHS);
            let got = missing("deploy/app.yaml", &text, &index);
            assert_eq!(got.len(), 1, "{reference}: {got:?}");
            assert_eq!(got[0].line, 14, "{reference}");
            assert_eq!(got[0].assumed, None, "{reference}");
            assert_eq!(got[0].claims, ["deploy/job.yaml"]);
            let d = got[0].finding();
            assert_eq!((d.rule, d.severity), (Rule::InputMissing, Severity::Error));
            assert!(d.message.contains(".git/refs/heads/main"), "{}", d.message);
        }
        // A subPath leaves `.git` out of what the App renders.
        let sub = "  - git:\n      url: u\n      ref: main\n      subPath: deploy\n";
        let got = missing("deploy/app.yaml", &app(sub, PATHS), &index);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].why.contains("subPath"));
    }

    #[test]
    fn a_bare_ref_makes_its_branch_unless_it_is_a_tag_or_commit() {
        let index = Index::new(["deploy/job.yaml"]);
        // `git checkout main` makes `main` from `origin/main`: the file is there.
        let got = missing("deploy/app.yaml", &app(&git("ref: main"), PATHS), &index);
        assert!(got.is_empty(), "{got:?}");
        // A version reads as a tag, a short hash as a commit: a warning naming that.
        for (reference, guess) in [("v1.2.0", "a tag"), ("abc1234", "a commit")] {
            let paths = format!("      - .git/refs/heads/{reference}\n");
            let text = app(&git(&format!("ref: {reference}")), &paths);
            let got = missing("deploy/app.yaml", &text, &index);
            assert_eq!(got.len(), 1, "{got:?}");
            let assumed = got[0].assumed.as_deref().unwrap_or("");
            assert!(assumed.contains(guess), "{assumed}");
            assert_eq!(got[0].finding().severity, Severity::Warning);
        }
    }

    #[test]
    fn other_fetches_and_paths_are_not_judged() {
        let index = Index::new(["deploy/job.yaml"]);
        // An http fetch's file, another `.git/` path, a templated ref.
        let http = "  - http:\n      url: https://example.invalid/sha\n";
        assert!(missing("a.yaml", &app(http, PATHS), &index).is_empty());
        let head = "      - .git/HEAD\n      - .git/refs/remotes/origin/main\n";
        assert!(missing("a.yaml", &app(&git("ref: origin/main"), head), &index).is_empty());
        let templated = "  - git:\n      url: u\n      ref: [a]\n";
        assert!(missing("a.yaml", &app(templated, PATHS), &index).is_empty());
        // Several fetches: the path names the one it lies under.
        let two = format!("{}{http}", git("ref: origin/main"));
        let under = "      - 0/.git/refs/heads/main\n      - 1/sha\n";
        let got = missing("a.yaml", &app(&two, under), &index);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].path, "0/.git/refs/heads/main");
        let under_http = "      - 1/.git/refs/heads/main\n";
        assert!(missing("a.yaml", &app(&two, under_http), &index).is_empty());
    }
}
