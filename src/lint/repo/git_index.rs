//! What git tracks, read from the repository's `.git/index` without running git: the one file
//! of `.git` the linter reads besides `.git/info/exclude`, bounded in size, and only to answer
//! "does an entry's path lie under this directory" (is the cache directory tracked; does an
//! ignore pattern match a file the repository commits, see [`Tracked`]). Nothing of it
//! reaches a report.
//!
//! The index is git's DIRC file: a 12-byte header (`DIRC`, the version, the number of
//! entries), then one entry per path: 40 bytes of stat data, the object id (20 bytes, or 32
//! in a SHA-256 repository), 16 bits of flags (and 16 more in version 3 when the extended
//! flag is set), then the path. Versions 2 and 3 store the path whole, NUL-terminated and
//! padded to 8 bytes; version 4 stores how many bytes to drop from the end of the previous
//! path (a varint) and the NUL-terminated rest. A `.git` that is a file (a worktree, a
//! submodule), an index that is missing, larger than [`MAX_INDEX`] or malformed: not tracked.

use std::io::Read;
use std::path::Path;

/// The largest index read (a repository of a million files has an index of about 100 MiB;
/// beyond this the cache is taken as untracked).
pub const MAX_INDEX: u64 = 256 << 20;

/// Whether `.git/index` of the repository at `repo` lists a path under the repository-relative
/// directory `dir` (or `dir` itself).
pub fn tracks_under(repo: &Path, dir: &str) -> bool {
    let git = repo.join(".git");
    if !std::fs::symlink_metadata(&git).is_ok_and(|m| m.is_dir()) {
        return false;
    }
    match read_index(&git.join("index")) {
        Some(bytes) => any_under(&bytes, dir.as_bytes()).unwrap_or(false),
        None => false,
    }
}

/// The paths of the index, to tell a file the repository commits from one an ignore pattern
/// keeps out of the walk: git applies `.gitignore` to untracked files only, so a committed
/// `build-templates/kbld-config.yaml` is linted though `kbld-config.yaml` (meant for the copy
/// a recipe writes at the top) matches it (round eleven's FW11-C3).
#[derive(Debug, Default)]
pub struct Tracked {
    files: std::collections::HashSet<String>,
    dirs: std::collections::HashSet<String>,
}

impl Tracked {
    /// The index of the repository at `repo`; empty when there is none or it cannot be read.
    pub fn of(repo: &Path) -> Tracked {
        let git = repo.join(".git");
        if !std::fs::symlink_metadata(&git).is_ok_and(|m| m.is_dir()) {
            return Tracked::default();
        }
        read_index(&git.join("index"))
            .map(|bytes| Tracked::parse(&bytes))
            .unwrap_or_default()
    }

    /// The entries of the index `bytes` (none when it is malformed).
    pub fn parse(bytes: &[u8]) -> Tracked {
        let mut paths = Vec::new();
        let parsed = [20, 32].into_iter().any(|id_len| {
            paths.clear();
            entries(bytes, id_len, &mut |p| {
                paths.push(String::from_utf8_lossy(p).into_owned());
                false
            })
            .is_some()
        });
        let mut tracked = Tracked::default();
        if !parsed {
            return tracked;
        }
        for path in paths {
            let mut at = path.as_str();
            while let Some((dir, _)) = at.rsplit_once('/') {
                if !tracked.dirs.insert(dir.to_string()) {
                    break;
                }
                at = dir;
            }
            tracked.files.insert(path);
        }
        tracked
    }

    /// Whether the repository-relative `path` is a tracked file or, when `is_dir`, a directory
    /// holding one.
    pub fn holds(&self, path: &str, is_dir: bool) -> bool {
        if is_dir {
            self.dirs.contains(path)
        } else {
            self.files.contains(path)
        }
    }
}

/// The bytes of the index: a regular file (not a symlink), of at most [`MAX_INDEX`] bytes.
fn read_index(path: &Path) -> Option<Vec<u8>> {
    let file = crate::platform::fs::open_read_nofollow(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_INDEX {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).ok()?);
    file.take(MAX_INDEX + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_INDEX).then_some(bytes)
}

