//! Natural order of names that hold numbers: `r2` before `r10`, as people number things
//! (`config/r1`, `config/r2`, …, `config/r10`), where byte order gives `r1, r10, r11, …, r2`.

use std::cmp::Ordering;

/// `a` and `b` in natural order: runs of ASCII digits compare as numbers (any length; leading
/// zeros break ties), the rest byte by byte.
pub fn cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (na, ra) = split_digits(a);
                let (nb, rb) = split_digits(b);
                let order = number(na).cmp(&number(nb)).then(na.len().cmp(&nb.len()));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (ra, rb);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

/// The leading digits of `s` and the rest.
fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
    s.split_at(n)
}

/// A run of digits as a comparable number: without leading zeros, shorter is smaller.
fn number(digits: &[u8]) -> (usize, &[u8]) {
    let start = digits.iter().take_while(|c| **c == b'0').count();
    let rest = &digits[start..];
    (rest.len(), rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_names_sort_as_numbers() {
        let mut names = vec!["r10", "r2", "r1", "r11", "a", "r02", "r1x", "b9/c", "b10/a"];
        names.sort_by(|a, b| cmp(a, b));
        assert_eq!(
            names,
            ["a", "b9/c", "b10/a", "r1", "r1x", "r2", "r02", "r10", "r11"]
        );
        let long = "x184467440737095516150";
        assert_eq!(cmp(long, "x18446744073709551616"), Ordering::Greater);
        assert_eq!(cmp("same", "same"), Ordering::Equal);
    }
}
