#!/usr/bin/env python3
"""Whole-process start-up timings (PERFORMANCE.md, issue 20 target 2): each round runs every command once, in
order (alternating, so that load changes hit all alike); prints the load average and, per command, the medians of
wall and CPU time (user+sys of the child, from getrusage) and their ratios to the first command (the peer, e.g. a
hello-world class). Output of the commands is discarded; a non-zero exit is reported on stderr.
Usage: tools/startup-bench.py ROUNDS WARMUP_ROUNDS NAME=COMMAND..."""
import os, resource, statistics, subprocess, sys, time, shlex
rounds, warm = int(sys.argv[1]), int(sys.argv[2])
cmds = [a.split('=', 1) for a in sys.argv[3:]]
wall = {n: [] for n, _ in cmds}; cpu = {n: [] for n, _ in cmds}
def run(c):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.perf_counter()
    p = subprocess.run(c, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = time.perf_counter(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0: print("exit", p.returncode, c, file=sys.stderr)
    return (t1 - t0) * 1000, ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000
for _ in range(warm):
    for n, c in cmds: run(c)
load0 = os.getloadavg()
for _ in range(rounds):
    for n, c in cmds:
        w, u = run(c); wall[n].append(w); cpu[n].append(u)
load1 = os.getloadavg()
b = cmds[0][0]; bw = statistics.median(wall[b]); bc = statistics.median(cpu[b])
print(f"load avg (1/5/15 min) before {load0[0]:.1f}/{load0[1]:.1f}/{load0[2]:.1f}, after {load1[0]:.1f}/{load1[1]:.1f}/{load1[2]:.1f}; {rounds} alternating rounds after {warm} warm-up")
print(f"| {'command':40} | wall median | wall / {b} | CPU median | CPU / {b} |")
for n, _ in cmds:
    w = statistics.median(wall[n]); c = statistics.median(cpu[n])
    print(f"| {n:40} | {w:7.0f} ms | {w/bw:5.1f} | {c:6.0f} ms | {c/bc:5.1f} |")
