"""The rows of tools/bench.sh internode beyond the point-to-point tables:
the message rate and collectives of 2 processes x 4 ranks against 8
processes, 2 x 2 against 1 x 4, and all of it over MPICH (bench_report.py's
report_p2p calls report)."""

from bench_report import (coll_data, coll_paired, coll_size_label, label, median, p2p_data,
                          p2p_paired, ratio, targets, verdict)


def report(ctx, rates, colls, splits, over_mpich, out):
    report_msgrate(ctx, rates, out)
    report_internode_coll(ctx, colls, out)
    report_split_procs(ctx, splits, out)
    report_over_mpich(ctx, over_mpich, out)


def report_msgrate(ctx, runs, out, lib="Open MPI"):
    """The message-rate rows of the internode suite (bench/msgrate.c)."""
    rate = {}
    for run in runs:
        for r in run.measures():
            rate[run.impl, run.round] = r["msgs_per_s"]
    if not rate:
        return
    rounds = sorted({k[1] for k in rate})
    best = {impl: max(v for (i, _), v in rate.items() if i == impl) for impl in ("pure", "mpi")}
    within = sorted(rate["pure", k] / rate["mpi", k] for k in rounds
                    if ("pure", k) in rate and ("mpi", k) in rate)
    paired = within[len(within) // 2] if within else 0
    out()
    out("Message rate, 4 pairs each streaming 8 B messages (windows of 64, then an ack) across\n"
        "processes: Pure 2 processes x 4 ranks, %s 8 processes, 2 cores", lib)
    out("| %10s | %10s | %8s | %8s |", "Pure", lib, "ratio", "paired")
    r = ratio(best["pure"], best["mpi"])
    out("| %8.2f M | %8.2f M | %7.2fx | %7.2fx |", best["pure"] / 1e6, best["mpi"] / 1e6, r,
        paired)
    for t in targets("internode", "2x4"):
        if t.measure == "msgrate":
            out("Target: %s: %.2fx (same-round median %.2fx) -> %s", t.text.replace("Open MPI", lib),
                r, paired, verdict(t, best["pure"], r, paired))


def report_internode_coll(ctx, runs, out, lib="Open MPI"):
    """The collective rows of the internode suite (bench/coll.c --small)."""
    best, val, rows, _ = coll_data(runs)
    for n in sorted(rows):
        out()
        out("Collectives over %d ranks: Pure 2 processes x %d ranks (purerun --ranks-per-proc %d),\n"
            "%s %d processes (unbound); us per call, ratio = %s / Pure", n, n // 2, n // 2, lib, n,
            lib)
        out("| %-9s | %8s | %10s | %10s | %8s | %8s |", "op", "size", "Pure", lib, "ratio",
            "paired")
        for op, b in rows[n]:
            p, m = best.get((n, "pure", op, b), 0), best.get((n, "mpi", op, b), 0)
            out("| %-9s | %8s | %10.3f | %10.3f | %7.2fx | %7.2fx |", op, coll_size_label(op, b),
                p, m, ratio(m, p), coll_paired(val, ctx.rounds, n, op, b))
        for t in targets("internode", "2x4"):
            p, m = best.get((n, "pure", t.measure, t.size)), best.get((n, "mpi", t.measure, t.size))
            if p is None or m is None or p <= 0:
                continue
            q = coll_paired(val, ctx.rounds, n, t.measure, t.size)
            out("Target: %s: Pure %.3f us, %s %.3f us, %.2fx (same-round median %.2fx) -> %s",
                t.text.replace("Open MPI", lib), p, lib, m, m / p, q, verdict(t, p, m / p, q))


def report_over_mpich(ctx, runs, out):
    """The internode suite's runs over MPICH: Pure on MPICH against MPICH."""
    if not runs:
        return
    pairs = [r for r in runs if not r.note.get("bench")]
    best, val = p2p_data(pairs)
    out()
    out("Over MPICH (build-mpich/, its runtime without LTO): Pure with one rank in each of 2 processes against MPICH's 2\n"
        "processes (mpiexec.mpich -bind-to core); best of %d rounds, ratio > 1 means Pure is faster",
        ctx.rounds)
    out("| %-4s | %8s | %10s | %10s | %8s | %8s |", "kind", "size", "Pure", "MPICH", "ratio",
        "paired")
    for kind in ("lat", "bw"):
        for b in sorted({k[2] for k in best if k[0] == kind}):
            p, m = best.get((kind, "pure", b), 0), best.get((kind, "mpi", b), 0)
            out("| %-4s | %8s | %10.3f | %10.3f | %7.2fx | %7.2fx |", kind, label(b), p, m,
                ratio(m, p) if kind == "lat" else ratio(p, m),
                p2p_paired(val, ctx.rounds, kind, b))
    report_msgrate(ctx, [r for r in runs if r.note.get("bench") == "msgrate"], out, "MPICH")
    report_internode_coll(ctx, [r for r in runs if r.note.get("bench") == "coll"], out, "MPICH")


def report_split_procs(ctx, runs, out):
    """The internode suite's 2 processes x 2 ranks against 1 process x 4."""
    best, val, rows, _ = coll_data(runs)
    for n in sorted(rows):
        out()
        out("Collectives over %d ranks on one host: 2 processes x %d ranks (purerun --ranks-per-proc"
            " %d)\nagainst %d ranks in one process; us per call, cost = 2 processes / 1 process",
            n, n // 2, n // 2, n)
        out("| %-9s | %8s | %12s | %12s | %8s | %8s |", "op", "size", "2 processes", "1 process",
            "cost", "paired")
        for op, b in rows[n]:
            p, o = best.get((n, "procs", op, b), 0), best.get((n, "one", op, b), 0)
            within = [val[n, "procs", op, b, r] / val[n, "one", op, b, r]
                      for r in range(1, ctx.rounds + 1)
                      if val.get((n, "one", op, b, r)) and (n, "procs", op, b, r) in val]
            out("| %-9s | %8s | %12.3f | %12.3f | %7.2fx | %7.2fx |", op, coll_size_label(op, b),
                p, o, ratio(p, o), median(within))
        for t in targets("internode", "2x2"):
            p, o = best.get((n, "procs", t.measure, t.size)), best.get((n, "one", t.measure, t.size))
            if p is None or o is None or o <= 0:
                continue
            out("Target: %s: %.3f us against %.3f us, %.1fx -> %s", t.text, p, o, p / o,
                verdict(t, p / o))
