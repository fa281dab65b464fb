//! go-yaml's timestamp detection (a subset of YAML 1.1 timestamps, as Go's `time.Parse`
//! accepts them): only the detection matters, since ytt keeps timestamps as strings.

/// Takes 1 or 2 leading ASCII digits (Go's non-fixed `getnum`).
fn take_num(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    let n = match (b.first(), b.get(1)) {
        (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => 2,
        (Some(x), _) if x.is_ascii_digit() => 1,
        _ => return None,
    };
    Some((s[..n].parse().ok()?, &s[n..]))
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The timestamp layouts go-yaml tries: `2006-1-2`, `2006-1-2 15:4:5.999999999`, and
/// `2006-1-2T15:4:5.999999999Z07:00` (also with a lower-case `t`).
pub(super) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let year: u32 = s[..4].parse().unwrap_or(0);
    let Some((month, rest)) = take_num(&s[5..]) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix('-') else {
        return false;
    };
    let Some((day, rest)) = take_num(rest) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let (with_zone, rest) = match rest.as_bytes()[0] {
        b'T' | b't' => (true, &rest[1..]),
        b' ' => (false, &rest[1..]),
        _ => return false,
    };
    let Some(rest) = time_of_day(rest) else {
        return false;
    };
    if !with_zone {
        return rest.is_empty();
    }
    if rest == "Z" {
        return true;
    }
    let z = rest.as_bytes();
    z.len() == 6
        && matches!(z[0], b'+' | b'-')
        && z[3] == b':'
        && [1, 2, 4, 5].iter().all(|i| z[*i].is_ascii_digit())
}

fn time_of_day(s: &str) -> Option<&str> {
    let (h, rest) = take_num(s)?;
    let (m, rest) = take_num(rest.strip_prefix(':')?)?;
    let (sec, mut rest) = take_num(rest.strip_prefix(':')?)?;
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let b = rest.as_bytes();
    if b.len() >= 2 && matches!(b[0], b'.' | b',') && b[1].is_ascii_digit() {
        let n = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        rest = &rest[n..];
    }
    Some(rest)
}
