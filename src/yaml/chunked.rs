//! The input libyaml-safer reads a text from, a few kilobytes at a time.
//!
//! libyaml-safer decodes its input into a queue of `char`s (four bytes each) as far as the
//! input's `fill_buf` reaches, and its scanner takes characters off the front. Given the whole
//! text as a `&[u8]`, it decodes the whole text before the first token: a 2.8 MB manifest
//! became an 11 MB queue, grown by doubling (each step a copy into memory the process had never
//! touched), then read once from end to end. Handed out [`STEP`] bytes at a time, the queue
//! stays a few tens of kilobytes, reused for the whole text.
//!
//! What the parser reports is the same either way, with one exception this module rules out:
//! libyaml-safer refuses a control character where it decodes it, so from the whole text at
//! once such an error comes before any token, and a step at a time it comes after the tokens
//! before it (a syntax error there would be reported instead). A text that holds a character
//! the decoder refuses ([`refused_by_decoder`]) is handed out whole, as before.

use std::io::{BufRead, Read};

/// How many bytes of the text one `fill_buf` hands out (at least 4: a UTF-8 character cut at
/// the end of a step is read whole from the next one).
const STEP: usize = 8 << 10;

/// A text read by libyaml-safer [`STEP`] bytes at a time (or whole, see the module's doc).
pub(crate) struct Chunked<'a> {
    data: &'a [u8],
    at: usize,
    step: usize,
}

impl<'a> Chunked<'a> {
    /// The reader of `data`, a UTF-8 text.
    pub(crate) fn new(data: &'a [u8]) -> Chunked<'a> {
        let step = if refused_by_decoder(data) {
            data.len().max(1)
        } else {
            STEP
        };
        Chunked { data, at: 0, step }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Chunked<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let start = self.at.min(self.data.len());
        let end = start.saturating_add(self.step).min(self.data.len());
        Ok(&self.data[start..end])
    }

    fn consume(&mut self, amt: usize) {
        self.at = self.at.saturating_add(amt).min(self.data.len());
    }
}

/// Whether UTF-8 `data` holds a character libyaml-safer's decoder refuses: a C0 control other
/// than tab, line feed and carriage return, DEL, a C1 control other than NEL (U+0085), or
/// U+FFFE and U+FFFF (surrogates cannot occur in UTF-8 text).
pub(crate) fn refused_by_decoder(data: &[u8]) -> bool {
    // Byte by byte without an early exit, in blocks, so that the loop is vectorised.
    let ascii_control = data.chunks(64).any(|block| {
        block.iter().fold(false, |bad, &b| {
            bad | ((b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') | (b == 0x7f))
        })
    });
    if ascii_control {
        return true;
    }
    // C1 controls are U+0080..U+009F, encoded C2 80..C2 9F; NEL is C2 85.
    let c1 = memchr::memchr_iter(0xc2, data)
        .any(|i| matches!(data.get(i + 1), Some(&b) if (0x80..=0x9f).contains(&b) && b != 0x85));
    // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
    let nonchar = memchr::memmem::find_iter(data, b"\xef\xbf")
        .any(|i| matches!(data.get(i + 2), Some(0xbe | 0xbf)));
    c1 || nonchar
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(mut r: Chunked<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let got = r.fill_buf().unwrap().to_vec();
            if got.is_empty() {
                return out;
            }
            // Consume a part only, as the decoder does before a cut character.
            let part = got.len().div_ceil(2);
            out.extend_from_slice(&got[..part]);
            r.consume(part);
        }
    }

    #[test]
    fn hands_out_the_whole_text_in_steps() {
        let text = "a: é\n".repeat(5000);
        let r = Chunked::new(text.as_bytes());
        assert_eq!(r.step, STEP);
        assert_eq!(read_all(r), text.as_bytes());
        let mut whole = Vec::new();
        Chunked::new(text.as_bytes())
            .read_to_end(&mut whole)
            .unwrap();
        assert_eq!(whole, text.as_bytes());
    }

    #[test]
    fn a_text_the_decoder_refuses_is_handed_out_whole() {
        for bad in [
            "a\u{1}b",
            "a\u{7f}",
            "a\u{9f}",
            "x\u{fffe}",
            "\u{ffff}",
            "\u{0}",
        ] {
            let text = format!("{}{bad}", "k: v\n".repeat(4000));
            assert!(refused_by_decoder(text.as_bytes()), "{bad:?}");
            let mut r = Chunked::new(text.as_bytes());
            assert_eq!(r.fill_buf().unwrap().len(), text.len());
        }
        for good in [
            "\t\r\n",
            "\u{85}",
            "\u{a0}é",
            "\u{fffd}",
            "\u{10000}",
            "\u{ef}\u{bf}",
        ] {
            assert!(!refused_by_decoder(good.as_bytes()), "{good:?}");
        }
        assert!(!refused_by_decoder(b""));
        assert_eq!(Chunked::new(b"").fill_buf().unwrap(), b"");
    }

    #[test]
    fn the_parser_reports_the_same_from_steps_as_from_the_whole_text() {
        use libyaml_safer::Parser;
        // Multi-byte characters across every step boundary, and a syntax error far in.
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(&format!("k{i}: \"ééé€𐍈 {i}\"\n"));
        }
        text.push_str("bad: [\n");
        let events = |chunked: bool| {
            let mut out = Vec::new();
            if chunked {
                let mut p: Parser<Chunked<'_>> = Parser::new();
                p.set_input(Chunked::new(text.as_bytes()));
                for e in p {
                    out.push(format!("{e:?}"));
                }
            } else {
                let mut p: Parser<&[u8]> = Parser::new();
                p.set_input(text.as_bytes());
                for e in p {
                    out.push(format!("{e:?}"));
                }
            }
            out
        };
        let (steps, whole) = (events(true), events(false));
        assert!(steps.len() > 6000, "{}", steps.len());
        assert!(
            steps.last().unwrap().contains("did not find expected"),
            "{:?}",
            steps.last()
        );
        assert_eq!(steps, whole);
    }
}
