//! starlark-go hashes a builtin function or bound method by its name, so ytt lets one be a
//! dict key (`{overlay.subset: 1}`, `d.get(data.read)`); the Starlark crate's builtins are
//! unhashable by default. ytt's own builtins write this hash.

use starlark::collections::StarlarkHasher;

/// Writes the hash starlark-go gives the builtin named `name`.
pub fn by_name(name: &str, hasher: &mut StarlarkHasher) -> starlark::Result<()> {
    std::hash::Hash::hash(name, hasher);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hasher;

    #[test]
    fn builtins_of_one_name_hash_alike_and_others_apart() {
        let hash = |name: &str| {
            let mut h = StarlarkHasher::new();
            by_name(name, &mut h).unwrap();
            h.finish()
        };
        assert_eq!(hash("update"), hash("update"));
        assert_ne!(hash("update"), hash("subset"));
    }
}
