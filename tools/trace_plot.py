#!/usr/bin/env python3
"""Draws a PURE_TRACE file as a picture: a row per rank (and helper thread),
its calls, waits, tasks and chunks as bars, stolen chunks hatched, and
arrows from sends to receives and from a task's owner to the thief of a
chunk. For a look without a browser and for the README; ui.perfetto.dev
and chrome://tracing open the same file interactively.

usage: trace_plot.py TRACE.json OUT.png [--from MS] [--to MS] [--arrows N]
Times are milliseconds from the first event.
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed or wanted
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.patches import Patch  # noqa: E402

# Bar colour by what the time went to; the first matching rule wins.
KINDS = [
    ("stolen chunk", "#d62728", lambda n: n == "stolen chunk"),
    ("task, chunk", "#2ca02c", lambda n: n in ("task", "chunk")),
    ("wait", "#bbbbbb", lambda n: n == "wait"),
    ("send", "#1f77b4", lambda n: "send" in n),
    ("receive, probe", "#9467bd", lambda n: "recv" in n or "probe" in n),
    ("wait on requests", "#8c564b", lambda n: n.startswith("pure_wait") or n.startswith("pure_test")),
    ("collective", "#ff7f0e", lambda n: n.startswith("pure_")),
]


def kind_of(name):
    for i, (_, _, match) in enumerate(KINDS):
        if match(name):
            return i
    return len(KINDS) - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from", dest="start", type=float, default=0.0, help="ms from the first event")
    ap.add_argument("--to", dest="end", type=float, default=None, help="ms from the first event")
    ap.add_argument("--arrows", type=int, default=200, help="at most this many arrows")
    args = ap.parse_args()

    with open(args.trace) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    timed = [e for e in events if e.get("ph") in ("X", "s", "f")]
    if not timed:
        raise SystemExit(f"{args.trace}: no slices")
    t0 = min(e["ts"] for e in timed)
    start, end = args.start, args.end
    if end is None:
        end = max((e["ts"] + e.get("dur", 0) - t0) / 1e3 for e in timed)

    rows = {key: i for i, key in enumerate(sorted(names, key=lambda k: (k[0], k[1])))}
    fig, ax = plt.subplots(figsize=(12, 0.45 * len(rows) + 1.6), layout="constrained")
    # Bars drawn outer first: a call's wait and a task's chunks lie on top of it.
    bars = sorted((e for e in timed if e["ph"] == "X"), key=lambda e: -e.get("dur", 0))
    for e in bars:
        b, d = (e["ts"] - t0) / 1e3, e.get("dur", 0) / 1e3
        if b + d < start or b > end or (e["pid"], e["tid"]) not in rows:
            continue
        k = kind_of(e["name"])
        ax.barh(rows[(e["pid"], e["tid"])], max(d, (end - start) / 2000), left=b, height=0.7,
                color=KINDS[k][1], hatch="//" if e["name"] == "stolen chunk" else None,
                edgecolor="black" if e["name"] == "stolen chunk" else "none", linewidth=0.3)

    tails, heads = {}, {}
    for e in timed:
        if e["ph"] in ("s", "f"):
            (tails if e["ph"] == "s" else heads)[(e.get("cat"), e["id"])] = e
    drawn = 0
    seen = set()
    for key, head in heads.items():
        tail = tails.get(key)
        if tail is None or drawn >= args.arrows:
            continue
        x0, x1 = (tail["ts"] - t0) / 1e3, (head["ts"] - t0) / 1e3
        if not (start <= x0 <= end and start <= x1 <= end):
            continue
        y0, y1 = rows.get((tail["pid"], tail["tid"])), rows.get((head["pid"], head["tid"]))
        if y0 is None or y1 is None:
            continue
        # One arrow stands for all those between the same rows at about the
        # same time (a thief's run of chunks of one task).
        near = (y0, y1, round(x0 / ((end - start) / 100)))
        if near in seen:
            continue
        seen.add(near)
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                    arrowprops=dict(arrowstyle="->", lw=0.6,
                                    color="#d62728" if key[0] == "steal" else "black"))
        drawn += 1

    ax.set_yticks(list(rows.values()), [names[k] + ("" if k[0] == 0 else f" (process {k[0]})")
                                        for k in rows])
    ax.invert_yaxis()
    ax.set_xlim(start, end)
    ax.set_xlabel("ms")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(handles=[Patch(color=c, label=label) for label, c, _ in KINDS]
              + [Patch(facecolor="white", edgecolor="black", label="arrow: message / steal")],
              loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4, frameon=False)
    fig.savefig(args.out, dpi=110)
    print(f"trace_plot: wrote {args.out}")


if __name__ == "__main__":
    main()
