//! Random, mostly well-typed Starlark programs over ytt's builtins and `@ytt:` modules, one
//! family at a time. A program is either an expression (placed as a YAML value) or a function
//! body with statements (defined and called in the template). Everything comes from a seeded
//! generator, so a seed reproduces a run.

use super::values;

/// splitmix64: small, seedable, good enough to pick programs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
}

/// The families, each a generator of one program.
/// Makes one program of a family.
pub type Generator = fn(&mut Rng) -> Program;

pub const FAMILIES: &[(&str, Generator)] = &[
    ("int_arith", |r| Program::expr(int_expr(r, 3))),
    ("int_str", |r| {
        Program::expr(format!("str({})", big_int_expr(r)))
    }),
    ("float_arith", |r| Program::expr(float_expr(r, 2))),
    ("compare", |r| Program::expr(compare_expr(r))),
    ("str_search", str_search),
    ("str_split_join", str_split),
    ("str_case", str_case),
    ("str_strip_replace", str_strip),
    ("str_percent", str_percent),
    ("str_format", str_format),
    ("str_index_slice", str_slice),
    ("str_unicode", str_unicode),
    ("str_iterable", str_iterable),
    ("list_ops", |r| Program::expr(list_expr(r, 3))),
    ("list_methods", list_methods),
    ("dict_ops", dict_ops),
    ("range", range_expr),
    ("sorted_reversed", sorted_expr),
    ("builtins_misc", builtins_misc),
    ("conversions", conversions),
    ("tuple", tuple_expr),
    ("struct", struct_expr),
    ("json", json_expr),
    ("yaml", yaml_expr),
    ("base64", base64_expr),
    ("hashes", hash_expr),
    ("regexp", regexp_expr),
    ("url", url_expr),
    ("math", math_expr),
    ("statements", statements),
    ("repr_str", |r| {
        Program::expr(format!("repr({})", any_value(r, 2)))
    }),
    ("ytt_builtins", values::builtins),
    ("ytt_methods_with", values::methods_with),
    ("ytt_methods_on", values::methods_on),
    ("ytt_operators", values::operators),
    ("ytt_statements", values::statements),
];

/// One program: the modules it loads, function definitions (lines of Starlark, `end`-style),
/// and the expression whose value is shown.
pub struct Program {
    pub loads: Vec<&'static str>,
    pub body: Vec<String>,
    pub expr: String,
}

impl Program {
    pub fn expr(expr: String) -> Program {
        Program {
            loads: Vec::new(),
            body: Vec::new(),
            expr,
        }
    }

    fn with(module: &'static str, expr: String) -> Program {
        Program {
            loads: vec![module],
            body: Vec::new(),
            expr,
        }
    }
}

const WORDS: &[&str] = &[
    "",
    "a",
    "ab",
    "abc",
    "aXbX",
    "  hi  ",
    "a,b,,c",
    "x-y_z",
    "Hello World",
    "1",
    "yes",
    "on",
    "null",
    "~",
    "0x1F",
    "10",
    "-3",
    "1e3",
    "a b\\tc\\nd",
    "ABC",
    "aaa",
    "#x",
    "k: v",
    "'q'",
    "\\\"d\\\"",
    "True",
    "",
    "3.0",
    "foo.bar",
    "@at",
];

fn str_lit(r: &mut Rng) -> String {
    let w = r.pick(WORDS);
    if r.chance(10) {
        return format!("'{}'", w.replace('\'', "\\'"));
    }
    format!("\"{w}\"")
}

fn small_int(r: &mut Rng) -> String {
    match r.below(10) {
        0 => r
            .pick(&[
                "2147483647",
                "-2147483648",
                "9223372036854775807",
                "4294967296",
                "0x7f",
                "0o17",
                "0b101",
                "1000000007",
            ])
            .to_string(),
        1 | 2 => r.range(-20, 20).to_string(),
        _ => r.range(0, 9).to_string(),
    }
}

fn nonzero(r: &mut Rng) -> String {
    let n = r.range(1, 9);
    if r.chance(30) {
        format!("-{n}")
    } else {
        n.to_string()
    }
}

