//! kube-linter's `env-var-secret`: an environment variable whose name contains `secret` (in
//! any case) with a literal `value`: the secret is written in the manifest (and in the
//! repository, or the data values that render it).
//!
//! ```yaml
//! env:
//! - name: DB_SECRET
//!   value: hunter2        # use valueFrom.secretKeyRef
//! ```
//!
//! A variable that reads its value from a Secret (`valueFrom`) is fine. Unlike kube-linter,
//! a variable that names where a secret is rather than holding it is not reported: a name
//! ending in `_FILE`, `_PATH`, `_DIR`, `_NAME`, `_REF` or `_NAMESPACE`
//! (`UAA_CLIENT_SECRET_FILE`, `WEBHOOK_SECRET_NAME`), or a value that is an absolute path
//! (`/config/secrets`). On the corpus and precision repositories these were 34 of kube-linter's
//! 35 matches.

use super::super::object::{field, item, items, join, text};
use super::super::{Check, Found, Output};
use super::{per_container, Said};
use crate::report::Rule;

pub const CHECK: Check = Check {
    rule: Rule::EnvVarSecret,
    run,
};

/// Suffixes of names that say where a secret is, not what it is.
const LOCATORS: &[&str] = &["_file", "_path", "_dir", "_name", "_ref", "_namespace"];

/// Whether the variable `name` with the literal `value` holds a secret.
fn holds_secret(name: &str, value: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("secret")
        && value.lines().any(|l| !l.is_empty())
        && !LOCATORS.iter().any(|s| lower.ends_with(s))
        && !value.starts_with('/')
}

fn run(out: &Output<'_>) -> Vec<Found> {
    per_container(out, false, &|c| {
        let mut said: Vec<Said> = Vec::new();
        for (k, var) in items(field(c.value, "env")).enumerate() {
            let (Some(name), Some(value)) = (text(var, "name"), text(var, "value")) else {
                continue;
            };
            if holds_secret(name, value) {
                said.push((
                    join(&item(&c.at, "env", k), &["value"]),
                    format!(
                        "the environment variable {name} of {} holds a secret as a literal value",
                        c.describe()
                    ),
                ));
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
    fn literal_values_of_secret_names() {
        let spec = "      containers:\n      - name: c\n        env:\n        - {name: API_SECRET, value: abc}\n        - {name: client_secret_file, value: \"\"}\n        - {name: DB_SECRET, valueFrom: {secretKeyRef: {name: db, key: pw}}}\n        - {name: LOG, value: debug}";
        let got = found(&CHECK, &deployment(spec));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, "spec.template.spec.containers[0].env[0].value");
        assert!(!holds_secret("UAA_CLIENT_SECRET_FILE", "/config/x"));
        assert!(!holds_secret("WEBHOOK_SECRET_NAME", "webhook-certs"));
        assert!(!holds_secret("CC_SECRETS", "/config/secrets"));
        assert!(holds_secret("MINIO_SECRET_KEY", "minio123"));
    }
}
