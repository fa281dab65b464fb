//! A root's ytt flags (`args:` in the configuration) made ready for a job: parsed once with
//! `yttlint template`'s parser, and every path they hold (`-f`, `--data-values-file`,
//! `--data-value-file`) resolved against the root's directory. Without `-f` the root's default
//! inputs are used (its own path, or the paths its Package names). Data values files are renamed to their repository-relative path so that
//! positions inside them point at the right file.

use std::path::Path;

use clap::Parser;

use crate::files::paths;
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
    parsed.files = if parsed.files.is_empty() {
        defaults.iter().map(|d| absolute(repo, d)).collect()
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

/// `-f [name=]path` with the path made absolute.
fn input(dir: &Path, arg: &str) -> String {
    match arg.split_once('=') {
        // `-f x.yml=` names no file: ytt fails on it ("Checking file ''"), and so does the
        // engine given it as it is (it is not the root's directory).
        Some((_, "")) => arg.to_string(),
        Some((name, path)) => format!("{name}={}", absolute(dir, path)),
        None => absolute(dir, arg),
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
    let shown = match paths::relative(repo, &abs) {
        Some(rel) if abs.is_file() && !rel.contains('=') => format!("{rel}="),
        _ => String::new(),
    };
    format!("{lib}{plus}{shown}{}", abs.to_string_lossy())
}

/// The repository-relative paths of the inputs of resolved flags (for selecting roots).
pub fn inputs(repo: &Path, resolved: &TemplateArgs) -> Vec<String> {
    resolved
        .files
        .iter()
        .filter_map(|f| {
            let path = f.split_once('=').map_or(f.as_str(), |(_, p)| p);
            paths::relative(repo, Path::new(path))
        })
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
        assert_eq!(r.files, vec![native("/repo/config")]);
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
            vec![native("/repo/config"), native("x.yml=/repo/shared/y.yml")]
        );
        assert_eq!(inputs(repo, &r), vec!["config", "shared/y.yml"]);
        assert_eq!(r.dv_files, vec![native("@lib:+:/repo/values")]);
        assert_eq!(r.dv_file, vec![native("a.b=/repo/config/cert.pem")]);
    }

    #[test]
    fn bad_flags_are_an_error() {
        assert!(resolve(Path::new("/repo"), "c", &[], &["--nope".into()]).is_err());
    }
}
