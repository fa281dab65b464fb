//! Templates made ready once per thread (`eval::ready`) render as a thread that never saw them
//! renders them: the same template evaluated again with other data values (the language
//! server's run after an edit of the values file, another scenario), and its errors, which
//! still point at the template's lines.

use super::{EvalOpts, Workspace};
use crate::files::InputFile;
use crate::library::ExternalValues;
use crate::yaml::emit::docset_to_yaml;

const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")
#@ load(\"helpers.star\", \"labels\")
#@ def port(n):
#@   return n * 2
#@ end
---
name: #@ data.values.name.upper()
labels: #@ labels(data.values.name)
#@ for i in range(data.values.count):
---
index: #@ i
port: #@ port(data.values.count + i)
#@ end
";

const HELPERS: &str = "def labels(name):
  return {\"app\": name, \"split\": name.split(\"-\")}
end
";

const TEXT: &str = "(@ load(\"@ytt:data\", \"data\") @)name=(@= data.values.name @)\n";

/// The output of the library with `values` as its values file, or the error message.
fn render(values: &str, extra: &[(&str, &str)]) -> String {
    let mut files = vec![
        InputFile::new("values.yml", values),
        InputFile::new("t.yml", TEMPLATE),
        InputFile::new("helpers.star", HELPERS),
        InputFile::new("t.txt", TEXT),
    ];
    files.extend(extra.iter().map(|(p, d)| InputFile::new(p, d)));
    let ws = Workspace::new(files, EvalOpts::default());
    match ws.evaluate(ExternalValues::default()) {
        Ok(out) => {
            let mut text = docset_to_yaml(&out.docs);
            for f in &out.files {
                if let super::OutputContent::Text(t) = &f.content {
                    text.push_str(&format!("{}: {t}", f.rel_path));
                }
            }
            text
        }
        Err(e) => format!("error at {:?}: {}", e.pos.map(|p| p.line), e.message),
    }
}

/// `f` on a new thread: one whose caches are empty, and keep what it makes ready.
fn fresh<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    crate::eval::ready::keep(1 << 20);
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("join")
}

const ONE: &str = "#@data/values\n---\nname: web-a\ncount: 2\n";
const TWO: &str = "#@data/values\n---\nname: api-b\ncount: 3\n";

#[test]
fn a_template_evaluated_again_renders_as_on_a_fresh_thread() {
    let (one, two, one_again) = fresh(|| (render(ONE, &[]), render(TWO, &[]), render(ONE, &[])));
    assert!(one.contains("name: WEB-A"), "{one}");
    assert!(one.contains("t.txt: name=web-a"), "{one}");
    assert_ne!(one, two);
    assert_eq!(one, one_again);
    assert_eq!(one, fresh(|| render(ONE, &[])));
    assert_eq!(two, fresh(|| render(TWO, &[])));
}

#[test]
fn errors_of_a_template_evaluated_again_point_at_its_lines() {
    let broken =
        "#@ load(\"@ytt:data\", \"data\")\n---\nok: 1\nratio: #@ 10 // (data.values.count - 2)\n";
    let syntax = "(@ if True: @)x(@ end @)(@ x = = 1 @)\n";
    let extra = [("broken.yml", broken), ("syntax.txt", syntax)];
    let (first, again) = fresh(move || (render(ONE, &extra), render(ONE, &extra)));
    assert!(first.starts_with("error at Some(4)"), "{first}");
    assert!(first.contains("broken.yml:4"), "{first}");
    assert_eq!(first, again);
    assert_eq!(first, fresh(move || render(ONE, &extra)));
    // A template whose code does not parse: not kept, and reported each time.
    let only_syntax = [("syntax.txt", syntax)];
    let (first, again) = fresh(move || (render(TWO, &only_syntax), render(TWO, &only_syntax)));
    assert!(first.contains("Evaluating text template"), "{first}");
    assert_eq!(first, again);
}

/// A template whose node gets a document set: ytt's error names the instruction function with
/// the template's number (`__ytt_tpl5_set_node`: the values file and the two templates before
/// it are 2 to 4).
const DOCSET_ITEM: &str = "#@ def/end docset():\n---\nfoo: true\n\n---\nbar: #@ docset()\n";

#[test]
fn a_template_kept_from_another_job_is_named_with_this_job_s_number_as_in_ytt() {
    // The same file comes after one more template in the second library, so ytt numbers it
    // one higher there; its code is compiled once and kept for the second.
    let before = [("z.yml", DOCSET_ITEM)];
    let after = [("y.yml", "---\nplain: #@ 1\n"), ("z.yml", DOCSET_ITEM)];
    let (first, second) = fresh(move || (render(ONE, &before), render(ONE, &after)));
    assert!(first.contains("__ytt_tpl5_set_node: map items"), "{first}");
    assert!(
        second.contains("__ytt_tpl6_set_node: map items"),
        "{second}"
    );
    assert_eq!(first, fresh(move || render(ONE, &before)));
    assert_eq!(second, fresh(move || render(ONE, &after)));
    assert!(!second.contains("__ytt_tpl0_"), "{second}");
}
