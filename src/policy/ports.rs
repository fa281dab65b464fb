//! Container ports and the names Kubernetes accepts for them (an IANA service name, RFC 6335
//! section 5.1), shared by the checks of probes, Services and port names.

use super::object::{field, int, items, text};
use super::workload::Container;
use crate::yaml::{scalar_key_string, Value};

/// What is wrong with `name` as a port name, if anything.
pub fn invalid_name(name: &str) -> Option<&'static str> {
    if name.is_empty() || name.len() > 15 {
        return Some("must be 1 to 15 characters long");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Some("may hold only lower-case letters, digits and '-'");
    }
    if !name.chars().any(|c| c.is_ascii_lowercase()) {
        return Some("must hold at least one letter");
    }
    if name.contains("--") {
        return Some("must not hold '--'");
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("must not begin or end with '-'");
    }
    None
}

/// A port a container declares: its number, name and protocol (`TCP` when not given).
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    pub index: usize,
    pub number: Option<i64>,
    pub name: Option<String>,
    pub protocol: String,
}

/// The ports a container declares (`ports:`).
pub fn declared(c: &Container<'_>) -> Vec<Declared> {
    items(field(c.value, "ports"))
        .enumerate()
        .filter(|(_, p)| matches!(p, Value::Map(_)))
        .map(|(index, p)| Declared {
            index,
            number: int(p, "containerPort"),
            name: text(p, "name")
                .filter(|n| !n.is_empty())
                .map(str::to_string),
            protocol: text(p, "protocol").unwrap_or("TCP").to_string(),
        })
        .collect()
}

/// A port named by a probe or a Service: a number, or a name.
#[derive(Clone, Debug, PartialEq)]
pub enum PortRef {
    Number(i64),
    Name(String),
}

impl PortRef {
    /// The port `v` names: an integer, or a string (a name; a string of digits counts as
    /// its number, as the kubelet reads a probe's port it finds no name for).
    pub fn of(v: &Value) -> Option<PortRef> {
        match v {
            Value::Int(i) => Some(PortRef::Number(*i)),
            Value::String(s) => match s.parse::<i64>() {
                Ok(n) => Some(PortRef::Number(n)),
                Err(_) => Some(PortRef::Name(s.clone())),
            },
            Value::Null => None,
            other => Some(PortRef::Name(scalar_key_string(other))),
        }
    }

    /// Whether the declared port `d` is this one.
    pub fn is(&self, d: &Declared) -> bool {
        match self {
            PortRef::Number(n) => d.number == Some(*n),
            PortRef::Name(name) => d.name.as_deref() == Some(name.as_str()),
        }
    }
}

impl std::fmt::Display for PortRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PortRef::Number(n) => write!(f, "{n}"),
            PortRef::Name(s) => write!(f, "\"{s}\""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_names_follow_the_iana_rules() {
        for ok in ["http", "grpc-web", "h2c", "metrics9"] {
            assert_eq!(invalid_name(ok), None, "{ok}");
        }
        for bad in [
            "",
            "http_port",
            "HTTP",
            "8080",
            "a--b",
            "-http",
            "averyveryverylongname",
        ] {
            assert!(invalid_name(bad).is_some(), "{bad}");
        }
        assert_eq!(
            PortRef::of(&Value::String("8080".into())),
            Some(PortRef::Number(8080))
        );
        assert_eq!(
            PortRef::of(&Value::String("http".into())),
            Some(PortRef::Name("http".into()))
        );
    }
}
