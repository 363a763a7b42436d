//! A problem's groups before its tests are known: which tests each group takes (a folder of a package, globs of
//! `problem.toml`), and the rule of each. Given the tests being judged, it becomes a [`Tree`].

use super::tree::{Group, Item, Rule, Tree};
use crate::problem::{Test, TestKind};

#[derive(Debug, Clone)]
pub struct Grouping {
    pub root: GroupSpec,
    /// Whether items are ordered by name (a package's folders, as the format says) or as listed.
    pub by_name: bool,
}

#[derive(Debug, Clone)]
pub struct GroupSpec {
    pub name: String,
    pub rule: Rule,
    pub takes: Takes,
    pub children: Vec<GroupSpec>,
}

/// Which tests a group takes: the deepest group that takes a test holds it.
#[derive(Debug, Clone)]
pub enum Takes {
    /// Every test below this folder (a test's name with `/` between folders: "secret/small/").
    Folder(String),
    /// Every test a glob matches, by name.
    Globs(Vec<globset::GlobMatcher>),
    /// Every sample, as [`Test::is_sample`] tells them.
    Samples,
}

impl Takes {
    fn takes(&self, name: &str) -> bool {
        match self {
            Takes::Folder(folder) => name.starts_with(folder.as_str()),
            Takes::Globs(globs) => globs.iter().any(|g| g.is_match(name)),
            Takes::Samples => crate::problem::is_sample_name(name),
        }
    }
}

impl Grouping {
    /// The group a test called `name` would be in (the deepest that takes it), if any; an error if two groups at
    /// one depth take it.
    pub fn group_of(&self, name: &str) -> Result<Option<&GroupSpec>, String> {
        let specs = self.specs();
        Ok(deepest(&specs, name)?.map(|id| specs[id].0))
    }

    /// The group called `name`, at any depth.
    pub fn named(&self, name: &str) -> Option<&GroupSpec> {
        self.specs()
            .into_iter()
            .map(|(s, _)| s)
            .find(|s| s.name == name)
    }

    /// Every group, with its depth, parents first.
    fn specs(&self) -> Vec<(&GroupSpec, usize)> {
        let mut specs = Vec::new();
        collect(&self.root, 0, &mut specs);
        specs
    }

    /// The names of the groups below the root, parents first.
    pub fn names(&self) -> Vec<&str> {
        self.specs()[1..]
            .iter()
            .map(|(s, _)| s.name.as_str())
            .collect()
    }

    /// The tree of `tests` (in the order found), and the tests in the tree's order, which the tree's numbers
    /// refer to; an error naming a test that no group takes, or two groups at once.
    pub fn tree<'t>(&self, tests: &'t [Test]) -> Result<(Tree, Vec<&'t Test>), String> {
        let specs = self.specs();
        let mut placed: Vec<Vec<usize>> = vec![Vec::new(); specs.len()];
        for (index, test) in tests.iter().enumerate() {
            let Some(id) = deepest(&specs, &test.name)? else {
                return Err(format!("test {} is in no group", test.name));
            };
            placed[id].push(index);
        }
        let mut order = Vec::new();
        let mut next = 0;
        let root = self.build(&self.root, &specs, &placed, tests, &mut order, &mut next);
        let ordered: Vec<&Test> = order.iter().map(|&i| &tests[i]).collect();
        Ok((Tree { root, scored: true }, ordered))
    }

    fn build(
        &self,
        spec: &GroupSpec,
        specs: &[(&GroupSpec, usize)],
        placed: &[Vec<usize>],
        tests: &[Test],
        order: &mut Vec<usize>,
        next: &mut usize,
    ) -> Group {
        let id = specs
            .iter()
            .position(|(s, _)| std::ptr::eq(*s, spec))
            .expect("every spec is collected");
        // Each item with the name it is ordered by: a test's own, a group's.
        enum Entry<'a> {
            Test(usize),
            Group(&'a GroupSpec),
        }
        let mut entries: Vec<(String, Entry)> = placed[id]
            .iter()
            .map(|&t| (tests[t].name.to_string(), Entry::Test(t)))
            .chain(
                spec.children
                    .iter()
                    .map(|c| (format!("{}/", c.name), Entry::Group(c))),
            )
            .collect();
        if self.by_name {
            entries.sort_by(|a, b| natord::compare(&a.0, &b.0));
        }
        // A group's static validation test case is judged first: it runs no submission, and a rejection there
        // stops a pass-fail group before any of its tests runs.
        entries
            .sort_by_key(|(_, entry)| !matches!(entry, Entry::Test(t) if !tests[*t].has_files()));
        let mut items = Vec::new();
        for (_, entry) in entries {
            match entry {
                Entry::Test(t) => {
                    order.push(t);
                    items.push(match &tests[t].kind() {
                        TestKind::Output => Item::Test(*next),
                        TestKind::Static(case) => Item::Static {
                            test: *next,
                            score: case.score,
                        },
                    });
                    *next += 1;
                }
                Entry::Group(child) => {
                    let group = self.build(child, specs, placed, tests, order, next);
                    // A group none of whose tests is judged is left out, as if it were not there.
                    if !group.tests().is_empty() {
                        items.push(Item::Group(Box::new(group)));
                    }
                }
            }
        }
        Group {
            name: spec.name.clone(),
            rule: spec.rule.clone(),
            items,
        }
    }
}

