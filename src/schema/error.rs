//! Schema problems as data: a [`Failure`] is one problem at one node (a data value of the wrong
//! type, a key the schema does not declare, a malformed `@schema/...` annotation); a
//! [`SchemaError`] groups failures under a summary ("One or more data values were invalid",
//! "Invalid schema - ..."), possibly around nested errors, as ytt reports them. Rendering to
//! ytt's text is in [`super::render`]; the linter reads the fields directly.

use crate::pos::Pos;
use crate::yaml::Value;

/// What kind of problem a failure is (the linter's rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The schema itself is malformed (`schema-invalid`).
    InvalidSchema,
    /// A data value does not have the type the schema declares (`schema-type-mismatch`).
    TypeMismatch,
    /// A data value the schema does not declare (`data-value-undeclared`).
    Undeclared,
}

/// One problem at one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: FailureKind,
    /// The node the problem is about (for a data value: the position that set it).
    pub pos: Pos,
    /// Annotations involved (shown above the node).
    pub ann_positions: Vec<Pos>,
    /// The schema node that declared what was expected, when there is one.
    pub schema_pos: Option<Pos>,
    pub description: String,
    pub found: String,
    pub expected: String,
    pub hints: Vec<String>,
    /// ytt's one-line rendering (`key: "value"`) of a value built in memory by Starlark code,
    /// which has no source line to show.
    pub memory_line: Option<String>,
}

impl Failure {
    pub fn new(kind: FailureKind, pos: &Pos) -> Failure {
        Failure {
            kind,
            pos: pos.clone(),
            ann_positions: Vec::new(),
            schema_pos: None,
            description: String::new(),
            found: String::new(),
            expected: String::new(),
            hints: Vec::new(),
            memory_line: None,
        }
    }

    pub fn described(mut self, description: impl Into<String>) -> Failure {
        self.description = description.into();
        self
    }

    pub fn found(mut self, found: impl Into<String>) -> Failure {
        self.found = found.into();
        self
    }

    pub fn expected(mut self, expected: impl Into<String>) -> Failure {
        self.expected = expected.into();
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Failure {
        self.hints.push(hint.into());
        self
    }

    pub fn at_annotation(mut self, pos: &Pos) -> Failure {
        self.ann_positions.push(pos.clone());
        self
    }
}

/// A part of a [`SchemaError`]: a failure, or a whole nested error (ytt prints nested errors
/// after the failures, each followed by a space).
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Failure(Failure),
    Nested(SchemaError),
}

/// A summary with the failures it groups.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaError {
    pub summary: String,
    pub parts: Vec<Part>,
}

impl SchemaError {
    pub fn new(summary: impl Into<String>, failures: Vec<Failure>) -> SchemaError {
        SchemaError {
            summary: summary.into(),
            parts: failures.into_iter().map(Part::Failure).collect(),
        }
    }

    /// Every failure, nested ones included, in order.
    pub fn failures(&self) -> Vec<&Failure> {
        let mut out = Vec::new();
        for p in &self.parts {
            match p {
                Part::Failure(f) => out.push(f),
                Part::Nested(e) => out.extend(e.failures()),
            }
        }
        out
    }
}

/// A problem found while reading the schema: either a single failure (which the caller puts
/// under its own summary) or an error that already has one.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    Failure(Failure),
    Error(SchemaError),
}

impl Problem {
    /// ytt's `NewSchemaError(summary, problem)`: a failure becomes a failure of the new error,
    /// an error becomes nested in it.
    pub fn under(self, summary: &str) -> SchemaError {
        let part = match self {
            Problem::Failure(f) => Part::Failure(f),
            Problem::Error(e) => Part::Nested(e),
        };
        SchemaError {
            summary: summary.to_string(),
            parts: vec![part],
        }
    }
}

impl From<Failure> for Problem {
    fn from(f: Failure) -> Problem {
        Problem::Failure(f)
    }
}

impl From<SchemaError> for Problem {
    fn from(e: SchemaError) -> Problem {
        Problem::Error(e)
    }
}

/// A value as Go's `%#v` prints it (what ytt shows for values computed in memory).
pub fn go_syntax(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Float(f) => crate::yaml::go_float::format_float_g(*f),
        Value::String(s) => crate::stdlib::golike::quote(s),
        Value::Map(_) => "&yamlmeta.Map{...}".to_string(),
        Value::Array(_) => "&yamlmeta.Array{...}".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_syntax_quotes_strings_and_prints_numbers_plainly() {
        assert_eq!(go_syntax(&Value::String("4".into())), "\"4\"");
        assert_eq!(go_syntax(&Value::String("a\"b\n".into())), "\"a\\\"b\\n\"");
        assert_eq!(go_syntax(&Value::Int(7)), "7");
        assert_eq!(go_syntax(&Value::Null), "<nil>");
    }

    #[test]
    fn problems_nest_errors_and_adopt_failures() {
        let f = Failure::new(FailureKind::InvalidSchema, &Pos::unknown()).found("x");
        let e = Problem::from(f.clone()).under("Invalid schema");
        assert_eq!(e.parts, vec![Part::Failure(f.clone())]);
        let nested = Problem::from(e.clone()).under("Outer");
        assert_eq!(nested.parts, vec![Part::Nested(e)]);
        assert_eq!(nested.failures(), vec![&f]);
    }
}
