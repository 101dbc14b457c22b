"""The noise verdict of ci/bench-verdict: reads the `sample` lines of
compare runs (`compare --samples`) made in several code layouts, and prints
one line per row: the median of its paired-round ratios in each layout,
their median over the layouts, a distribution-free 95% confidence interval
for that median, and what the interval says.

Usage: verdict.py LAYOUTS OUT_DIR   (reads OUT_DIR/layout-L.run-K.out)

Why these statistics. A round measures both pools back to back, so its
ratio Drowse / rayon-core is taken under one outside load; the median of a
layout's ratios (over every run of that layout) is that layout's figure.
A code layout moves the hot loops of the workloads and of both pools to
other addresses, which changes a row's ratio by a few percent either way
(docs/performance.md, "Code layouts"); which layout a user's build gets is
an accident, so the layouts are a sample and the row's figure is the
median over them. Its confidence interval comes from order statistics (the
number of layouts below the true median is Binomial(L, 1/2)), so it assumes
nothing about how the layout effects are distributed. A row whose interval
reaches down to 1.00 is one these measurements cannot tell from 1.00; one
whose interval lies above 1.00 is a gap.
"""

import collections
import math
import os
import sys


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def median_interval(values, confidence=0.95):
    """The widest-coverage-at-least-`confidence` order-statistic interval
    [x_(k), x_(n-k+1)] for the median, with its exact coverage; None when n
    is too small for any such interval."""
    values = sorted(values)
    n = len(values)
    tail = 0.0
    k = 0
    # Grow k while P(Binomial(n, 1/2) <= k - 1) stays within the tail.
    while k < n // 2:
        next_tail = tail + math.comb(n, k) / 2**n
        if next_tail > (1 - confidence) / 2:
            break
        tail = next_tail
        k += 1
    if k == 0:
        return None
    return values[k - 1], values[n - k], 1 - 2 * tail


def main():
    layouts = int(sys.argv[1])
    out_dir = sys.argv[2]
    # ratios[row][layout] = the paired-round ratios of that layout, all runs.
    ratios = collections.defaultdict(lambda: collections.defaultdict(list))
    units = {}
    order = []
    for layout in range(layouts + 1):
        run = 1
        while os.path.exists(f"{out_dir}/layout-{layout}.run-{run}.out"):
            rounds = collections.defaultdict(dict)
            with open(f"{out_dir}/layout-{layout}.run-{run}.out") as out:
                for line in out:
                    fields = line.rstrip("\n").split("\t")
                    if fields[0] != "sample":
                        continue
                    _, row, unit, pool, index, value = fields
                    rounds[(row, index)][pool] = float(value)
                    if row not in units:
                        units[row] = unit
                        order.append(row)
            for (row, _), pools in rounds.items():
                drowse, rayon = pools.get("drowse"), pools.get("rayon-core")
                if drowse is not None and rayon:
                    ratios[row][layout].append(drowse / rayon)
            run += 1
    header = ["benchmark", "unit", "rounds"]
    header += [f"layout {layout}" for layout in range(layouts + 1)]
    header += ["median", "95% interval", "above 1.00", "verdict"]
    lines = [header]
    for row in order:
        per_layout = [median(ratios[row][l]) if ratios[row][l] else None for l in range(layouts + 1)]
        measured = [m for m in per_layout if m is not None]
        if not measured:
            continue
        overall = median(measured)
        interval = median_interval(measured)
        above = sum(m > 1.0 for m in measured)
        # `_rate` (the sweep's rate achieved) is the one row where higher is
        # better; a verdict is given only where lower is.
        if row.endswith("_rate"):
            verdict = "higher is better"
        elif overall <= 1.0:
            verdict = "at or below 1.00"
        elif interval is None:
            verdict = "too few layouts"
        elif interval[0] <= 1.0:
            verdict = f"not told from 1.00 (at most {interval[1]:.3f})"
        else:
            verdict = "gap"
        rounds = sum(len(ratios[row][l]) for l in range(layouts + 1))
        line = [row, units[row], str(rounds)]
        line += ["-" if m is None else f"{m:.3f}" for m in per_layout]
        line.append(f"{overall:.3f}")
        line.append("-" if interval is None else f"{interval[0]:.3f}-{interval[1]:.3f} ({interval[2]:.1%})")
        line.append(f"{above}/{len(measured)}")
        line.append(verdict)
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


if __name__ == "__main__":
    main()
