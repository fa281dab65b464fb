//! Jenkins pipelines (`Jenkinsfile`, `Jenkinsfile.NAME`, `NAME.jenkinsfile`): the shell of
//! their `sh` steps (`sh "…"`, `sh '''…'''`, `sh(script: """…""", label: …)`), each run from
//! the workspace, the repository's checkout, or from the directory of the `dir('…') { }`
//! block around it, with the `environment { }` blocks' literal values. Groovy fills a
//! double-quoted string's `$name` and `${expression}` before the shell sees it: those are
//! known at run time only (an `environment` value aside); `\$` is the shell's own `$`.

use super::snippet::{Marked, Snippet};
use super::word::{Word, REPO};

/// Whether a repository file is a Jenkins pipeline.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "Jenkinsfile"
        || (name.starts_with("Jenkinsfile.") && !name.ends_with(".md"))
        || name.ends_with(".jenkinsfile")
        || name.ends_with(".Jenkinsfile")
}

/// A piece of a Groovy string.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Text(String),
    /// `$name`, `${expression}` of a double-quoted string: the expression.
    Expr(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(Vec<Part>),
    Punct(char),
}

/// A token and the line it starts on.
type Token = (Tok, u32);

/// The most tokens read from one file (the file itself is bounded by the caller).
const MAX_TOKENS: usize = 1 << 20;

/// The longest `${…}` expression read, in characters.
const MAX_EXPRESSION: usize = 4096;

/// The tokens of Groovy text, comments left out.
fn tokens(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < chars.len() && out.len() < MAX_TOKENS {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
        } else if c == '\'' || c == '"' {
            let start = line;
            let (parts, end, lines) = string(&chars, i);
            out.push((Tok::Str(parts), start));
            line += lines;
            i = end;
        } else if c.is_alphanumeric() || c == '_' {
            let from = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(chars[from..i].iter().collect()), line));
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// The string starting at `chars[at]` (a quote): its parts, the index after it and the
/// number of line breaks it holds.
fn string(chars: &[char], at: usize) -> (Vec<Part>, usize, u32) {
    let quote = chars[at];
    let triple = chars.get(at + 1) == Some(&quote) && chars.get(at + 2) == Some(&quote);
    let gstring = quote == '"';
    let mut i = at + if triple { 3 } else { 1 };
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut lines = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == quote
            && (!triple || (chars.get(i + 1) == Some(&quote) && chars.get(i + 2) == Some(&quote)))
        {
            i += if triple { 3 } else { 1 };
            break;
        }
        if c == '\n' {
            if !triple {
                // An unterminated one-line string ends at its line.
                break;
            }
            lines += 1;
        }
        if c == '\\' {
            match chars.get(i + 1) {
                Some('$') => text.push('$'),
                Some('\\') => text.push('\\'),
                Some('\'') => text.push('\''),
                Some('"') => text.push('"'),
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                // A line continuation: the shell reads it as one too.
                Some('\n') => {
                    lines += 1;
                    text.push_str("\\\n");
                }
                Some(other) => {
                    text.push('\\');
                    text.push(*other);
                }
                None => text.push('\\'),
            }
            i += 2;
            continue;
        }
        if gstring && c == '$' {
            if let Some((expr, end)) = interpolation(chars, i) {
                if !text.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                }
                lines += chars[i..end].iter().filter(|c| **c == '\n').count() as u32;
                parts.push(Part::Expr(expr));
                i = end;
                continue;
            }
        }
        text.push(c);
        i += 1;
    }
    if !text.is_empty() {
        parts.push(Part::Text(text));
    }
    (parts, i.min(chars.len()), lines)
}