/// Whether an entry of the index `bytes` is `dir` or lies under it; `None` when the index is
/// malformed with object ids of either length.
pub fn any_under(bytes: &[u8], dir: &[u8]) -> Option<bool> {
    let under = |path: &[u8]| {
        path.strip_prefix(dir)
            .is_some_and(|rest| rest.is_empty() || rest.first() == Some(&b'/'))
    };
    [20, 32]
        .into_iter()
        .find_map(|id_len| entries(bytes, id_len, &mut |p| under(p)))
}

/// Calls `found` with each entry's path until it answers true (then `Some(true)`); `None`
/// when the index does not parse with object ids of `id_len` bytes.
fn entries(bytes: &[u8], id_len: usize, found: &mut dyn FnMut(&[u8]) -> bool) -> Option<bool> {
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = be32(bytes, 4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = be32(bytes, 8)?;
    let mut at = 12usize;
    let mut path: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at;
        let flags_at = start.checked_add(40 + id_len)?;
        let flags = be16(bytes, flags_at)?;
        at = flags_at + 2;
        if flags & 0x4000 != 0 {
            // Extended flags: version 3 and later only.
            if version < 3 {
                return None;
            }
            at += 2;
        }
        if version == 4 {
            let (drop, used) = varint(bytes.get(at..)?)?;
            at += used;
            let keep = path.len().checked_sub(usize::try_from(drop).ok()?)?;
            path.truncate(keep);
            let rest = bytes.get(at..)?;
            let end = rest.iter().position(|&b| b == 0)?;
            path.extend_from_slice(&rest[..end]);
            at += end + 1;
            let name_len = usize::from(flags & 0x0fff);
            if name_len < 0x0fff && name_len != path.len() {
                return None;
            }
        } else {
            let rest = bytes.get(at..)?;
            let end = rest.iter().position(|&b| b == 0)?;
            let name_len = usize::from(flags & 0x0fff);
            if name_len < 0x0fff && name_len != end {
                return None;
            }
            path.clear();
            path.extend_from_slice(&rest[..end]);
            // The entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
            let fixed = at - start;
            at = start + ((fixed + end + 8) & !7);
            if at > bytes.len() {
                return None;
            }
        }
        if found(&path) {
            return Some(true);
        }
    }
    Some(false)
}

