//! A YAML syntax error in a file that holds another tool's template syntax (`{{ .x }}`,
//! `{{{ .x }}}` outside `#@` and `#!` lines): is it ytt's failure, or does that tool render the
//! file before ytt reads it? Where the command is certain (a script, Makefile recipe,
//! Taskfile task or CI job runs it, nothing about it is assumed) and no step of it renders the
//! file first (a renderer earlier on the command's line or in a pipe into it, a step that
//! rewrites the file before it), ytt reads the file as committed and fails: the error stands,
//! as ytt reports it (round nine's LA-7: `ytt --file package/config | kbld -f -` on a
//! directory that vendors a Helm chart's `templates/`). Otherwise the error assumes another
//! tool renders the file (an `other-template` assumption: a note). The same holds for ytt's
//! own text-template directives (`(@ … @)`) in a `.yaml` file, which a command marks
//! `type=text-template` to render it as text (round twenty's R20-2), and for ERB's markup
//! (`<%= … %>`, `%` lines: [`super::erb_markup`]), which a program renders with ERB before
//! ytt reads the output (round fifty-three's R53-1).

use crate::lint::job::Job;
use crate::report::{
    Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Rule, Source, Subject,
};

/// Tools that render templates into YAML (a word of a command's line before its `ytt`, or of
/// a step that writes the file).
const RENDERERS: [&str; 14] = [
    "helm",
    "gomplate",
    "envsubst",
    "jinja2",
    "j2",
    "consul-template",
    "mustache",
    "tera",
    "gucci",
    "esh",
    "sigil",
    "render",
    "tpl",
    "spruce",
];

/// Sets the `other-template` assumption on `d` (a `yaml-syntax` finding in a file holding
/// `{{ }}` outside ytt's lines) unless the job's command certainly reads the file as committed.
/// `read` gives a repository file's text.
pub fn other_template(job: &Job, d: &mut Diagnostic, read: &dyn Fn(&str) -> Option<String>) {
    if d.rule != Rule::YamlSyntax {
        return;
    }
    let Some(file) = d.span.as_ref().map(|s| s.file.clone()) else {
        return;
    };
    let Some(text) = read(&file) else {
        return;
    };
    let go_template = holds_other_template(&text);
    let erb = !go_template && super::erb_markup::holds_erb(&text);
    let text_template = !go_template && !erb && holds_text_template(&text);
    let line = d.span.as_ref().map_or(0, |s| s.line as usize);
    let shell = !go_template && !erb && !text_template && shell_expanded(&text, line);
    if !go_template && !erb && !text_template && !shell {
        return;
    }
    if reads_as_committed(job, &file, read) {
        // ytt's own failure under the command: said with the command that meets it.
        if let Some(p) = job.provenance.as_ref() {
            d.basis = Some(Basis::Command);
            d.certainty = Some(p.certainty(Basis::Command));
        }
        return;
    }
    let mut p = job
        .provenance
        .clone()
        .unwrap_or_else(|| Provenance::of(Source::Layout, None));
    let said = if shell {
        format!(
            "{file} holds the shell's expansions (`$(…)`, `${{…}}`) where its YAML breaks: a \
             script expands it (a here-document) before ytt reads it"
        )
    } else if erb {
        format!(
            "{file} holds ERB's markup (`<% … %>` tags, `%` lines of Ruby): ERB renders it \
             before ytt reads the output"
        )
    } else if text_template {
        format!(
            "{file} holds ytt's text-template directives (`(@ … @)`) outside `#@` lines: a \
             command marks it `type=text-template`"
        )
    } else {
        format!(
            "{file} holds another tool's template syntax (`{{{{ }}}}`): that tool renders it before ytt reads it"
        )
    };
    p.assume(Assumption::new(AssumptionKind::OtherTemplate, said));
    d.basis = Some(Basis::Command);
    d.certainty = Some(p.certainty(Basis::Command));
}

/// Whether `text` has ytt's text-template directives (`(@ if x: @)`, `(@= v @)`) outside
/// `#@` and `#!` lines: a text template named `.yaml`, which fails as YAML unless a command
/// marks it `type=text-template`.
fn holds_text_template(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        !t.starts_with("#@") && !t.starts_with("#!") && t.contains("(@") && t.contains("@)")
    })
}

