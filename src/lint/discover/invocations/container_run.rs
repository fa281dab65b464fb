//! A `docker run` (or `podman run`) read without running it: its image, the command after the
//! image, its working directory (`-w`, `--workdir`) and its mounts (`-v HOST:CONTAINER[:OPTS]`,
//! `--volume`, `--mount type=bind,source=HOST,target=CONTAINER`), and where a path of the
//! container lies on the host (round forty-seven's N47-2: `docker run --rm -i -v
//! "${DEST}":/workdir -w /workdir k14s/image ytt "$@"` runs ytt in `$DEST`).
//!
//! A container sees the host only through its bind mounts: a path under a mount's container
//! directory is the host path below the mount's source (the longest mount wins, as the
//! container's file system stacks them); any other path is the container's own, outside the
//! repository. A named volume (`-v data:/work`, a source without `/`) is no host directory.
//! [`mount`] parses one mount option alone, for other readers of `docker run` lines.

use super::word::Word;

/// `docker run`'s options that take no value (any other option without `=` takes the next
/// word).
const SWITCHES: [&str; 20] = [
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
    "-P",
    "--publish-all",
    "--no-healthcheck",
    "--oom-kill-disable",
    "--sig-proxy",
    "--disable-content-trust",
];

/// One bind mount or volume of a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    /// The host directory, as the shell expanded it (`None`: a named volume, or a source the
    /// linter cannot read).
    pub host: Option<Word>,
    /// Where the container sees it: an absolute path, normalized (no trailing `/`).
    pub container: String,
}

/// One `docker run` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The image, as written.
    pub image: Word,
    /// The command and arguments after the image (empty: the image's own command).
    pub command: Vec<Word>,
    pub mounts: Vec<Mount>,
    /// `-w`: the container's working directory (`None`: the image's, unknown here).
    pub workdir: Option<String>,
    /// `--entrypoint` replaces the image's program.
    pub entrypoint: bool,
}

/// Where a path of the container is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// On the host, at this path (the mount's source joined with the rest).
    Host(Word),
    /// In a mount whose source the linter cannot place (a named volume, a run-time value).
    Unplaced,
    /// In the container's own file system: nothing of the repository.
    Container,
}

/// The mount a `docker run` option gives (`flag` as written, `-v` or `--volume` or
/// `--mount`, with its `value`); `None` for another option or a value it cannot read.
pub fn mount(flag: &str, value: &Word) -> Option<Mount> {
    match flag {
        "-v" | "--volume" => {
            let (host, rest) = value.split_once(':')?;
            let target = rest.literal()?;
            let target = target.split(':').next().unwrap_or("");
            Some(Mount {
                host: host_dir(&host),
                container: container_dir(target)?,
            })
        }
        "--mount" => {
            let mut kind = "volume".to_string();
            let mut source: Option<Word> = None;
            let mut target: Option<String> = None;
            for part in split_commas(value) {
                let Some((key, v)) = part.split_once('=') else {
                    continue;
                };
                match key.literal().as_deref() {
                    Some("type") => kind = v.literal().unwrap_or_default(),
                    Some("source" | "src") => source = Some(v),
                    Some("target" | "destination" | "dst") => target = v.literal(),
                    _ => {}
                }
            }
            // `--mount` without a type is a volume: its source is the volume's name.
            let host = source.filter(|_| kind == "bind").and_then(|s| host_dir(&s));
            Some(Mount {
                host,
                container: container_dir(&target?)?,
            })
        }
        _ => None,
    }
}

/// The words of a `--mount` value between its commas.
fn split_commas(value: &Word) -> Vec<Word> {
    let mut out = Vec::new();
    let mut rest = value.clone();
    while let Some((part, after)) = rest.split_once(',') {
        out.push(part);
        rest = after;
    }
    out.push(rest);
    out
}

/// A mount's source as a host directory: a path (absolute, `.`-relative or made by the
/// shell), never a volume's name.
fn host_dir(source: &Word) -> Option<Word> {
    if source.is_empty() {
        return None;
    }
    match source.literal() {
        // `-v data:/work`: a named volume.
        Some(l) if !source.anchored() && !l.contains(['/', '$', '`']) && l != "." && l != ".." => {
            None
        }
        _ => Some(source.clone()),
    }
}

/// A container path, absolute and normalized.
fn container_dir(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        return None;
    }
    let segs: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if segs.contains(&"..") {
        return None;
    }
    Some(format!("/{}", segs.join("/")))
}