fn int_expr(r: &mut Rng, d: u32) -> String {
    if d == 0 || r.chance(25) {
        return small_int(r);
    }
    let a = int_expr(r, d - 1);
    match r.below(12) {
        0 => format!("({a} + {})", int_expr(r, d - 1)),
        1 => format!("({a} - {})", int_expr(r, d - 1)),
        2 => format!("({a} * {})", small_int(r)),
        3 => format!("({a} // {})", nonzero(r)),
        4 => format!("({a} % {})", nonzero(r)),
        5 => format!("(-{a})"),
        6 => format!("({a} & {})", int_expr(r, d - 1)),
        7 => format!("({a} | {})", int_expr(r, d - 1)),
        8 => format!("({a} ^ {})", int_expr(r, d - 1)),
        9 => format!("({a} >> {})", r.range(0, 8)),
        10 => format!("len({})", str_expr(r, d - 1)),
        _ => format!("{}({a}, {})", r.pick(&["min", "max"]), int_expr(r, d - 1)),
    }
}

fn big_int_expr(r: &mut Rng) -> String {
    let a = int_expr(r, 2);
    match r.below(4) {
        0 => format!("({a}) << {}", r.range(0, 70)),
        1 => format!("({a}) * {} * {}", small_int(r), small_int(r)),
        2 => format!("int(\"{}\")", "9".repeat(r.range(1, 40) as usize)),
        _ => format!("({a}) * 9223372036854775807"),
    }
}

fn float_lit(r: &mut Rng) -> String {
    r.pick(&[
        "0.5",
        "1.0",
        "2.5",
        "-1.5",
        "1e10",
        "1e21",
        "1e-5",
        "0.1",
        "3.0",
        "100.0",
        "1e100",
        "123456789.0",
        "0.0",
        "-0.0",
        "7.25",
    ])
    .to_string()
}

fn float_expr(r: &mut Rng, d: u32) -> String {
    if d == 0 || r.chance(20) {
        return float_lit(r);
    }
    let a = float_expr(r, d - 1);
    match r.below(8) {
        0 => format!("({a} + {})", float_expr(r, d - 1)),
        1 => format!("({a} - {})", small_int(r)),
        2 => format!("({a} * {})", float_expr(r, d - 1)),
        3 => format!("({a} / {})", nonzero(r)),
        4 => format!("float({})", small_int(r)),
        5 => format!("({a} // {})", nonzero(r)),
        6 => format!("str({a})"),
        _ => format!("({} / {})", small_int(r), nonzero(r)),
    }
}

fn scalar(r: &mut Rng) -> String {
    match r.below(6) {
        0 => small_int(r),
        1 => float_lit(r),
        2 => str_lit(r),
        3 => r.pick(&["True", "False"]).to_string(),
        4 => "None".to_string(),
        _ => format!("[{}, {}]", small_int(r), small_int(r)),
    }
}

fn compare_expr(r: &mut Rng) -> String {
    let op = r.pick(&["<", "<=", ">", ">=", "==", "!="]);
    let (a, b) = match r.below(7) {
        0 => (int_expr(r, 1), int_expr(r, 1)),
        1 => (str_lit(r), str_lit(r)),
        2 => (float_expr(r, 1), int_expr(r, 1)),
        3 => (list_lit(r), list_lit(r)),
        4 => (
            format!("({}, {})", scalar(r), scalar(r)),
            format!("({}, {})", scalar(r), scalar(r)),
        ),
        5 => (scalar(r), scalar(r)),
        _ => (
            r.pick(&["None", "True", "False"]).to_string(),
            r.pick(&["None", "True", "False"]).to_string(),
        ),
    };
    format!("[{a} {op} {b}, {a} == {b}]")
}

fn str_expr(r: &mut Rng, d: u32) -> String {
    if d == 0 || r.chance(30) {
        return str_lit(r);
    }
    let a = str_expr(r, d - 1);
    match r.below(8) {
        0 => format!("({a} + {})", str_expr(r, d - 1)),
        1 => format!("({a} * {})", r.range(-1, 3)),
        2 => format!("str({})", int_expr(r, d - 1)),
        3 => format!("{a}.{}()", r.pick(&["upper", "lower", "strip", "title"])),
        4 => format!("{a}.replace({}, {})", str_lit(r), str_lit(r)),
        5 => format!("{a}[{}:{}]", r.range(-3, 4), r.range(-3, 6)),
        6 => format!("(\"%d\" % {})", int_expr(r, d - 1)),
        _ => format!("{}.join([{a}, {}])", str_lit(r), str_lit(r)),
    }
}

