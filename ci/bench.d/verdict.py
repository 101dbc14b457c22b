"""The noise verdict of ci/bench-verdict: reads the `sample` lines of
compare runs (`compare --samples`) made in several code layouts, and prints
one line per row: the median of its paired-round ratios in each layout,
their median over the layouts, a distribution-free 95% confidence interval
for that median, and what the interval says.

Usage: verdict.py LAYOUTS OUT_DIR   (reads OUT_DIR/layout-L.run-K.out)
       verdict.py --self-test         (checks the statistics and verdicts
                                       on made-up runs; ci/run's std step)

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


def read_ratios(layouts, out_dir):
    """The paired-round ratios of each row in each layout, over every run:
    (ratios[row][layout], units[row], rows in order of appearance)."""
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
    return ratios, units, order


def verdict(row, per_layout):
    """The verdict on a row from its layouts' medians, with their median
    and 95% interval (None where too few layouts)."""
    overall = median(per_layout)
    interval = median_interval(per_layout)
    # `_rate` (the sweep's rate achieved) is the one row where higher is
    # better; a verdict is given only where lower is.
    if row.endswith("_rate"):
        text = "higher is better"
    elif overall <= 1.0:
        text = "at or below 1.00"
    elif interval is None:
        text = "too few layouts"
    elif interval[0] <= 1.0:
        text = f"not told from 1.00 (at most {interval[1]:.3f})"
    else:
        text = "gap"
    return overall, interval, text


def table(layouts, out_dir):
    """The verdict table's lines, header first."""
    ratios, units, order = read_ratios(layouts, out_dir)
    header = ["benchmark", "unit", "rounds"]
    header += [f"layout {layout}" for layout in range(layouts + 1)]
    header += ["median", "95% interval", "above 1.00", "verdict"]
    lines = [header]
    for row in order:
        per_layout = [median(ratios[row][l]) if ratios[row][l] else None for l in range(layouts + 1)]
        measured = [m for m in per_layout if m is not None]
        if not measured:
            continue
        overall, interval, text = verdict(row, measured)
        rounds = sum(len(ratios[row][l]) for l in range(layouts + 1))
        line = [row, units[row], str(rounds)]
        line += ["-" if m is None else f"{m:.3f}" for m in per_layout]
        line.append(f"{overall:.3f}")
        line.append("-" if interval is None else f"{interval[0]:.3f}-{interval[1]:.3f} ({interval[2]:.1%})")
        line.append(f"{sum(m > 1.0 for m in measured)}/{len(measured)}")
        line.append(text)
        lines.append(line)
    return lines


def self_test():
    """Checks the order statistics against exact binomial values, and the
    verdicts on made-up runs whose answer is known. Exits non-zero on a
    failure."""
    import tempfile

    failures = []

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    check("median, odd", median([3, 1, 2]), 2)
    check("median, even", median([4, 1, 3, 2]), 2.5)
    # Coverage 1 - 2 P(Binomial(n, 1/2) <= k - 1) for the widest k with at
    # least 95%: n = 5 has none (2/32 > 5%), n = 6 the extremes (62/64),
    # n = 9 the second from each end (1 - 20/512), n = 17 the fifth.
    check("interval, n = 5", median_interval(range(1, 6)), None)
    check("interval, n = 6", median_interval(range(1, 7)), (1, 6, 62 / 64))
    check("interval, n = 9", median_interval(range(1, 10)), (2, 8, 1 - 20 / 512))
    check("interval, n = 17", median_interval(range(1, 18)), (5, 13, 1 - 2 * 3214 / 2**17))
    check("interval, unsorted input", median_interval([9, 1, 8, 2, 7, 3, 6, 4, 5]), (2, 8, 1 - 20 / 512))

    # Made-up runs in 9 layouts, 2 runs each, 5 rounds a run; each row's
    # rayon-core figure is 100 and Drowse's is 100 x the ratio below.
    layouts = 8

    def ratio(row, layout, run, index):
        if row == "slower_2t":  # 2% slower in every round of every layout
            return 1.02
        if row == "layout_only_2t":  # +-3% by layout, 5 layouts up, 4 down
            return 1.0 + 0.03 * (-1 if layout % 2 else 1) + (0.001 if layout == 0 else 0)
        if row == "faster_2t":
            return 0.97
        if row == "tilted_2t":  # above 1.00 in 5 of 9 layouts, by little
            return [1.004, 0.996, 1.003, 0.998, 1.005, 0.997, 1.002, 0.999, 1.001][layout]
        return 1.5  # sweep_x_rate: higher is better
    rows = ["slower_2t", "layout_only_2t", "faster_2t", "tilted_2t", "sweep_x_rate"]
    with tempfile.TemporaryDirectory() as out_dir:
        for layout in range(layouts + 1):
            for run in (1, 2):
                with open(f"{out_dir}/layout-{layout}.run-{run}.out", "w") as out:
                    out.write("# a comment line, skipped\n")
                    for row in rows:
                        for index in range(5):
                            value = 100 * ratio(row, layout, run, index)
                            out.write(f"sample\t{row}\tms\tdrowse\t{index}\t{value:.3f}\n")
                            out.write(f"sample\t{row}\tms\trayon-core\t{index}\t100.000\n")
                    out.write("result\tslower_2t\tms\t102\t100\t1.02\t1.02-1.02\n")
        lines = table(layouts, out_dir)
    got = {line[0]: (line[2], line[-1]) for line in lines[1:]}
    check("rows", sorted(got), sorted(rows))
    check("slower_2t", got.get("slower_2t"), ("90", "gap"))
    check("layout_only_2t", got.get("layout_only_2t"), ("90", "not told from 1.00 (at most 1.030)"))
    check("faster_2t", got.get("faster_2t"), ("90", "at or below 1.00"))
    check("tilted_2t", got.get("tilted_2t"), ("90", "not told from 1.00 (at most 1.004)"))
    check("sweep_x_rate", got.get("sweep_x_rate"), ("90", "higher is better"))
    for failure in failures:
        print(f"verdict.py --self-test: {failure}")
    print(f"verdict.py --self-test: {len(failures)} failures")
    sys.exit(1 if failures else 0)


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    if len(sys.argv) != 3 or not sys.argv[1].isdigit():
        print("usage: verdict.py LAYOUTS OUT_DIR | verdict.py --self-test", file=sys.stderr)
        sys.exit(2)
    lines = table(int(sys.argv[1]), sys.argv[2])
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


if __name__ == "__main__":
    main()
