//! Evaluates rules on one VirtualMachine as the template validator does: every rule in order
//! (duplicate name, kind, message, `valid`, arguments, path), every value must satisfy it, and an
//! absent path is looked up again in the reference VM. Where the validator's answer is an
//! artefact (zero values of the reference VM, `<uint32 Value>` texts, fractional quantities it
//! cannot convert), the outcome keeps the validator's verdict and notes what really happened.

use crate::pos::Pos;
use crate::yaml::Value;

use super::annotation::{IntArg, Rule, StrArg};
use super::check::KINDS;
use super::convert::{as_int, as_str, written, IntValue, StrValue};
use super::jsonpath::eval::EvalError;
use super::jsonpath::{find, RulePath};
use super::quantity;
use super::schema::Schema;
use super::value::{Node, View};

/// The implementation-defined choices, with the validator's behaviour as the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Look an absent path up in the validator's reference VM (zero values), as it does.
    pub reference_vm: bool,
    /// Apply the webhook's CPU defaults (sockets, cores, threads 0 -> 1 when `cpu` is given).
    pub cpu_defaults: bool,
    /// An unknown rule kind rejects the VM (the validator) instead of being ignored (spec 003).
    pub reject_unknown_kinds: bool,
    /// A fractional quantity (`1.5Gi`) rejects the VM as the validator cannot convert it;
    /// otherwise its exact value is checked.
    pub reject_fractional_quantities: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            reference_vm: true,
            cpu_defaults: true,
            reject_unknown_kinds: true,
            reject_fractional_quantities: true,
        }
    }
}

/// What the validator decides for one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Skipped,
    Satisfied,
    /// Applied and not satisfied (only a warning for `justWarning` rules).
    Failed,
    /// The rule could not be evaluated: the VM is rejected even for `justWarning` rules.
    Error,
    /// The linter cannot tell (template parameters).
    Unknown,
}

/// One rule's outcome on one VM.
#[derive(Clone, Debug)]
pub struct Outcome<'a> {
    pub verdict: Verdict,
    /// The validator's detail, which it prints after the rule's message.
    pub detail: String,
    /// What the linter sees beyond the validator's answer.
    pub notes: Vec<String>,
    pub help: Option<String>,
    /// The VM position the outcome is about, when there is one.
    pub at: Option<&'a Pos>,
}

impl<'a> Outcome<'a> {
    fn new(verdict: Verdict, detail: impl Into<String>, at: Option<&'a Pos>) -> Outcome<'a> {
        Outcome {
            verdict,
            detail: detail.into(),
            notes: Vec::new(),
            help: None,
            at,
        }
    }

    fn skipped() -> Outcome<'a> {
        Outcome::new(Verdict::Skipped, "", None)
    }

    fn note(mut self, note: impl Into<String>) -> Outcome<'a> {
        self.notes.push(note.into());
        self
    }
}

/// A VirtualMachine to evaluate.
pub struct Vm<'a> {
    pub value: &'a Value,
    pub pos: &'a Pos,
    /// The VM sits in a Template's `objects`: `${X}` texts are parameters.
    pub params: bool,
}

/// Values a path yielded, and whether they come from the reference VM.
pub(crate) struct Looked<'a> {
    /// The path expression, as the validator reports it.
    pub expr: String,
    pub vals: Vec<Node<'a>>,
    /// Set when the VM lacks the path and the values are the reference VM's.
    pub absent: Option<EvalError<'a>>,
}

pub(crate) struct Ctx<'s, 'a> {
    pub view: View<'s>,
    pub root: Node<'a>,
    pub reference: Node<'a>,
    pub policy: &'s Policy,
    pub params: bool,
}

/// Evaluates every rule on the VM; one outcome per rule, in order.
pub fn evaluate<'a>(
    rules: &[Rule],
    vm: &Vm<'a>,
    schema: &Schema,
    policy: &Policy,
) -> Vec<Outcome<'a>> {
    let view = View {
        schema,
        cpu_defaults: policy.cpu_defaults,
    };
    let root = view.root(vm.value, vm.pos);
    let reference = view.ref_root();
    let ctx = Ctx {
        view,
        root,
        reference,
        policy,
        params: vm.params,
    };
    let mut out = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let dup = rules[..i].iter().any(|r| r.name == rule.name);
        out.push(ctx.rule(rule, dup));
    }
    out
}

