//! `yttlint template`: the same flags, output and exit status as `ytt template`.

use std::io::{Read, Write};

use clap::Parser;

use super::output_types::{OutputTypes, OPENAPI};
use crate::files;
use crate::library::{EvalOpts, OutputContent, OutputFile, Workspace};
use crate::yaml::emit::docset_to_yaml;
use crate::yaml::json::docset_to_json;
use crate::ytt_flags::TemplateArgs;

/// Runs the command; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let parsed = match TemplateArgs::try_parse_from(
        std::iter::once("template".to_string()).chain(args.iter().cloned()),
    ) {
        Ok(a) => a,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap's text on standard output, success.
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            eprintln!("ytt: Error: {}", e.to_string().lines().next().unwrap_or(""));
            return 1;
        }
    };
    match render(&parsed) {
        Ok(out) => {
            let _ = std::io::stdout().write_all(out.as_bytes());
            0
        }
        Err(msg) => {
            eprintln!("{}", super::errfmt::ytt_error(&msg));
            1
        }
    }
}

fn render(a: &TemplateArgs) -> Result<String, String> {
    // ytt reads `-o` as a CSV string slice when it parses its flags, before anything else.
    let types = OutputTypes::parse(&a.output)?;
    let mut stdin_read = false;
    let mut stdin = || {
        if stdin_read {
            return Err("Reading file 'stdin.yml': Standard input has already been read, has the '-' argument been used in more than one flag?".to_string());
        }
        stdin_read = true;
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("Reading stdin: {e}"))?;
        Ok(s)
    };
    let policy = files::ReadPolicy {
        allow_all_symlinks: a.allow_all_symlinks,
        allowed_destinations: a.allow_symlink_destination.clone(),
        repository: None,
    };
    let inputs = files::collect_with(&a.files, &mut stdin, &policy, &mut Vec::new())?;
    let inputs = crate::ytt_flags::file_marks::apply(inputs, &a.file_marks)?;
    let opts = EvalOpts {
        ignore_unknown_comments: a.ignore_unknown_comments,
        skip_validation: a.dv_skip_validation,
        skip_output_validation: a.output_skip_validation,
        implicit_map_key_overrides: a.implicit_map_key_overrides,
        strict: a.strict,
        extensions: crate::schema::extensions::Extensions::from_names(&a.extensions)?,
        ..EvalOpts::default()
    };
    let flags = a.data_values_flags(policy);
    let ws = Workspace::new(inputs, opts);
    if a.files_inspect {
        // ytt checks the types only when it prints: the schema type plays no part here.
        let format = types.format()?;
        return emit(a, format, inspect_files(&ws), &[]);
    }
    let env: Vec<(String, String)> = std::env::vars().collect();
    let external = flags.to_values(a.strict, &env, &mut stdin)?;
    if a.dv_schema_inspect || types.schema_or_unknown() {
        return emit(
            a,
            types.format_unchecked(),
            inspect_schema(a, &types, &ws)?,
            &[],
        );
    }
    let format = types.format()?;
    if a.dv_inspect {
        let values = ws.data_values(external).map_err(|e| e.message)?;
        let ds = crate::yaml::DocSet {
            items: vec![values],
            ..crate::yaml::DocSet::default()
        };
        return emit(a, format, ds, &[]);
    }
    let out = ws.evaluate(external).map_err(|e| e.message)?;
    emit(a, format, out.docs, &out.files)
}

/// Where ytt puts a result: the output files into a directory when one is given (an
/// inspection has none, so the directory is only created), else the documents on standard
/// output in the chosen format.
fn emit(
    a: &TemplateArgs,
    format: &str,
    docs: crate::yaml::DocSet,
    files: &[OutputFile],
) -> Result<String, String> {
    if let Some(dir) = &a.emptied_output_directory {
        return empty_and_write(dir, &docs, files);
    }
    if let Some(dir) = &a.output_files {
        return write_files(dir, &docs, files);
    }
    Ok(match format {
        "json" => docset_to_json(&docs).map_err(|e| e.to_string())?,
        "pos" => crate::yaml::pos_print::docset_to_pos(&docs),
        _ => docset_to_yaml(&docs),
    })
}

