//! The job summary of a GitHub Actions run (`$GITHUB_STEP_SUMMARY`), written when GitHub cannot
//! show every finding as an annotation ([`super::github::hidden`]): a Markdown table of the
//! findings by rule, then one row per finding, most severe first, in natural order of file and
//! line (`r2` before `r10`), each place linked to the file and line at the commit linted when
//! the run knows it ([`RenderOptions::blob_base`]).
//!
//! GitHub refuses a summary of more than 1 MiB. The summary stays under [`MAX_BYTES`], counted
//! in bytes: the rows that fit, then `and M more: see the SARIF or JSON report` (27 000
//! findings took 3.08 MB, about 114 bytes a row).

use std::fmt::Write;

use super::diagnostic::{Diagnostic, Report};
use super::location::{origin, position};
use super::options::RenderOptions;
use super::terminal::{printable, summary};

/// The most bytes a summary takes: GitHub's limit (1 MiB) less room for its own framing.
pub const MAX_BYTES: usize = (1 << 20) - 4096;

/// The Markdown summary, or `None` when GitHub shows every finding as an annotation.
pub fn render(report: &Report, options: &RenderOptions) -> Option<String> {
    if super::github::hidden(report) == 0 {
        return None;
    }
    let mut by_rule: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
    for d in &report.diagnostics {
        let counts = by_rule.entry(d.rule.id()).or_default();
        counts[2 - d.severity as usize] += 1;
    }
    let mut out = format!("## yttlint: {}\n\n", summary(report));
    out.push_str("| rule | errors | warnings | info |\n|---|---:|---:|---:|\n");
    for (rule, [e, w, i]) in &by_rule {
        let _ = writeln!(out, "| `{rule}` | {e} | {w} | {i} |");
    }
    out.push_str("\n| severity | rule | where | message |\n|---|---|---|---|\n");
    let rows = ordered(report);
    for (n, d) in rows.iter().enumerate() {
        let row = row(d, options);
        // Room for the last line, whatever it says.
        if out.len() + row.len() + 200 > MAX_BYTES {
            let more = rows.len() - n;
            let _ = writeln!(
                out,
                "\nand {more} more: see the SARIF or JSON report (the summary stops before GitHub's limit of 1 MiB)"
            );
            break;
        }
        out.push_str(&row);
    }
    Some(out)
}

/// The findings most severe first, then by file and line in natural order.
fn ordered(report: &Report) -> Vec<&Diagnostic> {
    let mut rows: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    let place = |d: &Diagnostic| {
        d.span
            .as_ref()
            .map(|s| (s.file.clone(), s.line, s.column))
            .unwrap_or_else(|| (origin(d).unwrap_or_default(), 0, 0))
    };
    rows.sort_by(|a, b| {
        let (fa, la, ca) = place(a);
        let (fb, lb, cb) = place(b);
        b.severity
            .cmp(&a.severity)
            .then_with(|| super::natural::cmp(&fa, &fb))
            .then(la.cmp(&lb))
            .then(ca.cmp(&cb))
    });
    rows
}

/// One finding's row: severity, rule, where (linked), first line of the message.
fn row(d: &Diagnostic, options: &RenderOptions) -> String {
    let at = match &d.span {
        Some(span) => {
            let file = options.checkout_path(&span.file);
            let text = cell(&position(&super::diagnostic::Span {
                file: file.clone(),
                ..span.clone()
            }));
            match &options.blob_base {
                Some(base) => format!("[{text}]({base}{}#L{})", url_path(&file), span.line),
                None => text,
            }
        }
        None => cell(&origin(d).unwrap_or_default()),
    };
    format!(
        "| {} | `{}` | {at} | {} |\n",
        d.severity.as_str(),
        d.rule,
        cell(d.summary())
    )
}

