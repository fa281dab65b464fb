//! `@ytt:base64`: `encode(string)` and `decode(string)`, with ytt's options `url=True` (the
//! URL-safe alphabet), `raw=True` (no `=` padding) and `strict=True` (unused bits must be
//! zero). Decoding follows Go's `encoding/base64`: line breaks are skipped anywhere, and a bad
//! input is reported as `illegal base64 data at input byte N`. Spec 001 adds
//! `decodable(string)`, true when `decode` would succeed.

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value as SValue};

use super::args::{err, kwarg_bool, one_str, Args, Kwargs};

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// An encoding as ytt builds it from the keyword arguments.
#[derive(Clone, Copy, Debug)]
pub struct Encoding {
    alphabet: &'static [u8; 64],
    padding: bool,
    strict: bool,
}

impl Encoding {
    pub fn new(url: bool, raw: bool, strict: bool) -> Encoding {
        Encoding {
            alphabet: if url { URL } else { STD },
            padding: !raw,
            strict,
        }
    }

    pub fn encode(&self, data: &[u8]) -> String {
        let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
        for chunk in data.chunks(3) {
            let b = [
                chunk[0],
                chunk.get(1).copied().unwrap_or(0),
                chunk.get(2).copied().unwrap_or(0),
            ];
            let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
            let chars = chunk.len() + 1;
            for k in 0..4 {
                if k < chars {
                    let idx = ((n >> (18 - 6 * k)) & 0x3f) as usize;
                    out.push(char::from(self.alphabet[idx]));
                } else if self.padding {
                    out.push('=');
                }
            }
        }
        out
    }

    fn sextet(&self, c: u8) -> Option<u8> {
        self.alphabet
            .iter()
            .position(|&a| a == c)
            .and_then(|p| u8::try_from(p).ok())
    }

    /// Decodes `src`; the error is the offset Go reports.
    pub fn decode(&self, src: &[u8]) -> Result<Vec<u8>, usize> {
        let mut out = Vec::with_capacity(src.len() / 4 * 3);
        let mut si = 0;
        loop {
            let (next, quantum) = self.quantum(src, si)?;
            si = next;
            match quantum {
                Quantum::End => return Ok(out),
                Quantum::Bytes(bytes, last) => {
                    out.extend_from_slice(&bytes);
                    if let Some(garbage) = last {
                        return Err(garbage);
                    }
                    if si >= src.len() {
                        return Ok(out);
                    }
                }
            }
        }
    }

    /// Reads one group of up to four characters starting at `si`.
    fn quantum(&self, src: &[u8], mut si: usize) -> Result<(usize, Quantum), usize> {
        let is_break = |c: u8| c == b'\n' || c == b'\r';
        let mut buf = [0u8; 4];
        let mut len = 0;
        let mut trailing = None;
        while len < 4 {
            let Some(&c) = src.get(si) else {
                if len == 0 {
                    return Ok((si, Quantum::End));
                }
                if len == 1 || self.padding {
                    return Err(si - len);
                }
                break;
            };
            si += 1;
            if let Some(v) = self.sextet(c) {
                buf[len] = v;
                len += 1;
                continue;
            }
            if is_break(c) {
                continue;
            }
            if c != b'=' || !self.padding || len < 2 {
                return Err(si - 1);
            }
            if len == 2 {
                // A second `=` must follow (line breaks aside).
                while src.get(si).copied().is_some_and(is_break) {
                    si += 1;
                }
                match src.get(si) {
                    None => return Err(src.len()),
                    Some(b'=') => si += 1,
                    Some(_) => return Err(si - 1),
                }
            }
            while src.get(si).copied().is_some_and(is_break) {
                si += 1;
            }
            if si < src.len() {
                trailing = Some(si);
            }
            break;
        }
        let n = u32::from(buf[0]) << 18
            | u32::from(buf[1]) << 12
            | u32::from(buf[2]) << 6
            | u32::from(buf[3]);
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        if self.strict {
            if len == 3 && bytes[2] != 0 {
                return Err(si - 1);
            }
            if len == 2 && (bytes[1] != 0 || bytes[2] != 0) {
                return Err(si - 2);
            }
        }
        Ok((si, Quantum::Bytes(bytes[..len - 1].to_vec(), trailing)))
    }
}

