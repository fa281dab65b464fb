//! What each rule's findings rest on besides the text of their files ([`Basis`]): the one
//! table that decides which findings the certainty of their command and inputs bears on
//! (docs/ARCHITECTURE.md, "How sure a finding is"). The match names every rule, so a new rule
//! does not compile until its author says what it rests on; a finding may still say otherwise
//! ([`crate::report::Diagnostic::basis`]: a syntax error of a template is text, a Kubernetes
//! field a template writes literally too).

use super::provenance::Basis;
use super::rules::Rule;

impl Rule {
    /// What the rule's findings rest on besides the text of their files.
    pub fn basis(self) -> Basis {
        match self {
            // The text alone: the same whatever command gives the file and whatever values.
            Rule::YamlSyntax
            | Rule::YamlBom
            | Rule::UnknownAnnotation
            | Rule::AnnotationTypo
            | Rule::KubevirtAnnotationInvalid
            | Rule::UnknownModuleAttribute
            | Rule::LoadUnknownName
            | Rule::WrongArguments
            | Rule::UnusedLoad
            | Rule::UnusedFunction
            | Rule::UnreachableCode => Basis::Text,
            // Facts of the repository's tree and of the linter itself, not of a render: a
            // link or special file, a name, a CRD that cannot be used, a suppression comment,
            // what discovery could not read or run (these notes state the doubt themselves).
            Rule::FileOutsideRepository
            | Rule::SpecialFile
            | Rule::NameNotUtf8
            | Rule::K8sCrdIgnored
            | Rule::UnusedSuppression
            | Rule::NeedsInput
            | Rule::VendirNotSynced
            | Rule::ScenariosCapped
            | Rule::ScriptUnread
            | Rule::InternalError => Basis::Text,
            // A policy of the repository that fails as it runs: a fault of its own code.
            Rule::PolicyError => Basis::Text,
            // The command: which files it gives, in which order, with which flags. The
            // schema is the overlay of the schema documents the command gives (and those a
            // tool wrapping ytt adds), so a schema that does not overlay rests on them.
            Rule::LoadError
            | Rule::InputMissing
            | Rule::InputReadAsData
            | Rule::CommandFails
            | Rule::OverlayError
            | Rule::OverlayMatchesNothing
            | Rule::UnknownComment
            | Rule::SchemaInvalid => Basis::Command,
            // The library's own schema, taken as complete.
            Rule::DataValueUnknownReference | Rule::DataValueUnused => Basis::Schema,
            // The command and its data values: evaluation failures, validations, and every
            // check of what the root rendered (its objects exist, and hold what they hold,
            // because of the command and its values).
            Rule::TemplateError
            | Rule::SchemaTypeMismatch
            | Rule::DataValueUndeclared
            | Rule::DataValueDeprecated
            | Rule::DataValueRemoved
            | Rule::RequiredValue
            | Rule::DataValueViolation
            | Rule::OutputViolation
            | Rule::K8sSchema
            | Rule::K8sApiRemoved
            | Rule::K8sApiDeprecated
            | Rule::KubevirtRuleViolation
            | Rule::BooleanString
            | Rule::NumberAsBoolean
            | Rule::BranchNeverEvaluated
            | Rule::LimitExceeded
            | Rule::DuplicateObject
            | Rule::DanglingSelector
            | Rule::UnknownTargetPort
            | Rule::Policy(_) => Basis::Inputs,
            // kube-linter's checks of the rendered objects.
            Rule::DanglingService
            | Rule::DeprecatedServiceAccountField
            | Rule::DockerSock
            | Rule::DropNetRawCapability
            | Rule::DuplicateEnvVar
            | Rule::EnvVarSecret
            | Rule::HostIpc
            | Rule::HostNetwork
            | Rule::HostPid
            | Rule::InvalidTargetPorts
            | Rule::JobTtlSecondsAfterFinished
            | Rule::LatestTag
            | Rule::LivenessPort
            | Rule::MismatchingSelector
            | Rule::NoAntiAffinity
            | Rule::NoExtensionsV1beta
            | Rule::NoReadOnlyRootFs
            | Rule::NonExistentServiceAccount
            | Rule::PdbMaxUnavailable
            | Rule::PdbMinAvailable
            | Rule::PdbUnhealthyPodEvictionPolicy
            | Rule::PrivilegeEscalationContainer
            | Rule::PrivilegedContainer
            | Rule::ReadinessPort
            | Rule::RunAsNonRoot
            | Rule::SensitiveHostMounts
            | Rule::SshPort
            | Rule::StartupPort
            | Rule::UnsafeSysctls
            | Rule::UnsetCpuRequirements
            | Rule::UnsetMemoryRequirements => Basis::Inputs,
        }
    }
}

