//! A parse of one file made into the parse of another file with the same text: a copy whose
//! positions carry the other file's name. A parse depends on the file's name only through its
//! positions (see [`crate::yaml::parse`]), so the copy equals what parsing the text again under
//! the other name would give, at a fraction of the cost (repositories vendor the same upstream
//! manifests and libraries under many paths).

use std::sync::Arc;

use super::node::{Annotations, Array, Comment, DocSet, Map, Value};
use crate::pos::Pos;

/// A copy of `parsed` (a parse of a file named `from`) whose positions name `to`.
pub fn renamed(parsed: &DocSet, from: &str, to: &Arc<str>) -> DocSet {
    let mut copy = parsed.clone();
    let names = Names { from, to };
    names.pos(&mut copy.pos);
    names.comments(&mut copy.comments);
    names.anns(&mut copy.anns);
    for d in &mut copy.items {
        names.pos(&mut d.pos);
        names.comments(&mut d.comments);
        names.anns(&mut d.anns);
        names.value(&mut d.value);
    }
    copy
}

struct Names<'a> {
    from: &'a str,
    to: &'a Arc<str>,
}

impl Names<'_> {
    fn pos(&self, p: &mut Pos) {
        if p.file.as_deref() == Some(self.from) {
            p.file = Some(self.to.clone());
        }
    }

    fn comments(&self, cs: &mut [Comment]) {
        for c in cs {
            self.pos(&mut c.pos);
        }
    }

    fn anns(&self, anns: &mut Annotations) {
        for a in &mut anns.0 {
            self.pos(&mut a.pos);
        }
    }

    fn value(&self, v: &mut Value) {
        // A loop for the last child of each node keeps the recursion to the nesting of
        // collections that are not last.
        let mut v = v;
        loop {
            match v {
                Value::Map(m) => {
                    let Map {
                        items,
                        pos,
                        comments,
                        anns,
                    } = &mut **m;
                    self.pos(pos);
                    self.comments(comments);
                    self.anns(anns);
                    let Some((last, rest)) = items.split_last_mut() else {
                        return;
                    };
                    for item in rest {
                        self.pos(&mut item.pos);
                        self.comments(&mut item.comments);
                        self.anns(&mut item.anns);
                        self.value(&mut item.key);
                        self.value(&mut item.value);
                    }
                    self.pos(&mut last.pos);
                    self.comments(&mut last.comments);
                    self.anns(&mut last.anns);
                    self.value(&mut last.key);
                    v = &mut last.value;
                }
                Value::Array(a) => {
                    let Array {
                        items,
                        pos,
                        comments,
                        anns,
                    } = &mut **a;
                    self.pos(pos);
                    self.comments(comments);
                    self.anns(anns);
                    let Some((last, rest)) = items.split_last_mut() else {
                        return;
                    };
                    for item in rest {
                        self.pos(&mut item.pos);
                        self.comments(&mut item.comments);
                        self.anns(&mut item.anns);
                        self.value(&mut item.value);
                    }
                    self.pos(&mut last.pos);
                    self.comments(&mut last.comments);
                    self.anns(&mut last.anns);
                    v = &mut last.value;
                }
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::{parse, ParseOpts};

    #[test]
    fn a_renamed_parse_equals_the_parse_under_the_other_name() {
        let text = "#! head\n---\n#@ load(\"x.star\", \"y\")\na: #@ y\nb:\n- 1 #! one\n- {c: [d, e]}\n- - deep\n  - er\n---\n#@data/values\n---\nplain: \"text\"\n";
        let a: Arc<str> = Arc::from("lib/a.yml");
        let b: Arc<str> = Arc::from("other/place/a.yml");
        let opts = ParseOpts::default();
        let under_a = parse(text, &a, &opts).unwrap();
        let under_b = parse(text, &b, &opts).unwrap();
        assert_ne!(under_a, under_b);
        assert_eq!(renamed(&under_a, &a, &b), under_b);
        assert_eq!(renamed(&under_b, &b, &a), under_a);
    }
}
