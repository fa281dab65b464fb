//! The rule table: every rule yttlint reports, as one [`Rule`] enum made by one table. Each
//! entry gives the stable kebab-case id (the SARIF `ruleId`, the JUnit case name, the
//! suppression key, the key under `rules:` in `.yttlint.yaml`), the default severity, the
//! descriptions reports show (one line, a paragraph, how to fix it) and, through its id, the
//! rule's page `docs/rules/ID.md`, compiled in.
//!
//! Adding a rule is one entry here and one page in `docs/rules/` (see docs/ARCHITECTURE.md).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::policy_name::PolicyName;
use super::severity::Severity;

/// Makes [`Rule`] and its metadata from one table:
/// `Variant = "id", Severity, "short", "full", "help";`.
macro_rules! rule_table {
    ($($variant:ident = $id:literal, $severity:ident, $short:literal, $full:literal, $help:literal;)*) => {
        /// A rule yttlint reports.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Rule {
            $(
                #[doc = $short]
                $variant,
            )*
            /// A policy of the repository (`policy/NAME`, see [`crate::policy`]).
            Policy(PolicyName),
        }

        impl Rule {
            /// Every rule, in the table's order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable kebab-case id.
            pub const fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                    Rule::Policy(p) => p.id(),
                }
            }

            /// The severity a finding of this rule has unless `rules:` says otherwise.
            pub const fn default_severity(self) -> Severity {
                match self {
                    $(Rule::$variant => Severity::$severity,)*
                    Rule::Policy(_) => Severity::Error,
                }
            }

            /// One line: what the rule finds.
            pub const fn summary(self) -> &'static str {
                match self {
                    $(Rule::$variant => $short,)*
                    Rule::Policy(_) => "Violation of a policy of the repository",
                }
            }

            /// A paragraph: what the rule checks and why.
            pub const fn description(self) -> &'static str {
                match self {
                    $(Rule::$variant => $full,)*
                    Rule::Policy(_) => "A policy of the repository (a `.star` file of a directory under `policies:` in .yttlint.yaml, written in ytt's Starlark) returned a violation for a rendered object; the finding sits at the template line of the field the violation names.",
                }
            }

            /// How to fix a finding.
            pub const fn fix(self) -> &'static str {
                match self {
                    $(Rule::$variant => $help,)*
                    Rule::Policy(_) => "Change the template so the object satisfies the policy, or change the policy (its file is policies-dir/NAME.star).",
                }
            }

            /// The rule's page, `docs/rules/ID.md`.
            pub const fn page(self) -> &'static str {
                match self {
                    $(Rule::$variant => include_str!(concat!("../../docs/rules/", $id, ".md")),)*
                    Rule::Policy(_) => include_str!("../../docs/rules/policy.md"),
                }
            }
        }
    };
}

