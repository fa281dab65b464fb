//! How sure a finding is. Every scenario of a root says where its `ytt` command came from
//! ([`Source`]) and what the linter had to assume to run it ([`Assumption`]); every finding
//! says what it rests on besides the text of its files ([`Basis`]). A finding that rests on a
//! command or on inputs the linter guessed carries those assumptions ([`Certainty`]), and the
//! run reports it as a warning that names them rather than as an error: an error means certain.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a scenario's `ytt` command came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A root or scenario of `.yttlint.yaml`.
    Config,
    /// A shell script (or a script a Makefile or CI job runs) that runs `ytt`.
    Script,
    /// A Makefile recipe.
    Makefile,
    /// A Taskfile task.
    Taskfile,
    /// A CI job (GitHub workflow or action, GitLab CI, Concourse task, kuttl test).
    Ci,
    /// The ytt step of a Carvel `Package` or `App` resource.
    Package,
    /// A README or other document that tells the reader to run it.
    Document,
    /// Nothing runs it: the linter inferred it from the layout (the topmost directory holding
    /// ytt files).
    Layout,
    /// A ytt document written as a string inside another YAML file (`origin`: the outer file
    /// and the line of its key), which the linter checks as a file of its own.
    Embedded,
}

impl Source {
    /// The id used by the JSON and SARIF reports.
    pub fn id(self) -> &'static str {
        match self {
            Source::Config => "config",
            Source::Script => "script",
            Source::Makefile => "makefile",
            Source::Taskfile => "taskfile",
            Source::Ci => "ci",
            Source::Package => "package",
            Source::Document => "document",
            Source::Layout => "layout",
            Source::Embedded => "embedded",
        }
    }

    /// How a finding's origin line says it (`run by hack/build.sh:12`).
    pub fn describe(self, origin: Option<&str>) -> String {
        let at = |what: &str| match origin {
            Some(o) => format!("{what} {o}"),
            None => what.to_string(),
        };
        match self {
            Source::Config => at("listed in"),
            Source::Script | Source::Makefile | Source::Taskfile | Source::Ci => at("run by"),
            Source::Package => at("rendered by"),
            Source::Document => at("as documented in"),
            Source::Layout => "command inferred from the layout".to_string(),
            Source::Embedded => at("the ytt document written as a string at"),
        }
    }
}

