//! Label selectors as Kubernetes reads them: a Service's plain map of labels, and a
//! `LabelSelector` (`matchLabels` and `matchExpressions` with `In`, `NotIn`, `Exists`,
//! `DoesNotExist`), matched against a pod template's labels.

use super::object::{field, items, string_map, text};
use crate::yaml::{scalar_key_string, Value};

/// A label selector.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selector {
    labels: Vec<(String, String)>,
    exprs: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
struct Expr {
    key: String,
    op: Op,
    values: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

impl Selector {
    /// A Service's `spec.selector` (a plain map of labels).
    pub fn plain(v: Option<&Value>) -> Selector {
        Selector {
            labels: string_map(v),
            exprs: Vec::new(),
        }
    }

    /// A `LabelSelector`; `None` when `v` is not one this reads with certainty (not a map, an
    /// unknown operator, values that are not a list).
    pub fn label_selector(v: &Value) -> Option<Selector> {
        if !matches!(v, Value::Map(_)) {
            return None;
        }
        let labels = match field(v, "matchLabels") {
            None | Some(Value::Null) => Vec::new(),
            Some(m @ Value::Map(_)) => string_map(Some(m)),
            Some(_) => return None,
        };
        let mut exprs = Vec::new();
        for e in items(field(v, "matchExpressions")) {
            let op = match text(e, "operator")? {
                "In" => Op::In,
                "NotIn" => Op::NotIn,
                "Exists" => Op::Exists,
                "DoesNotExist" => Op::DoesNotExist,
                _ => return None,
            };
            let values = match field(e, "values") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(a)) => a
                    .items
                    .iter()
                    .map(|i| scalar_key_string(&i.value))
                    .collect(),
                Some(_) => return None,
            };
            exprs.push(Expr {
                key: text(e, "key")?.to_string(),
                op,
                values,
            });
        }
        Some(Selector { labels, exprs })
    }

    /// Whether the selector has no term (a LabelSelector's `{}` selects everything; a
    /// Service without a selector selects nothing).
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.exprs.is_empty()
    }

    /// The label keys the selector requires (its labels, and its `In` and `Exists` terms).
    pub fn keys(&self) -> Vec<&str> {
        let exprs = self
            .exprs
            .iter()
            .filter(|e| matches!(e.op, Op::In | Op::Exists))
            .map(|e| e.key.as_str());
        self.labels
            .iter()
            .map(|(k, _)| k.as_str())
            .chain(exprs)
            .collect()
    }

    /// Whether a pod with `labels` is selected.
    pub fn matches(&self, labels: &[(String, String)]) -> bool {
        self.matches_with(&|k| match labels.iter().find(|(lk, _)| lk == k) {
            Some((_, v)) => Label::Is(v),
            None => Label::Missing,
        })
    }

    /// Whether the pods of the template `t` may be selected: its labels, and the labels its
    /// controller adds to each pod (`job-name`, `pod-template-hash`, ...), whose values may
    /// be unknown (then any value may match).
    pub fn matches_pod(&self, t: &super::workload::PodTemplate<'_>) -> bool {
        self.matches_with(&|k| {
            if let Some((_, v)) = t.labels.iter().find(|(lk, _)| lk == k) {
                return Label::Is(v);
            }
            match t.controller_labels.iter().find(|(lk, _)| lk == k) {
                Some((_, Some(v))) => Label::Is(v),
                Some((_, None)) => Label::Any,
                None => Label::Missing,
            }
        })
    }

    fn matches_with<'l>(&self, get: &dyn Fn(&str) -> Label<'l>) -> bool {
        let is = |k: &str, wanted: &dyn Fn(&str) -> bool| match get(k) {
            Label::Is(v) => wanted(v),
            Label::Any => true,
            Label::Missing => false,
        };
        let plain = self.labels.iter().all(|(k, v)| is(k, &|x| x == v));
        plain
            && self.exprs.iter().all(|e| match e.op {
                Op::In => is(&e.key, &|v| e.values.iter().any(|x| x == v)),
                Op::NotIn => match get(&e.key) {
                    Label::Is(v) => !e.values.iter().any(|x| x == v),
                    Label::Any | Label::Missing => true,
                },
                Op::Exists => !matches!(get(&e.key), Label::Missing),
                Op::DoesNotExist => matches!(get(&e.key), Label::Missing),
            })
    }

    /// `app=web, tier in (a, b)`, for messages.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        for e in &self.exprs {
            parts.push(match e.op {
                Op::In => format!("{} in ({})", e.key, e.values.join(", ")),
                Op::NotIn => format!("{} notin ({})", e.key, e.values.join(", ")),
                Op::Exists => e.key.clone(),
                Op::DoesNotExist => format!("!{}", e.key),
            });
        }
        parts.join(", ")
    }
}

/// A pod's label as a selector sees it.
enum Label<'a> {
    Is(&'a str),
    /// Set, to a value not known before the pod exists (`controller-uid`).
    Any,
    Missing,
}

/// `app=web, tier=db`, for messages.
pub fn describe_labels(labels: &[(String, String)]) -> String {
    let parts: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::object::tests::docs;

    fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn plain_and_expression_selectors_match_as_kubernetes_does() {
        let d = docs("s: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: In, values: [a, b]}, {key: canary, operator: DoesNotExist}]}\nbad: {matchExpressions: [{key: x, operator: Near}]}\nplain: {app: web}\n");
        let top = &d[0].value;
        let s = Selector::label_selector(field(top, "s").unwrap()).unwrap();
        assert!(s.matches(&labels(&[("app", "web"), ("tier", "a")])));
        assert!(!s.matches(&labels(&[("app", "web"), ("tier", "c")])));
        assert!(!s.matches(&labels(&[("app", "web"), ("tier", "a"), ("canary", "1")])));
        assert_eq!(s.describe(), "app=web, tier in (a, b), !canary");
        assert!(Selector::label_selector(field(top, "bad").unwrap()).is_none());
        let p = Selector::plain(field(top, "plain"));
        assert!(p.matches(&labels(&[("app", "web"), ("x", "y")])));
        assert!(!p.matches(&labels(&[("app", "api")])));
        assert!(Selector::plain(None).is_empty());
    }
}
