//! `cpjudge doctor`: which isolation layers work here, what is really enforced, and which toolchains are found.

use crate::cli::DoctorArgs;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::report::{self, ColorChoice, Detail, DoctorReport, Style, ToolchainStatus};
use crate::sandbox::{Layers, Sandbox, probe_once};
use crate::toolchain::Toolchain;
use std::io::Write;

pub fn doctor(layers: &Layers, color: ColorChoice, args: &DoctorArgs) -> Result<()> {
    let (isolation, probe) = probe_once(
        layers,
        Sandbox::from_current_exe()?.supervisor(),
        args.probe,
    );
    let toolchain = Toolchain::default();
    // Every language's tools, asked for their versions side by side: a JVM's takes most of a second.
    // A program run as it is needs no tools.
    let languages: Vec<Language> = Language::all().filter(|l| !l.is_prebuilt()).collect();
    let toolchains = std::thread::scope(|scope| {
        let asked: Vec<_> = languages
            .iter()
            .map(|&language| {
                let toolchain = &toolchain;
                scope.spawn(move || {
                    toolchain
                        .check(language)
                        .and_then(|()| {
                            let tool = language.spec().versioned_tool().unwrap_or_default();
                            Ok((
                                toolchain.resolve(tool, language)?,
                                toolchain.version(language)?,
                            ))
                        })
                        .map_err(|e| e.to_string())
                })
            })
            .collect();
        languages
            .iter()
            .zip(asked)
            .map(|(language, asked)| ToolchainStatus {
                language: language.name().to_owned(),
                key: language.spec().id.clone(),
                found: asked
                    .join()
                    .unwrap_or_else(|_| Err("the check failed".to_owned())),
            })
            .collect()
    });
    let doctor = DoctorReport {
        enforced: isolation.enforcement(),
        isolation,
        probe,
        toolchains,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        return report::write_doctor_json(&doctor, &mut out)
            .map_err(|e| Error::io("write", "standard output", e));
    }
    report::write_doctor(&doctor, Style::for_stdout(color, Detail::Normal), &mut out)
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("write", "standard output", e))
}
