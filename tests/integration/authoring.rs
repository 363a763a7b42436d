//! The setter's commands on temporary copies of the bundled problems: `add`, `regen`, `validate` and `stress`.

use crate::harness::{BUNDLED, Judge};
use std::path::Path;

/// The `.in` files below a folder, by name within it.
fn inputs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| e.path().strip_prefix(dir).unwrap().display().to_string())
        .filter(|n| n.ends_with(".in"))
        .collect();
    names.sort();
    names
}

/// Every file below a folder with its contents, to show that nothing changed.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().display().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn add_makes_the_next_test_and_the_problem_stays_green() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let tests = project.root().join("testdata/knight-pawns");
    let small = tests.join("small");
    let before = inputs(&small);
    let added = project
        .then(
            &["add", "knight-pawns", "--input", "-", "--group", "small"],
            b"0 0\n2\n1 2\n2 1\n",
        )
        .expect_code(0);
    assert!(
        added.stdout().contains("small/hand-1.in"),
        "{}",
        added.stdout()
    );
    assert_eq!(
        std::fs::read_to_string(small.join("hand-1.in")).unwrap(),
        "0 0\n2\n1 2\n2 1\n"
    );
    assert!(!std::fs::read(small.join("hand-1.ans")).unwrap().is_empty());
    let recipe = cpjudge::authoring::Recipe::load(&tests).unwrap();
    assert_eq!(
        recipe.get("small/hand-1").unwrap().source,
        cpjudge::authoring::Source::HandMade
    );
    assert_eq!(inputs(&small).len(), before.len() + 1);
    project.then(&["judge", "knight-pawns"], b"").expect_code(0);
    project.then(&["regen", "knight-pawns"], b"").expect_code(0);
}

#[test]
fn add_refuses_an_invalid_input_and_a_duplicate_writing_nothing() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let tests = project.root().join("testdata/knight-pawns");
    let before = snapshot(&tests);
    let invalid = project
        .then(
            &["add", "knight-pawns", "--input", "-", "--group", "small"],
            b"0 0\n2\n1 2\n1 2\n",
        )
        .expect_code(2);
    assert!(
        invalid
            .stderr()
            .contains("line 4: pawn 2 at (1, 2) repeats pawn 1"),
        "{}",
        invalid.stderr()
    );
    let sample = std::fs::read(tests.join("sample-1.in")).unwrap();
    let duplicate = project
        .then(
            &["add", "knight-pawns", "--input", "-", "--group", "small"],
            &sample,
        )
        .expect_code(2);
    assert!(
        duplicate.stderr().contains("byte for byte test sample-1"),
        "{}",
        duplicate.stderr()
    );
    let taken = project
        .then(
            &["add", "knight-pawns", "--input", "-", "--name", "sample-2"],
            b"0 0\n1\n1 2\n",
        )
        .expect_code(2);
    assert!(
        taken.stderr().contains("exists already"),
        "{}",
        taken.stderr()
    );
    assert_eq!(snapshot(&tests), before, "something was written");
}

