//! A run's verdict from what the kernel measured, before its output is looked at.

use super::last_words::last_words;
use crate::problem::ProblemLimits;
use crate::sandbox::{LimitKind, RunResult, Termination, signal_name};
use crate::units::format_time;
use crate::verdict::Verdict;

/// The verdict of a run that went wrong before its output matters (a limit, a crash), with a message;
/// `None` when it ended normally and its output is to be checked.
///
/// Limits come first, output before memory before time: a program killed for its output or its memory often
/// dies by a signal too, and the limit is the more useful thing to say.
pub fn classify(run: &RunResult, limits: &ProblemLimits) -> Option<(Verdict, String)> {
    let signal = match run.termination {
        Termination::Signaled(signal) => Some(signal),
        Termination::Exited(_) => None,
    };
    if run.stdout_bytes > limits.output.0 || signal == Some(libc::SIGXFSZ) {
        return Some((
            Verdict::OutputLimit,
            format!("output over the {} limit", limits.output),
        ));
    }
    if run.killed_for == Some(LimitKind::Disk) {
        return Some((
            Verdict::MemoryLimit,
            format!(
                "the files it wrote went over the {} limit (files count as memory)",
                limits.memory
            ),
        ));
    }
    if run.peak_memory > limits.memory || run.killed_for == Some(LimitKind::Memory) {
        return Some((
            Verdict::MemoryLimit,
            format!(
                "peak memory {} over the {} limit",
                run.peak_memory.measured(),
                limits.memory
            ),
        ));
    }
    if run.killed_for == Some(LimitKind::Wall) {
        return Some((
            Verdict::TimeLimit,
            format!(
                "killed after {} of wall time, having used {} of CPU (sleeping or waiting?)",
                format_time(run.wall),
                format_time(run.cpu)
            ),
        ));
    }
    if run.cpu > limits.time || run.killed_for == Some(LimitKind::Cpu) {
        return Some((
            Verdict::TimeLimit,
            format!(
                "CPU time {} over the {} limit",
                format_time(run.cpu),
                format_time(limits.time)
            ),
        ));
    }
    let how = match run.termination {
        Termination::Exited(0) => return None,
        Termination::Exited(code) => format!("exit code {code}"),
        Termination::Signaled(signal) => format!("killed by {}", signal_name(signal)),
    };
    let said = last_words(&run.stderr_text());
    let message = match said.split_first() {
        None => how,
        Some((first, rest)) => std::iter::once(format!("{how}: {}", first.trim_start()))
            .chain(rest.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    Some((Verdict::RuntimeError, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Bytes;
    use std::time::Duration;

    fn run(termination: Termination, cpu_ms: u64, memory_mib: u64, stdout: u64) -> RunResult {
        RunResult {
            termination,
            cpu: Duration::from_millis(cpu_ms),
            wall: Duration::from_millis(cpu_ms + 5),
            peak_memory: Bytes::mib(memory_mib),
            stdout_bytes: stdout,
            stderr: b"\n thread 'main' panicked at src/main.rs:3:5\nmore".to_vec(),
            stderr_bytes: 50,
            killed_for: None,
            kept_out: false,
        }
    }

    #[test]
    fn verdicts_from_runs() {
        let limits = ProblemLimits {
            time: Duration::from_secs(1),
            memory: Bytes::mib(256),
            output: Bytes::mib(64),
        };
        let ok = Termination::Exited(0);
        let killed = |kind| RunResult {
            killed_for: Some(kind),
            kept_out: false,
            ..run(Termination::Signaled(libc::SIGKILL), 10, 1, 0)
        };
        let cases: Vec<(RunResult, Option<Verdict>)> = vec![
            (run(ok, 100, 10, 10), None),
            (run(ok, 1001, 10, 10), Some(Verdict::TimeLimit)),
            (killed(LimitKind::Cpu), Some(Verdict::TimeLimit)),
            (killed(LimitKind::Wall), Some(Verdict::TimeLimit)),
            (killed(LimitKind::Memory), Some(Verdict::MemoryLimit)),
            (run(ok, 100, 300, 10), Some(Verdict::MemoryLimit)),
            (
                run(Termination::Signaled(libc::SIGKILL), 2000, 300, 10),
                Some(Verdict::MemoryLimit),
            ),
            (run(ok, 100, 10, 65 << 20), Some(Verdict::OutputLimit)),
            (
                run(Termination::Signaled(libc::SIGXFSZ), 100, 10, 10),
                Some(Verdict::OutputLimit),
            ),
            (
                run(Termination::Signaled(libc::SIGSEGV), 100, 10, 10),
                Some(Verdict::RuntimeError),
            ),
            (
                run(Termination::Exited(3), 100, 10, 10),
                Some(Verdict::RuntimeError),
            ),
        ];
        for (run, want) in cases {
            let got = classify(&run, &limits).map(|(v, _)| v);
            assert_eq!(got, want, "{run:?}");
        }
    }

    #[test]
    fn runtime_error_messages() {
        let limits = ProblemLimits {
            time: Duration::from_secs(1),
            memory: Bytes::mib(256),
            output: Bytes::mib(64),
        };
        let (_, message) = classify(&run(Termination::Exited(101), 1, 1, 1), &limits).unwrap();
        assert_eq!(
            message,
            "exit code 101: thread 'main' panicked at src/main.rs:3:5\nmore"
        );
        let (_, message) =
            classify(&run(Termination::Signaled(libc::SIGSEGV), 1, 1, 1), &limits).unwrap();
        assert!(message.starts_with("killed by SIGSEGV"), "{message}");
        let slow = run(Termination::Exited(0), 1016, 1, 1);
        let (_, message) = classify(&slow, &limits).unwrap();
        assert_eq!(message, "CPU time 1.02s over the 1s limit");
    }
}
