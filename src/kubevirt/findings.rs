//! Turns annotation issues and rule outcomes into diagnostics: `kubevirt-annotation-invalid` at
//! the offending spot of the annotation's JSON, `kubevirt-rule-violation` at the offending field
//! of the VirtualMachine, each naming the rule, quoting its message and the validator's answer.

use crate::pos::Pos;
use crate::report::{Diagnostic, Severity, Span};

use super::annotation::{Annotation, Issue, Rule};
use super::evaluate::{Outcome, Verdict};
use super::locate::{self, Layout};
use super::Locate;

pub const ANNOTATION_INVALID: crate::report::Rule = crate::report::Rule::KubevirtAnnotationInvalid;
pub const RULE_VIOLATION: crate::report::Rule = crate::report::Rule::KubevirtRuleViolation;

/// An annotation as written: its key's position, text and layout in the source.
pub struct Written<'a> {
    pub key: &'a str,
    pub item: &'a Pos,
    pub text: &'a str,
    pub layout: Option<Layout>,
}

impl<'a> Written<'a> {
    pub fn new(key: &'a str, item: &'a Pos, text: &'a str, locate: &dyn Locate) -> Written<'a> {
        let layout = locate
            .source(item)
            .and_then(|src| locate::layout(src, item, text));
        Written {
            key,
            item,
            text,
            layout,
        }
    }

    /// The source span of byte `offset` of the text.
    pub fn span(&self, offset: usize, locate: &dyn Locate) -> Option<Span> {
        let pos = locate::position(self.item, self.text, self.layout.as_ref(), offset);
        locate.span(&pos).or_else(|| locate.span(self.item))
    }
}

fn with_severity(mut d: Diagnostic, severity: Severity) -> Diagnostic {
    d.severity = severity;
    d
}

fn at(mut d: Diagnostic, span: Option<Span>) -> Diagnostic {
    d.span = span;
    d
}

/// Diagnostics for an annotation's issues.
pub fn annotation(
    w: &Written,
    ann: &Annotation,
    object: &str,
    locate: &dyn Locate,
) -> Vec<Diagnostic> {
    ann.issues
        .iter()
        .map(|i| issue(w, i, object, locate))
        .collect()
}

fn issue(w: &Written, i: &Issue, object: &str, locate: &dyn Locate) -> Diagnostic {
    let mut d = Diagnostic::new(
        ANNOTATION_INVALID,
        format!("annotation {:?}: {}", w.key, i.message),
    );
    d = at(d, w.span(i.at, locate));
    d.object = Some(object.to_string());
    if let Some(h) = &i.help {
        d = d.with_help(h.clone());
    }
    with_severity(d, i.severity)
}

/// Where a VM-level finding goes when no field is to blame.
pub struct VmPlace<'a> {
    pub object: String,
    /// `objects[0]: ` for a template's own VM.
    pub prefix: String,
    pub fallback: &'a Pos,
}

/// The error for a VM whose rules the validator cannot read.
pub fn unusable(
    place: &VmPlace,
    source: &str,
    w: &Written,
    ann: &Annotation,
    locate: &dyn Locate,
) -> Diagnostic {
    let first = ann.issues.iter().find(|i| i.fatal);
    let mut d = Diagnostic::new(
        ANNOTATION_INVALID,
        format!(
            "{}the validator rejects this VirtualMachine: the {:?} annotation of {source} cannot \
             be read (HTTP 400)",
            place.prefix, w.key
        ),
    );
    d = at(d, locate.span(place.fallback));
    d.object = Some(place.object.clone());
    if let Some(i) = first {
        if let Some(span) = w.span(i.at, locate) {
            d = d.with_related(i.message.clone(), span);
        }
    }
    d
}

/// The diagnostic for one rule's outcome, if it deserves one.
pub fn outcome(
    place: &VmPlace,
    source: &str,
    rule: &Rule,
    o: &Outcome,
    w: &Written,
    locate: &dyn Locate,
) -> Option<Diagnostic> {
    let severity = match o.verdict {
        Verdict::Failed if rule.just_warning => Severity::Warning,
        Verdict::Failed | Verdict::Error => Severity::Error,
        _ => return None,
    };
    let verb = if severity == Severity::Warning {
        "warns (justWarning)"
    } else {
        "rejects this VirtualMachine"
    };
    let quoted = if rule.message.is_empty() {
        o.detail.clone()
    } else {
        format!("{}: {}", rule.message, o.detail)
    };
    let mut message = format!(
        "{}{} of {source} {verb}: {quoted}",
        place.prefix,
        rule.label()
    );
    for n in &o.notes {
        message.push('\n');
        message.push_str(n);
    }
    let mut d = Diagnostic::new(RULE_VIOLATION, message);
    let span =
        o.at.and_then(|p| locate.span(p))
            .or_else(|| locate.span(place.fallback));
    d = at(d, span);
    d.object = Some(place.object.clone());
    if let Some(span) = w.span(rule.at, locate) {
        d = d.with_related(format!("{} is defined here", rule.label()), span);
    }
    if let Some(h) = &o.help {
        d = d.with_help(h.clone());
    }
    Some(with_severity(d, severity))
}
