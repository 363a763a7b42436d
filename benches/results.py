"""Writes RESULTS.md (on stdout) from what benches/run measured in its work folder (the first argument).

Every figure is a median of the timed runs, with the spread (minimum to maximum) beside it; every target says
whether this run met it. The hand-written analysis in benches/analysis.md (profiles, what each change bought,
what would close a target that is not met) follows the measured part.
"""

import datetime
import json
import os
import platform
import statistics
import sys

WORK = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
TINY_TESTS = 1000
SPIN_TESTS = 20
REFERENCE_RUNS = 20
MIB = 1 << 20


def load(name):
    with open(os.path.join(WORK, name)) as f:
        return json.load(f)


def timings(name):
    """The runs of a hyperfine export, by command name: median, minimum and maximum in seconds."""
    return {
        r["command"]: (statistics.median(r["times"]), min(r["times"]), max(r["times"]))
        for r in load(name)["results"]
    }


def ms(seconds):
    return f"{seconds * 1e3:.2f} ms"


def spread(t, per=1):
    median, low, high = (x / per for x in t)
    return f"{ms(median)} ({ms(low)} to {ms(high)})"


def met(ok):
    return "met" if ok else "**not met**"


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) // (1 << 20)
    return f"{model}, {os.cpu_count()} cores, {memory} GiB; Linux {platform.release()}"


def layers():
    isolation = load("doctor.json")["isolation"]
    on = [name for name, status in isolation.items() if status["active"]]
    off = [f"{name} ({status['detail']})" for name, status in isolation.items() if not status["active"]]
    return ", ".join(on) or "none", "; ".join(off)


def cpu_of_runs(report):
    """Total CPU time (seconds) and number of runs of every solution in a judge's JSON report."""
    tests = [t for s in report["solutions"] for t in s["tests"]]
    return sum(t["time_us"] for t in tests) / 1e6, len(tests)


