//! Files the repository ships in a Secret (`kubectl create secret generic NAME
//! --from-file=[KEY=]PATH`): a ytt file there is rendered by whoever reads the Secret
//! (kapp-controller, with a package's templates, through a PackageInstall's
//! `ext.packaging.carvel.dev/ytt-paths-from-secret-name.N` annotation), with inputs the
//! repository does not have. Such a file is no root of its own, as a file copied into another
//! tool's tree ([`super::copied`]): its static checks still apply, and an overlay of it that
//! matches nothing alone is not reported as if it were rendered alone (round ten's FA10-9).
//!
//! A page's `--from-file` path outside the repository (`/var/tmp/downloads/FILE`, where the
//! reader saved a download) is the repository's file of that base name when the page links it
//! (a `…/blob/REF/PATH` or raw URL whose PATH is a repository file of that name), or when
//! exactly one repository file has that name (round thirty-seven's R37-6).

use crate::files::paths;
use crate::lint::discover::copied::Copied;
use crate::lint::discover::invocations::index::Index;

/// Whether a file's text may ship files in a Secret.
pub fn mentions(text: &str) -> bool {
    text.contains("--from-file")
}

/// The repository files the commands of `file` (its text `text`) put in a Secret, each as a
/// copy into that Secret. A command's `\` continuations are joined.
pub fn in_text(file: &str, text: &str, index: &Index) -> Vec<Copied> {
    let dir = paths::parent(file);
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut command = String::new();
    for (i, line) in text.lines().enumerate() {
        if command.is_empty() {
            start = i + 1;
        }
        match line.trim_end().strip_suffix('\\') {
            Some(part) => {
                command.push_str(part);
                command.push(' ');
                continue;
            }
            None => command.push_str(line),
        }
        let whole = std::mem::take(&mut command);
        let Some(at) = whole.find("create secret generic") else {
            continue;
        };
        let words: Vec<&str> = whole[at + "create secret generic".len()..]
            .split_whitespace()
            .map(|w| w.trim_matches(['"', '\'', '`', '(', ')']))
            .collect();
        let Some(name) = secret_name(&words) else {
            continue;
        };
        for (j, w) in words.iter().enumerate() {
            let value = match w.strip_prefix("--from-file=") {
                Some(v) => Some(v),
                None if *w == "--from-file" => words.get(j + 1).copied(),
                None => None,
            };
            let Some(v) = value else { continue };
            let src = v.split_once('=').map_or(v, |(_, p)| p);
            let found =
                in_repository(src, dir, index).or_else(|| downloaded(file, text, src, index));
            if let Some(path) = found {
                out.push(Copied {
                    path,
                    to: format!("the Secret `{name}`"),
                    origin: format!("{file}:{start}"),
                });
            }
        }
    }
    out
}

/// kubectl's flags of `create secret generic` that take the next word as their value when
/// written apart (`-n NS`): that word is not the Secret's name.
const VALUED_FLAGS: &[&str] = &[
    "-n",
    "--namespace",
    "--type",
    "-o",
    "--output",
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-s",
    "--server",
    "--from-file",
    "--from-literal",
    "--from-env-file",
    "--field-manager",
    "--template",
];

/// The Secret's name: the first word that is neither a flag nor a flag's value.
fn secret_name<'a>(words: &[&'a str]) -> Option<&'a str> {
    let mut skip = false;
    for w in words {
        if std::mem::take(&mut skip) {
            continue;
        }
        if w.starts_with('-') {
            skip = !w.contains('=') && VALUED_FLAGS.contains(w);
            continue;
        }
        return Some(w);
    }
    None
}

/// The repository file a `--from-file` source names, from the command's directory or the top;
/// a leading variable (`${script_dir}/`, `$DIR/`) is taken for the script's own directory.
fn in_repository(src: &str, dir: &str, index: &Index) -> Option<String> {
    candidates(src, dir).into_iter().find(|p| index.is_file(p))
}

/// The repository file a page's `--from-file` source outside the repository (`/var/tmp/x/F`,
/// `~/F`, `$DIR/F`) is a download of: the file of its base name the page links, or the one
/// file of that name in the repository. Only a page's: its reader downloads what it links.
fn downloaded(file: &str, text: &str, src: &str, index: &Index) -> Option<String> {
    const PAGES: [&str; 5] = [".md", ".markdown", ".adoc", ".rst", ".txt"];
    if !PAGES.iter().any(|e| file.to_ascii_lowercase().ends_with(e)) {
        return None;
    }
    let src = src.trim_matches(['"', '\'']);
    let outside = src.starts_with('/') || src.starts_with('~') || src.starts_with('$');
    let base = src.rsplit('/').next().unwrap_or(src);
    let named = [".yml", ".yaml", ".star"].iter().any(|e| base.ends_with(e));
    if !outside || !named || base.contains('$') || base.len() <= 5 {
        return None;
    }
    linked(text, base, index).or_else(|| index.by_suffix(base).filter(|p| index.is_file(p)))
}

