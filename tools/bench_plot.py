"""The figures of tools/bench.sh --plot: PNG files beside a suite's report,
drawn with matplotlib from the same data the report's tables use
(bench_report.py, which imports this module only for --plot)."""
import math

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed or wanted
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from bench_report import (coll_data, label, mib, p2p_data, scale_data,  # noqa: E402
                          scale_fit, stencil_results, targets)


def size_axis(ax):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(lambda b, _: label(b) if b >= 1 else "")
    ax.tick_params(axis="x", labelrotation=45)
    ax.grid(True, which="major", alpha=0.3)


def plot_p2p(ctx, runs):
    best, _ = p2p_data(runs)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    for ax, kind, title, unit in ((axes[0], "lat", "one-way latency", "us"),
                                  (axes[1], "bw", "bandwidth (window of 64)", "GB/s")):
        for impl, name, style in (("pure", "Pure", "o-"), ("mpi", "Open MPI", "s--")):
            points = sorted((b, v) for (k, i, b), v in best.items() if k == kind and i == impl)
            ax.plot([b for b, _ in points], [v for _, v in points], style, label=name, markersize=4)
        size_axis(ax)
        ax.set_yscale("log")
        ax.set_xlabel("message size")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.legend()
    where = "between 2 processes" if ctx["suite"] == "internode" else "2 ranks, one per core"
    fig.suptitle(f"Point-to-point, {where}: best of {ctx.rounds} rounds")
    return {f"{ctx['suite']}.png": fig}


def plot_coll(ctx, runs):
    best, _, rows, _ = coll_data(runs)
    ops = ("allreduce", "bcast", "reduce", "alltoall", "barrier")
    ns = sorted(rows)
    fig, axes = plt.subplots(len(ns), len(ops), figsize=(16, 3.6 * len(ns)), layout="constrained",
                             squeeze=False)
    for row, n in zip(axes, ns):
        for ax, op in zip(row, ops):
            for k, (impl, name, style) in enumerate((("pure", "Pure", "o-"),
                                                     ("mpi", "Open MPI", "s--"))):
                points = [(b, best.get((n, impl, o, b))) for o, b in rows[n] if o == op]
                points = [(b, v) for b, v in points if v]
                if op == "barrier":
                    ax.bar([k], [v for _, v in points], label=name, color=f"C{k}")
                else:
                    ax.plot([b for b, _ in points], [v for _, v in points], style, label=name,
                            markersize=4)
            if op == "barrier":
                ax.set_xticks([0, 1], ["Pure", "Open MPI"])
            else:
                size_axis(ax)
                ax.set_yscale("log")
                ax.set_xlabel("bytes per pair" if op == "alltoall" else "message size")
            ax.set_ylabel("us per call")
            ax.set_title(f"{op}, {n} ranks" + (f" on {ctx.cores} cores" if n > ctx.cores else ""))
            ax.legend(fontsize="small")
    fig.suptitle(f"Collectives, Pure against Open MPI: best of {ctx.rounds} rounds")
    return {"coll.png": fig}


def plot_threshold(ctx, runs):
    best = {}
    for run in runs:
        for r in run.measures():
            key = (run.ranks, run.partition, r["bytes"])
            best[key] = min(best.get(key, math.inf), r["usec"])
    ns = sorted({k[0] for k in best})
    fig, axes = plt.subplots(1, len(ns), figsize=(5.5 * len(ns), 4.2), layout="constrained",
                             squeeze=False)
    for ax, n in zip(axes[0], ns):
        for mode, style in (("partitioned", "o-"), ("combined", "s--")):
            points = sorted((b, v) for (m, p, b), v in best.items() if m == n and p == mode)
            ax.plot([b for b, _ in points], [v for _, v in points], style, label=mode, markersize=4)
        size_axis(ax)
        ax.set_yscale("log")
        ax.set_xlabel("allreduce size")
        ax.set_ylabel("us per call")
        ax.set_title(f"{n} ranks" + (f" on {ctx.cores} cores" if n > ctx.cores else ", a core each"))
        ax.legend()
    fig.suptitle("Pure allreduce: partitioned reducer against flat combining")
    return {"coll-threshold.png": fig}


