//! What `docker-sock` and `sensitive-host-mounts` share: the hostPath volumes of a pod whose
//! path matches, each reported at every volume mount of it in a container.

use super::super::object::{at, field, item, items, join, text};
use super::super::{Found, Output};
use crate::yaml::Value;

/// A finding at each container's mount of a hostPath volume whose path `matches`.
pub fn mounted(out: &Output<'_>, matches: fn(&str) -> bool) -> Vec<Found> {
    let mut found = Vec::new();
    for (i, t) in out.workloads() {
        let volumes = field(t.spec, "volumes");
        for (v, volume) in items(volumes).enumerate() {
            let Some(path) = at(volume, &["hostPath", "path"]).and_then(Value::as_str) else {
                continue;
            };
            let Some(name) = text(volume, "name").filter(|_| matches(path)) else {
                continue;
            };
            let volume_at = join(&item(&t.spec_at, "volumes", v), &["hostPath", "path"]);
            for c in t.containers() {
                for (m, mount) in items(field(c.value, "volumeMounts")).enumerate() {
                    if text(mount, "name") != Some(name) {
                        continue;
                    }
                    let mut f = Found::new(
                        i,
                        item(&c.at, "volumeMounts", m),
                        format!("host path \"{path}\" is mounted in {}", c.describe()),
                    );
                    f.related.push((
                        format!("the hostPath volume \"{name}\""),
                        i,
                        volume_at.clone(),
                    ));
                    found.push(f);
                }
            }
        }
    }
    found
}
