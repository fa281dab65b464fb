//! What a command's standard input holds when the linter knows it: the text of a
//! here-document a script pipes into `ytt -f -`. ytt reads `-` as a file named `stdin.yml`;
//! the linter gives it that text under that name, and keeps where the text is written so a
//! position in `stdin.yml` can be shown at the script's own line.

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
        })
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
}
