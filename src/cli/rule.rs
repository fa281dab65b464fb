//! `yttlint rule [ID]`: what a rule checks, why, and an example that triggers it, from the
//! rule's page in `docs/rules/` (compiled in, so the binary and the repository say the same);
//! without an id, the list of rules with their default severity, then the policies of the
//! repository (`policy/NAME`, from the `.yttlint.yaml` found upward from the working
//! directory).

use crate::policy::starlark::files::Listed;
use crate::report::Rule;

/// The policies of the repository of the working directory (none without a configuration;
/// a configuration that does not load is said on standard error).
fn repository_policies() -> Vec<Listed> {
    let Ok(cwd) = std::env::current_dir() else {
        return Vec::new();
    };
    let Some(file) = crate::lint::config::find_upward(&cwd) else {
        return Vec::new();
    };
    let shown = crate::files::paths::relative(&cwd, &file)
        .unwrap_or_else(|| file.to_string_lossy().into_owned());
    match crate::lint::config::Config::load(&file, &shown) {
        Ok(config) => config.policies.listed,
        Err(e) => {
            eprintln!("yttlint: the repository's policies are not listed: {e}");
            Vec::new()
        }
    }
}

/// The repository's policies, one line each: id, default severity, file (in the columns of
/// [`list`]).
pub fn policy_list(listed: &[Listed]) -> String {
    let width = Rule::ALL.iter().map(|r| r.id().len()).max().unwrap_or(0);
    listed
        .iter()
        .map(|l| {
            let id = format!("policy/{}", l.name);
            format!(
                "{id:<width$}  error    Policy of the repository ({})\n",
                l.path
            )
        })
        .collect()
}

/// Prints the explanation of the rule named in `args`, or the list; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    match args {
        [] => {
            print!("{}", list());
            print!("{}", policy_list(&repository_policies()));
            0
        }
        [id] if id.starts_with(crate::report::policy_name::PREFIX) => {
            let listed = repository_policies();
            let found = listed.iter().find(|l| format!("policy/{}", l.name) == *id);
            match (found, Rule::from_id(id)) {
                (Some(l), Some(rule)) => {
                    // The policies' common page, after its own title.
                    let page = rule.page();
                    let body = page.split_once('\n').map_or(page, |(_, rest)| rest);
                    print!("# {id}\n\nA policy of this repository: {}.\n{body}", l.path);
                    0
                }
                _ => {
                    eprintln!("yttlint: unknown rule \"{id}\": no policy of that name in the repository's policies (yttlint rule lists them)");
                    2
                }
            }
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

/// Every rule: id, default severity, one line (a rule of a category off by default says so).
pub fn list() -> String {
    let width = Rule::ALL.iter().map(|r| r.id().len()).max().unwrap_or(0);
    Rule::ALL
        .iter()
        .map(|r| {
            let off = match r.off_by_default() {
                Some(category) => format!(" (off by default: policies: {{checks: [{category}]}})"),
                None => String::new(),
            };
            format!(
                "{:<width$}  {:<7}  {}{off}\n",
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
