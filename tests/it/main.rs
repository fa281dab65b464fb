//! yttlint's integration tests, built as one test binary (one link of the library instead of
//! one per file). Each module tests one area, most of them through the built binary; `util`
//! holds what they share: the runner, temporary directories, JSON report helpers and golden
//! files. Run one area with `cargo test --release --test it MODULE::`.

// The crate denies `unwrap`/`expect` (Cargo.toml); in tests, and in the helpers tests share,
// a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// The modules that need Unix (named pipes, signals, non-UTF-8 names, shell scripts, symbolic
// links made without privilege) are built on Unix alone; the others run on Windows too.

mod util;

#[cfg(unix)]
mod action_install;
mod boolean_strings;
mod bytes;
mod cache;
mod catalog;
mod certainty;
mod checkout;
#[cfg(unix)]
mod ci_integrations;
mod collection_keys;
mod command_outputs;
mod concourse_checkouts;
mod conventions;
mod copied_defaults;
mod coverage;
mod data_values_cli;
mod difftest;
mod embedded;
mod excused_commands;
mod fix_safety;
mod fixes;
mod fuzz_smoke;
#[cfg(unix)]
mod heredoc_strings;
mod hostile_files;
mod identical_reports;
mod index_words;
mod init_assumptions;
mod invocations;
mod isolation;
mod json_report_doc;
mod katacoda_assets;
mod kubernetes;
mod kubevirt_cases;
mod kubevirt_corpus;
mod kubevirt_ytt;
mod large_maps;
mod layers;
mod lazy_globals;
mod library_copies;
mod lint_cli;
mod lost_errors;
mod lsp;
mod make_comments;
mod moved_inputs;
mod nested_configs;
mod policy;
mod prepended;
mod rendering_script;
mod report_shape;
mod reports;
mod reserved_words;
mod round_eight;
mod round_eighteen_left;
mod round_eleven_a;
mod round_eleven_b;
mod round_eleven_commands;
mod round_eleven_left;
mod round_fifteen_a;
mod round_fifteen_commands;
mod round_fifteen_copies;
mod round_fifteen_k8st;
mod round_fifteen_lead;
mod round_fifteen_subfolder;
mod round_fifty_one_pkg28;
mod round_fifty_three_fix;
mod round_fifty_two_embed28;
mod round_forty_nine_lead;
mod round_forty_one_lead;
mod round_forty_seven_fix;
mod round_forty_seven_fix27a;
mod round_forty_seven_fix27b;
mod round_forty_seven_fix27c;
mod round_fourteen_commands;
mod round_fourteen_lead;
mod round_fourteen_loops;
mod round_fourteen_samples;
mod round_fourteen_sources;
mod round_nine;
mod round_nine_left;
mod round_nineteen_left;
mod round_nineteen_lost;
mod round_seventeen_catalog;
mod round_seventeen_moves;
mod round_seventeen_outdir;
mod round_sixteen_a;
mod round_sixteen_b;
mod round_sixteen_lead;
mod round_ten;
mod round_ten_b;
mod round_ten_left;
mod round_thirteen_commands;
mod round_thirteen_values;
mod round_thirteen_wrappers;
mod round_thirty_five_fix;
mod round_thirty_five_lead;
mod round_thirty_fix;
mod round_thirty_one_fix;
mod round_thirty_seven_fix;
mod round_thirty_seven_readme;
mod round_thirty_six_fix;
mod round_thirty_three_fix;
mod round_twelve_certainty;
mod round_twenty;
mod round_twenty_eight;
mod round_twenty_five;
mod round_twenty_five_lead;
mod round_twenty_five_lost;
mod round_twenty_four;
mod round_twenty_nine;
mod round_twenty_nine_fix;
mod round_twenty_one;
mod round_twenty_seven;
mod round_twenty_seven_fix;
mod round_twenty_six;
mod round_twenty_three;
mod rule_docs;
mod run_cache;
mod same_cause;
mod same_first_path;
mod same_name_inputs;
mod schemaless;
mod script_exports;
mod script_steps;
mod spec_fixtures;
mod star_calls;
mod starlark_go;
mod static_analysis;
mod stdin_overlays;
mod stdin_values;
mod stdlib_cli;
mod struct_lists;
mod template_cli;
mod tracked_ignored;
mod undefined_names;
mod unknown_independent;
#[cfg(unix)]
mod unplaced_findings;
mod untrusted;
mod validation_words;
mod vendir_library;
mod whitespace;
mod ytt_cli_cases;
mod ytt_mappings;
