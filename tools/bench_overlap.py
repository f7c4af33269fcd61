"""The report of `tools/bench.sh overlap`: bench/overlap.c's MPI_Iallreduce
with computation between the call and its wait, at 2 ranks, Pure against
Open MPI. A module of tools/bench_report.py, which loads it for the
`overlap` suite.

Runs are named IMPL.ROUND. For each size and implementation the table shows
the round whose overlap with MPI_Test calls was highest, and the median over
rounds, since the VM's phases move every figure; times are in microseconds.
"""
from bench_report import label, median, targets, verdict

IMPLS = (("pure", "Pure"), ("mpi", "Open MPI"))


def records(runs):
    """{(impl, bytes): [record of each round]}"""
    by = {}
    for run in runs:
        for r in run.measures():
            if r.get("kind") == "iallreduce":
                by.setdefault((run.impl, int(r["bytes"])), []).append(r)
    return by


def report(ctx, runs, out):
    by = records(runs)
    sizes = sorted({b for _, b in by})
    slices = next((run.config().get("slices") for run in runs if run.config()), "?")
    out("MPI_Iallreduce of doubles (SUM) at 2 ranks, a core each, with computation between the")
    out("call and MPI_Wait: %s slices of a register-only loop, calibrated to the allreduce's own", slices)
    out("time, with an MPI_Test after each slice (tested) or no call at all (waited). Overlap =")
    out("100 * (1 - (total - compute) / allreduce); best round (median over %d rounds).", ctx.rounds)
    out("Open MPI: %s. Load average (1, 5, 15 min) %s.", ctx.transport, ctx.load)
    out()
    out("%-9s %-9s %10s %10s %10s %10s %16s %16s", "size", "impl", "allreduce", "compute",
        "tested", "waited", "tested overlap", "waited overlap")
    best_tested = {}
    for b in sizes:
        for impl, name in IMPLS:
            rs = by.get((impl, b))
            if not rs:
                continue
            top = max(rs, key=lambda r: r["tested_pct"])
            best_tested[impl, b] = top["tested_pct"]
            out("%-9s %-9s %10.2f %10.2f %10.2f %10.2f %7.1f %% (%4.1f) %7.1f %% (%4.1f)",
                label(b), name, top["coll_us"], top["compute_us"], top["tested_us"],
                top["waited_us"], top["tested_pct"], median([r["tested_pct"] for r in rs]),
                max(r["waited_pct"] for r in rs), median([r["waited_pct"] for r in rs]))
    out()
    for t in targets("overlap"):
        value = best_tested.get(("pure", t.size))
        if value is None:
            out("target: %s: not measured", t.text)
            continue
        out("target: %s: %.1f %% (Open MPI %.1f %%): %s", t.text, value,
            best_tested.get(("mpi", t.size), 0), verdict(t, value=value))
    return 0
