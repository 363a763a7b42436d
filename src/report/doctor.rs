//! What `cpjudge doctor` prints, and the warning every judge prints when a layer it wanted is unavailable.

use super::Style;
use crate::sandbox::{Enforcement, Isolation, Layer, Layers, Probe};
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;

/// Everything `cpjudge doctor` found out.
#[derive(Debug, Serialize)]
pub struct DoctorReport {
    pub isolation: Isolation,
    /// Whether the isolation was probed now or kept from an earlier command, and when it was probed.
    pub probe: Probe,
    pub enforced: Vec<Enforcement>,
    pub toolchains: Vec<ToolchainStatus>,
}

/// Whether a language's compiler (or interpreter) was found: its path and version, or why not.
#[derive(Debug)]
pub struct ToolchainStatus {
    pub language: String,
    /// Its key in the language table.
    pub key: String,
    pub found: Result<(PathBuf, String), String>,
}

impl Serialize for ToolchainStatus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Json<'a> {
            language: &'a str,
            key: &'a str,
            path: Option<&'a PathBuf>,
            version: Option<&'a str>,
            error: Option<&'a str>,
        }
        let (path, version, error) = match &self.found {
            Ok((path, version)) => (Some(path), Some(version.as_str()), None),
            Err(e) => (None, None, Some(e.as_str())),
        };
        Json {
            language: &self.language,
            key: &self.key,
            path,
            version,
            error,
        }
        .serialize(serializer)
    }
}

pub fn write_doctor(doctor: &DoctorReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let width = style.width.max(60);
    let on = console::Style::new().green().bold();
    let off = console::Style::new().red().bold();
    writeln!(out, "isolation layers")?;
    // Text after the layer's name and mark starts in this column, and so do its continuation lines.
    const INDENT: &str = "                   ";
    let wrap = |text: &str| {
        textwrap::wrap(
            text,
            textwrap::Options::new(width).subsequent_indent(INDENT),
        )
        .into_iter()
        .map(|line| line.into_owned())
        .collect::<Vec<_>>()
    };
    for layer in Layer::ALL {
        let status = doctor.isolation.status(layer);
        let mark = if status.active {
            style.paint("on ", on.clone())
        } else {
            style.paint("off", off.clone())
        };
        // Wrapped as plain text with a placeholder of the mark's width, which colour codes would upset.
        let text = format!("  {:<11} {}  {}", layer.name(), "...", status.detail);
        for (i, line) in wrap(&text).iter().enumerate() {
            if i == 0 {
                writeln!(out, "{}{mark}{}", &line[..14], &line[17..])?;
            } else {
                writeln!(out, "{line}")?;
            }
        }
        for line in wrap(&format!("{INDENT}guards against: {}", layer.guards())) {
            writeln!(out, "{line}")?;
        }
    }
    // A path is not cut at its hyphens.
    let note = textwrap::Options::new(width)
        .initial_indent("  ")
        .subsequent_indent("  ")
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    for line in textwrap::wrap(&probe_note(&doctor.probe), note) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "\nlimits as enforced here")?;
    for rule in &doctor.enforced {
        let options = textwrap::Options::new(width - 2)
            .initial_indent("")
            .subsequent_indent("                   ");
        let text = format!("{:<18} {}", rule.what, rule.how);
        for line in textwrap::wrap(&text, options) {
            writeln!(out, "  {line}")?;
        }
    }
    // Available languages first; each with its key, which `--prefer` and `languages.toml` take.
    writeln!(out, "\nlanguages (name, key, version)")?;
    let name_width = doctor
        .toolchains
        .iter()
        .map(|t| t.language.len())
        .max()
        .unwrap_or(0);
    let key_width = doctor
        .toolchains
        .iter()
        .map(|t| t.key.len())
        .max()
        .unwrap_or(0);
    let (found, missing): (Vec<_>, Vec<_>) =
        doctor.toolchains.iter().partition(|t| t.found.is_ok());
    for tool in found.iter().chain(&missing) {
        let said = match &tool.found {
            Ok((path, version)) => format!("{version} ({})", path.display()),
            Err(e) => style.paint(e, off.clone()).to_string(),
        };
        writeln!(
            out,
            "  {:<name_width$} {:<key_width$} {said}",
            tool.language, tool.key
        )?;
    }
    let inactive = doctor.isolation.inactive();
    if !inactive.is_empty() {
        let names: Vec<&str> = inactive.iter().map(|l| l.name()).collect();
        writeln!(
            out,
            "\n{} off: {}; `judge --strict` refuses to run like this",
            crate::units::plural(inactive.len(), "layer"),
            names.join(", ")
        )?;
    }
    Ok(())
}

pub fn write_doctor_json(doctor: &DoctorReport, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, doctor)?;
    writeln!(out)
}