#[test]
fn two_adds_at_once_make_two_tests() {
    let project = Judge::bundled(&["knight-pawns"]);
    let tests = project.root().join("testdata/knight-pawns");
    let spawn = |input: &'static [u8]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cpjudge"))
            .current_dir(project.root())
            .arg("--cache-dir")
            .arg(crate::harness::shared_cache())
            .args(["add", "knight-pawns", "--input", "-", "--group", "large"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        child
    };
    let children = [spawn(b"5 5\n1\n6 7\n"), spawn(b"5 5\n1\n7 6\n")];
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let mut made: Vec<String> = ["large/hand-1.in", "large/hand-2.in"]
        .iter()
        .map(|name| std::fs::read_to_string(tests.join(name)).unwrap())
        .collect();
    made.sort();
    assert_eq!(made, ["5 5\n1\n6 7\n", "5 5\n1\n7 6\n"]);
    let recipe = cpjudge::authoring::Recipe::load(&tests).unwrap();
    assert!(recipe.get("large/hand-1").is_some() && recipe.get("large/hand-2").is_some());
}

#[test]
fn add_from_the_generator_records_the_arguments() {
    let mut project = Judge::bundled(&["young-chess"]);
    let tests = project.root().join("testdata/young-chess");
    project
        .then(
            &[
                "add",
                "young-chess",
                "--gen",
                "random 3 4 9 {seed}",
                "--seeds",
                "1..3",
            ],
            b"",
        )
        .expect_code(0);
    let recipe = cpjudge::authoring::Recipe::load(&tests).unwrap();
    for seed in 1..=3 {
        let name = format!("random-3-4-9-{seed}");
        assert_eq!(
            recipe.get(&name).unwrap().source,
            cpjudge::authoring::Source::Generated(
                ["random", "3", "4", "9", &seed.to_string()]
                    .map(String::from)
                    .to_vec()
            ),
            "{name}"
        );
        assert!(tests.join(format!("{name}.ans")).is_file());
    }
    project.then(&["regen", "young-chess"], b"").expect_code(0);
}

/// A fixed --gen beside a seeded one is added once while the other is added per seed; --seeds with no `{seed}`
/// anywhere says where it goes.
#[test]
fn add_mixes_a_fixed_generator_call_with_seeded_ones() {
    let mut project = Judge::bundled(&["young-chess"]);
    let tests = project.root().join("testdata/young-chess");
    project
        .then(
            &[
                "add",
                "young-chess",
                "--gen",
                "random 3 4 9 100",
                "--gen",
                "random 3 4 9 {seed}",
                "--seeds",
                "1..2",
            ],
            b"",
        )
        .expect_code(0);
    let recipe = cpjudge::authoring::Recipe::load(&tests).unwrap();
    for name in ["random-3-4-9-100", "random-3-4-9-1", "random-3-4-9-2"] {
        assert!(recipe.get(name).is_some(), "{name} not added");
    }
    let refused = project
        .then(
            &[
                "add",
                "young-chess",
                "--gen",
                "random 3 4 9",
                "--seeds",
                "1..2",
            ],
            b"",
        )
        .expect_code(2);
    assert!(
        refused
            .stderr()
            .contains("put {seed} where the seed goes (--gen 'random 3 4 9 {seed}')"),
        "{}",
        refused.stderr()
    );
}

#[test]
fn add_refuses_an_input_the_references_disagree_on() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let tests = project.root().join("testdata/knight-pawns");
    // The greedy solution, taken for a reference: it is wrong on some of these inputs.
    let config = project.root().join("problems/knight-pawns/problem.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace(
            "path = \"solutions/greedy_nearest.rs\"\nexpected = \"WA\"",
            "path = \"solutions/greedy_nearest.rs\"\nexpected = \"AC\"",
        ),
    )
    .unwrap();
    let before = snapshot(&tests);
    let refused = project
        .then(
            &[
                "add",
                "knight-pawns",
                "--gen",
                "random 15 {seed}",
                "--seeds",
                "1000..1010",
                "--group",
                "large",
            ],
            b"",
        )
        .expect_code(1);
    let said = refused.stdout();
    assert!(
        said.contains("the references disagree") && said.contains("greedy_nearest.rs gets WA"),
        "{said}"
    );
    assert!(
        said.contains("expected") && said.contains("output"),
        "{said}"
    );
    assert_eq!(snapshot(&tests), before, "something was written");
}

#[test]
fn regen_rebuilds_every_bundled_test_byte_for_byte() {
    for problem in BUNDLED {
        let mut project = Judge::bundled(&[problem]);
        let run = project.then(&["regen", problem], b"").expect_code(0);
        let count = inputs(&project.root().join("testdata").join(problem)).len();
        assert!(
            run.stdout()
                .contains(&format!("{count} of {count} tests rebuilt byte for byte")),
            "{problem}: {}",
            run.stdout()
        );
    }
}