impl<'s, 'a> Ctx<'s, 'a> {
    fn rule(&self, rule: &Rule, duplicate: bool) -> Outcome<'a> {
        if duplicate {
            return Outcome::new(Verdict::Error, "duplicate Rule Name", None);
        }
        if !KINDS.contains(&rule.kind.as_str()) {
            if !self.policy.reject_unknown_kinds {
                return Outcome::skipped();
            }
            return Outcome::new(Verdict::Error, "unrecognized Rule type", None);
        }
        if rule.message.is_empty() {
            return Outcome::new(Verdict::Error, "missing required key", None);
        }
        if let Some(valid) = &rule.valid {
            match find(&self.view, &valid.path.template, &self.root) {
                Ok(v) if !v.is_empty() => {}
                _ => return Outcome::skipped(),
            }
        }
        let out = match rule.kind.as_str() {
            "integer" => self.integer(rule),
            "string" => self.string(rule),
            "enum" => self.enumeration(rule),
            _ => self.regex(rule),
        };
        out.unwrap_or_else(|o| o)
    }

    /// The path's values on the VM, or on the reference VM when the VM lacks it.
    pub(crate) fn lookup(&self, p: &RulePath) -> Result<Looked<'a>, Outcome<'a>> {
        match find(&self.view, &p.template, &self.root) {
            Ok(vals) => Ok(Looked {
                expr: p.expr.clone(),
                vals,
                absent: None,
            }),
            Err(e) => {
                let absent_note = format!(
                    "`{}` is absent from the VirtualMachine ({})",
                    p.expr, e.message
                );
                if self.policy.reference_vm {
                    if let Ok(vals) = find(&self.view, &p.template, &self.reference) {
                        return Ok(Looked {
                            expr: p.expr.clone(),
                            vals,
                            absent: Some(e),
                        });
                    }
                }
                Err(Outcome::new(Verdict::Error, "invalid JSONPath", e.at).note(absent_note))
            }
        }
    }

    fn path_of(&self, rule: &Rule) -> Result<RulePath, Outcome<'a>> {
        match &rule.path {
            Some(p) => Ok(p.path.clone()),
            None => Err(Outcome::new(
                Verdict::Error,
                "the rule has no path: the validator crashes and the VirtualMachine is refused",
                None,
            )),
        }
    }

    /// Go's `decodeInts` on a path: every value as an integer.
    pub(crate) fn ints(&self, looked: &Looked<'a>) -> Result<Vec<(i64, Node<'a>)>, Outcome<'a>> {
        let mut out = Vec::new();
        for n in &looked.vals {
            let at = n.at.or(looked.absent.as_ref().and_then(|e| e.at));
            match as_int(&self.view, n, self.params) {
                IntValue::Int(i) => out.push((i, n.clone())),
                IntValue::Parameter => return Err(Outcome::new(Verdict::Unknown, "", at)),
                IntValue::Mismatch(t) => {
                    let d = format!("mismatching type: {t}, not int or resource.Quantity");
                    return Err(Outcome::new(Verdict::Error, d, at));
                }
                IntValue::NilQuantity => {
                    let d = "the quantity is absent (a nil *resource.Quantity): the validator \
                             crashes and the VirtualMachine is refused";
                    return Err(Outcome::new(Verdict::Error, d, at));
                }
                IntValue::BadQuantity(text) => {
                    let d = format!("{text:?} is not a Kubernetes quantity");
                    return Err(Outcome::new(Verdict::Error, d, at));
                }
                IntValue::Fractional { text, exact } => {
                    if self.policy.reject_fractional_quantities {
                        return Err(fractional(&self.view, n, &text, exact, at));
                    }
                    let v = exact
                        .and_then(|e| i64::try_from(e).ok())
                        .unwrap_or(i64::MAX);
                    out.push((v, n.clone()));
                }
            }
        }
        Ok(out)
    }

    /// Go's `decodeStrings` on a path.
    pub(crate) fn strs(
        &self,
        looked: &Looked<'a>,
    ) -> Result<Vec<(StrValue, Node<'a>)>, Outcome<'a>> {
        let mut out = Vec::new();
        for n in &looked.vals {
            let s = as_str(&self.view, n, self.params);
            if s.parameter {
                return Err(Outcome::new(Verdict::Unknown, "", n.at));
            }
            out.push((s, n.clone()));
        }
        Ok(out)
    }

    fn int_arg(&self, arg: &Option<IntArg>) -> Result<Option<i64>, Outcome<'a>> {
        match arg {
            None => Ok(None),
            Some(IntArg::Int(i)) => Ok(Some(*i)),
            Some(IntArg::Path(p)) => {
                let looked = self.lookup(&p.path)?;
                let vals = self.ints(&looked)?;
                match vals.as_slice() {
                    [(v, _)] => Ok(Some(*v)),
                    _ => Err(Outcome::new(
                        Verdict::Error,
                        format!("expected one value, found {}", vals.len()),
                        None,
                    )
                    .note(format!("argument path `{}`", p.path.expr))),
                }
            }
        }
    }

    fn str_arg(&self, arg: &StrArg) -> Result<String, Outcome<'a>> {
        match arg {
            StrArg::Str(s) => Ok(s.clone()),
            StrArg::Path(p) => {
                let looked = self.lookup(&p.path)?;
                let vals = self.strs(&looked)?;
                match vals.as_slice() {
                    [(v, _)] => Ok(v.text.clone()),
                    _ => Err(Outcome::new(
                        Verdict::Error,
                        format!("expected one value, found {}", vals.len()),
                        None,
                    )
                    .note(format!("argument path `{}`", p.path.expr))),
                }
            }
        }
    }

    fn integer(&self, rule: &Rule) -> Result<Outcome<'a>, Outcome<'a>> {
        let min = self.int_arg(&rule.min)?;
        let max = self.int_arg(&rule.max)?;
        let path = self.path_of(rule)?;
        let looked = self.lookup(&path)?;
        let vals = self.ints(&looked)?;
        if vals.is_empty() {
            return Err(no_values(&looked, &path));
        }
        Ok(super::apply::integer(&looked, &vals, min, max))
    }

    fn string(&self, rule: &Rule) -> Result<Outcome<'a>, Outcome<'a>> {
        let min = self.int_arg(&rule.min_length)?;
        let max = self.int_arg(&rule.max_length)?;
        let path = self.path_of(rule)?;
        let looked = self.lookup(&path)?;
        let vals = self.strs(&looked)?;
        if vals.is_empty() {
            return Err(no_values(&looked, &path));
        }
        Ok(super::apply::string(&looked, &vals, min, max))
    }

    fn enumeration(&self, rule: &Rule) -> Result<Outcome<'a>, Outcome<'a>> {
        let mut allowed = Vec::new();
        for v in rule.values.iter().flatten() {
            allowed.push(self.str_arg(v)?);
        }
        let path = self.path_of(rule)?;
        let looked = self.lookup(&path)?;
        let vals = self.strs(&looked)?;
        if vals.is_empty() {
            return Err(no_values(&looked, &path));
        }
        Ok(super::apply::enumeration(&looked, &vals, &allowed))
    }

    fn regex(&self, rule: &Rule) -> Result<Outcome<'a>, Outcome<'a>> {
        let pattern = rule.regex.clone().unwrap_or_default();
        let re = super::re2::compile(&pattern).map_err(|e| {
            Outcome::new(Verdict::Error, format!("error parsing regexp: {e}"), None)
        })?;
        let path = self.path_of(rule)?;
        let looked = self.lookup(&path)?;
        let vals = self.strs(&looked)?;
        if vals.is_empty() {
            return Err(no_values(&looked, &path));
        }
        Ok(super::apply::regex(&looked, &vals, &re, &pattern))
    }
}

