//! starlark-go's spelling hint for a field or method that does not exist (`string has no .itmes
//! field or method (did you mean .items?)`): the nearest of the value's attribute names, by
//! edit distance, case and underscores ignored, with at most half of the name mistyped.

/// starlark-go's string methods, sorted (what `dir("")` lists).
pub const STRING_METHODS: &[&str] = &[
    "capitalize",
    "codepoint_ords",
    "codepoints",
    "count",
    "elem_ords",
    "elems",
    "endswith",
    "find",
    "format",
    "index",
    "isalnum",
    "isalpha",
    "isdigit",
    "islower",
    "isspace",
    "istitle",
    "isupper",
    "join",
    "lower",
    "lstrip",
    "partition",
    "replace",
    "rfind",
    "rindex",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "title",
    "upper",
];

/// starlark-go's methods of its own types, which its hint chooses among.
pub fn go_methods(ty: &str) -> Option<&'static [&'static str]> {
    Some(match ty {
        "string" => STRING_METHODS,
        "list" => &[
            "append", "clear", "extend", "index", "insert", "pop", "remove",
        ],
        "dict" => &[
            "clear",
            "get",
            "items",
            "keys",
            "pop",
            "popitem",
            "setdefault",
            "update",
            "values",
        ],
        _ => return None,
    })
}

/// The candidate nearest to `x`, as starlark-go's `spell.Nearest` chooses it.
pub fn nearest<'a>(x: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| *c != '_')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let x = fold(x);
    let mut best = None;
    let mut best_d = x.len().div_ceil(2); // up to half of it mistyped
    for c in candidates {
        let d = levenshtein(&x, &fold(c), best_d);
        if d < best_d {
            best_d = d;
            best = Some(*c);
        }
    }
    best
}

/// Edit distance, stopping early once it exceeds `max` (the value is then only known to be
/// greater), as starlark-go computes it.
fn levenshtein(x: &[char], y: &[char], max: usize) -> usize {
    let (mut x, mut y) = if x.len() > y.len() { (y, x) } else { (x, y) };
    let common = x.iter().zip(y).take_while(|(a, b)| a == b).count();
    x = &x[common..];
    y = &y[common..];
    if x.is_empty() {
        return y.len();
    }
    if y.len() - x.len() > max {
        return y.len() - x.len();
    }
    let mut row: Vec<usize> = (0..=y.len()).collect();
    for i in 1..=x.len() {
        row[0] = i;
        let mut best = i;
        let mut prev = i - 1;
        for j in 1..=y.len() {
            let a = prev + usize::from(x[i - 1] != y[j - 1]);
            let b = 1 + row[j - 1];
            let c = 1 + row[j];
            let k = a.min(b).min(c);
            prev = row[j];
            row[j] = k;
            best = best.min(k);
        }
        if best > max {
            return best;
        }
    }
    row[y.len()]
}

/// ` (did you mean .NAME?)` for `attr` of a value of type `ty`; `crate_guess` is the name the
/// Starlark crate suggested (it knows the names of values that are not starlark-go's own).
pub fn hint(ty: &str, attr: &str, crate_guess: Option<&str>) -> String {
    let found = match go_methods(ty) {
        Some(names) => nearest(attr, names),
        None => crate_guess.and_then(|g| nearest(attr, &[g])),
    };
    found
        .map(|n| format!(" (did you mean .{n}?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_name_within_half_the_length_is_suggested() {
        assert_eq!(hint("string", "items", None), " (did you mean .elems?)");
        assert_eq!(hint("string", "string", None), " (did you mean .strip?)");
        assert_eq!(hint("string", "nope", None), "");
        assert_eq!(hint("dict", "item", None), " (did you mean .items?)");
        assert_eq!(
            hint("struct", "nam", Some("name")),
            " (did you mean .name?)"
        );
        assert_eq!(hint("struct", "x", Some("name")), "");
        assert_eq!(nearest("Set_Default", &["setdefault"]), Some("setdefault"));
    }
}
