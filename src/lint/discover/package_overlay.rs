//! Overlays a command hands to a package being installed: `tanzu package install NAME
//! --package P … --ytt-overlay-file FILE` (and kctrl's `package install`, `package installed
//! create|update`, whose flag it is: a file or a directory, repeatable). The tool puts the files
//! in a Secret that the PackageInstall names by its
//! `ext.packaging.carvel.dev/ytt-paths-from-secret-name.N` annotation, and kapp-controller
//! renders them with the package's own templates, which the repository does not hold. Such a
//! file is no root of its own, as a file a command ships in a Secret itself
//! ([`super::secret_files`]): its static checks still apply, and an overlay that matches
//! nothing alone is not reported as if it were rendered alone (round eighteen's R18-3).
//!
//! A page often shows the flag commented out inside the command (`# --ytt-overlay-file
//! extra.yaml \`), for the reader who wants it: that line is read too (R18-3b).

use crate::lint::discover::copied::Copied;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::secret_files;

/// The flag that names an overlay file or directory.
const FLAG: &str = "--ytt-overlay-file";

/// At most this many lines are joined into one command (`\` continuations).
const MAX_JOINED: usize = 200;

/// Whether a file's text may hand overlays to a package install.
pub fn mentions(text: &str) -> bool {
    text.contains(FLAG)
}

/// The repository files and directories that the package installs of `file` (its text
/// `text`) hand over as overlays, each as a copy into that package's templates.
pub fn in_text(file: &str, text: &str, index: &Index) -> Vec<Copied> {
    let dir = crate::files::paths::parent(file);
    let mut out = Vec::new();
    for (start, command) in commands(text) {
        let words: Vec<&str> = command
            .split_whitespace()
            .map(|w| w.trim_matches(['"', '\'', '`', '(', ')', ';']))
            .collect();
        let Some(at) = install_at(&words) else {
            continue;
        };
        let args = &words[at..];
        let package = flag_value(args, &["--package", "-p", "--package-name"]);
        let to = match package {
            Some(p) => format!("the templates of package `{p}` (`{FLAG}`)"),
            None => format!("the templates of the package it installs (`{FLAG}`)"),
        };
        for (j, w) in args.iter().enumerate() {
            let value = match w.strip_prefix(FLAG).and_then(|r| r.strip_prefix('=')) {
                Some(v) => Some(v),
                None if *w == FLAG => args.get(j + 1).copied(),
                None => None,
            };
            let Some(v) = value.filter(|v| !v.is_empty() && *v != "-") else {
                continue;
            };
            let found = secret_files::candidates(v.trim_end_matches('/'), dir)
                .into_iter()
                .find(|p| index.is_file(p) || index.is_dir(p));
            if let Some(path) = found {
                out.push(Copied {
                    path,
                    to: to.clone(),
                    origin: format!("{file}:{start}"),
                });
            }
        }
    }
    out
}

/// The commands of `text` with their `\` continuations joined, each with the line it starts
/// on. A continuation line commented out (`# --flag value \`) is read without its `#`: a
/// page shows an optional flag so.
fn commands(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut command = String::new();
    let mut start = 0usize;
    let mut joined = 0usize;
    for (i, line) in text.lines().enumerate() {
        let mut line = line.trim_end();
        if command.is_empty() {
            start = i + 1;
            joined = 0;
        } else if let Some(rest) = line.trim_start().strip_prefix('#') {
            line = rest;
        }
        joined += 1;
        match line.strip_suffix('\\') {
            Some(part) if joined < MAX_JOINED => {
                command.push_str(part);
                command.push(' ');
            }
            _ => {
                command.push_str(line);
                let whole = std::mem::take(&mut command);
                if whole.contains(FLAG) {
                    out.push((start, whole));
                }
            }
        }
    }
    if command.contains(FLAG) {
        out.push((start, command));
    }
    out
}