#[test]
fn regen_catches_a_changed_answer_and_a_nondeterministic_generator() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let tests = project.root().join("testdata/knight-pawns");
    let kept = std::fs::read(tests.join("small/ring-n07-1.ans")).unwrap();
    std::fs::write(tests.join("small/ring-n07-1.ans"), "999\n").unwrap();
    let kept_input = std::fs::read_to_string(tests.join("small/ring-n07-1.in")).unwrap();
    std::fs::write(
        tests.join("small/ring-n07-1.in"),
        kept_input.replacen("\n", "\n1 1\n", 1),
    )
    .unwrap();
    let run = project.then(&["regen", "knight-pawns"], b"").expect_code(1);
    // A longer file's change as a unified diff: the line the recipe would not make again.
    assert!(
        run.stdout().contains("    input:\n") && run.stdout().contains("\n        -1 1\n"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stdout()
            .contains("would change small/ring-n07-1: input differs, answer differs"),
        "{}",
        run.stdout()
    );
    // With the old and new answers, short as they are, so the change can be judged without opening files.
    let old_and_new = format!(
        "answer: `999` -> `{}`",
        String::from_utf8_lossy(&kept).trim_end()
    );
    assert!(
        run.stdout().contains(&old_and_new),
        "no {old_and_new} in:\n{}",
        run.stdout()
    );
    // The command that accepts the change, ready to paste.
    assert!(
        run.stdout()
            .contains("(`cpjudge regen knight-pawns --write` accepts the changes)"),
        "{}",
        run.stdout()
    );
    // A lost answer is a change to report too, not an error that stops the rebuild.
    let lost = std::fs::read(tests.join("sample-1.ans")).unwrap();
    std::fs::remove_file(tests.join("sample-1.ans")).unwrap();
    let run = project.then(&["regen", "knight-pawns"], b"").expect_code(1);
    assert!(
        run.stdout()
            .contains("would change sample-1: answer is missing"),
        "{}",
        run.stdout()
    );
    project
        .then(&["regen", "knight-pawns", "--write"], b"")
        .expect_code(0);
    assert_eq!(
        std::fs::read(tests.join("small/ring-n07-1.ans")).unwrap(),
        kept
    );
    assert_eq!(std::fs::read(tests.join("sample-1.ans")).unwrap(), lost);

    // A generator that mixes the clock into its seed.
    let generator = project.root().join("problems/knight-pawns/generator.rs");
    let text = std::fs::read_to_string(&generator).unwrap();
    assert!(text.contains("fn main() {"));
    std::fs::write(
        &generator,
        text.replace(
            "fn main() {",
            "fn main() {\n    println!(\"{}\", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos());",
        ),
    )
    .unwrap();
    let run = project.then(&["regen", "knight-pawns"], b"").expect_code(1);
    assert!(
        run.stdout().contains("nondeterministic"),
        "{}",
        run.stdout()
    );
}

#[test]
fn validate_passes_the_bundled_problems_and_runs_the_validators_self_test() {
    for problem in BUNDLED {
        let mut project = Judge::bundled(&[problem]);
        let root = project.root().to_owned();
        let tests = inputs(&root.join("testdata").join(problem)).len();
        let kept = inputs(&root.join("problems").join(problem).join("invalid")).len();
        assert!(kept >= 10, "{problem}: only {kept} kept invalid inputs");
        let run = project.then(&["validate", problem], b"").expect_code(0);
        assert!(
            run.stdout().contains(&format!(
                "ok: {tests} of {tests} tests valid; {kept} of {kept} kept invalid inputs rejected with the expected message"
            )),
            "{problem}: {}",
            run.stdout()
        );
    }
}

