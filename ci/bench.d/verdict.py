"""The noise verdict of ci/bench-verdict: reads the `sample` lines of
compare runs (`compare --samples`) made in several code layouts, and prints
one line per row: the median of its paired-round ratios in each layout,
their median over the layouts, a distribution-free 95% confidence interval
for that median, and what the interval says. Rows are compared with
rayon-core; the `peer_*` rows, measured on chili too, get a second table
against chili and the chili target: Drowse at or below chili (median over
layouts at most 1.00) on every tree-sum and fib row at 1 and 2 threads.

Usage: verdict.py [--target] LAYOUTS OUT_DIR
                               (reads OUT_DIR/layout-L.run-K.out; with
                                --target, exits 1 unless the chili target
                                passes)
       verdict.py --self-test  (checks the statistics and verdicts on
                                made-up runs; ci/run's std step)

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
import re
import sys

# The reference of every row; the `peer_*` rows have chili as well.
RAYON = "rayon-core"
CHILI = "chili"
# The rows of the chili target: tree sums and fib at 1 and 2 threads.
CHILI_TARGET = re.compile(r"^peer_(tree|fib)[0-9]+_[12]t$")


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


def read_ratios(layouts, out_dir, peer=RAYON):
    """The paired-round ratios Drowse / `peer` of each row in each layout,
    over every run: (ratios[row][layout], units[row], rows in order of
    appearance); rows without `peer`'s samples are left out."""
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
                drowse, other = pools.get("drowse"), pools.get(peer)
                if drowse is not None and other:
                    ratios[row][layout].append(drowse / other)
            run += 1
    return ratios, units, [row for row in order if row in ratios]


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


def table(layouts, out_dir, peer=RAYON):
    """The verdict table's lines against `peer`, header first."""
    ratios, units, order = read_ratios(layouts, out_dir, peer)
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


def chili_target(chili_lines):
    """The chili target's outcome from the chili table's lines: (passed,
    what it says); passed is None when no target row was measured."""
    target = [line for line in chili_lines[1:] if CHILI_TARGET.match(line[0])]
    if not target:
        return None, "chili target: no tree or fib row at 1 or 2 threads was measured"
    median_column = chili_lines[0].index("median")
    above = [f"{line[0]} ({line[median_column]})" for line in target if float(line[median_column]) > 1.0]
    if above:
        return False, f"chili target: FAIL, above chili on {len(above)} of {len(target)} rows: {', '.join(above)}"
    return True, f"chili target: PASS, at or below chili on all {len(target)} tree and fib rows at 1 and 2 threads"


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

    # The peer rows: Drowse, chili and rayon-core in each round. Each pair
    # is (Drowse / chili, Drowse / rayon-core).
    def peer_ratios(row, layout):
        if row == "peer_tree20_1t":  # 6x chili, below rayon-core
            return 6.0, 0.9
        if row == "peer_fib30_2t":  # below both
            return 0.95, 0.5
        if row == "peer_tree23_2t":  # at chili in 5 of 9 layouts, just above in 4
            return (1.0 if layout % 2 == 0 else 1.01), 0.8
        return 3.0, 1.1  # peer_qsort1m_1t: not a target row

    def peer_lines(rows):
        with tempfile.TemporaryDirectory() as out_dir:
            for layout in range(layouts + 1):
                with open(f"{out_dir}/layout-{layout}.run-1.out", "w") as out:
                    for row in rows:
                        chili, rayon = peer_ratios(row, layout)
                        for index in range(5):
                            out.write(f"sample\t{row}\tns/node\tdrowse\t{index}\t100.000\n")
                            out.write(f"sample\t{row}\tns/node\tchili\t{index}\t{100 / chili:.6f}\n")
                            out.write(f"sample\t{row}\tns/node\trayon-core\t{index}\t{100 / rayon:.6f}\n")
            return table(layouts, out_dir), table(layouts, out_dir, CHILI)

    peer_rows = ["peer_tree20_1t", "peer_fib30_2t", "peer_tree23_2t", "peer_qsort1m_1t"]
    rayon_lines, chili_lines = peer_lines(peer_rows)
    got = {line[0]: (line[-4], line[-1]) for line in rayon_lines[1:]}
    check("peer rows against rayon-core", got, {
        "peer_tree20_1t": ("0.900", "at or below 1.00"),
        "peer_fib30_2t": ("0.500", "at or below 1.00"),
        "peer_tree23_2t": ("0.800", "at or below 1.00"),
        "peer_qsort1m_1t": ("1.100", "gap"),
    })
    got = {line[0]: (line[-4], line[-1]) for line in chili_lines[1:]}
    check("peer rows against chili", got, {
        "peer_tree20_1t": ("6.000", "gap"),
        "peer_fib30_2t": ("0.950", "at or below 1.00"),
        "peer_tree23_2t": ("1.000", "at or below 1.00"),
        "peer_qsort1m_1t": ("3.000", "gap"),
    })
    check("chili target, one row above", chili_target(chili_lines),
          (False, "chili target: FAIL, above chili on 1 of 3 rows: peer_tree20_1t (6.000)"))
    _, chili_lines = peer_lines(["peer_fib30_2t", "peer_tree23_2t", "peer_qsort1m_1t"])
    check("chili target, all at or below", chili_target(chili_lines),
          (True, "chili target: PASS, at or below chili on all 2 tree and fib rows at 1 and 2 threads"))
    check("chili target, no target row", chili_target(table(layouts, "/nonexistent", CHILI))[0], None)
    # Without chili samples (the earlier made-up runs), no chili table rows.
    check("no chili rows in a rayon-only run", len(table(layouts, "/nonexistent", CHILI)), 1)
    for failure in failures:
        print(f"verdict.py --self-test: {failure}")
    print(f"verdict.py --self-test: {len(failures)} failures")
    sys.exit(1 if failures else 0)


def print_table(lines):
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
    target = args[:1] == ["--target"]
    if target:
        args = args[1:]
    if len(args) != 2 or not args[0].isdigit():
        print("usage: verdict.py [--target] LAYOUTS OUT_DIR | verdict.py --self-test", file=sys.stderr)
        sys.exit(2)
    layouts, out_dir = int(args[0]), args[1]
    print("## Against rayon-core (ratio Drowse / rayon-core)")
    print_table(table(layouts, out_dir))
    chili_lines = table(layouts, out_dir, CHILI)
    passed = None
    if len(chili_lines) > 1:
        print()
        print("## Against chili 0.2 (ratio Drowse / chili; the peer_* rows)")
        print_table(chili_lines)
        passed, text = chili_target(chili_lines)
        print(text)
    elif target:
        print("chili target: no peer_* row was measured")
    if target and not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()
