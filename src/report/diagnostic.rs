//! The diagnostic model: what one finding says, where, and about which root and scenario.
//!
//! Paths in spans are relative to the repository root and use `/` separators; lines and columns
//! start at 1. Every report format is rendered from a [`Report`].

use serde::{Deserialize, Serialize};

use super::provenance::{Assumption, Basis, Certainty, Provenance};
use super::rules::Rule;
use super::severity::Severity;

/// A region of a file. `end_line`/`end_column` equal the start when only a point is known.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Span {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl Span {
    /// A point span at `line`:`column` of `file`.
    pub fn point(file: impl Into<String>, line: u32, column: u32) -> Span {
        Span {
            file: file.into(),
            line,
            column,
            end_line: line,
            end_column: column,
        }
    }
}

/// A secondary location: the rule that failed, the schema that declared a value, the flag that
/// set it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Related {
    pub message: String,
    pub span: Span,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Where it is; `None` when the finding is about a root as a whole (an internal error, a
    /// missing path), and then `root` says which.
    pub span: Option<Span>,
    /// The rule (its id is stable: see [`crate::report::rules`]).
    pub rule: Rule,
    pub severity: Severity,
    /// The message, possibly several lines; the first line is the summary.
    pub message: String,
    /// The library root (repository-relative) whose evaluation produced the finding.
    pub root: Option<String>,
    /// The scenario's name, when the root has scenarios.
    pub scenario: Option<String>,
    /// `kind/namespace/name` when the finding is about a Kubernetes object.
    pub object: Option<String>,
    pub related: Vec<Related>,
    pub help: Option<String>,
    /// The change that makes the finding go away, when yttlint knows one (`--fix`).
    #[serde(default)]
    pub fix: Option<crate::fix::Fix>,
    /// What the finding rests on, when it is not what its rule's findings usually rest on
    /// ([`Rule::basis`]): a template's syntax error, a field a template writes literally.
    #[serde(default)]
    pub basis: Option<Basis>,
    /// Where the command of the finding's scenario came from and what the finding assumes;
    /// `None` for a finding about text alone.
    #[serde(default)]
    pub certainty: Option<Certainty>,
}

impl Diagnostic {
    /// A diagnostic with the rule's default severity and no location yet.
    pub fn new(rule: Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span: None,
            rule,
            severity: rule.default_severity(),
            message: message.into(),
            root: None,
            scenario: None,
            object: None,
            related: Vec::new(),
            help: None,
            fix: None,
            basis: None,
            certainty: None,
        }
    }

    /// What the finding rests on besides its files' text.
    pub fn basis(&self) -> Basis {
        self.basis.unwrap_or_else(|| self.rule.basis())
    }

    /// Whether the finding assumes something about its command or inputs.
    pub fn assumes(&self) -> bool {
        self.certainty.as_ref().is_some_and(|c| !c.certain())
    }

    /// Makes the finding rest on `a` as well; a finding with no certainty of its own gets
    /// `base`'s first.
    pub fn assume(&mut self, a: Assumption, base: impl FnOnce() -> Certainty) {
        self.certainty.get_or_insert_with(base).add(a);
    }

    pub fn at(mut self, span: Span) -> Diagnostic {
        self.span = Some(span);
        self
    }

    pub fn with_related(mut self, message: impl Into<String>, span: Span) -> Diagnostic {
        self.related.push(Related {
            message: message.into(),
            span,
        });
        self
    }

    pub fn with_fix(mut self, fix: Option<crate::fix::Fix>) -> Diagnostic {
        self.fix = fix;
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// The first line of the message.
    pub fn summary(&self) -> &str {
        self.message.lines().next().unwrap_or("")
    }
}

/// How the evaluation of one root × scenario ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootOutcome {
    /// Evaluated, nothing found.
    Ok,
    /// Evaluated, with findings.
    Findings,
    /// Could not be evaluated to the end (an error stopped it).
    Error,
}

/// One evaluated root × scenario.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RootStatus {
    pub path: String,
    pub scenario: Option<String>,
    pub status: RootOutcome,
    pub duration_ms: u64,
    /// Where the scenario's command came from and what was assumed to run it (`None`: a
    /// library checked on its own, plain YAML files).
    #[serde(default)]
    pub provenance: Option<Provenance>,
    /// The kinds of the rendered objects that no schema was known for (not checked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchecked: Vec<Unchecked>,
}

/// A kind of rendered Kubernetes objects without a schema, and how many objects of it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Unchecked {
    /// `apiVersion kind`: `example.com/v1 Widget`.
    pub kind: String,
    pub objects: usize,
}

/// Everything one run found, in a stable order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub roots: Vec<RootStatus>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Sorts roots and diagnostics (file, line, column, rule, message) so output is the same
    /// every run whatever the order the jobs finished in; removes exact duplicates.
    pub fn normalize(&mut self) {
        self.roots.sort();
        self.diagnostics.sort();
        self.diagnostics.dedup();
    }

    /// The worst severity found, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.diagnostics.iter().map(|d| d.severity).max()
    }
}
