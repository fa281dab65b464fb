//! `@ytt:md5`: `sum(string)` is the MD5 digest of the string's bytes in lower-case hex.

use md5::{Digest, Md5};
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value};

use super::args::{as_str, exactly_one, Args};

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn sum<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        const NAME: &str = "md5.sum";
        let s = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        Ok(heap
            .alloc_str(&hex(&Md5::digest(crate::eval::bytestr::to_bytes(s))))
            .to_value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_known_values() {
        assert_eq!(hex(&Md5::digest(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            hex(&Md5::digest(b"data")),
            "8d777f385d3dfec8815d20f7496026dc"
        );
    }
}
