//! ytt's `-o`/`--output` flag: a pflag string slice, so it may be repeated and each value is
//! a comma-separated (CSV) list; the types it holds are of two kinds, taken apart: the first
//! file format type (`yaml`, `json`, `pos`; `yaml` when none is given) says how documents are
//! printed, and the schema type (`openapi-v3`) asks `--data-values-schema-inspect` for an
//! OpenAPI document. `-o yaml -o json` is YAML, `-o json,yaml` JSON, and
//! `--data-values-schema-inspect -o openapi-v3 -o json` the OpenAPI document as JSON. The
//! messages are ytt's (`Unknown output type 'ymal'`, and pflag's for a value that is not CSV).

/// The file format types of `-o` and the schema type, as ytt names them.
pub const FORMAT_TYPES: [&str; 3] = ["yaml", "json", "pos"];
pub const OPENAPI: &str = "openapi-v3";

/// ytt's `-o`: a string slice (each occurrence read as one CSV record and appended) holding
/// file format types and schema types.
#[derive(Debug, PartialEq)]
pub struct OutputTypes(Vec<String>);

impl OutputTypes {
    /// Reads each `-o` value as pflag's string slice does (Go's CSV reader: commas separate,
    /// double quotes quote, only the first line counts; an empty value adds nothing).
    pub fn parse(values: &[String]) -> Result<OutputTypes, String> {
        let mut types = Vec::new();
        for value in values {
            types.extend(csv_record(value).map_err(|e| {
                format!("invalid argument {value:?} for \"-o, --output\" flag: {e}")
            })?);
        }
        Ok(OutputTypes(types))
    }

    /// ytt's error for the first type it does not know.
    pub fn check(&self) -> Result<(), String> {
        let known = |t: &String| FORMAT_TYPES.contains(&t.as_str()) || t == OPENAPI;
        match self.0.iter().find(|t| !known(t)) {
            Some(t) => Err(format!("Unknown output type '{t}'")),
            None => Ok(()),
        }
    }

    /// The first file format type given (`yaml` when none is).
    pub fn format(&self) -> Result<&str, String> {
        self.check()?;
        Ok(self.format_unchecked())
    }

    pub fn format_unchecked(&self) -> &str {
        self.0
            .iter()
            .find(|t| FORMAT_TYPES.contains(&t.as_str()))
            .map_or("yaml", String::as_str)
    }

    /// Whether `kind` was given.
    pub fn has(&self, kind: &str) -> bool {
        self.0.iter().any(|t| t == kind)
    }

    /// Whether the schema type was asked for, or a type ytt does not know (whose error ytt
    /// gives once it has read the schemas).
    pub fn schema_or_unknown(&self) -> bool {
        self.check().is_err() || self.has(OPENAPI)
    }
}

/// The fields of the first line of `text` as Go's `encoding/csv` reads them, or its error.
fn csv_record(text: &str) -> Result<Vec<String>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let line = text.split('\n').next().unwrap_or("");
    let line = line.strip_suffix('\r').unwrap_or(line);
    let bytes = line.as_bytes();
    let error =
        |column: usize, what: &str| format!("parse error on line 1, column {column}: {what}");
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let mut field = String::new();
        if bytes.get(i) == Some(&b'"') {
            let mut j = i + 1;
            loop {
                match bytes.get(j) {
                    None => {
                        return Err(error(
                            line.len() + 1,
                            "extraneous or missing \" in quoted-field",
                        ))
                    }
                    Some(b'"') if bytes.get(j + 1) == Some(&b'"') => {
                        field.push('"');
                        j += 2;
                    }
                    Some(b'"') => break,
                    Some(_) => {
                        let next = line[j..].chars().next().unwrap_or('"');
                        field.push(next);
                        j += next.len_utf8();
                    }
                }
            }
            i = j + 1;
            if !matches!(bytes.get(i), None | Some(b',')) {
                return Err(error(j + 1, "extraneous or missing \" in quoted-field"));
            }
        } else {
            let end = line[i..].find(',').map_or(line.len(), |k| i + k);
            if let Some(q) = line[i..end].find('"') {
                return Err(error(i + q + 1, "bare \" in non-quoted-field"));
            }
            field.push_str(&line[i..end]);
            i = end;
        }
        fields.push(field);
        if i >= line.len() {
            return Ok(fields);
        }
        i += 1;
        if i == line.len() {
            fields.push(String::new());
            return Ok(fields);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(values: &[&str]) -> Result<OutputTypes, String> {
        OutputTypes::parse(&values.iter().map(|v| v.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn the_first_format_wins_and_the_schema_type_is_apart() {
        let t = types(&["yaml", "json"]).unwrap();
        assert_eq!(t.format(), Ok("yaml"));
        assert!(!t.has(OPENAPI));
        assert_eq!(types(&["json,yaml"]).unwrap().format(), Ok("json"));
        let t = types(&["openapi-v3", "json"]).unwrap();
        assert_eq!(t.format(), Ok("json"));
        assert!(t.has(OPENAPI) && t.schema_or_unknown());
        assert_eq!(types(&[]).unwrap().format(), Ok("yaml"));
        assert_eq!(
            types(&[""]).unwrap().format(),
            Ok("yaml"),
            "an empty value adds nothing"
        );
        assert_eq!(types(&["pos,json"]).unwrap().format(), Ok("pos"));
    }

    #[test]
    fn unknown_types_are_ytt_s_errors() {
        let unknown = |v: &[&str]| types(v).unwrap().format().unwrap_err();
        assert_eq!(unknown(&["ymal"]), "Unknown output type 'ymal'");
        assert_eq!(unknown(&["json,ymal"]), "Unknown output type 'ymal'");
        assert_eq!(unknown(&[","]), "Unknown output type ''");
        assert_eq!(unknown(&["json, yaml"]), "Unknown output type ' yaml'");
        assert!(types(&["ymal"]).unwrap().schema_or_unknown());
    }

    #[test]
    fn values_are_read_as_csv() {
        assert_eq!(csv_record("\"json\""), Ok(vec!["json".to_string()]));
        assert_eq!(csv_record("\"a\"\"b\""), Ok(vec!["a\"b".to_string()]));
        assert_eq!(csv_record("a,"), Ok(vec!["a".to_string(), String::new()]));
        assert_eq!(csv_record("json\nyaml"), Ok(vec!["json".to_string()]));
        let err = |v: &str| types(&[v]).unwrap_err();
        assert_eq!(
            err("js\"on"),
            "invalid argument \"js\\\"on\" for \"-o, --output\" flag: parse error on line 1, column 3: bare \" in non-quoted-field"
        );
        assert!(err("\"ab\"c").ends_with("column 4: extraneous or missing \" in quoted-field"));
        assert!(err("\"ab").ends_with("column 4: extraneous or missing \" in quoted-field"));
        assert!(err("a,\"b").ends_with("column 5: extraneous or missing \" in quoted-field"));
    }
}
