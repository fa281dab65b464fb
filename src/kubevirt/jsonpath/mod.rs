//! kubectl's JSONPath dialect (`k8s.io/client-go/util/jsonpath`): the parser, and an evaluator
//! over typed VirtualMachine values that finds what client-go finds on the decoded Go struct.

pub mod eval;
pub mod parse;

pub use eval::{find, Found};
pub use parse::parse_template;

/// A parsed template: plain text and `{...}` actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    pub nodes: Vec<Node>,
}

/// One bound of `[a:b:c]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Param {
    pub value: i64,
    pub known: bool,
    /// `[i]` sets the end to `i+1`.
    pub derived: bool,
}

/// A node of the template.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// An action's steps, applied in order.
    List(Vec<Node>),
    Text(String),
    Field(String),
    Array([Param; 3]),
    Filter {
        left: Vec<Node>,
        right: Vec<Node>,
        op: String,
    },
    Int(i64),
    Float(f64),
    Bool(bool),
    Wildcard,
    Recursive,
    Union(Vec<Vec<Node>>),
    Identifier(String),
}

impl Template {
    /// The steps of the single action of a `{...}` template, when it is just that.
    pub fn single_action(&self) -> Option<&[Node]> {
        match self.nodes.as_slice() {
            [Node::List(steps)] => Some(steps),
            _ => None,
        }
    }
}

/// The prefix every validator path must carry.
pub const PREFIX: &str = "jsonpath::";

/// A rule path as the validator compiles it: `jsonpath::EXPR` becomes `{.spec.template EXPR}`.
#[derive(Clone, Debug, PartialEq)]
pub struct RulePath {
    /// The expression after the prefix and one leading `$`, as the validator reports it.
    pub expr: String,
    pub template: Template,
}

/// Why a path string is not one the validator accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum PathError {
    /// No `jsonpath::` prefix.
    NoPrefix,
    /// client-go rejected the expression.
    Syntax(String),
}

/// Compiles a rule path string the way the validator does.
pub fn compile(text: &str) -> Result<RulePath, PathError> {
    let rest = text.strip_prefix(PREFIX).ok_or(PathError::NoPrefix)?;
    let expr = rest.strip_prefix('$').unwrap_or(rest);
    let template =
        parse_template(&format!("{{.spec.template{expr}}}")).map_err(PathError::Syntax)?;
    Ok(RulePath {
        expr: expr.to_string(),
        template,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_like_the_validator() {
        let p = compile("jsonpath::$.spec.domain.cpu.cores").unwrap();
        assert_eq!(p.expr, ".spec.domain.cpu.cores");
        assert_eq!(p.template.single_action().map(|s| s.len()), Some(6));
        assert_eq!(compile("spec.domain"), Err(PathError::NoPrefix));
        assert_eq!(compile("/spec.domain"), Err(PathError::NoPrefix));
        // parses, but names the field "templatespec"
        let p = compile("jsonpath::spec.domain").unwrap();
        let steps = p.template.single_action().unwrap();
        assert_eq!(steps[1], Node::Field("templatespec".into()));
        assert!(matches!(
            compile("jsonpath::.a[x]"),
            Err(PathError::Syntax(_))
        ));
    }
}
