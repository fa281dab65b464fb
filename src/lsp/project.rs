//! The repository the server lints: its configuration (found as the command line finds it),
//! what discovery found in it, and the lint settings of the server. Reloaded when the
//! configuration or the set of files changes; never executes anything from the repository.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::GlobSet;

use crate::files::paths;
use crate::lint::config::Config;
use crate::lint::discover::select::{self, Selection};
use crate::lint::discover::{self, Discovery};
use crate::lint::job::inputs;
use crate::lint::job::{Job, JobKind};
use crate::lint::plan::{self, Planned};
use crate::lint::repo::walk;
use crate::lint::session::{self, CacheSetting, Settings};

/// One load of the repository.
pub struct Project {
    pub config: Config,
    pub discovery: Discovery,
    pub exclude: GlobSet,
    pub settings: Settings,
}

impl Project {
    /// Finds the configuration from `dir` (upward, as the command line does) and discovers.
    pub fn load(dir: &Path) -> Result<Project, String> {
        let settings = Settings {
            cwd: dir.to_path_buf(),
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            // The buffers are in this process's file overlay: the jobs run in its threads,
            // and results of unsaved text must not enter a cache shared with the command line.
            cache: CacheSetting::Off,
            isolation: None,
            // One job after an edit would leave the other threads idle.
            spread: true,
            ..Settings::default()
        };
        let config = session::load_config(&settings)?;
        let exclude = walk::exclude_set(&config.exclude)?;
        let discovery = discover::discover(&config)?;
        Ok(Project {
            config,
            discovery,
            exclude,
            settings,
        })
    }

    /// The repository's directory.
    pub fn dir(&self) -> &Path {
        &self.config.dir
    }

    /// Where a finding about a whole root (one without a position: a root whose inputs are
    /// missing, a run that stopped) is shown: line 1 of the configuration file, else of the
    /// root's first file.
    pub fn whole_root_span(&self, root: Option<&str>) -> Option<crate::report::Span> {
        if let Some(file) = self.config.file.as_deref().and_then(|f| self.relative(f)) {
            return Some(crate::report::Span::point(file, 1, 1));
        }
        let root = self
            .discovery
            .roots
            .iter()
            .find(|r| Some(r.name.as_str()) == root)?;
        let first = self.discovery.files.iter().find(|f| {
            f.kind.is_ytt()
                && root
                    .inputs
                    .iter()
                    .any(|i| crate::files::paths::is_within(&f.path, i))
        })?;
        Some(crate::report::Span::point(first.path.clone(), 1, 1))
    }

    /// The repository-relative path of `abs`, when it is inside the repository.
    pub fn relative(&self, abs: &Path) -> Option<String> {
        paths::relative(&self.config.dir, abs)
    }

    /// Whether `abs` is the repository's configuration file.
    pub fn is_config(&self, abs: &Path) -> bool {
        self.config.file.as_deref() == Some(abs)
            || abs
                .file_name()
                .is_some_and(|n| n == ".yttlint.yaml" || n == ".yttlint.yml")
    }

    /// What linting `files` lints: the roots and libraries that read them.
    pub fn select(&self, files: &[PathBuf]) -> Selection {
        select::select(&self.config, &self.discovery, &self.exclude, files)
    }

    /// The plan of a run over `selection`.
    pub fn planned(&self, selection: Selection) -> Planned {
        Planned {
            config: self.config.clone(),
            discovery: self.discovery.clone(),
            selection,
        }
    }

    /// The first job of a root that reads `abs` (a private library's own job when no root
    /// does): the inputs and flags the editor's questions about the file are answered with.
    pub fn job_of(&self, abs: &Path) -> Option<Job> {
        let selection = self.select(&[abs.to_path_buf()]);
        let jobs = plan::jobs(&self.config, &self.discovery, &selection);
        // A file of a private library is read with its library's own values, not those of
        // the root that uses the library.
        if let Some(lib) = self.library_of(abs) {
            let own = jobs
                .iter()
                .find(|j| j.kind == JobKind::Library && j.root == lib && j.flags.is_ok());
            if let Some(job) = own {
                return Some(job.clone());
            }
        }
        jobs.iter()
            .find(|j| j.kind == JobKind::Root && j.flags.is_ok())
            .or_else(|| jobs.iter().find(|j| j.flags.is_ok()))
            .cloned()
    }

    /// The repository path of the innermost private library (`.../_ytt_lib/NAME`) that holds
    /// `abs`.
    pub fn library_of(&self, abs: &Path) -> Option<String> {
        let rel = self.relative(abs)?;
        self.discovery
            .libraries
            .iter()
            .filter(|l| l.partial.is_none() && paths::is_within(&rel, &l.path))
            .max_by_key(|l| l.path.len())
            .map(|l| l.path.clone())
    }

    /// Every scenario of the root of `job` that has a name, as jobs (empty for a root with
    /// one unnamed scenario).
    pub fn scenario_jobs(&self, job: &Job) -> Vec<Job> {
        let selection = self.select(&[self.dir().join(&job.root)]);
        plan::jobs(&self.config, &self.discovery, &selection)
            .into_iter()
            .filter(|j| j.kind == JobKind::Root && j.root == job.root && j.scenario.is_some())
            .filter(|j| j.flags.is_ok())
            .collect()
    }

    /// The evaluation workspace of `job`, its files read under the repository's policy
    /// (open buffers included).
    pub fn workspace(&self, job: &Job) -> Option<(crate::library::Workspace, inputs::Names)> {
        let flags = job.flags.as_ref().ok()?;
        let prepared = {
            let expanded = crate::lint::job::shell_expanded::files(job);
            inputs::prepare(&job.repo, flags, &job.provided, &expanded).ok()?
        };
        Some((prepared.workspace, prepared.names))
    }
}

/// The project shared by the server's threads; replaced whole when reloaded.
pub type Shared = Arc<Project>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_root_finding_goes_to_the_configuration_else_the_first_file() {
        let dir = std::env::temp_dir().join(format!("yttlint-whole-root-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("app/config")).unwrap();
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        std::fs::write(dir.join("app/config/b.yml"), "#@ x = 1\nb: 2\n").unwrap();
        std::fs::write(dir.join("app/config/a.yml"), "#@ x = 1\na: 1\n").unwrap();
        let project = Project::load(&dir).unwrap();
        let span = project.whole_root_span(Some("app/config")).unwrap();
        assert_eq!((span.file.as_str(), span.line), ("app/config/a.yml", 1));
        assert!(project.whole_root_span(Some("elsewhere")).is_none());
        std::fs::write(dir.join(".yttlint.yaml"), "roots:\n  - path: app/config\n").unwrap();
        let project = Project::load(&dir).unwrap();
        let span = project.whole_root_span(Some("app/config")).unwrap();
        assert_eq!((span.file.as_str(), span.line), (".yttlint.yaml", 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
