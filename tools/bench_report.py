#!/usr/bin/env python3
"""The reports of tools/bench.sh: reads the results directory of one suite
and prints its tables and targets; with --plot, also draws PNG figures
beside them. bench.sh launches the runs; everything computed from them is
here.

A results directory holds:
  context.json  the launch: suite, rounds, cores, load average before and
                after, Open MPI's version and transport, which PURE_* and
                OMPI_MCA_* variables were set, and suite inputs (`begin`
                and `end` write it)
  runs.jsonl    one object per run, the launcher's side of it: "run" (the
                name of its files), "impl", "round", "wall_us", and by suite
                "ranks", "imbalance", "partition", "case" or "procs"
  RUN.jsonl     the run's standard output: the benchmark's JSON Lines, each
                {"bench": program, "kind": "config" or a measure, ...}
                (bench/*.c, apps/rand_stencil --format json)
  RUN.log       the run's standard error, where a Pure run with PURE_STATS=1
                prints its settings and task counters
  queue.json    the queue suite's Google Benchmark output (its own JSON)

usage:
  bench_report.py begin DIR --suite SUITE --rounds N [--transport T] [--set KEY=VALUE ...]
  bench_report.py end DIR                records the load average after the runs
  bench_report.py show DIR [--plot]      prints the report, writes DIR/report.txt
                                         (and, with --plot, DIR/*.png drawn by
                                         bench_plot.py); exits 1 on wrong results
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

# ------------------------------------------------------------------ targets


@dataclass(frozen=True)
class Target:
    suite: str  # the report that judges it
    scope: str  # which runs: "own cores" (ranks <= cores), "shared cores", or "" (each)
    measure: str  # the row it reads: p2p kind, coll op, or the suite's own figure
    size: Optional[int]  # message bytes, where the measure has sizes
    limit: Optional[tuple]  # Pure's own value must be (op, bound), op "<=", ">=" or "<"
    vs_mpi: Optional[float]  # best-of-rounds ratio (> 1: Pure faster) must be >= this
    paired: bool  # and so must the median over rounds of the same-round ratio
    text: str  # what the report prints


# Every goal the reports judge (DESIGN.md's performance targets and the
# issues'). A ratio compares Pure with Open MPI so that > 1 means Pure is
# faster (Open MPI's time / Pure's, Pure's bandwidth / Open MPI's).
# "paired": on a VM with slow and fast phases the two bests may come from
# different phases, so the ratio within each round counts too.
TARGETS = (
    Target("p2p", "", "lat", 8, None, 1.5, True,
           "8 B latency >= 1.5x faster than Open MPI (and <= 1.3x the two-line floor: bench.sh floor)"),
    Target("p2p", "", "bw", 4 << 20, None, 1.8, True,
           "4 MiB bandwidth >= 1.8x Open MPI"),
    Target("internode", "", "lat", 8, None, 1 / 1.2, False,
           "8 B latency within 1.2x of the MPI underneath (ratio >= 0.83x)"),
    Target("internode", "", "bw", 1 << 10, None, 0.9, False,
           "1 KiB bandwidth >= 0.9x the MPI underneath"),
    Target("internode", "", "bw", 4 << 20, None, 0.95, False,
           "4 MiB bandwidth >= 0.95x the MPI underneath"),
    Target("internode", "2x4", "msgrate", 8, None, 2.0, True,
           "8 B message rate of 2 processes x 4 ranks >= 2x Open MPI's 8 processes"),
    Target("internode", "2x4", "allreduce", 8, None, 2.0, True,
           "8 B allreduce over 2 processes x 4 ranks >= 2x faster than Open MPI's 8 processes"),
    Target("internode", "2x4", "barrier", 0, None, 2.0, True,
           "barrier over 2 processes x 4 ranks >= 2x faster than Open MPI's 8 processes"),
    Target("internode", "2x2", "barrier", 0, ("<=", 5.0), None, False,
           "barrier over 2 processes x 2 ranks within 5x of 4 ranks in one process"),
    Target("coll", "own cores", "allreduce", 8, None, 2.5, True,
           "8 B allreduce >= 2.5x faster than Open MPI"),
    Target("coll", "own cores", "barrier", 0, None, 2.5, True,
           "barrier >= 2.5x faster than Open MPI"),
    Target("coll", "own cores", "alltoall", 8, None, 2.5, True,
           "8 B alltoall >= 2.5x faster than Open MPI"),
    Target("coll", "own cores", "allreduce", 1 << 20, None, 1.0, True,
           "1 MiB allreduce no slower than Open MPI (>= 1x)"),
    Target("coll", "shared cores", "allreduce", 8, None, 5.0, True,
           "8 B allreduce >= 5x faster than Open MPI"),
    Target("coll", "shared cores", "barrier", 0, None, 5.0, True,
           "barrier >= 5x faster than Open MPI"),
    Target("overlap", "", "tested", 1 << 20, (">=", 80.0), None, False,
           "1 MiB Iallreduce at 2 ranks: at least 80 % of its time hidden behind computation"),
    Target("tasks", "", "worst ratio", None, ("<=", 1.10), None, False,
           "with tasks, imbalanced time \u2264 1.10 \u00d7 balanced"),
    Target("apps", "", "ported", None, None, 1.0, True,
           "ported without tasks at least as fast as Open MPI everywhere"),
    Target("apps", "", "oversubscribed", None, None, 1.0, True,
           "ported, faster than Open MPI where ranks outnumber cores"),
    Target("apps", "", "tasks vs balanced", None, ("<=", 1.15), None, False,
           "with tasks, imbalanced <= 1.15x balanced"),
    Target("apps", "", "tasks vs mpi", None, (">=", 1.5), None, False,
           "with tasks, imbalanced >= 1.5x faster than Open MPI"),
    Target("rma", "in process vs MPICH", "put", 8, None, 10.0, True,
           "8 B put+flush within a process >= 10x faster than MPICH's between processes"),
    Target("rma", "in process vs MPICH", "get", 8, None, 10.0, True,
           "8 B get+flush within a process >= 10x faster than MPICH's"),
    Target("rma", "in process vs MPICH", "fetch_op", 8, None, 10.0, True,
           "fetch_and_op+flush within a process >= 10x faster than MPICH's"),
    Target("rma", "across processes vs Open MPI", "put", 8, None, 1 / 1.2, True,
           "8 B put+flush across processes within 1.2x of Open MPI's (ratio >= 0.83x)"),
    Target("rma", "across processes vs Open MPI", "get", 8, None, 1 / 1.2, True,
           "8 B get+flush across processes within 1.2x of Open MPI's (ratio >= 0.83x)"),
    Target("build", "", "hello", None, ("<=", 2.0), None, False,
           "purecc -O2 -o hello hello.c within 2x mpicc's time"),
    Target("build", "", "link", None, ("<=", 2.0), None, False,
           "a hello world's link with purecc within 2x mpicc's"),
    Target("build", "", "cmake", None, ("<=", 2.0), None, False,
           "a find_package(Pure) program's link within 2x a find_package(MPI) one's"),
    Target("build", "", "make", None, ("<=", 3.0), None, False,
           "make -j2 of 40 small MPI programs with purecc within 3x mpicc's (translation included)"),
    Target("scale", "", "KiB per rank", None, ("<=", 64.0), None, False,
           "memory at most 64 KiB per rank plus a fixed base"),
    Target("scale", "", "wall time", 4096, ("<", 5.0), None, False,
           "4096 ranks start (and finish) in under 5 s"),
)

LIMIT_OPS = {"<=": lambda v, b: v <= b, ">=": lambda v, b: v >= b, "<": lambda v, b: v < b}


def targets(suite, scope=""):
    return [t for t in TARGETS if t.suite == suite and t.scope == scope]


def verdict(target, value=None, ratio=None, paired=None):
    ok = True
    if target.limit:
        op, bound = target.limit
        ok = ok and LIMIT_OPS[op](value, bound)
    if target.vs_mpi is not None:
        ok = ok and ratio >= target.vs_mpi and (not target.paired or paired >= target.vs_mpi)
    return "met" if ok else "NOT met"


# ------------------------------------------------------------------ reading


class ReportError(Exception):
    pass


def read_json_lines(path):
    """The objects of a JSON Lines file. Lines that are not objects are
    skipped: a launcher (mpirun) may write a notice to the same stream."""
    records = []
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if not line.startswith("{"):
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}:{number}: not JSON: {e}") from None
    return records


@dataclass
class Run:
    note: dict  # the launcher's side (runs.jsonl)
    records: list  # what the program printed
    log: str  # its standard error

    def __getattr__(self, key):
        try:
            return self.note[key]
        except KeyError:
            raise AttributeError(key) from None

    def config(self):
        return next((r for r in self.records if r.get("kind") == "config"), {})

    def measures(self):
        return [r for r in self.records if r.get("kind") != "config"]

    def settings(self):
        """Pure's "pure: settings:" line (PURE_STATS=1) as a dict."""
        for line in self.log.splitlines():
            if line.startswith("pure: settings: "):
                return dict(kv.split("=", 1) for kv in line.split()[2:] if "=" in kv)
        return {}

    def chunks(self):
        """Task chunks run by their owner and stolen, over the ranks and helper
        threads (the total and helper lines of PURE_STATS=1's table)."""
        own = stolen = 0
        for line in self.log.splitlines():
            if m := re.match(r"pure: stats: total: .* (\d+) own and (\d+) stolen chunks", line):
                own += int(m.group(1))
                stolen += int(m.group(2))
            elif m := re.match(r"pure: stats: \d+ helper thread\(s\): (\d+) stolen chunks", line):
                stolen += int(m.group(1))
        return own, stolen

    def text(self, directory):
        """What the program printed, as text (apps print result lines, not JSON)."""
        return (directory / f"{self.note['run']}.jsonl").read_text(errors="replace")


