//! The kinds of run the judge makes, each built in one place with its limits: a compile, a solution on a test, a
//! checker, and the problem's other tools (validator, generator).
//!
//! The problem's own programs are written by its authors as solutions are, and may recurse as deep (a validator
//! matching a long line with std::regex recurses once per character): each gets at least the memory and the stack
//! a solution gets, through [`tool_limits`].

use crate::compile::Program;
use crate::problem::{ProblemLimits, Test};
use crate::sandbox::{Limits, RunSpec, Trust, small_env};
use crate::units::Bytes;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

/// How long and how large a compile may get: enough for any honest source (a large initialised array makes an
/// object file as large), and a bound for compile-time bombs.
pub const COMPILE_LIMITS: Limits = Limits {
    cpu: Duration::from_secs(30),
    wall: Duration::from_secs(60),
    memory: Bytes::mib(2048),
    output: Bytes::mib(1024),
    // What it leaves is kept in the cache.
    disk: Bytes::mib(1024),
    // Linkers start a thread per core, each with a stack of this size.
    stack: Bytes::mib(64),
    cap_address_space: true,
};

/// A checker's limits: generous, since it is trusted to be correct, yet bounded, since it may have bugs. The
/// least: a problem whose solutions get more memory gives its checker as much (see [`tool_limits`]).
pub const CHECKER_LIMITS: Limits = Limits {
    cpu: Duration::from_secs(10),
    wall: Duration::from_secs(20),
    memory: Bytes::mib(1024),
    output: Bytes::mib(16),
    disk: Bytes::mib(64),
    stack: stack_for(Bytes::mib(1024)),
    cap_address_space: true,
};

/// Limits for the problem's other tools (validator, generator): trusted, but bounded all the same. The least, as
/// [`CHECKER_LIMITS`].
pub const TOOL_LIMITS: Limits = Limits {
    cpu: Duration::from_secs(10),
    wall: Duration::from_secs(20),
    memory: Bytes::mib(1024),
    output: Bytes::mib(256),
    disk: Bytes::mib(512),
    stack: stack_for(Bytes::mib(1024)),
    cap_address_space: true,
};

/// The stack of a program whose memory limit is `memory`: it may grow almost as far as memory allows, so that deep
/// recursion that fits in memory runs; it stops an eighth short, so that endless recursion ends as the stack
/// overflow it is (RE) before the memory it takes is measured as MLE.
pub const fn stack_for(memory: Bytes) -> Bytes {
    Bytes(memory.0 - memory.0 / 8)
}

/// The limits of one of the problem's own programs (checker, output validator, interactor, input validator,
/// generator), from `base`, for a problem whose solutions run under `problem`: at least a solution's memory, and the
/// stack that memory allows, so never less stack than a solution. problemtools gives these programs an unlimited
/// stack; a bound that follows memory keeps a runaway recursion from taking the machine.
pub fn tool_limits(base: Limits, problem: &ProblemLimits) -> Limits {
    let memory = base.memory.max(problem.memory);
    Limits {
        memory,
        stack: stack_for(memory),
        ..base
    }
}

/// A compiler building a source in `dir`, its output going to `log`. Sources are untrusted: a compiler reads
/// files too (`include_str!`, `#include`), so it runs as a solution would, reading only its own build folder and
/// the folders of `tools` (what a build script may start from PATH).
pub fn compile(
    argv: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    dir: &Path,
    tools: Vec<std::path::PathBuf>,
    log: &Path,
    cap_address_space: bool,
) -> RunSpec {
    RunSpec {
        argv,
        env,
        workdir: dir.to_owned(),
        stdin: None,
        stdout: log.to_owned(),
        limits: Limits {
            cap_address_space,
            ..COMPILE_LIMITS
        },
        trust: Trust::Solution {
            readable: std::iter::once(dir.to_owned()).chain(tools).collect(),
        },
        scratch: None,
    }
}

