//! Data values documents on their way to a library: the document, the chain of library
//! references it is addressed to (`@library/ref "@lib@~alias"` or the `@lib:` prefix of a
//! flag), and whether it was used, so that values addressed to a library nobody evaluated are
//! reported as ytt reports them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::yaml::{AnnValue, Document, Value};

/// Annotation naming the library a document is for.
pub const LIBRARY_REF: &str = "library/ref";
/// Annotation marking a data values document.
pub const DATA_VALUES: &str = "data/values";
/// Annotation marking a data values schema document.
pub const DATA_VALUES_SCHEMA: &str = "data/values-schema";

/// One step of a library reference: `path`, `~alias` or `path~alias`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibRef {
    pub path: String,
    pub alias: String,
}

impl LibRef {
    /// Whether this step addresses the library `other` (as `library.get` named it).
    pub fn matches(&self, other: &LibRef) -> bool {
        let path = self.path == other.path;
        if self.alias.is_empty() {
            return path;
        }
        let alias = self.alias == other.alias;
        if self.path.is_empty() {
            alias
        } else {
            alias && path
        }
    }

    pub fn as_string(&self) -> String {
        if self.alias.is_empty() {
            self.path.clone()
        } else {
            format!("{}~{}", self.path, self.alias)
        }
    }
}

/// Parses `@path~alias@path2...`.
pub fn parse_lib_refs(s: &str) -> Result<Vec<LibRef>, String> {
    if s.is_empty() {
        return Err("Expected library ref to not be empty".into());
    }
    let Some(rest) = s.strip_prefix('@') else {
        return Err("Expected library ref to start with '@'".into());
    };
    let mut out = Vec::new();
    for piece in rest.split('@') {
        let parts: Vec<&str> = piece.split('~').collect();
        match parts.as_slice() {
            [path] => out.push(LibRef {
                path: path.to_string(),
                alias: String::new(),
            }),
            [_, ""] => return Err("Expected library alias to not be empty".into()),
            [path, alias] => out.push(LibRef {
                path: path.to_string(),
                alias: alias.to_string(),
            }),
            _ => {
                return Err(format!(
                    "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '{s}'"
                ))
            }
        }
    }
    Ok(out)
}

/// A data values (or schema) document with its addressing.
#[derive(Clone, Debug)]
pub struct Envelope {
    pub doc: Document,
    pub after_lib_mod: bool,
    /// Given with spec 004's `+:` prefix: may set values nobody declared.
    pub allow_new: bool,
    /// Given from outside the library (a data values flag): each value it sets must have been
    /// declared before, unless `allow_new` (checked by the linter; see `undeclared`).
    pub from_input: bool,
    /// Which input gave it (spec 004): each `--data-values-file` is one, the value flags
    /// (`-v`, `--data-value-yaml`, `--data-value-file`, `--data-values-env`) together one.
    pub input: u32,
    lib_refs: Vec<LibRef>,
    original: Arc<Vec<LibRef>>,
    used: Arc<AtomicBool>,
}

fn scalar_arg(v: &AnnValue) -> Option<&Value> {
    match v {
        AnnValue::Scalar(v) => Some(v),
        AnnValue::Starlark(_) => None,
    }
}

impl Envelope {
    /// Wraps a document, reading `@library/ref` and `@data/values after_library_module=`.
    pub fn new(doc: Document) -> Result<Envelope, String> {
        Self::build(doc, None)
    }

    /// Wraps a document given for the library named by `lib_ref` (the `@lib:` of a flag).
    pub fn with_lib_ref(doc: Document, lib_ref: &str) -> Result<Envelope, String> {
        if lib_ref.is_empty() {
            return Self::build(doc, None);
        }
        let refs = parse_lib_refs(lib_ref)?;
        Self::build(doc, Some(refs))
    }

