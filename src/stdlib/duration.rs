//! Go's `time.ParseDuration`, for the `duration` format (spec 001): a signed sequence of
//! decimal numbers, each with an optional fraction and a unit (`ns`, `us`, `µs`, `μs`, `ms`,
//! `s`, `m`, `h`), like `300ms`, `-1.5h` or `2h45m`; `0` needs no unit. The total must fit in
//! Go's `int64` nanoseconds.

const UNITS: &[(&str, u64)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("\u{b5}s", 1_000),
    ("\u{3bc}s", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// The duration in nanoseconds, or `None` where Go reports `invalid duration`,
/// `missing unit` or `unknown unit`.
pub fn parse(s: &str) -> Option<i128> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let limit: u128 = 1 << 63;
    let mut total: u128 = 0;
    while !rest.is_empty() {
        // The whole part.
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let whole: u128 = if int_len == 0 {
            0
        } else {
            rest[..int_len].parse().ok()?
        };
        if whole > limit {
            return None;
        }
        rest = &rest[int_len..];
        // The fraction.
        let mut frac = 0.0_f64;
        let mut frac_len = 0;
        if let Some(after) = rest.strip_prefix('.') {
            frac_len = after.bytes().take_while(u8::is_ascii_digit).count();
            let mut scale = 1.0_f64;
            for b in after[..frac_len].bytes() {
                scale /= 10.0;
                frac += f64::from(b - b'0') * scale;
            }
            rest = &after[frac_len..];
        }
        if int_len == 0 && frac_len == 0 {
            return None;
        }
        // The unit.
        let unit_len = rest
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        if unit_len == 0 {
            return None;
        }
        let unit = UNITS
            .iter()
            .find(|(name, _)| *name == &rest[..unit_len])
            .map(|(_, n)| u128::from(*n))?;
        rest = &rest[unit_len..];
        let mut value = whole.checked_mul(unit)?;
        if value > limit {
            return None;
        }
        if frac > 0.0 {
            value += (frac * unit as f64) as u128;
            if value > limit {
                return None;
            }
        }
        total = total.checked_add(value)?;
        if total > limit {
            return None;
        }
    }
    if total == limit && !neg {
        return None;
    }
    let total = i128::try_from(total).ok()?;
    Some(if neg { -total } else { total })
}

#[cfg(test)]
mod tests {
    use super::parse;

    /// Go's own cases (time/time_test.go, parseDurationTests).
    #[test]
    fn parses_what_go_parses() {
        let cases: &[(&str, i128)] = &[
            ("0", 0),
            ("5s", 5_000_000_000),
            ("30s", 30_000_000_000),
            ("1478s", 1_478_000_000_000),
            ("-5s", -5_000_000_000),
            ("+5s", 5_000_000_000),
            ("-0", 0),
            ("+0", 0),
            ("5.0s", 5_000_000_000),
            ("5.6s", 5_600_000_000),
            ("5.s", 5_000_000_000),
            (".5s", 500_000_000),
            ("1.004s", 1_004_000_000),
            ("100.00100s", 100_001_000_000),
            ("10ns", 10),
            ("11us", 11_000),
            ("12\u{b5}s", 12_000),
            ("12\u{3bc}s", 12_000),
            ("13ms", 13_000_000),
            ("15m", 900_000_000_000),
            ("16h", 57_600_000_000_000),
            ("3h30m", 12_600_000_000_000),
            ("10.5s4m", 250_500_000_000),
            ("-2m3.4s", -123_400_000_000),
            ("1h2m3s4ms5us6ns", 3_723_004_005_006),
            ("39h9m14.425s", 140_954_425_000_000),
            ("9223372036854775807ns", 9_223_372_036_854_775_807),
            ("-9223372036854775808ns", -9_223_372_036_854_775_808),
            ("0.100000000000000000000h", 360_000_000_000),
        ];
        for (s, want) in cases {
            assert_eq!(parse(s), Some(*want), "{s}");
        }
    }

    #[test]
    fn rejects_what_go_rejects() {
        for s in [
            "",
            "3",
            "-",
            "s",
            ".",
            "-.",
            ".s",
            "+.s",
            "1d",
            "\u{b5}s",
            "3000000h",
            "9223372036854775808ns",
            "9223372036854775.808us",
            "1h-2m",
            "10",
        ] {
            assert_eq!(parse(s), None, "{s:?}");
        }
    }
}
