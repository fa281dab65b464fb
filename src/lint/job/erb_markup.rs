//! ERB's markup in a YAML file: `<% … %>` and `<%= … %>` tags, and the whole-line Ruby of
//! ERB's `%` trim mode (`% image = "ruby"`). A file holding it is an ERB template first:
//! a program renders it with ERB and hands the output to ytt (round fifty-three's R53-1:
//! `ERB.new(File.read("ci/pipeline.yml"), trim_mode: "%-")`, then `ytt -f` on the result), so
//! a YAML syntax error on ERB's lines is ERB's text, not ytt's failure, unless a certain
//! command gives ytt the file as committed ([`super::other_template`] decides that).

/// Whether `text` holds ERB's markup outside ytt's own `#@` and `#!` lines: a line with a
/// `<%` tag closed by `%>` on it, or a line that starts with `%` (ERB's Ruby line) and is
/// neither ERB's escaped `%%` nor one of YAML's own directives (`%YAML`, `%TAG`).
pub fn holds_erb(text: &str) -> bool {
    text.lines().any(|l| erb_tag(l) || ruby_line(l))
}

/// A `<% … %>` tag (`<%=`, `<%-`, `<%#` too) on a line that is not ytt's.
fn erb_tag(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with("#@") || t.starts_with("#!") {
        return false;
    }
    t.find("<%").is_some_and(|at| t[at + 2..].contains("%>"))
}

/// ERB's `%` line: `%` in the first column, Ruby after it. YAML's directives start with `%`
/// too, so `%YAML 1.1` and `%TAG ! tag:…` are YAML's.
fn ruby_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('%') else {
        return false;
    };
    if rest.starts_with('%') {
        return false;
    }
    let word = rest.split_whitespace().next().unwrap_or("");
    !matches!(word, "YAML" | "TAG")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erb_tags_and_ruby_lines_are_erb_s() {
        assert!(holds_erb("jobs:\n- image: <%= image %>\n"));
        assert!(holds_erb("<% if prod %>\nreplicas: 3\n<% end %>\n"));
        assert!(holds_erb("% image = \"ruby\"\n---\na: 1\n"));
        assert!(holds_erb("%- [1, 2].each do |v|\n- v\n% end\n"));
    }

    #[test]
    fn yaml_directives_ytt_lines_and_escapes_are_not() {
        assert!(!holds_erb("%YAML 1.1\n---\na: 1\n"));
        assert!(!holds_erb("%TAG ! tag:example.com,2000:\n---\na: 1\n"));
        assert!(!holds_erb("%% literal\n"));
        assert!(!holds_erb("#@ x = \"<% a %>\"\na: 1\n"));
        assert!(!holds_erb("#! % of the pods\na: '50%'\n"));
        // A `%` that is not in the first column is YAML's text (or its error), not ERB's.
        assert!(!holds_erb("a:\n  % b\n"));
        assert!(!holds_erb("a: <% unclosed\n"));
    }
}