def load_runs(directory):
    runs = []
    manifest = directory / "runs.jsonl"
    for note in read_json_lines(manifest):
        out = directory / f"{note['run']}.jsonl"
        log = directory / f"{note['run']}.log"
        if not out.exists():
            raise ReportError(f"{out}: missing (listed in {manifest})")
        run = Run(note, read_json_lines(out), log.read_text(errors="replace") if log.exists() else "")
        for r in run.records:
            if "ranks" in r and "ranks" in note and r["ranks"] != note["ranks"]:
                raise ReportError(f"{out}: the program ran {r['ranks']} ranks, the launcher "
                                  f"asked for {note['ranks']}")
        runs.append(run)
    return runs


@dataclass
class Context:
    data: dict  # context.json
    directory: Path

    def __getitem__(self, key):
        return self.data.get(key)

    @property
    def rounds(self):
        return int(self.data.get("rounds", 1))

    @property
    def cores(self):
        return int(self.data["cores"])

    @property
    def load(self):
        return f"{self.data.get('load_before', '?')} before, {self.data.get('load_after', '?')} after"

    @property
    def ompi(self):
        return self.data.get("ompi_version", "Open MPI (version unknown)")

    def env_note(self, prefix):
        """Which variables of this kind also shaped the runs, if any."""
        names = [n for n in self.data.get("env", []) if n.startswith(prefix)]
        return f" (and from the environment: {' '.join(names)})" if names else ""

    @property
    def transport(self):
        return self.data.get("transport", "?") + self.env_note("OMPI_MCA_")


# ------------------------------------------------------------------ helpers


def label(b):
    """A size as the reports print it: 512 B, 1.5 KiB, 4 MiB."""
    if b >= 1048576:
        return f"{b / 1048576:g} MiB"
    if b >= 1024:
        return f"{b / 1024:g} KiB"
    return f"{b:g} B"


