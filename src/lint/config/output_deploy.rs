//! Where a command that writes each input file's output to a file of its own (`ytt
//! --output-files DIR`, `--dangerous-emptied-output-directory DIR`) has its output files
//! deployed as one: a later command of the same script that deploys the directory, or a part
//! of it (`kapp deploy -f DIR`, `kubectl apply -f DIR/step-1`). Without one, ytt hands
//! nothing over as one stream, and objects of two output files never meet.
//!
//! The deployed part is named by the repository directories whose files' outputs it holds:
//! ytt names each output file after its input, relative to the `-f` directory that gave it
//! (a file given alone by its base name), so `kubectl apply -f out/step-1` of `ytt -f
//! templates --output-files out` deploys the outputs of `templates/step-1/`.

use serde::{Deserialize, Serialize};

use crate::files::paths;

/// A later command that deploys a split output's files, or some of them, as one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputDeploy {
    /// Where the deploying command is written.
    pub file: String,
    pub line: u32,
    /// `kapp deploy` or `kubectl apply`.
    pub tool: String,
    /// The repository directories whose files' outputs it deploys (`.` for the top).
    pub dirs: Vec<String>,
    /// It reads the directories' subdirectories too (kapp always; kubectl with `-R`).
    pub recursive: bool,
}

impl OutputDeploy {
    /// Whether the output of the repository file `file` is among what it deploys.
    pub fn covers(&self, file: &str) -> bool {
        let parent = paths::parent(file);
        self.dirs.iter().any(|d| {
            d == parent
                || (self.recursive
                    && (d == "."
                        || parent
                            .strip_prefix(d.as_str())
                            .is_some_and(|r| r.starts_with('/'))))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deploy(dirs: &[&str], recursive: bool) -> OutputDeploy {
        OutputDeploy {
            file: "render.sh".into(),
            line: 3,
            tool: "kubectl apply".into(),
            dirs: dirs.iter().map(|d| d.to_string()).collect(),
            recursive,
        }
    }

    #[test]
    fn covers_its_directories_and_their_subdirectories_only_when_recursive() {
        let flat = deploy(&["templates/step-1"], false);
        assert!(flat.covers("templates/step-1/a.yml"));
        assert!(!flat.covers("templates/step-1/sub/a.yml"));
        assert!(!flat.covers("templates/step-2/a.yml"));
        assert!(!flat.covers("templates/step-10/a.yml"));
        let deep = deploy(&["templates"], true);
        assert!(deep.covers("templates/step-1/sub/a.yml"));
        assert!(!deep.covers("templatesx/a.yml"));
        assert!(deploy(&["."], true).covers("a/b.yml"));
        assert!(deploy(&["."], false).covers("b.yml"));
        assert!(!deploy(&["."], false).covers("a/b.yml"));
    }
}