fn no_values<'a>(looked: &Looked<'a>, path: &RulePath) -> Outcome<'a> {
    let at = looked.absent.as_ref().and_then(|e| e.at);
    Outcome::new(Verdict::Error, "no values were found", at).note(format!(
        "`{}` matches nothing on this VirtualMachine",
        path.expr
    ))
}

fn fractional<'a>(
    view: &View,
    n: &Node,
    text: &str,
    exact: Option<i128>,
    at: Option<&'a Pos>,
) -> Outcome<'a> {
    let ty = view.schema.go_name(n.ty);
    let mut o = Outcome::new(
        Verdict::Error,
        format!("mismatching type: {ty}, not int or resource.Quantity"),
        at,
    );
    let exact_text = exact.map(|e| format!(" ({e} bytes)")).unwrap_or_default();
    o.notes.push(format!(
        "{text:?}{exact_text} is a fractional quantity, which the validator cannot convert to an \
         integer when it reads it as written"
    ));
    if let Some(e) =
        exact.filter(|e| quantity::parse(text).is_some_and(|q| q.is_integral()) && *e > 0)
    {
        o.help = Some(format!("write it as {:?}", quantity::canonical(e)));
    }
    o
}

/// Shown values: the reference VM's many identical zero values are summarised.
pub(crate) fn list<T: AsRef<str>>(vals: &[T], from_reference: bool) -> String {
    if from_reference && vals.len() > 3 && vals.iter().all(|v| v.as_ref() == vals[0].as_ref()) {
        return format!("[{:?} x{}]", vals[0].as_ref(), vals.len());
    }
    let items: Vec<&str> = vals.iter().map(|v| v.as_ref()).collect();
    format!("[{}]", items.join(", "))
}

/// What the author wrote for a value, for notes (`4` for a `<uint32 Value>`).
pub(crate) fn shown_value(n: &Node) -> String {
    written(n).unwrap_or_else(|| "its value".to_string())
}
