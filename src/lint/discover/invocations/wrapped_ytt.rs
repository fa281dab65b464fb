//! ytt run through another tool: `go run [build flags] …/cmd/ytt[@version] ARGS` (a Makefile's
//! `YTT ?= go run -modfile hack/go.mod github.com/vmware-tanzu/carvel-ytt/cmd/ytt`, round
//! twenty-eight's N28-4) and `docker run [options] IMAGE ARGS` whose image is ytt's
//! (`gerritk/ytt:v0.35.1`, `ghcr.io/carvel-dev/ytt`, round twenty-six's N26-1). Each is the
//! command `ytt ARGS`.
//!
//! A container sees the repository only through a mount: `docker run` is read as ytt only when
//! its paths are the repository's, that is when it mounts the current directory at its working
//! directory (`-v $(PWD):/work -w /work`), or when it mounts nothing and every file ytt reads
//! comes from standard input (`-f -`). Anything else names files inside the container.

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

/// `docker run`'s options that take no value (any other option without `=` takes the next
/// word).
const DOCKER_SWITCHES: [&str; 14] = [
    "--rm",
    "-i",
    "-t",
    "-it",
    "-ti",
    "-d",
    "--interactive",
    "--tty",
    "--detach",
    "--init",
    "--privileged",
    "--read-only",
    "-q",
    "--quiet",
];

/// The fields of `ytt ARGS` for a `go run` or `docker run` of ytt (`fields`, the command's
/// name first), or `None` when it runs something else or ytt's files are not the repository's.
pub fn unwrapped(fields: &[Word]) -> Option<Vec<Word>> {
    let tool = fields.first()?.literal()?;
    if !matches!(tool.as_str(), "go" | "docker" | "podman") {
        return None;
    }
    let verb = fields.get(1)?.literal()?;
    match (tool.as_str(), verb.as_str()) {
        ("go", "run") => go_run(&fields[2..]),
        ("docker" | "podman", "run") => docker_run(&fields[2..]),
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

fn docker_run(args: &[Word]) -> Option<Vec<Word>> {
    let mut mounts: Vec<String> = Vec::new();
    let mut workdir: Option<String> = None;
    let mut i = 0;
    let image_at = loop {
        let a = args.get(i)?;
        let shown = a.to_string();
        if !shown.starts_with('-') {
            break i;
        }
        if let Some((flag, value)) = shown.split_once('=') {
            note_option(flag, value, &mut mounts, &mut workdir)?;
            i += 1;
        } else if DOCKER_SWITCHES.contains(&shown.as_str()) {
            i += 1;
        } else {
            let value = args.get(i + 1)?.to_string();
            note_option(&shown, &value, &mut mounts, &mut workdir)?;
            i += 2;
        }
    };
    if !is_ytt_image(&args[image_at].literal()?) {
        return None;
    }
    let mut rest = &args[image_at + 1..];
    if rest.first().and_then(Word::literal).as_deref() == Some("ytt") {
        rest = &rest[1..];
    }
    let mapped = workdir.as_ref().is_some_and(|w| {
        mounts.iter().any(|m| {
            let mut parts = m.split(':');
            let (src, dst) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            is_current_dir(src) && dst.trim_end_matches('/') == w.trim_end_matches('/')
        })
    });
    (mapped || (mounts.is_empty() && only_standard_input(rest))).then(|| ytt_with(rest))
}

/// Records a mount or the working directory; `None` for an option that changes what runs
/// (`--entrypoint`).
fn note_option(
    flag: &str,
    value: &str,
    mounts: &mut Vec<String>,
    workdir: &mut Option<String>,
) -> Option<()> {
    match flag {
        "-v" | "--volume" | "--mount" => mounts.push(value.to_string()),
        "-w" | "--workdir" => *workdir = Some(value.to_string()),
        "--entrypoint" => return None,
        _ => {}
    }
    Some(())
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
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    fn shown(w: Option<Vec<Word>>) -> Option<String> {
        w.map(|w| w.iter().map(Word::to_string).collect::<Vec<_>>().join(" "))
    }

    #[test]
    fn go_run_of_ytt_s_command_is_ytt() {
        let w = words(
            "go run -modfile hack/go.mod github.com/vmware-tanzu/carvel-ytt/cmd/ytt -f config",
        );
        assert_eq!(shown(unwrapped(&w)).as_deref(), Some("ytt -f config"));
        let w = words("go run github.com/carvel-dev/ytt/cmd/ytt@v0.49.0 -f a.yml");
        assert_eq!(shown(unwrapped(&w)).as_deref(), Some("ytt -f a.yml"));
        assert_eq!(unwrapped(&words("go run ./cmd/server -f config")), None);
        assert_eq!(
            unwrapped(&words("go build github.com/carvel-dev/ytt/cmd/ytt")),
            None
        );
    }

    #[test]
    fn docker_run_of_ytt_s_image_is_ytt_where_its_files_are_the_repository_s() {
        // `-f-` glued is standard input too.
        let w = words("docker run --rm -i gerritk/ytt:v0.35.1 -f- -v a=b");
        assert!(unwrapped(&w).is_some());
        let w = words("docker run --rm -i gerritk/ytt:v0.35.1 -fconfig");
        assert!(unwrapped(&w).is_none());
        let w = words("docker run --rm -i gerritk/ytt:v0.35.1 -f -");
        assert_eq!(shown(unwrapped(&w)).as_deref(), Some("ytt -f -"));
        let w =
            words("docker run --rm -v $(PWD):/work -w /work ghcr.io/carvel-dev/ytt ytt -f config");
        assert_eq!(shown(unwrapped(&w)).as_deref(), Some("ytt -f config"));
        // Files of the container, not the repository's.
        assert_eq!(
            unwrapped(&words("docker run --rm gerritk/ytt -f /config")),
            None
        );
        assert_eq!(
            unwrapped(&words(
                "docker run -v /tmp:/work -w /work gerritk/ytt -f config"
            )),
            None
        );
        assert_eq!(unwrapped(&words("docker run --rm -i alpine -f -")), None);
        assert_eq!(
            unwrapped(&words("docker run --entrypoint sh -i gerritk/ytt -f -")),
            None
        );
    }
}
