//! After the jobs: findings that need every job of a root (`branch-never-evaluated`),
//! suppression comments, and the baseline.

pub mod baseline;
pub mod never_evaluated;
pub mod suppress;