rule_table! {
    YamlSyntax = "yaml-syntax", Error,
        "YAML syntax error",
        "The file is not valid YAML, so ytt cannot read it.",
        "Fix the YAML at the position shown.";
    UnknownComment = "unknown-comment", Error,
        "Comment ytt does not accept",
        "ytt rejects plain `#` comments in templates unless --ignore-unknown-comments is given; use `#!` for comments.",
        "Write the comment as `#! ...`, or pass --ignore-unknown-comments in the root's args.";
    UnknownAnnotation = "unknown-annotation", Warning,
        "Annotation ytt silently ignores",
        "An annotation name that no ytt feature reads (a typo such as @overlay/delete or @schema/example); ytt ignores it without a word.",
        "Check the annotation's spelling against the ytt documentation.";
    YamlBom = "yaml-bom", Warning,
        "Byte-order mark that ytt keeps as a character",
        "A YAML file holds a byte-order mark (U+FEFF), at its very start or further down. ytt does not skip it: it becomes part of the key, value or document it stands in (a key `name` written after a BOM is a different key, shown as `\"\\uFEFF\\x6E...\"`), and a `#@` line that starts with one is no longer code.",
        "Remove the byte-order mark (save the file as UTF-8 without BOM).";
    AnnotationTypo = "annotation-typo", Error,
        "Misspelt ytt annotation that changes the output",
        "An annotation in a namespace ytt owns (overlay/, data/, schema/, yaml/, template/, library/, text/, assert/) that ytt does not know, with one clear correction that changes the output (`@overlay/mach` for `@overlay/match`, `@data/value` for `@data/values`, `@overlay/replace,` with a stray comma; not the documenting `@schema/desc`, `@schema/title`, `@schema/examples`, `@schema/deprecated`). ytt drops it without a word, so the output is not what the template says.",
        "Write the annotation the message names.";
    OverlayMatchesNothing = "overlay-matches-nothing", Warning,
        "Overlay that matches no document",
        "An overlay document whose `expects=` or `missing_ok=` lets it match nothing, and which matched no document in any scenario of its root while a quoted word of its selector is a near miss of a kind or name of the documents it was applied to (a misspelt kind, a renamed object): ytt applies it without a word and the output is as if it were not there.",
        "Fix the selector (see the suggestion), or remove the overlay.";
    TemplateError = "template-error", Error,
        "Template compile or evaluation error",
        "Compiling the template to Starlark or evaluating it failed, as `ytt` would fail.",
        "Read the Starlark message and the trace; the primary position is the failing line.";
    LoadError = "load-error", Error,
        "load() failed",
        "A load() statement names a file or module that cannot be loaded.",
        "Check the path is relative to the loading file, inside the library, and that the symbol exists.";
    OverlayError = "overlay-error", Error,
        "Overlay failed",
        "An overlay did not match the documents or nodes it expected, or an overlay operation failed.",
        "Check the overlay's match conditions (by=, expects=) against the documents it applies to.";
    SchemaInvalid = "schema-invalid", Error,
        "Invalid data values schema",
        "A @data/values-schema document is not a valid schema.",
        "Fix the schema declaration at the position shown.";
    SchemaTypeMismatch = "schema-type-mismatch", Error,
        "Data value of the wrong type",
        "A data value given by an input does not have the type its schema declares.",
        "Give a value of the declared type, or change the schema.";
    DataValueUndeclared = "data-value-undeclared", Error,
        "Data value set without a declaration",
        "A data value is set that no schema or earlier values document declares, without the `+:` prefix (spec 004).",
        "Declare the value in the schema, or write the key as `+:` to add it on purpose.";
    DataValueDeprecated = "data-value-deprecated", Warning,
        "Deprecated data value set",
        "An input sets a data value the schema marks @schema/deprecated.",
        "Stop setting the value; see the deprecation notice.";
    DataValueRemoved = "data-value-removed", Warning,
        "Removed data value set",
        "An input sets a data value the schema marks @schema/removed: a warning (ytt ignores the annotation), an error that stops the evaluation with the schema-removed extension on.",
        "Stop setting the value; see the reason the schema gives.";
    RequiredValue = "required-value", Error,
        "Required data value not given",
        "A data value's schema default fails its validation and no input set it: the library needs this input.",
        "Give the value in a scenario of the root (values_files or data_values in .yttlint.yaml).";
    DataValueViolation = "data-value-violation", Error,
        "Data value fails its validation",
        "A data value fails a @schema/validation or @assert/validate rule.",
        "Give a value that satisfies the rule shown.";
    OutputViolation = "output-violation", Error,
        "Output document fails its validation",
        "A node of a rendered document fails an @assert/validate rule of its template (spec 000, increment 4).",
        "Change the inputs or the template so the rendered value satisfies the rule.";
    KubevirtAnnotationInvalid = "kubevirt-annotation-invalid", Error,
        "Malformed KubeVirt validations annotation",
        "A KubeVirt Template's validations annotation is not what the admission webhook accepts (spec 003).",
        "Fix the JSON of the annotation at the position shown.";
    K8sSchema = "k8s-schema", Error,
        "Kubernetes object the API server would reject",
        "A rendered Kubernetes object does not fit the schema of its kind, as kubectl's strict field validation reads it: a field the kind does not have (a typo such as `imag:`, or a key indented under the wrong parent), a value of the wrong type (`containerPort: \"8080\"`), a missing required field, a value outside its enum or format. ytt renders it without a word; the finding sits at the template line that produced the field. Built-in kinds are checked against the Kubernetes version configured (`kubernetes: {version: ...}`), custom resources against the CustomResourceDefinitions of the repository and of the rendered output; kinds without a schema are not checked.",
        "Fix the field at the template line (see the suggestion), or, for a custom resource whose CRD is newer than the one in the repository, update the CRD.";
    K8sApiRemoved = "k8s-api-removed", Error,
        "Kubernetes API version the target version no longer serves",
        "A rendered object's apiVersion is one the Kubernetes version configured (`kubernetes: {version: ...}`, `--kubernetes-version`) no longer serves, such as `extensions/v1beta1` Ingress (removed in 1.22) or `policy/v1beta1` PodSecurityPolicy (removed in 1.25): the API server rejects the object. The finding sits at the template line of `apiVersion:` and names the version to use. The table of removals is pluto's, plus the kinds each compiled-in version stops serving.",
        "Move the object to the apiVersion the message names (its fields may differ: the object is then checked against that version's schema), or configure the Kubernetes version the repository targets.";
    K8sApiDeprecated = "k8s-api-deprecated", Warning,
        "Kubernetes API version deprecated in the target version",
        "A rendered object's apiVersion is served by the Kubernetes version configured but deprecated there: a later version removes it (the message says which) and the object then fails to apply. The finding sits at the template line of `apiVersion:`.",
        "Move the object to the apiVersion the message names before upgrading the cluster.";
    K8sCrdIgnored = "k8s-crd-ignored", Warning,
        "CustomResourceDefinition yttlint cannot use",
        "A CustomResourceDefinition in the rendered output or the repository whose schema yttlint cannot use: its schema does not compile (a `pattern` that is not a valid regular expression, a malformed keyword), so objects of its kind are not checked and are listed as unchecked; or it claims a group Kubernetes owns (`apps`, `batch`, the core group, ...), whose kinds keep their built-in schemas (a note, info: a CRD cannot hide a built-in kind's errors).",
        "Fix the CRD's schema at the line shown, or, for a CRD of a Kubernetes group, remove it or give it its own group.";
    KubevirtRuleViolation = "kubevirt-rule-violation", Error,
        "VirtualMachine violates its template's rule",
        "A VirtualMachine created from a KubeVirt Template fails one of the template's validation rules; admission would reject it.",
        "Change the VirtualMachine so it satisfies the rule, or the rule.";
    UnknownModuleAttribute = "unknown-module-attribute", Error,
        "Member a @ytt: module does not have",
        "A template or Starlark file uses a member that its @ytt: module does not have (`assert.failed`, `data.value`). Found without evaluating, on every line, including branches no scenario takes; ytt fails only when the line runs.",
        "Use the member the message suggests.";
    LoadUnknownName = "load-unknown-name", Error,
        "load() of a name the file does not define",
        "A load() imports a name that the loaded file or @ytt: module does not define at its top level. Found without evaluating; ytt fails when a scenario evaluates the loading file.",
        "Load a name the file defines (see the suggestion), or define it there.";
    WrongArguments = "wrong-arguments", Error,
        "Call with arguments the function does not take",
        "A call to a function defined in the repository (or a @ytt: function that declares its parameters) gives too many positional arguments, a keyword the function does not have, or misses a required argument. Found without evaluating.",
        "Call the function with the parameters of its definition (the related location).";
    UnusedLoad = "unused-load", Warning,
        "load()ed name nothing uses",
        "A name a load() statement imports is never read in the file.",
        "Remove the name from the load() statement.";
    UnusedFunction = "unused-function", Warning,
        "Function nothing calls",
        "A top-level function that nothing can call: a private one (`_name`) its own file never uses, or a function of a template (templates cannot be loaded) that the template never uses.",
        "Remove the function, or call it where it was meant to be used.";
    UnreachableCode = "unreachable-code", Info,
        "Code after return or fail()",
        "Statements that follow a `return`, `fail()`, `break` or `continue` in the same block never run.",
        "Remove the code, or move it before the statement that ends the block.";
    BranchNeverEvaluated = "branch-never-evaluated", Info,
        "if branch that no scenario evaluates",
        "The scenarios of a root run an `if`, but its condition is never true (the code under it never runs) or never false (its `else` or `elif` never runs). Reported only when every scenario of the root evaluated without an error, and only for an `if` that ran; an `if` without `else` whose condition is always true is not reported.",
        "Add a scenario with data values that take the branch (scenarios in .yttlint.yaml), or remove the branch if it is dead.";
    BooleanString = "boolean-string", Error,
        "String that reads as false, tested as a condition",
        "A data value that a template tests as a condition (`if data.values.x:`, `not v.x`, `and`, `or`, `a if v.x else b`, `v.x == False`) is a string that spells false: `\"false\"`, `\"no\"`, `\"off\"`, `\"0\"` or `\"null\"`, in any case. Every non-empty string is true in Starlark, so the branch meant for false runs as if the value were true; ytt renders it without a word. Typical causes: a boolean written with quotes in a values file, and `-v key=false` (`--data-value` gives strings) where `--data-value-yaml` was meant. Checked with each scenario's final data values; the finding is where the value is set, with the condition as related location.",
        "Write the value without quotes (`enable: false`), or give it with `--data-value-yaml key=false`; declare it as a boolean in the schema so that ytt rejects a string.";
    NumberAsBoolean = "number-as-boolean", Warning,
        "Number where only true or false is read",
        "A data value that the library's code only ever tests as a condition (`if data.values.x:`, `not v.x`, `and`, `or`, `a if v.x else b`, `v.x == True`), and never uses otherwise (no output, no comparison, no call, no map above it used whole), is a number other than 0 and 1 in a scenario's final data values. Every number but 0 is true, so the value says nothing a boolean would not; a number there is usually a slip for `true` or `false`, or a value meant for another key. ytt renders it without a word.",
        "Write `true` or `false`; if the number was meant, use it (compare it, or put it in the output) so that its value matters.";
    DataValueUnknownReference = "data-value-unknown-reference", Error,
        "Reference to a data value the schema does not declare",
        "A template or Starlark file reads a data value (`data.values.a.b`, `data.values[\"a\"]`, or through a name bound to part of them) that the library's schema does not declare. Checked in every branch, without evaluating; ytt fails only when the line runs.",
        "Fix the key (see the suggestion), or declare the value in the schema (the related location).";
    DataValueUnused = "data-value-unused", Warning,
        "Schema value nothing reads",
        "A value the library's schema declares that no template or Starlark file of the library reads, directly or through a map used whole (passed to a function, encoded, iterated, handed to a library).",
        "Remove the value from the schema, or use it.";
    NeedsInput = "needs-input", Info,
        "Root that needs data values nobody gives it",
        "A root nobody declared (found by discovery, not run by the repository's own commands or listed in the configuration) fails only because a data value is not set: a required value, an `assert.fail` or `fail()` on an unset value, a value a library without a schema reads but does not define, or a null default. For a scenario with values given at run time, a failure with the placeholders the linter supplies. Not an error: the linter does not know the inputs.",
        "Add a scenario with the values to .yttlint.yaml (`yttlint init` writes one from what it found).";
    InputMissing = "input-missing", Warning,
        "Input of a ytt command that does not exist",
        "A `ytt` command the repository runs or documents (a script, a Makefile, a CI job, a README) names a `-f` file or directory that is not in the repository, and no command of the repository makes it (a redirection, `cp`, `mkdir`, `git clone`, a download, a tool's output): the file moved, was deleted or is misspelt, and ytt stops with \"no such file or directory\". Reported at the command. A page's own command whose reader's directory is certain (another input exists from there, the page is at the top, or the path exists from no directory) fails for certain: an error; elsewhere a warning: a step the linter does not see (an earlier CI step, another task's output, a copy made by hand) may make it, or the page's directory is assumed (`working-directory`). With `rules: {input-missing: error}`, an error where the command is known for certain.",
        "Fix the path in the command (the finding names a file of a similar name when there is one), or remove the command.";
    InputReadAsData = "input-read-as-data", Warning,
        "Input of a ytt command that ytt reads as data",
        "A `ytt` command the repository runs gives a process substitution without a name, `-f <(cat <<EOF … EOF)`: the shell hands ytt a path like /dev/fd/63, which has no YAML extension, so ytt reads it as a data file. Nothing of it is rendered or applied: its templates, overlays and data values are left out, silently. Reported at the command.",
        "Name the input so ytt reads it as YAML (`-f overlay.yml=<(…)`), or write the text to a `.yml` file and give that.";
    CommandFails = "command-fails", Error,
        "ytt command that fails as written",
        "A `ytt` command a page of the repository documents fails as a shell reads it, whatever its inputs: a line that ends in `\\` followed by a blank (`ytt -f config/ \\␠`) does not continue the command, the shell gives ytt the escaped blank as an extra argument and ytt stops (\"command 'ytt' does not accept extra arguments ' '\"); the lines after run as commands of their own. Reported at that line.",
        "Delete the blanks after the `\\`, so that the line continues the command.";
    VendirNotSynced = "vendir-not-synced", Info,
        "Directory that vendir has not synced",
        "A vendir.yml names a directory the repository does not hold; the roots that need it are not linted, instead of failing on the missing files.",
        "Run `vendir sync` in the directory of the vendir.yml, then lint again.";
    ScenariosCapped = "scenarios-capped", Info,
        "Root with more learned scenarios than the cap",
        "The repository's commands run one root with more distinct sets of data values and flags than `max_learned_scenarios` (default 64): only that many are linted, and the others are named here. The scenarios kept are chosen the same way every run: each file that runs the root gives its first command before any gives its second, so every script, Makefile and CI file is represented. A repository could otherwise make thousands of jobs of one root (20 scripts of 1 000 `ytt` lines are 20 000).",
        "List the scenarios that matter under the root in .yttlint.yaml (`yttlint init` writes the ones kept), or raise `max_learned_scenarios`.";
    ScriptUnread = "script-unread", Info,
        "Script, Makefile or CI file that discovery could not read",
        "A file that may hold the repository's `ytt` commands (a shell script, a Makefile, a CI file, a README) was not read when discovery looked for commands: permission denied, not UTF-8 or holding a NUL byte (said only when it mentions `ytt`), larger than 1 MiB, a symlink that leads outside the repository or nowhere, a named pipe or a device. The file is named with the reason, never its content, and discovery goes on with the other files; the roots its commands run are not learned from it (they may still be found from the layout, without its data values).",
        "Make the file a readable UTF-8 text file of the repository (or a link to one inside it), or list its roots and scenarios in .yttlint.yaml.";
    FileOutsideRepository = "file-outside-repository", Error,
        "File that resolves outside the repository",
        "A file the linter would read (a root, an input, a values file, a file for `--data-value-file`, a file inside a root that `load()` or `data.read()` could reach) is a symlink, or lies under one, that leads outside the repository. The repository is untrusted input: the file is not read, and the rest of the root is linted without it.",
        "Keep the file inside the repository (copy it instead of linking to it), or lint with the file's real location inside the repository.";
    SpecialFile = "special-file", Warning,
        "Named pipe, device or socket inside a root",
        "A root holds a file that is not a regular file (a FIFO, a device, a socket). Reading it could block forever or never end, so the linter skips it without opening it.",
        "Remove the special file from the repository, or exclude it.";
    DuplicateObject = "duplicate-object", Error,
        "Object rendered twice",
        "A root renders two objects with the same API group, kind, namespace and name. ytt writes both without a word. With different content, kapp refuses the output and kubectl applies the second over the first, so one of them is lost (an error); identical copies are a warning (kapp keeps one, kubectl create and kustomize refuse the second). Both template lines are shown.",
        "Render the object once: remove one of the documents, or give them different names (an overlay usually meant to replace one document adds a second when its selector misses).";
    DanglingSelector = "dangling-selector", Warning,
        "Selector that matches no pod template of the output",
        "A Service, NetworkPolicy or PodDisruptionBudget whose label selector matches the pod template of no workload the root renders (Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod and the like, in the same namespace), while the root does render workloads: usually a label renamed on one side only. Reported only when the root renders pod templates at all, since a root of Services alone selects pods rendered elsewhere.",
        "Make the selector match the pod template's labels (the related locations list the workloads' labels), or remove the object.";
    UnknownTargetPort = "unknown-target-port", Warning,
        "Service targetPort that names no container port",
        "A Service port's `targetPort` is a name, and no container of the pod templates the Service selects declares a port of that name: the Service has no endpoint port and its traffic goes nowhere.",
        "Use the name of a container port (`ports[].name`), or the port number.";
    PolicyError = "policy-error", Error,
        "Policy of the repository that fails",
        "A policy file of the repository (a `.star` file of a directory under `policies:` in .yttlint.yaml) cannot be loaded, has no `check(obj)` function, fails while it checks an object, exceeds a limit, or returns something that is not a list of violations. The objects it did not check are not reported.",
        "Fix the policy at the line shown.";
    DanglingService = "dangling-service", Warning,
        "kube-linter: Service without matching pods",
        "kube-linter's `dangling-service`: a Service (other than `type: ExternalName`) with no selector, or whose selector matches no pod template of the workloads rendered in its namespace. Off by default, with kube-linter's other checks (`policies: {checks: [kube-linter]}`).",
        "Make the Service's selector match the labels of a workload's pod template.";
    DeprecatedServiceAccountField = "deprecated-service-account-field", Warning,
        "kube-linter: deprecated serviceAccount field",
        "kube-linter's `deprecated-service-account-field`: a pod spec sets the deprecated `serviceAccount` field, without `serviceAccountName` or with a different value. Off by default (`policies: {checks: [kube-linter]}`).",
        "Use `serviceAccountName`; if `serviceAccount` must stay, give both the same value.";
    DockerSock = "docker-sock", Warning,
        "kube-linter: docker.sock mounted in a container",
        "kube-linter's `docker-sock`: a container mounts a hostPath volume whose path ends in `docker.sock`, which gives it control of the node's Docker daemon. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove the hostPath volume and its volume mount.";
    DropNetRawCapability = "drop-net-raw-capability", Warning,
        "kube-linter: container does not drop NET_RAW",
        "kube-linter's `drop-net-raw-capability`: a container's `securityContext.capabilities` does not drop `NET_RAW` (or `ALL`), or adds it back. Checked only for containers that set `capabilities`, as kube-linter does. Off by default (`policies: {checks: [kube-linter]}`).",
        "Add `NET_RAW` (or `ALL`) to `securityContext.capabilities.drop`.";
    DuplicateEnvVar = "duplicate-env-var", Warning,
        "kube-linter: environment variable set twice",
        "kube-linter's `duplicate-env-var`: a container's `env` names one variable twice; only the last value counts. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove one of the two entries.";
    EnvVarSecret = "env-var-secret", Warning,
        "kube-linter: secret in a plain environment variable",
        "kube-linter's `env-var-secret`: a container's environment variable whose name contains `secret` (in any case) has a literal `value`, so the secret is in the manifest. Off by default (`policies: {checks: [kube-linter]}`).",
        "Read the value from a Secret (`valueFrom.secretKeyRef`), or mount the Secret as a file.";
    HostIpc = "host-ipc", Warning,
        "kube-linter: pod shares the host's IPC namespace",
        "kube-linter's `host-ipc`: a pod spec sets `hostIPC: true`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove `hostIPC: true`.";
    HostNetwork = "host-network", Warning,
        "kube-linter: pod shares the host's network namespace",
        "kube-linter's `host-network`: a pod spec sets `hostNetwork: true`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove `hostNetwork: true`.";
    HostPid = "host-pid", Warning,
        "kube-linter: pod shares the host's process namespace",
        "kube-linter's `host-pid`: a pod spec sets `hostPID: true`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove `hostPID: true`.";
    InvalidTargetPorts = "invalid-target-ports", Warning,
        "kube-linter: port name or targetPort Kubernetes would refuse",
        "kube-linter's `invalid-target-ports`: a container port's `name`, or a Service's `targetPort`, is not a valid port name (an IANA service name: at most 15 lower-case letters, digits and `-`, with a letter, no `--`, no `-` at either end) or, as a number, outside 1-65535. Off by default (`policies: {checks: [kube-linter]}`).",
        "Rename the port so it fits the IANA service name rules, or use a number from 1 to 65535.";
    JobTtlSecondsAfterFinished = "job-ttl-seconds-after-finished", Warning,
        "kube-linter: Job without ttlSecondsAfterFinished",
        "kube-linter's `job-ttl-seconds-after-finished`: a standalone Job does not set `ttlSecondsAfterFinished` (it stays after it finished), or a CronJob's job template sets it (it then competes with the CronJob's history limits). Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `spec.ttlSecondsAfterFinished` on the Job; on a CronJob, remove it from the job template.";
    LatestTag = "latest-tag", Warning,
        "kube-linter: container image without a fixed tag",
        "kube-linter's `latest-tag`: a container's image has the tag `latest`, or no tag at all (which means `latest`). An image pinned by digest is fine. Off by default (`policies: {checks: [kube-linter]}`).",
        "Use an image with a specific tag or digest.";
    LivenessPort = "liveness-port", Warning,
        "kube-linter: liveness probe on a port the container does not expose",
        "kube-linter's `liveness-port`: a container's liveness probe (`httpGet`, `tcpSocket` or `grpc`) names a port, by number or name, that is not among the container's TCP `ports`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Probe a port the container declares, or declare the port.";
    MismatchingSelector = "mismatching-selector", Warning,
        "kube-linter: workload selector that does not match its pod template",
        "kube-linter's `mismatching-selector`: a workload's `spec.selector` is empty, or does not match the labels of its own pod template. Off by default (`policies: {checks: [kube-linter]}`); the API server rejects a Deployment whose selector does not match its template.",
        "Make `spec.selector` match `spec.template.metadata.labels`.";
    NoAntiAffinity = "no-anti-affinity", Warning,
        "kube-linter: replicas without pod anti-affinity",
        "kube-linter's `no-anti-affinity`: a workload with 2 or more replicas has no pod anti-affinity term on `kubernetes.io/hostname` that selects its own pods, so all replicas may land on one node. Off by default (`policies: {checks: [kube-linter]}`).",
        "Add `affinity.podAntiAffinity` with a term whose `labelSelector` matches the pod template's labels and whose `topologyKey` is `kubernetes.io/hostname`.";
    NoExtensionsV1beta = "no-extensions-v1beta", Warning,
        "kube-linter: object of extensions/v1beta*",
        "kube-linter's `no-extensions-v1beta`: an object uses an `extensions/v1beta*` API version, which Kubernetes stopped serving in 1.16 (1.22 for Ingress). Off by default (`policies: {checks: [kube-linter]}`).",
        "Use the current API version (`apps/v1`, `networking.k8s.io/v1`).";
    NoReadOnlyRootFs = "no-read-only-root-fs", Warning,
        "kube-linter: container with a writable root file system",
        "kube-linter's `no-read-only-root-fs`: a container does not set `securityContext.readOnlyRootFilesystem: true`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `securityContext.readOnlyRootFilesystem: true` (mount an emptyDir where the program writes).";
    NonExistentServiceAccount = "non-existent-service-account", Warning,
        "kube-linter: service account the output does not create",
        "kube-linter's `non-existent-service-account`: a pod spec names a service account (other than `default`) that no ServiceAccount of the root's output in the same namespace defines. Off by default (`policies: {checks: [kube-linter]}`).",
        "Render the ServiceAccount with the workload, or name an existing one.";
    PdbMaxUnavailable = "pdb-max-unavailable", Warning,
        "kube-linter: PodDisruptionBudget with maxUnavailable 0",
        "kube-linter's `pdb-max-unavailable`: a PodDisruptionBudget's `maxUnavailable` is 0 (or 0%), which blocks every voluntary disruption, node drains included. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `maxUnavailable` above 0.";
    PdbMinAvailable = "pdb-min-available", Warning,
        "kube-linter: PodDisruptionBudget that allows no disruption",
        "kube-linter's `pdb-min-available`: a PodDisruptionBudget's `minAvailable` is 100%, or is at least the replicas of a workload it selects in its namespace (the HorizontalPodAutoscaler's `minReplicas` for a workload of one replica), so no pod may ever be evicted. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `minAvailable` below the number of replicas, or use `maxUnavailable`.";
    PdbUnhealthyPodEvictionPolicy = "pdb-unhealthy-pod-eviction-policy", Warning,
        "kube-linter: PodDisruptionBudget without unhealthyPodEvictionPolicy",
        "kube-linter's `pdb-unhealthy-pod-eviction-policy`: a PodDisruptionBudget does not set `unhealthyPodEvictionPolicy`; by default pods that never became ready still count against it and can block node drains. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `spec.unhealthyPodEvictionPolicy: AlwaysAllow`.";
    PrivilegeEscalationContainer = "privilege-escalation-container", Warning,
        "kube-linter: container that allows privilege escalation",
        "kube-linter's `privilege-escalation-container`: a container sets `allowPrivilegeEscalation: true`, is privileged, or adds the `SYS_ADMIN` capability. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `allowPrivilegeEscalation: false` and `privileged: false`, and do not add `SYS_ADMIN`.";
    PrivilegedContainer = "privileged-container", Warning,
        "kube-linter: privileged container",
        "kube-linter's `privileged-container`: a container sets `securityContext.privileged: true`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove `privileged: true`, and add only the capabilities the container needs.";
    ReadinessPort = "readiness-port", Warning,
        "kube-linter: readiness probe on a port the container does not expose",
        "kube-linter's `readiness-port`: a container's readiness probe (`httpGet`, `tcpSocket` or `grpc`) names a port, by number or name, that is not among the container's TCP `ports`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Probe a port the container declares, or declare the port.";
    RunAsNonRoot = "run-as-non-root", Warning,
        "kube-linter: container that may run as root",
        "kube-linter's `run-as-non-root`: a container (with its pod's security context) neither sets `runAsNonRoot: true` nor a `runAsUser` above 0, sets `runAsNonRoot` with `runAsUser: 0`, or runs with `runAsGroup: 0`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `runAsNonRoot: true` and a non-zero `runAsUser` and `runAsGroup` in the pod's or the container's `securityContext`.";
    SensitiveHostMounts = "sensitive-host-mounts", Warning,
        "kube-linter: sensitive host directory mounted in a container",
        "kube-linter's `sensitive-host-mounts`: a container mounts a hostPath volume of `/`, `/boot`, `/dev`, `/etc`, `/lib`, `/proc`, `/sys` or `/usr`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove the hostPath volume and its volume mount.";
    SshPort = "ssh-port", Warning,
        "kube-linter: container exposes port 22",
        "kube-linter's `ssh-port`: a container declares TCP port 22, the port of SSH. Off by default (`policies: {checks: [kube-linter]}`).",
        "Do not run an SSH server in the container; if the port is not SSH, use another.";
    StartupPort = "startup-port", Warning,
        "kube-linter: startup probe on a port the container does not expose",
        "kube-linter's `startup-port`: a container's startup probe (`httpGet`, `tcpSocket` or `grpc`) names a port, by number or name, that is not among the container's TCP `ports`. Off by default (`policies: {checks: [kube-linter]}`).",
        "Probe a port the container declares, or declare the port.";
    UnsafeSysctls = "unsafe-sysctls", Warning,
        "kube-linter: unsafe sysctl",
        "kube-linter's `unsafe-sysctls`: a pod's `securityContext.sysctls` sets a sysctl under `kernel.msg`, `kernel.sem`, `kernel.shm`, `fs.mqueue.` or `net.`, which can affect other pods of the node. Off by default (`policies: {checks: [kube-linter]}`).",
        "Remove the sysctl, or run the workload on nodes meant for it.";
    UnsetCpuRequirements = "unset-cpu-requirements", Warning,
        "kube-linter: container without a CPU request",
        "kube-linter's `unset-cpu-requirements`: a container has no CPU request (or a request of 0), so the scheduler places it as if it needed nothing. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `resources.requests.cpu`.";
    UnsetMemoryRequirements = "unset-memory-requirements", Warning,
        "kube-linter: container without a memory limit",
        "kube-linter's `unset-memory-requirements`: a container has no memory limit (or a limit of 0), so it may use all the memory of its node. Off by default (`policies: {checks: [kube-linter]}`).",
        "Set `resources.limits.memory`.";
    NameNotUtf8 = "name-not-utf8", Warning,
        "File or directory name that is not UTF-8",
        "A name in the repository is not valid UTF-8. ytt reads such a file as part of its root, under its name as bytes; reports, suppression comments and fixes name files by UTF-8 paths, so the linter shows the name with U+FFFD in the place of each invalid byte and cannot discover roots or libraries inside it. The rest of the repository is linted.",
        "Rename the file or directory to a UTF-8 name (`convmv`, or `git mv`).";
    UnusedSuppression = "unused-suppression", Warning,
        "Suppression comment that suppresses nothing",
        "A `#! yttlint: disable=...` comment matched no finding.",
        "Remove the comment.";
    LimitExceeded = "limit-exceeded", Error,
        "Evaluation limit exceeded",
        "Evaluating the root exceeded a time, step, recursion or memory limit; its findings may be incomplete.",
        "Look for unbounded loops or recursion in the templates.";
    InternalError = "internal-error", Error,
        "Internal error",
        "yttlint itself failed on this root. The other roots were still linted.",
        "Please report this with the input that triggers it.";
}

