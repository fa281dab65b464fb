//! The boundary between the overlay engine and the Starlark evaluator: everything the engine
//! needs from Starlark values (matcher functions, `via=` functions, `expects=` lists and
//! functions) goes through [`OverlayHost`], so the engine never evaluates Starlark itself.
//!
//! Values handed to the host are YAML values of the node tree. ytt hands maps and arrays to
//! Starlark as YAML fragments (read-only views that keep positions) and scalars as plain
//! Starlark scalars (`None`, bools, ints, floats, strings); the host should do the same.

use crate::yaml::node::{AnnValue, Handle, Value};

/// What a Starlark value referenced by a [`Handle`] is, as far as the engine cares.
#[derive(Clone, Debug, PartialEq)]
pub enum HandleKind {
    /// Anything callable: `def` functions, lambdas, builtins such as `overlay.all` and the
    /// matchers made by `overlay.subset(...)`, `overlay.map_key(...)`, `overlay.index(...)`.
    Callable,
    /// A Starlark list (not a tuple: ytt accepts only lists for `expects=`), with its elements.
    List(Vec<AnnValue>),
    /// A scalar the evaluator kept as a handle (an int outside `i32`, a float, ...).
    Scalar(Value),
    /// Anything else, named by the Go type ytt would print for it in messages:
    /// `starlark.Tuple`, `*starlark.Dict`, `*starlarkstruct.Struct`,
    /// `*yamltemplate.StarlarkFragment`, ...
    Other(String),
}

/// What a matcher (`by=`) or an `expects=`/`when=` function returned.
#[derive(Clone, Debug, PartialEq)]
pub enum Returned {
    /// A Starlark `True` or `False` (only a real bool counts; ytt does not use truthiness).
    Bool(bool),
    /// Anything else, named by its Go type as ytt prints it (`starlark.Int`,
    /// `starlark.NoneType`, `starlark.String`, ...).
    Other(String),
}

/// What an `@overlay/assert via=` function returned.
#[derive(Clone, Debug, PartialEq)]
pub enum AssertReturned {
    /// `None`: the assertion passed (the function did not fail).
    None,
    /// `True` passes, `False` fails.
    Bool(bool),
    /// A tuple or list of exactly two elements, a bool and a string: `(ok, message)`.
    Pair(bool, String),
    /// Any other value (ytt: "returned neither of those").
    Other,
}

/// An error raised while the host ran Starlark code (a failing `fail()`, a type error in a
/// matcher, a value that cannot become YAML). `0` is the message as ytt prints it, e.g.
/// `assert.fail: fail: fail`; the engine puts its context in front of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostError(pub String);

impl From<String> for HostError {
    fn from(message: String) -> HostError {
        HostError(message)
    }
}

impl From<&str> for HostError {
    fn from(message: &str) -> HostError {
        HostError(message.to_string())
    }
}

/// Calls into the Starlark evaluator made by the overlay engine.
///
/// Each call receives node-tree values; none of them may be modified by the callee (the engine
/// passes references to its own trees, so a host that wants to keep a value must clone it).
pub trait OverlayHost {
    /// Tells what the value behind `value` is. Called for every annotation argument that is a
    /// handle before the engine uses it (e.g. to tell a function from a list in `expects=`).
    fn kind(&mut self, value: Handle) -> HandleKind;

    /// Calls a matcher given as `@overlay/match by=func` as `func(key, left, right)`:
    /// - on a document: `key` is the document's index counted over all left documents (across
    ///   all document sets, from 0), `left` is the left document's value and `right` the
    ///   overlay document's value;
    /// - on a map item: `key` is the left item's key, `left` the left item's value and `right`
    ///   the overlay item's value;
    /// - on an array item: `key` is the left item's index, `left` the left item's value and
    ///   `right` the overlay item's value.
    ///
    /// It is called once per left node, in order. A string `by="name"` on items is handled by
    /// the engine itself (it is `overlay.map_key("name")`) and never reaches the host.
    fn call_matcher(
        &mut self,
        func: Handle,
        key: &Value,
        left: &Value,
        right: &Value,
    ) -> Result<Returned, HostError>;

    /// Calls an `expects=`, `when=` (or inherited `@overlay/match-child-defaults`) function as
    /// `func(count)` with the number of left nodes that matched.
    fn call_expects(&mut self, func: Handle, count: i64) -> Result<Returned, HostError>;

    /// Calls an `@overlay/replace via=` or `@overlay/insert via=` function as
    /// `func(left, right)` and converts its result to a YAML value. `left` is the matched left
    /// node's value (`Value::Null`, i.e. `None`, when `or_add=True` adds a missing node) and
    /// `right` the overlay node's value; both are copies the callee may keep.
    fn call_via(&mut self, func: Handle, left: &Value, right: &Value) -> Result<Value, HostError>;

    /// Calls an `@overlay/assert via=` function as `func(left, right)` (the matched left
    /// node's value and the overlay node's value) and classifies what it returned.
    fn call_assert_via(
        &mut self,
        func: Handle,
        left: &Value,
        right: &Value,
    ) -> Result<AssertReturned, HostError>;
}

/// A host for overlays that contain no Starlark values (plain-merge data values, schema
/// overlays built by code): every handle is reported as an unknown value and every call fails.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default)]
pub struct NoStarlark;

#[cfg(test)]
impl OverlayHost for NoStarlark {
    fn kind(&mut self, _value: Handle) -> HandleKind {
        HandleKind::Other("starlark.Value".to_string())
    }

    fn call_matcher(
        &mut self,
        _func: Handle,
        _key: &Value,
        _left: &Value,
        _right: &Value,
    ) -> Result<Returned, HostError> {
        Err(HostError::from("no Starlark evaluator to call a matcher"))
    }

    fn call_expects(&mut self, _func: Handle, _count: i64) -> Result<Returned, HostError> {
        Err(HostError::from(
            "no Starlark evaluator to call an expects function",
        ))
    }

    fn call_via(
        &mut self,
        _func: Handle,
        _left: &Value,
        _right: &Value,
    ) -> Result<Value, HostError> {
        Err(HostError::from(
            "no Starlark evaluator to call a via function",
        ))
    }

    fn call_assert_via(
        &mut self,
        _func: Handle,
        _left: &Value,
        _right: &Value,
    ) -> Result<AssertReturned, HostError> {
        Err(HostError::from(
            "no Starlark evaluator to call a via function",
        ))
    }
}