/// Of `specs` (with their depths), the deepest that takes a test called `name`.
fn deepest(specs: &[(&GroupSpec, usize)], name: &str) -> Result<Option<usize>, String> {
    let mut best: Option<(usize, usize)> = None;
    let mut tie = None;
    for (id, &(spec, depth)) in specs.iter().enumerate() {
        if !spec.takes.takes(name) {
            continue;
        }
        match best {
            Some((_, d)) if d > depth => {}
            Some((other, d)) if d == depth => tie = Some((other, id)),
            _ => {
                best = Some((id, depth));
                tie = None;
            }
        }
    }
    if let Some((a, b)) = tie {
        return Err(format!(
            "test {name} is in two groups, {} and {}: a test belongs to one group",
            specs[a].0.name, specs[b].0.name
        ));
    }
    Ok(best.map(|(id, _)| id))
}

fn collect<'a>(spec: &'a GroupSpec, depth: usize, out: &mut Vec<(&'a GroupSpec, usize)>) {
    out.push((spec, depth));
    for child in &spec.children {
        collect(child, depth + 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::tree::LegacyRule;

    fn test(name: &str) -> Test {
        Test {
            name: name.into(),
            files: crate::problem::Files::at(
                std::path::Path::new(&format!("{name}.in")),
                std::path::PathBuf::from(format!("{name}.ans")),
            ),
            judging: crate::problem::Judging::new(Default::default(), Default::default()),
        }
    }

    fn folder(name: &str, children: Vec<GroupSpec>) -> GroupSpec {
        GroupSpec {
            name: name.into(),
            rule: Rule::Legacy(LegacyRule::default()),
            takes: Takes::Folder(if name.is_empty() {
                String::new()
            } else {
                format!("{name}/")
            }),
            children,
        }
    }

    #[test]
    fn the_samples_group_takes_what_the_judge_calls_a_sample() {
        for sample in [
            "sample-1",
            "Sample2",
            "samples/1",
            "a/sample/3",
            "x/sample-4",
        ] {
            assert!(Takes::Samples.takes(sample), "{sample}");
        }
        for other in ["samplesets/1", "large/1", "resample-1", "samples-extra/1"] {
            assert!(!Takes::Samples.takes(other), "{other}");
        }
    }

    #[test]
    fn tests_go_to_their_deepest_folder_in_name_order() {
        let grouping = Grouping {
            root: folder(
                "",
                vec![
                    folder(
                        "secret",
                        vec![
                            folder("secret/b", vec![]),
                            folder("secret/a", vec![]),
                            folder("secret/empty", vec![]),
                        ],
                    ),
                    folder("sample", vec![]),
                ],
            ),
            by_name: true,
        };
        let tests: Vec<Test> = [
            "sample/1",
            "secret/a/2",
            "secret/a/10",
            "secret/b/1",
            "secret/c",
        ]
        .map(test)
        .to_vec();
        let (tree, ordered) = grouping.tree(&tests).unwrap();
        let names: Vec<&str> = ordered.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "sample/1",
                "secret/a/2",
                "secret/a/10",
                "secret/b/1",
                "secret/c"
            ]
        );
        let groups: Vec<&str> = tree.groups().iter().map(|g| g.name.as_str()).collect();
        assert_eq!(groups, ["", "sample", "secret", "secret/a", "secret/b"]);
        assert_eq!(tree.order(), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_groups_static_case_comes_first_whatever_its_name() {
        let grouping = Grouping {
            root: folder("", vec![folder("secret", vec![folder("secret/a", vec![])])]),
            by_name: true,
        };
        let static_case = |name: &str, points| Test {
            judging: crate::problem::Judging::new(
                Default::default(),
                TestKind::static_case(crate::scoring::StaticScore::Points(points), Vec::new()),
            ),
            ..test(name)
        };
        let tests = vec![
            test("secret/a/1"),
            static_case("secret/a/@static", 5),
            test("secret/0"),
            static_case("secret/@static", 7),
        ];
        let (tree, ordered) = grouping.tree(&tests).unwrap();
        let names: Vec<&str> = ordered.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "secret/@static",
                "secret/0",
                "secret/a/@static",
                "secret/a/1"
            ]
        );
        let secret = tree.groups()[1].clone();
        assert_eq!(secret.name, "secret");
        assert_eq!(
            secret.items[0],
            Item::Static {
                test: 0,
                score: crate::scoring::StaticScore::Points(7)
            }
        );
        let Item::Group(a) = &secret.items[2] else {
            panic!("{secret:?}")
        };
        assert_eq!(
            a.items,
            [
                Item::Static {
                    test: 2,
                    score: crate::scoring::StaticScore::Points(5)
                },
                Item::Test(3)
            ]
        );
        assert_eq!(tree.order(), [0, 1, 2, 3]);
    }

    #[test]
    fn a_test_in_no_group_or_two_is_named() {
        let glob = |g: &str| globset::Glob::new(g).unwrap().compile_matcher();
        let spec = |name: &str, g: &str| GroupSpec {
            name: name.into(),
            rule: Rule::Legacy(LegacyRule::default()),
            takes: Takes::Globs(vec![glob(g)]),
            children: vec![],
        };
        let grouping = Grouping {
            root: GroupSpec {
                children: vec![spec("small", "small-*"), spec("odd", "*-1")],
                ..spec("", "nothing")
            },
            by_name: false,
        };
        assert_eq!(
            grouping.tree(&[test("large-2")]).unwrap_err(),
            "test large-2 is in no group"
        );
        let error = grouping.tree(&[test("small-1")]).unwrap_err();
        assert!(error.contains("two groups, small and odd"), "{error}");
        let tests = [test("small-2"), test("big-1")];
        let (_, ordered) = grouping.tree(&tests).unwrap();
        assert_eq!(ordered[1].name, "big-1");
    }
}
