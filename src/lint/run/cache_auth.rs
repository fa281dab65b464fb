//! Cache entries a repository cannot forge: each entry is sealed with HMAC-SHA256 under a
//! random key of the user's (`$XDG_CACHE_HOME/yttlint/key`, else `~/.cache/yttlint/key`;
//! on Windows `%LOCALAPPDATA%\yttlint\key`,
//! created on first use with mode 0600), over the entry's name and its bytes. An entry whose
//! tag does not verify is a miss. A pull request cannot know the key, so a `.yttlint-cache/`
//! it commits never turns a finding into another.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::platform;

use sha2::{Digest, Sha256};

/// The first line of a sealed entry, before the tag.
const MAGIC: &[u8] = b"yttlint-hmac-sha256 ";

/// A key that signs cache entries.
#[derive(Clone)]
pub struct Key([u8; 32]);

/// The user's cache directory: `$XDG_CACHE_HOME` when absolute, else `$HOME/.cache` (on
/// Windows `%LOCALAPPDATA%`).
pub fn user_cache_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if cfg!(windows) {
        return var("LOCALAPPDATA");
    }
    var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache")))
}

impl Key {
    /// The user's key, created if there is none yet; an error says why there is none.
    pub fn load() -> Result<Key, String> {
        let dir = user_cache_dir()
            .ok_or(if cfg!(windows) {
                "no user cache directory (LOCALAPPDATA is not set)"
            } else {
                "no user cache directory (neither XDG_CACHE_HOME nor HOME is set)"
            })?
            .join("yttlint");
        let path = dir.join("key");
        let no = |e: std::io::Error| format!("cannot use the cache key {}: {e}", path.display());
        match read_key(&path) {
            Ok(key) => return Ok(key),
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(no(e)),
            Err(_) => {}
        }
        platform::fs::create_private_dir_all(&dir).map_err(no)?;
        create_key(&dir).map_err(no)?;
        read_key(&path).map_err(no)
    }

    /// HMAC-SHA256 (RFC 2104) of the concatenation of `parts`.
    fn mac(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&self.0);
        let mut inner = Sha256::new().chain_update(block.map(|b| b ^ 0x36));
        for part in parts {
            inner.update(part);
        }
        Sha256::new()
            .chain_update(block.map(|b| b ^ 0x5c))
            .chain_update(inner.finalize())
            .finalize()
            .into()
    }

    /// The tag of the entry `name` holding `bytes`.
    fn tag(&self, name: &str, bytes: &[u8]) -> [u8; 32] {
        self.mac(&[name.as_bytes(), &[0], bytes])
    }

    /// `bytes` sealed as the entry `name`: a line with the tag, then the bytes.
    pub fn seal(&self, name: &str, bytes: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(super::cache::hex(&self.tag(name, bytes)).into_bytes());
        out.push(b'\n');
        out.extend_from_slice(bytes);
        out
    }

    /// The bytes of the sealed entry `name`, when its tag verifies.
    pub fn open<'a>(&self, name: &str, sealed: &'a [u8]) -> Option<&'a [u8]> {
        let rest = sealed.strip_prefix(MAGIC)?;
        let (tag, body) = (rest.get(..64)?, rest.get(64..)?);
        let body = body.strip_prefix(b"\n")?;
        let want = super::cache::hex(&self.tag(name, body)).into_bytes();
        // Compared in constant time.
        let diff = want.iter().zip(tag).fold(0u8, |d, (a, b)| d | (a ^ b));
        (diff == 0).then_some(body)
    }
}

/// The key in `path`: a regular file (not a link) of 64 hexadecimal digits.
fn read_key(path: &Path) -> std::io::Result<Key> {
    let mut file = platform::fs::open_read_nofollow(path)?;
    let invalid = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not a key");
    if !file.metadata()?.is_file() {
        return Err(invalid());
    }
    let mut text = String::new();
    (&mut file).take(65).read_to_string(&mut text)?;
    let text = text.trim_end();
    if text.len() != 64 {
        return Err(invalid());
    }
    let mut key = [0u8; 32];
    for (i, k) in key.iter_mut().enumerate() {
        let digits = text.get(2 * i..2 * i + 2).ok_or_else(invalid)?;
        *k = u8::from_str_radix(digits, 16).map_err(|_| invalid())?;
    }
    Ok(Key(key))
}

/// Writes a new random key as `key` in the directory `dir`, unless another run made one first:
/// written whole to a new file (mode 0600), then linked to its name, which fails when the name
/// exists; both by name in the directory held open.
fn create_key(dir: &Path) -> std::io::Result<()> {
    use std::io::Write;
    let bytes = platform::random::bytes::<32>();
    let temp = OsString::from(format!(
        ".key.{}.tmp",
        super::cache::hex(&platform::random::bytes::<8>())
    ));
    let dir = platform::dir::Dir::open(dir)?;
    let mut file = dir.create_new(&temp, 0o600)?;
    let written = file
        .write_all(format!("{}\n", super::cache::hex(&bytes)).as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            dir.hard_link(&temp, std::ffi::OsStr::new("key"))
        });
    let _ = dir.remove_file(&temp);
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        // Test case 1: "Hi There" under 20 bytes of 0x0b (zero-padded as HMAC pads keys).
        let mut k = [0u8; 32];
        k[..20].copy_from_slice(&[0x0b; 20]);
        let key = Key(k);
        assert_eq!(
            super::super::cache::hex(&key.mac(&[b"Hi There"])),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(key.tag("Hi", b" There"), key.mac(&[b"Hi\0 There"]));
    }

    #[test]
    fn a_sealed_entry_opens_only_unchanged_and_under_its_name() {
        let key = Key([7; 32]);
        let sealed = key.seal("jobs/a", b"{\"x\":1}");
        assert_eq!(key.open("jobs/a", &sealed), Some(&b"{\"x\":1}"[..]));
        assert_eq!(key.open("jobs/b", &sealed), None);
        assert_eq!(Key([8; 32]).open("jobs/a", &sealed), None);
        let mut forged = sealed.clone();
        if let Some(last) = forged.last_mut() {
            *last = b'2';
        }
        assert_eq!(key.open("jobs/a", &forged), None);
        assert_eq!(key.open("jobs/a", b"{\"x\":1}"), None);
    }
}