/// A GString's `${expression}` or `$name.name` at `chars[at]` (a `$`): the expression and
/// the index after it.
fn interpolation(chars: &[char], at: usize) -> Option<(String, usize)> {
    match chars.get(at + 1) {
        Some('{') => {
            let mut depth = 0usize;
            let mut i = at + 1;
            // An expression longer than this is no interpolation the linter reads (and a file
            // of unclosed `${` must not be scanned to its end from each).
            let end = chars.len().min(at + MAX_EXPRESSION);
            while i < end {
                match chars[i] {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            let expr: String = chars[at + 2..i].iter().collect();
                            return Some((expr.trim().to_string(), i + 1));
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        Some(c) if c.is_alphabetic() || *c == '_' => {
            let mut i = at + 1;
            loop {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let more = chars.get(i) == Some(&'.')
                    && chars
                        .get(i + 1)
                        .is_some_and(|c| c.is_alphabetic() || *c == '_');
                if !more {
                    break;
                }
                i += 1;
            }
            Some((chars[at + 1..i].iter().collect(), i))
        }
        _ => None,
    }
}

/// Literal text of a string token (none when Groovy fills part of it).
fn literal(parts: &[Part]) -> Option<String> {
    let mut out = String::new();
    for p in parts {
        match p {
            Part::Text(t) => out.push_str(t),
            Part::Expr(_) => return None,
        }
    }
    Some(out)
}

/// The shell text of a string, the expressions Groovy fills known from `env` or unknown.
fn marked(parts: &[Part], env: &[(String, Word)]) -> Marked {
    let mut m = Marked::default();
    for p in parts {
        match p {
            Part::Text(t) => m.push(t),
            Part::Expr(e) => {
                let name = e.strip_prefix("env.").unwrap_or(e);
                match env
                    .iter()
                    .find(|(k, _)| k == name)
                    .and_then(|(_, v)| v.literal())
                {
                    Some(v) => m.push(&v),
                    None => m.unknown(&format!("${{{e}}}")),
                }
            }
        }
    }
    m
}

fn punct(t: Option<&Token>, c: char) -> bool {
    matches!(t, Some((Tok::Punct(p), _)) if *p == c)
}

/// The string an `sh` step at `toks[at]` runs, and its index: `sh '…'`, `sh('…')`,
/// `sh script: '…'`, `sh(label: '…', script: """…""")`.
fn sh_text(toks: &[Token], at: usize) -> Option<usize> {
    let mut i = at + 1;
    if punct(toks.get(i), '(') {
        i += 1;
    }
    if let Some((Tok::Str(_), _)) = toks.get(i) {
        // `sh label: 'x', script: …` names its arguments: a string before `:` is no script.
        return (!punct(toks.get(i + 1), ':'))
            .then_some(i)
            .or_else(|| named(toks, i));
    }
    named(toks, i)
}

/// The `script:` argument among the named arguments from `toks[from]`.
fn named(toks: &[Token], from: usize) -> Option<usize> {
    let mut i = from;
    while i < toks.len() && i < from + 24 {
        match &toks[i].0 {
            Tok::Punct(')') | Tok::Punct('{') | Tok::Punct('}') => return None,
            Tok::Ident(s) if s == "script" && punct(toks.get(i + 1), ':') => {
                return matches!(toks.get(i + 2), Some((Tok::Str(_), _))).then_some(i + 2);
            }
            _ => i += 1,
        }
    }
    None
}

/// The shell steps of a Jenkins pipeline that `mentions` says may run ytt.
pub fn snippets(path: &str, src: &str, mentions: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let toks = tokens(src);
    let mut out = Vec::new();
    let mut depth = 0usize;
    // `dir('x') {`: the depth inside the block and its directory.
    let mut dirs: Vec<(usize, Word)> = Vec::new();
    // `environment {`: the depth inside it, while in it.
    let mut in_env: Option<usize> = None;
    // The environment's values, with the depth of the block they belong to.
    let mut env: Vec<(usize, String, Word)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                dirs.retain(|(d, _)| *d <= depth);
                if in_env.is_some_and(|d| d > depth) {
                    in_env = None;
                }
                // A stage's environment ends with the stage's block.
                env.retain(|(d, _, _)| *d <= depth);
            }
            Tok::Ident(s) if s == "environment" && punct(toks.get(i + 1), '{') => {
                in_env = Some(depth + 1);
            }
            Tok::Ident(name) if in_env == Some(depth) && punct(toks.get(i + 1), '=') => {
                let value = match toks.get(i + 2) {
                    Some((Tok::Str(parts), _)) => literal(parts).map(Word::lit),
                    _ => None,
                };
                let value = value.unwrap_or_else(|| Word::unknown(format!("${name}")));
                env.retain(|(_, k, _)| k != name);
                env.push((depth.saturating_sub(1), name.clone(), value));
            }
            Tok::Ident(s) if s == "dir" => {
                let mut j = i + 1;
                let open = punct(toks.get(j), '(');
                if open {
                    j += 1;
                }
                if let Some((Tok::Str(parts), _)) = toks.get(j) {
                    let close = !open || punct(toks.get(j + 1), ')');
                    let brace = j + usize::from(open) + 1;
                    if close && punct(toks.get(brace), '{') {
                        let mut w = dirs
                            .last()
                            .map(|(_, w)| w.clone())
                            .unwrap_or_else(|| Word::lit(REPO));
                        w.push_lit("/", false);
                        w.extend(&dir_word(parts, &env));
                        dirs.push((depth + 1, w.normalized()));
                    }
                }
            }
            Tok::Ident(s) if s == "sh" => {
                if let Some(at) = sh_text(&toks, i) {
                    if let (Tok::Str(parts), line) = &toks[at] {
                        let vars: Vec<(String, Word)> =
                            env.iter().map(|(_, k, v)| (k.clone(), v.clone())).collect();
                        let m = marked(parts, &vars);
                        if mentions(&m.text) {
                            let cwd = dirs
                                .last()
                                .map(|(_, w)| w.clone())
                                .unwrap_or_else(|| Word::lit(REPO));
                            let mut s = m.into_snippet(path, line.saturating_sub(1), cwd);
                            for (k, v) in vars {
                                if !s.vars.iter().any(|(n, _)| *n == k) {
                                    s.vars.push((k, v));
                                }
                            }
                            out.push(s);
                        }
                        i = at;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A `dir()` argument as a path word: Groovy's expressions an environment value, or
/// unknown.
fn dir_word(parts: &[Part], env: &[(usize, String, Word)]) -> Word {
    let mut w = Word::default();
    for p in parts {
        match p {
            Part::Text(t) => w.push_lit(t, false),
            Part::Expr(e) => {
                let name = e.strip_prefix("env.").unwrap_or(e);
                match env.iter().find(|(_, k, _)| k == name) {
                    Some((_, _, v)) => w.extend(v),
                    None => w.extend(&Word::unknown(format!("${{{e}}}"))),
                }
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    const PIPELINE: &str = r#"pipeline {
    agent any
    environment {
        CONFIG = 'deploy/config'
        TOKEN = credentials('token')
    }
    stages {
        stage('Render') {
            steps {
                // sh 'ytt -f commented-out'
                sh "ytt -f $CONFIG -v tag=${env.BUILD_TAG} -v home=\$HOME > out.yml"
                dir('deploy') {
                    sh '''
                        ytt -f config \
                          -v user=$USER
                    '''
                }
                sh(label: 'render', script: """ytt -f ${params.DIR}/x.yml""")
                sh script: 'ytt -f other', returnStdout: true
            }
        }
    }
}
"#;

    #[test]
    fn sh_steps_with_their_directories_and_groovy_values() {
        assert!(candidate("ci/Jenkinsfile"));
        assert!(candidate("release.jenkinsfile"));
        assert!(!candidate("Jenkinsfile.md"));
        let s = snippets("Jenkinsfile", PIPELINE, &|t| t.contains("ytt"));
        assert_eq!(s.len(), 4, "{s:#?}");
        // `$CONFIG` is the environment's value; `${env.BUILD_TAG}` is known at run time;
        // `\$HOME` is the shell's.
        assert_eq!(
            s[0].text,
            "ytt -f deploy/config -v tag=${__yttlint_0} -v home=$HOME > out.yml"
        );
        assert_eq!(s[0].line_offset, 10);
        assert_eq!(s[0].cwd.to_string(), ".");
        assert!(s[0]
            .vars
            .iter()
            .any(|(k, v)| k == "CONFIG" && v.literal().as_deref() == Some("deploy/config")));
        // A triple-quoted string starts on the `sh` line; the shell reads `$USER` itself.
        assert!(s[1].text.contains("ytt -f config \\\n"), "{}", s[1].text);
        assert!(s[1].text.contains("-v user=$USER"), "{}", s[1].text);
        assert_eq!(s[1].line_offset, 12);
        assert_eq!(s[1].cwd.to_string(), "deploy");
        assert_eq!(s[2].text, "ytt -f ${__yttlint_0}/x.yml");
        assert_eq!(s[2].cwd.to_string(), ".");
        assert_eq!(s[3].text, "ytt -f other");
    }

    #[test]
    fn unterminated_and_odd_text_ends() {
        for src in [
            "sh \"ytt -f a",
            "sh '''ytt",
            "sh",
            "dir(",
            "sh(script:",
            "\"${",
        ] {
            let _ = snippets("Jenkinsfile", src, &|_| true);
        }
        let s = snippets("Jenkinsfile", "sh 'ytt -f a'\nsh \"ytt -f b", &|_| true);
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].line_offset, 1);
    }
}
