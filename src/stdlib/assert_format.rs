//! The formats of `format=` and `assert.format()` (spec 000, from JSON Schema's "format"
//! vocabulary plus Kubernetes quantities; spec 001 adds `ip`, `port`, `percent`, `duration`,
//! `date` and `time`): each is a pure check of a string (`port` also takes an integer, see
//! [`port_number`]).

use std::net::{Ipv4Addr, Ipv6Addr};

/// A named string format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    DateTime,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriRef,
    Quantity,
    /// IPv4 or IPv6, as Go's `net.ParseIP` reads it.
    Ip,
    /// A port number, 0 to 65535.
    Port,
    /// Kubernetes' `IsValidPercent`: digits and `%`.
    Percent,
    /// Go's `time.ParseDuration`.
    Duration,
    /// RFC 3339 `full-date`.
    Date,
    /// RFC 3339 `full-time`.
    Time,
}

/// The names accepted, in the order error messages list them.
pub const NAMES: &[&str] = &[
    "date-time",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uriref",
    "quantity",
    "ip",
    "port",
    "percent",
    "duration",
    "date",
    "time",
];

impl Format {
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name {
            "date-time" => Format::DateTime,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uriref" | "uri-reference" => Format::UriRef,
            "quantity" => Format::Quantity,
            "ip" => Format::Ip,
            "port" => Format::Port,
            "percent" => Format::Percent,
            "duration" => Format::Duration,
            "date" => Format::Date,
            "time" => Format::Time,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriRef => "uriref",
            Format::Quantity => "quantity",
            Format::Ip => "ip",
            Format::Port => "port",
            Format::Percent => "percent",
            Format::Duration => "duration",
            Format::Date => "date",
            Format::Time => "time",
        }
    }

    /// What a valid value is, for "must be: ...".
    pub fn description(self) -> &'static str {
        match self {
            Format::DateTime => "an RFC 3339 date-time",
            Format::Email => "an email address",
            Format::Hostname => "a hostname (RFC 1123)",
            Format::Ipv4 => "an IPv4 address",
            Format::Ipv6 => "an IPv6 address",
            Format::Uri => "an absolute URI",
            Format::UriRef => "a URI reference",
            Format::Quantity => "a Kubernetes quantity",
            Format::Ip => "an IP address",
            Format::Port => "a port number (0-65535)",
            Format::Percent => "a percentage (like 10%)",
            Format::Duration => "a Go duration (like 1h30m)",
            Format::Date => "an RFC 3339 date",
            Format::Time => "an RFC 3339 time",
        }
    }

    pub fn accepts(self, s: &str) -> bool {
        match self {
            Format::DateTime => is_date_time(s),
            Format::Email => is_email(s),
            Format::Hostname => is_hostname(s),
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => is_uri(s),
            Format::UriRef => is_uri_ref(s),
            Format::Quantity => is_quantity(s),
            Format::Ip => s.parse::<Ipv4Addr>().is_ok() || s.parse::<Ipv6Addr>().is_ok(),
            Format::Port => port_string(s),
            Format::Percent => is_percent(s),
            Format::Duration => super::duration::parse(s).is_some(),
            Format::Date => is_date(s),
            Format::Time => is_time(s),
        }
    }
}

/// The highest port number.
pub const MAX_PORT: i64 = 65535;

/// An integer port number: 0 to 65535.
pub fn port_number(n: i64) -> bool {
    (0..=MAX_PORT).contains(&n)
}

/// A port written as a string: decimal digits without sign or leading zero, 0 to 65535.
fn port_string(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 5
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'))
        && s.parse::<i64>().is_ok_and(port_number)
}

