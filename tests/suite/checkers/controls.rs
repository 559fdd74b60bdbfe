//! The controls every mutant relies on: each reference solution, copied
//! into a scratch crate without a patch, passes its checker (so a failing
//! mutant is the mutation's doing), one row per exercise; and the patch
//! guard refuses a patch that does not match exactly once. That each
//! shipped stub fails its checker is `mcplings verify`'s proof (tests/cli.rs
//! runs it).

use mcplings::check::Status;

use crate::common::{mutant, summary};
use crate::helpers::{
    ASKING, AUTH, CAPSTONE, CODEC, ENCODE, GATE, HTTP, PROBE, ROUTER, SUPERVISOR, TOOLS, WALKER, check_mutant,
};

/// Checks the unmutated copy of `exercise`'s solution (built as `package`):
/// it passes, through `--path`, with at least `cases` cases, every one
/// passed; with `no_reasons`, none carries a reason either.
fn solution_passes(exercise: &str, package: &str, cases: usize, no_reasons: bool) {
    let report = check_mutant(exercise, package, &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert_eq!(report.source, "path");
    assert!(report.cases.len() >= cases, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && (!no_reasons || c.reason.is_none())),
        "{}",
        summary(&report)
    );
}

/// One test per row: `name: EXERCISE, "package", at least this many
/// cases, whether no case may carry a reason;`.
macro_rules! solutions_pass {
    ($($name:ident: $exercise:expr, $package:literal, $cases:literal, $no_reasons:literal;)*) => {
        $(
            #[test]
            fn $name() {
                solution_passes($exercise, $package, $cases, $no_reasons);
            }
        )*
    };
}

solutions_pass! {
    unmutated_01_encode_frames_passes: ENCODE, "mutant-01-none", 11, true;
    unmutated_02_id_router_passes: ROUTER, "mutant-02-none", 9, false;
    unmutated_03_handshake_gate_passes: GATE, "mutant-03-none", 12, true;
    unmutated_04_era_probe_passes: PROBE, "mutant-04-none", 16, true;
    unmutated_05_stdio_codec_passes: CODEC, "mutant-05-none", 8, false;
    unmutated_06_http_front_door_passes: HTTP, "mutant-06-none", 17, false;
    unmutated_07_tool_server_passes: TOOLS, "mutant-07-none", 16, true;
    unmutated_08_pagination_walker_passes: WALKER, "mutant-08-none", 8, true;
    unmutated_09_progress_cancel_passes: SUPERVISOR, "mutant-09-none", 9, true;
    unmutated_10_input_required_passes: ASKING, "mutant-10-none", 8, true;
    unmutated_11_capstone_server_passes: CAPSTONE, "mutant-11-none", 20, true;
    unmutated_12_auth_gate_passes: AUTH, "mutant-12-none", 17, true;
}

#[test]
#[should_panic(expected = "must occur exactly once in src/lib.rs (from solutions/01-encode-frames), found 0 times")]
fn a_patch_that_matches_nothing_is_refused() {
    mutant(
        ENCODE,
        "mutant-01-guard-none",
        &[("src/lib.rs", "this text is not in the solution", "")],
    );
}

#[test]
#[should_panic(expected = "found 2 times")]
fn a_patch_that_matches_twice_is_refused() {
    mutant(
        ENCODE,
        "mutant-01-guard-twice",
        &[("src/lib.rs", "    Value::Object(frame).to_string()\n", "")],
    );
}

/// A mutant test that names a case the checker does not have gets an error,
/// not an empty report that passes nothing and fails nothing.
#[test]
fn running_an_unknown_case_is_an_error() {
    let report = crate::helpers::check_mutant_on(GATE, "control-03-unknown-case", &[], &["no such case"]);
    assert!(report.cases.is_empty(), "{}", summary(&report));
    let error = report.error.as_deref().unwrap_or("");
    assert!(error.contains("no case named `no such case`"), "{}", summary(&report));
}