/// Git's offset varint (`decode_varint`): 7 bits a byte, most significant first, with one
/// added at each continuation. The value and the bytes it took.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        if i > 0 {
            value = value.checked_add(1)?.checked_mul(128)?;
        }
        value |= u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_be_bytes([b[0], b[1]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Git's encoding of `value` as an offset varint.
    fn encode_varint(mut value: u64) -> Vec<u8> {
        let mut out = vec![(value & 0x7f) as u8];
        while value >> 7 != 0 {
            value = (value >> 7) - 1;
            out.insert(0, 0x80 | (value & 0x7f) as u8);
        }
        out
    }

    /// An index of `version` with the entries `paths` (object ids of `id_len` bytes); the
    /// first entry has extended flags in version 3.
    fn index(version: u32, paths: &[&str], id_len: usize) -> Vec<u8> {
        let mut out = b"DIRC".to_vec();
        out.extend(version.to_be_bytes());
        out.extend((paths.len() as u32).to_be_bytes());
        let mut previous = String::new();
        for (i, p) in paths.iter().enumerate() {
            let start = out.len();
            out.extend([7u8; 40]);
            out.extend(vec![0xab; id_len]);
            let extended = version == 3 && i == 0;
            let flags = (p.len().min(0xfff) as u16) | if extended { 0x4000 } else { 0 };
            out.extend(flags.to_be_bytes());
            if extended {
                out.extend([0u8, 0]);
            }
            if version == 4 {
                let common = previous
                    .bytes()
                    .zip(p.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                out.extend(encode_varint((previous.len() - common) as u64));
                out.extend(&p.as_bytes()[common..]);
                out.push(0);
            } else {
                out.extend(p.as_bytes());
                let fixed = out.len() - start;
                out.resize(start + ((fixed + 8) & !7), 0);
            }
            previous = p.to_string();
        }
        // An extension and the trailing checksum are not read.
        out.extend(b"TREE\0\0\0\0");
        out.extend([0u8; 20]);
        out
    }

    const CACHED: &[&str] = &[".github/x.yml", ".yttlint-cache/jobs/ab", "config/a.yml"];
    const CLEAN: &[&str] = &[".yttlint-cachex", ".yttlint-cache.md", "config/a.yml"];

    #[test]
    fn version_2_names_are_read_whole() {
        assert_eq!(
            any_under(&index(2, CACHED, 20), b".yttlint-cache"),
            Some(true)
        );
        assert_eq!(
            any_under(&index(2, CLEAN, 20), b".yttlint-cache"),
            Some(false)
        );
        assert_eq!(any_under(&index(2, CACHED, 20), b"config"), Some(true));
    }

    #[test]
    fn version_3_entries_may_have_extended_flags() {
        let extended_first = [".yttlint-cache/runs/x", "b"];
        assert_eq!(
            any_under(&index(3, &extended_first, 20), b".yttlint-cache"),
            Some(true)
        );
        assert_eq!(
            any_under(&index(3, CLEAN, 20), b".yttlint-cache"),
            Some(false)
        );
        assert_eq!(
            any_under(&index(3, CACHED, 20), b".yttlint-cache"),
            Some(true)
        );
    }

    #[test]
    fn version_4_names_are_prefix_compressed() {
        let paths = [".github/a", ".github/b", ".yttlint-cache/jobs/1", "z"];
        assert_eq!(
            any_under(&index(4, &paths, 20), b".yttlint-cache"),
            Some(true)
        );
        assert_eq!(
            any_under(&index(4, CLEAN, 20), b".yttlint-cache"),
            Some(false)
        );
        // The name is only whole once the previous one's prefix is kept.
        assert_eq!(any_under(&index(4, &paths, 20), b".github/b"), Some(true));
    }

    #[test]
    fn sha256_repositories_and_long_names_are_read() {
        assert_eq!(
            any_under(&index(2, CACHED, 32), b".yttlint-cache"),
            Some(true)
        );
        let long = format!("{}/.yttlint-cache/x", "d".repeat(5000));
        let paths = [long.as_str(), ".yttlint-cache/y"];
        assert_eq!(
            any_under(&index(2, &paths, 20), b".yttlint-cache"),
            Some(true)
        );
    }

    #[test]
    fn a_malformed_index_is_not_read() {
        assert_eq!(any_under(b"", b".yttlint-cache"), None);
        assert_eq!(any_under(b"DIRC\0\0\0\x05\0\0\0\x01", b"x"), None);
        let mut cut = index(2, CACHED, 20);
        cut.truncate(60);
        assert_eq!(any_under(&cut, b".yttlint-cache"), None);
        // More entries claimed than there are.
        let mut claimed = index(4, CLEAN, 20);
        claimed[11] = 200;
        assert_eq!(any_under(&claimed, b".yttlint-cache"), None);
        assert_eq!(varint(&[0xff; 12]), None);
    }

    #[test]
    fn varints_are_git_s() {
        for v in [0, 1, 127, 128, 255, 16511, 16512, 1 << 30] {
            assert_eq!(varint(&encode_varint(v)), Some((v, encode_varint(v).len())));
        }
    }

    #[test]
    fn tracked_files_and_the_directories_that_hold_them() {
        for version in [2, 3, 4] {
            let bytes = index(
                version,
                &["Makefile", "build-templates/kbld-config.yaml"],
                20,
            );
            let t = Tracked::parse(&bytes);
            assert!(
                t.holds("build-templates/kbld-config.yaml", false),
                "{version}"
            );
            assert!(t.holds("build-templates", true));
            assert!(t.holds("Makefile", false));
            assert!(!t.holds("kbld-config.yaml", false));
            assert!(!t.holds("build-templates/kbld-config.yaml", true));
        }
        assert!(!Tracked::parse(b"DIRC\0\0\0\x09").holds("Makefile", false));
    }
}
