//! kube-linter's `duplicate-env-var`: a container whose `env` names one variable twice. Only
//! the last value counts, so the first was written for nothing (or the second by mistake).
//!
//! ```yaml
//! env:
//! - {name: LOG_LEVEL, value: info}
//! - {name: LOG_LEVEL, value: debug}   # reported here
//! ```
//!
//! Each duplicated name is reported once, at its second entry.

use super::super::object::{field, item, items, text};
use super::super::{Check, Found, Output};
use super::{per_container, Said};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::DuplicateEnvVar,
    run,
};

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        let mut seen: Vec<(&str, usize)> = Vec::new();
        let mut said: Vec<Said> = Vec::new();
        for (k, var) in items(field(c.value, "env")).enumerate() {
            let Some(name) = text(var, "name") else {
                continue;
            };
            match seen.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => {
                    *count += 1;
                    if *count == 2 {
                        said.push((
                            item(&c.at, "env", k),
                            format!(
                                "the environment variable {name} is set twice in {}",
                                c.describe()
                            ),
                        ));
                    }
                }
                None => seen.push((name, 1)),
            }
        }
        said
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deployment, found};
    use super::*;

    #[test]
    fn a_name_twice_is_reported_once() {
        let spec = "      containers:\n      - name: c\n        env:\n        - {name: A, value: \"1\"}\n        - {name: B, value: \"1\"}\n        - {name: A, value: \"2\"}\n        - {name: A, value: \"3\"}";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, "spec.template.spec.containers[0].env[2]");
    }
}
