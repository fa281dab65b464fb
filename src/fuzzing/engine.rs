//! The engine's fuzz targets: the YAML parser and emitter, the template compilers,
//! `.yttlint.yaml`, KubeVirt annotations, and a whole `yttlint template` run on one file.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::setup;
use crate::eval::limits::Limits;
use crate::files::InputFile;
use crate::library::{EvalOpts, ExternalValues, Workspace};
use crate::template::compile::{compile_text, compile_yaml, CompileOpts};
use crate::yaml::parse::{parse, ParseOpts};

/// The YAML parser (lenient and strict) and the emitter on what it parsed.
pub fn yaml_parse(data: &[u8]) {
    setup();
    let text = String::from_utf8_lossy(data);
    let name: Arc<str> = Arc::from("fuzz.yml");
    for strict in [false, true] {
        if let Ok(ds) = parse(&text, &name, &ParseOpts { strict }) {
            let _ = crate::yaml::emit::docset_to_yaml(&ds);
        }
    }
    let _ = crate::yaml::utf8::first_error(data);
}

/// The YAML and text template compilers.
pub fn template_compile(data: &[u8]) {
    setup();
    let text = String::from_utf8_lossy(data);
    let name: Arc<str> = Arc::from("fuzz.yml");
    if let Ok(ds) = parse(&text, &name, &ParseOpts::default()) {
        for ignore_unknown_comments in [false, true] {
            let opts = CompileOpts {
                ignore_unknown_comments,
            };
            let _ = compile_yaml(&ds, &name, 0, opts);
        }
    }
    let _ = compile_text(&text, &name, 0);
    let _ = crate::template::keywords::rename_reserved(&text);
}

/// `.yttlint.yaml` (paths checked against a directory that does not exist).
pub fn config_parse(data: &[u8]) {
    setup();
    let text = String::from_utf8_lossy(data);
    let dir = Path::new("/nonexistent/yttlint-fuzz");
    let _ = crate::lint::config::parse::parse(&text, ".yttlint.yaml", dir);
}

/// A KubeVirt `validations` annotation.
pub fn kubevirt_annotation(data: &[u8]) {
    setup();
    let _ = crate::kubevirt::annotation::read(&String::from_utf8_lossy(data));
}

/// `yttlint template` on one file, with small limits: the first byte picks its kind (YAML
/// template, Starlark module, text template), the rest is its content.
pub fn template_render(data: &[u8]) {
    setup();
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let name = ["t.yml", "t.star", "t.txt"][usize::from(kind % 3)];
    let mut files = vec![InputFile::from_bytes(name, rest.to_vec())];
    if name != "t.yml" {
        // Something that loads the module or includes the text.
        files.push(InputFile::new(
            "main.yml",
            "#@ load(\"@ytt:data\", \"data\")\nx: #@ len(data.list())\n",
        ));
    }
    let mut limits = Limits::default();
    limits.ticks = 2_000_000;
    limits.heap_bytes = 64 << 20;
    limits.timeout = Duration::from_secs(2);
    let opts = EvalOpts {
        limits,
        ..EvalOpts::default()
    };
    let ws = Workspace::new(files, opts);
    if let Ok(out) = ws.evaluate(ExternalValues::default()) {
        let _ = crate::yaml::emit::docset_to_yaml(&out.docs);
    }
}