impl Rule {
    /// The rules of static analysis: found in the code of every template and `.star` file
    /// without evaluating it, so ytt cannot see them.
    pub const STATIC: &'static [Rule] = &[
        Rule::UnknownModuleAttribute,
        Rule::LoadUnknownName,
        Rule::WrongArguments,
        Rule::UnusedLoad,
        Rule::UnreachableCode,
        Rule::UnusedFunction,
        Rule::DataValueUnknownReference,
        Rule::DataValueUnused,
    ];

    /// kube-linter's 31 checks that are on by default there, under kube-linter's names: here a
    /// category off by default (`policies: {checks: [kube-linter]}` in .yttlint.yaml, a level
    /// under `rules:` or `--select` turns them on). See [`crate::policy`].
    pub const KUBE_LINTER: &'static [Rule] = &[
        Rule::DanglingService,
        Rule::DeprecatedServiceAccountField,
        Rule::DockerSock,
        Rule::DropNetRawCapability,
        Rule::DuplicateEnvVar,
        Rule::EnvVarSecret,
        Rule::HostIpc,
        Rule::HostNetwork,
        Rule::HostPid,
        Rule::InvalidTargetPorts,
        Rule::JobTtlSecondsAfterFinished,
        Rule::LatestTag,
        Rule::LivenessPort,
        Rule::MismatchingSelector,
        Rule::NoAntiAffinity,
        Rule::NoExtensionsV1beta,
        Rule::NoReadOnlyRootFs,
        Rule::NonExistentServiceAccount,
        Rule::PdbMaxUnavailable,
        Rule::PdbMinAvailable,
        Rule::PdbUnhealthyPodEvictionPolicy,
        Rule::PrivilegeEscalationContainer,
        Rule::PrivilegedContainer,
        Rule::ReadinessPort,
        Rule::RunAsNonRoot,
        Rule::SensitiveHostMounts,
        Rule::SshPort,
        Rule::StartupPort,
        Rule::UnsafeSysctls,
        Rule::UnsetCpuRequirements,
        Rule::UnsetMemoryRequirements,
    ];

    /// The checks of the rendered objects of a root taken together that are on by default
    /// (see [`crate::policy`]).
    pub const CROSS_OBJECT: &'static [Rule] = &[
        Rule::DuplicateObject,
        Rule::DanglingSelector,
        Rule::UnknownTargetPort,
    ];

    /// The category of a rule that is off unless the configuration turns it on.
    pub fn off_by_default(self) -> Option<&'static str> {
        Rule::KUBE_LINTER.contains(&self).then_some("kube-linter")
    }

    /// Whether the rule is one of static analysis ([`Rule::STATIC`]).
    pub fn is_static(self) -> bool {
        Rule::STATIC.contains(&self)
    }

    /// Whether the rule's findings are about a file's text, the same whatever data values a
    /// scenario gives: static analysis, YAML syntax, annotations, suppressions. A plain
    /// comment is not: it fails only under a command without `--ignore-unknown-comments`.
    pub fn is_about_text(self) -> bool {
        self.is_static()
            || matches!(
                self,
                Rule::YamlSyntax
                    | Rule::YamlBom
                    | Rule::UnknownAnnotation
                    | Rule::UnusedSuppression
            )
    }

    /// The rule with this id.
    pub fn from_id(id: &str) -> Option<Rule> {
        if id.starts_with(super::policy_name::PREFIX) {
            return PolicyName::from_id(id).map(Rule::Policy);
        }
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Rules sort by id, so reports list findings in the same order whatever the table's order.
impl Ord for Rule {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id().cmp(other.id())
    }
}

