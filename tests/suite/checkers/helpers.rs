//! What every module of the checker tests shares: the exercises' ids,
//! building and checking a mutant, and the assertions on its report.

use mcplings::check::{CheckReport, Status};

use crate::common::{Patch, check_dir, check_dir_only, mutant, summary};

pub const ENCODE: &str = "01-encode-frames";
pub const ROUTER: &str = "02-id-router";
pub const GATE: &str = "03-handshake-gate";
pub const PROBE: &str = "04-era-probe";
pub const CODEC: &str = "05-stdio-codec";
pub const HTTP: &str = "06-http-front-door";
pub const TOOLS: &str = "07-tool-server";
pub const WALKER: &str = "08-pagination-walker";
pub const SUPERVISOR: &str = "09-progress-cancel";
pub const ASKING: &str = "10-input-required";
pub const CAPSTONE: &str = "11-capstone-server";
pub const AUTH: &str = "12-auth-gate";

/// Builds a mutant of `solutions/<exercise>` and checks it.
pub fn check_mutant(exercise: &str, package: &str, patches: &[Patch<'_>]) -> CheckReport {
    let dir = mutant(exercise, package, patches);
    check_dir(exercise, dir.path())
}

/// Builds a mutant of `solutions/<exercise>` and runs only the cases named
/// in `cases` (the ones it targets): a mutant test need not wait for the
/// rest. The report holds just those cases, in course order.
pub fn check_mutant_on(exercise: &str, package: &str, patches: &[Patch<'_>], cases: &[&str]) -> CheckReport {
    let dir = mutant(exercise, package, patches);
    check_dir_only(exercise, dir.path(), Some(cases))
}

/// The build succeeded, the check ran, and it did not pass.
pub fn assert_caught(report: &CheckReport) {
    assert!(report.error.is_none(), "the check could not run:\n{}", summary(report));
    assert!(report.build.ok, "the mutant should build:\n{}", summary(report));
    assert!(!report.passed, "the checker passed a mutant:\n{}", summary(report));
}

/// Case `name` exists, failed, and its reason contains every fragment.
pub fn assert_failed(report: &CheckReport, name: &str, fragments: &[&str]) {
    let case = report
        .cases
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case named `{name}`:\n{}", summary(report)));
    assert_eq!(
        case.status,
        Status::Failed,
        "case `{name}` should fail:\n{}",
        summary(report)
    );
    let reason = case.reason.as_deref().unwrap_or("");
    for fragment in fragments {
        assert!(
            reason.contains(fragment),
            "case `{name}`: the reason should contain {fragment:?} but is:\n  {reason}\n\n{}",
            summary(report)
        );
    }
}