/// Kubernetes' `IsValidPercent`: `^[0-9]+%$`.
fn is_percent(s: &str) -> bool {
    s.strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn leap(y: u32) -> bool {
    y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400))
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a day that exists in that month.
fn is_date(s: &str) -> bool {
    let mut d = s.split('-');
    let (Some(y), Some(m), Some(day), None) = (d.next(), d.next(), d.next(), d.next()) else {
        return false;
    };
    let (Some(y), Some(m), Some(day)) = (digits(y, 4), digits(m, 2), digits(day, 2)) else {
        return false;
    };
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap(y) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac]` and a zone (`Z` or `+hh:mm`).
fn is_time(s: &str) -> bool {
    let (clock, zone) = if let Some(c) = s.strip_suffix(['Z', 'z']) {
        (c, None)
    } else {
        match s.rfind(['+', '-']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => return false,
        }
    };
    if let Some(zone) = zone {
        let Some((h, mi)) = zone.split_once(':') else {
            return false;
        };
        match (digits(h, 2), digits(mi, 2)) {
            (Some(h), Some(mi)) if h < 24 && mi < 60 => {}
            _ => return false,
        }
    }
    let (hms, frac) = match clock.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (clock, None),
    };
    if frac.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return false;
    }
    let mut t = hms.split(':');
    match (t.next(), t.next(), t.next(), t.next()) {
        (Some(h), Some(mi), Some(sec), None) => matches!(
            (digits(h, 2), digits(mi, 2), digits(sec, 2)),
            (Some(h), Some(mi), Some(sec)) if h < 24 && mi < 60 && sec <= 60
        ),
        _ => false,
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// RFC 3339 `date-time`: a `full-date`, `T`, a `full-time`.
fn is_date_time(s: &str) -> bool {
    s.split_once(['T', 't'])
        .is_some_and(|(date, time)| is_date(date) && is_time(time))
}

/// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, each at most
/// 63 characters, 253 in all.
fn is_hostname(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// `local@domain`: a dot-atom local part and a host name (or bracketed address) domain.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c))
        });
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(addr) => {
            addr.parse::<Ipv4Addr>().is_ok()
                || addr
                    .strip_prefix("IPv6:")
                    .is_some_and(|a| a.parse::<Ipv6Addr>().is_ok())
        }
        None => is_hostname(domain),
    };
    local_ok && domain_ok
}

fn is_uri_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c)
}

/// Percent signs must start a two-hex-digit escape.
fn escapes_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(|c| c.is_ascii_hexdigit());
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    true
}

/// An absolute URI (RFC 3986): a scheme, `:`, then URI characters.
fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut sc = scheme.chars();
    sc.next().is_some_and(|c| c.is_ascii_alphabetic())
        && sc.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && rest.chars().all(is_uri_char)
        && escapes_ok(rest)
}

/// A URI or a relative reference.
fn is_uri_ref(s: &str) -> bool {
    if s.contains(':') && is_uri(s) {
        return true;
    }
    // A relative reference's first segment has no colon.
    let first = s.split(['/', '?', '#']).next().unwrap_or("");
    !first.contains(':') && s.chars().all(is_uri_char) && escapes_ok(s)
}

/// A Kubernetes resource quantity: a signed decimal number with an optional binary (Ki..Ei),
/// decimal (n, u, m, k, M, G, T, P, E) or exponent (e3, E-2) suffix.
pub fn is_quantity(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(end);
    let number_ok = !number.is_empty() && number != "." && number.matches('.').count() <= 1;
    let suffix_ok = match suffix {
        "" | "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" | "n" | "u" | "m" | "k" | "M" | "G" | "T"
        | "P" | "E" => true,
        exp => exp
            .strip_prefix(['e', 'E'])
            .map(|e| e.strip_prefix(['+', '-']).unwrap_or(e))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())),
    };
    number_ok && suffix_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_accepts_and_rejects() {
        let cases: &[(Format, &str, &str)] = &[
            (
                Format::DateTime,
                "2022-03-04T05:06:07.5+01:00",
                "2022-13-04T05:06:07Z",
            ),
            (Format::Email, "dev.ops+ci@example.com", "dev@@example.com"),
            (Format::Hostname, "harbor.example.com", "-bad.example.com"),
            (Format::Ipv4, "10.0.0.1", "10.0.0.256"),
            (Format::Ipv6, "fe80::1", "fe80:::1"),
            (Format::Uri, "https://example.com/a?b=c#d", "/relative/path"),
            (Format::UriRef, "../a/b?c", "a b"),
            (Format::Quantity, "1.5Gi", "1.5GB"),
        ];
        for (f, good, bad) in cases {
            assert!(f.accepts(good), "{} should accept {good}", f.name());
            assert!(!f.accepts(bad), "{} should reject {bad}", f.name());
        }
    }

    fn sorts(f: Format, good: &[&str], bad: &[&str]) {
        for s in good {
            assert!(f.accepts(s), "{} should accept {s:?}", f.name());
        }
        for s in bad {
            assert!(!f.accepts(s), "{} should reject {s:?}", f.name());
        }
    }

    /// Go's `net.ParseIP` cases (net/ip_test.go).
    #[test]
    fn ip_reads_like_go_parse_ip() {
        sorts(
            Format::Ip,
            &[
                "127.0.1.2",
                "::ffff:127.1.2.3",
                "::ffff:7f01:0203",
                "0:0:0:0:0000:ffff:127.1.2.3",
                "2001:4860:0:2001::68",
                "2001:4860:0000:2001:0000:0000:0000:0068",
                "::",
            ],
            &[
                "127.0.0.256",
                "127.001.002.003",
                "::ffff:127.001.002.003",
                "123.000.000.000",
                "1.2..4",
                "0123.0.0.1",
                "127.0.0.1%eth0",
                "fe80::1%lo0",
                "",
                "localhost",
            ],
        );
    }

    /// Kubernetes' `IsValidPercent` cases (validation_test.go, TestIsValidPercent).
    #[test]
    fn percent_is_kubernetes_is_valid_percent() {
        sorts(
            Format::Percent,
            &["0%", "00000%", "1%", "01%", "99%", "100%", "101%"],
            &[
                "", "0", "100", "0.0%", "99.9%", "hundred", " 1%", "1% ", "-0%", "-1%", "+1%",
            ],
        );
    }

    #[test]
    fn port_is_zero_to_65535() {
        sorts(
            Format::Port,
            &["0", "1", "80", "8080", "65535"],
            &["", "-1", "65536", "080", "+80", "http", "1e3", "99999"],
        );
        assert!(port_number(0) && port_number(65535));
        assert!(!port_number(-1) && !port_number(65536));
    }

    #[test]
    fn duration_is_go_parse_duration() {
        sorts(
            Format::Duration,
            &[
                "0",
                "-0",
                "5s",
                "1.5h",
                "300ms",
                "-1.5h",
                "2h45m",
                "12\u{b5}s",
                ".5s",
                "5.s",
            ],
            &["", "3", "1d", ".s", "-", "1h-2m", "9223372036854775808ns"],
        );
    }

    /// JSON Schema's `date` and `time` (RFC 3339 `full-date`, `full-time`).
    #[test]
    fn date_and_time_are_rfc3339() {
        sorts(
            Format::Date,
            &["1963-06-19", "2020-02-29", "2000-02-29", "2024-12-31"],
            &[
                "06/19/1963",
                "2021-02-29",
                "1900-02-29",
                "2024-04-31",
                "1998-1-20",
                "2013-350",
                "2024-13-01",
                "2024-00-10",
                "",
            ],
        );
        sorts(
            Format::Time,
            &[
                "20:20:39+00:00",
                "08:30:06Z",
                "08:30:06.283185Z",
                "23:59:60Z",
                "10:00:00-05:30",
            ],
            &[
                "08:30:06 PST",
                "01:01:01,1111",
                "12:00:00",
                "24:00:00Z",
                "12:60:00Z",
                "8:30:06Z",
                "08:30:06+24:00",
            ],
        );
        assert!(!Format::DateTime.accepts("2021-02-29T00:00:00Z"));
    }

    #[test]
    fn quantities_take_exponents_and_signs() {
        for q in ["1", "-2", "+0.5", "100m", "1e3", "2E-2", "5Ki"] {
            assert!(is_quantity(q), "{q}");
        }
        for q in ["", "Gi", "1.2.3", "1ki", "1e"] {
            assert!(!is_quantity(q), "{q}");
        }
    }

    #[test]
    fn names_round_trip() {
        for n in NAMES {
            assert_eq!(Format::parse(n).map(Format::name), Some(*n));
        }
    }
}
