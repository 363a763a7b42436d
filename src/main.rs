use std::process::ExitCode;

fn main() -> ExitCode {
    let role = std::env::args_os().nth(1);
    // The program of a trial run, which runs as a solution would: nothing of ours to hide.
    if role.as_deref() == Some(cpjudge::sandbox::PROBE_ARG.as_ref()) {
        return ExitCode::from(cpjudge::sandbox::echo() as u8);
    }
    // Not dumpable before anything else, the judge and its workers alike: a run of the same user, where no layer
    // hides us from it, can then neither open our memory through /proc nor our descriptors (the workers' replies) to
    // forge a verdict. A judge started beside such a run is open to it only while it is being loaded.
    cpjudge::sandbox::not_dumpable();
    // The worker that carries out runs inside the sandbox.
    if role.as_deref() == Some(cpjudge::sandbox::SUPERVISE_ARG.as_ref()) {
        return ExitCode::from(cpjudge::sandbox::serve() as u8);
    }
    let cli = cpjudge::cli::Cli::parse_args();
    match cpjudge::run(cli) {
        Ok(cpjudge::Outcome::AsExpected) => ExitCode::SUCCESS,
        Ok(cpjudge::Outcome::NotAsExpected) => ExitCode::from(1),
        Ok(cpjudge::Outcome::Interrupted) => ExitCode::from(cpjudge::interrupt::EXIT_CODE),
        // The reader of our output went away (`cpjudge doctor | head`): nothing to say, and no one to say it to.
        Err(e) if e.is_broken_pipe() => ExitCode::from(e.exit_code()),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
