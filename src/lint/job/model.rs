//! What a job is and what it gives back: [`Job`] (a root with one scenario's flags, a private
//! library checked on its own, the plain YAML files, discovery's own findings) and
//! [`JobOutcome`], the one result type from the job to the report, which the worker protocol,
//! the result cache and the copies of identical libraries carry as it is.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::report::{Diagnostic, Provenance, RootOutcome, RootStatus, Rule, Span};
use crate::ytt_flags::TemplateArgs;

/// What a job evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum JobKind {
    /// A root with one scenario: full evaluation.
    Root,
    /// A private library on its own: parse, compile, schema.
    Library,
    /// The plain YAML files outside every root: KubeVirt Templates and VirtualMachines.
    Plain,
    /// Findings discovery made itself (an unsynced vendir directory).
    Notice,
}

/// The name plain YAML files are reported under, in the place of a root.
pub const PLAIN_ROOT: &str = "(plain YAML)";

/// One unit of work.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub kind: JobKind,
    /// The repository root (absolute).
    pub repo: PathBuf,
    /// The root's or library's repository-relative path.
    pub root: String,
    pub scenario: Option<String>,
    /// ytt flags with absolute paths (`-f` inputs, data values), or why they cannot be read.
    pub flags: Result<TemplateArgs, String>,
    /// Whether KubeVirt validations are checked.
    pub kubevirt: bool,
    /// How rendered Kubernetes objects are checked against their schemas (`None`: not).
    #[serde(default)]
    pub kubernetes: Option<crate::lint::job::kubernetes::KubeCheck>,
    /// The policies the rendered objects are checked with (`None`: none is on).
    #[serde(default)]
    pub policies: Option<crate::lint::job::policy::PolicyCheck>,
    /// Data values flags that the configuration file wrote (a scenario's `data_values`), with
    /// where: findings about those values point there.
    pub config_spans: Vec<(String, Span)>,
    /// Data values flags read from a committed file that ytt names by a path nobody can use
    /// (`sops -d` in a process substitution), with that file and line, `FILE:LINE`: a
    /// failed validation's `from:` names it (see [`crate::lint::job::validation_words`]).
    #[serde(default)]
    pub values_written: Vec<(String, String)>,
    /// Whether this job also checks its files' text (unknown annotations): once per root, not
    /// once per scenario.
    pub check_files: bool,
    /// Whether static analysis runs with the files' own checks: some rule of it is on.
    pub analysis: bool,
    /// For [`JobKind::Plain`]: the repository-relative files.
    pub plain_files: Vec<String>,
    /// Nobody declared how the root is run: failures caused by unset data values are one
    /// `needs-input` finding.
    pub needs_input: bool,
    /// Data values given at run time (`*`: any): placeholders, and no finding about them.
    pub provided: Vec<String>,
    /// Where the repository runs ytt this way, added to every finding as related location.
    pub origin: Option<Span>,
    /// For [`JobKind::Notice`]: the findings.
    pub notices: Vec<Diagnostic>,
    /// Record which template lines and branches the evaluation runs (see [`crate::lint::job::coverage`]).
    #[serde(default)]
    pub coverage: bool,
    /// For the job whose static analysis checks data values: where the library's data values
    /// may come from besides its own files (it matters when the library has no schema).
    #[serde(default)]
    pub values_from: ValuesFrom,
    /// Report what the library declares and reads of its data values even without the files'
    /// own checks: a scenario whose files differ from those of the root's first scenario.
    #[serde(default)]
    pub reads_values: bool,
    /// Where the root is declared (its entry in the configuration, its Package): a finding
    /// about the root's flags with no place of its own, and without an origin, points there.
    #[serde(default)]
    pub entry: Option<Span>,
    /// Where the scenario's command came from and what discovery assumed to run it (root
    /// jobs only); the job adds what the evaluation shows ([`crate::lint::job::certainty`]).
    #[serde(default)]
    pub provenance: Option<Provenance>,
    /// For [`JobKind::Library`]: a fingerprint of its files as the walk read them and of how
    /// it is checked, equal for copies of one library; the plan runs the copies on one worker,
    /// which checks them once ([`crate::lint::job::copies`]). Placement only: not sent.
    #[serde(skip)]
    pub copy_of: Option<u64>,
    /// The plan's estimate of the job's work: the bytes of text under its inputs
    /// ([`crate::lint::plan::cost`]), by which the queue shares the jobs out between
    /// workers (0: not known). Placement only: not sent.
    #[serde(skip)]
    pub cost: u64,
    /// The scenario's command writes each input file's output to a file of its own
    /// (`--output-files`): see [`crate::lint::job::split_output`].
    #[serde(default)]
    pub split_output: bool,
    /// Where a later command of the scenario's script deploys that output as one.
    #[serde(default)]
    pub output_deployed: Option<crate::lint::config::output_deploy::OutputDeploy>,
    /// The comparison that alone reads the scenario's output, which nothing applies: see
    /// [`crate::lint::job::compared_output`].
    #[serde(default)]
    pub output_compared: Option<crate::lint::config::compared_output::Compared>,
    /// For [`JobKind::Notice`]: its findings are about a file no root reads, kept under the
    /// file's path, which is no root: the report does not count it
    /// ([`crate::lint::discover::got_root`]). Placement only: not sent.
    #[serde(skip)]
    pub uncounted: bool,
}

/// Where a library's data values may come from besides its own files.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub enum ValuesFrom {
    /// Not known: given at run time, or by a caller (`with_data_values`, `@library/ref`).
    #[default]
    Unknown,
    /// The job's own flags and those of these other scenarios of the root (their flags, and
    /// the values they give at run time); for a private library, nothing (no scenarios).
    Scenarios(Vec<(TemplateArgs, Vec<String>)>),
}

