//! The `roots:` section of `.yttlint.yaml`: each root's path and name, its ytt flags held to
//! what the repository may ask, its values files, and its scenarios with their own flags,
//! values and `unset_values` setting.

use std::path::Path;

use clap::Parser;

use crate::lint::config::parse::{loc, split_lib_ref, Reader};
use crate::lint::config::{ConfigError, RootConfig, ScenarioConfig};
use crate::pos::Pos;
use crate::report::Rule;
use crate::yaml::{scalar_key_string, Value};
use crate::ytt_flags::TemplateArgs;

const ROOT_KEYS: &[&str] = &[
    "path",
    "name",
    "scenarios",
    "args",
    "unset_values",
    "evaluate",
    "assumes",
    "package",
];

const SCENARIO_KEYS: &[&str] = &[
    "name",
    "values_files",
    "data_values",
    "args",
    "provided",
    "origin",
    "assumes",
    "unset_values",
    "stdin",
    "stdin_after",
];

impl Reader<'_> {
    pub(super) fn roots(&self, v: &Value, pos: &Pos) -> Result<Vec<RootConfig>, ConfigError> {
        let mut out: Vec<RootConfig> = Vec::new();
        for (item, ipos) in self.list(v, pos, "roots")? {
            let root = self.root(item, ipos)?;
            let name = |r: &RootConfig| r.name.clone().unwrap_or_else(|| r.path.clone());
            if out.iter().any(|r| name(r) == name(&root)) {
                return Err(self.error(ipos, format!("root \"{}\" is listed twice", name(&root))));
            }
            out.push(root);
        }
        Ok(out)
    }

    fn root(&self, v: &Value, pos: &Pos) -> Result<RootConfig, ConfigError> {
        let m = self.map(v, pos, "a root")?;
        self.keys(m, ROOT_KEYS, "a root")?;
        let mut root = RootConfig {
            loc: loc(pos).unwrap_or_default(),
            ..RootConfig::default()
        };
        // Flags' paths are relative to the root (a file root's directory).
        if let Some(item) = m.items.iter().find(|i| scalar_key_string(&i.key) == "path") {
            root.path = self.existing_path(&item.value, &item.pos, "path")?;
        }
        let root_abs = self.dir.join(&root.path);
        let base = if root_abs.is_file() {
            root_abs.parent().unwrap_or(self.dir).to_path_buf()
        } else {
            root_abs
        };
        for item in &m.items {
            let (v, ipos) = (&item.value, &item.pos);
            match scalar_key_string(&item.key).as_str() {
                "path" => {}
                "name" => root.name = Some(self.string(v, ipos, "name")?),
                "args" => root.args = self.args(v, ipos, &base)?,
                "unset_values" => root.needs_input = self.unset_values(v, ipos)?,
                "assumes" => root.assumptions = self.assumes(v, ipos)?,
                "package" => root.package = Some(self.package(v, ipos)?),
                "evaluate" => root.files_only = !self.boolean(v, ipos, "evaluate")?,
                _ => {
                    for (s, spos) in self.list(v, ipos, "scenarios")? {
                        let sc = self.scenario(s, spos, &base)?;
                        if root.scenarios.iter().any(|o| o.name == sc.name) {
                            return Err(self.error(
                                spos,
                                format!("scenario \"{}\" is defined twice", sc.name),
                            ));
                        }
                        root.scenarios.push(sc);
                    }
                }
            }
        }
        if root.path.is_empty() {
            return Err(self.error(pos, "a root needs a \"path\""));
        }
        Ok(root)
    }

    /// A path relative to the repository that must exist, normalised (`./a/` is `a`).
    pub(super) fn existing_path(
        &self,
        v: &Value,
        pos: &Pos,
        what: &str,
    ) -> Result<String, ConfigError> {
        let raw = self.string(v, pos, what)?;
        let abs = crate::files::paths::absolute(self.dir, Path::new(&raw));
        let rel = crate::files::paths::relative(self.dir, &abs)
            .ok_or_else(|| self.error(pos, format!("path \"{raw}\" is outside the repository")))?;
        if !abs.exists() {
            return Err(self.error(pos, format!("path \"{raw}\" does not exist")));
        }
        if !crate::lint::config::untrusted::inside(self.dir, &abs) {
            return Err(self.error(
                pos,
                format!("path \"{raw}\" leads outside the repository through a symlink"),
            ));
        }
        Ok(rel)
    }

    /// ytt flags whose paths are relative to `base`: parsed as `yttlint template` parses
    /// them, then held to what the repository may ask (see [`crate::lint::config::untrusted`]).
    fn args(&self, v: &Value, pos: &Pos, base: &Path) -> Result<Vec<String>, ConfigError> {
        let entries = self.strings(v, pos, "args")?;
        let args: Vec<String> = entries.iter().map(|(s, _)| s.clone()).collect();
        let parsed = TemplateArgs::try_parse_from(
            std::iter::once("template".to_string()).chain(args.iter().cloned()),
        )
        .map_err(|e| {
            let first = e
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string();
            self.error(pos, format!("invalid ytt flags: {first}"))
        })?;
        if parsed
            .files
            .iter()
            .chain(&parsed.dv_files)
            .any(|f| f == "-" || f.ends_with("=-"))
        {
            return Err(self.error(
                pos,
                "invalid ytt flags: standard input (-) is not available to the linter",
            ));
        }
        if let Err(refused) = crate::lint::config::untrusted::check_args(
            &parsed,
            &args,
            base,
            self.dir,
            self.allow_env,
        ) {
            let (at, entry) = match refused.entry.and_then(|i| entries.get(i)) {
                Some((text, epos)) => (epos, format!(" \"{text}\"")),
                None => (pos, String::new()),
            };
            return Err(self.error(
                at,
                format!("args entry{entry} refused: {}", refused.message),
            ));
        }
        Ok(args)
    }

    fn scenario(&self, v: &Value, pos: &Pos, base: &Path) -> Result<ScenarioConfig, ConfigError> {
        let m = self.map(v, pos, "a scenario")?;
        self.keys(m, SCENARIO_KEYS, "a scenario")?;
        let mut sc = ScenarioConfig {
            loc: loc(pos).unwrap_or_default(),
            ..ScenarioConfig::default()
        };
        let mut stdin_after = None;
        for item in &m.items {
            let (v, ipos) = (&item.value, &item.pos);
            match scalar_key_string(&item.key).as_str() {
                "name" => sc.name = self.string(v, ipos, "name")?,
                "stdin_after" => stdin_after = Some((self.count(v, ipos, "stdin_after")?, ipos)),
                "args" => sc.args = self.args(v, ipos, base)?,
                "origin" => sc.origin = Some(self.string(v, ipos, "origin")?),
                "assumes" => sc.assumptions = self.assumes(v, ipos)?,
                "unset_values" => sc.needs_input = Some(self.unset_values(v, ipos)?),
                "provided" => {
                    sc.provided = self
                        .strings(v, ipos, "provided")?
                        .into_iter()
                        .map(|(s, _)| s)
                        .collect()
                }
                // The text of a literal block, which starts on the line below its key (the
                // plan names this configuration file as the text's file).
                "stdin" => {
                    let line = ipos.line.saturating_add(1);
                    sc.stdin = Some(crate::ytt_flags::stdin_text::StdinText {
                        text: self.string(v, ipos, "stdin")?,
                        file: String::new(),
                        line,
                        indent: block_indent(self.text, line),
                        after: None,
                    })
                }
                "values_files" => {
                    for (f, fpos) in self.strings(v, ipos, "values_files")? {
                        sc.values_files.push(self.values_file(&f, &fpos)?);
                    }
                }
                _ => {
                    let dv = self.map(v, ipos, "data_values")?;
                    for kv in &dv.items {
                        sc.data_values.push((
                            scalar_key_string(&kv.key),
                            kv.value.clone(),
                            loc(&kv.pos).unwrap_or_default(),
                        ));
                    }
                }
            }
        }
        if sc.name.is_empty() {
            return Err(self.error(pos, "a scenario needs a \"name\""));
        }
        // Where `-` is among the root's `-f` inputs: only with the text it reads.
        if let Some((n, at)) = stdin_after {
            match sc.stdin.take() {
                Some(text) => sc.stdin = Some(text.read_after(n)),
                None => return Err(self.error(at, "\"stdin_after\" needs a \"stdin\" block")),
            }
        }
        Ok(sc)
    }

    /// `unset_values: error | needs-input`; true for `needs-input`.
    fn unset_values(&self, v: &Value, pos: &Pos) -> Result<bool, ConfigError> {
        match v {
            Value::String(s) if s == Rule::NeedsInput.id() => Ok(true),
            Value::String(s) if s == "error" => Ok(false),
            other => Err(self.expected(pos, "unset_values", "error or needs-input", other)),
        }
    }

    /// `[@lib:][+:]path`: the prefixes are kept, the path must exist.
    fn values_file(&self, arg: &str, pos: &Pos) -> Result<String, ConfigError> {
        let (lib, rest) = split_lib_ref(arg);
        let (plus, path) = match rest.strip_prefix("+:") {
            Some(p) => ("+:", p),
            None => ("", rest),
        };
        let rel = self.existing_path(&Value::String(path.to_string()), pos, "values_files")?;
        Ok(format!("{lib}{plus}{rel}"))
    }
}

/// The indentation of a literal block whose text starts at `line` of `text`: its first line
/// that is not blank.
fn block_indent(text: &str, line: u32) -> u32 {
    let skip = usize::try_from(line.saturating_sub(1)).unwrap_or(usize::MAX);
    text.lines()
        .skip(skip)
        .find(|l| !l.trim().is_empty())
        .map_or(0, |l| {
            u32::try_from(l.len() - l.trim_start_matches(' ').len()).unwrap_or(0)
        })
}