/// What kind of guess an assumption is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AssumptionKind {
    /// Nothing in the repository runs the root: its command was inferred from the layout.
    InferredCommand,
    /// A tool that wraps ytt (myks, gflows, tanzu-sync, a TKG provider tree) gives the root
    /// files, a schema or data values of its own.
    WrapperTool,
    /// The files are meant to be copied into another tool's tree and rendered there.
    CopiedElsewhere,
    /// A `-f` or values path of the command is not in the repository.
    MissingInput,
    /// A path of the command lies outside the repository (`$HOME/...`).
    OutsideInput,
    /// Arguments the linter filled in (`$1` of a script, one value per candidate).
    BoundArgument,
    /// Data values given at run time, which the linter replaced with placeholders.
    RuntimeValues,
    /// A values file decrypted at run time (`--data-values-file <(sops -d FILE)`) has the keys
    /// of the committed encrypted file, each encrypted value a placeholder.
    DecryptedValues,
    /// A data value holds a placeholder (`<your-registry>`, `changeme`, `XXX`).
    Placeholder,
    /// Data values left to the user (null defaults a Package's user must supply, values a
    /// document says to write first).
    LeftToUser,
    /// An example values file stands in for the user's own copy of it.
    ExampleValues,
    /// A step before the command rewrites a committed input (`yq -i`, `sed -i`, `> file`):
    /// the committed content was linted, not what the command reads.
    ChangedAtRunTime,
    /// The file holds another tool's template syntax (`{{ .x }}`): that tool renders it
    /// before ytt reads it. Or it holds ytt's text-template directives (`(@ … @)`) where a
    /// YAML file has none: a command marks it `type=text-template`.
    OtherTemplate,
    /// A tool prepends text to the file before ytt reads it (`printf '#@ ns = "%s"\n' …;
    /// cat "$f"`): the names the file reads but does not define come from there.
    PrependedText,
    /// The cluster runs the default Kubernetes version: no `kubernetes.version` was given.
    TargetVersion,
    /// A ytt path of a Package or App is a kustomize overlay (`kustomization.yaml` and its
    /// patches): ytt renders those files as they are, not kustomize's output.
    KustomizeTree,
    /// A page's command renders the reader's directory (`ytt -f .`) and the page does not
    /// say which that is: the directory its section names was assumed.
    WorkingDirectory,
    /// A Kubernetes object's kind was checked against a CustomResourceDefinition file of the
    /// repository that its root does not render, and something says the cluster gets the kind
    /// elsewhere (a Crossplane XRD of the kind, a copy a controller made on a cluster, a
    /// directory another tool owns): the cluster's schema may differ.
    RepositoryCrd,
    /// The command runs in a checkout taken to be this repository's: a reusable GitHub
    /// workflow's (`on: workflow_call`) that no workflow of the repository calls, in its
    /// caller's checkout; a Concourse task's input whose `((uri))` is one of several the
    /// pipeline checks out. This repository's files were linted in its place.
    CallerCheckout,
    /// The file lies in an editor extension's or a grammar's directory (a VS Code extension
    /// contributing a grammar, a tree-sitter grammar), which keeps YAML for the editor to
    /// highlight or parse, and no command of the repository renders it: what is found in it
    /// assumes that ytt renders it at all, and is a note.
    SampleText,
    /// The command writes each input file's output to a file of its own (`--output-files`),
    /// and the files of two objects lie in different directories: they are one set only if
    /// those directories are applied together. What rests on that is a note.
    SplitOutput,
    /// `--data-values-env PREFIX` gets the `PREFIX_…` variables the repository's environment
    /// files set (direnv's `.envrc` and its templates, `.env` files), and no others.
    EnvironmentFiles,
    /// The command gives a long flag that no ytt version knows (`--colour never`): it is read
    /// as changing nothing the linter checks (a later ytt's flag, or a wrapper's).
    UnknownFlag,
    /// A script's loop renders the entries of a directory but leaves this one out by a test
    /// of its name (`[ "$name" != example-x ]`), and nothing else renders it: what is found
    /// in it assumes that ytt renders it alone, and is a note.
    LeftOutEntry,
    /// An input is what another program prints at run time, known only in its shape: the
    /// file a script writes with `kubectl get KIND NAME -o yaml` is one object of that kind
    /// (its other fields unknown). What is found rests on that shape alone.
    CommandOutput,
}

impl AssumptionKind {
    /// Every kind, in the order of their ids' documentation.
    pub const ALL: [AssumptionKind; 25] = [
        AssumptionKind::InferredCommand,
        AssumptionKind::WrapperTool,
        AssumptionKind::CopiedElsewhere,
        AssumptionKind::MissingInput,
        AssumptionKind::OutsideInput,
        AssumptionKind::BoundArgument,
        AssumptionKind::RuntimeValues,
        AssumptionKind::DecryptedValues,
        AssumptionKind::Placeholder,
        AssumptionKind::LeftToUser,
        AssumptionKind::ExampleValues,
        AssumptionKind::ChangedAtRunTime,
        AssumptionKind::OtherTemplate,
        AssumptionKind::PrependedText,
        AssumptionKind::TargetVersion,
        AssumptionKind::KustomizeTree,
        AssumptionKind::WorkingDirectory,
        AssumptionKind::RepositoryCrd,
        AssumptionKind::CallerCheckout,
        AssumptionKind::SampleText,
        AssumptionKind::SplitOutput,
        AssumptionKind::EnvironmentFiles,
        AssumptionKind::UnknownFlag,
        AssumptionKind::LeftOutEntry,
        AssumptionKind::CommandOutput,
    ];

    /// The kind whose id is `id` (as the reports and `assumes:` of `.yttlint.yaml` write it).
    pub fn from_id(id: &str) -> Option<AssumptionKind> {
        AssumptionKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The id used by the JSON and SARIF reports.
    pub fn id(self) -> &'static str {
        match self {
            AssumptionKind::InferredCommand => "inferred-command",
            AssumptionKind::WrapperTool => "wrapper-tool",
            AssumptionKind::CopiedElsewhere => "copied-elsewhere",
            AssumptionKind::MissingInput => "missing-input",
            AssumptionKind::OutsideInput => "outside-input",
            AssumptionKind::BoundArgument => "bound-argument",
            AssumptionKind::RuntimeValues => "runtime-values",
            AssumptionKind::DecryptedValues => "decrypted-values",
            AssumptionKind::Placeholder => "placeholder",
            AssumptionKind::LeftToUser => "left-to-user",
            AssumptionKind::ExampleValues => "example-values",
            AssumptionKind::ChangedAtRunTime => "changed-at-run-time",
            AssumptionKind::OtherTemplate => "other-template",
            AssumptionKind::PrependedText => "prepended-text",
            AssumptionKind::TargetVersion => "target-version",
            AssumptionKind::KustomizeTree => "kustomize-tree",
            AssumptionKind::WorkingDirectory => "working-directory",
            AssumptionKind::RepositoryCrd => "repository-crd",
            AssumptionKind::CallerCheckout => "caller-checkout",
            AssumptionKind::SampleText => "sample-text",
            AssumptionKind::SplitOutput => "split-output",
            AssumptionKind::EnvironmentFiles => "environment-files",
            AssumptionKind::UnknownFlag => "unknown-flag",
            AssumptionKind::LeftOutEntry => "left-out-entry",
            AssumptionKind::CommandOutput => "command-output",
        }
    }

