//! `--shard K/N`: one of N deterministic shares of what a run lints, so that N CI jobs in
//! parallel lint the repository once between them.
//!
//! The units shared out are the selected roots, private libraries and the plain KubeVirt files.
//! Units whose paths overlap (a root and the libraries inside it, two roots reading one
//! directory, a root and a values file it reads) always go to the same shard: a suppression
//! comment is judged used or unused by every job that reads its file, so those jobs must run
//! together for N shards to report exactly what one run reports. Each group weighs the bytes of
//! the files it reads (times its number of scenarios); the heaviest group goes first to the
//! lightest shard, ties broken by path, so the shares are balanced and the same on every
//! machine.

use std::collections::BTreeMap;

use crate::files::paths::is_within;
use crate::lint::discover::Root;
use crate::lint::plan::Planned;

/// Shard `index` (from 1) of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub total: usize,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, total)) if index >= 1 && index <= total => Ok(Shard { index, total }),
            _ => Err(format!(
                "expected K/N with 1 <= K <= N (for example 2/3), got \"{text}\""
            )),
        }
    }
}

/// What one unit is: its paths (repository-relative) and how many jobs it makes.
struct Unit {
    kind: UnitKind,
    paths: Vec<String>,
    runs: u64,
}

#[derive(Clone, Copy)]
enum UnitKind {
    Root(usize),
    Library(usize),
    Plain,
}

/// Keeps in `planned.selection` only what shard `shard` lints.
pub fn apply(planned: &mut Planned, shard: Shard) {
    if shard.total <= 1 {
        return;
    }
    let units = units(planned);
    let groups = groups(&units);
    let sizes = file_sizes(planned);
    let mut weighted: Vec<(u64, &str, &Vec<usize>)> = groups
        .iter()
        .map(|members| {
            let weight = members
                .iter()
                .map(|&u| weight(&units[u], &sizes))
                .sum::<u64>();
            let name = members
                .iter()
                .filter_map(|&u| units[u].paths.first())
                .min()
                .map_or("", String::as_str);
            (weight, name, members)
        })
        .collect();
    weighted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut loads = vec![0u64; shard.total];
    let sel = &mut planned.selection;
    let (mut roots, mut libraries, mut plain) = (Vec::new(), Vec::new(), false);
    for (weight, _, members) in weighted {
        let lightest = (0..loads.len()).min_by_key(|&i| (loads[i], i)).unwrap_or(0);
        loads[lightest] += weight;
        if lightest + 1 != shard.index {
            continue;
        }
        for &u in members {
            match units[u].kind {
                UnitKind::Root(i) => roots.push(i),
                UnitKind::Library(i) => libraries.push(i),
                UnitKind::Plain => plain = true,
            }
        }
    }
    roots.sort_unstable();
    libraries.sort_unstable();
    sel.roots = roots;
    sel.libraries = libraries;
    if !plain {
        sel.plain.clear();
    }
}

fn units(p: &Planned) -> Vec<Unit> {
    let d = &p.discovery;
    let mut out: Vec<Unit> = Vec::new();
    for &i in &p.selection.roots {
        if let Some(root) = d.roots.get(i) {
            out.push(Unit {
                kind: UnitKind::Root(i),
                paths: root_paths(root),
                runs: root.scenarios.len().max(1) as u64,
            });
        }
    }
    for &i in &p.selection.libraries {
        if let Some(lib) = d.libraries.get(i) {
            out.push(Unit {
                kind: UnitKind::Library(i),
                paths: vec![lib.path.clone()],
                runs: 1,
            });
        }
    }
    if !p.selection.plain.is_empty() {
        out.push(Unit {
            kind: UnitKind::Plain,
            paths: p.selection.plain.clone(),
            runs: 1,
        });
    }
    out
}

/// A root's inputs and the values files its scenarios read.
fn root_paths(root: &Root) -> Vec<String> {
    let mut paths = root.inputs.clone();
    for sc in &root.scenarios {
        for vf in &sc.values_files {
            let rest = crate::lint::config::parse::split_lib_ref(vf).1;
            paths.push(rest.strip_prefix("+:").unwrap_or(rest).to_string());
        }
    }
    paths
}

/// Units connected by overlapping paths, each group in ascending unit order.
fn groups(units: &[Unit]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..units.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for a in 0..units.len() {
        for b in a + 1..units.len() {
            let overlap = units[a].paths.iter().any(|x| {
                units[b]
                    .paths
                    .iter()
                    .any(|y| is_within(x, y) || is_within(y, x))
            });
            if overlap {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for u in 0..units.len() {
        let r = find(&mut parent, u);
        groups.entry(r).or_default().push(u);
    }
    groups.into_values().collect()
}

/// The size of every file of the repository the walk saw.
fn file_sizes(p: &Planned) -> Vec<(String, u64)> {
    p.discovery
        .files
        .iter()
        .map(|f| {
            let len = std::fs::metadata(p.config.dir.join(&f.path)).map_or(0, |m| m.len());
            (f.path.clone(), len)
        })
        .collect()
}

/// Bytes a unit reads, times its jobs (at least 1, so that empty units count).
fn weight(unit: &Unit, sizes: &[(String, u64)]) -> u64 {
    let bytes: u64 = sizes
        .iter()
        .filter(|(f, _)| unit.paths.iter().any(|p| is_within(f, p)))
        .map(|(_, n)| *n)
        .sum();
    bytes.max(1) * unit.runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(paths: &[&str]) -> Unit {
        Unit {
            kind: UnitKind::Plain,
            paths: paths.iter().map(|p| p.to_string()).collect(),
            runs: 1,
        }
    }

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, total: 3 }));
        assert!(Shard::parse("0/3").is_err());
        assert!(Shard::parse("4/3").is_err());
        assert!(Shard::parse("x").is_err());
    }

    #[test]
    fn overlapping_units_form_one_group() {
        let units = [
            unit(&["app"]),
            unit(&["app/_ytt_lib/x"]),
            unit(&["other"]),
            unit(&["third", "other/values.yml"]),
            unit(&["alone"]),
        ];
        assert_eq!(groups(&units), vec![vec![0, 1], vec![2, 3], vec![4]]);
    }

    #[test]
    fn weight_counts_bytes_and_runs() {
        let sizes = vec![("app/a.yml".to_string(), 10), ("b/c.yml".to_string(), 5)];
        let mut u = unit(&["app"]);
        assert_eq!(weight(&u, &sizes), 10);
        u.runs = 3;
        assert_eq!(weight(&u, &sizes), 30);
        assert_eq!(weight(&unit(&["none"]), &sizes), 1);
    }
}
