"""The report of `tools/bench.sh apps` (and of the DT part of tools/demo.sh):
NAS DT and the MD proxy under Open MPI, Pure (the same MPI source, ported)
and Pure with tasks. A module of tools/bench_report.py, which loads it for
the `apps` suite: the applications print result lines of their own rather
than JSON, and this reads them.

Runs are named APP.INPUT.RANKS.VERSION.ROUND (bench.sh app_run). The report
checks that the versions computed the same results (DT: NPB's verification
and the same L2 norm; MD: the same energy lines and pair counts at every
rank count) and prints one table: each version's best time, Open MPI's time
over Pure's and over the task version's (best against best, and the median
over rounds of the ratio within a round), and the targets.
"""
import re
import statistics

from bench_report import targets, verdict

VERSIONS = ("mpi", "pure", "tasks")
DT_LINE = re.compile(r"^DT (\S+) l2=(\S+) verified=(yes|no) time_s=(\S+)$", re.M)
MD_STEP = re.compile(r"^md: step .*$", re.M)
MD_RESULT = re.compile(r"^md: atoms (\d+) steps \d+ pairs (\d+) time_s (\S+) ", re.M)


class AppRun:
    """One run's time, and what must agree with the other runs of its input."""

    def __init__(self, run, directory):
        self.run = run
        self.app, self.input, self.ranks = run.app, str(run.input), int(run.ranks)
        self.version, self.round = run.impl, int(run.round)
        self.own, self.stolen = run.chunks()
        text = run.text(directory)
        if self.app == "dt":
            m = DT_LINE.search(text)
            if not m:
                raise ValueError(f"{run.run}: no 'DT ... l2=' result line")
            self.time = float(m.group(4))
            self.result = f"{m.group(1)} l2={m.group(2)}"
            self.verified = m.group(3) == "yes"
            self.work = None
        else:
            m = MD_RESULT.search(text)
            if not m:
                raise ValueError(f"{run.run}: no 'md: atoms ... time_s' result line")
            self.time = float(m.group(3))
            self.result = "\n".join(MD_STEP.findall(text))
            self.verified = bool(self.result)
            self.work = int(m.group(2))

    @property
    def config(self):
        return (self.app, self.input, self.ranks)


def check(runs):
    """The problems: runs of one input that disagree, or results NPB rejects."""
    problems, first = [], {}
    for run in runs:
        if not run.verified:
            problems.append(f"{run.run.run}: " + ("verified=no" if run.app == "dt" else "no energies"))
        # DT's L2 norm depends on the input only; MD's energies and pair
        # counts do not depend on the rank count either.
        key = (run.app, run.input) if run.app == "md" else run.config
        other = first.setdefault(key, run)
        if other is run:
            continue
        if run.result != other.result:
            problems.append(f"{run.run.run} and {other.run.run} computed different results")
        if run.work != other.work:
            problems.append(f"{run.run.run} and {other.run.run} counted different work")
    return problems


def median_ratio(runs_a, runs_b):
    """Median over rounds of time(a) / time(b) within a round."""
    b_by_round = {r.round: r.time for r in runs_b}
    ratios = [a.time / b_by_round[a.round] for a in runs_a
              if a.round in b_by_round and b_by_round[a.round] > 0]
    return statistics.median(ratios) if ratios else float("nan")


def summarise(runs):
    """One row per (app, input, ranks): each version's best run and all its runs,
    and Open MPI's time over Pure's and over the task version's."""
    by = {}
    for run in runs:
        by.setdefault(run.config + (run.version,), []).append(run)
    rows = []
    for config in sorted({r.config for r in runs}, key=lambda c: (c[0], c[2], c[1])):
        row = {"config": config}
        for v in VERSIONS:
            row[v + "_runs"] = by.get(config + (v,), [])
            row[v] = min(row[v + "_runs"], key=lambda r: r.time) if row[v + "_runs"] else None
        for v in ("pure", "tasks"):
            ok = row["mpi"] and row[v]
            row[v + "_best"] = row["mpi"].time / row[v].time if ok else float("nan")
            row[v + "_paired"] = median_ratio(row["mpi_runs"], row[v + "_runs"]) if ok else float("nan")
        rows.append(row)
    return rows


def describe(config):
    app, inp, _ = config
    return f"DT {inp.replace('-', '.')}" if app == "dt" else f"MD {inp}"


