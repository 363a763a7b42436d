//! A problem's tests: `NAME.in` / `NAME.ans` pairs anywhere under a folder, samples first, then in natural order.

use super::TestName;
use crate::error::{Error, Result};
use crate::units::Bytes;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use walkdir::WalkDir;

/// The largest a test's input or answer may be. The judge streams both, but a run of a solution may be given a
/// copy of its input in memory (where the judge cannot mount it read-only), and a test this large is a mistake
/// sooner than a test: a sparse file of terabytes costs nothing on disk.
pub const TEST_FILE_LIMIT: Bytes = Bytes(Bytes::GIB);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    /// The path below the tests folder, without extension ("sample-1", "group/07").
    pub name: TestName,
    /// Where its input and answer are: see [`Test::input`] and [`Test::answer`].
    pub files: Files,
    /// How it is judged: see [`Test::flags`] and [`Test::kind`].
    pub judging: Judging,
}

/// How a test is judged, held apart where it is not as most tests are judged (their output, no arguments for the
/// validators): a judge keeps a test of every test, and such a test holds only an empty pointer for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judging(Option<Box<Unusual>>);

/// How a test not judged as most are is judged.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unusual {
    flags: TestFlags,
    kind: TestKind,
}

/// A test judged as most are.
static USUAL: Unusual = Unusual {
    flags: TestFlags(None),
    kind: TestKind::Output,
};

impl Judging {
    /// A test's validators given `flags`, judged as `kind` says.
    pub fn new(flags: TestFlags, kind: TestKind) -> Judging {
        let usual = flags == USUAL.flags && kind == USUAL.kind;
        Judging((!usual).then(|| Box::new(Unusual { flags, kind })))
    }

    fn get(&self) -> &Unusual {
        self.0.as_deref().unwrap_or(&USUAL)
    }
}

/// Where a test's input and answer are, by one pointer: a judge keeps a test of every test, and their paths would
/// be most of it. The tests found in a folder share one place (one for those answered by `.ans`, one for `.out`),
/// and their paths are made where they are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files(Arc<Place>);

/// Where a test's input and answer are.
#[derive(Debug, PartialEq, Eq)]
pub enum Place {
    /// In a folder, named for the test: the input `FOLDER/NAME.in`, the answer beside it.
    Named { folder: PathBuf, answer: Beside },
    /// Anywhere else: a test made for a command of its own, or one whose name is not its file's (not UTF-8).
    At(Paths),
}

/// A test's input and answer, where they are not named for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    pub input: PathBuf,
    pub answer: PathBuf,
}

impl Files {
    /// A test's files at these paths.
    pub fn at(input: impl Into<PathBuf>, answer: impl Into<PathBuf>) -> Files {
        Files(Arc::new(Place::At(Paths {
            input: input.into(),
            answer: answer.into(),
        })))
    }

    /// The files of tests in `folder`, named for each test, the answer beside the input: one to share among them.
    pub fn named(folder: PathBuf, answer: Beside) -> Files {
        Files(Arc::new(Place::Named { folder, answer }))
    }

    pub fn place(&self) -> &Place {
        &self.0
    }

    /// Whether both are the very same place, shared.
    pub fn shares(&self, other: &Files) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A test's answer beside its input, named as it is but for the extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beside {
    /// `NAME.ans`.
    Ans,
    /// `NAME.out`, as online-judge-tools names it.
    Out,
}

impl Beside {
    fn extension(self) -> &'static str {
        match self {
            Beside::Ans => "ans",
            Beside::Out => "out",
        }
    }
}

/// What a test judges.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TestKind {
    /// The submission's output on the test's input, as the problem judges outputs.
    #[default]
    Output,
    /// A group's static validation test case (2025-09): no input and no answer; the package's static validator
    /// judges the submission's files once. Boxed: a judge keeps a test of every test, and these are few.
    Static(Box<StaticCase>),
}

/// How a static validation test case is judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticCase {
    pub score: crate::scoring::StaticScore,
    /// The static validator's arguments (the group's `static_validator_args`).
    pub args: Vec<String>,
}

impl TestKind {
    /// A static validation test case scored as `score`, its validator given `args`.
    pub fn static_case(score: crate::scoring::StaticScore, args: Vec<String>) -> TestKind {
        TestKind::Static(Box::new(StaticCase { score, args }))
    }
}

