#!/usr/bin/env python3
"""Renders a kdag Chrome trace (KOKKOS_TRACE=trace.json) as a per-thread timeline PNG.

For places without a browser: Perfetto (https://ui.perfetto.dev) and chrome://tracing show the
same file interactively.  The picture has two panels: the whole trace (one row per thread, a bar
per slice, coloured by kind) and a zoom on a window of it with the slice names and the task
DAG's arrows (spawn, dependence, respawn flow events).

    python3 tools/trace_to_png.py trace.json trace.png [--zoom START_US END_US] [--title TEXT]

Without --zoom, the zoom shows the first --zoom-tasks task slices (default 40).  Needs matplotlib
(Debian: apt-get install python3-matplotlib).
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

COLOURS = {
    "parallel_for": "#4e79a7",
    "parallel_reduce": "#59a14f",
    "parallel_scan": "#9c755f",
    "task": "#f28e2b",
    "work_graph_unit": "#b07aa1",
    "fused_run": "#e15759",
}
ARROWS = {"spawn": "#222222", "dependence": "#1f5fd6", "respawn": "#999999"}


def load(path):
    with open(path) as f:
        root = json.load(f)
    slices, starts, finishes, names = [], {}, {}, {}
    for e in root["traceEvents"]:
        ph = e.get("ph")
        if ph == "X":
            slices.append((e["tid"], e["ts"], e["dur"], e.get("cat", ""), e.get("name", ""), e.get("args", {})))
        elif ph == "s":
            starts[e["id"]] = (e["tid"], e["ts"], e["name"])
        elif ph == "f":
            finishes[e["id"]] = (e["tid"], e["ts"])
        elif ph == "M" and e.get("name") == "thread_name":
            names[e["tid"]] = e["args"]["name"]
    flows = [(starts[i], finishes[i]) for i in starts if i in finishes]
    return root, nest(slices), flows, names


def nest(slices):
    """Adds each slice's nesting depth on its thread (a launch in a task, a unit in a launch)."""
    out = []
    for tid in sorted({s[0] for s in slices}):
        stack = []
        for s in sorted((s for s in slices if s[0] == tid), key=lambda s: (s[1], -s[2])):
            while stack and stack[-1] <= s[1]:
                stack.pop()
            out.append(s + (len(stack),))
            stack.append(s[1] + s[2])
    return out


def short(name):
    head = name.split("<", 1)[0].split("::")[-1]
    return head + ("<>" if "<" in name else "")


def draw(ax, slices, flows, rows, lo, hi, labels):
    # One broken_barh per (row, colour): tens of thousands of slices draw in a second.
    bars = {}
    minimum = (hi - lo) * 1e-4
    for tid, ts, dur, cat, name, args, depth in slices:
        if ts + dur < lo or ts > hi:
            continue
        colour = COLOURS.get(cat, "#bab0ac")
        if cat == "task" and args.get("respawn"):
            colour = "#ffbe7d"
        bars.setdefault((rows[tid], min(depth, 2), colour), []).append((ts, max(dur, minimum)))
        if labels and dur > (hi - lo) / 12:
            text = short(name) if cat == "task" else name
            ax.text(max(ts, lo) + (min(ts + dur, hi) - max(ts, lo)) / 2, rows[tid], text[:18], ha="center",
                    va="center", fontsize=6, clip_on=True)
    for (y, depth, colour), spans in sorted(bars.items(), key=lambda kv: kv[0][1]):
        half = 0.4 - 0.12 * depth  # nested slices are drawn narrower, over their parent
        ax.broken_barh(spans, (y - half, 2 * half), facecolors=colour, edgecolor="none")
    if labels:
        for (stid, sts, kind), (ftid, fts) in flows:
            if lo <= sts <= hi and lo <= fts <= hi:
                ax.annotate("", xy=(fts, rows[ftid]), xytext=(sts, rows[stid]),
                            arrowprops=dict(arrowstyle="->", color=ARROWS.get(kind, "black"), lw=0.6,
                                            shrinkA=0, shrinkB=0))
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.invert_yaxis()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("png")
    parser.add_argument("--zoom", nargs=2, type=float, metavar=("START_US", "END_US"))
    parser.add_argument("--zoom-tasks", type=int, default=40)
    parser.add_argument("--title", default=None)
    args = parser.parse_args()

    root, slices, flows, names = load(args.trace)
    if not slices:
        sys.exit("no slices in " + args.trace)
    tids = sorted({s[0] for s in slices})
    rows = {tid: i for i, tid in enumerate(tids)}
    t0 = min(s[1] for s in slices)
    t1 = max(s[1] + s[2] for s in slices)
    if args.zoom:
        lo, hi = args.zoom
    else:
        tasks = sorted((s[1], s[1] + s[2], s[0]) for s in slices if s[3] == "task")
        if tasks:  # the shortest window of --zoom-tasks task slices that spans the most threads
            k = args.zoom_tasks
            starts = range(0, max(1, len(tasks) - k), max(1, k // 4))
            first = max(starts, key=lambda i: (len({t[2] for t in tasks[i:i + k]}),
                                               -(max(t[1] for t in tasks[i:i + k]) - tasks[i][0])))
            window = tasks[first:first + k]
            lo, hi = window[0][0], max(t[1] for t in window)
        else:
            lo, hi = t0, t0 + (t1 - t0) / 20
        pad = (hi - lo) * 0.02
        lo, hi = lo - pad, hi + pad

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 2.2 + 0.9 * len(tids)), dpi=90,
                                      gridspec_kw={"height_ratios": [1, 1.6]})
    draw(top, slices, flows, rows, t0, t1, labels=False)
    top.axvspan(lo, hi, color="#d62728", alpha=0.15, lw=0)
    top.axvline((lo + hi) / 2, color="#d62728", lw=0.8, ls=":")
    top.set_title(args.title or "kdag trace: " + args.trace, fontsize=10, pad=22)
    draw(bottom, slices, flows, rows, lo, hi, labels=True)
    bottom.set_title("zoom: %.1f - %.1f us (arrows: black spawn, blue dependence, grey respawn)" % (lo, hi),
                     fontsize=9)
    for ax in (top, bottom):
        ax.set_yticks(range(len(tids)))
        ax.set_yticklabels([names.get(t, "thread %d" % t).split(" (")[0] for t in tids], fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        ax.ticklabel_format(axis="x", useOffset=False, style="plain")
    bottom.set_xlabel("time (us since the trace started)", fontsize=8)
    cats = sorted({s[3] for s in slices})
    handles = [Patch(color=COLOURS.get(c, "#bab0ac"), label=c) for c in cats]
    if "task" in cats:
        handles.append(Patch(color="#ffbe7d", label="task (respawn)"))
    top.legend(handles=handles, fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(handles),
               frameon=False)
    dropped = root.get("otherData", {}).get("dropped_events", 0)
    if dropped:
        fig.text(0.01, 0.005, "%d events were dropped (full rings)" % dropped, fontsize=7)
    fig.tight_layout()
    fig.savefig(args.png)
    print("%s: %d slices, %d arrows, %d threads" % (args.png, len(slices), len(flows), len(tids)))


if __name__ == "__main__":
    main()