/// Whether the line `line` (1-based) of `text` where the YAML breaks, or the last line before it
/// that is neither blank nor a comment, holds a shell expansion (`$(sed … < "$CA_FILE")`,
/// `${HOST}`) outside ytt's own lines: the text is a shell here-document's body, which a script
/// expands before ytt reads the result (round twenty-seven's R27-1:
/// `( echo "cat <<EOF >out.yaml"; cat template.yaml; echo EOF ) > tmp; . tmp`). The parser
/// reports a break after the blank lines that follow the expansion (round thirty-five's R35-1).
fn shell_expanded(text: &str, line: usize) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let expands = |l: &str| {
        let t = l.trim_start();
        !t.starts_with("#@") && !t.starts_with("#!") && (t.contains("$(") || t.contains("${"))
    };
    let Some(at) = line.checked_sub(1).filter(|&i| i <= lines.len()) else {
        return false;
    };
    if lines.get(at).is_some_and(|l| expands(l)) {
        return true;
    }
    lines[..at]
        .iter()
        .rev()
        .find(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .is_some_and(|l| expands(l))
}

/// Whether `text` has another tool's template syntax outside ytt's own lines.
fn holds_other_template(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        !t.starts_with("#@") && !t.starts_with("#!") && t.contains("{{") && t.contains("}}")
    })
}

/// Whether the job's command certainly gives ytt `file` as committed: a script, Makefile,
/// Taskfile or CI job runs it, discovery assumed nothing about the command, and no step of it
/// renders the file first.
fn reads_as_committed(job: &Job, file: &str, read: &dyn Fn(&str) -> Option<String>) -> bool {
    let Some(p) = job.provenance.as_ref() else {
        return false;
    };
    if !matches!(
        p.source,
        Source::Script | Source::Makefile | Source::Taskfile | Source::Ci
    ) {
        return false;
    }
    // An inferred or wrapped command, an input from a pipe (`helm template … | ytt -f - …`), a
    // bound argument, an edit of the file before the command: the file may be rendered first.
    let doubted = p.assumptions.iter().any(|a| {
        a.kind.about_command()
            || a.kind == AssumptionKind::BoundArgument
            || (a.kind == AssumptionKind::ChangedAtRunTime
                && matches!(&a.subject, Some(Subject::Rewritten { file: f, .. }) if f == file))
    });
    if doubted {
        return false;
    }
    let Some(origin) = job.origin.as_ref() else {
        return false;
    };
    let Some(script) = read(&origin.file) else {
        return false;
    };
    // A script that is itself another tool's template, or sources one (`source ../setup.sh`
    // holding `{{{ .env.domain }}}`), runs only once that tool has rendered its tree, the
    // file included.
    // (Task's own `{{.VAR}}` and a workflow's `${{ }}` are their runner's, filled in as the
    // command runs: only a shell script's text counts.)
    let own = p.source == Source::Script && holds_other_template(&script);
    if own || sources_a_template(&origin.file, &script, read) {
        return false;
    }
    let lines: Vec<&str> = script.lines().collect();
    let at = origin.line as usize;
    if at == 0 || at > lines.len() {
        return false;
    }
    !renders_before(&lines, at - 1) && !earlier_step_renders(&lines, at - 1, file)
}

/// Whether the script at `path` sources a file (`source ../setup.sh`, `. ./env.sh`, from the
/// script's directory) that holds another tool's template syntax.
fn sources_a_template(path: &str, script: &str, read: &dyn Fn(&str) -> Option<String>) -> bool {
    let dir = crate::files::paths::parent(path);
    script.lines().any(|l| {
        let mut words = l.split_whitespace();
        let (Some("source" | "."), Some(target)) = (words.next(), words.next()) else {
            return false;
        };
        let target = target.trim_matches(|c| c == '"' || c == '\'');
        if target.contains('$') || target.starts_with('/') {
            return false;
        }
        let joined = crate::files::paths::join(dir, target);
        normalized(&joined)
            .and_then(|p| read(&p))
            .is_some_and(|t| holds_other_template(&t))
    })
}

