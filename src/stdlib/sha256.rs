//! `@ytt:sha256`: `sum(string)` is the SHA-256 digest of the string's bytes in lower-case hex.

use sha2::{Digest, Sha256};
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::{Heap, Value};

use super::args::{as_str, exactly_one, Args};
use super::md5::hex;

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn sum<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        const NAME: &str = "sha256.sum";
        let s = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        Ok(heap
            .alloc_str(&hex(&Sha256::digest(crate::eval::bytestr::to_bytes(s))))
            .to_value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_of_data() {
        assert_eq!(
            hex(&Sha256::digest(b"data")),
            "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7"
        );
    }
}
