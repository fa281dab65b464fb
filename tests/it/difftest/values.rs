//! Programs that hand ytt's own values to every Starlark builtin, method and operator: structs
//! (`struct.make`, `struct.encode`, data values maps), YAML map and array fragments (from
//! `#@ def` functions of a loaded library file and of the template), the values of the other
//! `@ytt:` modules (assertions, URLs, IP addresses, overlay matchers), `None`, and plain
//! strings, ints, lists, dicts and tuples. starlark-go sees a struct or a map fragment as a
//! mapping (`dict()`, `dict.update`, `**`, `in`, `len`, iteration over keys), which the crate
//! does not: these families keep that class closed.
//!
//! The values come from [`DATA_VALUES`] and [`HELPERS`], written beside every template, and
//! from [`TEMPLATE_PRELUDE`], at the top of every template.

use super::gen::{Program, Rng};

/// The data values file (`v.yml`) of every run.
pub const DATA_VALUES: &str = "#@data/values
---
m:
  a: 1
  b: x
  c:
    d: [1, 2]
e: {}
l: [1, b]
s: str
z: null
i: 3
";

/// The library file (`h.lib.yml`) whose functions return YAML fragments.
pub const HELPERS: &str = "#@ def ya():
- 1
- b: 2
- [3, 4]
#@ end
---
#@ def ym():
a: 1
b: [1, 2]
c:
  d: x
#@ end
#@ def ye():
#@ if False:
a: 1
#@ end
#@ end
#@ def yk():
1: one
true: yes
#@ end
";

/// The top of every template: a fragment function defined in the template itself.
pub const TEMPLATE_PRELUDE: &[&str] = &["#@ def tm():", "a: 1", "k: [x]", "#@ end"];

/// The name `Program::loads` gives the helpers library (loaded from `h.lib.yml`).
pub const HELPERS_MODULE: &str = "helpers";