/// A solution on one test, working in `workdir`, reading only its own build (or the files a program run as it is
/// names), under `limits` but for its CPU time,
/// `cpu`: the time limit, or more for a run that goes on to a TLE margin.
pub fn solution(
    program: &Program,
    limits: &ProblemLimits,
    cpu: Duration,
    workdir: &Path,
    input: &Path,
    output: &Path,
) -> RunSpec {
    RunSpec {
        argv: program.argv.clone(),
        env: small_env(workdir),
        workdir: workdir.to_owned(),
        stdin: Some(input.to_owned()),
        stdout: output.to_owned(),
        limits: Limits {
            cpu,
            // Long enough that a slow start never costs a verdict, short enough that a sleeper is caught soon. It
            // follows the CPU time the run may use, the TLE margin included: a run that goes on to the margin to
            // be told apart must not be cut short by a busy machine.
            wall: cpu * 2 + Duration::from_secs(1),
            memory: limits.memory,
            output: limits.output,
            // Files it writes count as memory, as its scratch space in memory makes them where it can.
            disk: limits.memory,
            stack: stack_for(limits.memory),
            cap_address_space: program.cap_address_space,
        },
        trust: Trust::Solution {
            readable: program.readable.clone(),
        },
        // Files it writes count as memory: never more than the memory limit in all.
        scratch: Some(limits.memory),
    }
}

/// The checker on one output: `checker <input> <output> <answer>`, working in `workdir`, under `limits` (the
/// problem's [`tool_limits`]).
pub fn checker(
    program: &Program,
    limits: &Limits,
    workdir: &Path,
    input: &Path,
    output: &Path,
    answer: &Path,
) -> RunSpec {
    let mut spec = tool(program, workdir, None, limits.clone());
    spec.argv
        .extend([input, output, answer].map(|p| p.as_os_str().to_owned()));
    spec
}

/// A package's output validator on one output: `validator <input> <answer> <feedback_dir> [flags] < output`,
/// under `limits` (the problem's [`tool_limits`]).
#[allow(clippy::too_many_arguments)]
pub fn output_validator(
    program: &Program,
    limits: &Limits,
    workdir: &Path,
    input: &Path,
    output: &Path,
    answer: &Path,
    feedback: &Path,
    flags: &[String],
) -> RunSpec {
    let mut spec = tool(program, workdir, Some(output), limits.clone());
    spec.argv
        .extend([input, answer].map(|p| p.as_os_str().to_owned()));
    spec.argv.push(feedback_argument(feedback));
    spec.argv.extend(flags.iter().map(OsString::from));
    spec
}

/// A package's static validator on a submission's files: `validator <language> <entry_point> <feedback_dir> [args]`,
/// working in `workdir`, which holds a copy of the files and the feedback folder, under `limits` (the problem's
/// [`tool_limits`], with room on disk for the copy). Its standard output goes to `stdout`, outside `workdir`: the
/// folder holds the submission's files, whatever their names, and nothing of the judge's but the feedback folder.
#[allow(clippy::too_many_arguments)]
pub fn static_validator(
    program: &Program,
    limits: &Limits,
    workdir: &Path,
    stdout: &Path,
    language: &str,
    entry_point: &str,
    feedback: &Path,
    args: &[String],
) -> RunSpec {
    let mut spec = tool(program, workdir, None, limits.clone());
    spec.stdout = stdout.to_owned();
    spec.argv
        .extend([language, entry_point].map(OsString::from));
    spec.argv.push(feedback_argument(feedback));
    spec.argv.extend(args.iter().map(OsString::from));
    spec
}

/// The feedback folder as the format passes it: ending in a slash, since a validator may name its files by
/// appending their names (`feedback_dir + "judgemessage.txt"`), as the format allows.
fn feedback_argument(feedback: &Path) -> OsString {
    let mut argument = feedback.as_os_str().to_owned();
    if !argument.as_encoded_bytes().ends_with(b"/") {
        argument.push("/");
    }
    argument
}

