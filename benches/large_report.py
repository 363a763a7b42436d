"""Writes (on stdout) the JSON report of a large judge, as `judge --json` would: 50 solutions x 500 tests, every
test run. Thirty solutions pass every test; ten fail from some test on with WA, with a message and a diff; ten
with TLE. Times and memory are drawn from a seeded generator, so every run writes the same report.
"""

import json
import random

SOLUTIONS = 50
TESTS = 500

rng = random.Random(13)
tests = [f"group-{i // 50:02d}/test-{i:03d}" for i in range(TESTS)]
solutions = []
for s in range(SOLUTIONS):
    expected = "AC" if s < 30 else "WA" if s < 40 else "TLE"
    first_failure = TESTS if expected == "AC" else rng.randrange(50, TESTS)
    runs = []
    for i, name in enumerate(tests):
        verdict = "AC" if i < first_failure else expected
        cpu_us = 1_000_000 if verdict == "TLE" else rng.randrange(1_000, 600_000)
        run = {
            "name": name,
            "verdict": verdict,
            "time_ms": cpu_us // 1000,
            "time_us": cpu_us,
            "wall_ms": cpu_us // 1000 + rng.randrange(0, 5),
            "memory_kib": rng.randrange(2_000, 200_000),
            "message": {
                "AC": "",
                "WA": f'line 1, token 3: expected "{i}", found "{i + 1}"',
                "TLE": "CPU time 1.00s over the 1s limit",
            }[verdict],
        }
        if verdict == "WA":
            run["diff"] = f"-{i}\n+{i + 1}"
        runs.append(run)
    solutions.append({
        "name": f"solution_{s:02d}.cpp",
        "path": f"/problems/large/solutions/solution_{s:02d}.cpp",
        "language": "C++",
        "expected": [expected],
        "verdict": expected,
        "ok": True,
        "compile": {"ok": True, "cached": True, "time_ms": 0, "message": ""},
        "tests": runs,
    })
layer = {"active": True, "detail": "in force"}
print(json.dumps({
    "problem": "large",
    "time_limit_ms": 1000,
    "memory_limit_kib": 262144,
    "ok": True,
    "tests": tests,
    "all_tests": True,
    "solutions": solutions,
    "isolation": {name: layer for name in ("cgroup", "namespaces", "landlock", "seccomp")},
    "harness": {"peak_memory": 0},
    "host": "bench",
    "date": "2026-01-01T00:00:00Z",
}))
