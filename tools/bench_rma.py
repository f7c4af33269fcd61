"""The report of `tools/bench.sh rma`: bench/rma.c's passive-target latencies
(an operation from rank 0 to rank 1's window, completed by a flush, under
lock_all) for Pure with two rank threads of one process, Pure with one rank
in each of two processes (over Open MPI), Open MPI (osc/ucx) and MPICH, two
processes each. A module of tools/bench_report.py, which loads it for the
`rma` suite.

Runs are named IMPL.ROUND with impl one of IMPLS. The table gives each
implementation's best time over the rounds; the ratios compare best with
best (> 1: Pure is faster), and the targets also take the median over rounds
of the ratio within a round, since the VM's phases move every figure.
"""
import re

from bench_report import median, ratio, targets, verdict

IMPLS = (("pure", "Pure, 1 process"), ("pure-procs", "Pure, 2 processes"),
         ("mpi", "Open MPI"), ("mpich", "MPICH"))
# bench/pgas.c's runs, and which bench/rma.c operation each PGAS one is set
# against.
PGAS_IMPLS = (("pgas", "PGAS, 1 process"), ("pgas-procs", "PGAS, 2 processes"))
PGAS_TWIN = {"put": "put", "get": "get", "fetch_add": "fetch_op"}
# apps/hist's versions (impl hist-VERSION) and its result line.
HIST_VERSIONS = (("mpi", "Open MPI (hist.c)"), ("pure", "Pure (hist.c ported)"),
                 ("pgas-atomics", "PGAS atomics"), ("pgas-am", "PGAS active msgs"))
HIST_LINE = re.compile(r"^hist: version \S+ ranks (\d+) .* checksum (\S+) largest (\d+) "
                       r"verified (\S+) time (\S+)$", re.M)
# Which two implementations each target's scope compares: (Pure's, the other's).
SCOPES = {"in process vs MPICH": ("pure", "mpich"),
          "across processes vs Open MPI": ("pure-procs", "mpi")}


# bench/rma.c's operations, in the table's order.
OPS = ("put", "get", "fetch_op", "fence_put_get_acc")


def latencies(runs):
    """{(impl, round): {(op, bytes): usec}}"""
    by_run = {}
    for run in runs:
        table = by_run.setdefault((run.impl, int(run.round)), {})
        for r in run.measures():
            if r.get("kind") == "lat":
                table[r["op"], int(r["bytes"])] = float(r["usec"])
    return by_run


def both(best, other, pure):
    """The other's time over Pure's, 0 when either was not measured."""
    return ratio(best[other], best[pure]) if other in best and pure in best else 0


def report(ctx, runs, out):
    by_run = latencies(runs)
    rounds = sorted({rnd for _, rnd in by_run})
    impls = [(impl, name) for impl, name in IMPLS if any(i == impl for i, _ in by_run)]
    rows = sorted({key for (impl, _), table in by_run.items() for key in table
                   if impl in dict(IMPLS)},
                  key=lambda k: (k[0] == OPS[-1], k[1], OPS.index(k[0])))
    best = {(impl, key): min(t[key] for (i, _), t in by_run.items() if i == impl and key in t)
            for impl, _ in impls for key in rows
            if any(i == impl and key in t for (i, _), t in by_run.items())}
    out("One-sided latency (bench/rma.c): rank 0's operation on rank 1's window, completed by a")
    out("flush, under lock_all; the last row: both ranks' fence epochs of a put, a get and an")
    out("accumulate of 100 ints (%s, us per iteration of the three).", OPS[-1])
    out("The best of %d round(s), us. Pure: purerun -n 2%s", len(rounds),
        ctx.env_note("PURE_"))
    out("(threads of one process) and purerun -n 2 --ranks-per-proc 1 (over Open MPI). Open MPI:")
    out("%s, osc/ucx. MPICH: mpiexec.mpich -n 2. Load average (1, 5, 15 min) %s; %d cores.\n",
        ctx.ompi, ctx.load, ctx.cores)
    header = "| %-17s | %7s |" + " %17s |" * len(impls) + " %14s | %16s |"
    out(header, "operation", "bytes", *[name for _, name in impls], "MPICH / Pure", "Open MPI / Pure")
    for key in rows:
        cells = ["%17.4f" % best[impl, key] if (impl, key) in best else "%17s" % "-"
                 for impl, _ in impls]
        vs_mpich = both(best, ("mpich", key), ("pure", key))
        vs_ompi = both(best, ("mpi", key), ("pure-procs", key))
        out("| %-17s | %7d |" + " %s |" * len(impls) + " %13s | %15s |", key[0], key[1], *cells,
            "%.2fx" % vs_mpich if vs_mpich else "-", "%.2fx" % vs_ompi if vs_ompi else "-")
    out()
    pgas_table(by_run, rounds, best, out)
    if not hist_table(ctx, runs, out):
        return 1
    for scope, (pure, other) in SCOPES.items():
        for t in targets("rma", scope):
            key = (t.measure, t.size)
            if (pure, key) not in best or (other, key) not in best:
                out("Target: %s: not measured", t.text)
                continue
            best_ratio = ratio(best[other, key], best[pure, key])
            paired = median([ratio(by_run[other, r][key], by_run[pure, r][key]) for r in rounds
                             if key in by_run.get((other, r), {}) and key in by_run.get((pure, r), {})])
            out("Target: %s: %.2fx best against best, %.2fx the median within a round -> %s",
                t.text, best_ratio, paired, verdict(t, ratio=best_ratio, paired=paired))
    return 0


