//! Overlay errors: ytt's message chain (`Document on line f.yml:4: Map item (key 'map') on line
//! f.yml:5: Expected number of matched nodes to be 1, but was 0`) plus the position of the
//! innermost overlay node the error is about, for diagnostics.

use std::fmt;

use crate::pos::Pos;
use crate::yaml::node::Value;

/// An error while applying an overlay.
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayError {
    /// The whole message as ytt builds it, context first (without the `overlay.apply: ` or
    /// `Overlaying (...)` prefix added by callers other than [`super::post_process`]).
    pub message: String,
    /// The innermost overlay (right-hand) node the error is about, when known.
    pub pos: Option<Pos>,
}

impl OverlayError {
    pub(crate) fn new(message: impl Into<String>) -> OverlayError {
        OverlayError {
            message: message.into(),
            pos: None,
        }
    }

    /// Puts `context` (`Map item (key 'a') on line f.yml:3`) in front of the message; the
    /// first context added names the node the error is about.
    pub(crate) fn within(mut self, context: &str, pos: &Pos) -> OverlayError {
        self.message = format!("{context}: {}", self.message);
        if self.pos.is_none() && pos.is_known() {
            self.pos = Some(pos.clone());
        }
        self
    }
}

impl From<String> for OverlayError {
    fn from(message: String) -> OverlayError {
        OverlayError::new(message)
    }
}

impl fmt::Display for OverlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OverlayError {}

/// A map key as Go's `%s` prints it in `Map item (key '%s')`: strings as they are, other
/// scalars in Go's bad-verb notation (`%!s(int=1)`).
pub(crate) fn go_key(key: &Value) -> String {
    crate::yaml::pos_print::key_text(key)
}

/// The Go type ytt prints (`%T`) for an annotation argument held as a plain value.
pub(crate) fn go_type_of_scalar(v: &Value) -> &'static str {
    match v {
        Value::Null => "starlark.NoneType",
        Value::Bool(_) => "starlark.Bool",
        Value::Int(_) | Value::Uint(_) => "starlark.Int",
        Value::Float(_) => "starlark.Float",
        Value::String(_) => "starlark.String",
        Value::Map(_) => "*starlark.Dict",
        Value::Array(_) => "*starlark.List",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_prepended_and_innermost_position_kept() {
        let file: std::sync::Arc<str> = std::sync::Arc::from("a.yml");
        let inner = Pos::new(&file, 5, 1, 0);
        let outer = Pos::new(&file, 4, 1, 0);
        let e = OverlayError::new("Expected x")
            .within("Map item (key 'map') on line a.yml:5", &inner)
            .within("Document on line a.yml:4", &outer);
        assert_eq!(
            e.message,
            "Document on line a.yml:4: Map item (key 'map') on line a.yml:5: Expected x"
        );
        assert_eq!(e.pos, Some(inner));
    }

    #[test]
    fn keys_print_like_go_percent_s() {
        assert_eq!(go_key(&Value::String("k".into())), "k");
        assert_eq!(go_key(&Value::Int(3)), "%!s(int=3)");
        assert_eq!(go_key(&Value::Bool(true)), "%!s(bool=true)");
        assert_eq!(go_key(&Value::Null), "%!s(<nil>)");
        assert_eq!(go_key(&Value::Float(1.5)), "%!s(float64=1.5)");
    }
}
