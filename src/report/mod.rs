//! Diagnostics and the reports that carry them: the model every stage produces (engine errors,
//! validation violations, KubeVirt rules) and one emitter per output format.

pub mod diagnostic;
pub mod engine;
pub mod fingerprint;
pub mod rules;
pub mod sources;

pub use diagnostic::{Diagnostic, Related, Report, RootOutcome, RootStatus, Severity, Span};
pub use sources::Sources;