    fn build(doc: Document, given: Option<Vec<LibRef>>) -> Result<Envelope, String> {
        let mut refs = Vec::new();
        if let Some(ann) = doc.anns.get(LIBRARY_REF) {
            if ann.args.len() != 1 {
                return Err(format!(
                    "Expected {LIBRARY_REF} annotation to have one arg, got {}",
                    ann.args.len()
                ));
            }
            let s = scalar_arg(&ann.args[0])
                .and_then(|v| v.as_str())
                .ok_or_else(|| "expected starlark.String, but was tuple".to_string())?;
            refs = parse_lib_refs(s).map_err(|e| format!("Annotation {LIBRARY_REF}: {e}"))?;
        }
        let mut after_lib_mod = false;
        if let Some(ann) = doc.anns.get(DATA_VALUES) {
            for (name, v) in &ann.kwargs {
                match name.as_str() {
                    "after_library_module" => {
                        after_lib_mod = match scalar_arg(v) {
                            Some(Value::Bool(b)) => *b,
                            _ => return Err("expected starlark.Bool".into()),
                        };
                        if refs.is_empty() {
                            return Err(format!(
                                "Annotation {DATA_VALUES}: Expected kwarg 'after_library_module' to be used with {LIBRARY_REF} annotation"
                            ));
                        }
                    }
                    other => {
                        return Err(format!(
                            "Unknown kwarg {other} for annotation {DATA_VALUES}"
                        ))
                    }
                }
            }
        }
        if let Some(given) = given {
            if !refs.is_empty() {
                return Err(format!(
                    "Library was provided as arg as well as with {LIBRARY_REF} annotation"
                ));
            }
            refs = given;
        }
        Ok(Envelope {
            doc,
            after_lib_mod,
            allow_new: false,
            from_input: false,
            input: 0,
            original: Arc::new(refs.clone()),
            lib_refs: refs,
            used: Arc::new(AtomicBool::new(false)),
        })
    }

    pub fn for_other_library(&self) -> bool {
        !self.lib_refs.is_empty()
    }

    pub fn is_used(&self) -> bool {
        self.used.load(Ordering::Relaxed)
    }

    /// The copy of this envelope that the library `lib` receives, if it is addressed to it
    /// (or to no library); marks the original used.
    pub fn used_in(&self, lib: &LibRef) -> Option<Envelope> {
        let rest = match self.lib_refs.split_first() {
            None => Vec::new(),
            Some((first, rest)) if first.matches(lib) => rest.to_vec(),
            Some(_) => return None,
        };
        self.used.store(true, Ordering::Relaxed);
        Some(Envelope {
            doc: self.doc.clone(),
            after_lib_mod: self.after_lib_mod,
            allow_new: self.allow_new,
            from_input: self.from_input,
            input: self.input,
            lib_refs: rest,
            original: self.original.clone(),
            used: Arc::new(AtomicBool::new(false)),
        })
    }

    /// ytt's description of the envelope in "unused" errors.
    pub fn desc(&self) -> String {
        self.desc_as("Data Value")
    }

    /// ytt's description of the envelope, as a `what` (`Data Value`, `Schema`).
    pub fn desc_as(&self, what: &str) -> String {
        let refs: Vec<String> = self.original.iter().map(|r| r.as_string()).collect();
        format!(
            "{what} belonging to library '@{}' on {}",
            refs.join("@"),
            self.doc.pos.as_line_string()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_paths_and_aliases() {
        let refs = parse_lib_refs("@lib~a@~b@c").unwrap();
        assert_eq!(
            refs.iter().map(|r| r.as_string()).collect::<Vec<_>>(),
            ["lib~a", "~b", "c"]
        );
        assert!(parse_lib_refs("lib").is_err());
        assert!(parse_lib_refs("@lib~").is_err());
    }

    #[test]
    fn alias_only_refs_match_by_alias() {
        let by_alias = LibRef {
            path: String::new(),
            alias: "x".into(),
        };
        let lib = LibRef {
            path: "lib".into(),
            alias: "x".into(),
        };
        assert!(by_alias.matches(&lib));
        assert!(!by_alias.matches(&LibRef {
            path: "lib".into(),
            alias: String::new()
        }));
    }
}
