//! `unknown-annotation`: annotations that no ytt feature reads. ytt accepts any name after
//! `#@` and ignores the ones it does not know, so `#@overlay/delete` or `#@schema/example`
//! silently do nothing. The parsed YAML keeps every `#@` comment on its node; an annotation
//! is a `#@name` with no space after the `@` (`#@ code` is code). In YAML templates the name
//! runs to the first space: `#@schema/nullable,schema/desc "x"` is one name ytt does not know
//! (the comma form is for text templates only). The annotations of yttlint's schema
//! extensions (`@schema/removed`) are known only while their extension is on; while it is
//! off, the finding names the extension. A name in a namespace ytt owns with one clear
//! correction is `annotation-typo`, an error: the output is not what the author wrote.

use crate::pos::Pos;
use crate::report::Diagnostic;
use crate::report::Rule;
use crate::schema::extensions::{Extension, Extensions};
use crate::schema::spell::{nearest, nearest_unique};
use crate::yaml::{Comment, DocSet, Value};

/// Every annotation name ytt (and yttlint's spec extensions) reads.
pub const KNOWN: &[&str] = &[
    "assert/validate",
    "comment",
    "data/values",
    "data/values-schema",
    "library/ref",
    "overlay/append",
    "overlay/assert",
    "overlay/insert",
    "overlay/match",
    "overlay/match-child-defaults",
    "overlay/merge",
    "overlay/remove",
    "overlay/replace",
    "schema/default",
    "schema/deprecated",
    "schema/desc",
    "schema/examples",
    "schema/nullable",
    "schema/title",
    "schema/type",
    "schema/validation",
    "schema/validation-defaults-for-strings",
    "template/code",
    "template/value",
    "yaml/map-key-override",
    "yaml/text-templated-strings",
];

/// The namespaces of ytt's own annotations: a name in one of them is meant for ytt.
const OWNED: &[&str] = &[
    "overlay", "data", "schema", "yaml", "template", "library", "text", "assert",
];

/// Annotations that only document (a schema's description, title, examples, deprecation
/// note): a typo of one of them loses documentation, not output, and stays a warning.
const DOCUMENTING: &[&str] = &[
    "schema/desc",
    "schema/title",
    "schema/examples",
    "schema/deprecated",
    "comment",
];

/// Names people reach for that are not what ytt calls the feature.
const MEANT: &[(&str, &str)] = &[
    ("overlay/delete", "overlay/remove"),
    ("overlay/add", "overlay/append"),
    ("schema/example", "schema/examples"),
    ("schema/description", "schema/desc"),
    ("schema/validate", "schema/validation"),
    ("assert/validation", "assert/validate"),
];

/// Annotations of earlier ytt versions that a later one renamed: the name, what a current
/// ytt reads instead, and the versions that read the old one. ytt 0.35.0 renamed the
/// experimental schema marker `@schema/match data_values=True` (0.31–0.34, with
/// `--enable-experiment-schema`) to `@data/values-schema` (carvel-dev/ytt 21c928d).
const RENAMED: &[(&str, &str, &str)] = &[(
    "schema/match",
    "data/values-schema",
    "ytt 0.31–0.34 read it as the schema marker",
)];

/// Whether a later ytt renamed the annotation `name` (a near name is no correction of it:
/// the message says what it became).
fn renamed(name: &str) -> bool {
    RENAMED.iter().any(|(old, _, _)| *old == name)
}

/// An annotation ytt will ignore.
#[derive(Clone, Debug, PartialEq)]
pub struct Unknown {
    pub name: String,
    pub pos: Pos,
    /// The known annotation it probably stands for.
    pub suggestion: Option<&'static str>,
    /// The yttlint extension (turned off) that reads it.
    pub extension: Option<Extension>,
    /// The name is in a namespace ytt owns and `suggestion` is its only likely correction.
    pub clear: bool,
}

/// The unknown annotations of a parsed file, in source order, with `on` the extensions
/// turned on.
pub fn find(ds: &DocSet, on: &Extensions) -> Vec<Unknown> {
    let mut out = Vec::new();
    comments(&ds.comments, &mut out);
    for doc in &ds.items {
        comments(&doc.comments, &mut out);
        value(&doc.value, &mut out);
    }
    out.retain(|u| !u.extension.is_some_and(|e| on.has(e)));
    out.sort_by_key(|u| (u.pos.line, u.pos.col));
    out
}

fn value(v: &Value, out: &mut Vec<Unknown>) {
    match v {
        Value::Map(m) => {
            comments(&m.comments, out);
            for item in &m.items {
                comments(&item.comments, out);
                value(&item.value, out);
            }
        }
        Value::Array(a) => {
            comments(&a.comments, out);
            for item in &a.items {
                comments(&item.comments, out);
                value(&item.value, out);
            }
        }
        _ => {}
    }
}