    /// Whether the guess is about the command itself (which files it gives, its flags), not
    /// only about the data values.
    pub fn about_command(self) -> bool {
        matches!(
            self,
            AssumptionKind::InferredCommand
                | AssumptionKind::WrapperTool
                | AssumptionKind::CopiedElsewhere
                | AssumptionKind::MissingInput
                | AssumptionKind::OutsideInput
                | AssumptionKind::BoundArgument
                | AssumptionKind::OtherTemplate
                | AssumptionKind::PrependedText
                | AssumptionKind::KustomizeTree
                | AssumptionKind::WorkingDirectory
                | AssumptionKind::CallerCheckout
                | AssumptionKind::SampleText
                | AssumptionKind::UnknownFlag
                | AssumptionKind::LeftOutEntry
        )
    }

    /// Whether the guess is that another tool gives the files inputs of its own, which the
    /// linter knows it does not have.
    pub fn elsewhere(self) -> bool {
        matches!(
            self,
            AssumptionKind::WrapperTool
                | AssumptionKind::CopiedElsewhere
                | AssumptionKind::OtherTemplate
                | AssumptionKind::PrependedText
        )
    }
}

/// One thing the linter had to assume, said so a reader can check it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Assumption {
    pub kind: AssumptionKind,
    /// What was assumed, in a few words (`the committed values.yml holds placeholders
    /// (registry: <your-registry>)`): for the reader only, never read back by the linter.
    pub message: String,
    /// What the assumption is about, where the linter acts on it: the example standing in
    /// for a copy, the input a step rewrites, whether what rests on it is a note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
}

impl Assumption {
    pub fn new(kind: AssumptionKind, message: impl Into<String>) -> Assumption {
        Assumption {
            kind,
            message: message.into(),
            subject: None,
        }
    }

    /// The assumption, with what it is about as data.
    pub fn about(mut self, subject: Subject) -> Assumption {
        self.subject = Some(subject);
        self
    }

    /// The example file this assumption says stands in for the user's copy of it.
    pub fn stand_in(&self) -> Option<&str> {
        match &self.subject {
            Some(Subject::StandIn { example, .. }) => Some(example),
            _ => None,
        }
    }

    /// Whether a finding that rests on this assumption says nothing of the repository (a
    /// blank of an example, text its user replaces, an editor's sample nothing renders): it
    /// is reported as a note.
    pub fn only_a_note(&self) -> bool {
        matches!(
            self.subject,
            Some(
                Subject::UserFills
                    | Subject::Replaced { .. }
                    | Subject::StandInValue { .. }
                    | Subject::Alternatives { .. }
            )
        ) || matches!(
            self.kind,
            AssumptionKind::SampleText | AssumptionKind::SplitOutput | AssumptionKind::LeftOutEntry
        )
    }
}

