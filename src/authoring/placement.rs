//! Which group a new test joins: `--group` names it, and a new test's name must land in it, so that no test is
//! added to a problem with groups and left in none (which the judge would refuse) or in another one.

use crate::error::{Error, Result};
use crate::scoring::{GroupSpec, Grouping, Takes};
use std::path::Path;

/// Where new tests go among a problem's groups.
pub struct Placement<'a> {
    grouping: Option<&'a Grouping>,
    /// The group asked for with `--group`.
    group: Option<&'a GroupSpec>,
    /// The folder new tests are written in, as a prefix of test names ("" or "secret/").
    base: String,
    /// What goes before a new test's name, below the folder new tests are written in: the group's folder.
    prefix: String,
}

impl<'a> Placement<'a> {
    /// New tests go below `new_tests_dir`, a folder of `tests_dir` (whose test names the groups match), into
    /// `group` if one is named.
    pub fn new(
        problem: &str,
        grouping: Option<&'a Grouping>,
        tests_dir: &Path,
        new_tests_dir: &Path,
        group: Option<&str>,
    ) -> Result<Placement<'a>> {
        let base = match new_tests_dir.strip_prefix(tests_dir) {
            Ok(below) if below.as_os_str().is_empty() => String::new(),
            Ok(below) => format!("{}/", below.to_string_lossy()),
            Err(_) => String::new(),
        };
        let Some(asked) = group else {
            return Ok(Placement {
                grouping,
                group: None,
                base,
                prefix: String::new(),
            });
        };
        let Some(grouping) = grouping else {
            return Err(Error::Usage(format!(
                "--group {asked}: {problem} has no test groups ([[groups]] in its problem.toml, or a scoring \
                 package's data/ folders)"
            )));
        };
        let Some(spec) = grouping.named(asked) else {
            return Err(Error::Usage(format!(
                "--group {asked}: {problem} has no group so named; its groups are {}",
                grouping.names().join(", ")
            )));
        };
        let prefix = match &spec.takes {
            Takes::Folder(folder) => match folder.strip_prefix(base.as_str()) {
                Some(below) => below.to_owned(),
                None => {
                    return Err(Error::Usage(format!(
                        "--group {asked}: its tests are in {}, and new tests go in {}",
                        tests_dir.join(folder).display(),
                        new_tests_dir.display()
                    )));
                }
            },
            // A group of globs takes the names it matches: the name given must be one.
            Takes::Globs(_) | Takes::Samples => String::new(),
        };
        Ok(Placement {
            grouping: Some(grouping),
            group: Some(spec),
            base,
            prefix,
        })
    }

    /// `name`, for a test of the group: within its folder.
    pub fn name(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// Whether a new test called `name` (below the folder new tests go in) is in the group asked for or, with none
    /// asked for, in some group; an error saying which group to ask for if not.
    pub fn check(&self, name: &str) -> Result<()> {
        let Some(grouping) = self.grouping else {
            return Ok(());
        };
        let full = format!("{}{name}", self.base);
        let found = grouping.group_of(&full).map_err(Error::Usage)?;
        let groups = grouping.names().join(", ");
        match (found, self.group) {
            (Some(found), Some(asked)) if std::ptr::eq(found, asked) => Ok(()),
            (Some(_), None) => Ok(()),
            (found, Some(asked)) => Err(Error::Usage(format!(
                "a test named {name} would be in {}, not in group {}: name it so that the group takes it ({})",
                found.map_or("no group".to_owned(), |g| format!("group {}", g.name)),
                asked.name,
                takes(asked)
            ))),
            (_, None) => Err(Error::Usage(format!(
                "a test named {name} would be in no group: say which group it joins with --group ({groups})"
            ))),
        }
    }
}

/// What a group takes, in words.
fn takes(group: &GroupSpec) -> String {
    match &group.takes {
        Takes::Folder(folder) => format!("the tests in {folder}"),
        Takes::Globs(globs) => {
            let globs: Vec<&str> = globs.iter().map(|g| g.glob().glob()).collect();
            format!("the tests named {}", globs.join(" or "))
        }
        Takes::Samples => {
            "the samples: names starting with \"sample\", or in a folder sample/ or samples/"
                .to_owned()
        }
    }
}
