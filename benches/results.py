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
OVERHEAD_TESTS = (300, 3000)
QUIET_TESTS = (300, 30000)
FLOOR = "floor: a C loop"
ISOLATE_REUSED = "isolate, one box reused"
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


def within_rounds(name, first, second, combine):
    """An interleaved export's (see rounds.py) two commands' times combined within each round: median, minimum and
    maximum."""
    times = {r["command"]: r["times"] for r in load(name)["results"]}
    values = [combine(a, b) for a, b in zip(times[first], times[second])]
    return statistics.median(values), min(values), max(values)


def round_ratios(name, numerator, denominator):
    """The ratios of two commands' times within each round (see `within_rounds`)."""
    return within_rounds(name, numerator, denominator, lambda a, b: a / b)


def round_differences(name, minuend, subtrahend):
    """The differences of two commands' times within each round, in seconds (see `within_rounds`)."""
    return within_rounds(name, minuend, subtrahend, lambda a, b: a - b)


def times_x(t):
    median, low, high = t
    return f"{median:.2f} x ({low:.2f} to {high:.2f})"


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


def cgroup_v2():
    return os.path.exists("/sys/fs/cgroup/cgroup.controllers")


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
    # When the measuring ended (the last file the run wrote), not when this page was written: it may be rewritten
    # later from the same figures.
    measured = os.path.getmtime(os.path.join(WORK, "doctor.json"))
    say(f"- Date: {datetime.datetime.fromtimestamp(measured, datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    say(f"- Isolation layers active: {on}" + (f"; off: {off}" if off else ""))
    say(f"- Control groups: {'v2' if cgroup_v2() else 'v1'}")
    runs = {count: len(load(f"overhead-{count}.json")["results"][0]["times"]) for count in OVERHEAD_TESTS}
    say(f"- Timed runs of each command: {runs[OVERHEAD_TESTS[0]]} ({runs[OVERHEAD_TESTS[-1]]} for "
        f"{OVERHEAD_TESTS[-1]:,} tests, interleaved rounds)")
    say("")
    targets = []

    # 1. Overhead.
    overhead = {count: timings(f"overhead-{count}.json") for count in OVERHEAD_TESTS}

    def x_floor(count, name):
        return round_ratios(f"overhead-{count}.json", name, FLOOR)

    counts = " and ".join(f"{count:,}" for count in OVERHEAD_TESTS)
    say(f"## 1. Overhead per test ({counts} tiny knight-pawns tests, one C++ program)\n")
    say("The commands run in interleaved rounds, each once a round (`benches/rounds.py`), so that the commands of a")
    say("round share that minute's speed of the machine. Per test: the whole run divided by the number of tests. x")
    say("floor: the median of the ratios to the floor's run in the same round, with their spread.\n")
    header = " | ".join(f"{count:,} tests: per test | x floor" for count in OVERHEAD_TESTS)
    say(f"| what runs each test | {header} |")
    say("| --- |" + " --- | --- |" * len(OVERHEAD_TESTS))
    names = list(dict.fromkeys(name for t in overhead.values() for name in t))
    for name in names:
        cells = []
        for count, t in overhead.items():
            if name in t:
                cells += [spread(t[name], count), times_x(x_floor(count, name))]
            else:
                cells += ["not run", ""]
        say(f"| {name} | {' | '.join(cells)} |")
    say("")
    skipped = os.path.join(WORK, "isolate.skipped")
    if os.path.exists(skipped):
        with open(skipped) as f:
            say(f"isolate was not run: {f.read().strip()}.\n")
    else:
        say("isolate is built from its source (benches/isolate: github.com/ioi/isolate at 6f21daf) and run as root")
        lacks = "" if cgroup_v2() else ", which this machine lacks (it has v1)"
        say(f"without `--cg`: isolate 2 keeps its control groups in cgroup v2 only{lacks}. Its runs are limited by")
        say("rlimits: `--time`, `--wall-time`, `--mem` (address space) and `--processes=1`, with the input copied into")
        say("the box and `--stdin` and `--stdout` files there (benches/isolate_loop.c), as contest systems run it. A")
        say(f"box per test (init, run, cleanup) is run on {OVERHEAD_TESTS[0]:,} tests only.\n")
    count = OVERHEAD_TESTS[-1]
    every_name = "cpjudge, every layer"
    every, none = x_floor(count, every_name), x_floor(count, "cpjudge --layers none")
    at = f"({count:,} tests; median of the rounds' ratios, their spread in brackets)"

    def faster(name):
        return round_ratios(f"overhead-{count}.json", name, every_name)

    oj, bwrap = faster("oj test"), faster("bwrap --unshare-all per test")
    targets += [
        (f"every layer: at most 1.3 x the floor {at}", times_x(every), every[0] <= 1.3),
        (f"`--layers none`: at most 1.15 x the floor {at}", times_x(none), none[0] <= 1.15),
    ]
    if ISOLATE_REUSED in overhead[count]:
        isolate = faster(ISOLATE_REUSED)
        targets.append((f"every layer: at least 2.4 x faster than isolate, one box reused {at}", times_x(isolate),
                        isolate[0] >= 2.4))
    else:
        targets.append(("every layer: at least 2.4 x faster than isolate, one box reused", "not run", False))
    targets += [
        (f"every layer: at least 5 x faster than `oj test` {at}", times_x(oj), oj[0] >= 5),
        (f"every layer: at least 3 x faster than the bubblewrap loop {at}", times_x(bwrap), bwrap[0] >= 3),
    ]

    # 2. Start-up.
    t = timings("startup.json")
    t.update(timings("startup-doctor.json"))
    say("## 2. Start-up\n")
    say("Whole commands: a judge of one tiny test against the floor's one run of it; `cpjudge test FILE` against")
    say("`oj test -c FILE` on the same two samples, both running the program built once; `cpjudge doctor` with the")
    say("layer probe it keeps in `$XDG_CACHE_HOME/cpjudge/memo` (a later run), and with an empty cache folder (its")
    say("first run on a machine). The first five run in interleaved rounds: a time over the floor is the median of")
    say("the differences within rounds, a ratio the median of the ratios, with their spread.\n")
    over_floor = {
        layers_: round_differences("startup.json", f"judge of 1 test, {layers_}", "floor: 1 test")
        for layers_ in ("every layer", "--layers none")
    }
    oj_x = round_ratios("startup.json", "oj test on 2 samples", "cpjudge test on 2 samples")
    kept, first = t["doctor, its probe kept"][0], t["doctor, first run"][0]

    def over(layers_):
        median, low, high = over_floor[layers_]
        return f"{median * 1e3:+.2f} ms over the floor ({low * 1e3:+.2f} to {high * 1e3:+.2f})"

    against = {
        "judge of 1 test, every layer": over("every layer"),
        "judge of 1 test, --layers none": over("--layers none"),
        "oj test on 2 samples": f"{times_x(oj_x)} `cpjudge test`",
        "doctor, first run": f"{(first - kept) * 1e3:+.2f} ms against a later run",
    }
    say("| command | whole command | against |")
    say("| --- | --- | --- |")
    for name, times in t.items():
        say(f"| {name} | {spread(times)} | {against.get(name, '')} |")
    say("")
    cold = timings("startup-cold.json")
    say("The same commands started cold, each after 1.5 s in which nothing ran (hyperfine's `--prepare`), as an")
    say("editor's save hook starts them: the first task-clock counter opened then waits for the kernel to switch")
    say("counters on.\n")
    cold_floor, cold_test = cold["floor: 1 test"][0], cold["cpjudge test on 2 samples"][0]
    cold_against = {
        "judge of 1 test, every layer": f"{(cold['judge of 1 test, every layer'][0] - cold_floor) * 1e3:+.2f} ms "
        "over the floor",
        "oj test on 2 samples": f"{cold['oj test on 2 samples'][0] / cold_test:.2f} x `cpjudge test`",
    }
    say("| command, after 1.5 s idle | whole command | against |")
    say("| --- | --- | --- |")
    for name, times in cold.items():
        say(f"| {name} | {spread(times)} | {cold_against.get(name, '')} |")
    say("")
    for layers_ in ("every layer", "--layers none"):
        median = over_floor[layers_][0]
        targets.append((f"judge of 1 test, {layers_}: at most 10 ms over the floor (median of the rounds)",
                        f"{median * 1e3:+.2f} ms", median <= 10e-3))
    targets += [
        ("`cpjudge test` on 2 samples: at least 30 x faster than `oj test` (median of the rounds)", times_x(oj_x),
         oj_x[0] >= 30),
        ("`doctor` with its probe kept: at most 50 ms", ms(kept), kept <= 50e-3),
    ]

    # 3. Costs that grow.
    t = timings("large-input.json")
    alone, judged = t["the program alone"][0], t["judged, every layer"][0]
    # The input's place, as the floor's loop was given it (it lives with the problems judged, not the figures).
    with open(os.path.join(WORK, "big.list")) as f:
        size = os.path.getsize(f.read().strip())
    say("## 3. Costs that grow\n")
    say(f"### A {size / 1e6:.0f} MB input\n")
    say("One program that reads and sums the numbers of its input, the same binary alone in the floor's loop and")
    say("judged (every layer), in interleaved rounds; x alone is the median of the ratios within each round.\n")
    say("| what | one run | x alone |")
    say("| --- | --- | --- |")
    for name in t:
        say(f"| {name} | {spread(t[name])} | {times_x(round_ratios('large-input.json', name, 'the program alone'))} |")
    say("")
    added = round_ratios("large-input.json", "judged, every layer", "the program alone")[0] - 1
    targets.append((f"{size / 1e6:.0f} MB input: judged adds at most 10 % (median of the rounds)", f"{added:+.1%}",
                    added <= 0.1))
    say("### The judge's own peak memory\n")
    say("From the judge's JSON report (its own resident peak), or with `-q` from GNU time (`%M`: the largest")
    say("resident size of the judge and of each process it waited for).\n")
    say("| while | peak resident memory |")
    say("| --- | --- |")
    cases = (
        (f"a {size / 1e6:.0f} MB input is judged", "memory-large-input.json"),
        ("a submission prints 1 GB", "memory-flood.json"),
        ("300 tests run with -j 2", "memory-j2.json"),
    )
    for name, file in cases:
        peak = load(file)["harness"]["peak_memory"]
        say(f"| {name} | {peak / MIB:.1f} MiB |")
        targets.append((f"judge's memory under 30 MiB while {name}", f"{peak / MIB:.1f} MiB", peak < 30 * MIB))
    quiet = {}
    for count in QUIET_TESTS:
        with open(os.path.join(WORK, f"memory-q-{count}.kib")) as f:
            quiet[count] = int(f.read().split()[-1]) * 1024
        say(f"| {count:,} tests with -q | {quiet[count] / MIB:.1f} MiB |")
    say("")
    low, high = QUIET_TESTS
    grown = quiet[high] - quiet[low]
    targets.append((f"-q: memory of {high:,} tests within 2 MiB of {low:,}", f"{grown / MIB:+.1f} MiB",
                    abs(grown) <= 2 * MIB))

    # 4. Timing fidelity.
    say("## 4. Timing fidelity (CPU time as the judge reports it, and as perf counts it outside)\n")
    say("The same program and input (a fixed amount of work) judged, and timed alone by `perf stat` (task-clock),")
    say("one after the other in each pair of runs, the first of the two turning from pair to pair (the 1 ms program")
    say("in five times as many pairs): medians of each, and the median of the pairs' differences.\n")
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
        # Each judge's run and perf's run of the program are taken one after the other: the difference is the
        # median of those pairs', which a slow minute moves less than the difference of the medians.
        d = statistics.median(j - c for j, c in zip(judged, counted))
        if wanted == 1:
            separate = d
        say(f"| {wanted} ms | {ms(a)} ({ms(min(judged))} to {ms(max(judged))}) | "
            f"{ms(b)} ({ms(min(counted))} to {ms(max(counted))}) | {d * 1e3:+.2f} ms ({d / b:+.1%}) |")
        same_run.append((wanted, pairs))
    say("")
    say("The same run measured both ways: perf counting every process of one judge run (`perf record -s`), and the")
    say("count of the program's own process set against what the judge reported for it. perf's task-clock also counts")
    say("time the hypervisor gave the processor to other machines while the program was on it (steal), which the")
    say("kernel's CPU accounting, and so the judge, leaves out: the steal on the whole machine during each run is")
    say("shown. perf counts the program's process from its clone, so its count includes the sandbox's work in that")
    say("process before exec (joining the run's cgroup, the last limits, closing descriptors), which the judge leaves")
    say("out of the run's time by design: the 1 ms row is shown, but the 0.1 ms target is held by the separate runs")
    say("above, which measure the program alone.\n")
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
            same = d
        else:
            targets.append(("300 ms program within 2% of perf (same run, median)", f"{rel:+.1%}", abs(rel) <= 0.02))
    say("")
    figures = [f"{separate * 1e3:+.2f} ms in separate runs"]
    if same_run[0][1]:
        figures.append(f"{same * 1e3:+.2f} ms in the same run (against perf's count from the clone, start included)")
    say(f"At 1 ms the judge's figure differs from perf's by {' and '.join(figures)}, against a target of 0.1 ms.\n")
    targets.append(("1 ms program within 0.1 ms of perf (separate runs, median of the pairs)", f"{separate * 1e3:+.2f} ms",
                    abs(separate) <= 0.1e-3))

    # 5. Parallel.
    t = timings("parallel.json")
    one, two = t["one job"][0], t["two jobs"][0]
    say(f"## 5. Parallel ({SPIN_TESTS} tests of 50 ms of CPU each, every layer)\n")
    say("| jobs | whole judge |")
    say("| --- | --- |")
    for name, times in t.items():
        say(f"| {name} | {spread(times)} |")
    say(f"\n-j 2 is {one / two:.2f} x as fast as -j 1.\n")
    targets.append(("-j 2 at least 1.8 x as fast as -j 1", f"{one / two:.2f} x", one >= 1.8 * two))

    # 6. Warm re-judge.
    t = timings("rejudge.json")
    say("## 6. Warm re-judge of each bundled problem (nothing to compile)\n")
    say("| problem | runs | solutions' CPU time | + runs x floor | whole judge | ratio |")
    say("| --- | --- | --- | --- | --- | --- |")
    floor_per_test = overhead[OVERHEAD_TESTS[-1]][FLOOR][0] / OVERHEAD_TESTS[-1]
    kept = {name.removesuffix(" kept"): times for name, times in t.items() if name.endswith(" kept")}
    for problem, times in t.items():
        if problem.endswith(" kept"):
            continue
        cpu, count = cpu_of_runs(load(f"rejudge-{problem}.json"))
        bound = cpu + count * floor_per_test
        ratio = times[0] / bound
        say(f"| {problem} | {count} | {ms(cpu)} | {ms(bound)} | {spread(times)} | {ratio:.2f} |")
        targets.append((f"re-judge {problem}: at most 1.2 x (CPU + runs x floor)", f"{ratio:.2f} x", ratio <= 1.2))
    say("")
    if kept:
        say("The same re-judges taking every run's outcome from the judge before (nothing changed since), against "
            "making every run again (`--fresh`):\n")
        say("| problem | every run made | every run kept | share |")
        say("| --- | --- | --- | --- |")
        for problem, times in kept.items():
            share = times[0] / t[problem][0]
            say(f"| {problem} | {spread(t[problem])} | {spread(times)} | {share * 100:.1f} % |")
            targets.append((f"re-judge {problem}, nothing changed: under 5 % of a fresh one", f"{share * 100:.1f} %",
                            share < 0.05))
        say("")

    # 7. References.
    t = timings("references.json")
    say("## 7. The references on their largest tests, outside the judge\n")
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

    # 8. The HTML report.
    t = timings("html.json")
    with open(os.path.join(WORK, "large-html.size")) as f:
        size = int(f.read())
    page, empty = t["Chromium loads the page"][0], t["Chromium loads an empty page"][0]
    say("## 8. The HTML report of a large judge (50 solutions x 500 tests, every test run)\n")
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
