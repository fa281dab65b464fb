//! A ready-made [`OverlayHost`] for tests: "Starlark values" are Rust closures, lists and named
//! placeholders registered on the host, each reached through a [`Handle`]. It also offers
//! ytt's stock matchers (`overlay.all`, `overlay.index`, `overlay.map_key`, `overlay.subset`,
//! `not_op`) built on [`super::compare`], and logs every call so tests can check what the
//! engine passed.

use super::compare::{map_key_matches, subset_matches};
use super::host::{AssertReturned, HandleKind, HostError, OverlayHost, Returned};
use crate::yaml::node::{AnnValue, Handle, Value};
use crate::yaml::scalar_key_string;

type MatcherFn = Box<dyn FnMut(&Value, &Value, &Value) -> Result<Returned, HostError>>;
type ExpectsFn = Box<dyn FnMut(i64) -> Result<Returned, HostError>>;
type ViaFn = Box<dyn FnMut(&Value, &Value) -> Result<Value, HostError>>;
type AssertFn = Box<dyn FnMut(&Value, &Value) -> Result<AssertReturned, HostError>>;

enum Entry {
    Matcher(MatcherFn),
    Expects(ExpectsFn),
    Via(ViaFn),
    Assert(AssertFn),
    List(Vec<AnnValue>),
    Other(String),
}

/// Closures behind handles, plus a log of the calls made.
#[derive(Default)]
pub struct TestHost {
    entries: Vec<Entry>,
    /// One line per call: `matcher(key, left, right)`, `expects(n)`, `via(left, right)`,
    /// `assert(left, right)`, with values in a compact form.
    pub calls: Vec<String>,
}

impl TestHost {
    pub fn new() -> TestHost {
        TestHost::default()
    }

    fn add(&mut self, e: Entry) -> AnnValue {
        let slot = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        self.entries.push(e);
        AnnValue::Starlark(Handle { module: 0, slot })
    }

    /// A matcher function `f(key, left, right) -> bool`.
    pub fn matcher(
        &mut self,
        mut f: impl FnMut(&Value, &Value, &Value) -> bool + 'static,
    ) -> AnnValue {
        self.add(Entry::Matcher(Box::new(move |k, l, r| {
            Ok(Returned::Bool(f(k, l, r)))
        })))
    }

    /// A matcher with full control over what it returns.
    pub fn raw_matcher(
        &mut self,
        f: impl FnMut(&Value, &Value, &Value) -> Result<Returned, HostError> + 'static,
    ) -> AnnValue {
        self.add(Entry::Matcher(Box::new(f)))
    }

    /// `overlay.all`.
    pub fn all(&mut self) -> AnnValue {
        self.matcher(|_, _, _| true)
    }

    /// `overlay.index(i)`.
    pub fn index(&mut self, i: i64) -> AnnValue {
        self.matcher(move |k, _, _| *k == Value::Int(i))
    }

    /// `overlay.map_key(name)` (errors carry the builtin's name, as in ytt).
    pub fn map_key(&mut self, name: &str) -> AnnValue {
        let name = name.to_string();
        self.raw_matcher(move |_, l, r| {
            map_key_matches(&name, l, r)
                .map(Returned::Bool)
                .map_err(|e| HostError(format!("overlay.map_key_matcher: {e}")))
        })
    }

    /// `overlay.subset(expected)`.
    pub fn subset(&mut self, expected: Value) -> AnnValue {
        self.matcher(move |_, l, _| subset_matches(l, &expected))
    }

    /// `overlay.not_op(m)` for a matcher closure.
    pub fn not(&mut self, mut f: impl FnMut(&Value, &Value, &Value) -> bool + 'static) -> AnnValue {
        self.matcher(move |k, l, r| !f(k, l, r))
    }

    /// An `expects=`/`when=` function `f(count) -> bool`.
    pub fn expects_fn(&mut self, mut f: impl FnMut(i64) -> bool + 'static) -> AnnValue {
        self.add(Entry::Expects(Box::new(move |n| Ok(Returned::Bool(f(n))))))
    }

