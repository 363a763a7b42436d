//! The headers a C or C++ program includes by name (`#include "testlib.h"`, `#include <testlib.h>`), found beside
//! it or in its problem's folder and copied into its build folder with it.
//!
//! A program is compiled from a copy in a folder of the cache, where the compiler reads nothing else: a header
//! beside the source would not be found there. So each include is looked for, in order, in the source's own folder
//! and then in the problem's (as `-I own -I problem` would), and the header found goes into the build folder beside
//! the source, and with it into the build's key: a changed header is a new build. An include in angle brackets
//! that names a file of the build folder is written with quotes in the build's copy ([`quote_own`]), where the
//! compiler looks beside the source; one that names nothing there (`<vector>`) is the compiler's. A header is read
//! as every file of a problem is: a regular file reached without following a link, never a FIFO or a device, of
//! bounded size; a name with a folder in it (`"../x.h"`, `"sub/x.h"`) is left to the compiler, which then says it
//! found nothing.

use crate::compile::Gathered;
use crate::error::{Error, Result};
use regex::bytes::{Captures, Regex};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The most headers one program takes: far more than any contest program includes.
const MOST_HEADERS: usize = 256;

/// The most one header may hold.
const HEADER_LIMIT: u64 = 16 << 20;

/// File names whose quoted includes are followed: C and C++ sources and headers.
const C_FAMILY: &[&str] = &[
    "c", "h", "cpp", "cc", "cxx", "c++", "C", "hpp", "hh", "hxx", "h++", "inl", "ipp", "tpp",
];

/// An include by a quoted name (its first group) or by a name in angle brackets (its second).
static INCLUDE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?m)^([ \t]*#[ \t]*include[ \t]*)(?:"([^"\r\n]+)"|<([^>\r\n]+)>)"#)
        .expect("a valid pattern")
});

/// Whether `path` is a C or C++ source or header, by its name.
fn c_family(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| C_FAMILY.contains(&e))
}

/// The name an include names, quoted or in angle brackets.
fn included(capture: &Captures) -> Option<String> {
    let name = capture.get(2).or_else(|| capture.get(3))?;
    std::str::from_utf8(name.as_bytes()).ok().map(str::to_owned)
}

/// Whether `name` names a file alone, with no folder.
fn plain(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    )
}

/// The includes of `text` that name a file alone (no folder), in order; of those in angle brackets, only the ones
/// named as a header is (`<testlib.h>`, not `<vector>`).
fn includes(text: &[u8]) -> Vec<String> {
    INCLUDE
        .captures_iter(text)
        .filter_map(|c| {
            let name = included(&c)?;
            let angled = c.get(3).is_some();
            (plain(&name) && (!angled || c_family(Path::new(&name)))).then_some(name)
        })
        .collect()
}

/// `text` with each include in angle brackets of one of `names` (the files of its build folder) written with
/// quotes, so that the compiler finds it beside the source as `-I` would have found it in its folder; the rest of
/// the line as it was, so that the compiler's messages keep their places. Borrowed when nothing changes.
pub(crate) fn quote_own<'t>(path: &Path, text: &'t [u8], names: &[String]) -> Cow<'t, [u8]> {
    if !c_family(path) {
        return Cow::Borrowed(text);
    }
    INCLUDE.replace_all(text, |c: &Captures| {
        let own = c.get(3).is_some() && included(c).is_some_and(|name| names.contains(&name));
        match own {
            true => [&c[1], b"\"", &c[3], b"\""].concat(),
            false => c[0].to_vec(),
        }
    })
}

/// The headers the C and C++ files among `main` and `others` include by a quoted name, and those they include in
/// turn, each found in the first of `roots` that holds it and not already among the program's files.
pub(crate) fn gather(
    main: &Gathered,
    others: &[Gathered],
    roots: &[&Path],
) -> Result<Vec<Gathered>> {
    let name_of = |path: &Path| path.file_name().map(|n| n.to_owned());
    let mut taken: Vec<_> = std::iter::once(main)
        .chain(others)
        .filter_map(|(path, _)| name_of(path))
        .collect();
    let mut pending: Vec<String> = std::iter::once(main)
        .chain(others)
        .filter(|(path, _)| c_family(path))
        .flat_map(|(_, text)| includes(text))
        .collect();
    let mut found = Vec::new();
    while let Some(name) = pending.pop() {
        if taken.iter().any(|t| t == name.as_str()) {
            continue;
        }
        taken.push(name.clone().into());
        let Some(header) = find(&name, roots)? else {
            continue;
        };
        if found.len() == MOST_HEADERS {
            return Err(Error::Usage(format!(
                "{}: a program may include at most {MOST_HEADERS} headers of its own",
                header.0.display()
            )));
        }
        if c_family(&header.0) {
            pending.extend(includes(&header.1));
        }
        found.push(header);
    }
    Ok(found)
}

