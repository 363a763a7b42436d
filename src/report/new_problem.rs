//! What `cpjudge new` says: the files it made and the next steps.

use std::io::{self, Write};
use std::path::PathBuf;

pub fn write_new_problem(name: &str, made: &[PathBuf], out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "made problem {name} (a placeholder: the sum of two integers):"
    )?;
    for file in made {
        writeln!(out, "  {}", file.display())?;
    }
    writeln!(out, "\nnext steps:")?;
    writeln!(
        out,
        "  1. write problems/{name}/statement.md, then the solution, validator and generator"
    )?;
    writeln!(out, "     to match (each file says what to fill in)")?;
    writeln!(
        out,
        "  2. cpjudge add {name} --gen 'random {{seed}}' --seeds 1..10    (or --input FILE)"
    )?;
    writeln!(out, "  3. cpjudge judge {name}")?;
    writeln!(
        out,
        "  4. cpjudge timelimit {name}    (suggests a time limit from the references)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_problem_message() {
        let mut out = Vec::new();
        let made = ["problems/demo/problem.toml", "testdata/demo/sample-1.in"].map(PathBuf::from);
        write_new_problem("demo", &made, &mut out).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }
}
