//! `@ytt:ip`: `parse_addr(string)` gives an `@ytt:ip.addr` (`is_ipv4()`, `is_ipv6()`,
//! `string()`), `parse_cidr(string)` gives the address and its `@ytt:ip.net` (`addr()`,
//! `string()`). Addresses are read and printed as Go's `net` package does: an IPv4-mapped
//! IPv6 address is an IPv4 address, IPv6 prints in its shortest form.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::environment::{GlobalsBuilder, Methods, MethodsBuilder};
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::{starlark_value, Demand, Heap, NoSerialize, StarlarkValue, Value};

use super::args::{as_str, err, exactly_one, Args};
use crate::eval::convert::ConversionHint;

/// An address, always held in its 16-byte form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr(Ipv6Addr);

impl Addr {
    /// Go's `net.ParseIP`.
    pub fn parse(s: &str) -> Option<Addr> {
        if let Ok(v4) = s.parse::<Ipv4Addr>() {
            return Some(Addr(v4.to_ipv6_mapped()));
        }
        if s.contains('.') || s.contains(':') {
            return s.parse::<Ipv6Addr>().ok().map(Addr);
        }
        None
    }

    /// Go's `To4() != nil`.
    pub fn is_ipv4(&self) -> bool {
        self.0.to_ipv4_mapped().is_some()
    }

    /// Applies a prefix of `bits` (of 128) to the address.
    fn masked(&self, bits: u32) -> Addr {
        let n = u128::from(self.0);
        let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
        Addr(Ipv6Addr::from(n & mask))
    }
}

impl fmt::Display for Addr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v4) = self.0.to_ipv4_mapped() {
            return write!(f, "{v4}");
        }
        let groups = self.0.segments();
        // The longest run of at least two zero groups (the first on a tie) becomes `::`.
        let (mut best, mut best_len, mut run_start, mut run_len) = (0, 0, 0, 0);
        for (i, g) in groups.iter().enumerate() {
            if *g == 0 {
                if run_len == 0 {
                    run_start = i;
                }
                run_len += 1;
                if run_len > best_len {
                    best = run_start;
                    best_len = run_len;
                }
            } else {
                run_len = 0;
            }
        }
        let mut i = 0;
        while i < 8 {
            if best_len >= 2 && i == best {
                f.write_str("::")?;
                i += best_len;
                continue;
            }
            if i > 0 && !(best_len >= 2 && i == best + best_len) {
                f.write_str(":")?;
            }
            write!(f, "{:x}", groups[i])?;
            i += 1;
        }
        Ok(())
    }
}

/// A network: its (masked) address and prefix length, as `net.ParseCIDR` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Net {
    addr: Addr,
    /// Prefix length of the 128-bit form.
    bits: u32,
    /// The CIDR was written as IPv4 (a 4-byte mask).
    v4_mask: bool,
}

impl Net {
    /// Go's `net.ParseCIDR`: the address as written and its network.
    pub fn parse_cidr(s: &str) -> Option<(Addr, Net)> {
        let (ip, prefix) = s.split_once('/')?;
        let v4 = ip.parse::<Ipv4Addr>().is_ok();
        let addr = Addr::parse(ip)?;
        if prefix.is_empty() || !prefix.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = prefix.parse().ok()?;
        let max = if v4 { 32 } else { 128 };
        if n > max {
            return None;
        }
        let bits = if v4 { n + 96 } else { n };
        Some((
            addr,
            Net {
                addr: addr.masked(bits),
                bits,
                v4_mask: v4,
            },
        ))
    }
}

impl fmt::Display for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An IPv4 network prints its 32-bit prefix, also when written in IPv6 form.
        let shown = if self.addr.is_ipv4() || self.v4_mask {
            self.bits.saturating_sub(96)
        } else {
            self.bits
        };
        write!(f, "{}/{shown}", self.addr)
    }
}

fn hint(type_name: &str) -> ConversionHint {
    ConversionHint(format!(
        "{type_name} does not automatically encode (hint: use .string())"
    ))
}

/// `@ytt:ip.addr`.
#[derive(Clone, Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct AddrValue {
    #[allocative(skip)]
    addr: Addr,
}

starlark_simple_value!(AddrValue);

impl fmt::Display for AddrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

starlark::methods_static!(ADDR_METHODS = addr_methods);

/// ytt's names of this struct, in its order.
const ADDR_NAMES: &[&str] = &["is_ipv4", "is_ipv6", "string"];

