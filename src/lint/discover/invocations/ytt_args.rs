//! A `ytt` command line, as words that may hold unknown values, read the way ytt's own flag
//! parser reads it: which inputs it renders, which data values it gives (literally or from
//! something unknown), and which flags shape the evaluation. Commands that do not render
//! (`ytt version`, `ytt fmt`, `--help`) are told apart.

use super::word::Word;

/// How a data value flag gives its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueKind {
    /// `-v key=value`: a string.
    String,
    /// `--data-value-yaml key=value`: YAML.
    Yaml,
}

/// What one `ytt` command renders and with what.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YttArgs {
    /// `-f` arguments (`[name=]path`, or `-` for standard input).
    pub files: Vec<Word>,
    /// `--data-values-file` arguments (`[@lib:][+:]path`).
    pub values_files: Vec<Word>,
    /// `-v` and `--data-value-yaml`: kind, key (with `@lib:`), value.
    pub values: Vec<(ValueKind, Word, Word)>,
    /// `--data-value-file key=path`.
    pub value_files: Vec<(Word, Word)>,
    /// `--data-values-env[-yaml] PREFIX`: values from the environment.
    pub env_prefixes: Vec<Word>,
    /// `--file-mark` arguments.
    pub file_marks: Vec<Word>,
    /// Flags that change how the files evaluate, as ytt spells them.
    pub flags: Vec<String>,
    /// `--data-values-inspect` or `--data-values-schema-inspect`: templates are not rendered.
    pub inspect: bool,
    /// `--data-values-inspect`: the command prints the final data values, so it reads every
    /// one of them (a schema's inspection prints what may be set, not what is read).
    pub prints_values: bool,
    /// Arguments known only at run time (`"${ARGS[@]}"`): they may add inputs.
    pub unknown: Vec<Word>,
    /// `--output-files DIR` or `--dangerous-emptied-output-directory DIR`: each input file's
    /// output is written to a file of its own.
    pub split_output: bool,
    /// That directory, as written.
    pub output_dir: Option<Word>,
    /// Long flags no ytt version knows (`--colour`), each with the value it took: read as
    /// changing nothing the linter checks, an `unknown-flag` assumption (see
    /// `unknown_flag.rs`).
    pub unknown_flags: Vec<String>,
}

/// What a `ytt` command is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Render(Box<YttArgs>),
    /// Not a rendering (`ytt version`, `ytt --help`, `ytt fmt`): nothing to lint.
    Other(String),
    /// A command line the linter cannot read, and why.
    Unreadable(String),
}

/// Flags that take a value, and where it goes.
#[derive(Clone, Copy)]
enum Takes {
    File,
    ValuesFile,
    Value(ValueKind),
    ValueFile,
    Env,
    FileMark,
    /// A directory to write each file's output to.
    SplitOutput,
    /// Output and symlink flags: their value does not matter to the linter.
    Ignored,
}

fn takes(flag: &str) -> Option<Takes> {
    Some(match flag {
        "-f" | "--file" => Takes::File,
        "--data-values-file" => Takes::ValuesFile,
        // Names of 2019-08-14 only, renamed the same day: `--data-value-as-string`,
        // `--data-value-from-yaml`, `--data-values-env-as-strings`, `--data-values-env-from-yaml`.
        "-v" | "--data-value" | "--data-value-as-string" => Takes::Value(ValueKind::String),
        "--data-value-yaml" | "--data-value-from-yaml" => Takes::Value(ValueKind::Yaml),
        "--data-value-file" => Takes::ValueFile,
        "--data-values-env"
        | "--data-values-env-yaml"
        | "--data-values-env-as-strings"
        | "--data-values-env-from-yaml" => Takes::Env,
        "--file-mark" => Takes::FileMark,
        "--output-files" | "--dangerous-emptied-output-directory" => Takes::SplitOutput,
        // ytt's older names of `--dangerous-emptied-output-directory` (which empties the
        // directory, then writes each file's output there): `--output-dir` from 2019-07-31,
        // `--output-directory` from 2019-08-08 to 2020-05-20.
        "--output-dir" | "--output-directory" => Takes::SplitOutput,
        // `--output-type` named the output's format from 2019-06-21 to 2019-07-31 (now `-o`).
        "-o" | "--output" | "--output-type" | "--allow-symlink-destination" => Takes::Ignored,
        _ => return None,
    })
}

/// Boolean flags that change the evaluation (kept), and those that do not (dropped).
const KEPT: [&str; 4] = [
    "--ignore-unknown-comments",
    "--implicit-map-key-overrides",
    "--strict",
    "--dangerous-data-values-disable-validation",
];
const DROPPED: [&str; 9] = [
    // `-R`/`--recursive` ("interpret file as directory") did nothing; removed 2019-08-15.
    "-R",
    "--recursive",
    // Schemas behind a flag from 2020-10-06 to 2021-07-05; always on since.
    "--enable-experiment-schema",
    "--debug",
    "--inspect",
    "--inspect-files",
    "--dangerous-allow-all-symlink-destinations",
    "--output-disable-validation",
    "--openapi-validations",
];

