use super::*;
use crate::lint::discover::invocations::word::REPO;

fn script(path: &str, src: &str) -> Vec<Call> {
    let ctx = Context {
        script: Word::lit(format!("{REPO}/{path}")),
        line_offset: 0,
    };
    calls(src, &ctx, Env::at(Word::lit(REPO))).unwrap()
}

fn shown(c: &Call) -> String {
    let args: Vec<String> = c.args.iter().map(|a| a.to_string()).collect();
    let cwd = c.cwd.as_ref().map_or("?".to_string(), |w| w.to_string());
    format!("{}@{cwd}: {}", c.line, args.join(" "))
}

#[test]
fn continuations_pipes_and_variables() {
    let found = script(
        "hack/deploy.sh",
        r#"#!/bin/bash
set -e
VERSION=${VERSION:-1.2.3}
ytt -f config/config \
   -f config/values-schema.yml -v dev.version="$VERSION" | kbld -f- | kapp deploy -a kc -f- -y
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec!["4@.: -f config/config -f config/values-schema.yml -v dev.version=1.2.3"]
    );
}

#[test]
fn working_directory_from_the_script_location() {
    let found = script(
        "hack/build.sh",
        r#"DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$DIR/.." && ytt -f config >/dev/null
pushd "$(dirname "$0")/../pkg"
ytt -f . --ignore-unknown-comments
popd
ytt -f x
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec![
            "2@.: -f config",
            "4@pkg: -f . --ignore-unknown-comments",
            "6@.: -f x"
        ]
    );
}

#[test]
fn process_substitution_command_substitution_and_unknowns() {
    let found = script(
        "run.sh",
        r#"kapp deploy -a app -f <(ytt -f app -v image="$IMAGE")
out=$(ytt -f other --data-value-yaml n=$(date +%s))
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec![
            "1@.: -f app -v image=$IMAGE",
            "2@.: -f other --data-value-yaml n=$(date +%s)"
        ]
    );
    assert_eq!(
        found[0].args[3].unknowns().collect::<Vec<_>>(),
        vec!["$IMAGE"]
    );
}

#[test]
fn a_command_built_in_a_variable_under_a_file_test() {
    let found = script(
        "hack/check.sh",
        r#"PACKAGE=$1
CONFIG_DIR="addons/packages/${PACKAGE}/bundle/config"
yttCmd="ytt -f ."
if [ -d "addons/packages/${PACKAGE}/sample-values" ]; then
  yttCmd="${yttCmd} -f ../../sample-values/*.yaml"
fi
cd "${CONFIG_DIR}" || exit
${yttCmd} > /dev/null
"#,
    );
    assert_eq!(found.len(), 2, "{found:?}");
    let plain = found.iter().find(|c| c.args.len() == 2).unwrap();
    let with = found.iter().find(|c| c.args.len() == 4).unwrap();
    assert_eq!(plain.when.len(), 1);
    assert!(!plain.when[0].holds);
    assert!(with.when[0].holds);
    assert_eq!(with.args[3].to_string(), "../../sample-values/*.yaml");
    assert!(with.args[3].has_glob());
    assert_eq!(
        with.cwd.as_ref().unwrap().to_string(),
        "addons/packages/$1/bundle/config"
    );
}

#[test]
fn loops_and_functions_with_arguments() {
    let found = script(
        "render.sh",
        r#"render() {
  ytt -f "packages/$1/config" --data-values-file "values/$1.yml"
}
for p in nginx redis; do
  render "$p"
done
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec![
            "2@.: -f packages/nginx/config --data-values-file values/nginx.yml",
            "2@.: -f packages/redis/config --data-values-file values/redis.yml"
        ]
    );
}