/// The header `name` in the first of `roots` that has a file of that name; None if none has.
fn find(name: &str, roots: &[&Path]) -> Result<Option<Gathered>> {
    for root in roots {
        let path: PathBuf = root.join(name);
        match crate::untrusted::read(root, Path::new(name), HEADER_LIMIT) {
            Ok(bytes) => return Ok(Some((path, bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Error::Usage(format!(
                    "{}: an included header must be a regular file of at most {} in the program's or the \
                     problem's folder, not a link out of it: {e}",
                    path.display(),
                    crate::units::Bytes(HEADER_LIMIT)
                )));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_of_a_plain_name_are_read() {
        let text = b"#include <cstdio>\n#include \"testlib.h\"\n  #  include \"util.h\" // mine\n#include \"../up.h\"\n#include \"sub/x.h\"\n#include <bits/stdc++.h>\n#include <testlib.h>\n";
        assert_eq!(includes(text), ["testlib.h", "util.h", "testlib.h"]);
    }

    #[test]
    fn an_angle_include_of_a_file_of_the_build_is_quoted_and_the_rest_is_left() {
        let names = ["testlib.h".to_owned(), "main.cpp".to_owned()];
        let text = b"#include <vector>\n  # include <testlib.h> // the checker's\n#include \"testlib.h\"\nint x; // <testlib.h>\n";
        assert_eq!(
            quote_own(Path::new("main.cpp"), text, &names).as_ref(),
            b"#include <vector>\n  # include \"testlib.h\" // the checker's\n#include \"testlib.h\"\nint x; // <testlib.h>\n"
        );
        assert!(matches!(
            quote_own(Path::new("main.py"), text, &names),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn headers_are_found_beside_the_source_first_then_in_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let problem = dir.path();
        let own = problem.join("solutions");
        std::fs::create_dir(&own).unwrap();
        std::fs::write(
            problem.join("testlib.h"),
            "// problem's\n#include \"deep.h\"\n",
        )
        .unwrap();
        std::fs::write(problem.join("deep.h"), "// deep\n").unwrap();
        std::fs::write(problem.join("util.h"), "// problem's util\n").unwrap();
        std::fs::write(own.join("util.h"), "// own util\n").unwrap();
        let main = (
            own.join("a.cpp"),
            b"#include \"testlib.h\"\n#include \"util.h\"\n#include \"missing.h\"\n".to_vec(),
        );
        let mut found = gather(&main, &[], &[&own, problem]).unwrap();
        found.sort();
        assert_eq!(
            found,
            [
                (problem.join("deep.h"), b"// deep\n".to_vec()),
                (own.join("util.h"), b"// own util\n".to_vec()),
                (
                    problem.join("testlib.h"),
                    b"// problem's\n#include \"deep.h\"\n".to_vec()
                ),
            ]
        );
    }

    #[test]
    fn a_header_that_is_a_link_or_a_fifo_is_refused_by_name_quoted_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.h");
        std::fs::write(&outside, "secret").unwrap();
        let problem = dir.path().join("p");
        std::fs::create_dir(&problem).unwrap();
        std::os::unix::fs::symlink(&outside, problem.join("testlib.h")).unwrap();
        let fifo =
            std::ffi::CString::new(problem.join("fifo.h").into_os_string().into_encoded_bytes())
                .unwrap();
        // SAFETY: mkfifo reads a C string.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        for include in ["\"testlib.h\"", "<testlib.h>", "<fifo.h>"] {
            let main = (
                problem.join("checker.cpp"),
                format!("#include {include}\n").into_bytes(),
            );
            let error = gather(&main, &[], &[&problem]).unwrap_err().to_string();
            let name = &include[1..include.len() - 1];
            assert!(error.contains(name), "{error}");
            assert!(error.contains("not a link"), "{error}");
        }
    }

    #[test]
    fn other_languages_are_not_read_for_includes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.h"), "").unwrap();
        let main = (dir.path().join("a.py"), b"#include \"x.h\"\n".to_vec());
        assert!(gather(&main, &[], &[dir.path()]).unwrap().is_empty());
    }
}