#[starlark_value(type = "@ytt:ip.addr")]
impl<'v> StarlarkValue<'v> for AddrValue {
    crate::struct_like!(ADDR_NAMES);

    fn get_methods() -> Option<&'static Methods> {
        Some(ADDR_METHODS.methods())
    }

    fn provide(&'v self, demand: &mut Demand<'_, 'v>) {
        demand.provide_value(super::struct_like::StructNames(ADDR_NAMES));
        demand.provide_value(hint("@ytt:ip.addr"));
    }
}

#[starlark_module]
fn addr_methods(builder: &mut MethodsBuilder) {
    fn is_ipv4(this: &AddrValue) -> starlark::Result<bool> {
        Ok(this.addr.is_ipv4())
    }

    fn is_ipv6(this: &AddrValue) -> starlark::Result<bool> {
        Ok(!this.addr.is_ipv4())
    }

    fn string(this: &AddrValue) -> starlark::Result<String> {
        Ok(this.addr.to_string())
    }
}

/// `@ytt:ip.net`.
#[derive(Clone, Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct NetValue {
    #[allocative(skip)]
    net: Net,
}

starlark_simple_value!(NetValue);

impl fmt::Display for NetValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

starlark::methods_static!(NET_METHODS = net_methods);

/// ytt's names of this struct, in its order.
const NET_NAMES: &[&str] = &["addr", "string"];

#[starlark_value(type = "@ytt:ip.net")]
impl<'v> StarlarkValue<'v> for NetValue {
    crate::struct_like!(NET_NAMES);

    fn get_methods() -> Option<&'static Methods> {
        Some(NET_METHODS.methods())
    }

    fn provide(&'v self, demand: &mut Demand<'_, 'v>) {
        demand.provide_value(super::struct_like::StructNames(NET_NAMES));
        demand.provide_value(hint("@ytt:ip.net"));
    }
}

#[starlark_module]
fn net_methods(builder: &mut MethodsBuilder) {
    fn addr(this: &NetValue) -> starlark::Result<AddrValue> {
        Ok(AddrValue {
            addr: this.net.addr,
        })
    }

    fn string(this: &NetValue) -> starlark::Result<String> {
        Ok(this.net.to_string())
    }
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn parse_addr<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "ip.parse_addr";
        let s = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        let addr = Addr::parse(s).ok_or_else(|| err(NAME, format!("invalid IP address: {s}")))?;
        Ok(heap.alloc(AddrValue { addr }))
    }

    fn parse_cidr<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "ip.parse_cidr";
        let s = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        let (addr, net) =
            Net::parse_cidr(s).ok_or_else(|| err(NAME, format!("invalid CIDR address: {s}")))?;
        Ok(heap.alloc((AddrValue { addr }, NetValue { net })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> String {
        Addr::parse(s).map_or("<nil>".to_string(), |a| a.to_string())
    }

    fn cidr(s: &str) -> String {
        Net::parse_cidr(s).map_or("<nil>".to_string(), |(a, n)| format!("{a} {n}"))
    }

    #[test]
    fn addresses_print_as_go_prints_them() {
        assert_eq!(addr("192.0.2.1"), "192.0.2.1");
        assert_eq!(addr("2001:db8::1"), "2001:db8::1");
        assert_eq!(addr("::ffff:10.0.0.1"), "10.0.0.1");
        assert_eq!(addr("2001:0db8:0:1:0:0:0:1"), "2001:db8:0:1::1");
        assert_eq!(addr("1:0:1:0:1:0:1:0"), "1:0:1:0:1:0:1:0");
        assert_eq!(addr("::"), "::");
        assert_eq!(addr("1::"), "1::");
        assert_eq!(addr("not-an-ip"), "<nil>");
        assert_eq!(addr("01.2.3.4"), "<nil>");
        assert_eq!(addr("fe80::1%eth0"), "<nil>");
    }

    #[test]
    fn networks_are_masked() {
        assert_eq!(cidr("192.0.2.1/24"), "192.0.2.1 192.0.2.0/24");
        assert_eq!(cidr("2001:db8::1/96"), "2001:db8::1 2001:db8::/96");
        assert_eq!(cidr("10.0.0.1/33"), "<nil>");
        assert_eq!(cidr("10.0.0.1/"), "<nil>");
        assert_eq!(cidr("10.0.0.1/+8"), "<nil>");
        assert_eq!(cidr("10.0.0.1/0"), "10.0.0.1 0.0.0.0/0");
    }
}