/// Where the arguments of a package install start in `words`: after `tanzu package install`,
/// `kctrl package install`, or `kctrl package installed create|update` (the `tanzu` CLI's
/// package plugin is kctrl's code, with its flags).
fn install_at(words: &[&str]) -> Option<usize> {
    let tool = words
        .iter()
        .position(|w| *w == "tanzu" || *w == "kctrl" || w.ends_with("/kctrl"))?;
    let rest = words.get(tool + 1..)?;
    // A global flag may come between the tool and `package` (`kctrl --kubeconfig X package`).
    let package = rest.iter().take(4).position(|w| *w == "package")?;
    let verb = rest.get(package + 1)?;
    let after = tool + 1 + package + 2;
    match *verb {
        "install" => Some(after),
        "installed" => match rest.get(package + 2) {
            Some(&"create") | Some(&"update") => Some(after + 1),
            _ => None,
        },
        _ => None,
    }
}

/// The value of the first of `flags` in `args` (`--flag value` or `--flag=value`).
fn flag_value<'a>(args: &[&'a str], flags: &[&str]) -> Option<&'a str> {
    args.iter().enumerate().find_map(|(j, w)| {
        flags.iter().find_map(|f| {
            if w == f {
                args.get(j + 1).copied().filter(|v| !v.starts_with('-'))
            } else {
                w.strip_prefix(f)
                    .and_then(|r| r.strip_prefix('='))
                    .filter(|v| !v.is_empty())
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(file: &str, text: &str, index: &Index) -> Vec<(String, String, String)> {
        in_text(file, text, index)
            .into_iter()
            .map(|c| (c.path, c.to, c.origin))
            .collect()
    }

    #[test]
    fn an_overlay_file_of_a_package_install_goes_into_the_package() {
        let index = Index::new(["dns/overlay.yaml", "dns/values.yaml", "dns/README.md"]);
        let text = "Install:\n\n```bash\ntanzu package install external-dns \\\n  --package external-dns.tanzu.vmware.com \\\n  --values-file values.yaml \\\n  --ytt-overlay-file overlay.yaml \\\n  --namespace tkg\n```\n";
        let to = "the templates of package `external-dns.tanzu.vmware.com` (`--ytt-overlay-file`)";
        assert_eq!(
            found("dns/README.md", text, &index),
            [(
                "dns/overlay.yaml".to_string(),
                to.to_string(),
                "dns/README.md:4".to_string()
            )]
        );
        // Commented out inside the command, for the reader who wants it.
        let commented = text.replace("  --ytt-overlay-file", "# --ytt-overlay-file");
        assert_eq!(found("dns/README.md", &commented, &index).len(), 1);
        // The `=` spelling, on one line.
        let one =
            "tanzu package install dns -p dns.example.com --ytt-overlay-file=./overlay.yaml\n";
        assert_eq!(found("dns/README.md", one, &index).len(), 1);
    }

    #[test]
    fn kctrl_takes_a_directory_and_a_variable_for_the_scripts_directory() {
        let index = Index::new([
            "config/overlays/a.yaml",
            "config/overlays/b.yaml",
            "install.sh",
        ]);
        let text = "#!/bin/bash\nROOT=$(git rev-parse --show-toplevel)\nkctrl package installed update -i app \\\n  --ytt-overlay-file ${ROOT}/config/overlays/\n";
        let got = found("install.sh", text, &index);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, "config/overlays");
        assert_eq!(
            got[0].1,
            "the templates of the package it installs (`--ytt-overlay-file`)"
        );
    }

    #[test]
    fn not_a_package_install() {
        let index = Index::new(["overlay.yaml"]);
        // ytt itself has no such flag; stdin is not a file; a missing file is nothing.
        for text in [
            "ytt -f config --ytt-overlay-file overlay.yaml\n",
            "tanzu package install a -p a.example.com --ytt-overlay-file -\n",
            "tanzu package install a -p a.example.com --ytt-overlay-file other.yaml\n",
            "tanzu package installed get a --ytt-overlay-file overlay.yaml\n",
        ] {
            assert!(found("README.md", text, &index).is_empty(), "{text}");
        }
    }
}