def median(xs):
    return statistics.median(xs) if xs else 0


def ratio(num, den):
    return num / den if den and den > 0 else 0


class Text:
    """The report being written: print() collects lines."""

    def __init__(self):
        self.lines = []

    def __call__(self, fmt="", *args):
        self.lines.append(fmt % args if args else fmt)

    def text(self):
        return "\n".join(self.lines) + "\n"


# ------------------------------------------------------------------ p2p

P2P_UNIT = {"lat": "usec", "bw": "gb_per_s"}


def p2p_data(runs):
    """{(kind, impl, bytes): best} and {(kind, impl, bytes, round): value}."""
    val, best = {}, {}
    for run in runs:
        for r in run.measures():
            kind, b = r["kind"], r["bytes"]
            v = r[P2P_UNIT[kind]]
            val[kind, run.impl, b, run.round] = v
            key = (kind, run.impl, b)
            if key not in best or (v < best[key] if kind == "lat" else v > best[key]):
                best[key] = v
    return best, val


def p2p_paired(val, rounds, kind, b):
    """The median over rounds of the ratio within one round (Pure faster > 1)."""
    xs = []
    for r in range(1, rounds + 1):
        p, m = val.get((kind, "pure", b, r)), val.get((kind, "mpi", b, r))
        if p is None or m is None or p <= 0 or m <= 0:
            continue
        xs.append(m / p if kind == "lat" else p / m)
    return median(xs)


# ------------------------------------------------------------------ typed C++


TYPED_TITLES = {"lat": "latency of a double", "bw": "windowed bandwidth",
                "allreduce": "allreduce of a double", "barrier": "barrier"}


def report_typed(ctx, runs, out, ranks=None):
    """bench_typed's table: the typed C++ API against the flat calls, measured
    batch by batch in one program. Cost > 1 means the typed API is slower."""
    runs = [r for r in runs if r.impl == "typed" and (ranks is None or r.ranks == ranks)]
    if not runs:
        return
    best, per_round, rows = {}, {}, []
    for run in runs:
        for r in run.measures():
            key = (r["kind"], r["bytes"])
            if key not in rows:
                rows.append(key)
            unit = "gb_per_s" if r["kind"] == "bw" else "usec"
            v = r[unit]
            slot = (key, r["api"])
            if slot not in best or (v > best[slot] if r["kind"] == "bw" else v < best[slot]):
                best[slot] = v
            per_round[key, r["api"], run.round] = v

    def cost(kind, flat, typed):
        if flat <= 0 or typed <= 0:
            return 0.0
        return flat / typed if kind == "bw" else typed / flat

    out()
    out("Typed C++ API (pure/communicator.hpp) against the flat calls it sits on%s: bench_typed "
        "runs", "" if ranks is None else ", %d ranks" % ranks)
    out("each measure through both, batch by batch in turn. Best of %d rounds; cost = typed time "
        "/ flat", ctx.rounds)
    out('time (flat / typed bandwidth), > 1 means the typed API is slower; "paired" is the median')
    out("over rounds of the cost within one round.")
    out("| %-22s | %8s | %10s | %10s | %7s | %7s |", "measure", "size", "flat", "typed C++", "cost",
        "paired")
    for kind, b in rows:
        f, t = best.get(((kind, b), "flat"), 0), best.get(((kind, b), "typed"), 0)
        paired = median([cost(kind, per_round[(kind, b), "flat", r], per_round[(kind, b), "typed", r])
                         for r in range(1, ctx.rounds + 1)
                         if ((kind, b), "flat", r) in per_round and ((kind, b), "typed", r) in per_round])
        unit = " GB/s" if kind == "bw" else " us"
        out("| %-22s | %8s | %10s | %10s | %6.3fx | %6.3fx |", TYPED_TITLES.get(kind, kind),
            "-" if kind == "barrier" else label(b), "%.3f%s" % (f, unit), "%.3f%s" % (t, unit),
            cost(kind, f, t), paired)


def report_p2p(ctx, runs, out):
    inter = ctx["suite"] == "internode"
    over_mpich = [r for r in runs if r.note.get("mpi") == "mpich"]
    runs = [r for r in runs if r.note.get("mpi") != "mpich"]
    rates = [r for r in runs if r.note.get("bench") == "msgrate"]
    colls = [r for r in runs if r.note.get("bench") == "coll"]
    splits = [r for r in runs if r.note.get("bench") == "coll-split"]
    runs = [r for r in runs if r.note.get("bench") not in ("msgrate", "coll", "coll-split")]
    typed = runs
    runs = [r for r in runs if r.impl != "typed"]
    best, val = p2p_data(runs)
    sizes = sorted({k[2] for k in best})
    if inter:
        out("Point-to-point between processes, 2 ranks. Pure: one rank in each of 2 processes\n"
            "(purerun -n 2 --ranks-per-proc 1), its messages through Open MPI with the same transport.")
    else:
        out("Point-to-point, 2 ranks. Pure: 2 rank threads in one process, one per core.")
    out("Open MPI: %s, 2 processes, mpirun --bind-to core, %s.", ctx.ompi, ctx.transport)
    out('Best of %d alternating rounds per size; ratio > 1 means Pure is faster; "paired" is the',
        ctx.rounds)
    out("median over rounds of the ratio within one round (this VM has slow and fast phases).")
    out("Load average (1, 5, 15 min) %s; %d cores. Other work on the cores makes timings noisy.\n",
        ctx.load, ctx.cores)
    for kind, title in (("lat", "One-way latency, half a ping-pong round trip (us)"),
                        ("bw", "Bandwidth, window of 64 messages then an ack (GB/s = 1e9 B/s)")):
        if kind == "bw":
            out()
        out(title)
        out("| %8s | %10s | %10s | %8s | %8s |", "size", "Pure", "Open MPI", "ratio", "paired")
        for s in sizes:
            p, m = best.get((kind, "pure", s), 0), best.get((kind, "mpi", s), 0)
            r = ratio(m, p) if kind == "lat" else ratio(p, m)
            out("| %8s | %10.3f | %10.3f | %7.2fx | %7.2fx |", label(s), p, m, r,
                p2p_paired(val, ctx.rounds, kind, s))
    out()
    for t in targets(ctx["suite"]):
        p, m = best.get((t.measure, "pure", t.size)), best.get((t.measure, "mpi", t.size))
        if p is None or m is None:
            continue
        r = ratio(m, p) if t.measure == "lat" else ratio(p, m)
        q = p2p_paired(val, ctx.rounds, t.measure, t.size)
        unit = "us" if t.measure == "lat" else "GB/s"
        digits = 3 if t.measure == "lat" else 2
        line = "Target: %s: Pure %.*f %s, Open MPI %.*f %s, %.2fx" % (
            t.text, digits, p, unit, digits, m, unit, r)
        if t.paired:
            line += " (same-round median %.2fx)" % q
        out("%s -> %s", line, verdict(t, p, r, q))
    if inter:
        sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
        import bench_internode  # the rows only the internode suite has

        bench_internode.report(ctx, rates, colls, splits, over_mpich, out)
    report_typed(ctx, typed, out)
    return 0


