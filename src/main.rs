use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == cpjudge::sandbox::SUPERVISE_ARG)
    {
        return ExitCode::from(cpjudge::sandbox::supervise() as u8);
    }
    let cli = cpjudge::cli::Cli::parse();
    match cpjudge::run(cli) {
        Ok(cpjudge::Outcome::AsExpected) => ExitCode::SUCCESS,
        Ok(cpjudge::Outcome::NotAsExpected) => ExitCode::from(1),
        // The reader of our output went away (`cpjudge doctor | head`): nothing to say, and no one to say it to.
        Err(e) if e.is_broken_pipe() => ExitCode::from(e.exit_code()),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