/// Whether the layers were probed now or kept from an earlier command, and how to probe them again.
fn probe_note(probe: &Probe) -> String {
    match (&probe.memo, probe.cached) {
        (Some(memo), true) => format!(
            "as probed at {}, kept in {}; `cpjudge doctor --probe` probes them again",
            probe.probed_at,
            memo.display()
        ),
        (Some(memo), false) => format!(
            "probed now (a first start takes longer), kept in {} for later commands",
            memo.display()
        ),
        (None, _) => "probed now".to_owned(),
    }
}

/// Warns on stderr, in two lines, about each of `layers`, asked for in `wanted` but off here: what is lost, how to
/// have the layer, and how to go without it on purpose. Running with weaker isolation is never silent, yet a
/// machine's lasting state is said once, not at every command; `cpjudge doctor` tells the whole story.
pub fn warn_unavailable(isolation: &Isolation, wanted: &Layers, layers: &[Layer]) {
    let unavailable = isolation.unavailable(wanted);
    let rest: Vec<Layer> = Layer::ALL
        .into_iter()
        .filter(|&l| wanted.contains(l) && !unavailable.contains(&l))
        .collect();
    let rest = Layers::from(rest.as_slice());
    for &layer in layers {
        let detail = &isolation.status(layer).detail;
        eprintln!(
            "warning: isolation layer {layer} is off ({}): {}\n  \
             to have it, {}; to go without it, --layers {rest} (or CPJUDGE_LAYERS); `cpjudge doctor` explains. \
             Said once per machine.",
            short_reason(detail),
            lost_without(layer, isolation),
            remedy(layer, detail),
        );
    }
}

/// The heart of why a layer is off: the system's error, without the paths and advice around it.
fn short_reason(detail: &str) -> &str {
    let reason = detail.strip_prefix("unavailable: ").unwrap_or(detail);
    let reason = reason.split(';').next().unwrap_or(reason);
    let reason = reason.rsplit(": ").next().unwrap_or(reason);
    match reason.find(" (os error") {
        Some(end) => &reason[..end],
        None => reason,
    }
}

/// What a run may do, or what goes unmeasured, without `layer`.
fn lost_without(layer: Layer, isolation: &Isolation) -> String {
    match layer {
        Layer::Cgroup => {
            let unlimited = isolation
                .enforcement()
                .iter()
                .any(|rule| rule.what == "processes" && rule.how.starts_with("NOT LIMITED"));
            format!(
                "memory and CPU time are not summed over all of a run's processes{}",
                if unlimited {
                    ", and nothing stops a fork bomb but the wall time"
                } else {
                    ""
                }
            )
        }
        Layer::Namespaces => {
            "a run may see and signal other processes, use the network, and outlive its time".into()
        }
        Layer::Landlock => {
            "a run may read the project (the answers too) and write outside its folder".into()
        }
        Layer::Seccomp => {
            "a run may use ptrace, mount, Unix sockets and other calls no solution needs".into()
        }
    }
}

/// How to have `layer` here, as far as its `detail` tells.
fn remedy(layer: Layer, detail: &str) -> &'static str {
    match layer {
        Layer::Cgroup if detail.contains("systemd-run") => {
            "run cpjudge under `systemd-run --user --scope -p Delegate=yes`"
        }
        Layer::Cgroup if detail.contains("cgroup v1") => {
            "an administrator must delegate a cgroup to this user"
        }
        _ => "see why in `cpjudge doctor`",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Detail;
    use crate::sandbox::LayerStatus;

    #[test]
    fn doctor_report() {
        let mut isolation = Isolation::off();
        isolation.namespaces = LayerStatus {
            active: true,
            detail: "user, PID with its own read-only /proc, network (none), mount".into(),
        };
        isolation.cgroup.detail =
            "unavailable: cannot create /sys/fs/cgroup/memory/cpjudge-1: Permission denied".into();
        let doctor = DoctorReport {
            isolation,
            probe: Probe {
                cached: false,
                probed_at: "2026-01-01T00:00:00Z".into(),
                memo: None,
            },
            enforced: vec![Enforcement {
                what: "processes",
                how: "at most 128 processes and threads per run (RLIMIT_NPROC, counted in the run's own user \
                      namespace)"
                    .into(),
            }],
            toolchains: vec![
                ToolchainStatus {
                    language: "C".into(),
                    key: "c".into(),
                    found: Ok(("/usr/bin/gcc".into(), "gcc 12.2.0".into())),
                },
                ToolchainStatus {
                    language: "Java".into(),
                    key: "java".into(),
                    found: Err("Java needs `javac`, which was not found on PATH".into()),
                },
            ],
        };
        let mut out = Vec::new();
        let style = Style {
            color: false,
            clip: true,
            width: 80,
            detail: Detail::Normal,
        };
        write_doctor(&doctor, style, &mut out).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }
}