# ------------------------------------------------------------------ coll


def coll_data(runs):
    """best {(n, impl, op, bytes)}, val {(n, impl, op, bytes, round)}, the rows
    of each rank count in the order the benchmark ran them, and Open MPI's
    mpi_yield_when_idle per rank count."""
    best, val, rows, yields = {}, {}, {}, {}
    for run in runs:
        n = run.ranks
        rows.setdefault(n, [])
        if "yield_when_idle" in run.config():
            yields[n] = run.config()["yield_when_idle"]
        for r in run.measures():
            op, b, t = r["kind"], r["bytes"], r["usec"]
            key = (n, run.impl, op, b)
            if key not in best or t < best[key]:
                best[key] = t
            val[n, run.impl, op, b, run.round] = t
            if (op, b) not in rows[n]:
                rows[n].append((op, b))
    return best, val, rows, yields


def coll_paired(val, rounds, n, op, b):
    xs = []
    for r in range(1, rounds + 1):
        p, m = val.get((n, "pure", op, b, r)), val.get((n, "mpi", op, b, r))
        if p is None or m is None or p <= 0:
            continue
        xs.append(m / p)
    return median(xs)


def coll_size_label(op, b):
    if op == "barrier":
        return "-"
    return label(b) + ("/pair" if op == "alltoall" else "")


def report_coll(ctx, runs, out):
    typed = runs
    runs = [r for r in runs if r.impl != "typed"]
    best, val, rows, yields = coll_data(runs)
    cores = ctx.cores
    out("Collectives over MPI_COMM_WORLD. Pure: rank threads in one process%s.",
        ctx.env_note("PURE_"))
    out("Open MPI: %s, processes, %s.", ctx.ompi, ctx.transport)
    out("Time of one call (us): the mean over a batch of back-to-back calls on the slowest rank,")
    out("the minimum over batches, the best of %d alternating rounds. Ratio = Open MPI / Pure,",
        ctx.rounds)
    out('> 1 means Pure is faster; "paired" is the median over rounds of the ratio within one')
    out("round (this VM has slow and fast phases; the two bests may come from different ones).")
    out("Load average (1, 5, 15 min) %s; %d cores.", ctx.load, cores)
    out("Other work on the cores makes timings noisy.")
    for n in sorted(rows):
        if n <= cores:
            head = ("\n%d ranks, one per core. Pure: purerun -n %d --bind core. Open MPI: mpirun "
                    "-np %d --bind-to core" % (n, n, n))
        else:
            head = ("\n%d ranks on %d cores. Pure: purerun -n %d (ranks sharing a core are fibers, "
                    "PURE_FIBERS=auto).\nOpen MPI: mpirun -np %d --oversubscribe --bind-to none"
                    % (n, cores, n, n))
        out("%s (mpi_yield_when_idle %s).", head, yields.get(n, "?"))
        out("| %-9s | %10s | %10s | %10s | %8s | %8s |", "op", "size", "Pure", "Open MPI", "ratio",
            "paired")
        for op, b in rows[n]:
            p, m = best.get((n, "pure", op, b), 0), best.get((n, "mpi", op, b), 0)
            out("| %-9s | %10s | %10.3f | %10.3f | %7.2fx | %7.2fx |", op, coll_size_label(op, b),
                p, m, ratio(m, p), coll_paired(val, ctx.rounds, n, op, b))
    out()
    for n in sorted(rows):
        scope = "own cores" if n <= cores else "shared cores"
        for t in targets("coll", scope):
            p, m = best.get((n, "pure", t.measure, t.size)), best.get((n, "mpi", t.measure, t.size))
            if p is None or m is None or p <= 0:
                continue
            q = coll_paired(val, ctx.rounds, n, t.measure, t.size)
            out("Target, %d ranks: %s: Pure %.3f us, Open MPI %.3f us, %.2fx (same-round median "
                "%.2fx) -> %s", n, t.text, p, m, m / p, q, verdict(t, p, m / p, q))
        if scope == "shared cores":
            # How far the small-message goal reaches: allreduce at every size.
            goal = next(t.vs_mpi for t in targets("coll", scope) if t.measure == "allreduce")
            fast = total = 0
            worst = worst_b = None
            for op, b in rows[n]:
                p, m = best.get((n, "pure", op, b), 0), best.get((n, "mpi", op, b), 0)
                if op != "allreduce" or p <= 0:
                    continue
                total += 1
                fast += m / p >= goal
                if worst is None or m / p < worst:
                    worst, worst_b = m / p, b
            if total:
                out("(%d ranks, allreduce at every size: %d of %d sizes >= %gx; the lowest ratio is "
                    "%.2fx at %s)", n, fast, total, goal, worst, label(worst_b))
    for n in sorted(rows):
        report_typed(ctx, typed, out, ranks=n)
    return 0


