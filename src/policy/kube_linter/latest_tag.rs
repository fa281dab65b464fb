//! kube-linter's `latest-tag`: a container image with the tag `latest`, or with no tag at all
//! (which is `latest`): what runs changes whenever the image is pushed again.
//!
//! ```yaml
//! image: nginx            # no tag
//! image: nginx:latest
//! ```
//!
//! An image pinned by digest (`nginx@sha256:...`) is fine. The tag is what follows the last
//! `:` after the last `/` (a registry's port, `registry:5000/app`, is not a tag). A
//! container without an image is not reported (there is no tag to judge), nor, unlike
//! kube-linter, an image a build tool pins at deploy time: one a kbld configuration of the
//! output names (`sources`, `overrides`: kbld replaces it by a digest), or a `ko://` import
//! path (ko does).

use super::super::object::text;
use super::super::{Check, Found, Output};
use super::per_container;
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::LatestTag,
    run,
};

/// Why `image` floats, if it does.
pub fn floating(image: &str) -> Option<&'static str> {
    if image.contains('@') {
        return None;
    }
    let last = image.rsplit('/').next().unwrap_or(image);
    match last.rsplit_once(':') {
        None => Some("has no tag (which means latest)"),
        Some((_, "latest")) => Some("has the tag latest"),
        Some(_) => None,
    }
}

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        let Some(image) = text(c.value, "image").filter(|i| !i.trim().is_empty()) else {
            return Vec::new();
        };
        if image.starts_with("ko://") || out.kbld_images.iter().any(|k| k == image) {
            return Vec::new();
        }
        match floating(image) {
            Some(why) => vec![(
                c.field(&["image"]),
                format!("the image \"{image}\" of {} {why}", c.describe()),
            )],
            None => Vec::new(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_kbld_or_ko_resolve_are_pinned() {
        let d = crate::policy::object::tests::docs(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {spec: {containers: [{name: a, image: app}, {name: b, image: nginx}, {name: c, image: \"ko://example.com/cmd/c\"}]}}}\n---\napiVersion: kbld.k14s.io/v1alpha1\nkind: Config\nsources: [{image: app, path: .}]\n",
        );
        let out = Output::with_context(&[&d[0]], &[&d[1]]);
        let found = run(&out);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("\"nginx\""),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn floating_images() {
        for bad in [
            "nginx",
            "nginx:latest",
            "registry:5000/app",
            "ghcr.io/a/b:latest",
        ] {
            assert!(floating(bad).is_some(), "{bad}");
        }
        for ok in [
            "nginx:1.27",
            "registry:5000/app:2",
            "nginx@sha256:abcd",
            "a/b:v1@sha256:ab",
        ] {
            assert!(floating(ok).is_none(), "{ok}");
        }
    }
}
