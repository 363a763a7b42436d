//! Which languages can be judged on this machine, and which cpjudge must judge where they can.

use std::collections::BTreeMap;

/// The languages cpjudge judges wherever their compiler is present: a submission in one of them must be judged
/// then, never skipped. Others may be skipped even where their compiler is present (cpjudge may not know them);
/// where it is absent, every submission must be skipped. Extend this list as the language table grows.
pub const JUDGED_WHERE_PRESENT: &[&str] = &["c", "cpp", "python3", "java", "rust"];

/// The programs that tell a language's compiler or interpreter is on this machine, each with arguments that make
/// it answer at once: any one of them that runs. Running it, not only finding it, since a version manager's shim
/// (pyenv's python2) is on PATH whether or not that version is installed.
pub fn tools(language: &str) -> &'static [(&'static str, &'static [&'static str])] {
    const VERSION: &[&str] = &["--version"];
    match language {
        "c" => &[("gcc", VERSION)],
        "cpp" => &[("g++", VERSION)],
        "python3" => &[("python3", VERSION)],
        "python2" => &[("python2", VERSION)],
        "java" => &[("javac", &["-version"])],
        "kotlin" => &[("kotlinc", &["-version"])],
        "rust" => &[("rustc", VERSION)],
        "go" => &[("go", &["version"])],
        "javascript" => &[("node", VERSION), ("nodejs", VERSION)],
        "csharp" => &[("mcs", VERSION), ("dotnet", VERSION)],
        "haskell" => &[("ghc", VERSION)],
        "ocaml" => &[("ocaml", &["-version"])],
        "php" => &[("php", VERSION)],
        "ruby" => &[("ruby", VERSION)],
        "lisp" => &[("sbcl", VERSION)],
        "prolog" => &[("swipl", VERSION)],
        "scala" => &[("scalac", &["-version"])],
        "bash" => &[("bash", VERSION)],
        "sh" => &[("sh", &["-c", "true"])],
        "awk" => &[("awk", &["BEGIN {}"])],
        "lua" => &[("lua", &["-v"])],
        "pascal" => &[("fpc", &["-iV"])],
        "fortran" => &[("gfortran", VERSION)],
        "ada" => &[("gnatmake", VERSION)],
        "r" => &[("Rscript", VERSION)],
        "swift" => &[("swiftc", VERSION)],
        "perl" => &[("perl", VERSION)],
        other => panic!("expected.toml names a language the test does not know: {other}"),
    }
}

/// Whether the language can be compiled or run here; asked once per language, since packages share languages.
pub fn present(language: &str) -> bool {
    static FOUND: std::sync::Mutex<BTreeMap<String, bool>> = std::sync::Mutex::new(BTreeMap::new());
    if let Some(&found) = FOUND.lock().unwrap().get(language) {
        return found;
    }
    let found = tools(language).iter().any(|(tool, args)| {
        std::process::Command::new(tool)
            .args(*args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    });
    FOUND.lock().unwrap().insert(language.to_owned(), found);
    found
}