    /// An `expects=` function returning something else than a bool.
    pub fn expects_raw(
        &mut self,
        f: impl FnMut(i64) -> Result<Returned, HostError> + 'static,
    ) -> AnnValue {
        self.add(Entry::Expects(Box::new(f)))
    }

    /// A `via=` function for replace/insert.
    pub fn via(
        &mut self,
        f: impl FnMut(&Value, &Value) -> Result<Value, HostError> + 'static,
    ) -> AnnValue {
        self.add(Entry::Via(Box::new(f)))
    }

    /// A `via=` function for `@overlay/assert`.
    pub fn assert_via(
        &mut self,
        f: impl FnMut(&Value, &Value) -> Result<AssertReturned, HostError> + 'static,
    ) -> AnnValue {
        self.add(Entry::Assert(Box::new(f)))
    }

    /// A Starlark list.
    pub fn list(&mut self, items: Vec<AnnValue>) -> AnnValue {
        self.add(Entry::List(items))
    }

    /// Some other Starlark value, named by its Go type (`starlark.Tuple`).
    pub fn other(&mut self, go_type: &str) -> AnnValue {
        self.add(Entry::Other(go_type.to_string()))
    }

    fn entry(&mut self, h: Handle) -> Option<&mut Entry> {
        self.entries.get_mut(usize::try_from(h.slot).ok()?)
    }
}

/// A compact, deterministic rendering of a value for call logs: `{a: 1, b: [x]}`.
pub fn show(v: &Value) -> String {
    match v {
        Value::Map(m) => {
            let items: Vec<String> = m
                .items
                .iter()
                .map(|i| format!("{}: {}", scalar_key_string(&i.key), show(&i.value)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.items.iter().map(|i| show(&i.value)).collect();
            format!("[{}]", items.join(", "))
        }
        other => scalar_key_string(other),
    }
}

fn not_a(what: &str) -> HostError {
    HostError(format!("test host: handle is not a {what}"))
}

impl OverlayHost for TestHost {
    fn kind(&mut self, value: Handle) -> HandleKind {
        match self.entry(value) {
            Some(Entry::List(items)) => HandleKind::List(items.clone()),
            Some(Entry::Other(t)) => HandleKind::Other(t.clone()),
            Some(_) => HandleKind::Callable,
            None => HandleKind::Other("test.Unknown".to_string()),
        }
    }

    fn call_matcher(
        &mut self,
        func: Handle,
        key: &Value,
        left: &Value,
        right: &Value,
    ) -> Result<Returned, HostError> {
        let line = format!("matcher({}, {}, {})", show(key), show(left), show(right));
        self.calls.push(line);
        match self.entry(func) {
            Some(Entry::Matcher(f)) => f(key, left, right),
            _ => Err(not_a("matcher")),
        }
    }

    fn call_expects(&mut self, func: Handle, count: i64) -> Result<Returned, HostError> {
        self.calls.push(format!("expects({count})"));
        match self.entry(func) {
            Some(Entry::Expects(f)) => f(count),
            _ => Err(not_a("expects function")),
        }
    }

    fn call_via(&mut self, func: Handle, left: &Value, right: &Value) -> Result<Value, HostError> {
        self.calls
            .push(format!("via({}, {})", show(left), show(right)));
        match self.entry(func) {
            Some(Entry::Via(f)) => f(left, right),
            _ => Err(not_a("via function")),
        }
    }

    fn call_assert_via(
        &mut self,
        func: Handle,
        left: &Value,
        right: &Value,
    ) -> Result<AssertReturned, HostError> {
        self.calls
            .push(format!("assert({}, {})", show(left), show(right)));
        match self.entry(func) {
            Some(Entry::Assert(f)) => f(left, right),
            _ => Err(not_a("assert function")),
        }
    }
}
