//! `@overlay/match-child-defaults expects=..., missing_ok=..., when=...`: defaults for the
//! `@overlay/match` of a node's descendants (not of the node itself). A node's own defaults
//! inherit, argument by argument, from its parent's.

use super::expects::Expects;
use super::kwargs::{kwargs, unknown_kwarg, MATCH_CHILD_DEFAULTS};
use crate::yaml::node::Annotations;

/// Defaults in effect for the children of a node.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ChildDefaults {
    pub expects: Expects,
}

impl ChildDefaults {
    /// The defaults for the children of a node annotated with `anns`, under `parent`'s.
    pub(crate) fn read(
        anns: &Annotations,
        parent: &ChildDefaults,
    ) -> Result<ChildDefaults, String> {
        let mut expects = Expects::default();
        for (name, value) in kwargs(anns, MATCH_CHILD_DEFAULTS) {
            match name.as_str() {
                "expects" => expects.expects = Some(value.clone()),
                "missing_ok" => expects.missing_ok = Some(value.clone()),
                "when" => expects.when = Some(value.clone()),
                other => return Err(unknown_kwarg(MATCH_CHILD_DEFAULTS, other)),
            }
        }
        expects.fill_in_defaults(&parent.expects);
        Ok(ChildDefaults { expects })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::yaml::node::{AnnValue, Annotation, Value};

    fn anns(kwargs: Vec<(&str, AnnValue)>) -> Annotations {
        Annotations(vec![Annotation {
            name: MATCH_CHILD_DEFAULTS.to_string(),
            args: vec![],
            kwargs: kwargs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            pos: Pos::unknown(),
        }])
    }

    #[test]
    fn own_arguments_win_and_others_are_inherited() {
        let t = AnnValue::Scalar(Value::Bool(true));
        let f = AnnValue::Scalar(Value::Bool(false));
        let parent = ChildDefaults::read(
            &anns(vec![
                ("missing_ok", t.clone()),
                ("when", AnnValue::Scalar(Value::Int(1))),
            ]),
            &ChildDefaults::default(),
        )
        .unwrap();
        let child = ChildDefaults::read(&anns(vec![("missing_ok", f.clone())]), &parent).unwrap();
        assert_eq!(child.expects.missing_ok, Some(f));
        assert_eq!(child.expects.when, Some(AnnValue::Scalar(Value::Int(1))));
        assert_eq!(child.expects.expects, None);
    }

    #[test]
    fn unknown_arguments_are_errors() {
        let err = ChildDefaults::read(
            &anns(vec![("by", AnnValue::Scalar(Value::Int(1)))]),
            &ChildDefaults::default(),
        );
        assert_eq!(
            err,
            Err("Unknown 'overlay/match-child-defaults' annotation keyword argument 'by'".into())
        );
    }
}
