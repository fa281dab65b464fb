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
        jobs.iter()
            .find(|j| j.kind == JobKind::Root && j.flags.is_ok())
            .or_else(|| jobs.iter().find(|j| j.flags.is_ok()))
            .cloned()
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
        let prepared = inputs::prepare(&job.repo, flags, &job.provided).ok()?;
        Some((prepared.workspace, prepared.names))
    }
}

/// The project shared by the server's threads; replaced whole when reloaded.
pub type Shared = Arc<Project>;