fn comments(cs: &[Comment], out: &mut Vec<Unknown>) {
    for c in cs {
        let Some(rest) = c.data.strip_prefix('@') else {
            continue;
        };
        let name = rest.split(' ').next().unwrap_or("");
        if !name.is_empty() && !KNOWN.contains(&name) {
            let extension = Extension::of_annotation(name);
            let suggestion = if extension.is_some() {
                None
            } else {
                suggestion(name)
            };
            out.push(Unknown {
                name: name.to_string(),
                pos: c.pos.clone(),
                clear: extension.is_none() && clear_correction(name).is_some(),
                suggestion: suggestion.or_else(|| correction(name)),
                extension,
            });
        }
    }
}

fn suggestion(name: &str) -> Option<&'static str> {
    // `#@@overlay/remove` reads as an annotation switched off on purpose: turning it on would
    // change what ytt renders (and attach it to whatever node follows), so nothing is
    // suggested.
    if name.contains(',') || name.starts_with('@') || renamed(name) {
        return None;
    }
    if let Some((_, meant)) = MEANT.iter().find(|(typo, _)| *typo == name) {
        return Some(meant);
    }
    let known: Vec<String> = KNOWN.iter().map(|k| k.to_string()).collect();
    let best = nearest(name, &known)?;
    KNOWN.iter().copied().find(|k| *k == best)
}

/// The one correction of a name in a namespace ytt owns, when the annotation it stands for
/// changes the output: a name people reach for, a known name with a stray trailing comma
/// (`@overlay/replace, expects=1`), or the only known name nearest to it.
fn clear_correction(name: &str) -> Option<&'static str> {
    correction(name).filter(|meant| !DOCUMENTING.contains(meant))
}

/// The one known annotation a name in a namespace ytt owns stands for (see
/// [`clear_correction`]; documenting annotations included).
pub fn correction(name: &str) -> Option<&'static str> {
    let (namespace, _) = name.split_once('/')?;
    if !OWNED.contains(&namespace) || renamed(name) {
        return None;
    }
    if let Some((_, meant)) = MEANT.iter().find(|(typo, _)| *typo == name) {
        return Some(meant);
    }
    if let Some(bare) = name.strip_suffix(',') {
        return KNOWN.iter().copied().find(|k| *k == bare);
    }
    if name.contains(',') {
        return None;
    }
    let known: Vec<String> = KNOWN.iter().map(|k| k.to_string()).collect();
    let best = nearest_unique(name, &known)?;
    KNOWN.iter().copied().find(|k| *k == best)
}

/// The finding for one unknown annotation (its span is set by the caller).
pub fn diagnostic(u: &Unknown) -> Diagnostic {
    let rule = if u.clear {
        Rule::AnnotationTypo
    } else {
        Rule::UnknownAnnotation
    };
    let mut message = format!("unknown annotation @{}: ytt ignores it", u.name);
    let renamed = RENAMED.iter().find(|(old, _, _)| *old == u.name);
    if let Some((_, now, then)) = renamed {
        message.push_str(&format!(
            " ({then}; since ytt 0.35 the schema document is marked @{now})"
        ));
    } else if let Some(e) = u.extension {
        let name = e.name();
        message.push_str(&format!(
            " (it belongs to yttlint's extension {name}: turn it on with `extensions: [{name}]` in .yttlint.yaml or `--extension {name}`)"
        ));
    } else if let Some(s) = u.suggestion.filter(|_| u.name.ends_with(',')) {
        message.push_str(&format!(
            " (a comma does not join annotations in YAML templates: write @{s})"
        ));
    } else if let Some(s) = u.suggestion {
        message.push_str(&format!(" (did you mean @{s}?)"));
    } else if u.name.contains(',') {
        message
            .push_str(" (in YAML templates a comma does not join annotations: write one per line)");
    }
    Diagnostic::new(rule, message)
}

