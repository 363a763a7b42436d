"""Times commands in interleaved rounds: each round runs every command once, so that the commands of one round share
the machine's speed of that minute, and a ratio taken within a round is not the ratio of two different minutes.

    python3 benches/rounds.py OUT.json ROUNDS WARM-UP -n NAME COMMAND [-n NAME COMMAND ...]

A COMMAND is split as a shell would split it, but run without one. Each round starts one command further along the
list, so that no command always follows the same one. The warm-up rounds are run and not kept. The export has the
shape of hyperfine's (`results`, each with `command` and `times` in seconds, and `user` and `system`), with the i-th
time of every command from the same round, and `"interleaved": true`. A command that fails ends the whole with its
exit code and standard error.
"""

import json
import os
import shlex
import subprocess
import sys
import time


def usage():
    sys.exit("usage: rounds.py OUT.json ROUNDS WARM-UP -n NAME COMMAND [-n NAME COMMAND ...]")


def parse(args):
    if len(args) < 5 or (len(args) - 3) % 3:
        usage()
    out, rounds, warm_up = args[0], int(args[1]), int(args[2])
    commands = []
    rest = args[3:]
    for i in range(0, len(rest), 3):
        if rest[i] != "-n":
            usage()
        commands.append((rest[i + 1], shlex.split(rest[i + 2])))
    return out, rounds, warm_up, commands


def run(name, argv):
    """One run of a command: its wall time, and the CPU time it and its children used (user, system)."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=null, stderr=subprocess.PIPE)
        with process.stderr:
            stderr = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.stderr.write(stderr.decode(errors="replace"))
        sys.exit(f"{name}: exit code {process.returncode} ({shlex.join(argv)})")
    return wall, usage.ru_utime, usage.ru_stime


def main():
    out, rounds, warm_up, commands = parse(sys.argv[1:])
    results = [{"command": name, "times": [], "user": [], "system": []} for name, _ in commands]
    for round_ in range(warm_up + rounds):
        kept = round_ >= warm_up
        for k in range(len(commands)):
            i = (round_ + k) % len(commands)
            name, argv = commands[i]
            wall, user, system = run(name, argv)
            if kept:
                results[i]["times"].append(wall)
                results[i]["user"].append(user)
                results[i]["system"].append(system)
        label = f"round {round_ - warm_up + 1} of {rounds}" if kept else f"warm-up round {round_ + 1}"
        print(f"  {label}: " + ", ".join(f"{name} {r['times'][-1]:.2f} s" if kept else name
                                        for (name, _), r in zip(commands, results)), file=sys.stderr)
    tmp = f"{out}.tmp"
    with open(tmp, "w") as f:
        json.dump({"interleaved": True, "results": results}, f)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
