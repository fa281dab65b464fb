//! Files the repository copies into another tool's tree to be rendered there: a README or a
//! script that says `cp add_x.yaml ~/.config/tanzu/tkg/providers/ytt/02_addons/x/`. Such a
//! file is rendered with what that tree holds (its libraries, its data values), which the
//! repository does not have: it is no root of its own, its static checks still apply, and
//! what its check assumes is said ([`crate::report::AssumptionKind::CopiedElsewhere`]).

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::invocations::{make, readme, scripts};

/// A repository path a command copies out of the repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    /// The file or directory copied (repository-relative).
    pub path: String,
    /// Where it goes, as written (`~/.config/tanzu/tkg/providers/ytt/`).
    pub to: String,
    /// The command (`README.md:12`).
    pub origin: String,
}

impl Copied {
    /// The assumption a check of these files makes, in words.
    pub fn assumption(&self) -> String {
        format!(
            "{} copies {} into {} to be rendered there, with files and values of that tree the linter does not have",
            self.origin, self.path, self.to
        )
    }
}

impl Copied {
    /// The note of a path this copy takes to another committed place of the repository
    /// (`invocations::copied_within`): not evaluated where it lies.
    pub fn note(&self, path: &str) -> String {
        format!(
            "{path} is not evaluated where it lies: {} copies it to {}, which is checked there",
            self.origin, self.to
        )
    }

    /// Why such a path is only checked on its own.
    pub fn reason(&self) -> String {
        format!(
            "copied to {} by {} and rendered there",
            self.to, self.origin
        )
    }
}

/// Whether a file may hold commands that copy files (a README, a script, a Makefile).
pub fn candidate(path: &str) -> bool {
    readme::candidate(path) || scripts::candidate(path) || make::candidate(path)
}

/// The copies out of the repository that the text of `file` makes.
pub fn in_text(file: &str, text: &str, index: &Index) -> Vec<Copied> {
    let dir = paths::parent(file);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for command in line.split(['&', ';', '|', '`']) {
            let words: Vec<&str> = command.split_whitespace().collect();
            let Some(at) = words.iter().position(|w| *w == "cp") else {
                continue;
            };
            let args: Vec<&str> = words[at + 1..]
                .iter()
                .copied()
                .filter(|w| !w.starts_with('-'))
                .collect();
            let Some((to, sources)) = args.split_last() else {
                continue;
            };
            if !outside(to) {
                continue;
            }
            for src in sources {
                if let Some(path) = in_repository(src, dir, index) {
                    out.push(Copied {
                        path,
                        to: to.trim_matches(['"', '\'']).to_string(),
                        origin: format!("{file}:{}", i + 1),
                    });
                }
            }
        }
    }
    out
}

/// The copy that takes `path` out of the repository, if one does.
pub fn around<'c>(copied: &'c [Copied], path: &str) -> Option<&'c Copied> {
    copied.iter().find(|c| is_within(path, &c.path))
}

/// Whether a destination lies outside the repository: the home directory or an absolute path.
fn outside(to: &str) -> bool {
    let to = to.trim_matches(['"', '\'']);
    to.starts_with("~/")
        || to == "~"
        || to.starts_with("$HOME")
        || to.starts_with("${HOME}")
        || to.starts_with('/')
}

/// The repository path a source of `cp` names, from the command's directory or the top.
fn in_repository(src: &str, dir: &str, index: &Index) -> Option<String> {
    let src = src.trim_matches(['"', '\'']).trim_end_matches('/');
    let src = src.strip_prefix("./").unwrap_or(src);
    if src.is_empty() || src.starts_with('/') || src.starts_with('~') || src.contains('$') {
        return None;
    }
    // `dir/*.yaml` copies the directory's files: the directory stands for them.
    let src = match src.rsplit_once('/') {
        Some((d, last)) if last.contains('*') => d,
        None if src.contains('*') => ".",
        _ => src,
    };
    [paths::join(dir, src), src.to_string()]
        .into_iter()
        .map(|p| if p == "." { dir.to_string() } else { p })
        .find(|p| index.is_file(p) || index.is_dir(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_into_the_home_directory_are_found() {
        let index = Index::new(["tkg/add_x.yaml", "tkg/overlays/a.yaml", "README.md"]);
        let text = "Install:\n\n```\ncp add_x.yaml ~/.config/tanzu/tkg/providers/ytt/02_addons/x/\ncp -r overlays/* \"$HOME/.tkg/providers/ytt/\" && echo done\ncp add_x.yaml backup.yaml\n```\n";
        let found = in_text("tkg/README.md", text, &index);
        let got: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|c| (c.path.as_str(), c.to.as_str(), c.origin.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "tkg/add_x.yaml",
                    "~/.config/tanzu/tkg/providers/ytt/02_addons/x/",
                    "tkg/README.md:4"
                ),
                (
                    "tkg/overlays",
                    "$HOME/.tkg/providers/ytt/",
                    "tkg/README.md:5"
                ),
            ]
        );
        assert_eq!(
            around(&found, "tkg/overlays/a.yaml").map(|c| c.origin.as_str()),
            Some("tkg/README.md:5")
        );
    }
}
