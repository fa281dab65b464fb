//! `assumes:` of a root or scenario in `.yttlint.yaml`: what its command rests on that nobody
//! confirmed, one `KIND: what` entry each, in the words and with the kind ids the reports use
//! (`inferred-command: "the command `ytt -f config`, inferred from the layout: …"`). `yttlint
//! init` writes them from discovery, so that linting with the file it writes is as sure, and
//! as unsure, as linting without it; deleting an entry confirms it.

use crate::lint::config::parse::Reader;
use crate::lint::config::ConfigError;
use crate::pos::Pos;
use crate::report::{Assumption, AssumptionKind, Subject};
use crate::yaml::{scalar_key_string, Value};

impl Reader<'_> {
    /// `package: FILE:LINE`, the file a repository path that exists.
    pub(super) fn package(&self, v: &Value, pos: &Pos) -> Result<String, ConfigError> {
        let text = self.string(v, pos, "package")?;
        let Some((file, line)) = text
            .rsplit_once(':')
            .filter(|(_, l)| l.parse::<u32>().is_ok_and(|n| n > 0))
        else {
            return Err(self.error(
                pos,
                format!("expected FILE:LINE for package (the Package's place), found \"{text}\""),
            ));
        };
        let file = self.existing_path(&Value::String(file.to_string()), pos, "package")?;
        Ok(format!("{file}:{line}"))
    }

    /// The list of `KIND: what` maps at `v`.
    pub(super) fn assumes(&self, v: &Value, pos: &Pos) -> Result<Vec<Assumption>, ConfigError> {
        let mut out: Vec<Assumption> = Vec::new();
        for (item, ipos) in self.list(v, pos, "assumes")? {
            let m = self.map(item, ipos, "an item of assumes (KIND: what is assumed)")?;
            // `about:` beside the kind: what the assumption is about, as `init` writes it.
            let (entries, about): (Vec<_>, Vec<_>) = m
                .items
                .iter()
                .partition(|i| scalar_key_string(&i.key) != "about");
            let ([entry], [] | [_]) = (entries.as_slice(), about.as_slice()) else {
                return Err(self.error(
                    ipos,
                    format!(
                        "an item of assumes is one `KIND: what is assumed` (and its `about:`), \
                         found {} keys",
                        m.items.len()
                    ),
                ));
            };
            let subject = match about.first() {
                Some(a) => Some(self.subject(&a.value, &a.pos)?),
                None => None,
            };
            let id = scalar_key_string(&entry.key);
            let Some(kind) = AssumptionKind::from_id(&id) else {
                let ids: Vec<&str> = AssumptionKind::ALL.iter().map(|k| k.id()).collect();
                return Err(self.error(
                    &entry.pos,
                    format!(
                        "unknown kind of assumption \"{id}\"; expected one of: {}",
                        ids.join(", ")
                    ),
                ));
            };
            let message = self.string(&entry.value, &entry.pos, &format!("assumes.{id}"))?;
            let mut a = Assumption::new(kind, message);
            a.subject = subject;
            if !out.contains(&a) {
                out.push(a);
            }
        }
        Ok(out)
    }
}

impl Reader<'_> {
    /// `about:` of an assumption: `{is: stand-in, example: FILE, copy: WHAT}` and the like.
    fn subject(&self, v: &Value, pos: &Pos) -> Result<Subject, ConfigError> {
        let text = crate::yaml::json::value_to_json(v, 0, false).unwrap_or_default();
        serde_json::from_str(&text).map_err(|e| {
            self.error(
                pos,
                format!("expected what an assumption is about (as `yttlint init` writes it): {e}"),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::config::parse::parse;
    use crate::report::AssumptionKind;

    fn dir(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("yttlint-assumes-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(d.join("config")).unwrap();
        d
    }

    #[test]
    fn roots_and_scenarios_record_what_they_assume() {
        let d = dir("ok");
        let text = "roots:\n  - path: config\n    assumes:\n      - inferred-command: \"the command `ytt -f config`, inferred from the layout\"\n      - wrapper-tool: gflows renders these files\n    scenarios:\n      - name: a\n        unset_values: error\n        assumes:\n          - example-values: \"values.yml is the user's copy of values-example.yml\"\n            about: {is: stand-in, example: values-example.yml, copy: values.yml}\n";
        let c = parse(text, ".yttlint.yaml", &d).unwrap();
        let root = &c.roots[0];
        let kinds: Vec<AssumptionKind> = root.assumptions.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [AssumptionKind::InferredCommand, AssumptionKind::WrapperTool]
        );
        assert_eq!(root.assumptions[1].message, "gflows renders these files");
        let sc = &root.scenarios[0];
        assert_eq!(sc.assumptions[0].kind, AssumptionKind::ExampleValues);
        assert_eq!(sc.assumptions[0].stand_in(), Some("values-example.yml"));
        assert_eq!(sc.needs_input, Some(false));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_bad_entry_is_an_error_at_its_line() {
        let d = dir("bad");
        let unknown = "roots:\n  - path: config\n    assumes:\n      - guessed: x\n";
        let e = parse(unknown, ".yttlint.yaml", &d).unwrap_err();
        assert!(
            e.message.contains("unknown kind of assumption \"guessed\""),
            "{e}"
        );
        assert!(e.message.contains("inferred-command"), "{e}");
        assert_eq!(e.loc.map(|l| l.line), Some(4));
        let plain = "roots:\n  - path: config\n    assumes: [\"just words\"]\n";
        let e = parse(plain, ".yttlint.yaml", &d).unwrap_err();
        assert!(e.message.contains("KIND: what is assumed"), "{e}");
        let two =
            "roots:\n  - path: config\n    assumes:\n      - {placeholder: a, left-to-user: b}\n";
        let e = parse(two, ".yttlint.yaml", &d).unwrap_err();
        assert!(e.message.contains("found 2 keys"), "{e}");
        let about = "roots:\n  - path: config\n    assumes:\n      - {placeholder: a, about: {is: nothing-known}}\n";
        let e = parse(about, ".yttlint.yaml", &d).unwrap_err();
        assert!(e.message.contains("what an assumption is about"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