def report(ctx, runs, out):
    runs = [AppRun(r, ctx.directory) for r in runs]
    problems = check(runs)
    rows = summarise(runs)
    cores = ctx.cores
    out("Applications: NAS DT (apps/dt) and the CoMD-style MD proxy (apps/md), each under Open MPI")
    out("(processes), Pure (the same MPI source ported by purecc; rank threads, fibers where ranks")
    out("outnumber cores) and Pure + tasks (dt_tasks: each graph node's work in PureTasks; md_tasks:")
    out("the force loop over link cells a PureTask). Time: rank 0's, barrier to barrier, best of")
    out("%d rounds alternating the versions. MPI / X: Open MPI's time over X's, > 1 means X is", ctx.rounds)
    out("faster; in brackets the median over rounds of the ratio within a round. stolen: task")
    out("chunks run by a rank other than their owner in the fastest task run (PURE_STATS=1).")
    out("Open MPI: %s, %s.", ctx.ompi, ctx.transport)
    if any(r.app == "md" for r in runs):
        out("MD balanced: --size 20 (32000 atoms, the box full); imbalanced: the same 32000 atoms")
        out("in a box twice as long along x, half of it empty (--nx 40 --fill 0.5).")
    out("Load average (1, 5, 15 min) %s; %d cores. Other work on the cores makes timings noisy.",
        ctx.load, cores)
    out()
    out("| app, input | ranks | Open MPI (s) | Pure (s) | Pure + tasks (s) | MPI / Pure | MPI / tasks "
        "| stolen chunks |")
    out("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        ranks = row["config"][2]
        cell = lambda v: f"{row[v].time:.3f}" if row[v] else "-"
        speed = lambda v: (f"{row[v + '_best']:.2f}x ({row[v + '_paired']:.2f}x)"
                           if row[v] and row["mpi"] else "-")
        tasks = row["tasks"]
        stolen = (f"{tasks.stolen} of {tasks.own + tasks.stolen}"
                  if tasks and tasks.own + tasks.stolen else "-")
        where = f"{ranks}" + ("" if ranks <= cores else f" on {cores} cores")
        out("| %s | %s | %s | %s | %s | %s | %s | %s |", describe(row["config"]), where,
            cell("mpi"), cell("pure"), cell("tasks"), speed("pure"), speed("tasks"), stolen)
    out()
    judge_targets(rows, cores, out)
    if problems:
        out("\nWRONG RESULTS:\n%s", "\n".join(problems))
        return 1
    return 0


def judge_targets(rows, cores, out):
    goals = {t.measure: t for t in targets("apps")}
    both = [r for r in rows if r["mpi"] and r["pure"]]
    slow = [r for r in both if min(r["pure_best"], r["pure_paired"]) < 1.0]
    t = goals["ported"]
    out("Target: %s -> %s", t.text, "met" if not slow else "NOT met: " + ", ".join(
        f"{describe(r['config'])} at {r['config'][2]} ranks ({r['pure_best']:.2f}x, paired "
        f"{r['pure_paired']:.2f}x)" for r in slow))
    over = [r for r in both if r["config"][2] > cores]
    if over:
        t = goals["oversubscribed"]
        not_faster = [r for r in over if min(r["pure_best"], r["pure_paired"]) <= 1.0]
        out("Target: %s -> %s", t.text, "met" if not not_faster else "NOT met: " + ", ".join(
            f"{describe(r['config'])} at {r['config'][2]} ranks" for r in not_faster))
    index = {r["config"]: r for r in rows}
    for row in rows:
        app, inp, ranks = row["config"]
        balanced = index.get((app, "balanced", ranks))
        if app != "md" or inp != "imbalanced" or not row["tasks"] or not balanced or not balanced["tasks"]:
            continue
        best = row["tasks"].time / balanced["tasks"].time
        paired = median_ratio(row["tasks_runs"], balanced["tasks_runs"])
        t = goals["tasks vs balanced"]
        out("Target, MD at %d ranks: %s: %.2fx (paired %.2fx) -> %s", ranks, t.text, best, paired,
            verdict(t, max(best, paired)))
        t = goals["tasks vs mpi"]
        fast = min(row["tasks_best"], row["tasks_paired"])
        out("Target, MD at %d ranks: %s: %.2fx (paired %.2fx) -> %s", ranks, t.text,
            row["tasks_best"], row["tasks_paired"], verdict(t, fast))
