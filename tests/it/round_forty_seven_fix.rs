//! Round forty-seven's N47-2 and round forty-six's N46-1, each on a minimal repository written
//! for the test. ytt run in a container of an image that carries it (`docker run … -v
//! "${PWD}":/src -w /src k14s/image ytt "$@"`, in a shell function or written out) is a ytt
//! command run in the host folder the container's working directory is mounted from, its
//! absolute paths under a mount the host's. A script that copies files into a folder it makes
//! and runs ytt there reads the copied repository files (the user's gitignored copy of a
//! committed example stood in by the example). A Makefile recipe written in a `define` block
//! and made by `$(eval $(call NAME,ARG))` is followed as the file's own.

use crate::util::repo::Repo;

/// A Service whose port a command gives (no default in the values).
const SERVICE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: #@ data.values.name\nspec:\n  ports:\n  - port: #@ data.values.port\n";
const VALUES: &str = "#@data/values\n---\nname: mailer\n";

#[test]
fn a_shell_function_running_ytt_in_a_container_is_a_ytt_command_in_the_mounted_folder() {
    let script = "#!/usr/bin/env bash\nset -euo pipefail\ncarvel() {\n  docker run --rm -i -v \"${PWD}\":/src:z -w /src k14s/image:v1.2.0 ytt \"$@\"\n}\ncarvel -f values.yml -f service.tmpl.yml --data-value-yaml port=8025 > service.yml\n";
    let repo = Repo::of(&[
        ("render.sh", script),
        ("values.yml", VALUES),
        ("service.tmpl.yml", SERVICE),
    ]);
    // The command is named at its line in the function.
    let roots = repo.roots();
    assert!(roots.contains("run by render.sh:4"), "{roots}");
    let lint = repo.lint();
    // The command gives the port: nothing is left to the reader.
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn a_container_run_written_out_reads_its_mounted_subfolder_and_absolute_paths() {
    // The port given as text where the schema wants an integer: an error of the command.
    let schema = "#@data/values-schema\n---\nname: mailer\nport: 25\n";
    let script = "#!/bin/sh\ndocker run --rm -v \"$PWD/deploy\":/work -w /work ghcr.io/carvel-dev/ytt:v0.49.0 \\\n  -f /work/schema.yml -f service.tmpl.yml --data-value port=smtp\n";
    let repo = Repo::of(&[
        ("render.sh", script),
        ("deploy/schema.yml", schema),
        ("deploy/service.tmpl.yml", SERVICE),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("render.sh:2"), "{roots}");
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    // The schema read through the mount's absolute path types the port: a certain error of
    // the command.
    let errors = lint.errors();
    assert_eq!(errors.len(), 1, "{lint}");
    assert_eq!(errors[0]["rule"], "schema-type-mismatch", "{lint}");
    assert_eq!(errors[0]["certainty"]["origin"], "render.sh:2", "{lint}");
}

#[test]
fn files_a_script_copies_into_its_output_folder_are_the_repository_s() {
    let example = "#@data/values\n---\nname: mailer\nport: 25\ndebug:\n  verbose: false\n";
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nport: #@ data.values.port + 1\n#@ if data.values.debug.verbose:\nverbose: true\n#@ end\n";
    let script = "#!/bin/bash\nOUT=\"${OUT:-build}\"\nmkdir -p \"${OUT}\"\ncp settings.yml app.tmpl.yml \"${OUT}\"/\ncd \"${OUT}\" && ytt -f settings.yml -f app.tmpl.yml > app.yml\n";
    let readme = "# mailer\n\n1. Copy `settings.yml.example` to `settings.yml` and edit it.\n2. Run `./build.sh`.\n";
    let repo = Repo::of(&[
        ("README.md", readme),
        (".gitignore", "settings.yml\nbuild/\n"),
        ("settings.yml.example", example),
        ("app.tmpl.yml", template),
        ("build.sh", script),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("build.sh:5"), "{roots}");
    assert!(!roots.contains("made at run time"), "{roots}");
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    // The user's copy is stood in by the committed example, and the report says so.
    assert!(lint.to_string().contains("settings.yml.example"), "{lint}");
}

#[test]
fn the_same_copy_run_through_a_container_mounting_the_folder() {
    let example = "#@data/values\n---\nname: mailer\nport: 25\n";
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nport: #@ data.values.port\n";
    let script = "#!/bin/bash\nOUT=\"${OUT:-build}\"\nmkdir -p \"${OUT}\"\nOUT=\"$( cd \"${OUT}\" && pwd )\"\nrender() {\n  docker run --rm -i -v \"${OUT}\":/workdir -w /workdir k14s/image ytt \"$@\"\n}\ncp settings.yml \"${OUT}\"/\ncp app.tmpl.yml \"${OUT}\"/\nrender -f settings.yml -f app.tmpl.yml > \"${OUT}\"/app.yml\n";
    let repo = Repo::of(&[
        (".gitignore", "settings.yml\nbuild/\n"),
        ("settings.yml.example", example),
        ("app.tmpl.yml", template),
        ("build.sh", script),
    ]);
    // Named at its line in the function, which the script calls after the copies.
    let roots = repo.roots();
    assert!(roots.contains("run by build.sh:6"), "{roots}");
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    let text = lint.to_string();
    assert!(text.contains("settings.yml.example"), "{lint}");
    assert!(
        text.contains("its function called after the copy"),
        "{lint}"
    );
}

#[test]
fn a_makefile_recipe_made_by_a_define_block_is_followed_with_its_values() {
    // The `prod` branch holds a bug only the recipe's value reaches.
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: #@ data.values.env\ndata:\n  #@ if data.values.env == \"prod\":\n  replicas: #@ data.values.replicas + \"1\"\n  #@ end\n";
    let values = "#@data/values\n---\nenv: dev\nreplicas: 1\n";
    let makefile = "YTT ?= ytt\nSTACKS := billing\nENV ?= prod\n\ndefine stack\n.PHONY: render-$(1)\nrender-$(1):\n\t$$(YTT) \\\n\t  --data-value env=$$(ENV) \\\n\t  -f stacks/$(1)/config > out/$(1).yml\nendef\n\n$(foreach S,$(STACKS),$(eval $(call stack,$(S))))\n";
    let repo = Repo::of(&[
        ("Makefile", makefile),
        ("stacks/billing/config/cm.yml", template),
        ("stacks/billing/config/values.yml", values),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("Makefile:8"), "{roots}");
    assert!(!roots.contains("inferred from the layout"), "{roots}");
    let lint = repo.lint();
    let errors = lint.errors();
    assert_eq!(errors.len(), 1, "{lint}");
    assert!(errors[0].to_string().contains("cm.yml"), "{lint}");
}