impl PartialOrd for Rule {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rule, D::Error> {
        let id = String::deserialize(d)?;
        Rule::from_id(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown rule \"{id}\"")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for r in Rule::ALL {
            assert!(seen.insert(r.id()), "duplicate {}", r.id());
            assert!(r
                .id()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
            assert_eq!(Rule::from_id(r.id()), Some(*r));
        }
        assert_eq!(Rule::from_id("no-such-rule"), None);
        let team = Rule::from_id("policy/team").unwrap();
        assert_eq!(team.id(), "policy/team");
        assert!(!Rule::ALL.contains(&team));
        assert_eq!(Rule::from_id("policy/a b"), None);
        assert_eq!(Rule::KUBE_LINTER.len(), 31);
    }

    #[test]
    fn every_rule_has_a_page_that_names_it() {
        for r in Rule::ALL {
            assert!(r.page().contains(r.id()), "docs/rules/{}.md", r.id());
        }
    }

    #[test]
    fn rules_serialize_as_their_id() {
        let json = serde_json::to_string(&Rule::UnknownAnnotation).unwrap();
        assert_eq!(json, "\"unknown-annotation\"");
        let back: Rule = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Rule::UnknownAnnotation);
        assert!(serde_json::from_str::<Rule>("\"bogus\"").is_err());
    }
}