def pgas_table(by_run, rounds, best_rma, out):
    """The PGAS calls' latencies (bench/pgas.c) beside the RMA operation that
    does the same (MPICH's, between two processes; Open MPI's across
    processes), and the active-message round trip beside Pure's send/recv
    round trip."""
    impls = [(impl, name) for impl, name in PGAS_IMPLS if any(i == impl for i, _ in by_run)]
    if not impls:
        return
    order = ("put", "get", "fetch_add", "am_rtt", "sendrecv_rtt")
    rows = sorted({key for (impl, _), table in by_run.items() if impl in dict(PGAS_IMPLS)
                   for key in table}, key=lambda k: (order.index(k[0]), k[1]))
    best = {(impl, key): min(t[key] for (i, _), t in by_run.items() if i == impl and key in t)
            for impl, _ in impls for key in rows
            if any(i == impl and key in t for (i, _), t in by_run.items())}
    out("PGAS calls (bench/pgas.c): rank 0's put+quiet, get, fetch-add on rank 1's part of the")
    out("symmetric heap, and an active-message round trip (request, handler, reply); us per")
    out("operation, best of %d round(s). Ratios: the same operation's time over the PGAS one's",
        len(rounds))
    out("(MPICH's RMA for 1 process, Open MPI's for 2; Pure's 8 B send/recv round trip for am_rtt,")
    out("where < 1 means the round trip is slower).\n")
    out("| %-12s | %7s |" + " %17s |" * len(impls) + " %14s | %16s |", "operation", "bytes",
        *[name for _, name in impls], "vs 1 process", "vs 2 processes")
    for key in rows:
        cells = ["%17.4f" % best[impl, key] if (impl, key) in best else "%17s" % "-"
                 for impl, _ in impls]
        ratios = []
        for impl, other in (("pgas", "mpich"), ("pgas-procs", "mpi")):
            if key[0] == "am_rtt":
                theirs = best.get((impl, ("sendrecv_rtt", key[1])))
            elif key[0] in PGAS_TWIN:
                theirs = best_rma.get((other, (PGAS_TWIN[key[0]], key[1])))
            else:
                theirs = None
            ours = best.get((impl, key))
            ratios.append("%.2fx" % ratio(theirs, ours) if theirs and ours else "-")
        out("| %-12s | %7d |" + " %s |" * len(impls) + " %14s | %16s |", key[0], key[1], *cells,
            *ratios)
    out()


def hist_table(ctx, runs, out):
    """apps/hist's versions (the PGAS example and its MPI one-sided twin):
    the best time of each at each rank count, Open MPI's over it, and
    whether all computed the same histogram. False when they did not."""
    results = {}  # (ranks, version) -> [time]
    sums = set()
    for run in runs:
        if not run.impl.startswith("hist-"):
            continue
        m = HIST_LINE.search(run.text(ctx.directory))
        if not m or m.group(4) != "yes":
            out("hist: %s printed no verified result line", run.run)
            return False
        sums.add((m.group(2), m.group(3)))
        results.setdefault((int(m.group(1)), run.impl[len("hist-"):]), []).append(float(m.group(5)))
    if not results:
        return True
    if len(sums) != 1:
        out("hist: the versions computed different histograms: %s", sorted(sums))
        return False
    out("The PGAS example (apps/hist, README there): a histogram of random keys over bins dealt")
    out("out to the ranks; seconds, the best of %d round(s); in brackets Open MPI's time over", ctx.rounds)
    out("the version's (> 1: faster). Every version computed the same histogram.\n")
    names = [(v, name) for v, name in HIST_VERSIONS if any(k[1] == v for k in results)]
    out("| %-5s |" + " %24s |" * len(names), "ranks", *[name for _, name in names])
    for n in sorted({k[0] for k in results}):
        cells = []
        for v, _ in names:
            t = min(results.get((n, v), [0])) or 0
            mpi = min(results.get((n, "mpi"), [0])) or 0
            cells.append("%13.4f (%5.2fx)" % (t, ratio(mpi, t)) if t else "-")
        out("| %5d |" + " %24s |" * len(names), n, *cells)
    out()
    return True