fn bound(r: &mut Rng) -> String {
    match r.below(5) {
        0 => "None".to_string(),
        1 => r.range(-10, -1).to_string(),
        2 => r.range(50, 200).to_string(),
        _ => r.range(0, 6).to_string(),
    }
}

fn str_search(r: &mut Rng) -> Program {
    let s = str_expr(r, 1);
    let sub = r.pick(&[
        "\"\"", "\"a\"", "\"b\"", "\"ab\"", "\",\"", "\"X\"", "\" \"",
    ]);
    let m = r.pick(&["find", "rfind", "count", "startswith", "endswith"]);
    let args = match r.below(3) {
        0 => sub.to_string(),
        1 => format!("{sub}, {}", bound(r)),
        _ => format!("{sub}, {}, {}", bound(r), bound(r)),
    };
    let e = if r.chance(15) {
        let m = r.pick(&["index", "rindex"]);
        format!("{s}.{m}({sub})")
    } else {
        format!("{s}.{m}({args})")
    };
    Program::expr(e)
}

fn str_split(r: &mut Rng) -> Program {
    let s = str_lit(r);
    let e = match r.below(7) {
        0 => format!("{s}.split()"),
        1 => format!(
            "{s}.split({}, {})",
            r.pick(&["\",\"", "\"a\"", "\" \"", "None"]),
            r.range(-1, 3)
        ),
        2 => format!(
            "{s}.rsplit({}, {})",
            r.pick(&["\",\"", "\"a\"", "\" \"", "None"]),
            r.range(-1, 3)
        ),
        3 => format!("{s}.splitlines({})", r.pick(&["", "True", "False"])),
        4 => format!(
            "{s}.{}({})",
            r.pick(&["partition", "rpartition"]),
            r.pick(&["\",\"", "\"a\"", "\" \""])
        ),
        5 => format!(
            "{}.join({s}.split({}))",
            str_lit(r),
            r.pick(&["\",\"", "\"a\""])
        ),
        _ => format!("{s}.split(\"\")"),
    };
    Program::expr(e)
}

fn str_case(r: &mut Rng) -> Program {
    let s = str_lit(r);
    let m = r.pick(&[
        "upper",
        "lower",
        "title",
        "capitalize",
        "isalpha",
        "isalnum",
        "isdigit",
        "islower",
        "isupper",
        "isspace",
        "istitle",
    ]);
    Program::expr(format!("{s}.{m}()"))
}

fn str_strip(r: &mut Rng) -> Program {
    let s = str_lit(r);
    let e = match r.below(4) {
        0 => format!("{s}.{}()", r.pick(&["strip", "lstrip", "rstrip"])),
        1 => format!(
            "{s}.{}({})",
            r.pick(&["strip", "lstrip", "rstrip"]),
            str_lit(r)
        ),
        2 => format!("{s}.replace({}, {})", str_lit(r), str_lit(r)),
        _ => format!(
            "{s}.replace({}, {}, {})",
            str_lit(r),
            str_lit(r),
            r.range(-1, 3)
        ),
    };
    Program::expr(e)
}

fn str_percent(r: &mut Rng) -> Program {
    let e = match r.below(8) {
        0 => format!(
            "\"%d|%5d|%-4d|%x|%X|%o\" % ({}, {}, {}, 255, 255, 8)",
            small_int(r),
            small_int(r),
            small_int(r)
        ),
        1 => format!("\"%s and %r\" % ({}, {})", scalar(r), scalar(r)),
        2 => format!(
            "\"%.2f|%e|%g|%f\" % ({}, {}, {}, {})",
            float_lit(r),
            float_lit(r),
            float_lit(r),
            small_int(r)
        ),
        3 => format!("\"%s\" % {}", scalar(r)),
        4 => format!(
            "\"%(a)s-%(b)d\" % {{\"a\": {}, \"b\": {}}}",
            str_lit(r),
            small_int(r)
        ),
        5 => format!("\"%%|%c\" % {}", r.pick(&["65", "\"x\"", "233"])),
        6 => format!("\"%5s|%-5s|\" % ({}, {})", str_lit(r), str_lit(r)),
        _ => format!("\"%d\" % {}", float_lit(r)),
    };
    Program::expr(e)
}

