//! Compile flags chosen for a language instead of its table's `flags`: by a problem (`[flags]` in problem.toml) or
//! on the command line (`--lang-flags cpp='-std=gnu++20 -O2'`). The user's and a project's `languages.toml` set a
//! language's own `flags`, as they set any key of the table: one table, and these choices over it.

use super::{Language, Spec, table};
use std::collections::BTreeMap;

/// Flags by language key, each list replacing the language's `flags` where `{flags}` stands in its compile
/// command. A build's cache key holds its compile command, flags and all, so other flags are another build.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags(BTreeMap<String, Vec<String>>);

impl Flags {
    /// Flags for one language, as given: `KEY=FLAGS`, the flags split at spaces (never given to a shell).
    pub fn parse_one(text: &str) -> Result<(String, Vec<String>), String> {
        let (key, flags) = text
            .split_once('=')
            .ok_or_else(|| format!("{text:?} is not KEY=FLAGS (\"cpp=-std=gnu++20 -O2\")"))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("{text:?} names no language before `=`"));
        }
        Ok((
            key.to_owned(),
            flags.split_whitespace().map(str::to_owned).collect(),
        ))
    }

    /// Chooses `flags` for the language `key`, in place of any chosen before; a key of no language, or of one
    /// whose compile command has no `{flags}`, is refused, saying why.
    pub fn choose(&mut self, key: &str, flags: Vec<String>) -> Result<(), String> {
        let table = table::get();
        let Some(language) = table.position(|s| s.id == key) else {
            let known: Vec<&str> = table
                .languages()
                .filter(|(_, s)| s.takes_flags())
                .map(|(_, s)| s.id.as_str())
                .collect();
            return Err(format!(
                "`{key}` is no language's key (flags go to: {})",
                known.join(", ")
            ));
        };
        if !table.spec(language).takes_flags() {
            return Err(format!(
                "{} takes no flags: its compile command has no `{{flags}}` (see languages.toml)",
                table.spec(language).name
            ));
        }
        self.0.insert(key.to_owned(), flags);
        Ok(())
    }

    /// These choices with `later`'s over them, language by language.
    pub fn over(&self, later: &Flags) -> Flags {
        let mut all = self.clone();
        all.0
            .extend(later.0.iter().map(|(k, v)| (k.clone(), v.clone())));
        all
    }

    /// The flags `language` is compiled with: those chosen, or its table's own.
    pub fn of(&self, language: Language) -> &[String] {
        let spec: &Spec = language.spec();
        self.0.get(&spec.id).unwrap_or(&spec.flags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_chosen_by_language_over_the_tables() {
        let cpp = Language::shipped("cpp");
        let mut flags = Flags::default();
        assert_eq!(flags.of(cpp), ["-O2", "-std={std}"]);
        let (key, words) = Flags::parse_one("cpp=-std=gnu++20  -O2 -DLOCAL").unwrap();
        flags.choose(&key, words).unwrap();
        assert_eq!(flags.of(cpp), ["-std=gnu++20", "-O2", "-DLOCAL"]);
        let mut later = Flags::default();
        later.choose("cpp", vec!["-O0".into()]).unwrap();
        assert_eq!(flags.over(&later).of(cpp), ["-O0"]);
        assert_eq!(flags.of(Language::shipped("c")), ["-O2", "-std=gnu17"]);
        assert!(Flags::parse_one("-O2").is_err());
        assert!(flags.choose("cobol", vec![]).unwrap_err().contains("cpp"));
        assert!(
            flags
                .choose("python3", vec![])
                .unwrap_err()
                .contains("no flags")
        );
    }
}