/// Reads the arguments after `ytt`.
pub fn parse(args: &[Word]) -> Command {
    let mut out = YttArgs::default();
    let mut i = 0;
    let mut subcommand = false;
    if let Some(first) = args.first().and_then(Word::literal) {
        match first.as_str() {
            "template" | "t" | "tpl" => {
                i = 1;
                subcommand = true;
            }
            "version" | "help" | "fmt" | "completion" | "website" => {
                return Command::Other(format!("`ytt {first}` renders nothing"))
            }
            _ => {}
        }
    }
    while let Some(arg) = args.get(i) {
        i += 1;
        let Some(text) = arg.literal() else {
            // `--data-value-yaml=$X`: the flag is literal, the value not.
            if let Some((flag, value)) = arg.split_once('=') {
                if let Some(flag) = flag.literal().filter(|f| f.starts_with('-')) {
                    if let Some(t) = takes(&flag) {
                        take(&mut out, t, value);
                        continue;
                    }
                }
            }
            out.unknown.push(arg.clone());
            continue;
        };
        match text.as_str() {
            "-h" | "--help" | "--version" => return Command::Other(format!("`ytt {text}`")),
            "-s" => out.flags.push("--strict".into()),
            "--data-values-inspect" => {
                out.inspect = true;
                out.prints_values = true;
            }
            "--data-values-schema-inspect" => out.inspect = true,
            t if KEPT.contains(&t) => out.flags.push(t.to_string()),
            t if DROPPED.contains(&t) => {}
            t if t.starts_with("--") && t.contains('=') => {
                let (flag, value) = t.split_once('=').unwrap_or((t, ""));
                match takes(flag) {
                    Some(kind) => take(
                        &mut out,
                        kind,
                        arg.strip_prefix(&format!("{flag}="))
                            .unwrap_or_else(|| Word::lit(value)),
                    ),
                    None if KEPT.contains(&flag) && value == "true" => out.flags.push(flag.into()),
                    None if DROPPED.contains(&flag) || value == "false" => {}
                    None if is_unknown_long(flag) => out.unknown_flags.push(t.to_string()),
                    None => return Command::Unreadable(format!("unknown ytt flag `{flag}`")),
                }
            }
            t if t.starts_with('-') && t.len() > 1 => {
                // `-fconfig` is `-f config`, as ytt's flag parser reads it.
                let (flag, glued) = match t.get(..2).and_then(takes) {
                    Some(_) if !t.starts_with("--") && t.len() > 2 => (&t[..2], Some(&t[2..])),
                    _ => (t, None),
                };
                let Some(kind) = takes(flag) else {
                    if let Some(r) = old_flag(t) {
                        return Command::Unreadable(r);
                    }
                    if !is_unknown_long(t) {
                        return Command::Unreadable(format!("unknown ytt flag `{t}`"));
                    }
                    // ytt takes no positional argument: a word after the flag that is no flag
                    // is its value.
                    let value = args.get(i).filter(|v| !v.literal_prefix().starts_with('-'));
                    let shown = match value {
                        Some(v) => {
                            i += 1;
                            format!("{t} {v}")
                        }
                        None => t.to_string(),
                    };
                    out.unknown_flags.push(shown);
                    continue;
                };
                let value = match glued {
                    Some(g) => Word::lit(g.trim_start_matches('=')),
                    None => match args.get(i) {
                        Some(v) => {
                            i += 1;
                            v.clone()
                        }
                        None => return Command::Unreadable(format!("flag `{t}` has no value")),
                    },
                };
                take(&mut out, kind, value);
            }
            // Global flags may come before the subcommand (`ytt --ignore-unknown-comments
            // template -f ...`), as ytt's command-line parser allows.
            "template" | "t" | "tpl" if !subcommand && out.files.is_empty() => subcommand = true,
            _ => {
                return Command::Unreadable(format!(
                    "unexpected argument `{text}` (ytt takes its files with -f)"
                ))
            }
        }
    }
    if out.files.is_empty() && out.unknown.is_empty() {
        return Command::Other("no -f input".into());
    }
    Command::Render(Box::new(out))
}

/// A long flag (`--name`) that no ytt version knows: not one of ytt's old flags whose
/// meaning the linter cannot model (see [`old_flag`]).
fn is_unknown_long(flag: &str) -> bool {
    flag.starts_with("--") && flag.len() > 2 && old_flag(flag).is_none()
}

