//! A finding's fix as SARIF's `fix` object (see [`super::sarif`]): its title as `description`,
//! one `artifactChanges` entry per file, each edit a `replacements` entry whose `deletedRegion`
//! gives the start and the exclusive end (equal for an insertion) and whose `insertedContent`
//! is the new text; the fix's applicability (`safe`, `unsafe`) in its `properties`.

use std::collections::BTreeMap;

use serde_json::json;
use serde_sarif::sarif::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Fix as SarifFix, Message, PropertyBag,
    Region, Replacement,
};

/// A fix as SARIF's `fix`: its edits grouped by file, in order.
pub fn fix(f: &crate::fix::Fix, base: &str, uri: &dyn Fn(&str) -> String) -> SarifFix {
    let mut files: Vec<&str> = Vec::new();
    for e in &f.edits {
        if !files.contains(&e.file.as_str()) {
            files.push(&e.file);
        }
    }
    let changes: Vec<ArtifactChange> = files
        .iter()
        .map(|file| {
            let replacements: Vec<Replacement> = f
                .edits
                .iter()
                .filter(|e| e.file == *file)
                .map(|e| {
                    let number = |n: u32| i64::from(n.max(1));
                    let mut region = Region::builder()
                        .start_line(number(e.line))
                        .start_column(number(e.column))
                        .build();
                    region.end_line = Some(number(e.end_line));
                    region.end_column = Some(number(e.end_column));
                    Replacement::builder()
                        .deleted_region(region)
                        .inserted_content(
                            ArtifactContent::builder()
                                .text(e.replacement.clone())
                                .build(),
                        )
                        .build()
                })
                .collect();
            ArtifactChange::builder()
                .artifact_location(
                    ArtifactLocation::builder()
                        .uri(uri(file))
                        .uri_base_id(base.to_string())
                        .build(),
                )
                .replacements(replacements)
                .build()
        })
        .collect();
    let applicability =
        BTreeMap::from([("applicability".to_string(), json!(f.applicability.as_str()))]);
    SarifFix::builder()
        .description(Message::builder().text(f.title.clone()).build())
        .artifact_changes(changes)
        .properties(
            PropertyBag::builder()
                .additional_properties(applicability)
                .build(),
        )
        .build()
}
