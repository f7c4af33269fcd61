#!/usr/bin/env python3
"""The report of `tools/bench.sh apps`: NAS DT and the MD proxy under Open MPI,
Pure (the same MPI source, ported) and Pure with tasks.

Reads the raw output of every run from a directory, one file per run named
APP.INPUT.RANKS.VERSION.ROUND (version: mpi, pure or tasks), checks that the
versions computed the same results, and prints one table: each version's best
time over the rounds, Open MPI's time over Pure's and over the task version's
(best against best, and the median over rounds of the ratio within a round),
and the issue's targets. With --plot FILE it also draws the speedups over
Open MPI as an SVG bar chart (standard library only: no matplotlib needed).

Exit status 1 when the versions disagree (a wrong result is never a timing).
"""

import argparse
import collections
import html
import os
import re
import statistics
import sys

VERSIONS = ("mpi", "pure", "tasks")
LABELS = {"mpi": "Open MPI", "pure": "Pure", "tasks": "Pure + tasks"}
DT_LINE = re.compile(r"^DT (\S+) l2=(\S+) verified=(yes|no) time_s=(\S+)$", re.M)
MD_STEP = re.compile(r"^md: step .*$", re.M)
MD_RESULT = re.compile(r"^md: atoms (\d+) steps \d+ pairs (\d+) time_s (\S+) ", re.M)
STOLEN = re.compile(r"^pure: stats: .*? (\d+) own chunks, (\d+) stolen chunks", re.M)


class Run:
    """One run's output: its time and what must agree with other runs."""

    def __init__(self, path):
        name = os.path.basename(path)
        parts = name.split(".")
        if len(parts) != 5 or parts[3] not in VERSIONS:
            raise ValueError(f"{name}: expected APP.INPUT.RANKS.VERSION.ROUND")
        self.app, self.input, ranks, self.version, rnd = parts
        self.ranks, self.round = int(ranks), int(rnd)
        self.path = path
        text = open(path, encoding="utf-8", errors="replace").read()
        own = stolen = 0
        for m in STOLEN.finditer(text):
            own += int(m.group(1))
            stolen += int(m.group(2))
        self.own, self.stolen = own, stolen
        if self.app == "dt":
            m = DT_LINE.search(text)
            if not m:
                raise ValueError(f"{path}: no 'DT ... l2=' result line")
            self.time = float(m.group(4))
            self.result = f"{m.group(1)} l2={m.group(2)}"
            self.verified = m.group(3) == "yes"
            self.work = None
        else:
            m = MD_RESULT.search(text)
            if not m:
                raise ValueError(f"{path}: no 'md: atoms ... time_s' result line")
            self.time = float(m.group(3))
            self.result = "\n".join(MD_STEP.findall(text))
            self.verified = bool(self.result)
            self.work = int(m.group(2))

    @property
    def config(self):
        return (self.app, self.input, self.ranks)


def load(directory):
    runs = []
    for name in sorted(os.listdir(directory)):
        if name.count(".") == 4 and name.split(".")[3] in VERSIONS:
            runs.append(Run(os.path.join(directory, name)))
    if not runs:
        raise ValueError(f"{directory}: no runs")
    return runs


def check(runs):
    """The problems: runs of one input that disagree, or results NPB rejects."""
    problems = []
    first = {}
    for run in runs:
        if not run.verified:
            problems.append(f"{run.path}: " + ("verified=no" if run.app == "dt" else "no energies"))
        # DT's L2 norm depends on the input only; MD's energies and pair
        # counts do not depend on the rank count either.
        key = (run.app, run.input) if run.app == "md" else run.config
        if key not in first:
            first[key] = run
            continue
        other = first[key]
        if run.result != other.result:
            problems.append(f"{run.path} and {other.path} computed different results")
        if run.work != other.work:
            problems.append(f"{run.path} and {other.path} counted different work")
    return problems


def median_ratio(runs_a, runs_b):
    """Median over rounds of time(a) / time(b) within a round."""
    b_by_round = {r.round: r.time for r in runs_b}
    ratios = [a.time / b_by_round[a.round] for a in runs_a
              if a.round in b_by_round and b_by_round[a.round] > 0]
    return statistics.median(ratios) if ratios else float("nan")


