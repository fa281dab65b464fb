//! yttlint's schema extensions (spec 001 ideas ytt never shipped), each off by default so that
//! rendering stays ytt's: `schema-removed` (`@schema/removed "reason"`: setting the value is an
//! error) and `schema-key-may-be-present` (`@schema/key-may-be-present`: the key is declared
//! but has no default, absent until an input gives it) and `schema-any-key` (`@schema/any-key`
//! on a map's `_` item: that item is the schema of every key of the map). Turned on by `.yttlint.yaml` `extensions:` or `yttlint template --extension NAME`;
//! while off, the annotation is one ytt ignores (an `unknown-annotation` finding naming the
//! extension), and the linter still warns when a removed value is set.

/// One extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    Removed,
    KeyMayBePresent,
    AnyKey,
}

/// Every extension, in the order messages list them.
pub const ALL: &[Extension] = &[
    Extension::AnyKey,
    Extension::KeyMayBePresent,
    Extension::Removed,
];

impl Extension {
    /// The name configuration and flags use.
    pub fn name(self) -> &'static str {
        match self {
            Extension::Removed => "schema-removed",
            Extension::KeyMayBePresent => "schema-key-may-be-present",
            Extension::AnyKey => "schema-any-key",
        }
    }

    /// The annotation the extension reads.
    pub fn annotation(self) -> &'static str {
        match self {
            Extension::Removed => "schema/removed",
            Extension::KeyMayBePresent => "schema/key-may-be-present",
            Extension::AnyKey => "schema/any-key",
        }
    }

    pub fn parse(name: &str) -> Result<Extension, String> {
        ALL.iter()
            .copied()
            .find(|e| e.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = ALL.iter().map(|e| e.name()).collect();
                format!(
                    "unknown extension {name:?} (known extensions: {})",
                    known.join(", ")
                )
            })
    }

    /// The extension that reads annotation `name`.
    pub fn of_annotation(name: &str) -> Option<Extension> {
        ALL.iter().copied().find(|e| e.annotation() == name)
    }
}

/// The extensions turned on for an evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extensions {
    pub removed: bool,
    pub key_may_be_present: bool,
    pub any_key: bool,
}

impl Extensions {
    /// The set named by `names` (each checked).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<Extensions, String> {
        let mut set = Extensions::default();
        for n in names {
            set.enable(Extension::parse(n.as_ref())?);
        }
        Ok(set)
    }

    pub fn enable(&mut self, e: Extension) {
        match e {
            Extension::Removed => self.removed = true,
            Extension::KeyMayBePresent => self.key_may_be_present = true,
            Extension::AnyKey => self.any_key = true,
        }
    }

    pub fn has(&self, e: Extension) -> bool {
        match e {
            Extension::Removed => self.removed,
            Extension::KeyMayBePresent => self.key_may_be_present,
            Extension::AnyKey => self.any_key,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_annotations_round_trip() {
        for e in ALL {
            assert_eq!(Extension::parse(e.name()), Ok(*e));
            assert_eq!(Extension::of_annotation(e.annotation()), Some(*e));
        }
        assert!(Extension::parse("schema-remove").unwrap_err().contains(
            "known extensions: schema-any-key, schema-key-may-be-present, schema-removed"
        ));
        let set = Extensions::from_names(&["schema-removed"]).unwrap();
        assert!(set.has(Extension::Removed));
        assert!(!Extensions::default().has(Extension::Removed));
    }
}