/// The arguments a package's test group gives its validators, read as a [`ValidatorArgs`]. Most tests have none,
/// and hold no room for them: a judge keeps a test of every test.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TestFlags(Option<Box<ValidatorArgs>>);

/// The arguments of a test's validators.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValidatorArgs {
    pub input: Vec<String>,
    pub output: Vec<String>,
}

/// A test's validators given no arguments.
static NO_ARGS: ValidatorArgs = ValidatorArgs {
    input: Vec::new(),
    output: Vec::new(),
};

impl TestFlags {
    /// The input validators given `input`, the output validator `output`.
    pub fn new(input: Vec<String>, output: Vec<String>) -> TestFlags {
        let none = input.is_empty() && output.is_empty();
        TestFlags((!none).then(|| Box::new(ValidatorArgs { input, output })))
    }
}

impl std::ops::Deref for TestFlags {
    type Target = ValidatorArgs;

    fn deref(&self) -> &ValidatorArgs {
        self.0.as_deref().unwrap_or(&NO_ARGS)
    }
}

/// As the arguments themselves were written: a kept run's key holds it (see `judge::records`).
impl std::fmt::Debug for TestFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestFlags")
            .field("input", &self.input)
            .field("output", &self.output)
            .finish()
    }
}

/// Every test under `dir`: the samples first (see [`Test::is_sample`]), then the others, each group in natural order
/// of name ("2" before "10"), so that a broken solution is shown failing the test its author can read. The answer
/// is `NAME.ans`, or `NAME.out` where there is no `.ans` (as online-judge-tools writes them). An input without an
/// answer, or an answer without an input, is an error: a half-written test should not be silently skipped.
pub fn find_tests(dir: &Path) -> Result<Vec<Test>> {
    find_tests_named_from(dir, dir)
}

/// The tests under `dir` as [`find_tests`] finds them, named from `root`, a folder above it ("secret/07" for
/// `root/secret/07.in`): a package's, whose names hold their part of its data folder.
pub fn find_tests_named_from(root: &Path, dir: &Path) -> Result<Vec<Test>> {
    let (mut tests, unanswering) = inputs(root, dir, true)?;
    if let Some(answer) = unanswering {
        return Err(Error::MissingInput { answer });
    }
    for test in &tests {
        check_test_file(&test.input())?;
    }
    let mut out: Option<Files> = None;
    for test in &mut tests {
        let input = test.input().into_owned();
        let beside = answer_beside(&input).ok_or_else(|| Error::MissingAnswer {
            input: input.to_path_buf(),
        })?;
        let answer = input.with_extension(beside.extension());
        test.files = match test.files.place() {
            Place::Named { folder, .. } => match beside {
                Beside::Ans => test.files.clone(),
                // The tests answered by `.out` share a place of their own.
                Beside::Out => out
                    .get_or_insert_with(|| Files::named(folder.clone(), Beside::Out))
                    .clone(),
            },
            Place::At(paths) => Files::at(&paths.input, &answer),
        };
        check_test_file(&answer)?;
    }
    if tests.is_empty() {
        return Err(Error::NoTests {
            dir: dir.to_owned(),
        });
    }
    Ok(tests)
}

/// Every test input under `dir` (`NAME.in`), answered or not, in the order of [`find_tests`]; the answer is where
/// it would be. For the commands that look at inputs alone (validating them, rebuilding them).
pub fn find_inputs(dir: &Path) -> Result<Vec<Test>> {
    let (tests, _) = inputs(dir, dir, false)?;
    for test in &tests {
        check_test_file(&test.input())?;
    }
    Ok(tests)
}

/// The answer beside an input: `NAME.ans`, or `NAME.out` as online-judge-tools names it.
pub fn answer_of(input: &Path) -> Option<PathBuf> {
    answer_beside(input).map(|beside| input.with_extension(beside.extension()))
}

/// The answer beside an input (see [`answer_of`]).
fn answer_beside(input: &Path) -> Option<Beside> {
    [Beside::Ans, Beside::Out]
        .into_iter()
        .find(|beside| input.with_extension(beside.extension()).exists())
}

