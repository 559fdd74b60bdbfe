//! `mcplings doctor --rules`: the rule table ([`crate::check::doctor::table`])
//! as text (80 columns, wrapped at word boundaries) or JSON. By check id,
//! in report order: each rule it cites with its level, revision, page ›
//! heading and sentence; then the rules any check may cite; then the
//! notable server-side rules doctor cannot observe, each with why.

use super::doctor::{WIDTH, put};
use crate::check::doctor::rules::Rule;
use crate::check::doctor::{Level, ids, table, unobservable};

/// How many rules the table holds: (checked, of them failing, cannot be
/// observed).
pub fn counts() -> (usize, usize, usize) {
    let fails = table::CHECKED.iter().filter(|r| r.rule.level == Level::Fail).count();
    (table::CHECKED.len(), fails, unobservable::UNOBSERVABLE.len())
}

/// One rule: `fail 2026-07-28 page › heading`, its quoted sentence below
/// (advice: `warn mcplings advice (topic)`, its advice unquoted).
fn rule(out: &mut String, rule: &Rule) {
    let level = match rule.level {
        Level::Fail => "fail",
        Level::Warn => "warn",
    };
    if rule.is_advice() {
        put(
            out,
            &format!("  {level} {} ({})", rule.revision, rule.section),
            "       ",
        );
        put(out, &format!("       {}", rule.sentence), "       ");
    } else {
        put(out, &format!("  {level} {} {}", rule.revision, rule.section), "       ");
        put(out, &format!("       \"{}\"", rule.sentence), "       ");
    }
}

/// The table as text, every line within [`WIDTH`] columns.
pub fn render() -> String {
    let mut out = String::new();
    let (checked, fails, unseen) = counts();
    put(
        &mut out,
        &format!(
            "doctor checks {checked} rules ({fails} fail, {} warn) with {} checks; {unseen} notable server rules it cannot observe follow them",
            checked - fails,
            ids::ALL.len()
        ),
        "  ",
    );
    for (id, group) in ids::ALL {
        out.push('\n');
        put(&mut out, &format!("{id} ({group})"), "  ");
        for row in table::rows_of(id) {
            rule(&mut out, row.rule);
        }
    }
    out.push('\n');
    put(
        &mut out,
        "any check (a crash or a hang; a frame that breaks the official types)",
        "  ",
    );
    for row in table::CHECKED.iter().filter(|r| r.any_check) {
        rule(&mut out, row.rule);
    }
    out.push('\n');
    put(
        &mut out,
        &format!("not observable from outside ({unseen}): rules doctor cannot check, and why"),
        "  ",
    );
    for u in unobservable::UNOBSERVABLE {
        put(&mut out, &format!("  {} {}", u.revision, u.section), "       ");
        put(&mut out, &format!("       \"{}\"", u.sentence), "       ");
        put(&mut out, &format!("       why: {}", u.why), "            ");
    }
    debug_assert!(out.lines().all(|l| unicode_width::UnicodeWidthStr::width(l) <= WIDTH));
    out
}

/// The table as JSON: `format_version`, `rules`, `unobservable`.
pub fn json() -> serde_json::Value {
    let mut value = table::to_json();
    value["format_version"] = serde_json::json!(1);
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_fits_80_columns_and_names_every_check_and_rule() {
        let text = render();
        for line in text.lines() {
            assert!(unicode_width::UnicodeWidthStr::width(line) <= WIDTH, "{line}");
        }
        for (id, _) in ids::ALL {
            assert!(text.lines().any(|l| l.starts_with(&format!("{id} ("))), "{id}");
        }
        // Every sentence is there, whole once its wrapping is undone.
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for row in table::CHECKED {
            assert!(joined.contains(row.rule.sentence), "{:?}", row.rule);
        }
        for u in unobservable::UNOBSERVABLE {
            assert!(joined.contains(u.sentence) && joined.contains(u.why), "{u:?}");
        }
        let json = json();
        assert_eq!(json["rules"].as_array().map(Vec::len), Some(table::CHECKED.len()));
        assert_eq!(
            json["unobservable"].as_array().map(Vec::len),
            Some(unobservable::UNOBSERVABLE.len())
        );
    }
}
