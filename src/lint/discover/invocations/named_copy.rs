//! The user's copy of a documented example, named by the page in a directory known only at
//! run time: the page says `cp sample-values.yml ${TMP_DIR}/values.yml`, then renders `ytt -f
//! config -f ${TMP_DIR}/values.yml`. The input's file name is the name the page gives the
//! copy and its directory is the reader's, so the example stands in for it (the
//! `example-values` assumption, a warning that names the example): without it the command is
//! evaluated without the values the reader gives, and a key the example carries that the
//! templates no longer declare (a data values overlay that fails in ytt whatever the reader
//! fills in) is lost (round twelve's LR12-B1). [`super::documented_example`] does the same for
//! an input whose whole name is known only at run time (`-f $1`).

use super::documented_example::{assumption, nearest, Documented};
use super::word::Word;
use crate::report::Assumption;

/// The example standing in for `written` (a `-f` input of a command of `file`): a path whose
/// last segment is literal and the name a page gives the copy of a data values example, under
/// a directory with a part known only at run time.
pub fn for_input(
    written: &Word,
    file: &str,
    documented: &[Documented],
) -> Option<(String, Assumption)> {
    let mut segments = written.normalized().segments();
    let last = segments.pop()?.literal()?;
    if segments.iter().all(|s| s.unknowns().next().is_none()) {
        return None;
    }
    let named: Vec<Documented> = documented
        .iter()
        .filter(|d| d.copy.as_deref() == Some(last.as_str()))
        .cloned()
        .collect();
    let d = nearest(file, &named, true)?;
    Some((
        d.example.path.clone(),
        assumption(&format!("`-f {written}`"), d),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::documented_example::Example;
    use super::*;

    fn documented(copy: &str) -> Vec<Documented> {
        vec![Documented {
            example: Example {
                path: "sample-values.yml".into(),
                data_values: true,
            },
            at: "README.md:5".into(),
            copy: Some(copy.into()),
        }]
    }

    fn path(dir: &str, name: &str) -> Word {
        let mut w = Word::unknown(dir);
        w.push_lit(&format!("/{name}"), false);
        w
    }

    #[test]
    fn the_copy_s_name_under_a_run_time_directory_is_the_example() {
        let got = for_input(
            &path("$TMP_DIR", "values.yml"),
            "README.md",
            &documented("values.yml"),
        );
        let (example, a) = got.expect("stands in");
        assert_eq!(example, "sample-values.yml");
        assert!(a
            .message
            .contains("user's copy of sample-values.yml (README.md:5"));
    }

    #[test]
    fn another_name_or_a_known_directory_is_not() {
        let docs = documented("values.yml");
        assert!(for_input(&path("$TMP_DIR", "other.yml"), "README.md", &docs).is_none());
        assert!(for_input(&Word::lit("tmp/values.yml"), "README.md", &docs).is_none());
        let mut not_data = docs.clone();
        not_data[0].example.data_values = false;
        let w = path("$TMP_DIR", "values.yml");
        assert!(for_input(&w, "README.md", &not_data).is_none());
    }
}
