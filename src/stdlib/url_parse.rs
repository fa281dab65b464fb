//! URLs as Go's `net/url` parses and prints them (`url.Parse`, `URL.String`,
//! `URL.Hostname`, `Userinfo.String`), which is what `@ytt:url`'s `parse()` exposes. Errors
//! read as Go's: `parse "http://a b": invalid character " " in host name`.

use super::golike::quote;
use super::url_escape::{escape, is_sub_delim, should_escape, unescape, Part};

/// A user name and an optional password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub password: Option<String>,
}

impl User {
    /// `user:password` escaped (`Userinfo.String`).
    pub fn to_url_string(&self) -> String {
        let mut s = escape(&self.name, Part::UserPassword);
        if let Some(p) = &self.password {
            s.push(':');
            s.push_str(&escape(p, Part::UserPassword));
        }
        s
    }
}

/// A parsed URL (the fields of Go's `url.URL` that parsing sets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Url {
    pub scheme: String,
    pub opaque: String,
    pub user: Option<User>,
    pub host: String,
    pub path: String,
    raw_path: String,
    omit_host: bool,
    force_query: bool,
    pub raw_query: String,
    pub fragment: String,
    raw_fragment: String,
}

/// Splits at the first `sep` (the rest is empty without one).
fn cut(s: &str, sep: char) -> (&str, &str, bool) {
    match s.split_once(sep) {
        Some((a, b)) => (a, b, true),
        None => (s, "", false),
    }
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's `getScheme`: the scheme, and the rest after its colon.
fn scheme_of(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_string()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn valid_userinfo(s: &str) -> bool {
    s.bytes().all(|c| {
        c.is_ascii_alphanumeric()
            || is_sub_delim(c)
            || matches!(c, b'-' | b'.' | b'_' | b':' | b'~' | b'%' | b'@')
    })
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".to_string());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            let h1 = unescape(&host[..zone], Part::Host)?;
            let h2 = unescape(&host[zone..i], Part::Zone)?;
            let h3 = unescape(&host[i..], Part::Host)?;
            return Ok(h1 + &h2 + &h3);
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
    }
    unescape(host, Part::Host)
}

fn parse_authority(authority: &str) -> Result<(Option<User>, String), String> {
    let at = authority.rfind('@');
    let host = parse_host(at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".to_string());
    }
    let user = match userinfo.split_once(':') {
        None => User {
            name: unescape(userinfo, Part::UserPassword)?,
            password: None,
        },
        Some((name, password)) => User {
            name: unescape(name, Part::UserPassword)?,
            password: Some(unescape(password, Part::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

impl Url {
    /// `url.Parse(raw)`.
    pub fn parse(raw: &str) -> Result<Url, String> {
        let (u, frag, has_frag) = cut(raw, '#');
        let mut url =
            Url::parse_without_fragment(u).map_err(|e| format!("parse {}: {e}", quote(u)))?;
        if has_frag && !frag.is_empty() {
            url.fragment =
                unescape(frag, Part::Fragment).map_err(|e| format!("parse {}: {e}", quote(raw)))?;
            if escape(&url.fragment, Part::Fragment) != frag {
                url.raw_fragment = frag.to_string();
            }
        }
        Ok(url)
    }

    fn parse_without_fragment(raw: &str) -> Result<Url, String> {
        if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
            return Err("net/url: invalid control character in URL".to_string());
        }
        let mut url = Url::default();
        if raw == "*" {
            url.path = "*".to_string();
            return Ok(url);
        }
        let (scheme, rest) = scheme_of(raw)?;
        url.scheme = scheme.to_ascii_lowercase();
        let mut rest = rest.to_string();
        if rest.ends_with('?') && rest.matches('?').count() == 1 {
            url.force_query = true;
            rest.pop();
        } else if let Some((before, query)) = rest.clone().split_once('?') {
            url.raw_query = query.to_string();
            rest = before.to_string();
        }
        if !rest.starts_with('/') {
            if !url.scheme.is_empty() {
                url.opaque = rest;
                return Ok(url);
            }
            // `a:b/c` would read as a scheme: refuse it.
            if cut(&rest, '/').0.contains(':') {
                return Err("first path segment in URL cannot contain colon".to_string());
            }
        }
        if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
            let after = &rest[2..];
            let (authority, path) = match after.find('/') {
                Some(i) => (&after[..i], &after[i..]),
                None => (after, ""),
            };
            let (user, host) = parse_authority(authority)?;
            url.user = user;
            url.host = host;
            rest = path.to_string();
        } else if !url.scheme.is_empty() && rest.starts_with('/') {
            url.omit_host = true;
        }
        url.path = unescape(&rest, Part::Path)?;
        if escape(&url.path, Part::Path) != rest {
            url.raw_path = rest;
        }
        Ok(url)
    }

    fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Part::Path)
            && unescape(&self.raw_path, Part::Path).as_deref() == Ok(self.path.as_str())
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".to_string();
        }
        escape(&self.path, Part::Path)
    }

    fn escaped_fragment(&self) -> String {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Part::Fragment)
            && unescape(&self.raw_fragment, Part::Fragment).as_deref() == Ok(self.fragment.as_str())
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Part::Fragment)
    }

    /// `URL.String()`.
    pub fn to_url_string(&self) -> String {
        let mut buf = String::new();
        if !self.scheme.is_empty() {
            buf.push_str(&self.scheme);
            buf.push(':');
        }
        if !self.opaque.is_empty() {
            buf.push_str(&self.opaque);
        } else {
            let has_authority = !self.host.is_empty() || self.user.is_some();
            if has_authority || (!self.scheme.is_empty() && !self.omit_host) {
                if has_authority || !self.path.is_empty() {
                    buf.push_str("//");
                }
                if let Some(u) = &self.user {
                    buf.push_str(&u.to_url_string());
                    buf.push('@');
                }
                buf.push_str(&escape(&self.host, Part::Host));
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                buf.push('/');
            }
            if buf.is_empty() && cut(&path, '/').0.contains(':') {
                // Keep a first segment with a colon from reading as a scheme.
                buf.push_str("./");
            }
            buf.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push('?');
            buf.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push('#');
            buf.push_str(&self.escaped_fragment());
        }
        buf
    }

    /// `URL.Hostname()`: the host without its port and IPv6 brackets.
    pub fn hostname(&self) -> String {
        let mut host = self.host.as_str();
        if let Some(colon) = host.rfind(':') {
            if valid_optional_port(&host[colon..]) {
                host = &host[..colon];
            }
        }
        if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            return inner.to_string();
        }
        host.to_string()
    }

    /// The URL without its user information.
    pub fn without_user(&self) -> Url {
        Url {
            user: None,
            ..self.clone()
        }
    }
}

