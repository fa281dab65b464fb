//! Build script: links the `yttlint` executable at a fixed address on Linux (`-no-pie`).
//!
//! A position-independent executable has its relative relocations (about 66 000, most of them
//! vtables and pointers to constant strings of the Starlark crate) applied by the dynamic
//! loader at every start: the loader reads a 1.6 MB relocation table and copies every page it
//! patches. That was a fifth of the CPU of a trivial `yttlint template` (pre-commit starts
//! yttlint on every commit). ytt's Go executables are not position-independent either; shared
//! libraries, the heap and the stacks are still placed at random addresses.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
