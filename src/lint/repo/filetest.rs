//! ytt's own file tests: a template, a line `+++`, then the output (or error) ytt's test
//! harness expects. They are no ytt input: the walk sets them aside (`walk::classify`), and
//! discovery says so once per directory (`discover::third_party::filetest_notes`).

/// Whether a file is one of ytt's file tests: a line `+++` alone splits the template from the
/// output (or error) ytt's test harness expects. No YAML stream or text template the repository
/// renders holds such a line at the start of a line (in YAML it would end the document's
/// mapping: a syntax error).
pub fn is_filetest(text: &str) -> bool {
    // Nearly no file holds `+++` at all: one search of the text settles those.
    if memchr::memmem::find(text.as_bytes(), b"+++").is_none() {
        return false;
    }
    let mut before = false;
    for line in text.lines() {
        if line.trim_end() == "+++" {
            return before;
        }
        before |= !line.trim().is_empty();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plus_line_after_a_template_makes_a_filetest() {
        assert!(is_filetest("#@ if True:\na: 1\n#@ end\n\n+++\n\na: 1\n"));
        assert!(is_filetest("a: (@= 1 @)\n+++   \nERR: x\n"));
        assert!(!is_filetest("+++\ntitle = \"front matter\"\n+++\n"));
        assert!(!is_filetest("a: |\n  +++\nb: 1\n"));
        assert!(!is_filetest("a: 1\n"));
    }
}
