//! The parsed files of one library and what their `load()`s name: a `@ytt:` module, a file of
//! the library (or of one of its private libraries), or something that cannot be resolved
//! statically (left alone: the evaluation reports it).

use foldhash::{HashMap, HashMapExt};

use starlark::syntax::ast::{AstNoPayload, DefP};

use super::units::{unit, units, Unit};
use super::walk;
use crate::files::InputFile;
use crate::library::tree::dir_of;
use crate::library::Workspace;

/// What a `load()` path names.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// `@ytt:<name>`.
    Ytt(&'static str),
    /// A file, by index into [`Index::all`].
    File(usize),
    /// Not known statically.
    Unknown,
}

/// The files of a library, parsed, with the names each binds.
pub struct Index<'a> {
    /// The library's own files first (`own` of them), then files of private libraries that
    /// its files load.
    pub all: Vec<Unit<'a>>,
    pub own: usize,
    /// How many of the library's own code files did not parse or compile (see
    /// [`super::units::units`]): what they read is not in sight.
    pub unparsed: usize,
    /// Per unit: how many times each name is bound.
    pub bindings: Vec<HashMap<String, usize>>,
    /// Per unit and load path: the target.
    targets: HashMap<(usize, String), Target>,
    /// Per unit: the names bound only by a `load()` of a `@ytt:` module, and the module.
    ytt_aliases: Vec<HashMap<String, &'static str>>,
    /// Per unit: the root of the library it belongs to (what a `load("/path")` starts from).
    roots: Vec<String>,
    /// The library's reads of its data values ([`super::value_refs::refs`]), found once for
    /// the checks that need them (four of them, some on another thread).
    value_refs: std::sync::OnceLock<Vec<super::value_refs::Ref>>,
}

impl<'a> Index<'a> {
    /// Parses the library rooted at `dir`.
    pub fn new(ws: &'a Workspace, dir: &str) -> Index<'a> {
        let (all, unparsed) = units(ws, dir);
        let mut index = Index {
            all,
            own: 0,
            unparsed,
            bindings: Vec::new(),
            targets: HashMap::new(),
            ytt_aliases: Vec::new(),
            roots: Vec::new(),
            value_refs: std::sync::OnceLock::new(),
        };
        index.own = index.all.len();
        index.roots = vec![dir.to_string(); index.own];
        // The loads of the library's own files, then of the private libraries' files they
        // load, and so on: a file loaded with `load("@lib:file")` runs with the data values of
        // the library that loads it. Each file is added once: the loop ends.
        let mut i = 0;
        while i < index.all.len() {
            let paths: Vec<String> = walk::loads(&index.all[i].ast)
                .iter()
                .map(|l| l.module.node.clone())
                .collect();
            for path in paths {
                let target = index.resolve(ws, i, &path);
                index.targets.insert((i, path), target);
            }
            i += 1;
        }
        index.bindings = index.all.iter().map(|u| walk::bindings(&u.ast)).collect();
        index.ytt_aliases = (0..index.all.len())
            .map(|i| index.find_ytt_aliases(i))
            .collect();
        index
    }

    fn resolve(&mut self, ws: &'a Workspace, from: usize, path: &str) -> Target {
        if let Some(name) = path.strip_prefix("@ytt:") {
            return super::ytt_modules::name(name).map_or(Target::Unknown, Target::Ytt);
        }
        let Some((file, root)) = self.locate(ws, from, path) else {
            return Target::Unknown;
        };
        if let Some(i) = self.all.iter().position(|u| std::ptr::eq(u.file, file)) {
            return Target::File(i);
        }
        match unit(ws, file) {
            Some(u) => {
                self.all.push(u);
                self.roots.push(root);
                Target::File(self.all.len() - 1)
            }
            None => Target::Unknown,
        }
    }

    /// The library file a `load()` in unit `from` names (as the engine's loader finds it),
    /// and the root of the library it is in.
    fn locate(
        &self,
        ws: &'a Workspace,
        from: usize,
        path: &str,
    ) -> Option<(&'a InputFile, String)> {
        let tree = ws.tree();
        let from_file: &InputFile = self.all[from].file;
        let (mut root, mut dir, mut file_path) = (
            self.roots.get(from)?.clone(),
            dir_of(&from_file.rel_path).to_string(),
            path,
        );
        if let Some(rest) = path.strip_prefix('@') {
            let (lib, p) = rest.split_once(':')?;
            dir = tree.find_private(&dir, lib).ok()?;
            root = dir.clone();
            file_path = p;
        }
        let base = match file_path.strip_prefix('/') {
            Some(rest) => {
                file_path = rest;
                root.clone()
            }
            None => dir,
        };
        let f = tree.find_file(&base, file_path).ok()?;
        f.is_library().then_some((f, root))
    }

    /// Every reference to data values in the library's files (see [`super::value_refs::refs`]),
    /// found at the first request.
    pub fn value_refs(&self) -> &[super::value_refs::Ref] {
        self.value_refs
            .get_or_init(|| super::value_refs::refs(self))
    }

    /// What the `load(path, ...)` of unit `i` names.
    pub fn target(&self, i: usize, path: &str) -> Target {
        self.targets
            .get(&(i, path.to_string()))
            .copied()
            .unwrap_or(Target::Unknown)
    }

    /// Whether `name` is bound exactly once in unit `i` (so every use means that binding).
    pub fn bound_once(&self, i: usize, name: &str) -> bool {
        self.bindings[i].get(name) == Some(&1)
    }

    /// The `@ytt:` module that the name `local` stands for in unit `i`, if it is bound only by
    /// its `load()`.
    pub fn ytt_alias(&self, i: usize, local: &str) -> Option<&'static str> {
        self.ytt_aliases.get(i)?.get(local).copied()
    }

    fn find_ytt_aliases(&self, i: usize) -> HashMap<String, &'static str> {
        let mut out = HashMap::new();
        for l in walk::loads(&self.all[i].ast) {
            let Target::Ytt(m) = self.target(i, &l.module.node) else {
                continue;
            };
            for a in &l.args {
                if a.their.node == m && self.bound_once(i, &a.local.ident) {
                    out.insert(a.local.ident.clone(), m);
                }
            }
        }
        out
    }

    /// The top-level `def` that the name `local` calls in unit `i`: one of the unit's own, or
    /// one it loads from another file; `None` when the name may mean anything else.
    pub fn function(&self, i: usize, local: &str) -> Option<(usize, &DefP<AstNoPayload>)> {
        if !self.bound_once(i, local) {
            return None;
        }
        if let Some(d) = walk::defs(&self.all[i].ast)
            .into_iter()
            .find(|d| d.name.ident == local)
        {
            return Some((i, d));
        }
        for l in walk::loads(&self.all[i].ast) {
            let Target::File(t) = self.target(i, &l.module.node) else {
                continue;
            };
            if let Some(a) = l.args.iter().find(|a| a.local.ident == local) {
                let their = &a.their.node;
                if !self.bound_once(t, their) {
                    return None;
                }
                return walk::defs(&self.all[t].ast)
                    .into_iter()
                    .find(|d| d.name.ident == *their)
                    .map(|d| (t, d));
            }
        }
        None
    }
}