/// Why a flag ytt knows, or knew, makes the command unreadable: it changes what the command
/// does in a way the linter does not model.
fn old_flag(flag: &str) -> Option<String> {
    let name = flag.split_once('=').map_or(flag, |(n, _)| n);
    let what = match name {
        "--filter-template-file" => {
            "ytt's old flag `--filter-template-file` (which files are templates; replaced by \
             `--file-mark` in 2019)"
        }
        "--files-inspect" => "`--files-inspect` (lists the files, renders nothing)",
        "--bulk-in" | "--bulk-out" => "ytt's `--bulk-in`/`--bulk-out` (files as JSON)",
        _ => return None,
    };
    Some(format!("{what} is not read"))
}

fn take(out: &mut YttArgs, kind: Takes, value: Word) {
    match kind {
        Takes::File => out.files.push(value),
        Takes::ValuesFile => out.values_files.push(value),
        Takes::Value(k) => match value.split_once('=') {
            Some((key, v)) => out.values.push((k, key, v)),
            // `-v $KV`: the whole pair is unknown; the key with it.
            None => out.values.push((k, value, Word::default())),
        },
        Takes::ValueFile => match value.split_once('=') {
            Some((key, path)) => out.value_files.push((key, path)),
            None => out.value_files.push((value, Word::default())),
        },
        Takes::Env => out.env_prefixes.push(value),
        Takes::FileMark => out.file_marks.push(value),
        Takes::SplitOutput => {
            out.split_output = true;
            out.output_dir = Some(value);
        }
        Takes::Ignored => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace()
            .map(|w| {
                if let Some(u) = w.strip_prefix('%') {
                    Word::unknown(u)
                } else {
                    Word::lit(w)
                }
            })
            .collect()
    }

    #[test]
    fn reads_inputs_values_and_flags() {
        let Command::Render(a) = parse(&words(
            "-f config --file=values.yml -fother -v a.b=1 --data-value-yaml n=2 \
             --data-values-file @lib:+:v.yml --ignore-unknown-comments -o json --debug -s",
        )) else {
            panic!()
        };
        let files: Vec<String> = a.files.iter().map(|w| w.to_string()).collect();
        assert_eq!(files, vec!["config", "values.yml", "other"]);
        assert_eq!(a.values.len(), 2);
        assert_eq!(a.values[1].0, ValueKind::Yaml);
        assert_eq!(a.values_files[0].to_string(), "@lib:+:v.yml");
        assert_eq!(a.flags, vec!["--ignore-unknown-comments", "--strict"]);
    }

    #[test]
    fn unknown_values_and_non_renders() {
        let mut args = words("-f c -v");
        let mut kv = Word::lit("dev.version=");
        kv.0.push(super::super::word::Piece::Unknown("$V".into()));
        args.push(kv);
        let Command::Render(a) = parse(&args) else {
            panic!()
        };
        assert_eq!(a.values[0].2.literal(), None);
        assert!(matches!(parse(&words("version")), Command::Other(_)));
        assert!(matches!(parse(&words("--version")), Command::Other(_)));
        assert!(matches!(parse(&words("-f a -n")), Command::Unreadable(_)));
        assert!(matches!(
            parse(&words("-f a --filter-template-file x.yml")),
            Command::Unreadable(_)
        ));
        assert!(matches!(parse(&words("-f %$ARGS")), Command::Render(_)));
        let Command::Render(a) = parse(&words("-f a %${ARGS[@]}")) else {
            panic!()
        };
        assert_eq!(a.unknown.len(), 1);
        assert!(matches!(parse(&words("-o json")), Command::Other(_)));
    }

    #[test]
    fn global_flags_may_come_before_the_subcommand() {
        let Command::Render(a) = parse(&words("--ignore-unknown-comments template -f config"))
        else {
            panic!()
        };
        assert_eq!(a.files[0].to_string(), "config");
        assert_eq!(a.flags, vec!["--ignore-unknown-comments"]);
        // Once, and before any input.
        assert!(matches!(
            parse(&words("template -f a template")),
            Command::Unreadable(_)
        ));
        assert!(matches!(
            parse(&words("-f a template")),
            Command::Unreadable(_)
        ));
    }

    #[test]
    fn old_flags_are_read_as_they_were_and_unknown_ones_are_kept_aside() {
        for old in ["--output-directory tmp/", "--output-dir=tmp/"] {
            let Command::Render(a) = parse(&words(&format!("-f a {old} -R --output-type json")))
            else {
                panic!("{old}")
            };
            assert!(a.split_output, "{old}");
            assert_eq!(a.output_dir.map(|w| w.to_string()).as_deref(), Some("tmp/"));
            assert!(a.unknown_flags.is_empty(), "{old}");
        }
        let Command::Render(a) = parse(&words("-f a --colour never --quiet -f b --x=1")) else {
            panic!()
        };
        assert_eq!(a.unknown_flags, vec!["--colour never", "--quiet", "--x=1"]);
        let files: Vec<String> = a.files.iter().map(|w| w.to_string()).collect();
        assert_eq!(files, vec!["a", "b"]);
    }
}
