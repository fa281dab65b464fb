//! Diagnostics and the reports that carry them: the model every stage produces (engine errors,
//! validation violations, KubeVirt rules) and one renderer per output format
//! ([`format::render`] picks one).

pub mod bounds;
pub mod cobertura;
pub mod coverage;
pub mod diagnostic;
pub mod fingerprint;
pub mod format;
pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod lcov;
pub mod location;
pub mod natural;
pub mod options;
pub mod policy_name;
pub mod provenance;
pub mod rule_basis;
pub mod rules;
pub mod sarif;
pub mod sarif_fix;
pub mod severity;
pub mod sources;
pub mod statistics;
pub mod step_summary;
pub mod terminal;
pub mod widen;
pub mod xml;

pub use diagnostic::{Diagnostic, Related, Report, RootOutcome, RootStatus, Span, Unchecked};
pub use format::{render, Format};
pub use options::RenderOptions;
pub use provenance::{Assumption, AssumptionKind, Basis, Certainty, Provenance, Source, Subject};
pub use rules::Rule;
pub use severity::Severity;
pub use sources::Sources;