# ------------------------------------------------------------------ coll --threshold


def threshold_choice(best, ns, sizes, members):
    """The threshold (index into sizes, len(sizes) = never partition) that
    costs least against the faster path at every size and rank count in
    `members`: the smallest worst slowdown, ties broken by the geometric
    mean. Returns (index, worst, mean)."""
    pick = None
    for k in range(len(sizes) + 1):
        worst, logs = 1.0, []
        for n in members:
            for j, b in enumerate(sizes):
                p, c = best.get((n, "partitioned", b), 0), best.get((n, "combined", b), 0)
                fastest = min(p, c)
                if fastest <= 0:
                    continue
                chosen = p if j >= k else c
                worst = max(worst, chosen / fastest)
                logs.append(math.log(chosen / fastest))
        mean = math.exp(sum(logs) / len(logs)) if logs else 1.0
        if (pick is None or worst < pick[1] - 1e-9
                or (worst < pick[1] + 1e-9 and mean < pick[2])):
            pick = (k, worst, mean)
    return pick


def auto_thresholds(runs):
    """What PURE_REDUCE_PARTITION=auto picks, as the runs printed it."""
    seen = set()
    for run in runs:
        s = run.settings()
        keys = ("reduce_partition_auto_own_cores", "reduce_partition_auto_fibers",
                "reduce_partition_auto_threads")
        if all(k in s for k in keys):
            seen.add(tuple(int(s[k]) for k in keys))
    if len(seen) > 1:
        raise ReportError(f"the runs printed different auto thresholds: {sorted(seen)}")
    return seen.pop() if seen else None


def report_threshold(ctx, runs, out):
    best = {}
    for run in runs:
        for r in run.measures():
            if r["kind"] != "allreduce":
                continue
            key = (run.ranks, run.partition, r["bytes"])
            if key not in best or r["usec"] < best[key]:
                best[key] = r["usec"]
    ns = sorted({k[0] for k in best})
    sizes = sorted({k[2] for k in best})
    cores = ctx.cores

    def t_label(k):
        return label(sizes[k]) if k < len(sizes) else "never"

    out("Pure allreduce (MPI_DOUBLE, MPI_SUM), us per call: the partitioned reducer at every")
    out("size (PURE_REDUCE_PARTITION=0) against leader flat-combining at every size (=1G).")
    out("Best of %d rounds; ratio = combined / partitioned, > 1 means partitioned is faster.",
        ctx.rounds)
    out("Load average (1, 5, 15 min) %s after; %d cores.", ctx["load_after"], cores)
    for n in ns:
        out("\n%d ranks%s", n, f" on {cores} cores" if n > cores else ", a core each")
        out("| %8s | %11s | %10s | %11s | %8s |", "size", "partitioned", "combined", "faster",
            "ratio")
        for b in sizes:
            p, c = best.get((n, "partitioned", b), 0), best.get((n, "combined", b), 0)
            out("| %8s | %11.3f | %10.3f | %11s | %7.2fx |", label(b), p, c,
                "partitioned" if p < c else "combined", ratio(c, p))
        # The smallest size from which partitioned wins at every larger size.
        crossover = None
        for b in reversed(sizes):
            if not best.get((n, "partitioned", b), 0) < best.get((n, "combined", b), 0):
                break
            crossover = b
        if crossover is None:
            out("Crossover: none up to %s (combining is faster there)", label(sizes[-1]))
        elif crossover == sizes[0]:
            out("Crossover: partitioned is faster at every size, from %s", label(crossover))
        else:
            out("Crossover: partitioned is faster from %s on", label(crossover))
        k, worst, mean = threshold_choice(best, ns, sizes, [n])
        out("Best threshold for %d ranks: %s (worst slowdown %.3fx, mean %.3fx)", n, t_label(k),
            worst, mean)
    if len(ns) > 1:
        k, worst, mean = threshold_choice(best, ns, sizes, ns)
        out("\nOne threshold for every rank count above: %s (worst slowdown %.3fx, mean %.3fx)",
            t_label(k), worst, mean)
    auto = auto_thresholds(runs)
    if auto:
        own, fibers, threads = auto
        out("\nPURE_REDUCE_PARTITION=auto now uses %s with a core per rank and %s when ranks",
            label(own), label(fibers))
        out("share cores as fibers, as measured here (%s as threads, PURE_FIBERS=off), as the",
            label(threads))
        out("runtime printed them with PURE_STATS=1.")
    else:
        out("\nPURE_REDUCE_PARTITION=auto: no run printed its thresholds (PURE_STATS=1).")
    return 0


# ------------------------------------------------------------------ tasks


def stencil_results(runs):
    """One (run, result record) per run; fails when a run printed none."""
    pairs = []
    for run in runs:
        result = next((r for r in run.records if r.get("bench") == "rand_stencil"), None)
        if result is None:
            raise ReportError(f"{run.run}: no rand_stencil result")
        pairs.append((run, result))
    return pairs


