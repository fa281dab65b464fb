//! Random bytes from the operating system (`getrandom` on Linux, `getentropy` on macOS,
//! `ProcessPrng` on Windows, through the `getrandom` crate), for temporary file names and the
//! cache key.

/// `N` random bytes; the time and process id mixed when the system has none to give.
pub fn bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    if getrandom::fill(&mut buf).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let seed = nanos ^ (u128::from(std::process::id()) << 64);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (seed >> ((i % 16) * 8)) as u8;
        }
    }
    buf
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_draws_differ() {
        assert_ne!(super::bytes::<16>(), super::bytes::<16>());
    }
}
