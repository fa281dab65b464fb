//! The copies a script in a subfolder makes when it runs from a folder above it, or its own.
//!
//! A script that copies the repository's scripts into place before they run
//! (`setup-repo.sh NAME` of a Tanzu GitOps reference implementation: `cp -R
//! .catalog/tanzu-sync/$V/scripts/* clusters/NAME/tanzu-sync/scripts/`) names its sources
//! from where it runs. Followed from the repository's top only, a tree that lies in a
//! subfolder (`gitops/setup-repo.sh` copying `gitops/.catalog/...`) copies nothing the
//! repository holds, and the catalog's scripts are judged where they lie, against folders
//! that exist only in the copy (round seventeen's R17A-1). Followed from its caller's
//! directory instead, the copy's source keeps that mark, and [`super::made::copier`] tries
//! each folder from the top down to the script's own (as many as the path has segments).

use super::env::Env;
use super::made::MadeAt;
use super::script_set::ScriptSet;
use super::shell::{self, Context};
use super::snippet::CALLER;
use super::word::Word;

/// The copies (`cp`, `rsync`, `mv`) the script `path` (`text`, followed in `ctx`) makes
/// when run from any folder that holds it; nothing for a script at the top, which the run
/// from the top already covers.
pub fn of(path: &str, text: &str, ctx: &Context, set: &ScriptSet) -> Vec<MadeAt> {
    let copies_any = ["cp ", "rsync ", "mv "].iter().any(|c| text.contains(c));
    if !path.contains('/') || !copies_any {
        return Vec::new();
    }
    let caller = Env::at(Word::lit(CALLER.to_string()));
    let Ok(f) = shell::follow(text, ctx, caller, set, None) else {
        return Vec::new();
    };
    f.made
        .into_iter()
        .filter(|m| {
            m.from
                .as_ref()
                .is_some_and(|w| w.literal_prefix().starts_with(CALLER))
        })
        .map(|made| MadeAt {
            file: path.to_string(),
            made,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::made::copier;
    use crate::lint::discover::invocations::word::REPO;

    fn copies(path: &str, text: &str) -> Vec<MadeAt> {
        let ctx = Context {
            script: Word::lit(format!("{REPO}/{path}")),
            line_offset: 0,
        };
        of(path, text, &ctx, &ScriptSet::default())
    }

    #[test]
    fn a_subfolders_script_copies_its_own_folders_files() {
        let text = "#!/bin/bash\nname=\"$1\"\ncp -R .catalog/tool/1.0/eso/scripts/* clusters/\"$name\"/tool/scripts/\n";
        // The folder and its entries (`scripts/*`): each one a copy from the caller's folder.
        let all = copies("gitops/setup-repo.sh", text);
        assert!(!all.is_empty());
        assert!(copier(&all, "gitops/.catalog/tool/1.0/eso/scripts/deploy.sh").is_some());
        // From the top too, as before.
        assert!(copier(&all, ".catalog/tool/1.0/eso/scripts/deploy.sh").is_some());
        assert!(copier(&all, "other/.catalog/tool/1.0/eso/scripts/deploy.sh").is_none());
        // A script at the top, or one that copies nothing: nothing new.
        assert!(copies("setup-repo.sh", text).is_empty());
        assert!(copies("gitops/run.sh", "#!/bin/bash\nmkdir -p out\n").is_empty());
    }
}
