//! Reading a file a directory listing just gave as a regular file (not a link), under the
//! linter's repository policy: opened at once without following a link and checked on its
//! handle ([`super::open::read_checked_listed`]), which spares the `lstat` a file named any
//! other way needs. The repository walk and a job's input directories read every file so;
//! what they read, and what they refuse, is what [`super::read_allowed`] gives.

use std::path::Path;

use super::{overlay, read_allowed, Read, ReadPolicy};

/// [`read_allowed`] of `path`, which a listing gave as a regular file.
pub fn read_allowed_listed(path: &Path, policy: &ReadPolicy) -> Option<Vec<u8>> {
    match listed_entry(path, policy) {
        Some(Read::Bytes(bytes)) => Some(bytes),
        Some(Read::Refused(_) | Read::Failed(_)) => None,
        None => read_allowed(path, policy),
    }
}

/// What reading `path`, listed as a regular file, gives under the repository `policy`;
/// `None` under ytt's policy (the caller reads it as it reads any file then).
pub(super) fn listed_entry(path: &Path, policy: &ReadPolicy) -> Option<Read> {
    let (given, canonical) = policy.repository.as_ref()?;
    Some(
        match super::open::read_checked_listed(path, given, canonical, u64::MAX) {
            Ok(Ok(bytes)) => Read::Bytes(overlay::substitute(path, bytes)),
            Ok(Err(why)) => Read::Refused(why),
            Err(e) => Read::Failed(e),
        },
    )
}
