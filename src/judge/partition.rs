//! A share of a judge's runs, for spreading one judge over several machines: run (solution, test) belongs to
//! share K of N when a hash of the two names says so. The hash is of the names alone, so every machine given the
//! same problem and tests picks the same share, whatever order it finds them in.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// Share `index` (from 1) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    pub index: u32,
    pub count: u32,
}

impl Partition {
    /// Whether the run of `solution` on `test` is in this share.
    pub fn includes(&self, solution: &str, test: &str) -> bool {
        share_of(solution, test, self.count) == self.index
    }
}

/// The share (from 1) of `count` that the run of `solution` on `test` is in.
pub fn share_of(solution: &str, test: &str, count: u32) -> u32 {
    let digest = Sha256::new()
        .chain_update(solution.as_bytes())
        .chain_update([0])
        .chain_update(test.as_bytes())
        .finalize();
    let word = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (word % u64::from(count)) as u32 + 1
}

impl FromStr for Partition {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wrong = || format!("{text:?} is not a share K/N with 1 <= K <= N (say 2/3)");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let index: u32 = index.trim().parse().map_err(|_| wrong())?;
        let count: u32 = count.trim().parse().map_err(|_| wrong())?;
        if index == 0 || index > count {
            return Err(wrong());
        }
        Ok(Partition { index, count })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_read_and_checked() {
        assert_eq!(
            "2/3".parse::<Partition>(),
            Ok(Partition { index: 2, count: 3 })
        );
        for wrong in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"] {
            assert!(wrong.parse::<Partition>().is_err(), "{wrong}");
        }
    }

    #[test]
    fn every_run_is_in_exactly_one_share_and_the_shares_are_even() {
        let count = 3;
        let mut sizes = [0; 3];
        for solution in ["memo.rs", "greedy.cpp", "slow.py"] {
            for test in 0..200 {
                let test = format!("random-{test}");
                let shares: Vec<u32> = (1..=count)
                    .filter(|&index| Partition { index, count }.includes(solution, &test))
                    .collect();
                assert_eq!(shares.len(), 1, "{solution} on {test}: {shares:?}");
                sizes[shares[0] as usize - 1] += 1;
            }
        }
        // 600 runs in 3 shares: each within a fifth of 200.
        assert!(sizes.iter().all(|&n| (160..=240).contains(&n)), "{sizes:?}");
        // The same names, the same share, in every version: a change of hash would put the runs of machines with
        // different versions in different shares. (The SHA-256 of "memo.rs\0sample-1", first 8 bytes mod 1000.)
        assert_eq!(share_of("memo.rs", "sample-1", 1000), 356);
        assert_ne!(
            share_of("memo.rs", "ab", 1 << 20),
            share_of("memo.rsa", "b", 1 << 20)
        );
    }
}