fn str_format(r: &mut Rng) -> Program {
    let e = match r.below(5) {
        0 => format!("\"{{}} {{}}\".format({}, {})", scalar(r), scalar(r)),
        1 => format!("\"{{0}}{{1}}{{0}}\".format({}, {})", scalar(r), scalar(r)),
        2 => format!("\"{{a}}-{{b!r}}\".format(a={}, b={})", scalar(r), scalar(r)),
        3 => format!("\"{{!r}}/{{!s}}\".format({}, {})", scalar(r), scalar(r)),
        _ => format!("\"{{{{}}}} {{}}\".format({})", scalar(r)),
    };
    Program::expr(e)
}

fn str_slice(r: &mut Rng) -> Program {
    let s = str_lit(r);
    let e = match r.below(4) {
        0 => format!(
            "{s}[{}:{}]",
            bound(r).replace("None", ""),
            bound(r).replace("None", "")
        ),
        1 => format!(
            "{s}[{}:{}:{}]",
            r.range(-4, 4),
            r.range(-4, 8),
            r.pick(&["1", "2", "-1", "-2", "3"])
        ),
        2 => format!("{s}[::-1]"),
        _ => format!("{s}[{}] if len({s}) > 3 else {s}", r.range(-3, 3)),
    };
    Program::expr(e)
}

fn str_unicode(r: &mut Rng) -> Program {
    let s = r.pick(&["\"héllo\"", "\"ñandú\"", "\"日本語\"", "\"a€b\"", "\"abc\""]);
    let e = match r.below(7) {
        0 => format!("len({s})"),
        1 => format!(
            "{s}.find({})",
            r.pick(&["\"l\"", "\"b\"", "\"\"", "\"語\""])
        ),
        2 => format!("list({s}.codepoints())"),
        3 => format!("list({s}.codepoint_ords())"),
        4 => format!("list({s}.elem_ords())"),
        5 => format!("{s}.upper()"),
        _ => format!("{s}.count(\"\")"),
    };
    Program::expr(e)
}

/// `codepoints()`, `elems()` and their `_ords`: iterables, not lists.
fn str_iterable(r: &mut Rng) -> Program {
    let s = r.pick(&["\"héllo\"", "\"ab\"", "\"\"", "\"a€\"", "\"x\\\"y\""]);
    let m = r.pick(&["codepoints", "codepoint_ords", "elems", "elem_ords"]);
    // Single bytes of a multi-byte character placed in YAML are `!!binary` in ytt, which
    // yttlint does not write yet (a known difference, left out here).
    let s = if m == "elems" && !s.is_ascii() {
        "\"ab\""
    } else {
        s
    };
    let it = format!("{s}.{m}()");
    let e = match r.below(8) {
        0 => format!("type({it})"),
        1 => format!("str({it})"),
        2 => format!("[x for x in {it}]"),
        3 => format!("bool({it})"),
        4 => format!("len({it})"),
        5 => format!("sorted({it}, reverse=True)"),
        6 => format!(
            "[hasattr({s}, \"{m}\"), {}]",
            r.pick(&["\"x\" in dir(\"\")", "len(dir(\"\"))"])
        ),
        _ => format!("list(enumerate({it}))"),
    };
    Program::expr(e)
}

fn list_lit(r: &mut Rng) -> String {
    let n = r.below(5);
    let items: Vec<String> = (0..n).map(|_| small_int(r)).collect();
    format!("[{}]", items.join(", "))
}

fn list_expr(r: &mut Rng, d: u32) -> String {
    if d == 0 || r.chance(25) {
        return list_lit(r);
    }
    let a = list_expr(r, d - 1);
    match r.below(8) {
        0 => format!("({a} + {})", list_expr(r, d - 1)),
        1 => format!("({a} * {})", r.range(-1, 3)),
        2 => format!("{a}[{}:{}]", r.range(-3, 3), r.range(-2, 6)),
        3 => format!("[x * 2 for x in {a} if x % 2 == 0]"),
        4 => format!("[{} in {a}]", small_int(r)),
        5 => format!("list(reversed({a}))"),
        6 => format!("[len({a})] + {a}[::2]"),
        _ => format!("[[x, y] for x in {a} for y in {}]", list_lit(r)),
    }
}