enum Quantum {
    End,
    /// Decoded bytes, and the offset of garbage after the final padding.
    Bytes(Vec<u8>, Option<usize>),
}

fn encoding(name: &str, kwargs: &Kwargs<'_>) -> starlark::Result<Encoding> {
    let url = kwarg_bool(name, kwargs, "url", false)?;
    let raw = kwarg_bool(name, kwargs, "raw", false)?;
    let strict = kwarg_bool(name, kwargs, "strict", false)?;
    Ok(Encoding::new(url, raw, strict))
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn encode<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "base64.encode";
        let s = one_str(NAME, &args)?;
        let enc = encoding(NAME, &kwargs)?;
        Ok(heap
            .alloc_str(&enc.encode(&crate::eval::bytestr::to_bytes(s)))
            .to_value())
    }

    fn decode<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<SValue<'v>> {
        const NAME: &str = "base64.decode";
        let s = one_str(NAME, &args)?;
        let enc = encoding(NAME, &kwargs)?;
        let bytes = enc
            .decode(s.as_bytes())
            .map_err(|at| err(NAME, format!("illegal base64 data at input byte {at}")))?;
        // Bytes that are not UTF-8 are kept (see `eval::bytestr`).
        Ok(heap
            .alloc_str(&crate::eval::bytestr::from_bytes(&bytes))
            .to_value())
    }

    /// Spec 001: whether `decode` (with the same options) would succeed.
    fn decodable<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
    ) -> starlark::Result<bool> {
        const NAME: &str = "base64.decodable";
        let s = one_str(NAME, &args)?;
        let enc = encoding(NAME, &kwargs)?;
        Ok(enc.decode(s.as_bytes()).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(enc: Encoding, s: &str) -> Result<String, usize> {
        enc.decode(s.as_bytes())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    #[test]
    fn encodes_with_and_without_padding() {
        let std = Encoding::new(false, false, false);
        assert_eq!(std.encode(b"regular"), "cmVndWxhcg==");
        assert_eq!(std.encode(b"regula"), "cmVndWxh");
        assert_eq!(std.encode(b""), "");
        assert_eq!(
            Encoding::new(false, true, false).encode(b"regular"),
            "cmVndWxhcg"
        );
        assert_eq!(
            Encoding::new(true, false, false).encode(&[0xfb, 0xff]),
            "-_8="
        );
        assert_eq!(std.encode(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn decodes_like_go() {
        let std = Encoding::new(false, false, false);
        assert_eq!(dec(std, "cmVndWxhcg=="), Ok("regular".into()));
        assert_eq!(dec(std, "cmVn\r\ndWxh"), Ok("regula".into()));
        assert_eq!(dec(std, "cmVndWxhcg"), Err(8));
        assert_eq!(dec(std, "cmVndWxhcg="), Err(11));
        assert_eq!(dec(std, "cmVndWxhcg==x"), Err(12));
        assert_eq!(dec(std, "!!!!"), Err(0));
        assert_eq!(dec(std, "c==="), Err(1));
        let raw = Encoding::new(false, true, false);
        assert_eq!(dec(raw, "cmVndWxhcg"), Ok("regular".into()));
        assert_eq!(dec(raw, "cmVndWxhcg=="), Err(10));
        assert_eq!(dec(raw, "c"), Err(0));
    }

    #[test]
    fn strict_rejects_unused_bits() {
        let lax = Encoding::new(false, false, false);
        let strict = Encoding::new(false, false, true);
        assert_eq!(dec(lax, "YR=="), Ok("a".into()));
        assert_eq!(dec(strict, "YR=="), Err(2));
        assert_eq!(dec(strict, "YQ=="), Ok("a".into()));
    }
}
