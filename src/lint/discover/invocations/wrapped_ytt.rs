//! ytt run through another tool: `go run [build flags] …/cmd/ytt[@version] ARGS` (a Makefile's
//! `YTT ?= go run -modfile hack/go.mod github.com/vmware-tanzu/carvel-ytt/cmd/ytt`, round
//! twenty-eight's N28-4) and `docker run [options] IMAGE ARGS` whose image is ytt's
//! (`gerritk/ytt:v0.35.1`, `ghcr.io/carvel-dev/ytt`, round twenty-six's N26-1). Each is the
//! command `ytt ARGS`.
//!
//! An image runs ytt when it is ytt's, or when its command is `ytt` (`k14s/image ytt "$@"`,
//! round forty-seven's N47-2). A container sees the repository only through its mounts (read by
//! [`super::container_run`]): the command runs in the host directory its working directory is
//! mounted from (`-v "${DEST}":/workdir -w /workdir` runs in `$DEST`), its absolute paths under
//! a mount are the host's; a working directory or path in no mount is the container's own,
//! outside the repository, and the image's working directory when `-w` is not given is known
//! only at run time. A container with no mount whose every file is standard input (`-f -`)
//! runs as the shell does.

use super::container_run::{self, Located};
use super::word::Word;

/// `go run`'s build flags that take the next word as their value.
const GO_VALUED: [&str; 16] = [
    "-C",
    "-asmflags",
    "-exec",
    "-gccgoflags",
    "-gcflags",
    "-installsuffix",
    "-ldflags",
    "-mod",
    "-modfile",
    "-o",
    "-overlay",
    "-p",
    "-pgo",
    "-pkgdir",
    "-tags",
    "-toolexec",
];

/// A wrapped ytt command: the fields of `ytt ARGS`, and the directory it runs in when that
/// is not the shell's (a container's working directory, on the host or not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwrapped {
    pub fields: Vec<Word>,
    /// The working directory of the command (`None`: the shell's own).
    pub workdir: Option<Word>,
}

/// The fields of `ytt ARGS` for a `go run` or `docker run` of ytt (`fields`, the command's
/// name first), run from `cwd`; `None` when it runs something else.
pub fn unwrapped(fields: &[Word], cwd: Option<&Word>) -> Option<Unwrapped> {
    let tool = fields.first()?.literal()?;
    if !matches!(tool.as_str(), "go" | "docker" | "podman") {
        return None;
    }
    let verb = fields.get(1)?.literal()?;
    match (tool.as_str(), verb.as_str()) {
        ("go", "run") => go_run(&fields[2..]).map(|fields| Unwrapped {
            fields,
            workdir: None,
        }),
        ("docker" | "podman", "run") => docker_run(&fields[2..], cwd),
        _ => None,
    }
}

/// `ytt` followed by `rest`.
fn ytt_with(rest: &[Word]) -> Vec<Word> {
    let mut out = vec![Word::lit("ytt")];
    out.extend(rest.iter().cloned());
    out
}

/// Whether a Go package path is ytt's command (`github.com/carvel-dev/ytt/cmd/ytt@v0.49.0`).
fn is_ytt_package(p: &str) -> bool {
    let p = p.split('@').next().unwrap_or(p);
    p.ends_with("/cmd/ytt") || p == "cmd/ytt"
}

fn go_run(args: &[Word]) -> Option<Vec<Word>> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let l = a.literal()?;
        if !l.starts_with('-') {
            return is_ytt_package(&l).then(|| ytt_with(&args[i + 1..]));
        }
        // `-modfile x` or `--modfile x`; `-mod=mod` holds its value.
        let bare = format!("-{}", l.trim_start_matches('-'));
        let valued = GO_VALUED.contains(&bare.as_str());
        i += if valued && !l.contains('=') { 2 } else { 1 };
    }
    None
}