fn list_methods(r: &mut Rng) -> Program {
    let mut body = vec![format!("x = {}", list_lit(r))];
    for _ in 0..r.range(1, 4) {
        body.push(match r.below(7) {
            0 => format!("x.append({})", scalar(r)),
            1 => format!("x.extend({})", list_lit(r)),
            2 => format!("x.insert({}, {})", r.range(-3, 5), small_int(r)),
            3 => "x.pop() if x else None".to_string(),
            4 => format!(
                "x.remove({}) if {} in x else None",
                "x[0] if x else 0", "(x[0] if x else 0)"
            ),
            5 => format!(
                "y = x.index({}) if {} in x else -1",
                "x[-1] if x else 0", "(x[-1] if x else 0)"
            ),
            _ => format!("x += {}", list_lit(r)),
        });
    }
    body.push("return x".to_string());
    Program {
        loads: Vec::new(),
        body,
        expr: String::new(),
    }
}

fn dict_lit(r: &mut Rng) -> String {
    let n = r.below(4);
    let items: Vec<String> = (0..n)
        .map(|_| {
            format!(
                "{}: {}",
                r.pick(&["\"a\"", "\"b\"", "\"c\"", "1", "2"]),
                scalar(r)
            )
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

fn dict_ops(r: &mut Rng) -> Program {
    let d = dict_lit(r);
    let e = match r.below(10) {
        0 => d.clone(),
        1 => format!("{d}.keys()"),
        2 => format!("{d}.values()"),
        3 => format!("{d}.items()"),
        4 => format!("{d}.get(\"a\", {})", scalar(r)),
        5 => format!("[\"a\" in {d}, len({d})]"),
        6 => format!("{{k: v for k, v in {d}.items()}}"),
        7 => format!("dict(zip([\"x\", \"y\"], {}))", list_lit(r)),
        8 => format!("dict({d}, z={})", scalar(r)),
        _ => {
            return Program {
                loads: Vec::new(),
                body: vec![
                    format!("d = {d}"),
                    format!("d.update({})", dict_lit(r)),
                    format!("d.setdefault(\"q\", {})", scalar(r)),
                    format!("v = d.pop(\"a\", {})", scalar(r)),
                    "return [d, v, sorted([str(k) for k in d])]".to_string(),
                ],
                expr: String::new(),
            }
        }
    };
    Program::expr(e)
}

fn range_expr(r: &mut Rng) -> Program {
    let args = match r.below(3) {
        0 => r.range(-2, 8).to_string(),
        1 => format!("{}, {}", r.range(-5, 5), r.range(-5, 10)),
        _ => format!("{}, {}, {}", r.range(-5, 5), r.range(-5, 10), nonzero(r)),
    };
    let e = match r.below(5) {
        0 => format!("list(range({args}))"),
        1 => format!("len(range({args}))"),
        2 => format!("list(range({args})[1:])"),
        3 => format!("[{} in range({args})]", small_int(r)),
        _ => format!("[x for x in range({args})][::-1]"),
    };
    Program::expr(e)
}

fn sorted_expr(r: &mut Rng) -> Program {
    let e = match r.below(5) {
        0 => format!("sorted({})", list_lit(r)),
        1 => format!("sorted({}, reverse=True)", list_lit(r)),
        2 => format!("sorted([{}, {}, {}])", str_lit(r), str_lit(r), str_lit(r)),
        3 => format!("sorted({}, key=lambda x: -x)", list_lit(r)),
        _ => format!("list(reversed({}))", str_lit(r)),
    };
    Program::expr(e)
}

fn builtins_misc(r: &mut Rng) -> Program {
    let l = list_lit(r);
    let e = match r.below(12) {
        0 => format!("[min({l} + [0]), max({l} + [0])]"),
        1 => format!("[any({l}), all({l})]"),
        2 => format!("list(enumerate({l}))"),
        3 => format!("list(zip({l}, {}))", str_lit(r)),
        4 => format!("[bool({}), bool({})]", scalar(r), scalar(r)),
        5 => format!(
            "[chr({}), ord({})]",
            r.range(32, 126),
            r.pick(&["\"a\"", "\"Z\"", "\"é\""])
        ),
        6 => format!("type({})", scalar(r)),
        7 => format!(
            "[hasattr({}, \"upper\"), getattr(\"ab\", \"upper\")()]",
            scalar(r)
        ),
        8 => format!("hash({})", str_lit(r)),
        9 => format!("dir({})", r.pick(&["\"\"", "[]", "{}"])),
        10 => format!(
            "len({})",
            r.pick(&["[1]", "{}", "\"ab\"", "(1, 2)", "range(3)"])
        ),
        _ => format!("list(enumerate({l}, {}))", r.range(-2, 3)),
    };
    Program::expr(e)
}

fn conversions(r: &mut Rng) -> Program {
    let e = match r.below(8) {
        0 => format!("int({})", str_lit(r)),
        1 => format!(
            "int({}, {})",
            r.pick(&[
                "\"ff\"", "\"0x1f\"", "\"101\"", "\"0b11\"", "\"-12\"", "\"z\"", "\"0o7\"",
                "\"1_0\""
            ]),
            r.pick(&["0", "2", "8", "16", "36", "10"])
        ),
        2 => format!("int({})", float_lit(r)),
        3 => format!(
            "float({})",
            r.pick(&["\"1.5\"", "\"1e3\"", "\"inf\"", "\"-0\"", "3", "\"x\""])
        ),
        4 => format!("str({})", scalar(r)),
        5 => format!(
            "int({})",
            r.pick(&["True", "False", "\"+7\"", "\" 7\"", "\"07\""])
        ),
        6 => format!("[str({}), repr({})]", float_expr(r, 1), float_expr(r, 1)),
        _ => format!("bool({})", scalar(r)),
    };
    Program::expr(e)
}

fn tuple_expr(r: &mut Rng) -> Program {
    let t = format!("({}, {}, {})", scalar(r), scalar(r), small_int(r));
    let e = match r.below(5) {
        0 => t.clone(),
        1 => format!("{t}[{}:{}]", r.range(-3, 2), r.range(-1, 4)),
        2 => format!("{t} + ({},)", scalar(r)),
        3 => format!("len({t} * {})", r.range(0, 3)),
        _ => format!("list({t})"),
    };
    Program::expr(e)
}

fn any_value(r: &mut Rng, d: u32) -> String {
    if d == 0 {
        return scalar(r);
    }
    match r.below(4) {
        0 => format!("[{}, {}]", any_value(r, d - 1), any_value(r, d - 1)),
        1 => format!(
            "{{\"k\": {}, \"j\": {}}}",
            any_value(r, d - 1),
            any_value(r, d - 1)
        ),
        2 => format!("({},)", any_value(r, d - 1)),
        _ => scalar(r),
    }
}

fn struct_expr(r: &mut Rng) -> Program {
    let v = any_value(r, 2);
    let e = match r.below(4) {
        0 => format!("struct.make(a={v}, b={})", scalar(r)),
        1 => format!("struct.decode(struct.encode({{\"x\": {v}}}))"),
        2 => format!("getattr(struct.make(a={v}), \"a\")"),
        _ => format!(
            "[hasattr(struct.make(a=1), {}), dir(struct.make(b=1, a=2))]",
            r.pick(&["\"a\"", "\"b\""])
        ),
    };
    Program::with("struct", e)
}

fn json_expr(r: &mut Rng) -> Program {
    let v = any_value(r, 2);
    let e = match r.below(4) {
        0 => format!("json.encode({v})"),
        1 => format!("json.decode(json.encode({v}))"),
        2 => format!("json.encode({v}, indent={})", r.range(0, 3)),
        _ => format!(
            "json.decode({})",
            r.pick(&["'{\"a\": [1, 2.5, null]}'", "'1e3'", "'\"x\"'", "'[true]'"])
        ),
    };
    Program::with("json", e)
}

fn yaml_expr(r: &mut Rng) -> Program {
    let v = any_value(r, 2);
    let e = match r.below(3) {
        0 => format!("yaml.encode({v})"),
        1 => format!("yaml.decode(yaml.encode({v}))"),
        _ => format!(
            "yaml.decode({})",
            r.pick(&[
                "\"a: 1\"",
                "\"- x\\n- 2\"",
                "\"k: yes\"",
                "\"1.5\"",
                "\"~\""
            ])
        ),
    };
    Program::with("yaml", e)
}

fn base64_expr(r: &mut Rng) -> Program {
    let s = str_lit(r);
    let e = match r.below(4) {
        0 => format!("base64.encode({s})"),
        1 => format!("base64.decode(base64.encode({s}))"),
        2 => format!("base64.encode({s}, url=True, nopadding=True)"),
        _ => format!(
            "base64.encode({s}, {})",
            r.pick(&["encoding=\"URL\"", "nopadding=True", "strict=True"])
        ),
    };
    Program::with("base64", e)
}

fn hash_expr(r: &mut Rng) -> Program {
    let s = str_expr(r, 1);
    if r.chance(50) {
        Program::with("md5", format!("md5.sum({s})"))
    } else {
        Program::with("sha256", format!("sha256.sum({s})"))
    }
}

fn regexp_expr(r: &mut Rng) -> Program {
    let pat = r.pick(&[
        "\"a+\"",
        "\"^a\"",
        "\"(\\\\w+)\"",
        "\"[0-9]\"",
        "\"b$\"",
        "\"\"",
        "\"x*\"",
    ]);
    let s = str_lit(r);
    let e = if r.chance(50) {
        format!("regexp.match({pat}, {s})")
    } else {
        format!(
            "regexp.replace({pat}, {s}, {})",
            r.pick(&["\"-\"", "\"$1$1\"", "\"\"", "\"<${1}>\""])
        )
    };
    Program::with("regexp", e)
}

fn url_expr(r: &mut Rng) -> Program {
    let s = str_lit(r);
    let e = match r.below(5) {
        0 => format!("url.path_segment_encode({s})"),
        1 => format!("url.query_param_value_encode({s})"),
        2 => format!("url.path_segment_decode(url.path_segment_encode({s}))"),
        3 => format!("url.query_params_encode({{\"a\": [{s}], \"b\": [\"1\", \"2\"]}})"),
        _ => format!(
            "url.parse({}).hostname()",
            r.pick(&[
                "\"http://h.example:80/p\"",
                "\"https://u:p@x.y/z?q=1\"",
                "\"/rel\""
            ])
        ),
    };
    Program::with("url", e)
}

fn math_expr(r: &mut Rng) -> Program {
    let x = if r.chance(50) {
        float_lit(r)
    } else {
        small_int(r)
    };
    let e = match r.below(5) {
        0 => format!("math.{}({x})", r.pick(&["ceil", "floor", "fabs"])),
        1 => format!("math.sqrt(math.fabs({x}))"),
        2 => format!("math.pow({x}, {})", r.range(0, 3)),
        3 => format!("math.round({x})"),
        _ => "[math.pi, math.e]".to_string(),
    };
    Program::with("math", e)
}

fn statements(r: &mut Rng) -> Program {
    let mut body = vec!["acc = []".to_string(), "n = 0".to_string()];
    match r.below(4) {
        0 => {
            body.push(format!("for i in range({}):", r.range(0, 6)));
            body.push(format!("  if i % {} == 0:", r.range(1, 3)));
            body.push("    continue".to_string());
            body.push("  end".to_string());
            body.push("  acc.append(i * i)".to_string());
            body.push("  n += i".to_string());
            body.push("end".to_string());
        }
        1 => {
            body.push(format!("for k, v in {}.items():", dict_lit(r)));
            body.push("  acc.append(str(k) + \"=\" + str(v))".to_string());
            body.push("end".to_string());
        }
        2 => {
            body.push(format!("for c in {}.elems():", str_lit(r)));
            body.push("  if c == \"b\":".to_string());
            body.push("    break".to_string());
            body.push("  end".to_string());
            body.push("  acc.append(c)".to_string());
            body.push("end".to_string());
        }
        _ => {
            body.push(format!("x = {}", small_int(r)));
            body.push("if x > 3:".to_string());
            body.push("  n = x * 2".to_string());
            body.push("elif x < 0:".to_string());
            body.push("  n = -x".to_string());
            body.push("else:".to_string());
            body.push("  n = None".to_string());
            body.push("end".to_string());
        }
    }
    body.push("return [acc, n]".to_string());
    Program {
        loads: Vec::new(),
        body,
        expr: String::new(),
    }
}
