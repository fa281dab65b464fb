//! End-to-end: `@ytt:` modules rendered by the built binary, and evaluation errors traced as
//! ytt traces them (Starlark frames innermost first, builtins left out, `<toplevel>` last).

use crate::util::{template, Run, TempDir};

/// Renders `text` (written as `t.yml` in a fresh directory) with `yttlint template`.
fn render(text: &str) -> Run {
    let dir = TempDir::with_files(&[("t.yml", text)]);
    template(&dir, &["-f", "t.yml"])
}

#[test]
fn modules_render_as_ytt_renders_them() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(
        r#"#@ load("@ytt:json", "json")
#@ load("@ytt:base64", "base64")
#@ load("@ytt:regexp", "regexp")
#@ load("@ytt:url", "url")
#@ load("@ytt:ip", "ip")
#@ load("@ytt:toml", "toml")
#@ load("@ytt:assert", "assert")
json: #@ json.encode({"b": [1, 2.5], "a": "<x>"})
b64: #@ base64.decode(base64.encode("hi", url=True), url=True)
re: #@ regexp.replace("(\\w+)@(\\w+)", "me@host", "$2 ${1}")
url: #@ url.parse("https://u:p@h.example:8443/a b?q=1").without_user().string()
net: #@ ip.parse_cidr("10.1.2.3/8")[1].string()
toml: #@ toml.encode({"t": {"k": "v"}, "n": 1})
try: #@ assert.try_to(lambda: assert.min(3).check(2))
"#,
    );
    assert_eq!(code, 0, "{err}");
    let want = r#"json: '{"a":"\u003cx\u003e","b":[1,2.5]}'
b64: hi
re: host me
url: https://h.example:8443/a%20b?q=1
net: 10.0.0.0/8
toml: |
  n = 1

  [t]
    k = "v"
try:
- null
- 'fail: value < 3'
"#;
    assert_eq!(out, want);
}

#[test]
fn errors_show_each_starlark_frame_then_toplevel() {
    let Run {
        code, stderr: err, ..
    } = render(
        r#"#@ load("@ytt:json", "json")
#@ def f():
#@   return json.decode("}")
#@ end
x: #@ f()
"#,
    );
    assert_ne!(code, 0);
    let want = "ytt: Error: \n- json.decode: invalid character '}' looking for beginning of value
    in f
      t.yml:3 | #@   return json.decode(\"}\")
    in <toplevel>
      t.yml:5 | x: #@ f()";
    assert_eq!(err.trim_end(), want);
}

#[test]
fn failed_checks_show_ytts_lambda() {
    let Run {
        code, stderr: err, ..
    } = render("#@ load(\"@ytt:assert\", \"assert\")\nx: #@ assert.max_len(1).check(\"ab\")\n");
    assert_ne!(code, 0);
    let want = "ytt: Error: \n- fail: length = 2
    in lambda
      assert.max_len:1 | (unavailable)
    in <toplevel>
      t.yml:2 | x: #@ assert.max_len(1).check(\"ab\")";
    assert_eq!(err.trim_end(), want);
}

/// Spec 001's `decodable()` checks: true exactly when the module's `decode` would succeed.
#[test]
fn decodable_tells_whether_decode_would_succeed() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(
        r#"#@ load("@ytt:json", "json")
#@ load("@ytt:base64", "base64")
#@ load("@ytt:yaml", "yaml")
json: #@ [json.decodable('{"a": [1, 2]}'), json.decodable("{"), json.decodable("1 2")]
b64: #@ [base64.decodable("aGk="), base64.decodable("aGk"), base64.decodable("aGk", raw=True), base64.decodable("-_8=", url=True), base64.decodable("!!")]
yaml: #@ [yaml.decodable("a: [1, 2]"), yaml.decodable("a: [1"), yaml.decodable("a: 1\n---\nb: 2")]
"#,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "json:\n- true\n- false\n- false\nb64:\n- true\n- false\n- true\n- true\n- false\nyaml:\n- true\n- false\n- false\n"
    );
    let Run {
        code, stderr: err, ..
    } = render("#@ load(\"@ytt:json\", \"json\")\nx: #@ json.decodable(1)\n");
    assert_ne!(code, 0);
    assert!(err.contains("json.decodable"), "{err}");
}
