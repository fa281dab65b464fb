//! A BOSH release's packaging scripts (`packages/NAME/packaging`). `bosh create-release`
//! runs each in the package's own compile folder, which holds only the files the package's
//! `spec` lists (its `files:` globs, laid out as under `src/`), with `BOSH_INSTALL_TARGET`
//! and `BOSH_COMPILE_TARGET` set; never at the repository's top. What such a script copies or
//! moves (`mv * ${BOSH_INSTALL_TARGET}/src`, as nearly every BOSH package does) is the compile
//! folder's files, not the repository's: it copies no page or script of the repository
//! elsewhere (round fifty-three's N53-2: a README's command was dropped as "copied elsewhere
//! by `mv` (packages/app/packaging:4)").

use super::index::Index;
use crate::files::paths;

/// Whether the repository file `path` (text `text`) is a BOSH packaging script: a file named
/// `packaging` directly in a folder of `packages/`, beside its `spec` or naming one of the
/// variables BOSH sets for it.
pub fn is_packaging(path: &str, text: &str, index: &Index) -> bool {
    let segs: Vec<&str> = path.split('/').collect();
    let [.., "packages", name, "packaging"] = segs.as_slice() else {
        return false;
    };
    if name.is_empty() {
        return false;
    }
    let spec = paths::join(paths::parent(path), "spec");
    index.is_file(&spec)
        || text.contains("BOSH_INSTALL_TARGET")
        || text.contains("BOSH_COMPILE_TARGET")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_s_packaging_script_beside_its_spec_or_naming_bosh_s_variables() {
        let i = Index::new(["packages/app/packaging", "packages/app/spec", "README.md"]);
        assert!(is_packaging("packages/app/packaging", "mv * /x\n", &i));
        let i = Index::new(["release/packages/web/packaging"]);
        let text = "set -e\nmv * ${BOSH_INSTALL_TARGET}/src\n";
        assert!(is_packaging("release/packages/web/packaging", text, &i));
        // Without a spec or BOSH's variables it is some other script of that name.
        assert!(!is_packaging(
            "release/packages/web/packaging",
            "mv * out\n",
            &i
        ));
        // Not a package's folder, or another file of it.
        let i = Index::new(["scripts/packaging", "packages/app/pre_packaging"]);
        assert!(!is_packaging("scripts/packaging", text, &i));
        assert!(!is_packaging("packages/app/pre_packaging", text, &i));
        assert!(!is_packaging("packages/packaging", text, &i));
    }
}