#[test]
fn validate_names_an_invalid_test_and_a_self_test_that_fails() {
    let mut project = Judge::bundled(&["young-chess"]);
    let root = project.root().to_owned();
    std::fs::write(root.join("testdata/young-chess/wide.in"), "1 11\n").unwrap();
    std::fs::write(root.join("testdata/young-chess/wide.ans"), "0\n").unwrap();
    let invalid = root.join("problems/young-chess/invalid");
    // A kept invalid input that is in fact valid, and one whose expected message is not what the validator says.
    std::fs::copy(
        root.join("testdata/young-chess/sample-1.in"),
        invalid.join("fine.in"),
    )
    .unwrap();
    std::fs::write(invalid.join("fine.err"), "anything\n").unwrap();
    std::fs::write(invalid.join("empty.err"), "some other reason\n").unwrap();
    let run = project
        .then(&["validate", "young-chess"], b"")
        .expect_code(1);
    let said = run.stdout();
    assert!(said.contains("invalid test wide"), "{said}");
    assert!(
        said.contains("fine.in: accepted, but it is kept as an invalid input"),
        "{said}"
    );
    assert!(
        said.contains("empty.in: rejected, but not with the message expected")
            && said.contains("expected some other reason"),
        "{said}"
    );
    assert!(said.contains("FAILED"), "{said}");
}

/// The bytes of the input `stress` saved, and what it printed.
fn stress(problem: &str, submission: &str, extra: &[&str], code: i32) -> (Vec<u8>, String) {
    let mut project = Judge::bundled(&[problem]);
    let save = project.root().join("saved");
    let submission = format!("problems/{problem}/solutions/{submission}");
    let mut args = vec![
        "stress",
        problem,
        "--submission",
        &submission,
        "--save",
        save.to_str().unwrap(),
    ];
    args.extend(extra);
    let run = project.then(&args, b"").expect_code(code);
    let input = std::fs::read(save.join("smallest.in")).unwrap_or_default();
    (input, run.stdout())
}

#[test]
fn stress_finds_the_greedy_knight_wrong_and_shrinks_it_to_three_pawns_at_most() {
    let (input, said) = stress("knight-pawns", "greedy_nearest.rs", &[], 1);
    let text = String::from_utf8(input).unwrap();
    let pawns: usize = text.lines().nth(1).unwrap().trim().parse().unwrap();
    assert!(pawns <= 3, "{pawns} pawns:\n{text}\n{said}");
    assert!(said.contains("greedy_nearest.rs gets WA"), "{said}");
    // The smallest failure is the kept test small/random-n02-1, so it is named rather than offered for adding;
    // if not, the command that adds it asks for one of the groups.
    assert!(
        said.contains(
            "it is test small/random-n02-1 already: `cpjudge judge knight-pawns --submission \
             problems/knight-pawns/solutions/greedy_nearest.rs` fails it too"
        ) || (said.contains("cpjudge add knight-pawns")
            && said.contains("--group GROUP")
            && said.contains("one of samples, small, medium, large")),
        "{said}"
    );
}

#[test]
fn stress_finds_the_greedy_player_wrong_and_shrinks_it_to_two_by_two_at_most() {
    let (input, said) = stress("young-chess", "greedy.rs", &["-j", "2"], 1);
    let text = String::from_utf8(input).unwrap();
    let size: Vec<usize> = text
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(
        size[0] * size[1] <= 4 && size[0] <= 2 && size[1] <= 2,
        "{text}\n{said}"
    );
    assert!(said.contains("greedy.rs gets WA"), "{said}");
}

#[test]
fn stress_finds_nothing_wrong_with_a_reference() {
    let (input, said) = stress(
        "knight-pawns",
        "subset_table.rs",
        &["--count", "300", "-j", "2", "--json"],
        0,
    );
    assert!(input.is_empty(), "a failure was saved");
    let json: serde_json::Value = serde_json::from_str(&said).unwrap();
    assert_eq!(json["tests"], 300, "{said}");
    assert!(json["failure"].is_null(), "{said}");
}

