//! One-line documentation of the `@ytt:` module members and of the annotations, for hover
//! and completion. The member *names* come from the engine (`analysis::ytt_modules`) and the
//! annotation names from the annotation check (`lint::job::annotations::KNOWN`); this table
//! only adds the words, so a member missing here is still completed, with a generic line.

/// `(module, member, signature, what it does)`.
#[rustfmt::skip]
const MEMBERS: &[(&str, &str, &str, &str)] = &[
    ("assert", "fail", "fail(msg)", "stops the evaluation with the error message msg"),
    ("assert", "try_to", "try_to(fn)", "calls fn; returns (result, None) or (None, error message)"),
    ("assert", "equals", "equals(value)", "a validation: the value equals value"),
    ("assert", "min", "min(minimum)", "a validation: the value is at least minimum"),
    ("assert", "max", "max(maximum)", "a validation: the value is at most maximum"),
    ("assert", "min_len", "min_len(length)", "a validation: the value has at least length items or characters"),
    ("assert", "max_len", "max_len(length)", "a validation: the value has at most length items or characters"),
    ("assert", "not_null", "not_null(value=None)", "a validation: the value is not null"),
    ("assert", "one_not_null", "one_not_null(keys=None)", "a validation: exactly one of the map's keys is not null"),
    ("assert", "one_of", "one_of(*values)", "a validation: the value is one of values"),
    ("base64", "encode", "encode(value, url=False, encoding=\"std\")", "the base64 encoding of a string"),
    ("base64", "decode", "decode(value, url=False, encoding=\"std\")", "the string a base64 text encodes"),
    ("data", "values", "values", "the library's data values (a struct), typed by its schema"),
    ("data", "list", "list(path=\"\")", "the paths of the library's files (under path)"),
    ("data", "read", "read(path)", "the text of a file of the library"),
    ("ip", "parse_addr", "parse_addr(text)", "an IP address (is_ipv4(), is_ipv6(), string())"),
    ("ip", "parse_cidr", "parse_cidr(text)", "an IP and its network from CIDR notation"),
    ("json", "encode", "encode(value, indent=0)", "the JSON text of a value"),
    ("json", "decode", "decode(text)", "the value of a JSON text"),
    ("library", "get", "get(name, alternative_schemas=...)", "a private library of _ytt_lib, to give data values and evaluate"),
    ("md5", "sum", "sum(text)", "the MD5 digest of a string, in hex"),
    ("overlay", "apply", "apply(left, *rights)", "applies the overlays rights to the document(s) left, in order"),
    ("overlay", "map_key", "map_key(name)", "a matcher: array items whose key name equals the overlay item's"),
    ("overlay", "index", "index(i)", "a matcher: the array item at index i"),
    ("overlay", "all", "all", "a matcher: every node"),
    ("overlay", "subset", "subset(value)", "a matcher: nodes that contain value (maps, arrays, scalars)"),
    ("overlay", "and_op", "and_op(*matchers)", "a matcher: nodes every matcher matches"),
    ("overlay", "or_op", "or_op(*matchers)", "a matcher: nodes some matcher matches"),
    ("overlay", "not_op", "not_op(matcher)", "a matcher: nodes the matcher does not match"),
    ("regexp", "match", "match(pattern, text)", "whether the RE2 pattern matches text"),
    ("regexp", "replace", "replace(pattern, text, replacement)", "text with each match of pattern replaced"),
    ("sha256", "sum", "sum(text)", "the SHA-256 digest of a string, in hex"),
    ("struct", "make", "make(**fields)", "a struct with these fields"),
    ("struct", "make_and_bind", "make_and_bind(receiver, **fns)", "a struct of functions with receiver bound as first argument"),
    ("struct", "encode", "encode(value)", "a struct (and its nested structs) turned into dicts"),
    ("struct", "decode", "decode(value)", "dicts (nested) turned into structs"),
    ("template", "replace", "replace(value)", "replaces the current node by the items of value"),
    ("toml", "encode", "encode(value, indent=0)", "the TOML text of a dict"),
    ("toml", "decode", "decode(text)", "the dict of a TOML text"),
    ("url", "path_segment_encode", "path_segment_encode(text)", "text escaped for a URL path segment"),
    ("url", "path_segment_decode", "path_segment_decode(text)", "a URL path segment unescaped"),
    ("url", "query_param_value_encode", "query_param_value_encode(text)", "text escaped for a query parameter value"),
    ("url", "query_param_value_decode", "query_param_value_decode(text)", "a query parameter value unescaped"),
    ("url", "query_params_encode", "query_params_encode(params)", "a query string from a dict of lists"),
    ("url", "query_params_decode", "query_params_decode(text)", "a dict of lists from a query string"),
    ("url", "parse", "parse(text)", "a URL (user, without_user(), string())"),
    ("version", "require_at_least", "require_at_least(version)", "fails unless ytt is at least this version"),
    ("yaml", "encode", "encode(value)", "the YAML text of a value"),
    ("yaml", "decode", "decode(text)", "the value of a YAML text"),
];