impl Rule {
    /// Whether the rule checks the rendered objects at the template line of the field it
    /// names: a finding at a line that writes its value literally rests on that text alone
    /// (see [`crate::lint::job::certainty`]), as a schema error of a literal field does.
    pub fn about_rendered_objects(self) -> bool {
        matches!(
            self,
            Rule::K8sSchema
                | Rule::K8sApiRemoved
                | Rule::K8sApiDeprecated
                | Rule::DuplicateObject
                | Rule::DanglingSelector
                | Rule::UnknownTargetPort
                | Rule::Policy(_)
        ) || Rule::KUBE_LINTER.contains(&self)
    }
}

impl Rule {
    /// Whether the rule relates an object to the others the root renders (a selector and the
    /// pods it should select, a Service and its pods' ports, a ServiceAccount a pod names):
    /// its finding rests on the whole output, whatever line writes the field it names.
    pub fn across_objects(self) -> bool {
        matches!(
            self,
            Rule::DanglingSelector
                | Rule::UnknownTargetPort
                | Rule::DanglingService
                | Rule::NonExistentServiceAccount
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules whose findings hold whatever the command and its values, each for a reason
    /// a reader can check. A rule added as text must be added here too, on purpose.
    const TEXT: &[(Rule, &str)] = &[
        (Rule::YamlSyntax, "the file is not YAML"),
        (Rule::YamlBom, "a byte order mark"),
        (Rule::UnknownAnnotation, "an annotation's name"),
        (Rule::AnnotationTypo, "an annotation's name"),
        (Rule::KubevirtAnnotationInvalid, "an annotation's text"),
        (Rule::UnknownModuleAttribute, "static analysis"),
        (Rule::LoadUnknownName, "static analysis"),
        (Rule::WrongArguments, "static analysis"),
        (Rule::UnusedLoad, "static analysis"),
        (Rule::UnusedFunction, "static analysis"),
        (Rule::UnreachableCode, "static analysis"),
        (Rule::FileOutsideRepository, "a link of the tree"),
        (Rule::SpecialFile, "a file of the tree"),
        (Rule::NameNotUtf8, "a name of the tree"),
        (Rule::K8sCrdIgnored, "a CRD's own text"),
        (Rule::UnusedSuppression, "a comment, judged over every root"),
        (Rule::NeedsInput, "itself the note of an unknown input"),
        (Rule::VendirNotSynced, "a note of what is not fetched"),
        (Rule::ScenariosCapped, "a note of discovery"),
        (Rule::ScriptUnread, "a note of discovery"),
        (Rule::InternalError, "the linter's own failure"),
        (Rule::PolicyError, "a fault of the policy's own code"),
    ];

    #[test]
    fn only_the_rules_listed_as_text_rest_on_text_alone() {
        for r in Rule::ALL {
            let listed = TEXT.iter().any(|(t, _)| t == r);
            assert_eq!(
                r.basis() == Basis::Text,
                listed,
                "{}: its basis is {:?}; a rule about text alone is listed in TEXT with why",
                r.id(),
                r.basis()
            );
        }
        assert_eq!(
            Rule::from_id("policy/team").map(Rule::basis),
            Some(Basis::Inputs)
        );
    }
}