/// Ctrl-C while a failure is being shrunk: the smallest failure so far is saved, and the exit code is 130.
#[test]
fn an_interrupted_stress_keeps_the_smallest_failure_so_far() {
    use std::io::{BufRead, BufReader};
    let project = Judge::bundled(&["knight-pawns"]);
    // Wrong on every input, and slow enough that shrinking takes many seconds.
    let slow = project.root().join("slow.c");
    std::fs::write(
        &slow,
        "#include <stdio.h>\n#include <unistd.h>\nint main(void) { usleep(300000); puts(\"0\"); return 0; }\n",
    )
    .unwrap();
    let save = project.root().join("saved");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cpjudge"))
        .current_dir(project.root())
        .arg("--cache-dir")
        .arg(crate::harness::shared_cache())
        .args(["stress", "knight-pawns", "--submission", "slow.c", "--save"])
        .arg(&save)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let found = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.starts_with("found a failure"));
    assert!(found.is_some(), "no failure was found");
    // Twice at once, as GNU timeout sends it (to the command and to its group): still one clean stop.
    for _ in 0..2 {
        // SAFETY: kill takes plain integers; the command is our child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    }
    let output = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{said}");
    assert!(said.contains("shrinking was interrupted"), "{said}");
    let input = std::fs::read_to_string(save.join("smallest.in")).unwrap();
    assert!(input.lines().count() >= 3, "{input}");
    assert_eq!(
        std::fs::read_to_string(save.join("smallest.out")).unwrap(),
        "0\n"
    );
}

#[test]
fn validate_constraints_shows_the_bounds_the_tests_reach_and_those_they_miss() {
    let mut project = Judge::bundled(&["young-chess"]);
    let run = project
        .then(&["validate", "young-chess", "--constraints"], b"")
        .expect_code(0);
    let said = run.stdout();
    for row in [
        "n  1..10      of 1..10      ✓ both ends",
        "A  0..100000  of 0..100000  ✓ both ends",
    ] {
        assert!(said.contains(row), "{row:?} in\n{said}");
    }
    assert!(said.contains("case all-b-zero"), "{said}");
    // Without the 10-row boards, the report says what is missing.
    let tests = project.root().join("testdata/young-chess");
    for name in inputs(&tests) {
        let text = std::fs::read_to_string(tests.join(&name)).unwrap();
        let rows: usize = text.split_whitespace().next().unwrap().parse().unwrap();
        if rows == 10 {
            std::fs::remove_file(tests.join(&name)).unwrap();
            std::fs::remove_file(tests.join(name.replace(".in", ".ans"))).unwrap();
        }
    }
    let run = project
        .then(&["validate", "young-chess", "--constraints"], b"")
        .expect_code(0);
    let said = run.stdout();
    assert!(said.contains("✗ never 10"), "{said}");
    assert!(said.contains("never reached:"), "{said}");
}

/// Arguments the generator refuses end the search at once, as an error, rather than passing for inputs that
/// agree.
#[test]
fn stress_with_arguments_the_generator_refuses_is_an_error() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let run = project
        .then(
            &[
                "stress",
                "knight-pawns",
                "--submission",
                "problems/knight-pawns/solutions/subset_table.rs",
                "--gen",
                "random 16 {seed}",
            ],
            b"",
        )
        .expect_code(2);
    assert!(
        run.stderr()
            .contains("the generator cannot make an input from random 16 1"),
        "{}",
        run.stderr()
    );
}

/// Every generated input is validated, even one the submission passes: an input the problem does not allow is
/// the generator's error, named with its arguments, never a test passed.
#[test]
fn stress_refuses_a_generated_input_the_validator_rejects() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    // A generator whose every input puts the pawn on the knight's square.
    std::fs::write(
        project.root().join("problems/knight-pawns/generator.rs"),
        "fn main() { println!(\"0 0\\n1\\n0 0\"); }\n",
    )
    .unwrap();
    let run = project
        .then(
            &[
                "stress",
                "knight-pawns",
                "--submission",
                "problems/knight-pawns/solutions/subset_table.rs",
                "--count",
                "3",
            ],
            b"",
        )
        .expect_code(2);
    assert!(
        run.stderr().contains(
            "the validator rejects the input from generator random 15 1: line 3: pawn 1 at (0, 0)"
        ),
        "{}",
        run.stderr()
    );
}
