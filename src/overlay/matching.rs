//! `@overlay/match by=..., expects=..., missing_ok=..., when=...`: which left nodes an overlay
//! node applies to. Documents must say how to match (`by=` a function) unless the overlay is
//! an exact one-document merge (data values); map items match by key unless `by=` is given
//! (a string is `overlay.map_key(string)`); array items match nothing unless annotated, and
//! then need `by=`.

use super::child_defaults::ChildDefaults;
use super::compare::{keys_equal, map_key_matches};
use super::error::OverlayError;
use super::expects::{CheckFail, Expects};
use super::host::{OverlayHost, Returned};
use super::kwargs::{kwargs, unknown_kwarg, Arg, MATCH};
use crate::pos::Pos;
use crate::yaml::node::{AnnValue, Annotations, Array, DocSet, Handle, Map, MapItem, Value};

/// What to do with the matches: `None` when a `when=` condition was not met (the overlay node
/// is then skipped), else the matched indexes.
pub(crate) type Found<T> = Option<Vec<T>>;

/// `len` flags, set at `idxs`.
pub(crate) fn mask(len: usize, idxs: &[usize]) -> Vec<bool> {
    let mut hit = vec![false; len];
    for &i in idxs {
        if let Some(h) = hit.get_mut(i) {
            *h = true;
        }
    }
    hit
}

/// A parsed `@overlay/match`, with inherited defaults filled in.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MatchAnn {
    by: Option<AnnValue>,
    expects: Expects,
    /// An array item without `@overlay/match`: it matches nothing, and that is fine.
    unannotated: bool,
}

fn at_least_one_kwarg() -> String {
    format!(
        "Expected '{MATCH}' annotation to have at least one keyword argument (by=..., expects=...)"
    )
}

impl MatchAnn {
    fn read(anns: &Annotations, defaults: &ChildDefaults) -> Result<MatchAnn, String> {
        let mut ann = MatchAnn {
            by: None,
            expects: Expects::default(),
            unannotated: false,
        };
        for (name, value) in kwargs(anns, MATCH) {
            match name.as_str() {
                "by" => ann.by = Some(value.clone()),
                "expects" => ann.expects.expects = Some(value.clone()),
                "missing_ok" => ann.expects.missing_ok = Some(value.clone()),
                "when" => ann.expects.when = Some(value.clone()),
                other => return Err(unknown_kwarg(MATCH, other)),
            }
        }
        ann.expects.fill_in_defaults(&defaults.expects);
        Ok(ann)
    }

    pub(crate) fn for_document(
        anns: &Annotations,
        defaults: &ChildDefaults,
        exact: bool,
    ) -> Result<MatchAnn, String> {
        if !exact && kwargs(anns, MATCH).is_empty() {
            return Err(at_least_one_kwarg());
        }
        MatchAnn::read(anns, defaults)
    }

    pub(crate) fn for_map_item(
        anns: &Annotations,
        defaults: &ChildDefaults,
    ) -> Result<MatchAnn, String> {
        MatchAnn::read(anns, defaults)
    }

    pub(crate) fn for_array_item(
        anns: &Annotations,
        defaults: &ChildDefaults,
    ) -> Result<MatchAnn, String> {
        if !anns.has(MATCH) {
            return Ok(MatchAnn {
                by: None,
                expects: Expects {
                    expects: Some(AnnValue::Scalar(Value::Int(0))),
                    ..Expects::default()
                },
                unannotated: true,
            });
        }
        if kwargs(anns, MATCH).is_empty() {
            return Err(at_least_one_kwarg());
        }
        MatchAnn::read(anns, defaults)
    }

    /// Checks the count of `idxs` (at `positions`) against the expectations.
    fn settle<T>(
        &self,
        idxs: Vec<T>,
        positions: &[Pos],
        host: &mut dyn OverlayHost,
    ) -> Result<Found<T>, OverlayError> {
        match self.expects.check(positions, host) {
            Ok(()) => Ok(Some(idxs)),
            Err(CheckFail::Count {
                conditional: true, ..
            }) => Ok(None),
            Err(fail) => Err(fail.into_error()),
        }
    }