/// A repository path in a URL: each byte outside RFC 3986's unreserved characters and `/`
/// percent-encoded.
fn url_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Text that reads as itself in a Markdown table cell: every ASCII punctuation character
/// backslash-escaped (a message quotes the repository's text, which may hold a link, an image
/// that would be fetched when the page is shown, or HTML), `&` and `<` as entities, one line.
fn cell(text: &str) -> String {
    let mut out = String::new();
    for c in printable(text, "").chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The base of the links to files at the commit linted, from GitHub's variables
/// (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`, `GITHUB_SHA`): `None` unless each has the shape
/// GitHub gives it (an https URL, `owner/name`, a hexadecimal commit id), so that no other
/// value of the environment reaches the summary.
pub fn blob_base(env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let server = env("GITHUB_SERVER_URL")?;
    let repository = env("GITHUB_REPOSITORY")?;
    let sha = env("GITHUB_SHA")?;
    let host = server.strip_prefix("https://")?;
    let plain = |s: &str, extra: &[char]| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c) || extra.contains(&c))
    };
    let (owner, name) = repository.split_once('/')?;
    let ok = plain(host, &[':'])
        && plain(owner, &[])
        && plain(name, &[])
        && matches!(sha.len(), 40 | 64)
        && sha.chars().all(|c| c.is_ascii_hexdigit());
    ok.then(|| format!("{server}/{repository}/blob/{sha}/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Rule, Severity, Span};

    fn finding(file: &str, line: u32, severity: Severity) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::TemplateError, format!("at {line}"))
            .at(Span::point(file, line, 1));
        d.severity = severity;
        d
    }

    #[test]
    fn markdown_in_a_message_reads_as_text_in_the_summary() {
        assert_eq!(
            cell("![x](https://t.example/p.png) <img src=y> | *a*_b_ & `c`\nd"),
            r"\!\[x\]\(https\:\/\/t\.example\/p\.png\) &lt;img src\=y\> \| \*a\*\_b\_ &amp; \`c\` d"
        );
    }

    #[test]
    fn rows_in_natural_order_linked_to_the_commit() {
        let mut report = Report::default();
        for i in [10, 2, 1, 11] {
            report
                .diagnostics
                .push(finding(&format!("r{i}/t.yml"), 3, Severity::Error));
        }
        for i in 0..11 {
            report
                .diagnostics
                .push(finding("w b.yml", i + 1, Severity::Warning));
        }
        let options = RenderOptions {
            blob_base: Some("https://github.com/o/r/blob/abc/".into()),
            checkout_prefix: "deploy/".into(),
            ..RenderOptions::default()
        };
        let md = render(&report, &options).unwrap();
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| error |")).collect();
        assert_eq!(
            rows[..2],
            [
                r"| error | `template-error` | [deploy\/r1\/t\.yml\:3\:1](https://github.com/o/r/blob/abc/deploy/r1/t.yml#L3) | at 3 |",
                r"| error | `template-error` | [deploy\/r2\/t\.yml\:3\:1](https://github.com/o/r/blob/abc/deploy/r2/t.yml#L3) | at 3 |",
            ]
        );
        assert!(
            md.contains("(https://github.com/o/r/blob/abc/deploy/w%20b.yml#L10)"),
            "{md}"
        );
        report.diagnostics.truncate(10);
        assert_eq!(render(&report, &options), None);
    }

    #[test]
    fn a_summary_of_many_findings_stays_under_github_s_limit() {
        let mut report = Report::default();
        for i in 0..30_000 {
            report
                .diagnostics
                .push(finding(&format!("r{i}/t.yml"), 1, Severity::Error));
        }
        let md = render(&report, &RenderOptions::default()).unwrap();
        assert!(md.len() <= MAX_BYTES, "{}", md.len());
        let rows = md.lines().filter(|l| l.starts_with("| error |")).count();
        let last = md.lines().last().unwrap();
        assert_eq!(
            last,
            format!(
                "and {} more: see the SARIF or JSON report (the summary stops before GitHub's limit of 1 MiB)",
                30_000 - rows
            )
        );
        assert!(rows > 5_000, "{rows}");
    }

    #[test]
    fn links_only_from_variables_of_github_s_shape() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let good: &'static [(&str, &str)] = &[
            ("GITHUB_SERVER_URL", "https://github.com"),
            ("GITHUB_REPOSITORY", "o/r.x"),
            ("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567"),
        ];
        assert_eq!(
            blob_base(&env(good)),
            Some(format!("https://github.com/o/r.x/blob/{sha}/"))
        );
        let secret: &'static [(&str, &str)] = &[
            ("GITHUB_SERVER_URL", "https://github.com"),
            ("GITHUB_REPOSITORY", "o/ghp_token?x=1"),
            ("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567"),
        ];
        assert_eq!(blob_base(&env(secret)), None);
        assert_eq!(blob_base(&env(&[])), None);
    }
}