#[test]
fn bash_c_strings_and_prefixes_are_followed() {
    let found = script(
        "ci.sh",
        "bash -c 'ytt -f a'\ntime ytt -f b\nYTT=./bin/ytt\n$YTT -f c\necho ytt -f d\necho now ytt -f e\n",
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    // `echo ytt -f d` prints a command for the user to run (see `printed`); a sentence that
    // names ytt does not.
    assert_eq!(
        lines,
        vec!["1@.: -f a", "2@.: -f b", "4@.: -f c", "5@.: -f d"]
    );
}

#[test]
fn garbage_and_deep_nesting_do_not_break_the_walk() {
    assert!(script("x.sh", "if then fi ((( $( ytt -f a").len() <= 1);
    let deep = format!("{}ytt -f a{}", "$(".repeat(5000), ")".repeat(5000));
    let _ = script("deep.sh", &deep);
}

#[test]
fn self_calling_functions_stop_within_the_budget() {
    let start = std::time::Instant::now();
    let found = script("bomb.sh", "f() { f; f; ytt -f a; }\nf\n");
    assert!(found.len() <= 1);
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn a_loop_resolving_the_script_symlink_does_not_blur_its_directory() {
    let found = script(
        "installer/scenarios/test.sh",
        r#"SOURCE="${BASH_SOURCE[0]}"
while [ -h "$SOURCE" ]; do
  DIR="$( cd -P "$( dirname "$SOURCE" )" && pwd )"
  SOURCE="$(readlink "$SOURCE")"
  [[ $SOURCE != /* ]] && SOURCE="$DIR/$SOURCE"
done
DIR="$( cd -P "$( dirname "$SOURCE" )" && pwd )"
ytt -f ${DIR}/../bundle/config
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(lines, vec!["8@.: -f installer/scenarios/../bundle/config"]);
}

#[test]
fn arguments_shift_and_bash_c_with_its_own_arguments() {
    let found = script(
        "ci/render.sh",
        r#"render() {
  name="$1"
  shift
  ytt "$@" --data-value "name=${name}"
}
render web -f apps/web -f "values/prod.yml"
ytt=${ytt:-ytt}
for variant in ${variants:-"release pr"}; do
  bash -c "${ytt} \"\$@\"" ytt --file lib --file ${variant}
done
set -- -f last
ytt "$*"
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec![
            "4@.: -f apps/web -f values/prod.yml --data-value name=web",
            "9@.: --file lib --file pr",
            "9@.: --file lib --file release",
            "12@.: -f last",
        ]
    );
}

#[test]
fn sourced_files_exported_functions_and_other_scripts() {
    use super::super::script_set::ScriptSet;
    let set = ScriptSet::new([
        (
            "lib/fns.bash".to_string(),
            "render() {\n  ytt \"$@\"\n}\n".to_string(),
        ),
        (
            "hack/one.sh".to_string(),
            "#!/bin/sh\nytt -f \"apps/$1\" --data-values-file \"$2\"\n".to_string(),
        ),
    ]);
    let ctx = Context {
        script: Word::lit(format!("{REPO}/bin/all.sh")),
        line_offset: 0,
    };
    let src = "cd \"$(dirname \"$0\")/..\"\n. lib/fns.bash\nrender -f a\n./hack/one.sh web v.yml\nbash hack/one.sh api w.yml\n";
    let f = follow(src, &ctx, Env::at(Word::lit(REPO)), &set, None).unwrap();
    let lines: Vec<String> = f.calls.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec![
            "3@.: -f a",
            "4@.: -f apps/web --data-values-file v.yml",
            "5@.: -f apps/api --data-values-file w.yml"
        ]
    );
    assert!(f.entered.contains(&Entered::Script("hack/one.sh".into())));
    assert!(f.entered.contains(&Entered::Function {
        file: "lib/fns.bash".into(),
        name: "render".into()
    }));
    // Not sourced here: a function only one script defines, exported by whoever runs this.
    let f = follow("render -f b\n", &ctx, Env::at(Word::lit(REPO)), &set, None).unwrap();
    assert_eq!(f.calls.len(), 1);
    assert!(!f.calls[0].uses_arguments());
    let alone = follow(
        &set.get("hack/one.sh").unwrap().text,
        &ctx,
        Env::at(Word::lit(REPO)),
        &set,
        None,
    )
    .unwrap();
    assert!(alone.calls[0].uses_arguments());
}

fn followed(path: &str, src: &str) -> Followed {
    let ctx = Context {
        script: Word::lit(format!("{REPO}/{path}")),
        line_offset: 0,
    };
    follow(
        src,
        &ctx,
        Env::at(Word::lit(REPO)),
        &ScriptSet::default(),
        None,
    )
    .unwrap()
}

#[test]
fn what_commands_write_and_read_on_standard_input() {
    let f = followed(
        "hack/render.sh",
        r#"mkdir -p out
helm template x > out/chart.yaml 2>/dev/null
cp values-example.yml values.yml
cat > extra.yml <<'END'
#@data/values
---
a: $NOT_EXPANDED
END
cat <<END | ytt -f config -f -
#@data/values
---
b: 1
END
./bin/decrypt secrets.yml | ytt -f config -f -
ytt -f config -f - < values.yml
git clone https://github.com/o/lib.git vendor/lib
ytt -f helm-values.yml | helm template x -f- > $DIR/chart.yaml
"#,
    );
    let made: Vec<String> = f
        .made
        .iter()
        .map(|m| format!("{}:{} {}", m.line, m.by, m.path))
        .collect();
    assert!(made.contains(&"1:mkdir out".to_string()), "{made:?}");
    assert!(
        made.contains(&"2:helm out/chart.yaml".to_string()),
        "{made:?}"
    );
    assert!(made.contains(&"3:cp values.yml".to_string()), "{made:?}");
    assert!(made.contains(&"4:cat extra.yml".to_string()), "{made:?}");
    assert!(made.contains(&"16:git vendor/lib".to_string()), "{made:?}");
    // A pipeline's redirection writes what its last command prints.
    assert!(made.iter().any(|m| m.starts_with("17:helm ")), "{made:?}");
    let copy = f.made.iter().find(|m| m.by == "cp").unwrap();
    assert_eq!(
        copy.from.as_ref().unwrap().to_string(),
        "values-example.yml"
    );
    let written = f.made.iter().find(|m| m.by == "cat").unwrap();
    let text = written.text.as_ref().unwrap();
    assert_eq!(text.text, "#@data/values\n---\na: $NOT_EXPANDED\n");
    assert!(!text.expanded, "a quoted delimiter expands nothing");
    let inputs: Vec<String> = f
        .calls
        .iter()
        .map(|c| match &c.stdin {
            Some(Stdin::Text(w)) => format!("{}: text {}", c.line, w.line),
            Some(Stdin::Command(p)) => format!("{}: {p}", c.line),
            Some(Stdin::File(w)) => format!("{}: file {w}", c.line),
            None => format!("{}: none", c.line),
        })
        .collect();
    assert_eq!(
        inputs,
        [
            "9: text 10",
            "14: ./bin/decrypt secrets.yml",
            "15: file values.yml",
            "17: none"
        ]
    );
}

#[test]
fn a_script_s_arguments_reach_the_defaults_of_a_file_it_sources() {
    let set = ScriptSet::new([
        (
            "scripts/deploy.sh".to_string(),
            "source \"$(dirname \"$0\")/env.sh\"\nytt -f config -f \"config/values-$ENV.yaml\"\n"
                .to_string(),
        ),
        ("scripts/env.sh".to_string(), "ENV=${1:-dev}\n".to_string()),
    ]);
    let ctx = Context {
        script: Word::lit(format!("{REPO}/README.md")),
        line_offset: 0,
    };
    let f = follow(
        "./scripts/deploy.sh prod\n./scripts/deploy.sh\n",
        &ctx,
        Env::at(Word::lit(REPO)),
        &set,
        None,
    )
    .unwrap();
    let lines: Vec<String> = f.calls.iter().map(shown).collect();
    assert_eq!(
        lines,
        [
            "1@.: -f config -f config/values-prod.yaml",
            "2@.: -f config -f config/values-dev.yaml"
        ]
    );
}

#[test]
fn a_script_s_own_arguments_pass_on_to_what_it_sources_and_calls_with_them() {
    let set = ScriptSet::new([
        (
            "scripts/deploy.sh".to_string(),
            ". \"$(dirname \"$0\")/env.sh\" \"$@\"\nytt -f config -f \"config/values-$ENV.yaml\"\n"
                .to_string(),
        ),
        ("scripts/env.sh".to_string(), "ENV=${1:-dev}\n".to_string()),
        (
            "scripts/render.sh".to_string(),
            "source scripts/vals.sh\nytt -f config -f \"$VALUES\"\n".to_string(),
        ),
        (
            "scripts/vals.sh".to_string(),
            "ENV=${ENV:-$1}\nVALUES=config/values-${ENV}.yaml\n".to_string(),
        ),
    ]);
    let at = |path: &str| Context {
        script: Word::lit(format!("{REPO}/{path}")),
        line_offset: 0,
    };
    let top = || Env::at(Word::lit(REPO));
    // A page gives the arguments: they reach `$1` of the sourced files, whose commands are
    // the scripts' own.
    let readme = at("README.md");
    let page = "./scripts/deploy.sh prod\n./scripts/render.sh staging\n";
    let f = follow(page, &readme, top(), &set, None).unwrap();
    let lines: Vec<String> = f.calls.iter().map(shown).collect();
    assert_eq!(
        lines,
        [
            "1@.: -f config -f config/values-prod.yaml",
            "2@.: -f config -f config/values-staging.yaml"
        ]
    );
    assert!(f.calls.iter().all(|c| c.scripted));
    // Run on its own, the script passes its unknown arguments on as they are: the sourced
    // file's default applies, as it would in the script's own text.
    let deploy = at("scripts/deploy.sh");
    let text = &set.get("scripts/deploy.sh").unwrap().text;
    let alone = follow(text, &deploy, top(), &set, None).unwrap();
    assert_eq!(
        alone.calls.iter().map(shown).collect::<Vec<_>>(),
        ["2@.: -f config -f config/values-dev.yaml"]
    );
    assert!(!alone.calls[0].scripted);
    // The same through a function the script calls with `"$@"`.
    let main = "main() {\n  ENV=${1:-dev}\n  ytt -f config -f \"config/values-$ENV.yaml\"\n}\nmain \"$@\"\n";
    let f = follow(main, &deploy, top(), &set, None).unwrap();
    assert_eq!(
        f.calls.iter().map(shown).collect::<Vec<_>>(),
        ["3@.: -f config -f config/values-dev.yaml"]
    );
    // With no default, `$1` stays unknown: the resolver binds it to each file it may name.
    let f = follow(
        &set.get("scripts/render.sh").unwrap().text,
        &at("scripts/render.sh"),
        top(),
        &set,
        None,
    )
    .unwrap();
    assert_eq!(f.calls[0].args[3].unknowns().collect::<Vec<_>>(), ["$1"]);
}

#[test]
fn nullglob_marks_the_loop_s_globs() {
    let found = script(
        "build.sh",
        r#"#!/bin/bash
for f in a/*.yml; do ytt -f "$f"; done
shopt -s nullglob
for f in b/*.yml; do ytt -f "$f"; done
shopt -u nullglob
for f in c/*.yml; do ytt -f "$f"; done
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(
        lines,
        vec![
            "2@.: -f a/$(for f in *.yml)",
            "4@.: -f b/$(nullglob for f in *.yml)",
            "6@.: -f c/$(for f in *.yml)"
        ]
    );
}

#[test]
fn a_cd_back_to_a_saved_pwd_in_a_branch() {
    let found = script(
        "install.sh",
        r#"#!/bin/bash
if [ "$offline" -eq 1 ]; then
  cwd=$(pwd)
  cd $archive_dir
  cd $cwd
fi
ytt -f instance.yaml
"#,
    );
    let lines: Vec<String> = found.iter().map(shown).collect();
    assert_eq!(lines, vec!["7@.: -f instance.yaml"]);
}

#[test]
fn a_bare_dash_before_a_here_document_is_standard_input_s_file() {
    let src = "ytt -f bundle -f - <<EOF\n#@data/values\n---\nname: other\nEOF\n";
    // The grammar leaves the `-` out of the tree: it is the here-document's file.
    let f = followed("test.sh", src);
    let args: Vec<String> = f.calls[0].args.iter().map(|a| a.to_string()).collect();
    assert_eq!(args, ["-f", "bundle", "-f", "-"]);
    assert!(matches!(f.calls[0].stdin, Some(Stdin::Text(_))));
    // Another word there is the grammar's.
    let f = followed("test.sh", &src.replace("-f - <<", "-f x.yml <<"));
    assert_eq!(f.calls[0].args.len(), 4);
}
