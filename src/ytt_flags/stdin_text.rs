//! What a command's standard input holds when the linter knows it: the text of a
//! here-document a script pipes into `ytt -f -`. ytt reads `-` as a file named `stdin.yml`,
//! where the command names it among its `-f` inputs (their order decides which data values
//! win and the order of the templates' output); the linter gives it that text under that
//! name and at that place, and keeps where the text is written so a position in `stdin.yml`
//! can be shown at the script's own line.

/// The text standard input gives, and where it is written.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StdinText {
    pub text: String,
    /// The repository path of the file that holds the text (a script).
    pub file: String,
    /// The line of that file that holds the text's first line.
    pub line: u32,
    /// The columns before the text on each of its lines (a literal block of a configuration
    /// file is indented; a here-document is not).
    #[serde(default)]
    pub indent: u32,
    /// How many of the command's other `-f` inputs ytt reads before it; `None`: all of them.
    #[serde(default)]
    pub after: Option<usize>,
}

/// The name ytt gives the file it reads from standard input.
pub const NAME: &str = "stdin.yml";

impl StdinText {
    /// The text as the origin `FILE:LINE` of a here-document names it (`None` without a line).
    pub fn at(origin: &str, text: &str) -> Option<StdinText> {
        let (file, line) = origin.rsplit_once(':')?;
        Some(StdinText {
            text: text.to_string(),
            file: file.to_string(),
            line: line.parse().ok().filter(|l| *l > 0)?,
            indent: 0,
            after: None,
        })
    }

    /// The text read after the first `n` of the command's other `-f` inputs.
    pub fn read_after(self, n: usize) -> StdinText {
        StdinText {
            after: Some(n),
            ..self
        }
    }

    /// Where `-` goes among the `files` of a job's flags (the other inputs): after the first
    /// [`StdinText::after`] of them, or after all.
    pub fn place(&self, files: &[String]) -> usize {
        self.after.map_or(files.len(), |n| n.min(files.len()))
    }

    /// How many lines of the script come before the text's first line.
    pub fn offset(&self) -> u32 {
        self.line.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_names_the_file_and_the_first_line() {
        let s = StdinText::at("test/run.sh:7", "a: 1\n").unwrap();
        assert_eq!((s.file.as_str(), s.line, s.offset()), ("test/run.sh", 7, 6));
        assert_eq!(StdinText::at("run.sh", "a: 1\n"), None);
        assert_eq!(StdinText::at("run.sh:0", "a: 1\n"), None);
    }

    #[test]
    fn standard_input_keeps_its_place_among_the_inputs() {
        let files = ["/r/config".to_string(), "/r/values.yml".to_string()];
        let s = StdinText::at("run.sh:2", "a: 1\n").unwrap();
        assert_eq!(s.place(&files), 2);
        assert_eq!(s.clone().read_after(1).place(&files), 1);
        assert_eq!(s.clone().read_after(0).place(&files), 0);
        // Inputs a later step took away: no further than the end.
        assert_eq!(s.read_after(5).place(&files), 2);
    }
}