/// Whether an image is ytt's (`gerritk/ytt:v0.35.1`, `ghcr.io/carvel-dev/ytt@sha256:…`).
fn is_ytt_image(image: &str) -> bool {
    let image = image.split('@').next().unwrap_or(image);
    let name = image.rsplit('/').next().unwrap_or(image);
    name.split(':').next() == Some("ytt")
}

/// Whether a mount's source is the current directory (`$(PWD)`, `$PWD`, `$(pwd)`,
/// `$(CURDIR)`, `.`).
fn is_current_dir(source: &str) -> bool {
    let s = source.trim_end_matches('/');
    matches!(
        s,
        "." | "$(PWD)" | "${PWD}" | "$PWD" | "$(pwd)" | "$(CURDIR)" | "${CURDIR}" | "`pwd`"
    )
}

/// ytt's image (`gerritk/ytt`), or any image whose command is `ytt` (`k14s/image ytt ARGS`),
/// run in the container's working directory: on the host where a mount maps it
/// (`-v "${DEST}":/workdir -w /workdir`), else in the container, where the relative paths it
/// reads are none of the repository's. Its absolute paths under a mount are the host's.
fn docker_run(args: &[Word], cwd: Option<&Word>) -> Option<Unwrapped> {
    let mut run = container_run::parse(args)?;
    if run.entrypoint {
        return None;
    }
    let image = run.image.literal()?;
    let word = run.command.first().and_then(Word::literal);
    let rest: Vec<Word> = match word.as_deref() {
        Some(c) if c == "ytt" || c.ends_with("/ytt") => run.command[1..].to_vec(),
        _ if is_ytt_image(&image) => run.command.clone(),
        _ => return None,
    };
    // Nothing of the host: every file comes from standard input.
    if run.mounts.is_empty() && only_standard_input(&rest) {
        return Some(Unwrapped {
            fields: ytt_with(&rest),
            workdir: None,
        });
    }
    for m in &mut run.mounts {
        m.host = m.host.take().and_then(|h| on_host(&h, cwd));
    }
    let workdir = match &run.workdir {
        Some(w) => match run.locate(w) {
            // The shell's own directory, unknown here: the command runs where the shell does.
            Located::Host(h) if h.normalized().literal().as_deref() == Some(".") => {
                return Some(Unwrapped {
                    fields: ytt_with(&host_paths(&rest, &run)),
                    workdir: None,
                });
            }
            // Below it: known only at run time.
            Located::Host(h) if !h.anchored() && h.unknowns().next().is_none() => {
                Word::unknown(format!("$(the folder {h} of the shell's)"))
            }
            Located::Host(h) => h,
            Located::Unplaced => Word::unknown(format!("$(the volume at {w})")),
            Located::Container => Word::lit(w.clone()),
        },
        None => Word::unknown(format!("$(the working directory of {image})")),
    };
    Some(Unwrapped {
        fields: ytt_with(&host_paths(&rest, &run)),
        workdir: Some(workdir),
    })
}

/// A mount's source made a path from a fixed place: the working directory's spellings are
/// `cwd`, a relative path is below it, a value known at run time stays as it is (docker
/// takes an absolute one).
/// Where the shell's directory is not known, its spellings are `.` and a relative source stays
/// relative to it.
fn on_host(source: &Word, cwd: Option<&Word>) -> Option<Word> {
    if source.anchored() {
        return Some(source.normalized());
    }
    if is_current_dir(&source.to_string()) {
        return Some(cwd.cloned().unwrap_or_else(|| Word::lit(".")));
    }
    if source.literal_prefix().is_empty() {
        return Some(source.clone());
    }
    Some(match cwd {
        Some(c) => source.relative_to(c),
        None => source.normalized(),
    })
}

