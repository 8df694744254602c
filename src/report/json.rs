//! JSON: the report structures as they are, each with its `schema_version`.

use super::ReportFormat;
use crate::judge::grading::GradeReport;
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use serde::Serialize;

fn pretty<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("reports serialize");
    s.push('\n');
    s
}

/// Pretty-printed JSON.
pub struct Json;

impl ReportFormat for Json {
    fn grade(&self, report: &GradeReport) -> String {
        pretty(report)
    }

    fn ci(&self, report: &CiReport) -> String {
        pretty(report)
    }

    fn validation(&self, report: &ValidationReport) -> String {
        pretty(report)
    }
}
