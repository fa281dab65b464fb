//! The repository's CustomResourceDefinition documents, as every job of a run shares them.
//!
//! A repository can hold thousands of CRD documents (the corpus repository 1 504), and every
//! root's job needs the list, for the kinds its output renders without a built-in schema. The
//! list is made once per run and shared: jobs in one process share it behind an [`Arc`], and
//! a job sent to a worker process carries only the list's digest. The worker is sent the list
//! itself once ([`crate::lint::run::worker`]) and attaches it to each job with that digest. A
//! job whose list never arrived says so with an `internal-error` finding instead of checking
//! less.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::lint::repo::crds::CrdDoc;

/// One CRD document of the repository, in its file (repository-relative).
pub type FiledCrd = (String, CrdDoc);

/// The shared list, or (after a trip to a worker, until attached) only its digest.
#[derive(Clone)]
pub struct RepoCrds {
    digest: String,
    docs: Option<Arc<Vec<FiledCrd>>>,
}

impl RepoCrds {
    /// The list, with a digest of every file name, place and text hash in it.
    pub fn new(docs: Vec<FiledCrd>) -> RepoCrds {
        let mut h = Sha256::new();
        for (file, crd) in &docs {
            for part in [file.as_str(), &crd.group, &crd.kind] {
                h.update((part.len() as u64).to_le_bytes());
                h.update(part.as_bytes());
            }
            for n in [
                crd.start as u64,
                crd.end as u64,
                crd.hash,
                u64::from(crd.xrd),
            ] {
                h.update(n.to_le_bytes());
            }
        }
        let digest = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        RepoCrds {
            digest,
            docs: Some(Arc::new(docs)),
        }
    }

    /// What tells one list from another.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The documents, `None` when only the digest came with the job.
    pub fn docs(&self) -> Option<&[FiledCrd]> {
        self.docs.as_deref().map(Vec::as_slice)
    }

    /// Takes the documents of `full` when it is the list this one stands for; says whether
    /// this list has its documents now.
    pub fn attach(&mut self, full: &RepoCrds) -> bool {
        if self.docs.is_none() && full.digest == self.digest {
            self.docs.clone_from(&full.docs);
        }
        self.docs.is_some()
    }
}

impl fmt::Debug for RepoCrds {
    // The digest alone: a job's cache key is made from its `Debug` text, and writing out
    // every document for every job costs more than the check itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RepoCrds({})", self.digest)
    }
}

impl PartialEq for RepoCrds {
    fn eq(&self, other: &RepoCrds) -> bool {
        self.digest == other.digest
    }
}

impl Eq for RepoCrds {}

impl Hash for RepoCrds {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.digest.hash(state);
    }
}

impl Serialize for RepoCrds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.digest)
    }
}

impl<'de> Deserialize<'de> for RepoCrds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RepoCrds, D::Error> {
        Ok(RepoCrds {
            digest: String::deserialize(d)?,
            docs: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(file: &str, kind: &str, hash: u64) -> FiledCrd {
        let doc = CrdDoc {
            group: "example.com".into(),
            kind: kind.into(),
            start: 0,
            end: 10,
            hash,
            xrd: false,
        };
        (file.into(), doc)
    }

    #[test]
    fn a_job_sent_away_carries_the_digest_and_gets_its_documents_back() {
        let full = RepoCrds::new(vec![crd("a.yml", "A", 1), crd("b.yml", "B", 2)]);
        let text = serde_json::to_string(&full).unwrap();
        assert_eq!(text, format!("{:?}", full.digest()));
        let mut sent: RepoCrds = serde_json::from_str(&text).unwrap();
        assert!(sent.docs().is_none());
        let other = RepoCrds::new(vec![crd("a.yml", "A", 1)]);
        assert!(!sent.attach(&other) && sent.docs().is_none());
        assert!(sent.attach(&full));
        assert_eq!(sent.docs().map(<[_]>::len), Some(2));
    }

    #[test]
    fn any_change_of_a_document_changes_the_digest() {
        let base = RepoCrds::new(vec![crd("a.yml", "A", 1)]);
        for changed in [
            crd("b.yml", "A", 1),
            crd("a.yml", "B", 1),
            crd("a.yml", "A", 2),
        ] {
            assert_ne!(base, RepoCrds::new(vec![changed]));
        }
        assert_eq!(base, RepoCrds::new(vec![crd("a.yml", "A", 1)]));
        assert_eq!(format!("{base:?}"), format!("RepoCrds({})", base.digest()));
    }
}
