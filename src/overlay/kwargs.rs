//! Reading overlay annotations off a node: which operation a node asks for (`@overlay/merge`,
//! the default, or remove/replace/insert/append/assert), the keyword arguments of an
//! annotation, and what each argument value is (a plain scalar, a function, a list, ...).

use super::error::go_type_of_scalar;
use super::host::{HandleKind, OverlayHost};
use crate::yaml::node::{AnnValue, Annotations, Handle, Value};

pub(crate) const MATCH: &str = "overlay/match";
pub(crate) const MATCH_CHILD_DEFAULTS: &str = "overlay/match-child-defaults";
pub(crate) const REPLACE: &str = "overlay/replace";
pub(crate) const INSERT: &str = "overlay/insert";
pub(crate) const ASSERT: &str = "overlay/assert";

/// The operation an overlay node performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Merge,
    Remove,
    Replace,
    Insert,
    Append,
    Assert,
}

impl Op {
    const ALL: [Op; 6] = [
        Op::Merge,
        Op::Remove,
        Op::Replace,
        Op::Insert,
        Op::Append,
        Op::Assert,
    ];

    /// The annotation name, as ytt prints it in messages (`overlay/insert`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Op::Merge => "overlay/merge",
            Op::Remove => "overlay/remove",
            Op::Replace => "overlay/replace",
            Op::Insert => "overlay/insert",
            Op::Append => "overlay/append",
            Op::Assert => "overlay/assert",
        }
    }
}

/// The operation a node's annotations ask for; merge when none is given.
pub(crate) fn which_op(anns: &Annotations) -> Result<Op, String> {
    let mut found = None;
    for op in Op::ALL {
        if anns.has(op.name()) {
            if found.is_some() {
                return Err("Expected to find only one overlay operation".to_string());
            }
            found = Some(op);
        }
    }
    Ok(found.unwrap_or(Op::Merge))
}

/// The keyword arguments of annotation `name` (none when the node lacks it). Positional
/// arguments are ignored, as in ytt.
pub(crate) fn kwargs<'a>(anns: &'a Annotations, name: &str) -> &'a [(String, AnnValue)] {
    anns.get(name).map(|a| a.kwargs.as_slice()).unwrap_or(&[])
}

/// An annotation argument after asking the host what a handle is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arg {
    Scalar(Value),
    Callable(Handle),
    List(Vec<AnnValue>),
    Other(String),
}

impl Arg {
    pub(crate) fn resolve(v: &AnnValue, host: &mut dyn OverlayHost) -> Arg {
        match v {
            AnnValue::Scalar(s) => Arg::Scalar(s.clone()),
            AnnValue::Starlark(h) => match host.kind(*h) {
                HandleKind::Callable => Arg::Callable(*h),
                HandleKind::List(items) => Arg::List(items),
                HandleKind::Scalar(s) => Arg::Scalar(s),
                HandleKind::Other(t) => Arg::Other(t),
            },
        }
    }

    /// The Go type ytt prints for the value (`%T`).
    pub(crate) fn go_type(&self) -> String {
        match self {
            Arg::Scalar(v) => go_type_of_scalar(v).to_string(),
            Arg::Callable(_) => "*starlark.Function".to_string(),
            Arg::List(_) => "*starlark.List".to_string(),
            Arg::Other(t) => t.clone(),
        }
    }
}

/// A boolean argument (`or_add=`, `before=`, `after=`): only a real bool is accepted.
pub(crate) fn bool_arg(v: &AnnValue, host: &mut dyn OverlayHost) -> Result<bool, String> {
    match Arg::resolve(v, host) {
        Arg::Scalar(Value::Bool(b)) => Ok(b),
        other => Err(format!(
            "expected starlark.Bool, but was {}",
            other.go_type()
        )),
    }
}

/// A function argument (`via=`): `what` is the annotation name for the message.
pub(crate) fn func_arg(
    v: &AnnValue,
    what: &str,
    kwarg: &str,
    host: &mut dyn OverlayHost,
) -> Result<Handle, String> {
    match Arg::resolve(v, host) {
        Arg::Callable(h) => Ok(h),
        other => Err(format!(
            "Expected '{what}' annotation keyword argument '{kwarg}' to be function, but was {}",
            other.go_type()
        )),
    }
}

/// ytt's message for an unexpected keyword argument.
pub(crate) fn unknown_kwarg(annotation: &str, kwarg: &str) -> String {
    format!("Unknown '{annotation}' annotation keyword argument '{kwarg}'")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::yaml::node::Annotation;

    fn ann(name: &str) -> Annotation {
        Annotation {
            name: name.to_string(),
            args: vec![],
            kwargs: vec![],
            pos: Pos::unknown(),
        }
    }

    #[test]
    fn merge_is_the_default_and_two_ops_conflict() {
        let mut anns = Annotations::default();
        assert_eq!(which_op(&anns), Ok(Op::Merge));
        anns.set(ann("overlay/match"));
        anns.set(ann("overlay/remove"));
        assert_eq!(which_op(&anns), Ok(Op::Remove));
        anns.set(ann("overlay/replace"));
        assert_eq!(
            which_op(&anns),
            Err("Expected to find only one overlay operation".to_string())
        );
    }

    #[test]
    fn bool_args_must_be_bools() {
        let mut host = super::super::host::NoStarlark;
        let yes = AnnValue::Scalar(Value::Bool(true));
        assert_eq!(bool_arg(&yes, &mut host), Ok(true));
        let s = AnnValue::Scalar(Value::String("x".into()));
        assert_eq!(
            bool_arg(&s, &mut host),
            Err("expected starlark.Bool, but was starlark.String".to_string())
        );
    }
}
