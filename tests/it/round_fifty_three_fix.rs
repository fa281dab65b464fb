//! Round fifty-three's false warnings and notes, each on a minimal repository written for the
//! test: a file that is an ERB template holding ytt annotations, rendered by a program with
//! ERB first (R53-1); a page's command that gives files as Markdown links, `-f
//! [NAME](URL)` (R53-2); a BOSH packaging script's `mv *`, which moves its compile folder and
//! no page of the repository, and a page's command dropped because a copy of it runs
//! elsewhere, said in the report (N53-2).

use crate::util::json::{assumption_kinds, assumption_text, str_of};
use crate::util::repo::Repo;

/// An ERB template holding ytt annotations: a `%` line of Ruby and an `<%= %>` tag.
const ERB_PIPELINE: &str = "#@ versions = [\"3.2\", \"3.3\"]\n% image = \"ruby\"\n---\njobs:\n#@ for v in versions:\n- name: #@ \"test-\" + v\n  image: <%= image %>\n#@ end\n";

#[test]
fn erb_markup_in_a_file_a_program_renders_is_erb_s_first() {
    let render = "require \"erb\"\nrequire \"tempfile\"\n\nTempfile.create([\"p\", \".yml\"]) do |f|\n  f.write ERB.new(File.read(\"ci/pipeline.yml\"), trim_mode: \"%-\").result(binding)\n  f.close\n  system(\"ytt -f #{f.path} > out.yml\") or abort(\"ytt failed\")\nend\n";
    let repo = Repo::of(&[
        ("ci/pipeline.yml", ERB_PIPELINE),
        ("lib/render.rb", render),
        (
            "Rakefile",
            "task :pipeline do\n  ruby \"lib/render.rb\"\nend\n",
        ),
    ]);
    let lint = repo.lint();
    let syntax = lint.in_file("yaml-syntax", "ci/pipeline.yml");
    assert_eq!(syntax.len(), 1, "{lint}");
    let d = syntax[0];
    assert_eq!(str_of(d, "severity"), "info", "{lint}");
    assert!(assumption_kinds(d).contains(&"other-template"), "{lint}");
    assert!(assumption_text(d).contains("ERB's markup"), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    assert!(
        !lint
            .diagnostics()
            .iter()
            .any(|d| d["severity"] == "warning"),
        "{lint}"
    );
}

#[test]
fn erb_markup_a_certain_command_reads_as_committed_stays_reported() {
    // ytt reads the committed file and fails on its `%` line: the error stands.
    let repo = Repo::of(&[
        ("ci/pipeline.yml", ERB_PIPELINE),
        ("render.sh", "#!/bin/sh\nset -e\nytt -f ci > out.yml\n"),
    ]);
    let lint = repo.lint();
    let syntax = lint.in_file("yaml-syntax", "ci/pipeline.yml");
    assert_eq!(syntax.len(), 1, "{lint}");
    assert_eq!(str_of(syntax[0], "severity"), "error", "{lint}");
    assert!(
        !assumption_kinds(syntax[0]).contains(&"other-template"),
        "{lint}"
    );
}

/// A workflow template that loads a file of another repository and reads its data values.
const WORKFLOW: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"helpers.star\", \"helpers\")\nname: test\non: [pull_request]\njobs:\n  #@ for t in data.values.tests:\n  #@yaml/text-templated-strings\n  (@= t.name @):\n    runs-on: ubuntu-latest\n    steps:\n    - run: #@ helpers.cmd(t)\n  #@ end\n";

/// A BOSH package's packaging script, as nearly every BOSH release has.
const PACKAGING: &str =
    "#!/bin/bash\nset -ex\nmkdir -p ${BOSH_INSTALL_TARGET}/src\nmv * ${BOSH_INSTALL_TARGET}/src\n";

#[test]
fn a_page_s_markdown_link_given_to_a_flag_is_a_downloaded_input() {
    let page = "# Regenerate the workflow\n\nytt -f ./wf.yml -f [helpers.star](https://github.com/example-org/shared-ci/blob/main/helpers.star) -f [values.yml](https://github.com/example-org/shared-ci/blob/main/app/values.yml) > ../workflows/test.yml\n";
    for packaging in [true, false] {
        let mut files = vec![
            (".github/tmpl/README.md", page),
            (".github/tmpl/wf.yml", WORKFLOW),
        ];
        if packaging {
            files.push(("packages/app/packaging", PACKAGING));
        }
        let repo = Repo::of(&files);
        // The page's command, from the page's folder, with the two linked files outside.
        let roots = repo.roots();
        assert!(roots.contains(".github/tmpl/README.md:3"), "{roots}");
        assert!(!roots.contains("skipped"), "{roots}");
        assert!(!roots.contains("inferred from the layout"), "{roots}");
        let lint = repo.lint();
        assert!(lint.of("load-error").is_empty(), "{lint}");
        assert!(lint.of("input-missing").is_empty(), "{lint}");
        let notes = lint.in_file("needs-input", ".github/tmpl/wf.yml");
        assert_eq!(notes.len(), 1, "{lint}");
        let message = str_of(notes[0], "message");
        assert!(message.contains("helpers.star"), "{lint}");
        assert!(
            message.contains("https://github.com/example-org/shared-ci/blob/main/helpers.star"),
            "{lint}"
        );
        assert!(
            !lint
                .diagnostics()
                .iter()
                .any(|d| d["severity"] == "warning" || d["severity"] == "error"),
            "{lint}"
        );
    }
}

#[test]
fn a_bosh_packaging_script_moves_no_page_of_the_repository() {
    let page = "# Regenerate the workflow\n\nytt -f ./wf.yml -f [helpers.star](https://github.com/example-org/shared-ci/blob/main/helpers.star) > ../workflows/test.yml\n";
    let repo = Repo::of(&[
        (".github/tmpl/README.md", page),
        (".github/tmpl/wf.yml", WORKFLOW),
        ("packages/app/packaging", PACKAGING),
        ("packages/app/spec", "---\nname: app\nfiles:\n- app/**/*\n"),
    ]);
    let roots = repo.roots();
    assert!(!roots.contains("copied elsewhere"), "{roots}");
    assert!(roots.contains(".github/tmpl/README.md:3"), "{roots}");
}

#[test]
fn a_page_s_command_excused_by_a_copy_elsewhere_leaves_a_note() {
    // The catalog's page names the files as they lie once copied into a cluster's folder.
    let repo = Repo::of(&[
        (
            "catalog/app/README.md",
            "# App\n\n```sh\nytt -f config/app.yml > app.rendered.yml\n```\n",
        ),
        ("catalog/app/app.yml", "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n"),
        (
            "install.sh",
            "#!/bin/bash\nset -e\nmkdir -p \"clusters/$1/config\"\ncp -R catalog/app/* \"clusters/$1/config/\"\n",
        ),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("copied elsewhere"), "{roots}");
    let lint = repo.lint();
    let notes = lint.in_file("needs-input", "catalog/app/README.md");
    assert_eq!(notes.len(), 1, "{lint}");
    let message = str_of(notes[0], "message");
    assert!(message.contains("is not linted"), "{lint}");
    assert!(message.contains("install.sh:4"), "{lint}");
    assert_eq!(notes[0]["line"], 4, "{lint}");
}

#[test]
fn a_page_s_command_whose_input_the_reader_downloads_leaves_a_note() {
    // `./wf.yml` is beside the page: the reader stands there, not in the folder above (where
    // it would have "moved" into the page's folder); `helpers.star` is the reader's download.
    let page = "# Regenerate the workflow\n\nDownload helpers.star from the shared CI repository into this folder first, then:\n\nytt -f ./wf.yml -f helpers.star > ../workflows/test.yml\n";
    let repo = Repo::of(&[
        (".github/tmpl/README.md", page),
        (".github/tmpl/wf.yml", WORKFLOW),
        ("packages/app/packaging", PACKAGING),
    ]);
    let roots = repo.roots();
    assert!(!roots.contains("copied elsewhere"), "{roots}");
    assert!(!roots.contains(".github/wf.yml"), "{roots}");
    let lint = repo.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    let notes = lint.in_file("needs-input", ".github/tmpl/README.md");
    assert_eq!(notes.len(), 1, "{lint}");
    assert_eq!(notes[0]["line"], 5, "{lint}");
    assert!(
        str_of(notes[0], "message").contains(".github/tmpl/helpers.star"),
        "{lint}"
    );
}