/// ytt's arguments with each absolute path of a file flag the host path a mount maps it to
/// (`-f /workdir/app.yml`, `--data-values-file=/workdir/values.yml`, `-f name=/workdir/x`);
/// a path in a volume the linter cannot place is known only at run time.
fn host_paths(args: &[Word], run: &container_run::Run) -> Vec<Word> {
    let mut out = Vec::with_capacity(args.len());
    let mut takes_path = false;
    for a in args {
        if takes_path {
            out.push(mapped(a, run));
            takes_path = false;
            continue;
        }
        let l = a.literal_prefix();
        match a.split_once('=') {
            Some((flag, value)) if FILE_FLAGS.contains(&flag.to_string().as_str()) => {
                let mut w = flag;
                w.push_lit("=", false);
                w.extend(&mapped(&value, run));
                out.push(w);
            }
            _ if FILE_FLAGS.contains(&a.to_string().as_str()) => {
                takes_path = true;
                out.push(a.clone());
            }
            _ if l.starts_with("-f/") => {
                let value = a.strip_prefix("-f").unwrap_or_else(|| a.clone());
                let mut w = Word::lit("-f");
                w.extend(&mapped(&value, run));
                out.push(w);
            }
            _ => out.push(a.clone()),
        }
    }
    out
}

/// ytt's flags whose value is a path (or `name=path`, `key=path`).
const FILE_FLAGS: [&str; 4] = ["-f", "--file", "--data-values-file", "--data-value-file"];

/// A file flag's value with its absolute container path on the host.
fn mapped(value: &Word, run: &container_run::Run) -> Word {
    let (prefix, path) = match value.split_once('=') {
        Some((name, path)) if !value.literal_prefix().starts_with('/') => {
            let mut n = name;
            n.push_lit("=", false);
            (n, path)
        }
        _ => (Word::default(), value.clone()),
    };
    let Some(text) = path.literal().filter(|p| p.starts_with('/')) else {
        return value.clone();
    };
    let mut out = prefix;
    match run.locate(&text) {
        Located::Host(h) => out.extend(&h),
        Located::Unplaced => out.extend(&Word::unknown(format!("$(the volume's {text})"))),
        Located::Container => return value.clone(),
    }
    out
}

/// Whether every file ytt's arguments name is standard input (`-f -`), and there is one.
fn only_standard_input(args: &[Word]) -> bool {
    let mut files = 0;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let l = a.to_string();
        let (flag, inline) = match l.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f.to_string(), Some(v.to_string())),
            // `-f-` is `-f -`, as ytt's flag parser reads it.
            _ if l.starts_with("-f") && l.len() > 2 && !l.starts_with("--") => {
                ("-f".to_string(), Some(l[2..].to_string()))
            }
            _ => (l.clone(), None),
        };
        let reads = matches!(
            flag.as_str(),
            "-f" | "--file" | "--data-values-file" | "--data-value-file"
        );
        if reads {
            let value = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    args.get(i).map(Word::to_string).unwrap_or_default()
                }
            };
            let path = value.rsplit_once('=').map_or(value.as_str(), |(_, p)| p);
            if path != "-" {
                return false;
            }
            files += 1;
        }
        i += 1;
    }
    files > 0
}

#[cfg(test)]
mod tests {
    use super::super::word::REPO;
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    fn repo(p: &str) -> Word {
        Word::lit(format!("{REPO}/{p}")).normalized()
    }

    fn shown(w: Option<Unwrapped>) -> Option<String> {
        w.map(|w| {
            let fields: Vec<String> = w.fields.iter().map(Word::to_string).collect();
            let dir = w.workdir.map_or(String::new(), |d| format!("@{d}: "));
            format!("{dir}{}", fields.join(" "))
        })
    }

    fn at_root(s: &str) -> Option<String> {
        shown(unwrapped(&words(s), Some(&Word::lit(REPO))))
    }

    #[test]
    fn go_run_of_ytt_s_command_is_ytt() {
        let w = words(
            "go run -modfile hack/go.mod github.com/vmware-tanzu/carvel-ytt/cmd/ytt -f config",
        );
        assert_eq!(shown(unwrapped(&w, None)).as_deref(), Some("ytt -f config"));
        let w = words("go run github.com/carvel-dev/ytt/cmd/ytt@v0.49.0 -f a.yml");
        assert_eq!(shown(unwrapped(&w, None)).as_deref(), Some("ytt -f a.yml"));
        assert_eq!(
            unwrapped(&words("go run ./cmd/server -f config"), None),
            None
        );
        assert_eq!(
            unwrapped(&words("go build github.com/carvel-dev/ytt/cmd/ytt"), None),
            None
        );
    }

