//! `cpjudge doctor`: which isolation layers work here, what is really enforced, and which toolchains are found.

use crate::cli::DoctorArgs;
use crate::error::{Error, Result};
use crate::language::TABLE;
use crate::report::{self, ColorChoice, Detail, DoctorReport, Style, ToolchainStatus};
use crate::sandbox::{Isolation, Layers, Sandbox};
use crate::toolchain::Toolchain;

pub fn doctor(layers: &Layers, color: ColorChoice, args: &DoctorArgs) -> Result<()> {
    let isolation = Isolation::probe(layers, Sandbox::from_current_exe()?.supervisor());
    let toolchain = Toolchain::default();
    let toolchains = TABLE
        .iter()
        .map(|spec| {
            let found = toolchain
                .resolve(spec.compile.tool, spec.language)
                .and_then(|path| Ok((path, toolchain.version(spec.language)?)));
            ToolchainStatus {
                language: spec.name,
                found: found.map_err(|e| e.to_string()),
            }
        })
        .collect();
    let doctor = DoctorReport {
        enforced: isolation.enforcement(),
        isolation,
        toolchains,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        report::write_doctor_json(&doctor, &mut out)
    } else {
        report::write_doctor(&doctor, Style::for_stdout(color, Detail::Normal), &mut out)
    }
    .map_err(|e| Error::io("write", "standard output", e))
}