def main():
    out = []
    say = out.append
    on, off = layers()
    say("# Benchmark results\n")
    say("Written by `benches/run`; every figure is measured in the same run, medians with the spread (fastest to")
    say("slowest run) in brackets.\n")
    say(f"- Machine: {machine()}")
    say(f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    say(f"- Isolation layers active: {on}" + (f"; off: {off}" if off else ""))
    say("")
    targets = []

    # 1. Overhead.
    t = timings("overhead.json")
    floor = t["floor: a C loop"][0]
    say(f"## 1. Overhead per test ({TINY_TESTS} tiny knight-pawns tests, one C++ program)\n")
    say("| what runs each test | per test | x floor |")
    say("| --- | --- | --- |")
    for name, times in t.items():
        say(f"| {name} | {spread(times, TINY_TESTS)} | {times[0] / floor:.2f} |")
    say("")
    every, none, oj, bwrap = (
        t["cpjudge, every layer"][0],
        t["cpjudge --layers none"][0],
        t["oj test"][0],
        t["bwrap --unshare-all per test"][0],
    )
    targets += [
        ("every layer: at most 1.3 x the floor", f"{every / floor:.2f} x", every <= 1.3 * floor),
        ("every layer: at least 5 x faster than `oj test`", f"{oj / every:.2f} x", oj >= 5 * every),
        ("every layer: at least 3 x faster than the bubblewrap loop", f"{bwrap / every:.2f} x", bwrap >= 3 * every),
        ("`--layers none`: at most 1.15 x the floor", f"{none / floor:.2f} x", none <= 1.15 * floor),
    ]

    # 2. Parallel.
    t = timings("parallel.json")
    one, two = t["one job"][0], t["two jobs"][0]
    say(f"## 2. Parallel ({SPIN_TESTS} tests of 50 ms of CPU each, every layer)\n")
    say("| jobs | whole judge |")
    say("| --- | --- |")
    for name, times in t.items():
        say(f"| {name} | {spread(times)} |")
    say(f"\n-j 2 is {one / two:.2f} x as fast as -j 1.\n")
    targets.append(("-j 2 at least 1.8 x as fast as -j 1", f"{one / two:.2f} x", one >= 1.8 * two))

    # 3. Warm re-judge.
    t = timings("rejudge.json")
    say("## 3. Warm re-judge of each bundled problem (nothing to compile)\n")
    say("| problem | runs | solutions' CPU time | + runs x floor | whole judge | ratio |")
    say("| --- | --- | --- | --- | --- | --- |")
    floor_per_test = floor / TINY_TESTS
    for problem, times in t.items():
        cpu, count = cpu_of_runs(load(f"rejudge-{problem}.json"))
        bound = cpu + count * floor_per_test
        ratio = times[0] / bound
        say(f"| {problem} | {count} | {ms(cpu)} | {ms(bound)} | {spread(times)} | {ratio:.2f} |")
        targets.append((f"re-judge {problem}: at most 1.2 x (CPU + runs x floor)", f"{ratio:.2f} x", ratio <= 1.2))
    say("")

    # 4. Timing fidelity.
    say("## 4. Timing fidelity (CPU time as the judge reports it, and as perf counts it outside)\n")
    say("The same program and input (a fixed amount of work) judged, and timed alone by `perf stat` (task-clock),")
    say("in runs side by side: medians of each.\n")
    say("| program | judge | perf stat | difference |")
    say("| --- | --- | --- | --- |")
    same_run = []
    for wanted in (1, 300):
        judged, counted, pairs = [], [], []
        n = 1
        while os.path.exists(os.path.join(WORK, f"fidelity-{wanted}-{n}.json")):
            judged.append(load(f"fidelity-{wanted}-{n}.json")["solutions"][0]["tests"][0]["time_us"] / 1e6)
            with open(os.path.join(WORK, f"perf-{wanted}-{n}.csv")) as f:
                line = next(l for l in f if "task-clock" in l)
            counted.append(float(line.split(",")[0]) / 1e3)
            with open(os.path.join(WORK, f"same-{wanted}-{n}.count")) as f:
                count = f.read().strip()
            with open(os.path.join(WORK, f"same-{wanted}-{n}.steal")) as f:
                before, after = (int(x) for x in f.read().split())
            if count:
                reported = load(f"same-{wanted}-{n}.json")["solutions"][0]["tests"][0]["time_us"] / 1e6
                pairs.append((reported, int(count) / 1e9, (after - before) * 10e-3))
            n += 1
        a, b = statistics.median(judged), statistics.median(counted)
        say(f"| {wanted} ms | {ms(a)} ({ms(min(judged))} to {ms(max(judged))}) | "
            f"{ms(b)} ({ms(min(counted))} to {ms(max(counted))}) | {(a - b) * 1e3:+.2f} ms ({(a - b) / b:+.1%}) |")
        same_run.append((wanted, pairs))
    say("")
    say("The same run measured both ways: perf counting every process of one judge run (`perf record -s`), and the")
    say("count of the program's own process set against what the judge reported for it. perf's task-clock also counts")
    say("time the hypervisor gave the processor to other machines while the program was on it (steal), which the")
    say("kernel's CPU accounting, and so the judge, leaves out: the steal on the whole machine during each run is")
    say("shown.\n")
    say("| program | judge | perf, same process | difference | steal during the run |")
    say("| --- | --- | --- | --- | --- |")
    for wanted, pairs in same_run:
        if not pairs:
            say(f"| {wanted} ms | | perf found no process of the program | | |")
            targets.append((f"{wanted} ms program against perf", "not measured", False))
            continue
        for reported, counted, stolen in pairs:
            diff = reported - counted
            say(f"| {wanted} ms | {ms(reported)} | {ms(counted)} | {diff * 1e3:+.2f} ms ({diff / counted:+.1%}) | "
                f"{ms(stolen)} |")
        d = statistics.median(r - c for r, c, _ in pairs)
        rel = statistics.median((r - c) / c for r, c, _ in pairs)
        if wanted == 1:
            name = "1 ms program within 0.5 ms of perf (same run, median)"
            targets.append((name, f"{d * 1e3:+.2f} ms", abs(d) <= 0.5e-3))
        else:
            targets.append(("300 ms program within 2% of perf (same run, median)", f"{rel:+.1%}", abs(rel) <= 0.02))
    say("")

    # 5. Memory.
    say("## 5. The judge's own peak memory\n")
    say("| while | peak resident memory |")
    say("| --- | --- |")
    cases = (("a submission prints 1 GB", "memory-flood.json"), ("100 tests run with -j 2", "memory-j2.json"))
    for name, file in cases:
        peak = load(file)["harness"]["peak_memory"]
        say(f"| {name} | {peak / MIB:.1f} MiB |")
        targets.append((f"judge's memory under 30 MiB while {name}", f"{peak / MIB:.1f} MiB", peak < 30 * MIB))
    say("")

    # 6. References.
    t = timings("references.json")
    say("## 6. The references on their largest tests, outside the judge\n")
    say(f"Each started {REFERENCE_RUNS} times in a row by the floor's loop; the time of one run, start to end.\n")
    say("| reference | one run |")
    say("| --- | --- |")
    by_problem = {}
    for name, times in t.items():
        say(f"| {name} | {spread(times, REFERENCE_RUNS)} |")
        by_problem.setdefault(name.split("/")[0], []).append((times[0] / REFERENCE_RUNS, name))
    say("")
    for problem, found in by_problem.items():
        found.sort()
        fastest, name = found[0]
        figure = f"{ms(fastest)} ({name.split(' ')[0]})"
        targets.append((f"{problem}: fastest reference at most 3 ms", figure, fastest <= 3e-3))
        for other, other_name in found[1:]:
            target = f"{other_name.split(' ')[0]}: at most 2 x the fastest"
            targets.append((target, f"{other / fastest:.2f} x", other <= 2 * fastest))

    # 7. The HTML report.
    t = timings("html.json")
    with open(os.path.join(WORK, "large-html.size")) as f:
        size = int(f.read())
    page, empty = t["Chromium loads the page"][0], t["Chromium loads an empty page"][0]
    say("## 7. The HTML report of a large judge (50 solutions x 500 tests, every test run)\n")
    say(f"The page is {size / 1e6:.1f} MB.\n")
    say("| what | whole process |")
    say("| --- | --- |")
    for name, times in t.items():
        say(f"| {name} | {spread(times)} |")
    say("")
    targets += [
        ("large report: the page under 5 MB", f"{size / 1e6:.1f} MB", size < 5e6),
        ("large report: written in under 1 s", ms(t["report --html"][0]), t["report --html"][0] < 1),
        ("large report: loaded within 3 s more than an empty page", f"+{page - empty:.2f} s", page - empty < 3),
    ]

    say("## Targets\n")
    say("| target | measured | |")
    say("| --- | --- | --- |")
    for name, figure, ok in targets:
        say(f"| {name} | {figure} | {met(ok)} |")
    say("")
    with open(os.path.join(HERE, "analysis.md")) as f:
        say(f.read().rstrip())
    print("\n".join(out))


main()