/// The repository file named `base` that a URL of `text` names (`…/blob/REF/PATH`,
/// `…/raw/REF/PATH`, `raw.githubusercontent.com/USER/REPO/REF/PATH`).
fn linked(text: &str, base: &str, index: &Index) -> Option<String> {
    for (at, _) in text.match_indices(base) {
        let head = &text[..at + base.len()];
        let start = head
            .rfind(|c: char| c.is_whitespace() || matches!(c, '(' | '<' | '"' | '\'' | '['))
            .map_or(0, |i| i + 1);
        let url = &head[start..];
        let tail = if let Some(i) = url.find("/blob/").or_else(|| url.find("/raw/")) {
            url[i + 1..].splitn(3, '/').nth(2)
        } else if let Some(i) = url.find("raw.githubusercontent.com/") {
            url[i..].splitn(5, '/').nth(4)
        } else {
            None
        };
        // A ref with a slash (`release/1.2`) leaves part of it ahead of the path.
        let Some(mut tail) = tail else { continue };
        loop {
            if tail.rsplit('/').next() == Some(base) && index.is_file(tail) {
                return Some(tail.to_string());
            }
            match tail.split_once('/') {
                Some((_, rest)) => tail = rest,
                None => break,
            }
        }
    }
    None
}

/// The repository paths a command's path argument may name, first from the command's
/// directory `dir`, then from the top (none for an absolute path, a home directory or a
/// variable past the first part); a leading variable (`${script_dir}/`, `$DIR/`) is taken for
/// the script's own directory.
pub(super) fn candidates(src: &str, dir: &str) -> Vec<String> {
    let src = src.trim_matches(['"', '\'']);
    let src = match src.strip_prefix('$') {
        Some(rest) => {
            let Some((var, tail)) = rest.split_once('/') else {
                return Vec::new();
            };
            let plain = var.trim_start_matches('{').trim_end_matches('}');
            if plain.is_empty() || !plain.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Vec::new();
            }
            tail
        }
        None => src,
    };
    let src = src.strip_prefix("./").unwrap_or(src);
    if src.is_empty() || src.starts_with('/') || src.starts_with('~') || src.contains('$') {
        return Vec::new();
    }
    vec![paths::join(dir, src), src.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_s_download_path_is_the_repository_file_it_links() {
        let index = Index::new(["install/gui-db.yaml", "docs/gui.md", "a/v.yaml", "b/v.yaml"]);
        let page = "Download [it](https://github.com/o/r/blob/main/install/gui-db.yaml):\n\n```\nkubectl create secret generic gui-db --from-file=/var/tmp/dl/gui-db.yaml\n```\n";
        let found = in_text("docs/gui.md", page, &index);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "install/gui-db.yaml");
        // Unlinked, the one file of that name.
        let page = "```\nkubectl create secret generic gui-db --from-file=~/gui-db.yaml\n```\n";
        assert_eq!(in_text("docs/gui.md", page, &index).len(), 1);
        // Two files of that name, none linked; a script's path: nothing.
        let page = "kubectl create secret generic v --from-file=/tmp/v.yaml\n";
        assert!(in_text("docs/gui.md", page, &index).is_empty());
        let script = "kubectl create secret generic gui-db --from-file=/tmp/gui-db.yaml\n";
        assert!(in_text("hack/s.sh", script, &index).is_empty());
        assert_eq!(
            linked(
                "https://raw.githubusercontent.com/o/r/release/1.2/a/v.yaml",
                "v.yaml",
                &index
            )
            .as_deref(),
            Some("a/v.yaml")
        );
    }

    #[test]
    fn the_secret_s_name_is_no_flag_s_value() {
        let words = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        assert_eq!(
            secret_name(&words("-n apps-install my-overlay --from-file=o.yaml")),
            Some("my-overlay")
        );
        assert_eq!(
            secret_name(&words("--namespace=apps my-overlay -o yaml")),
            Some("my-overlay")
        );
        assert_eq!(
            secret_name(&words(
                "--dry-run=client --type Opaque s1 --from-file o.yaml"
            )),
            Some("s1")
        );
        assert_eq!(secret_name(&words("-n ns")), None);
    }

    #[test]
    fn a_file_a_command_puts_in_a_secret_is_copied_into_it() {
        let index = Index::new(["tap/overlays/cnrs/pkgi.yaml", "tap/install.sh"]);
        let text = "#!/bin/bash\nkapp deploy -a o -f <(\\\n  kubectl create secret generic pkgi-overlay \\\n    --from-file=\"pkgi.yaml=${script_dir}/overlays/cnrs/pkgi.yaml\" \\\n    --dry-run=client -o yaml) --yes\nkubectl create secret generic other --from-file=values.yaml\n";
        let found = in_text("tap/install.sh", text, &index);
        let got: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|c| (c.path.as_str(), c.to.as_str(), c.origin.as_str()))
            .collect();
        assert_eq!(
            got,
            [(
                "tap/overlays/cnrs/pkgi.yaml",
                "the Secret `pkgi-overlay`",
                "tap/install.sh:2"
            )]
        );
    }
}
