//! The kinds of run the judge makes, each built in one place with its limits: a compile, a solution on a test, a
//! checker, and the problem's other tools (validator, generator).

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

/// A checker's limits: generous, since it is trusted to be correct, yet bounded, since it may have bugs.
pub const CHECKER_LIMITS: Limits = Limits {
    cpu: Duration::from_secs(10),
    wall: Duration::from_secs(20),
    memory: Bytes::mib(1024),
    output: Bytes::mib(16),
    disk: Bytes::mib(64),
    stack: Bytes::mib(256),
    cap_address_space: true,
};

/// Limits for the problem's other tools (validator, generator): trusted, but bounded all the same.
pub const TOOL_LIMITS: Limits = Limits {
    cpu: Duration::from_secs(10),
    wall: Duration::from_secs(20),
    memory: Bytes::mib(1024),
    output: Bytes::mib(256),
    disk: Bytes::mib(512),
    stack: Bytes::mib(256),
    cap_address_space: true,
};

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

/// A solution on one test, working in `workdir`, reading only its own build.
pub fn solution(
    program: &Program,
    limits: &ProblemLimits,
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
            cpu: limits.time,
            // Long enough that a slow start never costs a verdict, short enough that a sleeper is caught soon.
            wall: limits.time * 2 + Duration::from_secs(1),
            memory: limits.memory,
            output: limits.output,
            // Files it writes count as memory, as its scratch space in memory makes them where it can.
            disk: limits.memory,
            // The stack may grow almost as far as memory allows, so deep recursion that fits in memory runs; it
            // stops an eighth short, so that endless recursion ends as the stack overflow it is (RE) before the
            // memory it takes is measured as MLE.
            stack: Bytes(limits.memory.0 - limits.memory.0 / 8),
            cap_address_space: program.cap_address_space,
        },
        trust: Trust::Solution {
            readable: vec![program.dir.clone()],
        },
        // Files it writes count as memory: never more than the memory limit in all.
        scratch: Some(limits.memory),
    }
}

/// The checker on one output: `checker <input> <output> <answer>`, working in `workdir`.
pub fn checker(
    program: &Program,
    workdir: &Path,
    input: &Path,
    output: &Path,
    answer: &Path,
) -> RunSpec {
    let mut spec = tool(program, workdir, None, CHECKER_LIMITS);
    spec.argv
        .extend([input, output, answer].map(|p| p.as_os_str().to_owned()));
    spec
}

/// A package's output validator on one output: `validator <input> <answer> <feedback_dir> [flags] < output`.
pub fn output_validator(
    program: &Program,
    workdir: &Path,
    input: &Path,
    output: &Path,
    answer: &Path,
    feedback: &Path,
    flags: &[String],
) -> RunSpec {
    let mut spec = tool(program, workdir, Some(output), CHECKER_LIMITS);
    spec.argv
        .extend([input, answer].map(|p| p.as_os_str().to_owned()));
    spec.argv.push(feedback_argument(feedback));
    spec.argv.extend(flags.iter().map(OsString::from));
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
/// or in a package's protocol `validator <input> <answer> <feedback_dir> [flags]`. Its standard streams are the
/// dialogue's. It may run a little longer than the solution, to have its say once the solution has ended.
pub fn interactor(
    program: &Program,
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
            ..CHECKER_LIMITS
        },
    );
    spec.argv
        .extend([&test.input, &test.answer].map(|p| p.as_os_str().to_owned()));
    if let Some(feedback) = feedback {
        spec.argv.push(feedback_argument(feedback));
        spec.argv
            .extend(test.flags.output.iter().map(OsString::from));
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