impl Job {
    /// A job of the repository of `config` for `root`, with nothing special set.
    pub fn new(
        config: &crate::lint::config::Config,
        root: &str,
        flags: Result<TemplateArgs, String>,
    ) -> Job {
        // The configuration's extensions apply to every job.
        let flags = flags.map(|mut f| {
            for e in &config.extensions {
                if !f.extensions.contains(e) {
                    f.extensions.push(e.clone());
                }
            }
            f
        });
        Job {
            kind: JobKind::Root,
            repo: config.dir.clone(),
            root: root.to_string(),
            scenario: None,
            flags,
            kubevirt: config.kubevirt,
            kubernetes: None,
            policies: None,
            config_spans: Vec::new(),
            values_written: Vec::new(),
            check_files: false,
            analysis: Rule::STATIC
                .iter()
                .any(|r| config.level(*r) != Some(crate::lint::config::RuleLevel::Off)),
            plain_files: Vec::new(),
            needs_input: false,
            provided: Vec::new(),
            origin: None,
            notices: Vec::new(),
            coverage: false,
            values_from: ValuesFrom::Unknown,
            reads_values: false,
            entry: None,
            provenance: None,
            copy_of: None,
            cost: 0,
            split_output: false,
            output_deployed: None,
            output_compared: None,
            uncounted: false,
        }
    }
}

/// What a job found: the one result type from the job to the report. The worker protocol,
/// the result cache and the copies of identical libraries carry it as it is.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobOutcome {
    pub status: RootOutcome,
    /// Findings with the job's root and scenario set.
    pub diagnostics: Vec<Diagnostic>,
    /// What the evaluation executed, when the job records it.
    #[serde(default)]
    pub coverage: Option<crate::report::coverage::Coverage>,
    /// Wall-clock time the job took, in milliseconds (0 when it came from a cache).
    #[serde(default)]
    pub duration_ms: u64,
    /// The kinds of rendered objects no schema was known for (`apiVersion kind`).
    #[serde(default)]
    pub unchecked_kinds: Vec<crate::report::Unchecked>,
    /// What the job's library declares and reads of its data values, and its stale findings,
    /// when its static analysis ran (see [`crate::lint::job::usage`]).
    #[serde(default)]
    pub usage: Option<crate::lint::job::usage::Usage>,
    /// The job's provenance with what its evaluation added (placeholders it found).
    #[serde(default)]
    pub provenance: Option<Provenance>,
}

impl JobOutcome {
    /// A job that could not be linted to the end, with the one finding that says why.
    pub fn failure(job: &Job, mut d: Diagnostic) -> JobOutcome {
        d.root = Some(job.root.clone());
        d.scenario = job.scenario.clone();
        JobOutcome {
            status: RootOutcome::Error,
            diagnostics: vec![d],
            coverage: None,
            duration_ms: 0,
            unchecked_kinds: Vec::new(),
            usage: None,
            provenance: job.provenance.clone(),
        }
    }

    /// The outcome of a job whose run was cancelled ([`crate::eval::cancel`]): nothing, as
    /// it is never reported.
    pub fn cancelled() -> JobOutcome {
        JobOutcome {
            status: RootOutcome::Ok,
            diagnostics: Vec::new(),
            coverage: None,
            duration_ms: 0,
            unchecked_kinds: Vec::new(),
            usage: None,
            provenance: None,
        }
    }

    /// The job's line in the report's list of roots.
    pub fn root_status(&self, job: &Job) -> RootStatus {
        RootStatus {
            path: job.root.clone(),
            scenario: job.scenario.clone(),
            status: self.status,
            duration_ms: self.duration_ms,
            provenance: self.provenance.clone().or_else(|| job.provenance.clone()),
            unchecked: self.unchecked_kinds.clone(),
        }
    }
}

impl Job {
    /// The job as progress and messages name it: `root (scenario)`.
    pub fn describe(&self) -> String {
        match &self.scenario {
            Some(s) => format!("{} ({s})", self.root),
            None => self.root.clone(),
        }
    }
}

/// The message of the related location that shows where the repository runs ytt this way.
pub const ORIGIN_NOTE: &str = "the repository runs ytt this way here";

/// Puts a finding of `job` under its root. A finding about a file's text (see
/// [`Rule::is_about_text`]) belongs to no scenario: it shows neither the scenario nor where the
/// scenario comes from. Any other finding names the scenario and, as a related location, the
/// command that runs ytt this way; one with no place of its own points at that command, or
/// else at the root's entry in the configuration or its Package.
pub fn place(job: &Job, d: &mut Diagnostic) {
    // A finding about a file no root reads is shown under its file alone: its path is no
    // root (the report's roots leave it out, `post::findings`).
    d.root = (!job.uncounted).then(|| job.root.clone());
    if d.rule.is_about_text() {
        d.scenario = None;
        return;
    }
    d.scenario = job.scenario.clone();
    if d.span.is_none() {
        d.span = job.origin.clone().or_else(|| job.entry.clone());
    }
    if let Some(origin) = &job.origin {
        let shown = d.span.as_ref() == Some(origin) || d.related.iter().any(|r| r.span == *origin);
        if !shown {
            d.related.push(crate::report::Related {
                message: ORIGIN_NOTE.to_string(),
                span: origin.clone(),
            });
        }
    }
}

/// Told where the evaluation is (see [`crate::eval::progress`]), so that whoever runs the job
/// can say where it was when a panic, a limit or the end of a worker process stops it.
#[derive(Clone, Copy)]
pub struct OnFile {
    /// The evaluation is in the file at this repository path (`None`: in no file of the
    /// repository), at this line (0: not known).
    pub file: fn(Option<&str>, u32),
    /// The evaluation is at this line of the file last given.
    pub line: fn(u32),
}