/// A ytt value and the modules its expression needs.
fn value(r: &mut Rng) -> (String, Vec<&'static str>) {
    let (e, m): (&str, &[&'static str]) = match r.below(34) {
        0 => ("struct.make(a=1, b=\"x\")", &["struct"]),
        1 => ("struct.make()", &["struct"]),
        2 => (
            "struct.encode({\"a\": [1, 2], \"b\": {\"c\": None}})",
            &["struct"],
        ),
        3 => ("struct.make(b=struct.make(c=1))", &["struct"]),
        4 => ("struct.encode([{\"a\": 1}])", &["struct"]),
        5 | 6 => ("data.values.m", &["data"]),
        7 => ("data.values.e", &["data"]),
        8 => ("data.values.m.c", &["data"]),
        9 => ("data.values.l", &["data"]),
        10 => ("data.values.s", &["data"]),
        11 => ("data.values.z", &["data"]),
        12 => ("data.values", &["data"]),
        13 | 14 => ("ym()", &[HELPERS_MODULE]),
        15 | 16 => ("ya()", &[HELPERS_MODULE]),
        17 => ("ye()", &[HELPERS_MODULE]),
        18 => ("ym()[\"c\"]", &[HELPERS_MODULE]),
        19 => ("ya()[1]", &[HELPERS_MODULE]),
        20 => ("yk()", &[HELPERS_MODULE]),
        21 => ("tm()", &[]),
        22 => ("assert.min(1)", &["assert"]),
        23 => ("url.parse(\"http://u@h:1/p?q=1\")", &["url"]),
        24 => ("ip.parse_addr(\"10.0.0.1\")", &["ip"]),
        25 => ("overlay.subset({\"a\": 1})", &["overlay"]),
        26 => ("None", &[]),
        27 => ("\"ab\"", &[]),
        28 => ("3", &[]),
        29 => ("[1, \"a\"]", &[]),
        30 => ("{\"a\": 1, \"b\": [2]}", &[]),
        31 => ("(1, \"b\")", &[]),
        32 => ("True", &[]),
        _ => ("1.5", &[]),
    };
    (e.to_string(), m.to_vec())
}

fn program(loads: Vec<&'static str>, expr: String) -> Program {
    let mut p = Program::expr(expr);
    p.loads = loads;
    p
}

fn body(loads: Vec<&'static str>, lines: &[String]) -> Program {
    let mut p = Program::expr(String::new());
    p.loads = loads;
    p.body = lines.to_vec();
    p
}

/// Every builtin of ytt's universe, called with a ytt value.
pub fn builtins(r: &mut Rng) -> Program {
    let (v, loads) = value(r);
    let e = match r.below(36) {
        0 => format!("len({v})"),
        1 => format!("str({v})"),
        2 => format!("repr({v})"),
        3 => format!("bool({v})"),
        4 => format!("type({v})"),
        5 => format!("list({v})"),
        6 => format!("tuple({v})"),
        7 | 8 => format!("dict({v})"),
        9 => format!("dict({v}, z=1)"),
        10 => format!("sorted({v})"),
        11 => format!("list(reversed({v}))"),
        12 => format!("list(enumerate({v}))"),
        13 => format!("zip({v}, [1, 2, 3])"),
        14 => format!("zip([1], {v})"),
        15 => format!("min({v})"),
        16 => format!("max({v})"),
        17 => format!("[any({v}), all({v})]"),
        18 => format!("hasattr({v}, \"{}\")", r.pick(&["a", "b", "keys", "x"])),
        19 => format!(
            "getattr({v}, \"{}\", \"none\")",
            r.pick(&["a", "b", "keys", "x"])
        ),
        20 => format!("getattr({v}, \"{}\")", r.pick(&["a", "keys", "x"])),
        21 => format!("dir({v})"),
        22 => format!("hash({v})"),
        23 => format!("int({v})"),
        24 => format!("float({v})"),
        25 => format!("list(range({v}))"),
        26 => format!("chr({v})"),
        27 => format!("ord({v})"),
        28 => format!("sorted(list(set({v})))"),
        29 => format!("[print({v}), 1]"),
        30 => format!("fail({v})"),
        31 => format!("sorted({v}, reverse=True)"),
        32 => format!("dict([(\"k\", {v})])"),
        33 => format!("[{v}]"),
        34 => format!("{{\"k\": {v}}}"),
        _ => format!("max({v}, key=lambda x: str(x))"),
    };
    program(loads, e)
}

/// String, list and dict methods given a ytt value as an argument.
pub fn methods_with(r: &mut Rng) -> Program {
    let (v, loads) = value(r);
    let string = [
        "\"-\".join({v})",
        "\"ab\".startswith({v})",
        "\"ab\".endswith({v})",
        "\"a b\".split({v})",
        "\"a b\".rsplit({v})",
        "\"ab\".find({v})",
        "\"ab\".rfind({v})",
        "\"ab\".count({v})",
        "\"ab\".index({v})",
        "\"ab\".replace({v}, \"x\")",
        "\"ab\".strip({v})",
        "\"ab\".lstrip({v})",
        "\"ab\".rstrip({v})",
        "\"ab\".partition({v})",
        "\"ab\".splitlines({v})",
        "\"<{{}}>\".format({v})",
        "\"<{{a}}>\".format(a={v})",
        "\"%s\" % ({v},)",
        "\"%r\" % ({v},)",
        "\"%d\" % ({v},)",
        "\"%s\" % {v}",
        "\"%(a)s\" % {v}",
    ];
    let list = [
        "x = [0]\nx.extend({v})\nreturn x",
        "x = [0]\nx.append({v})\nreturn x",
        "x = [0]\nx.insert(0, {v})\nreturn x",
        "x = [0, {v}]\nreturn x.index({v})",
        "x = [0, 1]\nx.remove({v})\nreturn x",
        "x = [0, 1]\nreturn x.pop({v})",
        "x = [0]\nx += {v}\nreturn x",
        // Augmented assignments: starlark-go's binary operator, then the assignment.
        "x = {v}\nx *= 2\nreturn x",
        "x = \"%s\"\nx %= {v}\nreturn x",
        "x = 3\nx <<= {v}\nreturn x",
        "x = None\nx |= {v}\nreturn x",
        "x = {v}\nx |= 1\nreturn x",
        "x = {v}\nx -= 1\nreturn x",
        "x = 6\nx //= {v}\nreturn x",
        "x = [1]\nx *= {v}\nreturn x",
        "d = {\"a\": 1}\nd[\"a\"] |= {v}\nreturn d",
    ];
    let dict = [
        "d = {}\nd.update({v})\nreturn d",
        "d = {\"a\": 0, \"q\": 9}\nd.update({v})\nreturn d",
        "d = {}\nd.update({v}, k=2)\nreturn d",
        "d = {\"a\": 0}\nreturn d.get({v})",
        "d = {\"a\": 0}\nreturn d.pop({v}, \"none\")",
        "d = {}\nd.setdefault(\"k\", {v})\nreturn d",
        "d = {}\nd.setdefault({v}, 1)\nreturn d",
        "d = {}\nd[{v}] = 1\nreturn d",
        "d = {}\nd[\"k\"] = {v}\nreturn d",
        "d = {}\nd |= {v}\nreturn d",
    ];
    let pick = r.below(string.len() + list.len() + dict.len());
    let template = if pick < string.len() {
        string[pick]
    } else if pick < string.len() + list.len() {
        list[pick - string.len()]
    } else {
        dict[pick - string.len() - list.len()]
    };
    let text = template
        .replace("{{", "{")
        .replace("}}", "}")
        .replace("{v}", &v);
    if text.contains('\n') {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        return body(loads, &lines);
    }
    program(loads, text)
}

/// Methods and fields looked up on a ytt value.
pub fn methods_on(r: &mut Rng) -> Program {
    let (v, loads) = value(r);
    let e = match r.below(14) {
        0 => format!("{v}.keys()"),
        1 => format!("{v}.values()"),
        2 => format!("{v}.items()"),
        3 => format!("{v}.get(\"a\")"),
        4 => format!("{v}.a"),
        5 => format!("{v}.b"),
        6 => format!("{v}.nope"),
        7 => format!("{v}.upper()"),
        8 => format!("{v}.append(1)"),
        9 => format!("{v}.update({{}})"),
        10 => format!("{v}.find(\"a\")"),
        11 => format!("{v}.index(1)"),
        12 => format!("{v}.hostname()"),
        _ => format!("{v}.string()"),
    };
    program(loads, e)
}

/// Operators, indexing, slicing, iteration and argument spreading on a ytt value.
pub fn operators(r: &mut Rng) -> Program {
    let (v, mut loads) = value(r);
    let (w, more) = value(r);
    loads.extend(more);
    let e = match r.below(30) {
        0 => format!("\"a\" in {v}"),
        1 => format!("1 in {v}"),
        2 => format!("\"c\" not in {v}"),
        3 => format!("{v}[\"a\"]"),
        4 => format!("{v}[0]"),
        5 => format!("{v}[-1]"),
        6 => format!("{v}[0:1]"),
        7 => format!("{v}[::-1]"),
        8 => format!("{v} == {v}"),
        9 => format!("{v} == {w}"),
        10 => format!("{v} != {w}"),
        11 => format!("{v} < {w}"),
        12 => format!("{v} + {w}"),
        13 => format!("{v} + [1]"),
        14 => format!("{v} * 2"),
        15 => format!("[not {v}, {v} or 1, {v} and 1]"),
        16 => format!("[x for x in {v}]"),
        17 => format!("{{k: 1 for k in {v}}}"),
        18 => format!("(lambda *a: a)(*{v})"),
        19 | 20 => format!("(lambda **k: k)(**{v})"),
        21 => format!("dict(**{v})"),
        22 => format!("-{v}"),
        23 => format!("{v} | {w}"),
        24 => format!("{v} in [{w}]"),
        25 => format!("{v}[{w}]"),
        26 => format!("[{v}] + [{w}]"),
        27 => format!("{v} if {v} else {w}"),
        28 => format!("{v} % {w}"),
        _ => format!("{v} >= {w}"),
    };
    program(loads, e)
}

/// Statements over a ytt value: loops, assignments into it, unpacking.
pub fn statements(r: &mut Rng) -> Program {
    let (v, loads) = value(r);
    let lines: Vec<String> = match r.below(8) {
        0 => vec![
            "acc = []".to_string(),
            format!("for x in {v}:"),
            "  acc.append(x)".to_string(),
            "end".to_string(),
            "return acc".to_string(),
        ],
        1 => vec![
            "acc = []".to_string(),
            format!("for k, w in {v}:"),
            "  acc.append([k, w])".to_string(),
            "end".to_string(),
            "return acc".to_string(),
        ],
        2 => vec![
            format!("x = {v}"),
            "x[\"a\"] = 5".to_string(),
            "return x".to_string(),
        ],
        3 => vec![
            format!("x = {v}"),
            "x[0] = 5".to_string(),
            "return x".to_string(),
        ],
        4 => vec![format!("a, b = {v}"), "return [a, b]".to_string()],
        5 => vec![
            "d = {}".to_string(),
            format!("d.update({v})"),
            "d.update(d)".to_string(),
            "return [d, len(d), sorted([str(k) for k in d])]".to_string(),
        ],
        6 => vec![
            format!("x = {v}"),
            "x += [1]".to_string(),
            "return x".to_string(),
        ],
        _ => vec![
            format!("x = dict({v})"),
            "x[\"new\"] = 1".to_string(),
            format!("return [x, {v}]"),
        ],
    };
    body(loads, &lines)
}