def report_tasks(ctx, runs, out):
    best, chunks, xs, checksum, work, bad = {}, {}, {}, {}, {}, []
    for run, r in stencil_results(runs):
        v, n, x, t = r["version"], r["ranks"], r["imbalance"], r["time"]
        xs.setdefault(n, set()).add(x)
        key = (n, v, x)
        if key not in best or t < best[key]:
            best[key], chunks[key] = t, run.chunks()
        seen = checksum.setdefault((n, x), (r["checksum"], run.run))
        if seen[0] != r["checksum"]:
            bad.append("checksums differ at %d ranks, imbalance %g: %s (%s), %s (%s)"
                       % (n, x, seen[0], seen[1], r["checksum"], run.run))
        seen = work.setdefault(n, (r["work"], run.run))
        if seen[0] != r["work"]:
            bad.append("total work differs at %d ranks: %s (%s), %s (%s)"
                       % (n, seen[0], seen[1], r["work"], run.run))
    cores = ctx.cores
    out("apps/rand_stencil %s: the same total work at every imbalance (the", ctx["input"])
    out("result lines say so); the heavy region is rank 0's block (--heavy 1/ranks), so at")
    out("imbalance X rank 0 does 1+(ranks-1)X times the mean work and the others 1-X times.")
    out("Open MPI: rand_stencil_mpi, processes; %s,\n%s.", ctx.ompi, ctx.transport)
    out("Pure: rand_stencil_pure, the same MPI source against Pure's <mpi.h>, rank threads.")
    out("Pure + tasks: rand_stencil_tasks, each iteration's compute loop a PureTask that")
    out("waiting ranks steal chunks of%s.", ctx.env_note("PURE_"))
    out("Time (s): rank 0's, barrier to barrier, best of %d alternating rounds. ratio: time /",
        ctx.rounds)
    out("the same version's time at imbalance 0. MPI/tasks: Open MPI / Pure + tasks, > 1 means")
    out("tasks is faster. stolen: task chunks run by a rank other than their owner, of all")
    out("chunks run, in the fastest tasks run (PURE_STATS=1).")
    out("Load average (1, 5, 15 min) %s; %d cores. Other work on the cores makes timings noisy.",
        ctx.load, cores)
    worst = {}
    for n in sorted(xs):
        sweep = sorted(xs[n])
        x0 = sweep[0]
        if n <= cores:
            out("\n%d ranks, one per core: purerun -n %d --bind core; mpirun -np %d --bind-to core.",
                n, n, n)
        else:
            out("\n%d ranks on %d cores: purerun -n %d; mpirun -np %d --oversubscribe --bind-to none.",
                n, cores, n, n)
        out("| %9s | %12s | %6s | %8s | %6s | %9s | %6s | %9s | %24s |", "imbalance", "Open MPI (s)",
            "ratio", "Pure (s)", "ratio", "tasks (s)", "ratio", "MPI/tasks", "stolen chunks (share)")
        for x in sweep:
            m, p, t = (best.get((n, v, x), 0) for v in ("mpi", "pure", "tasks"))
            own, stolen = chunks.get((n, "tasks", x), (0, 0))
            total = own + stolen
            tr = ratio(t, best.get((n, "tasks", x0), 0))
            out("| %9s | %12.3f | %5.2fx | %8.3f | %5.2fx | %9.3f | %5.2fx | %8.2fx | %6d of %6d "
                "(%4.1f%%) |", f"{x:g}", m, ratio(m, best.get((n, "mpi", x0), 0)), p,
                ratio(p, best.get((n, "pure", x0), 0)), t, tr, ratio(m, t), stolen, total,
                100 * stolen / total if total else 0)
            if x > 0 and (n not in worst or tr > worst[n][0]):
                worst[n] = (tr, x)
    out()
    target = targets("tasks")[0]
    for n in sorted(xs):
        if n not in worst or min(xs[n]) != 0:
            continue
        w, x = worst[n]
        out("Target, %d ranks%s: %s: worst ratio %.3f (imbalance %g) -> %s", n,
            f" on {cores} cores" if n > cores else "", target.text, w, x, verdict(target, w))
    if bad:
        out("\nWRONG RESULTS:\n%s", "\n".join(bad))
        return 1
    return 0


def report_demo(ctx, runs, out):
    """tools/demo.sh: the three versions at one imbalance, and the task
    version balanced, one rank per core."""
    best, chunks, checksum, bad = {}, {}, {}, []
    work = None
    for run, r in stencil_results(runs):
        case, t = run.case, r["time"]
        if case not in best or t < best[case]:
            best[case], chunks[case] = t, run.chunks()
        first = checksum.setdefault(case, r["checksum"])
        if first != r["checksum"]:
            bad.append(f"{case} printed checksum {first} in one round and {r['checksum']} in another")
        if work is None:
            work = r["work"]
        elif work != r["work"]:
            bad.append(f"{case} executed {r['work']} inner iterations, another run {work}")
    words = ctx["input"].split()
    opt = dict(zip(words[::2], words[1::2]))
    ranks, imbalance = int(ctx["ranks"]), float(ctx["imbalance"])
    out("rand_stencil (apps/rand_stencil): a 1-D stencil, %d cells, %d iterations with a halo",
        int(opt["--n"]), int(opt["--iters"]))
    out("exchange each, whose work per cell is random (%d inner iterations per cell and iteration",
        int(opt["--work"]))
    out("on average, %s in every run). --imbalance %s piles it on rank 0's block: rank 0", work,
        ctx["imbalance"])
    out("does %.2fx the mean work, every other rank %.2fx. %d ranks on %d cores, one per core.",
        1 + imbalance * (ranks - 1), 1 - imbalance, ranks, ctx.cores)
    out("Time: rank 0's, barrier to barrier, best of %d rounds alternating the four runs.\n",
        ctx.rounds)
    out("| %-28s | %-20s | %8s | %19s | %-18s |", "version", "ranks are", "time (s)",
        "speedup vs Open MPI", "checksum")
    out("|%s|%s|%s|%s|%s|", "-" * 30, "-" * 22, "-" * 10, "-" * 21, "-" * 20)
    for case, name, how, vs in (("mpi", "Open MPI", f"{ranks} processes", True),
                                ("pure", "Pure", f"{ranks} threads", True),
                                ("tasks", "Pure + tasks", f"{ranks} threads, stealing", True),
                                ("balanced", "Pure + tasks, --imbalance 0",
                                 f"{ranks} threads, stealing", False)):
        t = best.get(case, 0)
        speedup = "%.2fx" % (best.get("mpi", 0) / t) if vs and t > 0 else "-"
        out("| %-28s | %-20s | %8.3f | %19s | %-18s |", name, how, t, speedup,
            checksum.get(case, ""))
    out()
    if checksum.get("mpi") == checksum.get("pure") == checksum.get("tasks"):
        out("Checksums: identical for Open MPI, Pure and Pure + tasks (the balanced input computes\n"
            "other values, with the same total work).")
    else:
        bad.append("the versions disagree: Open MPI %s, Pure %s, Pure + tasks %s"
                   % (checksum.get("mpi"), checksum.get("pure"), checksum.get("tasks")))
    balanced = best.get("balanced", 0)
    if balanced > 0:
        own, stolen = chunks["tasks"]
        goal = targets("tasks")[0].limit[1]
        out("With tasks, imbalanced vs balanced: %.3f s / %.3f s = %.2fx (the target is <= %.2fx).",
            best["tasks"], balanced, best["tasks"] / balanced, goal)
        out("Waiting ranks ran %d of the %d task chunks of the imbalanced run (%.1f%%) for", stolen,
            own + stolen, 100 * stolen / (own + stolen) if own + stolen else 0)
        out("their owners; Pure alone is %.2fx and Open MPI %.2fx the balanced time.",
            best["pure"] / balanced, best["mpi"] / balanced)
    if bad:
        out("\nWRONG RESULTS:\n%s", "\n".join(bad))
        return 1
    return 0