/// Refuses a test file that is not a regular file (once links are followed: a FIFO would make whoever reads it
/// wait for ever, a device such as /dev/zero never end), or larger than [`TEST_FILE_LIMIT`], by what the file
/// system says of it: never by reading it.
pub(crate) fn check_test_file(path: &Path) -> Result<()> {
    let metadata = std::fs::metadata(path).map_err(|e| Error::io("read", path, e))?;
    if !metadata.is_file() {
        return Err(Error::Usage(format!(
            "{}: a test's input or answer must be a regular file, and this is {}",
            path.display(),
            crate::untrusted::describe(&metadata.file_type())
        )));
    }
    let size = metadata.len();
    if size > TEST_FILE_LIMIT.0 {
        return Err(Error::TestTooLarge {
            path: path.to_owned(),
            size: Bytes(size),
            limit: TEST_FILE_LIMIT,
        });
    }
    Ok(())
}

/// The `.in` files under `dir`, following links, as tests named from `root` and answered by `NAME.ans`, samples
/// first, then in natural order; with the first answer found without its input, where `answers` asks for it to be
/// looked for. Only the inputs are kept as the folder is walked, and they are sorted in place: a list of every
/// file, or a second list to sort into, would be the largest thing a judge of many tests holds.
fn inputs(root: &Path, dir: &Path, answers: bool) -> Result<(Vec<Test>, Option<PathBuf>)> {
    if !dir.is_dir() {
        return Err(Error::NoTestsFolder {
            dir: dir.to_owned(),
        });
    }
    let mut tests = Vec::new();
    let mut unanswering = None;
    let named = Files::named(root.to_path_buf(), Beside::Ans);
    for entry in WalkDir::new(dir).follow_links(true) {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_owned();
            Error::io("read", path, e.into())
        })?;
        let path = entry.path();
        match path.extension() {
            Some(e) if e == "in" => {
                let name = crate::text::file_name(
                    path.strip_prefix(root)
                        .unwrap_or(path)
                        .with_extension("")
                        .as_os_str(),
                );
                let files = match Test::named_input(root, &name) == path {
                    true => named.clone(),
                    false => Files::at(path, path.with_extension(Beside::Ans.extension())),
                };
                tests.push(Test {
                    name: name.into(),
                    files,
                    judging: Judging::default(),
                });
            }
            // Whatever is there is looked at later: one that is not a file is refused as such.
            Some(e)
                if e == "ans"
                    && answers
                    && unanswering.is_none()
                    && !path.with_extension("in").exists() =>
            {
                unanswering = Some(path.to_owned());
            }
            _ => {}
        }
    }
    // Names are unique, but natural order takes "01" and "1" for the same: the names themselves order those, so
    // that the order is one whichever way the folder is read, and no scratch list is needed to keep it.
    tests.sort_unstable_by(|a, b| {
        b.is_sample()
            .cmp(&a.is_sample())
            .then_with(|| natord::compare(&a.name, &b.name))
            .then_with(|| a.name.cmp(&b.name))
    });
    // Grown by doubling, the list of many tests could hold almost twice what it has.
    tests.shrink_to_fit();
    Ok((tests, unanswering))
}

impl Test {
    /// Arguments for the problem's validators on this test (a package's test group gives them).
    pub fn flags(&self) -> &TestFlags {
        &self.judging.get().flags
    }

    /// What judges it: the submission's output, or the package's static validator.
    pub fn kind(&self) -> &TestKind {
        &self.judging.get().kind
    }

    /// Gives its validators `flags`.
    pub fn set_flags(&mut self, flags: TestFlags) {
        self.judging = Judging::new(flags, self.kind().clone());
    }

    /// The path of its input.
    pub fn input(&self) -> Cow<'_, Path> {
        match self.files.place() {
            Place::Named { folder, .. } => Test::named_input(folder, &self.name).into(),
            Place::At(paths) => Cow::Borrowed(&paths.input),
        }
    }

    /// The path of its answer.
    pub fn answer(&self) -> Cow<'_, Path> {
        match self.files.place() {
            Place::Named { folder, answer } => {
                let mut path = Test::named_input(folder, &self.name);
                path.set_extension(answer.extension());
                path.into()
            }
            Place::At(paths) => Cow::Borrowed(&paths.answer),
        }
    }

    /// The input of the test named `name` in `folder`.
    fn named_input(folder: &Path, name: &str) -> PathBuf {
        let mut path = folder.join(name);
        path.as_mut_os_string().push(".in");
        path
    }

    /// Whether it is a test of the submission's output, with an input and an answer: not a static validation
    /// test case.
    pub fn has_files(&self) -> bool {
        *self.kind() == TestKind::Output
    }

    /// A sample is a test whose file name starts with "sample", or one in a folder named "sample" or "samples":
    /// the tests shown in the statement.
    pub fn is_sample(&self) -> bool {
        is_sample_name(&self.name)
    }
}

