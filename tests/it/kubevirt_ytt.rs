//! The KubeVirt checks on a ytt root's rendered output: findings point at the template lines
//! that produced the nodes, inside the annotation's JSON when the template spells it literally.

use yttlint::files::{self, InputFile};
use yttlint::kubevirt::{lint, KvInput, Locate, Options, ANNOTATION_INVALID, RULE_VIOLATION};
use yttlint::library::{EvalOpts, ExternalValues, Workspace};
use yttlint::pos::Pos;
use yttlint::report::{Severity, Span};

const ROOT: &str = "fixtures/kubevirt/ytt-root";

/// Positions name files relative to the root; spans are repository-relative.
struct RootFiles<'a> {
    files: &'a [InputFile],
}

impl Locate for RootFiles<'_> {
    fn span(&self, pos: &Pos) -> Option<Span> {
        let file = pos.file.as_deref()?;
        pos.is_known()
            .then(|| Span::point(format!("{ROOT}/{file}"), pos.line, pos.col))
    }

    fn source(&self, pos: &Pos) -> Option<&str> {
        let file = pos.file.as_deref()?;
        self.files
            .iter()
            .find(|f| f.rel_path == file)
            .map(|f| &*f.data)
    }
}

#[test]
fn rendered_output_is_linted_at_template_lines() {
    let dir = format!("{}/{ROOT}", env!("CARGO_MANIFEST_DIR"));
    let mut no_stdin = || Err("no stdin".to_string());
    let inputs = files::collect(&[dir], &mut no_stdin).unwrap();
    let ws = Workspace::new(inputs, EvalOpts::default());
    let out = ws.evaluate(ExternalValues::default()).unwrap();
    let locate = RootFiles { files: &ws.files };
    let diags = lint(
        &[KvInput {
            file: ROOT,
            docs: &out.docs,
        }],
        &locate,
        &Options::default(),
    );
    let at = |rule: yttlint::report::Rule, needle: &str| {
        diags
            .iter()
            .find(|d| d.rule == rule && d.message.contains(needle))
            .and_then(|d| d.span.clone())
            .map(|s| (s.file, s.line, s.column))
    };
    let template = format!("{ROOT}/template.yml");
    // the missing prefix, at the path inside the literal block
    assert_eq!(
        at(ANNOTATION_INVALID, "lacks the \"jsonpath::\" prefix"),
        Some((template.clone(), 20, 19))
    );
    // the fractional quantity set by a data value, at the template line that wrote it
    let d = diags
        .iter()
        .find(|d| d.rule == RULE_VIOLATION)
        .expect("a rule violation");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.object.as_deref(), Some("VirtualMachine//vm-medium"));
    assert!(d.message.contains("\"1.5Gi\""), "{}", d.message);
    let span = d.span.clone().unwrap();
    assert_eq!((span.file, span.line), (template, 52));
    assert_eq!(d.related[0].span.line, 35);
}
