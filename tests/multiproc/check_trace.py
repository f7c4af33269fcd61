#!/usr/bin/env python3
"""Runs a job of several processes with PURE_TRACE and PURE_STATS=json and
checks what process 0 gathered: a track per rank under its process, an arrow
head for every message received with its tail on the sending rank (across
processes too), and counters that add up.

usage: check_trace.py RANKS PROCS -- COMMAND...

RANKS 0: COMMAND is a test suite whose jobs each overwrite the trace; the
last one's must parse and have a track with slices per rank (no stats).
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def fail(message):
    print("check_trace: " + message)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[2] != "--":
        fail(__doc__)
    ranks, procs, command = int(args[0]), int(args[1]), args[3:]
    with tempfile.TemporaryDirectory() as tmp:
        trace_path = os.path.join(tmp, "trace.json")
        stats_path = os.path.join(tmp, "stats.json")
        env = dict(os.environ, PURE_TRACE=trace_path)
        if ranks:
            env["PURE_STATS"] = "json:" + stats_path
        run = subprocess.run(command, env=env)
        if run.returncode != 0:
            fail(f"the job exited with {run.returncode}")
        with open(trace_path) as f:
            trace = json.load(f)
        stats = None
        if ranks:
            with open(stats_path) as f:
                stats = json.load(f)

    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    processes = {e["pid"] for e in events if e.get("name") == "process_name"}
    if processes != set(range(procs)):
        fail(f"processes in the trace: {sorted(processes)}, expected 0..{procs - 1}")
    tracks = {}
    for e in events:
        if e.get("name") == "thread_name" and e["args"]["name"].startswith("rank "):
            tracks[e["tid"]] = e["pid"]
    if not ranks:
        ranks = len(tracks)
    if sorted(tracks) != list(range(ranks)):
        fail(f"rank tracks: {sorted(tracks)}, expected 0..{ranks - 1}")

    slices = collections.Counter(e["tid"] for e in events if e.get("ph") == "X")
    for r in range(ranks):
        if not slices[r]:
            fail(f"rank {r} has no slices")

    tails, heads = {}, {}
    for e in events:
        if e.get("cat") == "message":
            (tails if e["ph"] == "s" else heads)[e["id"]] = (e["pid"], e["tid"])
    if not heads and stats is not None:
        fail("no message arrows")
    headless = [i for i in heads if i not in tails]
    if headless:
        fail(f"{len(headless)} received messages have no arrow tail on a sender")
    crossing = sum(1 for i, h in heads.items() if tails[i][0] != h[0])
    if stats is None:
        print(f"check_trace: ok (the last job: {ranks} ranks, {len(heads)} messages)")
        return
    if procs > 1 and crossing == 0:
        fail("no arrow crosses processes")
    for i, (pid, tid) in list(heads.items()) + list(tails.items()):
        if tracks[tid] != pid:
            fail(f"flow {i} is on rank {tid} in process {pid}, but rank {tid} lives in process {tracks[tid]}")

    per_rank = stats["ranks"]
    if len(per_rank) != ranks:
        fail(f"stats for {len(per_rank)} ranks, expected {ranks}")
    received = sum(r[k]["messages"] for r in per_rank
                   for k in ("received_within_process", "received_from_other_processes"))
    if received != len(heads):
        fail(f"stats count {received} messages received, the trace {len(heads)} arrow heads")
    away = sum(r["sent_to_other_processes"]["messages"] for r in per_rank)
    if procs > 1 and away == 0:
        fail("stats count no message to another process")
    print(f"check_trace: ok ({ranks} ranks, {procs} processes, {len(heads)} messages, "
          f"{crossing} between processes)")


if __name__ == "__main__":
    main()