    #[test]
    fn docker_run_of_ytt_reads_standard_input_without_a_mount() {
        // `-f-` glued is standard input too.
        let w = words("docker run --rm -i gerritk/ytt:v0.35.1 -f- -v a=b");
        assert_eq!(
            shown(unwrapped(&w, None)).as_deref(),
            Some("ytt -f- -v a=b")
        );
        assert_eq!(
            at_root("docker run --rm -i gerritk/ytt:v0.35.1 -f -").as_deref(),
            Some("ytt -f -")
        );
        assert_eq!(at_root("docker run --rm -i alpine -f -"), None);
        assert_eq!(
            at_root("docker run --entrypoint sh -i gerritk/ytt -f -"),
            None
        );
    }

    #[test]
    fn docker_run_of_ytt_runs_in_the_host_folder_its_working_directory_is_mounted_from() {
        assert_eq!(
            at_root(
                "docker run --rm -v $(PWD):/work -w /work ghcr.io/carvel-dev/ytt ytt -f config"
            )
            .as_deref(),
            Some("@.: ytt -f config")
        );
        // An image of every Carvel tool, its command `ytt` (N47-2).
        let sub = repo("dest");
        let mut w = words("docker run --rm -i -v");
        let mut mount = sub.clone();
        mount.push_lit(":/workdir:z", false);
        w.push(mount);
        w.extend(words(
            "-w /workdir k14s/image@sha256:1100 ytt -f config.yml --data-values-file=/workdir/v.yml",
        ));
        assert_eq!(
            shown(unwrapped(&w, Some(&Word::lit(REPO)))).as_deref(),
            Some("@dest: ytt -f config.yml --data-values-file=dest/v.yml")
        );
        // A mount's relative source is below the shell's directory; a file outside every
        // mount is the container's.
        assert_eq!(
            shown(unwrapped(
                &words("docker run -v ./cfg:/in -w /in ghcr.io/vmware-tanzu/carvel-docker-image ytt -f a.yml -f /etc/b.yml"),
                Some(&repo("deploy")),
            ))
            .as_deref(),
            Some("@deploy/cfg: ytt -f a.yml -f /etc/b.yml")
        );
        // The shell's directory unknown: the command runs where the shell does.
        assert_eq!(
            shown(unwrapped(
                &words("docker run -v $PWD:/w -w /w k14s/image ytt -f a.yml -f /w/b.yml"),
                None
            ))
            .as_deref(),
            Some("ytt -f a.yml -f b.yml")
        );
        // k14s/image runs another tool without the word `ytt`.
        assert_eq!(
            at_root("docker run -v .:/w -w /w k14s/image kapp deploy"),
            None
        );
    }

    #[test]
    fn a_container_s_own_folders_are_none_of_the_repository_s() {
        // The working directory is in no mount: its relative paths are the container's.
        assert_eq!(
            at_root("docker run -v /tmp:/work -w /work gerritk/ytt -f config").as_deref(),
            Some("@/tmp: ytt -f config")
        );
        assert_eq!(
            at_root("docker run -v .:/src -w /app gerritk/ytt -f config -f /src/x.yml").as_deref(),
            Some("@/app: ytt -f config -f x.yml")
        );
        // In a volume, or in the image's own working directory: known only at run time.
        assert_eq!(
            at_root("docker run -v data:/work -w /work gerritk/ytt -f config").as_deref(),
            Some("@$(the volume at /work): ytt -f config")
        );
        assert_eq!(
            at_root("docker run --rm gerritk/ytt -f /config").as_deref(),
            Some("@$(the working directory of gerritk/ytt): ytt -f /config")
        );
    }
}
