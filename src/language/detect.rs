//! Which language a program is, from its files.
//!
//! Each file counts for every language whose patterns its name matches, unless the language gates files of that
//! name on their first bytes (a `.py` file is Python 2 only with a `#!...python2` line). The language with the most
//! files wins, the higher priority on a tie; then, of that language and its variants (CPython and PyPy), the one
//! preferred: by `--prefer`, else by the rules the program is judged under.

use super::Language;
use super::table::Table;
use std::path::{Path, PathBuf};

/// Whose conventions a program follows where the table leaves a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// A problem of our own: the languages as the table ranks them (CPython for Python).
    Project,
    /// A problem package, judged as Kattis and problemtools do: Python with PyPy where it is installed.
    Package,
}

/// How much of a file is read to check a gate: a first line, or the first clauses of a Prolog program.
const HEAD: usize = 64 << 10;

pub(super) fn language_of(table: &Table, files: &[PathBuf], rules: Rules) -> Option<Language> {
    let heads: Vec<std::cell::OnceCell<String>> =
        files.iter().map(|_| Default::default()).collect();
    let evidence = |spec: &super::Spec| {
        files
            .iter()
            .zip(&heads)
            .filter(|(file, head)| {
                spec.claims(file)
                    && spec.passes_gate(file, &mut || head.get_or_init(|| read_head(file)).clone())
            })
            .count()
    };
    let base = table
        .languages()
        .filter(|(_, spec)| spec.variant_of.is_none())
        .map(|(language, spec)| (evidence(spec), spec.priority, language))
        .filter(|(count, ..)| *count > 0)
        .max()
        .map(|(.., language)| language)?;
    Some(preferred(table, base, rules))
}

/// `base` or the variant of it that is preferred.
fn preferred(table: &Table, base: Language, rules: Rules) -> Language {
    let id = &table.spec(base).id;
    let family = |language: &Language| {
        language == &base || table.spec(*language).variant_of.as_ref() == Some(id)
    };
    if let Some(chosen) = table.prefer.iter().find(|l| family(l)) {
        return *chosen;
    }
    match rules {
        Rules::Project => base,
        // Kattis runs Python with PyPy: so does a package's judge, where PyPy is installed.
        Rules::Package => table
            .languages()
            .filter(|(language, spec)| {
                *language != base
                    && family(language)
                    && spec.preferred_in_packages
                    && spec
                        .interpreter()
                        .is_some_and(|tool| which::which(tool).is_ok())
            })
            .map(|(language, _)| language)
            .next()
            .unwrap_or(base),
    }
}

fn read_head(path: &Path) -> String {
    String::from_utf8_lossy(&crate::text::read_head(path, HEAD)).into_owned()
}
