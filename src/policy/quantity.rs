//! Kubernetes resource quantities (`500m`, `1Gi`, `0.5`, `1e3`), read only as far as the
//! checks need: whether one is zero.

use crate::yaml::Value;

/// Whether the quantity `v` is zero; `None` when it is not a quantity (the API server
/// rejects the object, which `k8s-schema` reports).
pub fn is_zero(v: &Value) -> Option<bool> {
    match v {
        Value::Int(i) => Some(*i == 0),
        Value::Uint(u) => Some(*u == 0),
        Value::Float(f) => Some(*f == 0.0),
        Value::String(s) => number_part(s.trim()).map(|n| n == 0.0),
        _ => None,
    }
}

/// The number of a quantity without its suffix (binary `Ki`..`Ei`, decimal `n`, `u`, `m`,
/// `k`, `M`..`E`, or an exponent `e3`).
fn number_part(s: &str) -> Option<f64> {
    const SUFFIXES: &[&str] = &[
        "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E",
    ];
    let number = match SUFFIXES.iter().find_map(|suffix| s.strip_suffix(suffix)) {
        Some(n) => n,
        None => match s.find(['e', 'E']) {
            Some(i) => {
                let exp = s.get(i + 1..)?;
                exp.trim_start_matches(['+', '-']).parse::<u32>().ok()?;
                s.get(..i)?
            }
            None => s,
        },
    };
    let digits = number.trim_start_matches(['+', '-']);
    let plain = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().filter(|c| *c == '.').count() <= 1
        && digits != ".";
    plain.then(|| number.parse::<f64>().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_in_every_spelling_and_others_not() {
        let s = |t: &str| is_zero(&Value::String(t.into()));
        for zero in ["0", "0m", "0Mi", "0.0", "+0", "0e3"] {
            assert_eq!(s(zero), Some(true), "{zero}");
        }
        for some in ["100m", "1Gi", "0.5", "1e3", "2"] {
            assert_eq!(s(some), Some(false), "{some}");
        }
        for bad in ["", "abc", "1..2", "m", "1x"] {
            assert_eq!(s(bad), None, "{bad}");
        }
        assert_eq!(is_zero(&Value::Int(0)), Some(true));
        assert_eq!(is_zero(&Value::Float(0.25)), Some(false));
        assert_eq!(is_zero(&Value::Null), None);
    }
}
