//! The workbook's state and its pure `update`.