/// `(annotation, what it does)`.
#[rustfmt::skip]
const ANNOTATIONS: &[(&str, &str)] = &[
    ("assert/validate", "validates the node with the given rules (tuples of description and check)"),
    ("comment", "a comment ytt keeps out of the output"),
    ("data/values", "this document holds data values (overlaid on the defaults)"),
    ("data/values-schema", "this document declares the library's data values: their types and defaults"),
    ("library/ref", "addresses this data values or schema document to a private library (\"@lib\")"),
    ("overlay/append", "appends this array item to the left array"),
    ("overlay/assert", "asserts that the left node equals this node (or passes via=)"),
    ("overlay/insert", "inserts this document or array item before= or after= the matched one"),
    ("overlay/match", "selects the left nodes this overlay node applies to (by=, expects=, missing_ok=)"),
    ("overlay/match-child-defaults", "sets the default expects=/missing_ok= of the children's matches"),
    ("overlay/merge", "merges this node into the matched one (the default)"),
    ("overlay/remove", "removes the matched node"),
    ("overlay/replace", "replaces the matched node (by this one, or via= a function of the old)"),
    ("schema/default", "the default value of this node, when it differs from the value shown"),
    ("schema/deprecated", "marks the data value deprecated, with a notice"),
    ("schema/desc", "describes the data value (documentation, OpenAPI export)"),
    ("schema/examples", "example values, as (description, value) tuples"),
    ("schema/nullable", "the data value may be null (its default becomes null)"),
    ("schema/title", "a short title of the data value"),
    ("schema/type", "the type of the data value (any=True: anything)"),
    ("schema/validation", "validation rules of the data value, checked after all values are set"),
    ("schema/validation-defaults-for-strings", "validations every string below this node gets"),
    ("template/code", "the node's value is Starlark code"),
    ("template/value", "the node's value is the result of the Starlark expression"),
    ("yaml/map-key-override", "this map key may repeat one before it (the last one wins)"),
    ("yaml/text-templated-strings", "the node's strings are text templates ((@= ... @))"),
];

/// The signature and line of `module.member`, when the table has it.
pub fn member(module: &str, member: &str) -> Option<(&'static str, &'static str)> {
    MEMBERS
        .iter()
        .find(|(m, n, _, _)| *m == module && *n == member)
        .map(|(_, _, sig, doc)| (*sig, *doc))
}

/// What the annotation `name` does.
pub fn annotation(name: &str) -> Option<&'static str> {
    ANNOTATIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::ytt_modules;

    #[test]
    fn every_documented_name_exists() {
        for (m, n, _, _) in MEMBERS {
            let module = ytt_modules::module(m).unwrap();
            assert!(module.members.iter().any(|x| x == n), "{m}.{n}");
        }
        for a in crate::lint::job::annotations::KNOWN {
            assert!(annotation(a).is_some(), "annotation {a} has no line");
        }
    }
}
