//! The problem a command works on: one of the project's, or a problem package given by its path, with where its
//! tests are and what its runs may not read.

use crate::error::Result;
use crate::problem::{Catalog, Problem, Test, find_inputs, find_tests, is_package};
use crate::sandbox::{Isolation, Layers, Sandbox};
use std::path::{Path, PathBuf};

pub(super) struct Target {
    pub problem: Problem,
    /// The problem's tests folder: testdata/<name>, or a package's data/.
    pub tests_dir: PathBuf,
    /// Where new tests go: the tests folder, or a package's data/secret.
    pub new_tests_dir: PathBuf,
    /// Folders hidden from solutions besides the tests, the cache and the temporary folder.
    pub private_dirs: Vec<PathBuf>,
    /// The project's folder, for a problem of a project.
    pub project_root: Option<PathBuf>,
}

impl Target {
    /// `given` as the user named it: a path to a package folder (no project needed), or a problem of the project.
    pub fn find(project: Result<Catalog>, cwd: &Path, given: &Path) -> Result<Target> {
        let path = cwd.join(given);
        if is_package(&path) {
            let dir = std::fs::canonicalize(&path).unwrap_or(path);
            let problem = Problem::load_package(&dir)?;
            return Ok(Target {
                tests_dir: dir.join("data"),
                new_tests_dir: dir.join("data").join("secret"),
                private_dirs: vec![dir],
                project_root: None,
                problem,
            });
        }
        let catalog = project?;
        let problem = catalog.load_given(given, cwd)?;
        Ok(Target::in_project(&catalog, problem))
    }

    /// The problem of the project named `name`, as a command over every problem takes each.
    pub fn of(catalog: &Catalog, name: &str) -> Result<Target> {
        Ok(Target::in_project(catalog, catalog.load(name)?))
    }

    /// The project's problem `problem`, loaded already.
    pub fn in_project(catalog: &Catalog, problem: Problem) -> Target {
        let tests_dir = catalog.testdata_dir(&problem.name);
        Target {
            new_tests_dir: tests_dir.clone(),
            tests_dir,
            private_dirs: catalog.private_dirs(),
            project_root: Some(catalog.root().to_owned()),
            problem,
        }
    }

    /// Says on standard error what a package holds that is read otherwise than its format says, for the commands
    /// whose report has no place for it (the judge's report has).
    pub fn warn_package(&self) {
        if let Some(package) = &self.problem.package {
            crate::report::warn_package(&package.warnings);
        }
    }

    /// The sandbox for this problem's runs (see [`super::session::prepare_sandbox`]): its private folders and
    /// its tests hidden from solutions.
    pub fn sandbox(
        &self,
        layers: &Layers,
        strict: bool,
        cache: &Path,
    ) -> Result<(Sandbox, Isolation)> {
        super::session::prepare_sandbox(
            layers,
            strict,
            self.private_dirs.clone(),
            &self.tests_dir,
            cache,
        )
    }

    /// The tests of `dir`, or of the problem's tests folder.
    pub fn tests(&self, dir: Option<&Path>) -> Result<Vec<Test>> {
        tests_in(&self.problem, dir.unwrap_or(&self.tests_dir))
    }

    /// The tests a judge of the problem's tests folder runs (see [`judged_in`]).
    pub fn judged_tests(&self) -> Result<Vec<Test>> {
        judged_in(&self.problem, &self.tests_dir)
    }

    /// As `tests`, where a test needs no answer (to validate it).
    pub fn inputs(&self, dir: Option<&Path>) -> Result<Vec<Test>> {
        let dir = dir.unwrap_or(&self.tests_dir);
        match package_tests(&self.problem, dir) {
            Some(tests) => Ok(tests),
            None => find_inputs(dir),
        }
    }
}

/// The tests of `dir`: a package's own, in its order and with its groups' flags, when `dir` is the package's data
/// folder; otherwise the folder's.
fn tests_in(problem: &Problem, dir: &Path) -> Result<Vec<Test>> {
    match package_tests(problem, dir) {
        Some(tests) => Ok(tests),
        None => find_tests(dir),
    }
}

/// The tests a judge of `dir` runs: those of [`tests_in`], and, when they are a package's own, its groups' static
/// validation test cases; its inputs alone, for a problem whose outputs are shown rather than judged.
pub(super) fn judged_in(problem: &Problem, dir: &Path) -> Result<Vec<Test>> {
    if problem.comparison == crate::problem::Comparison::Shown {
        return find_inputs(dir);
    }
    match (package_tests(problem, dir), &problem.package) {
        (Some(tests), Some(package)) => Ok(package.with_static_cases(tests)),
        _ => find_tests(dir),
    }
}

fn package_tests(problem: &Problem, dir: &Path) -> Option<Vec<Test>> {
    let package = problem.package.as_ref()?;
    same_folder(dir, &problem.dir.join("data")).then(|| package.tests.clone())
}

fn same_folder(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
