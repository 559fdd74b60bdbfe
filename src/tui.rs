//! The terminal app.

use crate::content::Course;

/// Opens the workbook.
pub fn run(_course: Course) -> Result<(), String> {
    Err("the workbook screen is not built yet".into())
}
