//! Decides whether a string may be printed as a plain (unquoted) YAML scalar without changing
//! its meaning: the emitter only leaves a string unquoted when go-yaml v2's YAML 1.1 resolver
//! would read the same text back as a string (not a bool, null, int, float, timestamp or merge
//! key) and the text is not a YAML 1.1 base-60 number. The rules follow go-yaml's resolver,
//! including its reliance on Go's `strconv` and `time` parsing quirks.

/// True when `s`, written unquoted, reads back as the string `s` and is not base-60 shaped.
pub(crate) fn plain_reads_back_as_str(s: &str) -> bool {
    !resolves_to_non_str(s) && !looks_like_base60(s)
}

/// Words that the resolver maps to booleans, null, special floats or the merge key.
const RESERVED: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no", "No",
    "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null", "NULL", ".nan",
    ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
    "<<",
];

fn resolves_to_non_str(s: &str) -> bool {
    let first = match s.as_bytes().first() {
        None => return true, // the empty plain scalar is null
        Some(b) => *b,
    };
    let hinted = first.is_ascii_digit() || b"+-.yYnNtTfFoO~".contains(&first);
    if !hinted {
        // Only strings whose first character hints at another type are looked at at all.
        return false;
    }
    if RESERVED.contains(&s) {
        return true;
    }
    if first == b'.' {
        return dot_float(s);
    }
    if !(first.is_ascii_digit() || first == b'+' || first == b'-') {
        return false;
    }
    if is_timestamp(s) {
        return true;
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    is_go_int(&plain) || (matches_float_shape(&plain) && parses_finite(&plain))
}

/// Go's `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` succeeding.
fn is_go_int(s: &str) -> bool {
    let (negative, signed, body) = match s.as_bytes().first() {
        Some(b'-') => (true, true, &s[1..]),
        Some(b'+') => (false, true, &s[1..]),
        _ => (false, false, s),
    };
    let value = match parse_unsigned_base0(body) {
        Some(v) => v,
        None => return false,
    };
    if !signed {
        return true; // fits u64: ParseInt or ParseUint accepts it
    }
    if negative {
        value <= 1u64 << 63
    } else {
        value <= i64::MAX as u64
    }
}

/// Go's base-0 prefix handling (`0x`, `0o`, `0b`, leading `0` for octal) without signs.
fn parse_unsigned_base0(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    let (radix, digits) = if b[0] == b'0' && b.len() >= 3 {
        match b[1].to_ascii_lowercase() {
            b'b' => (2, &s[2..]),
            b'o' => (8, &s[2..]),
            b'x' => (16, &s[2..]),
            _ => (8, &s[1..]),
        }
    } else if b[0] == b'0' {
        (8, &s[1..])
    } else {
        (10, s)
    };
    let mut acc: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        acc = acc
            .checked_mul(u64::from(radix))?
            .checked_add(u64::from(d))?;
    }
    Some(acc)
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn matches_float_shape(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if int_digits == 0 && i == frac_start {
            return false;
        }
    } else if int_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

/// Go's `ParseFloat` does not report a range error (Rust parses overflow to infinity).
fn parses_finite(s: &str) -> bool {
    s.parse::<f64>().map(|f| f.is_finite()).unwrap_or(false)
}

/// Go's `strconv.ParseFloat` on a string starting with `.` (underscores allowed between digits).
fn dot_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 1;
    let mut digits = false;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        digits |= b[i].is_ascii_digit();
        i += 1;
    }
    if !digits {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if i >= b.len() || !b[i].is_ascii_digit() {
            return false;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    if i != b.len() || !underscores_between_digits(s) {
        return false;
    }
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    parses_finite(&cleaned)
}

/// Every `_` sits between two digits.
fn underscores_between_digits(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).all(|i| {
        b[i] != b'_'
            || (i > 0 && i + 1 < b.len() && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
    })
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn looks_like_base60(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i >= b.len() || !b[i].is_ascii_digit() {
        return false;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        match i - start {
            1 => {}
            2 if b[start] <= b'5' => {}
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml's timestamp formats, parsed as Go's `time.Parse` would: `2006-1-2T15:4:5.999999999Z07:00`
/// (also with `t`), `2006-1-2 15:4:5.999999999` and `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut cur = Cursor { b, i: 5 };
    let year: u32 = b[..4]
        .iter()
        .fold(0, |acc, d| acc * 10 + u32::from(d - b'0'));
    let month = match cur.num() {
        Some(m) if (1..=12).contains(&m) => m,
        _ => return false,
    };
    if !cur.eat(b'-') {
        return false;
    }
    let day = match cur.num() {
        Some(d) => d,
        None => return false,
    };
    if day < 1 || day > days_in_month(month, year) {
        return false;
    }
    if cur.done() {
        return true;
    }
    match b[cur.i] {
        b'T' | b't' => {
            cur.i += 1;
            cur.clock() && cur.zone() && cur.done()
        }
        b' ' => {
            while cur.i < b.len() && b[cur.i] == b' ' {
                cur.i += 1;
            }
            cur.clock() && cur.done()
        }
        _ => false,
    }
}

fn days_in_month(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.i >= self.b.len()
    }

    fn digit_at(&self, at: usize) -> Option<u32> {
        self.b
            .get(at)
            .filter(|c| c.is_ascii_digit())
            .map(|c| u32::from(c - b'0'))
    }

    /// One or two digits, as Go's non-padded layout fields read them.
    fn num(&mut self) -> Option<u32> {
        let first = self.digit_at(self.i)?;
        match self.digit_at(self.i + 1) {
            Some(second) => {
                self.i += 2;
                Some(first * 10 + second)
            }
            None => {
                self.i += 1;
                Some(first)
            }
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// `15:4:5` with an optional fraction of a second.
    fn clock(&mut self) -> bool {
        let ok = matches!(self.num(), Some(h) if h < 24)
            && self.eat(b':')
            && matches!(self.num(), Some(m) if m < 60)
            && self.eat(b':')
            && matches!(self.num(), Some(s) if s < 60);
        if !ok {
            return false;
        }
        let sep = self.b.get(self.i).copied();
        if (sep == Some(b'.') || sep == Some(b',')) && self.digit_at(self.i + 1).is_some() {
            self.i += 1;
            while self.digit_at(self.i).is_some() {
                self.i += 1;
            }
        }
        true
    }

    /// `Z` or `±hh:mm`.
    fn zone(&mut self) -> bool {
        if self.eat(b'Z') {
            return true;
        }
        let rest = &self.b[self.i.min(self.b.len())..];
        if rest.len() < 6 || rest[3] != b':' || !(rest[0] == b'+' || rest[0] == b'-') {
            return false;
        }
        let two = |x: &[u8]| x.iter().all(u8::is_ascii_digit);
        if !two(&rest[1..3]) || !two(&rest[4..6]) {
            return false;
        }
        let hh = u32::from(rest[1] - b'0') * 10 + u32::from(rest[2] - b'0');
        let mm = u32::from(rest[4] - b'0') * 10 + u32::from(rest[5] - b'0');
        self.i += 6;
        hh <= 24 && mm <= 60
    }
}

#[cfg(test)]
#[path = "emit_resolve_tests.rs"]
mod tests;