/// The finding for an annotation that is code without its space after `#@`
/// (`key: #@data.values.x`; see [`crate::lint::job::annotation_fix`]).
pub fn code_diagnostic(u: &Unknown, code: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::UnknownAnnotation,
        format!(
            "unknown annotation @{}: ytt ignores it (code needs a space after `#@`: `#@ {code}`)",
            u.name
        ),
    )
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_annotation_a_later_ytt_renamed_says_what_it_became_and_suggests_no_near_name() {
        let u = Unknown {
            name: "schema/match".into(),
            pos: Pos::default(),
            suggestion: suggestion("schema/match").or_else(|| correction("schema/match")),
            extension: None,
            clear: false,
        };
        assert_eq!(u.suggestion, None);
        assert_eq!(
            diagnostic(&u).message,
            "unknown annotation @schema/match: ytt ignores it (ytt 0.31–0.34 read it as the \
             schema marker; since ytt 0.35 the schema document is marked @data/values-schema)"
        );
    }

    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn names(src: &str) -> Vec<(String, u32, Option<&'static str>)> {
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        find(&ds, &Extensions::default())
            .into_iter()
            .map(|u| (u.name, u.pos.line, u.suggestion))
            .collect()
    }

    #[test]
    fn typos_of_ytt_annotations_are_found_with_a_suggestion() {
        let src = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=overlay.all
---
metadata:
  #@overlay/delete
  labels: {}
  #@schema/example (\"x\", 1)
  port: 1
  #@overlay/match-child-default missing_ok=True
  spec:
    #@schema/nullable
    a: 1
items:
#@overlay/append
- 3
#@overlay/apend
- 4
";
        assert_eq!(
            names(src),
            vec![
                ("overlay/delete".into(), 5, Some("overlay/remove")),
                ("schema/example".into(), 7, Some("schema/examples")),
                (
                    "overlay/match-child-default".into(),
                    9,
                    Some("overlay/match-child-defaults")
                ),
                ("overlay/apend".into(), 16, Some("overlay/append")),
            ]
        );
    }

    #[test]
    fn an_annotation_switched_off_with_a_second_at_gets_no_suggestion() {
        let src = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nmetadata:\n  #@@overlay/remove\n  labels: {}\n";
        assert_eq!(names(src), vec![("@overlay/remove".into(), 5, None)]);
    }

    #[test]
    fn extension_annotations_are_unknown_while_their_extension_is_off() {
        let src = "#@data/values-schema\n---\n#@schema/removed \"use b\"\na: 1\nb: 2\n";
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        let off = find(&ds, &Extensions::default());
        assert_eq!(off.len(), 1);
        assert_eq!(off[0].extension, Some(Extension::Removed));
        assert_eq!(off[0].pos.line, 3);
        assert!(diagnostic(&off[0])
            .message
            .contains("yttlint's extension schema-removed"));
        let on = Extensions::from_names(&["schema-removed"]).unwrap();
        assert!(find(&ds, &on).is_empty());
        let src = "#@data/values-schema\n---\n#@schema/key-may-be-present\na: 1\n";
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        let off = find(&ds, &on);
        assert_eq!(off[0].extension, Some(Extension::KeyMayBePresent));
        assert!(diagnostic(&off[0])
            .message
            .contains("--extension schema-key-may-be-present"));
        let both = Extensions::from_names(&["schema-removed", "schema-key-may-be-present"]);
        assert!(find(&ds, &both.unwrap()).is_empty());
        let src = "#@data/values-schema\n---\nm:\n  #@schema/any-key\n  _: 1\n";
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        let off = find(&ds, &Extensions::default());
        assert_eq!(off[0].extension, Some(Extension::AnyKey));
        assert!(diagnostic(&off[0])
            .message
            .contains("--extension schema-any-key"));
        let on = Extensions::from_names(&["schema-any-key"]).unwrap();
        assert!(find(&ds, &on).is_empty());
    }

    #[test]
    fn code_comments_and_combined_names_are_read_as_ytt_does() {
        let src = "\
#! a comment with #@overlay/delete inside
#@ x = 1
#@template/code if True:
a: 1
#@ end
b: \"#@not/an-annotation\"
#@kapp/something
c: 2
#@schema/nullable,schema/nulable
d: 3
";
        assert_eq!(
            names(src),
            vec![
                ("kapp/something".into(), 7, None),
                ("schema/nullable,schema/nulable".into(), 9, None),
            ]
        );
    }

    fn clear(src: &str) -> Vec<(String, bool)> {
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        find(&ds, &Extensions::default())
            .into_iter()
            .map(|u| (u.name, u.clear))
            .collect()
    }

    #[test]
    fn typos_in_ytt_namespaces_with_one_correction_are_clear() {
        let src = "\
#@overlay/mach by=overlay.all
---
#@data/value
a: 1
#@overlay/replace, expects=1
b: []
#@overlay/delete
c: 1
#@my/anotation
d: 1
#@data.values.x
e: 1
#@schema/example \"x\"
g: 1
#@schema/nulable,schema/desc \"x\"
f: 1
";
        assert_eq!(
            clear(src),
            vec![
                ("overlay/mach".into(), true),
                ("data/value".into(), true),
                ("overlay/replace,".into(), true),
                ("overlay/delete".into(), true),
                ("my/anotation".into(), false),
                ("data.values.x".into(), false),
                ("schema/example".into(), false),
                ("schema/nulable,schema/desc".into(), false),
            ]
        );
        let ds = parse(src, &Arc::from("t.yml"), &ParseOpts::default()).unwrap();
        let found = find(&ds, &Extensions::default());
        let d = diagnostic(&found[2]);
        assert_eq!(d.rule, Rule::AnnotationTypo);
        assert!(
            d.message.contains("write @overlay/replace"),
            "{}",
            d.message
        );
        assert_eq!(diagnostic(&found[4]).rule, Rule::UnknownAnnotation);
    }
}
