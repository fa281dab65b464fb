//! How many left nodes an `@overlay/match` must find: `expects=` (an int, an `"N+"` string, a
//! list of those, or a function of the count), `missing_ok=` (0 or 1), `when=` (like
//! `expects=`, but a count outside it skips the overlay node instead of failing), the
//! defaults inherited from `@overlay/match-child-defaults`, and the default of exactly one.

use super::error::OverlayError;
use super::host::{OverlayHost, Returned};
use super::kwargs::{Arg, MATCH};
use crate::pos::Pos;
use crate::yaml::node::{AnnValue, Value};

/// Lists nested deeper than this in `expects=` are rejected instead of recursed into.
const MAX_LIST_DEPTH: usize = 32;

/// The count-related keyword arguments of `@overlay/match` (or of
/// `@overlay/match-child-defaults`): each is absent unless given or inherited.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Expects {
    pub expects: Option<AnnValue>,
    pub missing_ok: Option<AnnValue>,
    pub when: Option<AnnValue>,
}

/// Why a match count was rejected.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CheckFail {
    /// The count was not the expected one; `conditional` when that came from `when=`, in which
    /// case the overlay node is skipped rather than failing.
    Count { message: String, conditional: bool },
    /// A malformed argument or a failing function.
    Error(String),
}

impl CheckFail {
    pub(crate) fn into_error(self) -> OverlayError {
        match self {
            CheckFail::Count { message, .. } | CheckFail::Error(message) => {
                OverlayError::new(message)
            }
        }
    }
}

impl Expects {
    /// Takes each argument this node does not give from `defaults`.
    pub(crate) fn fill_in_defaults(&mut self, defaults: &Expects) {
        if self.expects.is_none() {
            self.expects = defaults.expects.clone();
        }
        if self.missing_ok.is_none() {
            self.missing_ok = defaults.missing_ok.clone();
        }
        if self.when.is_none() {
            self.when = defaults.when.clone();
        }
    }

    /// Checks the number of matches; `matches` are the positions of the matched left nodes.
    pub(crate) fn check(
        &self,
        matches: &[Pos],
        host: &mut dyn OverlayHost,
    ) -> Result<(), CheckFail> {
        let mut checker = Checker {
            matches,
            conditional: false,
            host,
        };
        match (&self.expects, &self.missing_ok, &self.when) {
            (Some(_), Some(_), _) => Err(only_one_of("missing_ok", "expects")),
            (_, Some(_), Some(_)) => Err(only_one_of("missing_ok", "when")),
            (Some(_), _, Some(_)) => Err(only_one_of("when", "expects")),
            (_, Some(missing_ok), _) => {
                let allowed = match missing_ok {
                    AnnValue::Scalar(Value::Bool(true)) => Arg::List(vec![int(0), int(1)]),
                    AnnValue::Scalar(Value::Bool(false)) => Arg::Scalar(Value::Int(1)),
                    _ => {
                        return Err(CheckFail::Error(
                            "Expected keyword argument 'missing_ok' to be a boolean".to_string(),
                        ))
                    }
                };
                checker.value(allowed, "missing_ok", 0)
            }
            (_, _, Some(when)) => {
                checker.conditional = true;
                let arg = Arg::resolve(when, checker.host);
                checker.value(arg, "when", 0)
            }
            (Some(expects), _, _) => {
                let arg = Arg::resolve(expects, checker.host);
                checker.value(arg, "expects", 0)
            }
            (None, None, None) => checker.value(Arg::Scalar(Value::Int(1)), "", 0),
        }
    }
}

fn int(n: i64) -> AnnValue {
    AnnValue::Scalar(Value::Int(n))
}

fn only_one_of(a: &str, b: &str) -> CheckFail {
    CheckFail::Error(format!(
        "Expected only one of keyword arguments ('{a}', '{b}') specified"
    ))
}

struct Checker<'a, 'h> {
    matches: &'a [Pos],
    conditional: bool,
    host: &'h mut dyn OverlayHost,
}

impl Checker<'_, '_> {
    fn count(&self) -> usize {
        self.matches.len()
    }

    fn fail_count(&self, message: String) -> CheckFail {
        CheckFail::Count {
            message,
            conditional: self.conditional,
        }
    }

    fn value(&mut self, arg: Arg, kwarg: &str, depth: usize) -> Result<(), CheckFail> {
        match arg {
            Arg::Scalar(Value::Int(n)) => self.exact(n),
            Arg::Scalar(Value::String(s)) => self.at_least(&s),
            Arg::List(items) => self.any_of(&items, kwarg, depth),
            Arg::Callable(func) => self.function(func, kwarg),
            other => Err(CheckFail::Error(format!(
                "Expected '{MATCH}' annotation keyword argument '{kwarg}' to be either int, string or function, but was {}",
                other.go_type()
            ))),
        }
    }

    fn exact(&self, n: i64) -> Result<(), CheckFail> {
        if i64::try_from(self.count()).ok() == Some(n) {
            return Ok(());
        }
        Err(self.fail_count(format!(
            "Expected number of matched nodes to be {n}, but was {}{}",
            self.count(),
            format_positions(self.matches)
        )))
    }

    fn at_least(&self, spec: &str) -> Result<(), CheckFail> {
        let bad_format = || {
            CheckFail::Error(format!(
                "Expected '{spec}' to be in format 'i+' where i is an integer"
            ))
        };
        let digits = spec.strip_suffix('+').ok_or_else(bad_format)?;
        let min: i64 = digits.parse().map_err(|_| bad_format())?;
        if i64::try_from(self.count()).unwrap_or(i64::MAX) >= min {
            return Ok(());
        }
        Err(self.fail_count(format!(
            "Expected number of matched nodes to be >= {min}, but was {}{}",
            self.count(),
            format_positions(self.matches)
        )))
    }

    /// Passes when any element passes; otherwise fails as the last element did.
    fn any_of(&mut self, items: &[AnnValue], kwarg: &str, depth: usize) -> Result<(), CheckFail> {
        if depth >= MAX_LIST_DEPTH {
            return Err(CheckFail::Error(format!(
                "Expected '{MATCH}' annotation keyword argument '{kwarg}' to nest lists at most {MAX_LIST_DEPTH} deep"
            )));
        }
        let mut last = Ok(());
        for item in items {
            let arg = Arg::resolve(item, self.host);
            last = self.value(arg, kwarg, depth + 1);
            if last.is_ok() {
                return Ok(());
            }
        }
        last
    }

    fn function(&mut self, func: crate::yaml::node::Handle, kwarg: &str) -> Result<(), CheckFail> {
        let count = i64::try_from(self.count()).unwrap_or(i64::MAX);
        match self.host.call_expects(func, count) {
            Err(e) => Err(CheckFail::Error(e.0)),
            Ok(Returned::Bool(true)) => Ok(()),
            Ok(Returned::Bool(false)) => {
                Err(self.fail_count("Expectation of number of matched nodes failed".to_string()))
            }
            Ok(Returned::Other(_)) => Err(CheckFail::Error(format!(
                "Expected keyword argument '{kwarg}' to have a function that returns a boolean"
            ))),
        }
    }
}

/// ` (lines: a.yml:2, a.yml:6)`: the matched positions, sorted as strings; empty for none.
fn format_positions(matches: &[Pos]) -> String {
    if matches.is_empty() {
        return String::new();
    }
    let mut lines: Vec<String> = matches.iter().map(Pos::as_compact).collect();
    lines.sort();
    format!(" (lines: {})", lines.join(", "))
}

#[cfg(test)]
#[path = "expects_tests.rs"]
mod tests;
