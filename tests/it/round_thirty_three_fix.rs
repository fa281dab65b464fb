//! The twenty-fifth session's fixes of rounds thirty-three and thirty-four, each on a minimal
//! repository written for the test: a documented `PROGRAM | ytt -f DIR -f-` command whose
//! program the linter cannot run is still a scenario, judged with its own flags on what its
//! named files show alone (R33-1); a `ytt` shell function that adds `-f-` to every call runs
//! ytt itself, so a script's calls of it are ytt commands (N34-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// Overlays and data values for a manifest another program prints, with a plain YAML comment
/// ytt refuses without `--ignore-unknown-comments` (line 6).
const OVERLAY: (&str, &str) = (
    "tweaks/overlay.yaml",
    "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n\
     #@overlay/match by=overlay.subset({\"kind\": \"Machine\"})\n---\nspec:\n  \
     # size comes from the values\n  #@overlay/match missing_ok=True\n  \
     size: #@ data.values.size\n",
);
const VALUES: (&str, &str) = ("tweaks/values.yaml", "#@data/values\n---\nsize: large\n");
const PAGE: (&str, &str) = (
    "docs/usage.md",
    "# Usage\n\nPrint the machine and adjust it:\n\n```\nmachinegen print --dry-run | ytt -f tweaks -f- > machine.yaml\n```\n",
);

#[test]
fn a_pipe_from_an_unknown_program_still_judges_the_named_files_with_the_command_s_flags() {
    let repo = Repo::of(&[OVERLAY, VALUES, PAGE]);
    repo.assert_lists("tweaks\trun by docs/usage.md:6");
    let lint = repo.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.in_file("unknown-comment", "tweaks/overlay.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert_eq!(d["severity"], "error", "{d:#}");
    assert_eq!(d["line"], 6, "{d:#}");
    assert_eq!(d["scenario"], "docs/usage.md:6", "{d:#}");

    // With the flag, what rests on the piped document (the overlay matches nothing without
    // it) is no error, and says what it lacks.
    let flagged = PAGE
        .1
        .replace("ytt -f tweaks", "ytt --ignore-unknown-comments -f tweaks");
    let lint = Repo::of(&[OVERLAY, VALUES, ("docs/usage.md", &flagged)]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    let matched = lint.of("overlay-error");
    assert_eq!(matched.len(), 1, "{lint}");
    assert_eq!(matched[0]["severity"], "info", "{lint}");
    let said = str_of(&matched[0]["certainty"]["assumptions"][0], "message");
    assert!(
        said.contains("`machinegen print --dry-run` prints"),
        "{said}"
    );
}

#[test]
fn the_error_is_the_flagless_command_s_only() {
    // A script renders the folder with the flag and a manifest of the repository; the page's
    // pipe renders it without the flag. ytt fails on the page's command only.
    let script = (
        "hack/render.sh",
        "#!/bin/sh\ncd \"$(dirname \"$0\")/..\"\nytt --ignore-unknown-comments -f tweaks -f base/machine.yaml\n",
    );
    let base = (
        "base/machine.yaml",
        "kind: Machine\nmetadata:\n  name: m\nspec:\n  size: small\n",
    );
    let lint = Repo::of(&[OVERLAY, VALUES, PAGE, script, base]).lint();
    let found = lint.in_file("unknown-comment", "tweaks/overlay.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(found[0]["scenario"], "docs/usage.md:6", "{lint}");
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn a_pipe_into_standard_input_alone_is_still_skipped() {
    // Nothing but what the program prints: no file of the repository to judge.
    let page = (
        "README.md",
        "# x\n\n```\nmachinegen print | ytt -f- > out.yaml\n```\n",
    );
    let repo = Repo::of(&[OVERLAY, VALUES, page]);
    repo.assert_lists("skipped: README.md:4: it renders templates from standard input");

    // Nor is a page's command for another project's checkout (an input outside this one):
    // rendering the reader's directory here would take the repository for that project.
    let page = (
        "guide/README.md",
        "# x\n\nIn the other project's checkout:\n\n```\nmachinegen print | \\\nytt -f ../upstream/v1/overlay.yaml -f ./ -f-\n```\n",
    );
    let repo = Repo::of(&[OVERLAY, VALUES, page]);
    repo.assert_lists("it renders templates from standard input");
    repo.assert_lists("tweaks\tchecked on its own");
}

/// A template rendered from standard input with the values a Makefile target gives.
const TEMPLATE: (&str, &str) = (
    "svc/template.yaml",
    "#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.service + \"-web\"\n",
);
const MAKEFILE: (&str, &str) = (
    "svc/Makefile",
    "render:\n\t@../tools/render service=:shop\n",
);

/// `tools/render`, whose `ytt` is `DEFINITION` (a function, or a file it sources).
fn render(definition: &str) -> String {
    format!(
        "#!/bin/bash\n{definition}\nvals=()\nfor a in \"$@\"; do vals+=(--data-value \"${{a/=:/=}}\"); done\nytt \"${{vals[@]}}\" < template.yaml\n"
    )
}

#[test]
fn a_ytt_function_that_adds_standard_input_runs_ytt() {
    let function = render("ytt() { command ytt -f- \"$@\"; }");
    let repo = Repo::of(&[TEMPLATE, MAKEFILE, ("tools/render", &function)]);
    repo.assert_lists("svc/template.yaml\trun by svc/Makefile:2");
    let lint = repo.lint();
    assert_eq!(lint.code, 0, "{lint}");
    let notes = lint.of("needs-input");
    assert_eq!(notes.len(), 1, "{lint}");
    let said = str_of(notes[0], "message");
    assert!(said.contains("given at run time"), "{said}");
    assert!(!said.contains("nothing sets here"), "{said}");
}

#[test]
fn a_sourced_ytt_function_with_a_container_fallback_runs_ytt() {
    let funcs = (
        "tools/funcs.sh",
        "ytt() {\n  if command -v ytt >/dev/null; then\n    command ytt -f- \"$@\"\n  else\n    \
         docker run --rm -i ghcr.io/carvel-dev/ytt -f- \"$@\"\n  fi\n}\n",
    );
    let script = render("source \"$(dirname \"$0\")/funcs.sh\"");
    let repo = Repo::of(&[TEMPLATE, MAKEFILE, funcs, ("tools/render", &script)]);
    repo.assert_lists("svc/template.yaml\trun by svc/Makefile:2");
    let lint = repo.lint();
    let notes = lint.of("needs-input");
    assert_eq!(notes.len(), 1, "{lint}");
    assert!(
        !str_of(notes[0], "message").contains("nothing sets here"),
        "{lint}"
    );
}