    /// The (document set, document) indexes of the left documents `right` applies to.
    pub(crate) fn documents(
        &self,
        left: &[DocSet],
        right: &Value,
        exact: bool,
        host: &mut dyn OverlayHost,
    ) -> Result<Found<(usize, usize)>, OverlayError> {
        if exact {
            let only = left.first().and_then(|set| set.items.first());
            let several = left.len() != 1 && left.first().map_or(0, |s| s.items.len()) != 1;
            return match only {
                Some(doc) if !several => {
                    self.settle(vec![(0, 0)], std::slice::from_ref(&doc.pos), host)
                }
                _ => Err(OverlayError::new(
                    "Expected to find exactly one left document when merging exactly two documents",
                )),
            };
        }
        let Some(by) = &self.by else {
            return Err(OverlayError::new(format!(
                "Expected '{MATCH}' annotation keyword argument 'by'  to be specified"
            )));
        };
        let func = match Arg::resolve(by, host) {
            Arg::Callable(h) => h,
            other => {
                return Err(OverlayError::new(format!(
                "Expected '{MATCH}' annotation keyword argument 'by' to be function, but was {}",
                other.go_type()
            )))
            }
        };
        let mut idxs = Vec::new();
        let mut positions = Vec::new();
        let mut combined: i64 = 0;
        for (i, set) in left.iter().enumerate() {
            for (j, doc) in set.items.iter().enumerate() {
                let key = Value::Int(combined);
                if Matcher::Func(func).call(&key, &doc.value, right, host)? {
                    idxs.push((i, j));
                    positions.push(doc.pos.clone());
                }
                combined += 1;
            }
        }
        self.settle(idxs, &positions, host)
    }

    /// The indexes of the left map items `right` applies to.
    pub(crate) fn map_items(
        &self,
        left: &Map,
        right: &MapItem,
        host: &mut dyn OverlayHost,
    ) -> Result<Found<usize>, OverlayError> {
        let mut idxs = Vec::new();
        let mut positions = Vec::new();
        let matcher = match &self.by {
            None => None,
            Some(by) => Some(Matcher::for_item(by, host)?),
        };
        for (i, item) in left.items.iter().enumerate() {
            let hit = match &matcher {
                None => keys_equal(&item.key, &right.key),
                Some(m) => m.call(&item.key, &item.value, &right.value, host)?,
            };
            if hit {
                idxs.push(i);
                positions.push(item.pos.clone());
            }
        }
        self.settle(idxs, &positions, host)
    }

    /// The indexes of the left array items `right` (an overlay item's value) applies to.
    pub(crate) fn array_items(
        &self,
        left: &Array,
        right: &Value,
        host: &mut dyn OverlayHost,
    ) -> Result<Found<usize>, OverlayError> {
        if self.unannotated {
            return self.settle(Vec::new(), &[], host);
        }
        let Some(by) = &self.by else {
            return Err(OverlayError::new(format!(
                "Expected '{MATCH}' annotation keyword argument 'by' to be specified"
            )));
        };
        let matcher = Matcher::for_item(by, host)?;
        let mut idxs = Vec::new();
        let mut positions = Vec::new();
        for (i, item) in left.items.iter().enumerate() {
            let key = Value::Int(i64::try_from(i).unwrap_or(i64::MAX));
            if matcher.call(&key, &item.value, right, host)? {
                idxs.push(i);
                positions.push(item.pos.clone());
            }
        }
        self.settle(idxs, &positions, host)
    }
}

/// A `by=` matcher.
enum Matcher {
    Func(Handle),
    /// `by="name"`, i.e. `overlay.map_key("name")`, evaluated without the host.
    MapKey(String),
}

impl Matcher {
    fn for_item(by: &AnnValue, host: &mut dyn OverlayHost) -> Result<Matcher, OverlayError> {
        match Arg::resolve(by, host) {
            Arg::Scalar(Value::String(name)) => Ok(Matcher::MapKey(name)),
            Arg::Callable(h) => Ok(Matcher::Func(h)),
            other => Err(OverlayError::new(format!(
                "Expected '{MATCH}' annotation keyword argument 'by' to be either string (for map key) or function, but was {}",
                other.go_type()
            ))),
        }
    }

    fn call(
        &self,
        key: &Value,
        left: &Value,
        right: &Value,
        host: &mut dyn OverlayHost,
    ) -> Result<bool, OverlayError> {
        match self {
            Matcher::MapKey(name) => map_key_matches(name, left, right)
                .map_err(|e| OverlayError::new(format!("overlay.map_key_matcher: {e}"))),
            Matcher::Func(func) => match host.call_matcher(*func, key, left, right) {
                Ok(Returned::Bool(b)) => Ok(b),
                Ok(Returned::Other(t)) => Err(OverlayError::new(format!(
                    "expected starlark.Bool, but was {t}"
                ))),
                Err(e) => Err(OverlayError::new(e.0)),
            },
        }
    }
}
