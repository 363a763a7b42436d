use std::process::ExitCode;

fn main() -> ExitCode {
    // The two roles this executable plays inside the sandbox: a worker that carries out runs, and the program of a
    // trial run.
    match std::env::args_os().nth(1) {
        Some(arg) if arg == cpjudge::sandbox::SUPERVISE_ARG => {
            let args: Vec<String> = std::env::args().skip(2).collect();
            return ExitCode::from(cpjudge::sandbox::serve(&args) as u8);
        }
        Some(arg) if arg == cpjudge::sandbox::PROBE_ARG => {
            return ExitCode::from(cpjudge::sandbox::echo() as u8);
        }
        _ => {}
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
