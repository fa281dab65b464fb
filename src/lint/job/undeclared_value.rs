//! A page's plain command that reads a data value no file declares. A README's `ytt -f tmpl/`
//! usually leaves values to its reader ("set your registry first"), so a failure for want of
//! a value is a `needs-input` note. But where the command gives no data values at all, the
//! root has no schema, and the value it stops on is declared by no data values document the
//! command reads, the command fails as the page shows it whatever is committed: ytt stops at
//! `struct has no .team field or method` (round fourteen's LR14A-1). The failure is kept,
//! resting on the assumption that the reader runs the command as shown (an `example-values`
//! assumption about the reader's values: a warning, never an error).

use crate::library::Workspace;
use crate::lint::job::model::Job;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Rule, Source, Subject};

/// Whether `d` is such a failure of a page's plain command (`keys`: the values it stops on),
/// to be kept; then it rests on the reader's running the command as shown.
pub fn keep(
    job: &Job,
    ws: &Workspace,
    d: &mut Diagnostic,
    keys: &[String],
    has_schema: &mut dyn FnMut() -> bool,
) -> bool {
    let Some(p) = job.provenance.as_ref() else {
        return false;
    };
    let plain = p.source == Source::Document
        && d.rule == Rule::TemplateError
        && d.message.contains("struct has no .")
        && !d.message.contains("assert.fail")
        && !d.message.contains("NoneType")
        && job.provided.is_empty()
        && job.flags.as_ref().is_ok_and(|f| {
            f.dv.is_empty()
                && f.dv_yaml.is_empty()
                && f.dv_file.is_empty()
                && f.dv_files.is_empty()
                && f.dv_env.is_empty()
                && f.dv_env_yaml.is_empty()
        });
    if !plain || keys.is_empty() || has_schema() {
        return false;
    }
    let Some(values) = ws.evaluated_values() else {
        return false;
    };
    if keys.iter().any(|k| declared(&values.value, k)) {
        return false;
    }
    let origin = p.origin.clone().unwrap_or_else(|| "the page".to_string());
    let names: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    let a = Assumption::new(
        AssumptionKind::ExampleValues,
        format!(
            "the reader runs {origin} as the page shows it, with no data values of their own: \
             {} is declared in no data values file the command reads",
            names.join(", ")
        ),
    )
    .about(Subject::ReadersValues);
    d.certainty = Some(Certainty {
        source: p.source,
        origin: p.origin.clone(),
        assumed: vec![a],
    });
    true
}

/// Whether the data values hold the path `key` (`a.b`) at all, null or not.
fn declared(values: &crate::yaml::Value, key: &str) -> bool {
    let mut v = values;
    for part in key.split('.').take(64) {
        let crate::yaml::Value::Map(m) = v else {
            return false;
        };
        let Some(item) = m
            .items
            .iter()
            .find(|i| matches!(&i.key, crate::yaml::Value::String(k) if k == part))
        else {
            return false;
        };
        v = &item.value;
    }
    true
}
