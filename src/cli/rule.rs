//! `yttlint rule [ID]`: what a rule checks, why, and an example that triggers it, from the
//! rule's page in `docs/rules/` (compiled in, so the binary and the repository say the same);
//! without an id, the list of rules with their default severity.

use crate::report::Rule;

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
        [id] => match super::lint_extra::known_rule(id) {
            Ok(rule) => {
                let text = rule.page();
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
    let width = Rule::ALL.iter().map(|r| r.id().len()).max().unwrap_or(0);
    Rule::ALL
        .iter()
        .map(|r| {
            format!(
                "{:<width$}  {:<7}  {}\n",
                r.id(),
                r.default_severity().as_str(),
                r.summary()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_page_with_an_example() {
        for rule in Rule::ALL {
            let text = rule.page();
            assert!(text.starts_with(&format!("# {}\n", rule.id())), "{rule}");
            assert!(text.contains("\n## Example"), "{rule} has no example");
        }
        assert!(list().lines().count() == Rule::ALL.len());
    }
}
