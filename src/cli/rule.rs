//! `yttlint rule [ID]`: what a rule checks, why, and an example that triggers it, from the
//! rule's page in `docs/rules/` (compiled in, so the binary and the repository say the same);
//! without an id, the list of rules with their default severity.

use crate::report::rules::{RuleInfo, RULES};

/// Prints the explanation of the rule named in `args`, or the list; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    match args {
        [] => {
            print!("{}", list());
            0
        }
        [flag] if flag == "-h" || flag == "--help" => {
            println!(
                "Explains a rule with an example: yttlint rule ID (without ID, lists the rules)"
            );
            0
        }
        [id] => match super::lint_extra::known_rule(id).and_then(|()| page(id)) {
            Ok(text) => {
                print!("{text}");
                0
            }
            Err(message) => {
                eprintln!("yttlint: {message}");
                2
            }
        },
        _ => {
            eprintln!("yttlint: expected at most one rule id: yttlint rule [ID]");
            2
        }
    }
}

/// Every rule: id, default severity, one line.
pub fn list() -> String {
    let width = RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
    RULES
        .iter()
        .map(|r: &RuleInfo| {
            format!(
                "{:<width$}  {:<7}  {}\n",
                r.id,
                r.severity.as_str(),
                r.short
            )
        })
        .collect()
}

/// The page of rule `id`.
pub fn page(id: &str) -> Result<&'static str, String> {
    PAGES
        .iter()
        .find(|(rule, _)| *rule == id)
        .map(|(_, text)| *text)
        .ok_or_else(|| format!("rule \"{id}\" has no page"))
}

macro_rules! pages {
    ($($id:literal),* $(,)?) => {
        /// Each rule's page, by id.
        pub const PAGES: &[(&str, &str)] = &[
            $(($id, include_str!(concat!("../../docs/rules/", $id, ".md")))),*
        ];
    };
}

pages!(
    "yaml-syntax",
    "unknown-comment",
    "unknown-annotation",
    "template-error",
    "load-error",
    "overlay-error",
    "schema-invalid",
    "schema-type-mismatch",
    "data-value-undeclared",
    "data-value-deprecated",
    "data-value-removed",
    "required-value",
    "data-value-violation",
    "output-violation",
    "kubevirt-annotation-invalid",
    "kubevirt-rule-violation",
    "unknown-module-attribute",
    "load-unknown-name",
    "wrong-arguments",
    "unused-load",
    "unused-function",
    "unreachable-code",
    "branch-never-evaluated",
    "data-value-unknown-reference",
    "data-value-unused",
    "needs-input",
    "vendir-not-synced",
    "file-outside-repository",
    "special-file",
    "unused-suppression",
    "limit-exceeded",
    "internal-error",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_page_with_an_example() {
        assert_eq!(PAGES.len(), RULES.len());
        for rule in RULES {
            let text = page(rule.id).unwrap();
            assert!(text.starts_with(&format!("# {}\n", rule.id)), "{}", rule.id);
            assert!(text.contains("\n## Example"), "{} has no example", rule.id);
        }
        assert!(list().lines().count() == RULES.len());
    }
}
