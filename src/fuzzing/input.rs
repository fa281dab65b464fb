//! Structured values read from fuzz bytes. Every byte string is a valid input: what runs out
//! reads as zero or empty. Texts end at a NUL byte, so that seeds made of real text (a YAML
//! file, a message) read as that text, and the fuzzer's mutations of a text stay texts.

/// A cursor over fuzz bytes.
pub struct Input<'a> {
    rest: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Input<'a> {
        Input { rest: data }
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((&b, rest)) => {
                self.rest = rest;
                b
            }
            None => 0,
        }
    }

    /// Whether the next byte is odd.
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A count below `n` (`n` > 0).
    pub fn below(&mut self, n: u8) -> usize {
        usize::from(self.byte() % n.max(1))
    }

    /// A number, mostly small (lines and columns of real files), sometimes one of the edges
    /// (0, the largest) or any 32-bit value.
    pub fn number(&mut self) -> u32 {
        match self.byte() {
            0..=199 => u32::from(self.byte()) % 64 + 1,
            200..=219 => 0,
            220..=229 => u32::MAX,
            230..=239 => u32::from(self.byte()) * 256 + u32::from(self.byte()),
            _ => u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()]),
        }
    }

    /// Text up to the next NUL byte (or the end), invalid UTF-8 replaced.
    pub fn text(&mut self) -> String {
        let end = self
            .rest
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.rest.len());
        let (text, rest) = self.rest.split_at(end);
        self.rest = rest.get(1..).unwrap_or(&[]);
        String::from_utf8_lossy(text).into_owned()
    }

    /// A text when the next byte is odd.
    pub fn maybe_text(&mut self) -> Option<String> {
        self.flag().then(|| self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_end_at_nul_and_nothing_reads_as_zero() {
        let mut input = Input::new(b"\x05ab\x00c\xff\x00\x07");
        assert_eq!(input.below(3), 2);
        assert_eq!(input.text(), "ab");
        assert_eq!(input.text(), "c\u{fffd}");
        assert!(input.flag());
        assert_eq!(input.text(), "");
        assert_eq!(input.byte(), 0);
        assert_eq!(input.number(), 1);
    }

    #[test]
    fn numbers_cover_the_edges() {
        assert_eq!(Input::new(&[10, 3]).number(), 4);
        assert_eq!(Input::new(&[200]).number(), 0);
        assert_eq!(Input::new(&[220]).number(), u32::MAX);
        assert_eq!(Input::new(&[230, 1, 2]).number(), 258);
        assert_eq!(Input::new(&[255, 1, 0, 0, 0]).number(), 1);
    }
}