/// Whether `s` is already escaped as Go would accept it for `part`.
fn valid_encoded(s: &str, part: Part) -> bool {
    s.bytes().all(|c| {
        is_sub_delim(c) || matches!(c, b':' | b'@' | b'[' | b']' | b'%') || !should_escape(c, part)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(s: &str) -> String {
        match Url::parse(s) {
            Ok(u) => u.to_url_string(),
            Err(e) => e,
        }
    }

    #[test]
    fn prints_back_like_go() {
        for s in [
            "http://admin:password@url.domain:8080",
            "http://admin@url.domain:8080",
            "https://[2001:db8::1]:17000/a/b?x=1#frag",
            "mailto:someone@example.com",
            "file:///etc/hosts",
            "/relative/path?q",
            "http://example.com/a%2Fb",
            "http://x/?",
        ] {
            assert_eq!(round(s), s);
        }
        assert_eq!(round("HTTP://Example.com/a b"), "http://Example.com/a%20b");
        assert_eq!(round("http://x/#a b"), "http://x/#a%20b");
    }

    #[test]
    fn parts_and_errors() {
        let u = Url::parse("http://admin:p%40ss@[::1]:80/p").unwrap_or_default();
        assert_eq!(u.hostname(), "::1");
        assert_eq!(u.user.as_ref().map(|u| u.name.as_str()), Some("admin"));
        assert_eq!(
            u.user.as_ref().and_then(|u| u.password.clone()),
            Some("p@ss".to_string())
        );
        assert_eq!(u.without_user().to_url_string(), "http://[::1]:80/p");
        assert_eq!(round("://x"), "parse \"://x\": missing protocol scheme");
        assert_eq!(
            round("http://a b/"),
            "parse \"http://a b/\": invalid character \" \" in host name"
        );
        assert_eq!(
            round("http://x:port/"),
            "parse \"http://x:port/\": invalid port \":port\" after host"
        );
        assert_eq!(round("a:b/c:d"), "a:b/c:d");
        assert_eq!(
            round("1a:b"),
            "parse \"1a:b\": first path segment in URL cannot contain colon"
        );
    }
}
