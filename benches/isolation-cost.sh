#!/bin/sh
# What the isolation layers cost per run: judges one fast reference solution of knight-pawns on its 35 tests
# with no optional layer, with each layer alone, and with all of them, side by side in one hyperfine run.
# The per-run cost of a layer is (its time - the time with none) / 35.
#
#   benches/isolation-cost.sh [hyperfine options]
set -eu
cd "$(dirname "$0")/.."
if ! command -v hyperfine >/dev/null; then
    echo "benches/isolation-cost.sh needs hyperfine (apt-get install hyperfine)" >&2
    exit 2
fi
cargo build --release --quiet
judge="target/release/cpjudge"
args="judge knight-pawns --submission problems/knight-pawns/solutions/memo_minimax.rs"
# Compile once and validate the tests once, so that every timed command only runs the tests.
$judge $args >/dev/null
# Ten runs each unless told otherwise (e.g. --runs 5).
[ $# -gt 0 ] || set -- --min-runs 10
exec hyperfine --warmup 2 -N "$@" \
    "$judge --layers none $args" \
    "$judge --layers cgroup $args" \
    "$judge --layers namespaces $args" \
    "$judge --layers landlock $args" \
    "$judge --layers seccomp $args" \
    "$judge --layers all $args"
