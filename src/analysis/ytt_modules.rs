//! What the `@ytt:` modules hold, read from the modules the engine loads (not from a table that
//! could drift): each module's member names and, for native functions that declare their
//! parameters, their signatures.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use starlark::docs::{DocItem, DocMember};

use super::signature::Signature;

/// One `@ytt:` module.
#[derive(Debug, Default)]
pub struct YttModule {
    pub members: Vec<String>,
    pub functions: BTreeMap<String, Signature>,
}

/// The names of the `@ytt:` modules.
pub const NAMES: [&str; 17] = [
    "assert", "base64", "data", "ip", "json", "library", "math", "md5", "overlay", "regexp",
    "sha256", "struct", "template", "toml", "url", "version", "yaml",
];

/// The name of the `@ytt:` module `n`, if ytt has one.
pub fn name(n: &str) -> Option<&'static str> {
    NAMES.iter().copied().find(|m| *m == n)
}

/// The module `@ytt:<name>`, if ytt has one.
pub fn module(name: &str) -> Option<&'static YttModule> {
    static ALL: OnceLock<BTreeMap<&'static str, YttModule>> = OnceLock::new();
    ALL.get_or_init(|| NAMES.iter().map(|n| (*n, build(n))).collect())
        .get(name)
}

fn build(name: &str) -> YttModule {
    let frozen = match name {
        // `data` is built per library from its values: its members are fixed.
        "data" => {
            return YttModule {
                members: vec!["list".into(), "read".into(), "values".into()],
                functions: BTreeMap::new(),
            }
        }
        "library" => crate::library::ytt_library::module(),
        "assert" => crate::validate::assert_module::module(),
        _ => crate::stdlib::static_module(name),
    };
    let Some(value) = frozen.and_then(|m| m.get(name).ok()) else {
        return YttModule::default();
    };
    let value = value.value();
    let mut module = YttModule {
        members: value.dir_attr(),
        functions: BTreeMap::new(),
    };
    if let DocItem::Module(doc) = value.documentation() {
        for (member, item) in doc.members {
            if let DocItem::Member(DocMember::Function(f)) = item {
                if let Some(sig) = Signature::from_doc(&member, &f.params) {
                    module.functions.insert(member, sig);
                }
            }
        }
    }
    module
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_list_their_members_and_signatures() {
        let assert = module("assert").unwrap();
        assert!(assert.members.contains(&"fail".to_string()));
        assert!(!assert.members.contains(&"failed".to_string()));
        assert_eq!(module("data").unwrap().members, ["list", "read", "values"]);
        assert!(module("overlay")
            .unwrap()
            .members
            .contains(&"subset".to_string()));
        assert!(module("nope").is_none());
    }
}
