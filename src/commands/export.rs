//! `mayan-judge export`: writes a package in another judge's problem format
//! (see `export/`), then says what was written and what the format could not
//! carry.

use crate::cli::{ExportArgs, ExportFormat};
use crate::package::Problem;
use crate::workflows::export::{Cms, Dmoj, Hydro, Kattis, Lemon, PackageFormat, Polygon, export};
use anyhow::{Result, anyhow, bail};

/// Runs `export`; returns the exit code (0; errors exit with 2).
pub fn run(args: &ExportArgs) -> Result<i32> {
    // The package error names the file and the cause already.
    let problem = Problem::load(&args.package)
        .map_err(|e| anyhow!("loading the package {}: {e}", args.package.display()))?;
    let kattis_only = args.source.is_some() || args.license.is_some() || args.rights_owner.is_some();
    if kattis_only && args.format != ExportFormat::Kattis {
        bail!("--source, --license and --rights-owner are for --format kattis only");
    }
    if args.testlib.is_some() && args.format != ExportFormat::Dmoj {
        bail!("--testlib is for --format dmoj only (the other testlib formats' judges supply testlib.h)");
    }
    let format: Box<dyn PackageFormat> = match args.format {
        ExportFormat::Kattis => Box::new(Kattis {
            source: args.source.clone(),
            license: args.license,
            rights_owner: args.rights_owner.clone(),
        }),
        ExportFormat::Polygon => Box::new(Polygon),
        ExportFormat::Hydro => Box::new(Hydro),
        ExportFormat::Dmoj => Box::new(Dmoj {
            testlib: args.testlib.clone(),
        }),
        ExportFormat::Cms => Box::new(Cms),
        ExportFormat::Lemon => Box::new(Lemon),
    };
    let summary = export(&problem, format.as_ref(), &args.out, args.force)?;
    let submissions: Vec<String> = summary
        .submissions
        .iter()
        .map(|(folder, count)| format!("{count} {folder}"))
        .collect();
    println!(
        "wrote {} ({} format): {} sample and {} secret tests; reference programs: {}",
        args.out.display(),
        summary.format,
        summary.sample_tests,
        summary.secret_tests,
        if submissions.is_empty() {
            "none".to_string()
        } else {
            submissions.join(", ")
        }
    );
    for note in &summary.notes {
        eprintln!("note: {note}");
    }
    Ok(0)
}