/// What an assumption is about, as data: the linter decides with it, never with the words of
/// an assumption's message (the JSON report gives it as `subject`, tagged by `is`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "is")]
pub enum Subject {
    /// `example-values`: the repository's `example` stands in for `copy`, the user's copy of
    /// it that a command reads (an input path, `-f $1`, a Secret's file).
    StandIn { example: String, copy: String },
    /// `example-values`: a page's command gives its data values in full on its command line;
    /// they are the reader's, as typed.
    ReadersValues,
    /// `left-to-user`: the finding rests on what the user fills in or replaces (a blank of an
    /// example, placeholder text a command's own values replace): a note.
    UserFills,
    /// `changed-at-run-time`: `file`, a committed input that a step rewrites before the
    /// command. `shell`: the step is the shell's expansion of it as a here-document, which
    /// fills its variables and its commands' output in (see `lint/job/shell_expanded.rs`).
    Rewritten {
        file: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shell: bool,
    },
    /// `changed-at-run-time`: the finding checks placeholder text of `file` that a step
    /// rewrites before the command reads it (see `lint/job/rewritten_text.rs`): ytt never
    /// renders that text, so the finding is a note.
    Replaced { file: String },
    /// `inferred-command`: a directory whose files only supplement others, checked on its
    /// own: no command gives its files alone, so what rests on the command is a note.
    Supplements,
    /// `runtime-values`: the finding is at a template line that reads `key`, a value the
    /// command gives at run time, and checks what the linter's stand-in for it rendered (see
    /// `lint/job/runtime_read.rs`): it says nothing of the value given, so it is a note.
    StandInValue { key: String },
    /// `environment-files`: `--data-values-env prefix` gets the `prefix_…` variables that
    /// `files`, the repository's environment files, set, and no others.
    EnvironmentFiles { prefix: String, files: Vec<String> },
    /// `working-directory`: a page's command names the page's own folder by `stale`, the
    /// path it had before a move, and was linted with `now` in its place.
    OldPath { stale: String, now: String },
    /// `inferred-command`: `files`, two files of a root inferred from the layout, each render
    /// the same objects with the same content: alternatives of one example, each rendered on
    /// its own (see `lint/job/alternative_files.rs`); a duplicate between them is a note.
    Alternatives { files: Vec<String> },
    /// `inferred-command`: a folder rendered with the schema and values files of `command`,
    /// a known command that gives them with a sibling folder (see
    /// `lint/discover/sibling_dir.rs`): what rests on that schema rests on the guess too.
    BorrowedSchema { command: String },
    /// `missing-input`: `input`, what the command reads on standard input from another
    /// program (`make-cluster | ytt -f assist -f-`), is left out; the files the command names
    /// are given as written, with its flags, and ytt compiles them before it reads the pipe:
    /// what they show alone (a comment ytt refuses without `--ignore-unknown-comments`) does
    /// not rest on it (see `lint/job/certainty.rs`).
    Piped { input: String },
    /// `outside-input`: `name`, a file a page's command gives as a Markdown link
    /// (`-f [name](url)`), which its reader downloads from `url`: the command is linted
    /// without it, and a failure to find it is a `needs-input` note naming both (see
    /// `lint/job/downloaded.rs`).
    Downloaded { name: String, url: String },
}

impl fmt::Display for Assumption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Where one scenario's command and inputs came from, and what was assumed to run it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Provenance {
    pub source: Source,
    /// Where the command is written (`hack/build.sh:12`), when it is.
    pub origin: Option<String>,
    pub assumptions: Vec<Assumption>,
}

impl Provenance {
    /// A command nothing had to be assumed for.
    pub fn of(source: Source, origin: Option<String>) -> Provenance {
        Provenance {
            source,
            origin,
            assumptions: Vec::new(),
        }
    }

    /// Whether the command and every input are known.
    pub fn certain(&self) -> bool {
        self.assumptions.is_empty()
    }

    /// Adds an assumption once.
    pub fn assume(&mut self, a: Assumption) {
        if !self.assumptions.contains(&a) {
            self.assumptions.push(a);
        }
    }

    /// The assumptions a finding of this basis rests on.
    pub fn bearing_on(&self, basis: Basis) -> Vec<Assumption> {
        match basis {
            Basis::Text => Vec::new(),
            Basis::Schema => self
                .assumptions
                .iter()
                .filter(|a| {
                    a.kind.elsewhere() || matches!(a.subject, Some(Subject::BorrowedSchema { .. }))
                })
                .cloned()
                .collect(),
            Basis::Command => self
                .assumptions
                .iter()
                .filter(|a| a.kind.about_command())
                .cloned()
                .collect(),
            Basis::Inputs => self.assumptions.clone(),
        }
    }

    /// The finding's view of it: where the command came from, and what the finding assumes.
    pub fn certainty(&self, basis: Basis) -> Certainty {
        Certainty {
            source: self.source,
            origin: self.origin.clone(),
            assumed: self.bearing_on(basis),
        }
    }
}

