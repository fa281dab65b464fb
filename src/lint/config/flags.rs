//! A root's ytt flags (`args:` in the configuration) made ready for a job: parsed once with
//! `yttlint template`'s parser, and every path they hold (`-f`, `--data-values-file`,
//! `--data-value-file`) resolved against the root's directory. Without `-f` the root's default
//! inputs are used (its own path, or the paths its Package names). Data values files are renamed to their repository-relative path so that
//! positions inside them point at the right file.

use std::path::Path;

use clap::Parser;

use crate::files::{self, paths};
use crate::lint::config::parse::split_lib_ref;
use crate::ytt_flags::TemplateArgs;

/// Parses `args` for the root at repository-relative `root` of the repository at `repo`;
/// `defaults` are the repository-relative inputs used when `args` have no `-f`.
pub fn resolve(
    repo: &Path,
    root: &str,
    defaults: &[String],
    args: &[String],
) -> Result<TemplateArgs, String> {
    // The explicit form of inputs starts with a NUL byte: the repository may not write it.
    if let Some(a) = args.iter().find(|a| a.contains('\0')) {
        return Err(format!(
            "the argument \"{}\" holds a NUL byte, which no command line can",
            a.replace('\0', "\\0")
        ));
    }
    let mut parsed = TemplateArgs::try_parse_from(
        std::iter::once("template".to_string()).chain(args.iter().cloned()),
    )
    .map_err(|e| e.to_string().lines().next().unwrap_or("").to_string())?;
    let root_abs = paths::absolute(repo, Path::new(root));
    let dir = if root_abs.is_file() {
        root_abs.parent().unwrap_or(repo).to_path_buf()
    } else {
        root_abs.clone()
    };
    // Paths become the explicit form of `files::input`: ytt's syntax would read a directory
    // named `evil=decoy` as the file `decoy` named `evil`.
    parsed.files = if parsed.files.is_empty() {
        defaults
            .iter()
            .map(|d| files::input::path(&absolute(repo, d)))
            .collect()
    } else {
        parsed.files.iter().map(|f| input(&dir, f)).collect()
    };
    parsed.dv_files = parsed
        .dv_files
        .iter()
        .map(|f| values_file(repo, &dir, f))
        .collect();
    parsed.dv_file = parsed
        .dv_file
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((key, path)) => format!("{key}={}", absolute(&dir, path)),
            None => kv.clone(),
        })
        .collect();
    Ok(parsed)
}

fn absolute(dir: &Path, path: &str) -> String {
    paths::absolute(dir, Path::new(path))
        .to_string_lossy()
        .into_owned()
}

/// `-f [name=]path` with the path made absolute, in the explicit form of `files::input`.
fn input(dir: &Path, arg: &str) -> String {
    match files::input::parse(arg) {
        // `-f x.yml=` names no file: ytt fails on it ("Checking file ''"), and so does the
        // engine given it as it is (it is not the root's directory). An argument ytt refuses
        // (`a=b=c`) stays as it is, for the engine to refuse it with ytt's message.
        Ok(files::input::Input { path: "", .. }) | Err(_) => arg.to_string(),
        Ok(files::input::Input {
            name: Some(name),
            path,
        }) => files::input::named(name, &absolute(dir, path)),
        Ok(files::input::Input { name: None, path }) => files::input::path(&absolute(dir, path)),
    }
}

/// `[@lib:][+:]path` with the path made absolute (relative to `dir`); a file is named by its
/// repository-relative path (`rel=abs`), a directory keeps ytt's naming.
pub fn values_file(repo: &Path, dir: &Path, arg: &str) -> String {
    let (lib, rest) = split_lib_ref(arg);
    let (plus, path) = match rest.strip_prefix("+:") {
        Some(p) => ("+:", p),
        None => ("", rest),
    };
    let abs = paths::absolute(dir, Path::new(path));
    let abs_text = abs.to_string_lossy();
    let explicit = match paths::relative(repo, &abs) {
        Some(rel) if abs.is_file() => files::input::named(&rel, &abs_text),
        _ => files::input::path(&abs_text),
    };
    format!("{lib}{plus}{explicit}")
}

/// The repository-relative paths of the inputs of resolved flags (for selecting roots).
pub fn inputs(repo: &Path, resolved: &TemplateArgs) -> Vec<String> {
    resolved
        .files
        .iter()
        .filter_map(|f| paths::relative(repo, Path::new(files::input::path_of(f))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path written with `/`, in the separator of the system the tests run on.
    fn native(path: &str) -> String {
        path.replace('/', std::path::MAIN_SEPARATOR_STR)
    }

    #[test]
    fn a_named_input_without_a_path_stays_empty() {
        let r = resolve(
            Path::new("/repo"),
            ".",
            &[],
            &["-f".into(), "x.yml=".into()],
        )
        .unwrap();
        assert_eq!(r.files, ["x.yml="]);
    }

    #[test]
    fn without_f_the_root_is_the_input() {
        let repo = Path::new("/repo");
        let r = resolve(
            repo,
            "config",
            &["config".into()],
            &["--ignore-unknown-comments".into()],
        )
        .unwrap();
        assert!(r.ignore_unknown_comments);
        assert_eq!(r.files, vec![format!("\0{}", native("/repo/config"))]);
        assert_eq!(inputs(repo, &r), vec!["config"]);
    }

    #[test]
    fn paths_resolve_against_the_root() {
        let repo = Path::new("/repo");
        let args: Vec<String> = [
            "-f",
            ".",
            "-f",
            "x.yml=../shared/y.yml",
            "--data-values-file",
            "@lib:+:../values",
            "--data-value-file",
            "a.b=cert.pem",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = resolve(repo, "config", &[], &args).unwrap();
        assert_eq!(
            r.files,
            vec![
                format!("\0{}", native("/repo/config")),
                format!("\0x.yml\0{}", native("/repo/shared/y.yml"))
            ]
        );
        assert_eq!(inputs(repo, &r), vec!["config", "shared/y.yml"]);
        assert_eq!(
            r.dv_files,
            vec![format!("@lib:+:\0{}", native("/repo/values"))]
        );
        assert_eq!(r.dv_file, vec![native("a.b=/repo/config/cert.pem")]);
    }

    #[test]
    fn paths_are_never_read_as_name_and_path() {
        let repo = Path::new("/repo");
        for root in ["evil=decoy", "x=y=z", "-"] {
            let r = resolve(repo, root, &[root.to_string()], &[]).unwrap();
            let input = crate::files::input::parse(&r.files[0]).unwrap();
            assert_eq!(
                (input.name, input.path),
                (None, format!("/repo/{root}").as_str())
            );
            assert_eq!(inputs(repo, &r), vec![root]);
            // Configured inputs relative to such a root too.
            let r = resolve(repo, root, &[], &["-f".into(), ".".into()]).unwrap();
            assert_eq!(
                crate::files::input::path_of(&r.files[0]),
                format!("/repo/{root}")
            );
        }
        let r = resolve(repo, "c", &[], &["-f".into(), "a=b=c".into()]).unwrap();
        assert_eq!(
            r.files,
            ["a=b=c"],
            "left for the engine to refuse as ytt does"
        );
        assert!(resolve(repo, "c", &[], &["-f".into(), "\0x\0/etc/passwd".into()]).is_err());
    }

    #[test]
    fn bad_flags_are_an_error() {
        assert!(resolve(Path::new("/repo"), "c", &[], &["--nope".into()]).is_err());
    }
}