def summarise(runs):
    by = collections.defaultdict(list)
    for run in runs:
        by[run.config + (run.version,)].append(run)
    configs = sorted({r.config for r in runs}, key=lambda c: (c[0], c[2], c[1]))
    rows = []
    for config in configs:
        row = {"config": config}
        for v in VERSIONS:
            rs = by.get(config + (v,), [])
            row[v] = min(rs, key=lambda r: r.time) if rs else None
            row[v + "_runs"] = rs
        for v in ("pure", "tasks"):
            if row["mpi"] and row[v]:
                row[v + "_best"] = row["mpi"].time / row[v].time
                row[v + "_paired"] = median_ratio(row["mpi_runs"], row[v + "_runs"])
            else:
                row[v + "_best"] = row[v + "_paired"] = float("nan")
        rows.append(row)
    return rows


def describe(config):
    app, inp, ranks = config
    if app == "dt":
        return f"DT {inp.replace('-', '.')}"
    return f"MD {inp}"


def table(rows, cores):
    out = []
    out.append("| app, input | ranks | Open MPI (s) | Pure (s) | Pure + tasks (s) "
               "| MPI / Pure | MPI / tasks | stolen chunks |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        app, inp, ranks = row["config"]
        cell = lambda v: f"{row[v].time:.3f}" if row[v] else "-"
        ratio = lambda v: (f"{row[v + '_best']:.2f}x ({row[v + '_paired']:.2f}x)"
                           if row[v] and row["mpi"] else "-")
        tasks = row["tasks"]
        stolen = (f"{tasks.stolen} of {tasks.own + tasks.stolen}"
                  if tasks and tasks.own + tasks.stolen else "-")
        where = f"{ranks}" + ("" if ranks <= cores else f" on {cores} cores")
        out.append(f"| {describe(row['config'])} | {where} | {cell('mpi')} | {cell('pure')} "
                   f"| {cell('tasks')} | {ratio('pure')} | {ratio('tasks')} | {stolen} |")
    return "\n".join(out)


def targets(rows, cores):
    out = []
    slow = [r for r in rows if r["mpi"] and r["pure"]
            and min(r["pure_best"], r["pure_paired"]) < 1.0]
    out.append("Target: ported without tasks at least as fast as Open MPI everywhere -> "
               + ("met" if not slow else "NOT met: " + ", ".join(
                   f"{describe(r['config'])} at {r['config'][2]} ranks "
                   f"({r['pure_best']:.2f}x, paired {r['pure_paired']:.2f}x)" for r in slow)))
    over = [r for r in rows if r["config"][2] > cores and r["mpi"] and r["pure"]]
    not_faster = [r for r in over if min(r["pure_best"], r["pure_paired"]) <= 1.0]
    if over:
        out.append("Target: faster than Open MPI where ranks outnumber cores -> "
                   + ("met" if not not_faster else "NOT met: " + ", ".join(
                       f"{describe(r['config'])} at {r['config'][2]} ranks" for r in not_faster)))
    index = {r["config"]: r for r in rows}
    for row in rows:
        app, inp, ranks = row["config"]
        if app != "md" or inp != "imbalanced" or not row["tasks"]:
            continue
        balanced = index.get((app, "balanced", ranks))
        if not balanced or not balanced["tasks"]:
            continue
        best = row["tasks"].time / balanced["tasks"].time
        paired = median_ratio(row["tasks_runs"], balanced["tasks_runs"])
        per_pair = best * balanced["tasks"].work / row["tasks"].work
        ok = max(best, paired) <= 1.15
        out.append(f"Target, MD at {ranks} ranks: with tasks, imbalanced <= 1.15x balanced: "
                   f"{best:.2f}x (paired {paired:.2f}x; {per_pair:.2f}x per pair computed) -> "
                   + ("met" if ok else "NOT met"))
        fast = min(row["tasks_best"], row["tasks_paired"])
        out.append(f"Target, MD at {ranks} ranks: with tasks, imbalanced >= 1.5x faster than "
                   f"Open MPI: {row['tasks_best']:.2f}x (paired {row['tasks_paired']:.2f}x) -> "
                   + ("met" if fast >= 1.5 else "NOT met"))
    return "\n".join(out)


def svg_plot(rows, path):
    """Speedup over Open MPI per configuration: one bar for Pure, one for
    Pure + tasks (best times), a line at 1."""
    rows = [r for r in rows if r["mpi"]]
    width_per, left, top, height = 90, 60, 40, 260
    width = left + width_per * len(rows) + 20
    values = [r[v + "_best"] for r in rows for v in ("pure", "tasks") if r[v]]
    ymax = max([2.0] + [v for v in values if v == v]) * 1.1
    y = lambda v: top + height - v / ymax * height
    colors = {"pure": "#4477aa", "tasks": "#ee6677"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + height + 70}" '
             f'font-family="sans-serif" font-size="11">',
             f'<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{left}" y="18" font-size="13">Speedup over Open MPI (best of rounds; '
             f'higher is faster)</text>']
    tick = 0.5
    v = 0.0
    while v <= ymax:
        parts.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="#ddd"/><text x="{left - 6}" y="{y(v) + 4:.1f}" '
                     f'text-anchor="end">{v:.1f}</text>')
        v += tick
    parts.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(1):.1f}" y2="{y(1):.1f}" '
                 f'stroke="black" stroke-dasharray="4 3"/>')
    for i, row in enumerate(rows):
        x0 = left + i * width_per + 15
        for k, version in enumerate(("pure", "tasks")):
            if not row[version]:
                continue
            value = row[version + "_best"]
            parts.append(f'<rect x="{x0 + k * 30}" y="{y(value):.1f}" width="28" '
                         f'height="{top + height - y(value):.1f}" fill="{colors[version]}"/>'
                         f'<text x="{x0 + k * 30 + 14}" y="{y(value) - 3:.1f}" '
                         f'text-anchor="middle" font-size="9">{value:.2f}</text>')
        app, inp, ranks = row["config"]
        for line, text in enumerate((describe(row["config"]), f"{ranks} ranks")):
            parts.append(f'<text x="{x0 + 29}" y="{top + height + 16 + 13 * line}" '
                         f'text-anchor="middle">{html.escape(text)}</text>')
    for k, version in enumerate(("pure", "tasks")):
        lx = left + 160 * k
        parts.append(f'<rect x="{lx}" y="{top + height + 48}" width="12" height="12" '
                     f'fill="{colors[version]}"/><text x="{lx + 16}" y="{top + height + 58}">'
                     f'{LABELS[version]}</text>')
    parts.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="raw output of tools/bench.sh apps")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--load", default="", help="load averages to print")
    parser.add_argument("--transport", default="", help="Open MPI's transport, to print")
    parser.add_argument("--plot", help="write the speedups as an SVG bar chart here")
    args = parser.parse_args()

    runs = load(args.directory)
    problems = check(runs)
    rows = summarise(runs)
    print("Applications: NAS DT (apps/dt) and the CoMD-style MD proxy (apps/md), each under Open MPI")
    print("(processes), Pure (the same MPI source ported by purecc; rank threads, fibers where ranks")
    print("outnumber cores) and Pure + tasks (dt_tasks: each graph node's work in PureTasks; md_tasks:")
    print("the force loop over link cells a PureTask). Time: rank 0's, barrier to barrier, best of")
    print(f"{args.rounds} rounds alternating the versions. MPI / X: Open MPI's time over X's, > 1 means")
    print("X is faster; in brackets the median over rounds of the ratio within a round. stolen: task")
    print("chunks run by a rank other than their owner in the fastest task run (PURE_STATS=1).")
    if args.transport:
        print(f"Open MPI: {args.transport}.")
    print("MD balanced: --size 20 (32000 atoms, the box full); imbalanced: the same 32000 atoms in a box")
    print("twice as long along x, half of it empty (--nx 40 --fill 0.5).")
    if args.load:
        print(f"Load average (1, 5, 15 min) {args.load}; {args.cores} cores. Other work on the cores "
              "makes timings noisy.")
    print()
    print(table(rows, args.cores))
    print()
    print(targets(rows, args.cores))
    if args.plot:
        svg_plot(rows, args.plot)
        print(f"\nPlot: {args.plot}")
    if problems:
        print("\nWRONG RESULTS:\n" + "\n".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
