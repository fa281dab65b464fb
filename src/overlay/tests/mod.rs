//! Scenario tests of the overlay engine, most of them ytt's own conformance cases
//! (`filetests-yamltemplate/ytt-library__overlay__*`, `cmd-template-cmd_overlays`) with the
//! Starlark parts replaced by test-host closures.

mod arrays;
mod docs;
mod errors;
mod maps;
mod post;
mod values;

use super::test_host::TestHost;
use super::test_support::{load, yaml, Names};
use super::{apply, Fragment, OverlayError};
use crate::yaml::emit::value_to_yaml;
use crate::yaml::node::{DocSet, Value};

/// A test: a host and the names usable in annotations.
pub(super) struct Case {
    pub host: TestHost,
    pub names: Names,
}

impl Case {
    pub fn new() -> Case {
        Case {
            host: TestHost::new(),
            names: Names::new(),
        }
    }

    /// Registers a name for annotation arguments.
    pub fn name(
        &mut self,
        name: &'static str,
        make: impl FnOnce(&mut TestHost) -> crate::yaml::node::AnnValue,
    ) {
        let v = make(&mut self.host);
        self.names.insert(name, v);
    }

    /// The documents of `src`, without the empty document in front of a source that does not
    /// start with `---` (ytt's templates drop it; here it would be an overlay without match).
    pub fn docs(&mut self, src: &str, file: &str) -> DocSet {
        let mut ds = load(src, file, &mut self.host, &self.names);
        let implicit = ds
            .items
            .first()
            .is_some_and(|d| d.value == Value::Null && d.anns.is_empty());
        if implicit && !src.starts_with("---") && ds.items.len() > 1 {
            ds.items.remove(0);
        }
        ds
    }

    /// The value of the only document of `src`.
    pub fn value(&mut self, src: &str, file: &str) -> Value {
        let mut ds = self.docs(src, file);
        ds.items.pop().map(|d| d.value).unwrap_or(Value::Null)
    }

    /// `overlay.apply(left, right)` on two values, printed as YAML.
    pub fn apply_values(&mut self, left: &str, right: &str) -> Result<String, String> {
        let l = Fragment::Value(self.value(left, "left.yml"));
        let r = Fragment::Value(self.value(right, "right.yml"));
        print(apply(l, &r, &mut self.host))
    }

    /// `overlay.apply(left, right)` on two document sets, printed as YAML.
    pub fn apply_docs(&mut self, left: &str, right: &str) -> Result<String, String> {
        let l = Fragment::DocSet(self.docs(left, "left.yml"));
        let r = Fragment::DocSet(self.docs(right, "right.yml"));
        print(apply(l, &r, &mut self.host))
    }
}

pub(super) fn print(r: Result<Fragment, OverlayError>) -> Result<String, String> {
    match r {
        Ok(Fragment::DocSet(ds)) => Ok(yaml(&ds)),
        Ok(Fragment::Value(v)) => Ok(value_to_yaml(&v)),
        Err(e) => Err(e.message),
    }
}

/// A plain value written as YAML.
pub(super) fn yv(src: &str) -> Value {
    Case::new().value(src, "value.yml")
}
