//! The kinds a repository's Crossplane `CompositeResourceDefinition`s (XRDs) give: the
//! composite's `spec.names.kind` and the claim's `spec.claimNames.kind`, in `spec.group`.
//! Crossplane makes the CustomResourceDefinitions of those kinds on the cluster from the XRD,
//! so a CRD file of the same kind elsewhere in the repository (a copy exported from a cluster,
//! one generated for another tool) may not be what the cluster has. The linter reads no
//! schema from an XRD; it only learns that the kind has another definition
//! (`crate::lint::job::crd_source`).

use crate::lint::repo::crds::{documents, hash_of, CrdDoc};

/// The kinds the XRD documents of `text` give, one entry per kind, in order.
pub fn find(text: &str) -> Vec<CrdDoc> {
    if !text.contains("CompositeResourceDefinition") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (start, end) in documents(text) {
        let doc = &text[start..end];
        if !doc.contains("CompositeResourceDefinition") {
            continue;
        }
        let hash = hash_of(doc);
        for (group, kind) in kinds(doc) {
            out.push(CrdDoc {
                group,
                kind,
                start,
                end,
                hash,
                xrd: true,
            });
        }
    }
    out
}

/// `(group, kind)` of the composite and of the claim an XRD document names.
fn kinds(doc: &str) -> Vec<(String, String)> {
    let Ok(set) = crate::yaml::parse::parse(doc, &"xrd".into(), &Default::default()) else {
        return Vec::new();
    };
    let Some(doc) = set.items.first() else {
        return Vec::new();
    };
    let is_xrd = doc.value.field("kind").and_then(|k| k.as_str())
        == Some("CompositeResourceDefinition")
        && doc
            .value
            .field("apiVersion")
            .and_then(|v| v.as_str())
            .is_some_and(|v| v.starts_with("apiextensions.crossplane.io/"));
    let Some(spec) = doc.value.field("spec").filter(|_| is_xrd) else {
        return Vec::new();
    };
    let Some(group) = spec.field("group").and_then(|g| g.as_str()) else {
        return Vec::new();
    };
    ["names", "claimNames"]
        .iter()
        .filter_map(|names| spec.field(names)?.field("kind")?.as_str())
        .filter(|k| !k.is_empty())
        .map(|k| (group.to_string(), k.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_xrd_gives_its_composite_s_and_its_claim_s_kinds() {
        let text = "kind: ConfigMap\n---\napiVersion: apiextensions.crossplane.io/v1\n\
            kind: CompositeResourceDefinition\nmetadata: {name: xdbs.example.org}\n\
            spec:\n  group: example.org\n  names: {kind: XDatabase, plural: xdbs}\n  \
            claimNames:\n    kind: Database\n    plural: dbs\n";
        let found = find(text);
        let kinds: Vec<(&str, &str, bool)> = found
            .iter()
            .map(|c| (c.group.as_str(), c.kind.as_str(), c.xrd))
            .collect();
        assert_eq!(
            kinds,
            [
                ("example.org", "XDatabase", true),
                ("example.org", "Database", true)
            ]
        );
        assert!(text[found[0].start..found[0].end].contains("claimNames"));
    }

    #[test]
    fn only_crossplane_s_kind_of_that_name_counts() {
        assert!(find("apiVersion: example.com/v1\nkind: CompositeResourceDefinition\nspec:\n  group: a\n  names: {kind: B}\n").is_empty());
        assert!(find("kind: CompositeResourceDefinition\n: [\n").is_empty());
    }
}