# ------------------------------------------------------------------ scale


def scale_data(runs):
    """{(impl, ranks): (largest peak RSS over rounds in KiB, best wall time in s, procs)}."""
    data = {}
    for run in runs:
        kb = max((r["process_peak_rss_kb"] for r in run.measures() if r["kind"] == "memory"),
                 default=None)
        if kb is None:
            raise ReportError(f"{run.run}: no memory record")
        key = (run.impl, run.ranks)
        old_kb, old_s, _ = data.get(key, (0, math.inf, 0))
        data[key] = (max(old_kb, kb), min(old_s, run.wall_us / 1e6), run.procs)
    return data


def scale_fit(data):
    """Pure's peak RSS against ranks, least squares: (base KiB, KiB per rank)."""
    points = sorted((n, kb) for (impl, n), (kb, _, _) in data.items() if impl == "pure")
    if len(points) < 2:
        return None
    slope, base = statistics.linear_regression([n for n, _ in points], [kb for _, kb in points])
    return base, slope


def mib(kb):
    return kb / 1024


def report_scale(ctx, runs, out):
    data = scale_data(runs)
    mpi = sorted(n for impl, n in data if impl == "mpi")
    # Open MPI's per-process peak at its largest count measured: the
    # per-process cost that N ranks would pay N times.
    mpi_per_proc = data["mpi", mpi[-1]][0] if mpi else None
    out("Memory and start-up against the rank count. Pure: one process of rank threads")
    out("(purerun -n N)%s. Open MPI: %s, one process per rank", ctx.env_note("PURE_"), ctx.ompi)
    out("(mpirun -np N --oversubscribe); its total is the per-process peak times the ranks.")
    out("Peak RSS: VmHWM of rank 0's process, the largest of %d rounds. Wall time: the whole run",
        ctx.rounds)
    out("as the launcher sees it (start, a ring exchange, a barrier, finalize, exit), the best of")
    out("%d rounds. Load average (1, 5, 15 min) %s; %d cores.\n", ctx.rounds, ctx.load, ctx.cores)
    out("| %-8s | %6s | %9s | %16s | %14s | %12s | %13s | %19s |", "", "ranks", "processes",
        "peak per process", "total", "per rank", "wall time (s)", "Open MPI equivalent")
    for impl, name in (("pure", "Pure"), ("mpi", "Open MPI")):
        for n in sorted(k[1] for k in data if k[0] == impl):
            kb, seconds, procs = data[impl, n]
            total = kb * procs
            equivalent = "%.1f MiB" % mib(mpi_per_proc * n) if impl == "pure" and mpi_per_proc else "-"
            out("| %-8s | %6d | %9d | %12.1f MiB | %10.1f MiB | %8.1f KiB | %13.3f | %19s |", name, n,
                procs, mib(kb), mib(total), total / n, seconds, equivalent)
    out()
    fit = scale_fit(data)
    pure_counts = sorted(k[1] for k in data if k[0] == "pure")
    for t in targets("scale"):
        if t.measure == "KiB per rank":
            if not fit:
                out("Target: %s: needs two Pure rank counts -> not measured", t.text)
                continue
            base, slope = fit
            out("Target: %s: %.1f KiB per rank over a base of %.1f MiB (least squares over %s "
                "ranks) -> %s", t.text, slope, mib(base), ", ".join(map(str, pure_counts)),
                verdict(t, slope))
        elif ("pure", t.size) in data:
            seconds = data["pure", t.size][1]
            out("Target: %s: %.3f s -> %s", t.text, seconds, verdict(t, seconds))
        else:
            out("Target: %s: not measured (no run at %d ranks; --quick stops at %d)", t.text,
                t.size, pure_counts[-1] if pure_counts else 0)
    return 0


# ------------------------------------------------------------------ queue, floor