def plot_tasks(ctx, runs):
    best = {}
    for _, r in stencil_results(runs):
        key = (r["ranks"], r["version"], r["imbalance"])
        best[key] = min(best.get(key, math.inf), r["time"])
    ns = sorted({k[0] for k in best})
    fig, axes = plt.subplots(1, len(ns), figsize=(5.5 * len(ns), 4.2), layout="constrained",
                             squeeze=False)
    for ax, n in zip(axes[0], ns):
        # The colours of the other figures: Pure blue, Open MPI orange.
        for v, name, style, colour in (("mpi", "Open MPI", "s--", "C1"), ("pure", "Pure", "^-.", "C0"),
                                       ("tasks", "Pure + tasks", "o-", "C2")):
            points = sorted((x, t) for (m, w, x), t in best.items() if m == n and w == v)
            ax.plot([x for x, _ in points], [t for _, t in points], style, color=colour, label=name)
        ax.set_xlabel("imbalance")
        ax.set_ylabel("time (s), rank 0")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.set_title(f"{n} ranks" + (f" on {ctx.cores} cores" if n > ctx.cores else ", one per core"))
        ax.legend()
    fig.suptitle(f"rand_stencil, the same total work at every imbalance: best of {ctx.rounds} rounds")
    return {"tasks.png": fig}


def plot_scale(ctx, runs):
    data = scale_data(runs)
    fit = scale_fit(data)
    pure = sorted((n, v) for (impl, n), v in data.items() if impl == "pure")
    mpi = sorted((n, v) for (impl, n), v in data.items() if impl == "mpi")
    fig, (mem, wall) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    mem.plot([n for n, _ in pure], [mib(v[0]) for _, v in pure], "o-", label="Pure, one process")
    if mpi:
        mem.plot([n for n, _ in mpi], [mib(v[0] * v[2]) for _, v in mpi], "s", color="C1",
                 label="Open MPI, measured")
        counts = sorted({n for n, _ in pure} | {n for n, _ in mpi})
        per_proc = mpi[-1][1][0]
        mem.plot(counts, [mib(per_proc * n) for n in counts], "--", color="C1",
                 label="Open MPI, per-process peak x ranks")
    if fit:
        counts = [n for n, _ in pure]
        limit = targets("scale")[0].limit[1]
        mem.plot(counts, [mib(fit[0] + limit * n) for n in counts], ":", color="gray",
                 label=f"target: base + {limit:g} KiB per rank")
    measured = sorted({n for n, _ in pure} | {n for n, _ in mpi})
    for ax in (mem, wall):
        ax.set_xscale("log", base=2)
        ax.set_xticks(measured, [str(n) for n in measured])
        ax.xaxis.set_minor_locator(plt.NullLocator())
        ax.set_yscale("log")
        ax.set_xlabel("ranks")
        ax.grid(True, alpha=0.3)
    mem.set_ylabel("peak resident memory (MiB)")
    mem.set_title("memory")
    mem.legend(fontsize="small")
    wall.plot([n for n, _ in pure], [v[1] for _, v in pure], "o-", label="Pure")
    if mpi:
        wall.plot([n for n, _ in mpi], [v[1] for _, v in mpi], "s--", label="Open MPI")
    wall_target = targets("scale")[1]
    wall.axhline(wall_target.limit[1], linestyle=":", color="gray",
                 label=f"target at {wall_target.size} ranks")
    wall.set_ylabel("wall time of the run (s)")
    wall.set_title("start-up to exit")
    wall.legend(fontsize="small")
    fig.suptitle("Memory and start-up against the rank count")
    return {"scale.png": fig}


def plot_apps(ctx, runs):
    import bench_apps  # the applications' result lines

    rows = [r for r in bench_apps.summarise([bench_apps.AppRun(run, ctx.directory) for run in runs])
            if r["mpi"]]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(rows) + 2), 4.2), layout="constrained")
    width = 0.38
    for k, (v, name) in enumerate((("pure", "Pure"), ("tasks", "Pure + tasks"))):
        xs = [i + (k - 0.5) * width for i in range(len(rows))]
        values = [r[v + "_best"] if r[v] else 0 for r in rows]
        bars = ax.bar(xs, values, width, label=name)
        ax.bar_label(bars, fmt="%.2f", fontsize=8)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(rows)), [f"{bench_apps.describe(r['config'])}\n{r['config'][2]} ranks"
                                      for r in rows], fontsize=8)
    ax.set_ylabel("speedup over Open MPI (best of rounds)")
    ax.set_title(f"Applications on {ctx.cores} cores: Open MPI's time over Pure's")
    ax.legend()
    return {"apps.png": fig}


FIGURES = {
    "apps": plot_apps,
    "p2p": plot_p2p,
    "internode": plot_p2p,
    "coll": plot_coll,
    "coll-threshold": plot_threshold,
    "tasks": plot_tasks,
    "scale": plot_scale,
}


def draw(ctx, runs, directory):
    """Draws the suite's figures into directory; returns their file names."""
    suite = ctx["suite"]
    if suite not in FIGURES:
        return []
    names = []
    for name, fig in FIGURES[suite](ctx, runs).items():
        fig.savefig(directory / name, dpi=100)
        plt.close(fig)
        names.append(name)
    return names
