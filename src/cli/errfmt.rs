//! ytt's error printing: `ytt: Error: ` and the message, whose first line is re-flowed so that
//! `": "` before an upper-case letter (outside brackets) starts a new, further indented line.

/// Formats `msg` as ytt prints it on standard error.
pub fn ytt_error(msg: &str) -> String {
    let (first, rest) = match msg.split_once('\n') {
        Some((f, r)) => (f, Some(r)),
        None => (msg, None),
    };
    let mut out = String::new();
    let mut depth = 0i32;
    let mut indent = 0usize;
    let chars: Vec<char> = first.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth == 0
            && c == ':'
            && chars.get(i + 1) == Some(&' ')
            && chars.get(i + 2).is_some_and(|n| n.is_uppercase())
        {
            indent += 2;
            out.push_str(":\n");
            out.push_str(&" ".repeat(indent));
            i += 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    let mut s = format!("ytt: Error: {out}");
    if let Some(r) = rest {
        s.push('\n');
        s.push_str(r);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflows_first_line_only() {
        assert_eq!(
            ytt_error("Checking file 'x': Lstat: no such file"),
            "ytt: Error: Checking file 'x':\n  Lstat: no such file"
        );
        assert_eq!(
            ytt_error("\n- undefined: x"),
            "ytt: Error: \n- undefined: x"
        );
    }
}
