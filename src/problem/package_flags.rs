//! The validators' flags of a package's test: every group file from `data/` down to its folder, then the test's
//! own file, the nearest winning key by key.

use super::TestFlags;
use super::constants::Constants;
use super::package::{parse_yaml, read_yaml};
use super::package_groups::group_file;
use super::yaml_keys::Version;
use crate::error::Result;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A group's or a test's file: the keys that give the validators their flags.
#[derive(Deserialize, Default, Clone)]
struct RawGroup {
    input_validator_flags: Option<Args>,
    output_validator_flags: Option<Args>,
    input_validator_args: Option<Args>,
    output_validator_args: Option<Args>,
}

/// Arguments as one string or as a list.
#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum Args {
    Line(String),
    List(Vec<String>),
    /// 2023-07 and 2025-09 give input validators' arguments per validator name; all of them are passed to every
    /// validator.
    PerValidator(BTreeMap<String, Args>),
}

impl Args {
    fn words(&self) -> Vec<String> {
        match self {
            Args::Line(line) => line.split_whitespace().map(str::to_owned).collect(),
            Args::List(list) => list.clone(),
            Args::PerValidator(map) => map.values().flat_map(Args::words).collect(),
        }
    }
}

/// The flags of a test: every group file from `data/` down to its folder, then the test's own file, the nearest
/// winning key by key. A group file's `constants` sequences are replaced before it is read (2025-09).
pub(super) fn group_flags(
    data: &Path,
    input: &Path,
    problem_flags: &[String],
    version: Version,
    constants: &Constants,
) -> Result<TestFlags> {
    let mut group = RawGroup::default();
    let folder = input.parent().unwrap_or(data);
    let below = folder.strip_prefix(data).unwrap_or(Path::new(""));
    let mut at = data.to_owned();
    let mut files = Vec::new();
    for step in std::iter::once(None).chain(below.components().map(Some)) {
        if let Some(step) = step {
            at.push(step);
        }
        files.extend(group_file(&at, version));
    }
    let groups = files.len();
    let own = input.with_extension("yaml");
    if own.is_file() {
        files.push(own);
    }
    for (i, file) in files.iter().enumerate() {
        let here: RawGroup = if i < groups {
            parse_yaml(file, &super::package::read_group_text(file, constants)?)?
        } else {
            read_yaml(file)?
        };
        group.input_validator_flags = here.input_validator_flags.or(group.input_validator_flags);
        group.output_validator_flags = here.output_validator_flags.or(group.output_validator_flags);
        group.input_validator_args = here.input_validator_args.or(group.input_validator_args);
        group.output_validator_args = here.output_validator_args.or(group.output_validator_args);
    }
    let words = |a: &Option<Args>, b: &Option<Args>| {
        a.iter()
            .chain(b.iter())
            .flat_map(Args::words)
            .collect::<Vec<_>>()
    };
    let mut output = problem_flags.to_vec();
    output.extend(words(
        &group.output_validator_flags,
        &group.output_validator_args,
    ));
    Ok(TestFlags::new(
        words(&group.input_validator_flags, &group.input_validator_args),
        output,
    ))
}
