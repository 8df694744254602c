//! JSON: the [`GradeReport`] as it is, with its `schema_version`.

use super::Exporter;
use crate::grading::GradeReport;

/// Pretty-printed JSON.
pub struct Json;

impl Exporter for Json {
    fn render(&self, report: &GradeReport) -> String {
        let mut s = serde_json::to_string_pretty(report).expect("reports serialize");
        s.push('\n');
        s
    }
}
