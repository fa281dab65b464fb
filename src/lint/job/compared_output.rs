//! A `k8s-schema` finding of a scenario whose output nobody applies (round twenty-nine's
//! R29-2): every later command of its script that reads the file it writes only compares it
//! (`kapp tools diff`, `diff`), and no command of the repository deploys it (discovery's
//! [`Compared`], `discover/invocations/compared_output.rs`). Its objects never reach an API
//! server, so a field the server's schema refuses fails nothing: a note saying so, naming the
//! comparison. The evaluation's own findings keep their level.

use crate::lint::config::compared_output::Compared;
use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule, Severity};

/// `found`, its schema findings notes when the scenario's output is only compared.
pub fn settle(job: &Job, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let Some(c) = &job.output_compared else {
        return found;
    };
    for d in found
        .iter_mut()
        .filter(|d| d.rule == Rule::K8sSchema && d.severity > Severity::Info)
    {
        lower(d, c);
    }
    found
}

/// The finding `d` as a note naming the comparison `c`.
fn lower(d: &mut Diagnostic, c: &Compared) {
    d.severity = Severity::Info;
    d.message = format!(
        "{} (the output, `{}`, is only compared, by `{}` at {}:{}, and nothing applies it: the API server would refuse the object only if it were applied)",
        d.message, c.output, c.tool, c.file, c.line
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Span;

    #[test]
    fn a_schema_finding_of_output_only_compared_is_a_note() {
        let compared = Compared {
            file: "demo.sh".into(),
            line: 8,
            tool: "kapp tools diff".into(),
            output: "dst".into(),
        };
        let schema = Diagnostic::new(Rule::K8sSchema, "\"spec.replicas\" must be an integer")
            .at(Span::point("after.yaml", 8, 3));
        let other = Diagnostic::new(Rule::TemplateError, "boom").at(Span::point("a.yaml", 1, 1));
        let mut d = schema.clone();
        d.severity = Severity::Error;
        let mut e = other.clone();
        e.severity = Severity::Error;
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let mut job = Job::new(&config, "diff", Err("unused".to_string()));
        // Nothing compared: as they were.
        let kept = settle(&job, vec![d.clone(), e.clone()]);
        assert_eq!(kept, vec![d.clone(), e.clone()]);
        job.output_compared = Some(compared);
        let got = settle(&job, vec![d, e.clone()]);
        assert_eq!(got[0].severity, Severity::Info);
        assert!(
            got[0].message.contains("`kapp tools diff` at demo.sh:8"),
            "{}",
            got[0].message
        );
        assert_eq!(got[1], e);
    }
}