/// A repository path without `.` and `..` segments (`None` when it leaves the repository).
fn normalized(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// Whether the command at `lines[at]` (with its continuation lines) runs a renderer before its
/// `ytt`: `helm template … | ytt -f - …`, `envsubst < a.yml > b.yml && ytt -f b.yml`.
fn renders_before(lines: &[&str], at: usize) -> bool {
    let mut first = at;
    while first > 0 && lines[first - 1].trim_end().ends_with('\\') {
        first -= 1;
    }
    let mut words: Vec<&str> = Vec::new();
    for line in &lines[first..] {
        for w in line.split(|c: char| c.is_whitespace() || "|;&()`$\"'".contains(c)) {
            if w.is_empty() {
                continue;
            }
            if tool_name(w) == "ytt" {
                return words.iter().any(|w| is_renderer(w));
            }
            words.push(w);
        }
        if !line.trim_end().ends_with('\\') {
            break;
        }
    }
    false
}

/// Whether a line before `at` runs a renderer that writes to `file` or to a directory that
/// holds it (`gomplate -f x.yaml -o x.yaml`, `helm template chart --output-dir chart/templates`,
/// `envsubst < t > templates/x.yaml`): named by the file's name or its directory's.
fn earlier_step_renders(lines: &[&str], at: usize, file: &str) -> bool {
    let mut parts = file.rsplit('/');
    let name = parts.next().unwrap_or(file);
    let dir = parts.next();
    lines[..at].iter().any(|line| {
        let writes = line.contains('>')
            || line.contains(" -o ")
            || line.contains("--out")
            || line.contains(" -i ")
            || line.contains("--in-place")
            || line.contains("sponge")
            || line.contains(" mv ");
        let named = line.contains(name) || dir.is_some_and(|d| line.contains(d));
        writes
            && named
            && line
                .split(|c: char| c.is_whitespace() || "|;&()`$\"'".contains(c))
                .any(is_renderer)
    })
}

/// A command word's tool name (`/usr/local/bin/helm` is `helm`).
fn tool_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn is_renderer(word: &str) -> bool {
    RENDERERS.contains(&tool_name(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_renderer_in_front_of_the_command_renders_its_files() {
        let lines = ["helm template c chart \\", "  | ytt -f - -f config"];
        assert!(renders_before(&lines, 0));
        assert!(renders_before(&lines, 1));
        let lines = ["ytt --file package/config | kbld -f -"];
        assert!(!renders_before(&lines, 0));
        let lines = ["envsubst < a.tpl > config/a.yml && ytt -f config"];
        assert!(renders_before(&lines, 0));
    }

    #[test]
    fn an_earlier_step_that_writes_the_file_renders_it() {
        let file = "config/chart/templates/role.yaml";
        let lines = [
            "gomplate -f config/chart/templates/role.yaml -o config/chart/templates/role.yaml",
            "ytt -f config",
        ];
        assert!(earlier_step_renders(&lines, 1, file));
        // Printed to standard output, the chart's files stay as they are.
        let lines = [
            "helm template c config/chart/templates | kubeconform",
            "ytt -f config",
        ];
        assert!(!earlier_step_renders(&lines, 1, file));
        // A later step does not count.
        let lines = ["ytt -f config", "gomplate -f templates/role.yaml -o x.yaml"];
        assert!(!earlier_step_renders(&lines, 0, file));
    }

    #[test]
    fn a_script_that_sources_a_template_runs_in_a_rendered_tree() {
        let read = |p: &str| match p {
            "templates/setup.sh" => Some("export DOMAIN=\"{{{ .env.domain }}}\"\n".to_string()),
            "templates/plain.sh" => Some("export DOMAIN=example.org\n".to_string()),
            _ => None,
        };
        let script = "#!/bin/bash\nsource ../setup.sh\nytt -f templates\n";
        assert!(sources_a_template("templates/app/deploy.sh", script, &read));
        let script = "#!/bin/bash\n. \"../plain.sh\"\nytt -f templates\n";
        assert!(!sources_a_template(
            "templates/app/deploy.sh",
            script,
            &read
        ));
        assert_eq!(normalized("a/../../b"), None);
        assert_eq!(normalized("a/./b/../c").as_deref(), Some("a/c"));
    }

    #[test]
    fn only_text_outside_ytt_lines_is_another_template() {
        assert!(holds_other_template("kind: X\n{{- if .Values.x }}\n"));
        assert!(!holds_other_template("#@ x = \"{{ a }}\"\nkind: X\n"));
    }

    #[test]
    fn a_shell_expansion_at_or_just_before_the_broken_line_is_the_shell_s() {
        let text = "a:\n  ca: |\n$(sed 's/^/  /' < ca.pem)\nb: 1\n";
        assert!(shell_expanded(text, 4));
        assert!(shell_expanded(text, 3));
        assert!(!shell_expanded(text, 2));
        assert!(!shell_expanded("#@ x = \"$(y)\"\nb: 1\n", 2));
        assert!(!shell_expanded(text, 99) && !shell_expanded(text, 0));
        // Blank and comment lines after the expansion move the reported break down.
        let text = "a:\n  ca: |\n$(sed 's/^/  /' < ca.pem)\n\n# the mode\nmode: x\n";
        assert!(shell_expanded(text, 6));
        assert!(!shell_expanded(
            "a:\n  ca: |\n$(cat ca.pem)\nb: 1\n\nc: [\n",
            6
        ));
    }
}