/// `--files-inspect`: the root library's files in evaluation order, as a YAML array.
fn inspect_files(ws: &Workspace) -> crate::yaml::DocSet {
    let tree = ws.tree();
    let mut files = tree.accessible("");
    files.sort_by_key(|f| ws.files.iter().position(|g| std::ptr::eq(g, *f)));
    let items = files
        .iter()
        .map(|f| {
            crate::yaml::ArrayItem::new(
                crate::yaml::Value::String(f.rel_path.clone()),
                crate::pos::Pos::unknown(),
            )
        })
        .collect();
    let value = crate::yaml::Value::Array(Box::new(crate::yaml::Array {
        items,
        ..crate::yaml::Array::default()
    }));
    crate::yaml::DocSet {
        items: vec![crate::yaml::Document::new(
            value,
            crate::pos::Pos::unknown(),
        )],
        ..crate::yaml::DocSet::default()
    }
}

/// `--dangerous-emptied-output-directory`: refuses two files with one destination and paths
/// that look like a mistake, removes the directory, then writes the files into it.
fn empty_and_write(
    dir: &str,
    docs: &crate::yaml::DocSet,
    files: &[OutputFile],
) -> Result<String, String> {
    let mut seen = std::collections::HashSet::new();
    for f in files {
        if !seen.insert(f.rel_path.as_str()) {
            return Err(format!(
                "Multiple files have same output destination paths: {}",
                f.rel_path
            ));
        }
    }
    const SUSPICIOUS: [&str; 4] = ["/", ".", "./", ""];
    if SUSPICIOUS.contains(&dir) {
        return Err(format!(
            "Expected output directory path to not be one of '{}'",
            SUSPICIOUS.join("', '")
        ));
    }
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.to_string()),
        _ => {}
    }
    write_files(dir, docs, files)
}

/// `--output-files`: creates `dir` (owner-only, as ytt does, even for no files), then each
/// output file under it, logged as ytt logs it.
fn write_files(
    dir: &str,
    docs: &crate::yaml::DocSet,
    files: &[OutputFile],
) -> Result<String, String> {
    crate::platform::fs::create_private_dir_all(std::path::Path::new(dir))
        .map_err(|e| e.to_string())?;
    let mut log = String::new();
    for f in files {
        let path = std::path::Path::new(dir).join(&f.rel_path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        let content = match &f.content {
            OutputContent::Docs(range) => {
                crate::yaml::emit::documents_to_yaml(docs.items.get(range.clone()).unwrap_or(&[]))
            }
            OutputContent::Text(t) => t.clone(),
        };
        std::fs::write(&path, content).map_err(|e| e.to_string())?;
        log.push_str(&format!("creating: {}\n", path.display()));
    }
    Ok(log)
}

/// `--data-values-schema-inspect`: the root library's schema as an OpenAPI document (the only
/// schema type ytt offers; `-o openapi-v3` is refused without the flag). As in ytt, the schema
/// is read before the output types are checked.
fn inspect_schema(
    a: &TemplateArgs,
    types: &OutputTypes,
    ws: &Workspace,
) -> Result<crate::yaml::DocSet, String> {
    let schema = ws.data_values_schema().map_err(|e| e.message)?;
    types.check()?;
    let openapi = types.has(OPENAPI);
    if !a.dv_schema_inspect {
        return Err("Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)".into());
    }
    if !openapi {
        return Err(format!("Data values schema export only supported in OpenAPI v3 format; specify format with --output={OPENAPI} flag"));
    }
    Ok(crate::yaml::DocSet {
        items: vec![crate::schema::openapi::document(
            &schema,
            a.openapi_validations,
        )],
        ..crate::yaml::DocSet::default()
    })
}