/// The `docker run` whose arguments after `run` are `args`; `None` when no image is found
/// or an option's value is missing.
pub fn parse(args: &[Word]) -> Option<Run> {
    let mut mounts = Vec::new();
    let mut workdir = None;
    let mut entrypoint = false;
    let mut i = 0;
    loop {
        let a = args.get(i)?;
        let shown = a.literal_prefix();
        if !shown.starts_with('-') {
            break;
        }
        let (flag, value, used) = match a.split_once('=') {
            Some((f, v)) if f.literal().is_some_and(|f| f.starts_with("--")) => {
                (f.literal().unwrap_or_default(), Some(v), 1)
            }
            _ => {
                let f = a.literal()?;
                if SWITCHES.contains(&f.as_str()) {
                    (f, None, 1)
                } else {
                    (f, Some(args.get(i + 1)?.clone()), 2)
                }
            }
        };
        if let Some(v) = value {
            match flag.as_str() {
                "-v" | "--volume" | "--mount" => mounts.extend(mount(&flag, &v)),
                "-w" | "--workdir" => workdir = v.literal().and_then(|w| container_dir(&w)),
                "--entrypoint" => entrypoint = true,
                _ => {}
            }
        }
        i += used;
    }
    Some(Run {
        image: args[i].clone(),
        command: args[i + 1..].to_vec(),
        mounts,
        workdir,
        entrypoint,
    })
}

impl Run {
    /// Where the container's absolute `path` is (see [`Located`]).
    pub fn locate(&self, path: &str) -> Located {
        let Some(path) = container_dir(path) else {
            return Located::Container;
        };
        let best = self
            .mounts
            .iter()
            .filter_map(|m| below(&path, &m.container).map(|rest| (m, rest)))
            .max_by_key(|(m, _)| m.container.len());
        match best {
            Some((Mount { host: Some(h), .. }, rest)) => {
                let mut w = h.clone();
                if !rest.is_empty() {
                    w.push_lit("/", false);
                    w.push_lit(rest, false);
                }
                Located::Host(w.normalized())
            }
            Some(_) => Located::Unplaced,
            None => Located::Container,
        }
    }
}

/// The part of `path` below `dir` (empty for `dir` itself), both normalized.
fn below<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir == "/" {
        return Some(path.trim_start_matches('/'));
    }
    if path == dir {
        return Some("");
    }
    path.strip_prefix(dir)?.strip_prefix('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    #[test]
    fn mounts_of_every_spelling() {
        let m = mount("-v", &Word::lit("/src/app:/workdir:z")).unwrap();
        assert_eq!(m.host, Some(Word::lit("/src/app")));
        assert_eq!(m.container, "/workdir");
        let m = mount("--volume", &Word::lit("./cfg:/etc/cfg/:ro")).unwrap();
        assert_eq!(m.host, Some(Word::lit("./cfg")));
        assert_eq!(m.container, "/etc/cfg");
        // A named volume is no host directory; the shell's directory (`"${PWD}"`) is one.
        assert_eq!(mount("-v", &Word::lit("data:/work")).unwrap().host, None);
        let here = Word::lit(super::super::word::REPO);
        let mut at_work = here.clone();
        at_work.push_lit(":/work", true);
        assert_eq!(mount("-v", &at_work).unwrap().host, Some(here));
        let m = mount(
            "--mount",
            &Word::lit("type=bind,source=/src/app,target=/work,readonly"),
        )
        .unwrap();
        assert_eq!(m.host, Some(Word::lit("/src/app")));
        assert_eq!(m.container, "/work");
        let m = mount("--mount", &Word::lit("source=cache,target=/work")).unwrap();
        assert_eq!(m.host, None);
        // A relative container path is no mount docker accepts; another option is none.
        assert_eq!(mount("-v", &Word::lit("/a:work")), None);
        assert_eq!(mount("-e", &Word::lit("A=1")), None);
    }

    #[test]
    fn the_image_its_command_and_its_options() {
        let r = parse(&words(
            "--rm -i -v /r:/workdir:z -w /workdir -e X=1 --user=1000 k14s/image ytt -f a.yml",
        ))
        .unwrap();
        assert_eq!(r.image, Word::lit("k14s/image"));
        assert_eq!(r.command, words("ytt -f a.yml"));
        assert_eq!(r.workdir.as_deref(), Some("/workdir"));
        assert_eq!(r.mounts.len(), 1);
        assert!(!r.entrypoint);
        let r = parse(&words("--entrypoint ytt img -f -")).unwrap();
        assert!(r.entrypoint);
        // No image: an option's value is missing.
        assert_eq!(parse(&words("--rm -v")), None);
    }

    #[test]
    fn container_paths_lie_below_the_longest_mount() {
        let r = parse(&words(
            "-v /r:/work -v /r/config:/work/etc -v vol:/cache img",
        ))
        .unwrap();
        assert_eq!(
            r.locate("/work/a.yml"),
            Located::Host(Word::lit("/r/a.yml"))
        );
        assert_eq!(
            r.locate("/work/etc/x/"),
            Located::Host(Word::lit("/r/config/x"))
        );
        assert_eq!(r.locate("/work"), Located::Host(Word::lit("/r")));
        assert_eq!(r.locate("/cache/x"), Located::Unplaced);
        assert_eq!(r.locate("/workdir/x"), Located::Container);
        assert_eq!(r.locate("/etc/x"), Located::Container);
    }
}