/// An interactor talking with a solution whose wall-time limit is `solution_wall`: `interactor <input> <answer>`,
/// or in a package's protocol `validator <input> <answer> <feedback_dir> [flags]`, under `limits` (the problem's
/// [`tool_limits`]) but for its time. Its standard streams are the dialogue's. It may run a little longer than the
/// solution, to have its say once the solution has ended.
pub fn interactor(
    program: &Program,
    limits: &Limits,
    workdir: &Path,
    test: &Test,
    feedback: Option<&Path>,
    solution_wall: Duration,
) -> RunSpec {
    let wall = solution_wall + Duration::from_secs(1);
    let mut spec = tool(
        program,
        workdir,
        None,
        Limits {
            cpu: wall,
            wall,
            ..limits.clone()
        },
    );
    spec.argv
        .extend([&*test.input(), &*test.answer()].map(|p| p.as_os_str().to_owned()));
    if let Some(feedback) = feedback {
        spec.argv.push(feedback_argument(feedback));
        spec.argv
            .extend(test.flags().output.iter().map(OsString::from));
    }
    spec
}

/// The file in a tool's working directory that its standard output goes to.
const TOOL_STDOUT: &str = "stdout";

/// One of the problem's own programs (checker, validator, generator), working in `workdir`, reading `stdin`
/// (nothing if none), writing its output to `workdir/stdout` (read back with [`tool_output`]). It may read
/// anything.
pub fn tool(program: &Program, workdir: &Path, stdin: Option<&Path>, limits: Limits) -> RunSpec {
    RunSpec {
        argv: program.argv.clone(),
        env: small_env(workdir),
        workdir: workdir.to_owned(),
        stdin: stdin.map(Path::to_owned),
        stdout: workdir.join(TOOL_STDOUT),
        limits: Limits {
            cap_address_space: program.cap_address_space,
            ..limits
        },
        trust: Trust::Tool,
        scratch: None,
    }
}

/// What a tool run by [`tool`] wrote on its standard output. The file lies in the tool's working directory, which
/// it could write: it is read as every such file is (no link followed, no FIFO waited on, at most the output limit).
pub fn tool_output(spec: &RunSpec) -> std::io::Result<Vec<u8>> {
    crate::untrusted::read(&spec.workdir, Path::new(TOOL_STDOUT), spec.limits.output.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::TestFlags;

    /// Each of the problem's own programs gets at least the memory and the stack of a solution, whatever the
    /// problem's memory limit: a package's default of 2 GiB gives a solution a stack of 1.75 GiB.
    #[test]
    fn the_problems_own_programs_get_at_least_a_solutions_stack() {
        let program = Program {
            argv: vec!["/bin/true".into()],
            readable: vec!["/".into()],
            cap_address_space: true,
        };
        let dir = Path::new("/nowhere");
        let file = dir.join("file");
        let test = Test {
            name: "1".into(),
            files: crate::problem::Files::at(file.as_path(), file.clone()),
            judging: crate::problem::Judging::new(TestFlags::default(), Default::default()),
        };
        for mib in [64, 256, 1024, 2048, 8192] {
            let problem = ProblemLimits {
                time: Duration::from_secs(1),
                memory: Bytes::mib(mib),
                output: Bytes::mib(8),
            };
            let solution = solution(&program, &problem, problem.time, dir, &file, &file).limits;
            let checking = tool_limits(CHECKER_LIMITS, &problem);
            let tools = tool_limits(TOOL_LIMITS, &problem);
            let runs = [
                (
                    "checker",
                    checker(&program, &checking, dir, &file, &file, &file),
                ),
                (
                    "output validator",
                    output_validator(&program, &checking, dir, &file, &file, &file, &file, &[]),
                ),
                (
                    "interactor",
                    interactor(&program, &checking, dir, &test, None, solution.wall),
                ),
                (
                    "static validator",
                    static_validator(&program, &checking, dir, &file, "c", "a.c", &file, &[]),
                ),
                ("validator, generator", tool(&program, dir, None, tools)),
            ];
            for (what, spec) in runs {
                assert!(
                    spec.limits.stack >= solution.stack && spec.limits.memory >= solution.memory,
                    "{what} at {mib} MiB: {:?} for a solution's {:?}",
                    spec.limits,
                    solution
                );
            }
        }
    }
}
