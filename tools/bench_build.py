"""The report of `tools/bench.sh build`: building programs with purecc against
mpicc, alternating within one run. A module of tools/bench_report.py, which
loads it for the `build` suite.

Runs are named WHAT.WRAPPER.ROUND, WHAT being make (make -j2 of 40 small
programs, translation included), hello (a hello world compiled and linked,
REPS times), link (its object linked, REPS times) or cmake (a CMake
project's re-link, REPS times: find_package(Pure) against find_package(MPI)).
Times are per build; the ratio is purecc's over mpicc's, the median of the
rounds' own ratios (each round ran both back to back).
"""
from bench_report import median, targets, verdict

WHATS = (("make", "make -j2 of 40 programs"), ("hello", "hello world: compile and link"),
         ("link", "hello world: link only"), ("cmake", "CMake program: link"))


def times(runs):
    """{(what, wrapper): {round: seconds per build}}"""
    by = {}
    for run in runs:
        per = run.wall_us / 1e6 / int(run.note.get("reps", 1))
        by.setdefault((run.what, run.impl), {})[run.round] = per
    return by


def report(ctx, runs, out):
    by = times(runs)
    out("Building with purecc (Pure) against mpicc (Open MPI), %d rounds alternating which goes first;",
        ctx.rounds)
    out("per build: the best round and the median; ratio = purecc / mpicc within each round")
    out("(median of rounds). Load average (1, 5, 15 min) %s.", ctx.load)
    out()
    out("%-34s %12s %12s %12s %12s %9s", "what", "mpicc best", "mpicc med", "purecc best",
        "purecc med", "ratio")
    ratios = {}
    for what, text in WHATS:
        m, p = by.get((what, "mpicc"), {}), by.get((what, "purecc"), {})
        if not m or not p:
            continue
        unit, scale = ("s", 1.0) if what == "make" else ("ms", 1e3)
        rs = [p[r] / m[r] for r in m if r in p]
        ratios[what] = median(rs)
        out("%-34s %10.3f%-2s %10.3f%-2s %10.3f%-2s %10.3f%-2s %8.2fx", text,
            min(m.values()) * scale, unit, median(list(m.values())) * scale, unit,
            min(p.values()) * scale, unit, median(list(p.values())) * scale, unit, ratios[what])
    out()
    status = 0
    for t in targets("build"):
        value = ratios.get(t.measure)
        if value is None:
            out("target: %s: not measured", t.text)
            continue
        v = verdict(t, value=value)
        out("target: %s: %.2fx: %s", t.text, value, v)
    return status
