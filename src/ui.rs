//! Drawing the workbook.
