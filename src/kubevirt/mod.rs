//! KubeVirt template validations (spec 003): checks the `validations` annotations of
//! OpenShift `Template`s and `vm.kubevirt.io/validations` of VirtualMachines, and evaluates the
//! rules on the VirtualMachines of the repository as KubeVirt's template validator does.

pub mod json;
pub mod jsonpath;
pub mod quantity;
pub mod schema;
pub mod value;
pub mod annotation;
pub mod check;
