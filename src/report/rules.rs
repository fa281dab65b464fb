//! The catalogue of rule ids: default severity and the descriptions reports show (SARIF rule
//! metadata, terminal help). Ids are kebab-case and stable.

use super::diagnostic::Severity;

/// What a report needs to know about a rule.
#[derive(Clone, Copy, Debug)]
pub struct RuleInfo {
    pub id: &'static str,
    pub severity: Severity,
    /// One line.
    pub short: &'static str,
    /// A paragraph.
    pub full: &'static str,
    /// How to fix it.
    pub help: &'static str,
}

const fn rule(
    id: &'static str,
    severity: Severity,
    short: &'static str,
    full: &'static str,
    help: &'static str,
) -> RuleInfo {
    RuleInfo {
        id,
        severity,
        short,
        full,
        help,
    }
}

use Severity::{Error, Info, Warning};

/// Every rule, in a stable order.
pub const RULES: &[RuleInfo] = &[
    rule(
        "yaml-syntax",
        Error,
        "YAML syntax error",
        "The file is not valid YAML, so ytt cannot read it.",
        "Fix the YAML at the position shown.",
    ),
    rule(
        "unknown-comment",
        Error,
        "Comment ytt does not accept",
        "ytt rejects plain `#` comments in templates unless --ignore-unknown-comments is given; use `#!` for comments.",
        "Write the comment as `#! ...`, or pass --ignore-unknown-comments in the root's args.",
    ),
    rule(
        "unknown-annotation",
        Warning,
        "Annotation ytt silently ignores",
        "An annotation name that no ytt feature reads (a typo such as @overlay/delete or @schema/example); ytt ignores it without a word.",
        "Check the annotation's spelling against the ytt documentation.",
    ),
    rule(
        "template-error",
        Error,
        "Template compile or evaluation error",
        "Compiling the template to Starlark or evaluating it failed, as `ytt` would fail.",
        "Read the Starlark message and the trace; the primary position is the failing line.",
    ),
    rule(
        "load-error",
        Error,
        "load() failed",
        "A load() statement names a file or module that cannot be loaded.",
        "Check the path is relative to the loading file, inside the library, and that the symbol exists.",
    ),
    rule(
        "overlay-error",
        Error,
        "Overlay failed",
        "An overlay did not match the documents or nodes it expected, or an overlay operation failed.",
        "Check the overlay's match conditions (by=, expects=) against the documents it applies to.",
    ),
    rule(
        "schema-invalid",
        Error,
        "Invalid data values schema",
        "A @data/values-schema document is not a valid schema.",
        "Fix the schema declaration at the position shown.",
    ),
    rule(
        "schema-type-mismatch",
        Error,
        "Data value of the wrong type",
        "A data value given by an input does not have the type its schema declares.",
        "Give a value of the declared type, or change the schema.",
    ),
    rule(
        "data-value-undeclared",
        Error,
        "Data value set without a declaration",
        "A data value is set that no schema or earlier values document declares, without the `+:` prefix (spec 004).",
        "Declare the value in the schema, or write the key as `+:` to add it on purpose.",
    ),
    rule(
        "data-value-deprecated",
        Warning,
        "Deprecated data value set",
        "An input sets a data value the schema marks @schema/deprecated.",
        "Stop setting the value; see the deprecation notice.",
    ),
    rule(
        "data-value-removed",
        Warning,
        "Removed data value set",
        "An input sets a data value the schema marks @schema/removed: a warning (ytt ignores the annotation), an error that stops the evaluation with the schema-removed extension on.",
        "Stop setting the value; see the reason the schema gives.",
    ),
    rule(
        "required-value",
        Warning,
        "Required data value not given",
        "A data value's schema default fails its validation and no input set it: the library needs this input.",
        "Give the value in a scenario of the root (values_files or data_values in .yttlint.yaml).",
    ),
    rule(
        "data-value-violation",
        Error,
        "Data value fails its validation",
        "A data value fails a @schema/validation or @assert/validate rule.",
        "Give a value that satisfies the rule shown.",
    ),
    rule(
        "output-violation",
        Error,
        "Output document fails its validation",
        "A node of a rendered document fails an @assert/validate rule of its template (spec 000, increment 4).",
        "Change the inputs or the template so the rendered value satisfies the rule.",
    ),
    rule(
        "kubevirt-annotation-invalid",
        Error,
        "Malformed KubeVirt validations annotation",
        "A KubeVirt Template's validations annotation is not what the admission webhook accepts (spec 003).",
        "Fix the JSON of the annotation at the position shown.",
    ),
    rule(
        "kubevirt-rule-violation",
        Error,
        "VirtualMachine violates its template's rule",
        "A VirtualMachine created from a KubeVirt Template fails one of the template's validation rules; admission would reject it.",
        "Change the VirtualMachine so it satisfies the rule, or the rule.",
    ),
    rule(
        "unknown-module-attribute",
        Error,
        "Member a @ytt: module does not have",
        "A template or Starlark file uses a member that its @ytt: module does not have (`assert.failed`, `data.value`). Found without evaluating, on every line, including branches no scenario takes; ytt fails only when the line runs.",
        "Use the member the message suggests.",
    ),
    rule(
        "load-unknown-name",
        Error,
        "load() of a name the file does not define",
        "A load() imports a name that the loaded file or @ytt: module does not define at its top level. Found without evaluating; ytt fails when a scenario evaluates the loading file.",
        "Load a name the file defines (see the suggestion), or define it there.",
    ),
    rule(
        "wrong-arguments",
        Error,
        "Call with arguments the function does not take",
        "A call to a function defined in the repository (or a @ytt: function that declares its parameters) gives too many positional arguments, a keyword the function does not have, or misses a required argument. Found without evaluating.",
        "Call the function with the parameters of its definition (the related location).",
    ),
    rule(
        "unused-load",
        Warning,
        "load()ed name nothing uses",
        "A name a load() statement imports is never read in the file.",
        "Remove the name from the load() statement.",
    ),
    rule(
        "unused-function",
        Warning,
        "Function nothing calls",
        "A top-level function that nothing can call: a private one (`_name`) its own file never uses, or a function of a template (templates cannot be loaded) that the template never uses.",
        "Remove the function, or call it where it was meant to be used.",
    ),
    rule(
        "unreachable-code",
        Info,
        "Code after return or fail()",
        "Statements that follow a `return`, `fail()`, `break` or `continue` in the same block never run.",
        "Remove the code, or move it before the statement that ends the block.",
    ),
    rule(
        "branch-never-evaluated",
        Info,
        "if branch that no scenario evaluates",
        "The scenarios of a root run an `if`, but its condition is never true (the code under it never runs) or never false (its `else` or `elif` never runs). Reported only when every scenario of the root evaluated without an error, and only for an `if` that ran; an `if` without `else` whose condition is always true is not reported.",
        "Add a scenario with data values that take the branch (scenarios in .yttlint.yaml), or remove the branch if it is dead.",
    ),
    rule(
        "data-value-unknown-reference",
        Error,
        "Reference to a data value the schema does not declare",
        "A template or Starlark file reads a data value (`data.values.a.b`, `data.values[\"a\"]`, or through a name bound to part of them) that the library's schema does not declare. Checked in every branch, without evaluating; ytt fails only when the line runs.",
        "Fix the key (see the suggestion), or declare the value in the schema (the related location).",
    ),
    rule(
        "data-value-unused",
        Warning,
        "Schema value nothing reads",
        "A value the library's schema declares that no template or Starlark file of the library reads, directly or through a map used whole (passed to a function, encoded, iterated, handed to a library).",
        "Remove the value from the schema, or use it.",
    ),
    rule(
        "needs-input",
        Info,
        "Root that needs data values nobody gives it",
        "A root nobody declared (found by discovery, not run by the repository's own commands or listed in the configuration) fails only because a data value is not set: a required value, an `assert.fail` or `fail()` on an unset value, a value a library without a schema reads but does not define, or a null default. For a scenario with values given at run time, a failure with the placeholders the linter supplies. Not an error: the linter does not know the inputs.",
        "Add a scenario with the values to .yttlint.yaml (`yttlint init` writes one from what it found).",
    ),
    rule(
        "vendir-not-synced",
        Info,
        "Directory that vendir has not synced",
        "A vendir.yml names a directory the repository does not hold; the roots that need it are not linted, instead of failing on the missing files.",
        "Run `vendir sync` in the directory of the vendir.yml, then lint again.",
    ),
    rule(
        "file-outside-repository",
        Error,
        "File that resolves outside the repository",
        "A file the linter would read (a root, an input, a values file, a file for `--data-value-file`, a file inside a root that `load()` or `data.read()` could reach) is a symlink, or lies under one, that leads outside the repository. The repository is untrusted input: the file is not read, and the rest of the root is linted without it.",
        "Keep the file inside the repository (copy it instead of linking to it), or lint with the file's real location inside the repository.",
    ),
    rule(
        "special-file",
        Warning,
        "Named pipe, device or socket inside a root",
        "A root holds a file that is not a regular file (a FIFO, a device, a socket). Reading it could block forever or never end, so the linter skips it without opening it.",
        "Remove the special file from the repository, or exclude it.",
    ),
    rule(
        "unused-suppression",
        Warning,
        "Suppression comment that suppresses nothing",
        "A `#! yttlint: disable=...` comment matched no finding.",
        "Remove the comment.",
    ),
    rule(
        "limit-exceeded",
        Error,
        "Evaluation limit exceeded",
        "Evaluating the root exceeded a time, step, recursion or memory limit; its findings may be incomplete.",
        "Look for unbounded loops or recursion in the templates.",
    ),
    rule(
        "internal-error",
        Error,
        "Internal error",
        "yttlint itself failed on this root. The other roots were still linted.",
        "Please report this with the input that triggers it.",
    ),
];

/// The rule's metadata, if the id is known.
pub fn find(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.id == id)
}

/// The rule's default severity (`error` for ids not in the catalogue).
pub fn default_severity(id: &str) -> Severity {
    find(id).map(|r| r.severity).unwrap_or(Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "duplicate {}", r.id);
            assert!(r.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
        }
    }
}