/// Whether a test of this name is a sample: its file's name starts with "sample", or it lies in a folder named
/// "sample" or "samples" (any case).
pub fn is_sample_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let mut parts = name.split('/').rev();
    let file = parts.next().unwrap_or_default();
    file.starts_with("sample") || parts.any(|dir| dir == "sample" || dir == "samples")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(dir: &Path, names: &[&str]) {
        for name in names {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
    }

    #[test]
    fn natural_order_and_subfolders() {
        let dir = tempfile::tempdir().unwrap();
        touch(
            dir.path(),
            &[
                "10.in",
                "10.ans",
                "2.in",
                "2.ans",
                "a/1.in",
                "a/1.ans",
                "notes.txt",
            ],
        );
        let names: Vec<_> = find_tests(dir.path())
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["2", "10", "a/1"]);
    }

    #[test]
    fn samples_come_first() {
        let dir = tempfile::tempdir().unwrap();
        let pairs = [
            "01",
            "big",
            "sample-2",
            "sample-10",
            "Sample1",
            "samples/x",
            "z/sample/7",
        ];
        for name in pairs {
            touch(dir.path(), &[&format!("{name}.in"), &format!("{name}.ans")]);
        }
        let names: Vec<_> = find_tests(dir.path())
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(
            names,
            [
                "Sample1",
                "sample-2",
                "sample-10",
                "samples/x",
                "z/sample/7",
                "01",
                "big"
            ]
        );
    }

    #[test]
    fn an_out_file_answers_where_there_is_no_ans() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), &["1.in", "1.out", "2.in", "2.ans", "2.out"]);
        let tests = find_tests(dir.path()).unwrap();
        // Held as where it is beside the input, not as a second path.
        let held: Vec<_> = tests.iter().map(|t| t.files.clone()).collect();
        let beside = |answer| Files::named(dir.path().to_path_buf(), answer);
        assert_eq!(held, [beside(Beside::Out), beside(Beside::Ans)]);
        let answers: Vec<_> = tests
            .into_iter()
            .map(|t| {
                t.answer()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(answers, ["1.out", "2.ans"]);
    }

    #[test]
    fn the_tests_of_a_folder_share_it_and_hold_no_path_of_their_own() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), &["1.in", "1.ans", "g/a.b.in", "g/a.b.ans"]);
        let tests = find_tests(dir.path()).unwrap();
        for test in &tests {
            assert!(
                matches!(test.files.place(), Place::Named { .. }),
                "{test:?} holds its paths"
            );
        }
        assert!(tests[0].files.shares(&tests[1].files));
        assert_eq!(std::mem::size_of::<Test>(), 40);
        assert_eq!(tests[1].name, "g/a.b");
        assert_eq!(tests[1].input(), dir.path().join("g/a.b.in"));
        assert_eq!(tests[1].answer(), dir.path().join("g/a.b.ans"));
    }

    #[test]
    fn a_test_whose_name_is_not_its_file_s_holds_its_paths() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join(std::ffi::OsStr::from_bytes(b"t\xff.in"));
        std::fs::write(&input, "").unwrap();
        std::fs::write(input.with_extension("out"), "").unwrap();
        let tests = find_tests(dir.path()).unwrap();
        assert_eq!(tests[0].name, "t\\xff");
        assert!(matches!(tests[0].files.place(), Place::At(_)));
        assert_eq!(tests[0].input(), input);
        assert_eq!(tests[0].answer(), input.with_extension("out"));
    }

    #[test]
    fn input_without_answer_is_named() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), &["1.in", "1.ans", "2.in"]);
        let message = find_tests(dir.path()).unwrap_err().to_string();
        assert!(
            message.contains("2.in") && message.contains("no answer"),
            "{message}"
        );
    }

    #[test]
    fn answer_without_input_is_named() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), &["3.ans"]);
        let message = find_tests(dir.path()).unwrap_err().to_string();
        assert!(message.contains("3.ans"), "{message}");
    }

    #[test]
    fn inputs_need_no_answer() {
        let dir = tempfile::tempdir().unwrap();
        touch(
            dir.path(),
            &["2.in", "10.in", "10.ans", "sample.in", "notes.txt"],
        );
        let names: Vec<_> = find_inputs(dir.path())
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["sample", "2", "10"]);
    }

    #[test]
    fn a_test_file_over_the_limit_is_refused_by_its_size() {
        for (name, other) in [("1.in", "1.ans"), ("1.ans", "1.in")] {
            let dir = tempfile::tempdir().unwrap();
            touch(dir.path(), &[other]);
            // Sparse: the limit is found out without reading, or storing, the file.
            let big = std::fs::File::create(dir.path().join(name)).unwrap();
            big.set_len(TEST_FILE_LIMIT.0 + 1).unwrap();
            let error = find_tests(dir.path()).unwrap_err();
            assert!(matches!(error, Error::TestTooLarge { .. }), "{error}");
            assert_eq!(
                error.to_string(),
                format!(
                    "{}: a test file of 1073741825 bytes (1.0GiB), over the limit of 1GiB for a test's input or \
                     answer",
                    dir.path().join(name).display()
                )
            );
            assert_eq!(error.exit_code(), 2);
            if name == "1.in" {
                assert!(matches!(
                    find_inputs(dir.path()),
                    Err(Error::TestTooLarge { .. })
                ));
            }
            big.set_len(TEST_FILE_LIMIT.0).unwrap();
            assert_eq!(find_tests(dir.path()).unwrap().len(), 1);
        }
    }

    #[test]
    fn a_test_file_must_be_a_regular_file() {
        for (name, other) in [("1.in", "1.ans"), ("1.ans", "1.in")] {
            for target in ["/dev/zero", "fifo"] {
                let dir = tempfile::tempdir().unwrap();
                touch(dir.path(), &[other]);
                let fifo = dir.path().join("fifo");
                let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
                // SAFETY: mkfifo takes a C string and a mode.
                assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
                std::os::unix::fs::symlink(dir.path().join(target), dir.path().join(name)).unwrap();
                let error = find_tests(dir.path()).unwrap_err().to_string();
                assert!(
                    error.contains(name) && error.contains("must be a regular file"),
                    "{error}"
                );
            }
        }
    }

    #[test]
    fn a_test_judged_as_most_are_holds_nothing_apart() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), &["1.in", "1.ans"]);
        let mut test = find_tests(dir.path()).unwrap().remove(0);
        assert_eq!(test.judging, Judging::default());
        assert!(test.judging.0.is_none());
        assert_eq!(*test.kind(), TestKind::Output);
        let flags = TestFlags::new(Vec::new(), vec!["case_sensitive".into()]);
        test.set_flags(flags.clone());
        assert!(test.judging.0.is_some());
        assert_eq!(*test.flags(), flags);
        let case = TestKind::static_case(crate::scoring::StaticScore::PassFail, Vec::new());
        let judging = Judging::new(flags.clone(), case.clone());
        assert_eq!((&judging.get().flags, &judging.get().kind), (&flags, &case));
    }

    #[test]
    fn flags_read_and_show_as_the_arguments_themselves() {
        let none = TestFlags::new(Vec::new(), Vec::new());
        assert_eq!(none, TestFlags::default());
        assert!(none.input.is_empty() && none.output.is_empty());
        assert_eq!(format!("{none:?}"), "TestFlags { input: [], output: [] }");
        let some = TestFlags::new(vec!["--n".into()], vec!["case_sensitive".into()]);
        assert_eq!(some.input, ["--n"]);
        assert_eq!(some.output, ["case_sensitive"]);
        assert_eq!(
            format!("{some:?}"),
            r#"TestFlags { input: ["--n"], output: ["case_sensitive"] }"#
        );
    }

    #[test]
    fn empty_folder_has_no_tests() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(find_tests(dir.path()), Err(Error::NoTests { .. })));
    }
}