def report_queue(ctx, runs, out):
    bench = json.loads((ctx.directory / "queue.json").read_text())
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    times, names = {}, []
    for b in bench["benchmarks"]:
        stat = b.get("aggregate_name")
        if b.get("run_type") != "aggregate" or stat not in ("min", "median"):
            continue
        name = b["run_name"].removesuffix("/real_time")
        impl = "eager" if name.startswith("BM_EagerQueue_") else "boost"
        name = re.sub(r"^BM_(EagerQueue|BoostSpsc)_", "", name)
        # The min aggregate's best_ns is the fastest window of any repetition.
        if stat == "min" and "best_ns" in b:
            times[impl, stat, name] = b["best_ns"]
        else:
            times[impl, stat, name] = b["real_time"] * scale[b.get("time_unit", "ns")]
        if name not in names:
            names.append(name)
    out("ns per message (PushConsume, one thread) or per 8-byte round trip (PingPong, two")
    out("threads on two CPUs). best: the fastest window of 256 iterations over %s", ctx["reps"])
    out("repetitions; median: the median repetition's mean. Ratio of the bests > 1 means")
    out("EagerQueue is faster.")
    out("| %-17s | %-21s | %-21s | %7s |", "benchmark", "EagerQueue best (med)", "Boost best (med)",
        "ratio")
    for m in names:
        e, b = times.get(("eager", "min", m), 0), times.get(("boost", "min", m), 0)
        out("| %-17s | %9.1f (%9.1f) | %9.1f (%9.1f) | %6.2fx |", m, e,
            times.get(("eager", "median", m), 0), b, times.get(("boost", "median", m), 0),
            ratio(b, e))
    return 0


FLOOR_ROWS = (("one_line", "one-way, one line"), ("two_lines", "one-way, two lines"),
              ("exchange", "exchange"), ("yield_switch", "yield switch"),
              ("fiber_switch", "fiber switch"))


def report_floor(ctx, runs, out):
    ns = {r["kind"]: r["ns"] for run in runs for r in run.measures()}
    out("The machine's floors (bench/hw_floor.cpp), best of 20 batches; load average (1, 5, 15")
    out("min) %s; %d cores.", ctx.load, ctx.cores)
    for kind, name in FLOOR_ROWS:
        if kind not in ns:
            continue
        if ns[kind] is None:
            out("%-20s (not available on this machine)", name)
        else:
            out("%-20s %8.1f ns", name, ns[kind])
    return 0


def report_rma(ctx, runs, out):
    sys.dont_write_bytecode = True
    import bench_rma  # the one-sided report: four implementations

    return bench_rma.report(ctx, runs, out)


def report_overlap(ctx, runs, out):
    sys.dont_write_bytecode = True
    import bench_overlap  # the nonblocking allreduce hidden behind computation

    return bench_overlap.report(ctx, runs, out)


def report_build(ctx, runs, out):
    sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
    import bench_build  # building programs: purecc against mpicc

    return bench_build.report(ctx, runs, out)


def report_apps(ctx, runs, out):
    sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
    import bench_apps  # the applications' report: their own result lines

    return bench_apps.report(ctx, runs, out)


REPORTS = {
    "p2p": report_p2p,
    "internode": report_p2p,
    "coll": report_coll,
    "coll-threshold": report_threshold,
    "overlap": report_overlap,
    "tasks": report_tasks,
    "apps": report_apps,
    "rma": report_rma,
    "demo": report_demo,
    "scale": report_scale,
    "queue": report_queue,
    "floor": report_floor,
    "build": report_build,
}

# ------------------------------------------------------------------ commands


def read_context(directory):
    return Context(json.loads((directory / "context.json").read_text()), directory)


def write_context(directory, data):
    (directory / "context.json").write_text(json.dumps(data, indent=1) + "\n")


def load_average():
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cmd_begin(args):
    data = {"suite": args.suite, "rounds": args.rounds, "cores": len(os.sched_getaffinity(0)),
            "load_before": load_average(),
            "env": [n for n in os.environ if n.startswith(("PURE_", "OMPI_MCA_"))]}
    if args.transport is not None:
        data["transport"] = args.transport
        try:
            version = subprocess.run(["mpirun", "--version"], capture_output=True, text=True,
                                     check=False).stdout.splitlines()
            data["ompi_version"] = version[0] if version else "mpirun (version unknown)"
        except OSError:
            data["ompi_version"] = "no mpirun"
    for item in args.set or []:
        key, sep, value = item.partition("=")
        if not sep:
            sys.exit(f"bench_report: --set {item}: expected KEY=VALUE")
        data[key] = value
    write_context(Path(args.dir), data)
    return 0


def cmd_end(args):
    directory = Path(args.dir)
    data = json.loads((directory / "context.json").read_text())
    data["load_after"] = load_average()
    write_context(directory, data)
    return 0


def cmd_show(args):
    directory = Path(args.dir)
    ctx = read_context(directory)
    suite = ctx["suite"]
    runs = load_runs(directory) if (directory / "runs.jsonl").exists() else []
    out = Text()
    status = REPORTS[suite](ctx, runs, out)
    (directory / "report.txt").write_text(out.text())
    sys.stdout.write(out.text())
    if args.plot:
        sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
        import bench_plot  # matplotlib, only when figures are asked for

        names = bench_plot.draw(ctx, runs, directory)
        for name in names:
            print(f"(figure: {directory / name})")
        if not names:
            print(f"(no figures for {suite})")
    return status


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    begin = sub.add_parser("begin", help="record the launch in DIR/context.json")
    begin.add_argument("dir")
    begin.add_argument("--suite", required=True, choices=sorted(REPORTS))
    begin.add_argument("--rounds", type=int, default=1)
    begin.add_argument("--transport", help="how Open MPI moves data (also records its version)")
    begin.add_argument("--set", action="append", metavar="KEY=VALUE", help="a suite input")
    end = sub.add_parser("end", help="record the load average after the runs")
    end.add_argument("dir")
    show = sub.add_parser("show", help="print the report of DIR")
    show.add_argument("dir")
    show.add_argument("--plot", action="store_true", help="also draw DIR/*.png (matplotlib)")
    args = parser.parse_args(argv)
    try:
        return {"begin": cmd_begin, "end": cmd_end, "show": cmd_show}[args.command](args)
    except (ReportError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"bench_report: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