/// What a finding rests on besides the text of the files it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// The text alone: syntax, comments and annotations, static analysis, a field the
    /// template writes literally.
    Text,
    /// The library's own data values schema, taken as complete: a reference to a data value
    /// it does not declare, a value it declares that nothing reads. A tool that wraps ytt
    /// and gives a schema of its own makes it incomplete.
    Schema,
    /// The command: which files it gives and with which flags (a load of a file it does not
    /// give, an overlay whose target it does not give, a plain comment without
    /// `--ignore-unknown-comments`).
    Command,
    /// The command and its data values: evaluation failures, validations, fields the values
    /// wrote.
    Inputs,
}

/// How sure one finding is: the command it came from and what it assumes (empty: certain).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Certainty {
    pub source: Source,
    pub origin: Option<String>,
    pub assumed: Vec<Assumption>,
}

impl Certainty {
    /// A certainty of a command from `source` (`origin`: where it was read) that assumes
    /// nothing yet.
    pub fn from(source: Source, origin: Option<String>) -> Certainty {
        Certainty {
            source,
            origin,
            assumed: Vec::new(),
        }
    }

    /// Adds an assumption once.
    pub fn add(&mut self, a: Assumption) {
        if !self.assumed.contains(&a) {
            self.assumed.push(a);
        }
    }

    pub fn certain(&self) -> bool {
        self.assumed.is_empty()
    }

    /// `assumes: a; b`, or `None` when certain.
    pub fn note(&self) -> Option<String> {
        if self.assumed.is_empty() {
            return None;
        }
        let parts: Vec<&str> = self.assumed.iter().map(|a| a.message.as_str()).collect();
        Some(format!("assumes: {}", parts.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provenance() -> Provenance {
        let mut p = Provenance::of(Source::Layout, None);
        p.assume(Assumption::new(
            AssumptionKind::InferredCommand,
            "the command `ytt -f config`, inferred from the layout",
        ));
        p.assume(Assumption::new(
            AssumptionKind::Placeholder,
            "config/values.yml:3 `registry` holds the placeholder `<your-registry>`",
        ));
        p
    }

    /// Every kind the README's table of assumptions documents is one `assumes:` accepts, and
    /// none is listed twice (a kind added to the enum but not to `ALL` fails here once its row
    /// is written).
    #[test]
    fn every_documented_kind_is_one_assumes_accepts() {
        let readme = include_str!("../../README.md");
        let table = readme
            .split("| assumption (JSON `kind`) |")
            .nth(1)
            .expect("the README's table of assumptions");
        let ids: Vec<&str> = table
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .flat_map(|l| l.split('|').nth(1).unwrap_or("").split(','))
            .map(|id| id.trim().trim_matches('`'))
            .collect();
        assert!(ids.len() >= AssumptionKind::ALL.len(), "{ids:?}");
        for id in &ids {
            let kind = AssumptionKind::from_id(id);
            assert_eq!(kind.map(AssumptionKind::id), Some(*id), "{id}");
        }
        for kind in AssumptionKind::ALL {
            assert!(ids.contains(&kind.id()), "{} has no row", kind.id());
        }
        let mut sorted = AssumptionKind::ALL.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), AssumptionKind::ALL.len());
    }

    #[test]
    fn a_finding_rests_only_on_the_assumptions_of_its_basis() {
        let p = provenance();
        assert!(p.certainty(Basis::Text).certain());
        let command = p.certainty(Basis::Command);
        assert_eq!(command.assumed.len(), 1);
        assert_eq!(command.assumed[0].kind, AssumptionKind::InferredCommand);
        let inputs = p.certainty(Basis::Inputs);
        assert_eq!(inputs.assumed.len(), 2);
        assert_eq!(
            inputs.note().as_deref(),
            Some(
                "assumes: the command `ytt -f config`, inferred from the layout; \
                 config/values.yml:3 `registry` holds the placeholder `<your-registry>`"
            )
        );
    }

    #[test]
    fn a_command_with_nothing_assumed_is_certain() {
        let mut p = Provenance::of(Source::Script, Some("hack/build.sh:4".into()));
        assert!(p.certain());
        assert_eq!(
            p.source.describe(p.origin.as_deref()),
            "run by hack/build.sh:4"
        );
        p.assume(Assumption::new(AssumptionKind::RuntimeValues, "x"));
        p.assume(Assumption::new(AssumptionKind::RuntimeValues, "x"));
        assert_eq!(p.assumptions.len(), 1);
        assert!(p.certainty(Basis::Command).certain());
        assert!(!p.certainty(Basis::Inputs).certain());
    }
}
