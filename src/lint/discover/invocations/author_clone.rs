//! An author's absolute path to their own clone of the repository, written into a script
//! (`ytt -f /home/someone/work/greetings/tpl/greeting.yaml`): the repository's file its tail
//! names, whatever this checkout is called (round forty-four's N44-1), as a guess said as a
//! `working-directory` assumption. Only a file the walk listed is ever named.

use super::resolve::Repo;
use crate::report::{Assumption, AssumptionKind};

/// The file an absolute path into a home directory (`/home/someone/work/greetings/tpl/x.yaml`,
/// `/Users/someone/…`) whose tail, after the home and at least one more folder (the clone's,
/// whatever its name), is a file of the repository (`tpl/x.yaml`): the author's own clone of
/// it, whatever the checkout here is called (round forty-four's N44-1). A guess, said as
/// one; the longest such tail wins. Only a file the walk listed is ever named: a `..` or `.`
/// segment maps nothing.
pub fn mapped(abs: &str, repo: &Repo) -> Option<(String, Assumption)> {
    let segs: Vec<&str> = abs.split('/').filter(|s| !s.is_empty()).collect();
    if !matches!(segs.first(), Some(&"home" | &"Users"))
        || segs.iter().any(|s| matches!(*s, "." | ".."))
    {
        return None;
    }
    let (clone, rest) = (3..segs.len())
        .map(|i| (segs[..i].join("/"), segs[i..].join("/")))
        .find(|(_, rest)| repo.index.is_file(rest))?;
    let a = Assumption::new(
        AssumptionKind::WorkingDirectory,
        format!(
            "{abs} is taken for the repository's {rest}: /{clone} is assumed to hold the \
             author's copy of it"
        ),
    );
    Some((rest, a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::index::Index;

    #[test]
    fn a_home_path_s_tail_is_the_repository_s_file_whatever_the_checkout_is_called() {
        let index = Index::new(["tpl/greeting.yaml", "greeting.yaml"]);
        let repo = Repo::new(&index, &[], "owner+greetings");
        let (path, a) = mapped("/home/someone/work/greetings/tpl/greeting.yaml", &repo).unwrap();
        assert_eq!(path, "tpl/greeting.yaml");
        assert_eq!(a.kind, AssumptionKind::WorkingDirectory);
        assert!(
            a.message.contains("/home/someone/work/greetings"),
            "{}",
            a.message
        );
        // The longest tail wins over a shorter file of the same name.
        let (path, _) = mapped("/Users/pat/src/tpl/greeting.yaml", &repo).unwrap();
        assert_eq!(path, "tpl/greeting.yaml");
        // Not a home directory, the home itself, a file the repository does not hold, or a
        // path that climbs: nothing.
        assert_eq!(mapped("/etc/tpl/greeting.yaml", &repo), None);
        assert_eq!(mapped("/home/someone/greeting.yaml", &repo), None);
        assert_eq!(mapped("/home/someone/work/x/tpl/other.yaml", &repo), None);
        assert_eq!(
            mapped("/home/someone/work/../tpl/greeting.yaml", &repo),
            None
        );
        assert_eq!(mapped("/home/someone/work/greetings/tpl", &repo), None);
    }
}
