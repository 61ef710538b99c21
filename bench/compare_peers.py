"""Time a full analysis with compare_lib against autorank and scikit-posthocs, same inputs, same run.

    .venv/bin/pip install -e .[bench]      # autorank, scikit-posthocs (never runtime dependencies)
    .venv/bin/python bench/compare_peers.py [--repeat 5]

"ours (full)": load the table into a ScoreTable, ranks, Friedman, Iman-Davenport, the APVs of every
all-pairs procedure on the mean-ranks statistic (Nemenyi, Bonferroni, Holm, Hochberg, Hommel, Shaffer,
and Bergmann-Hommel while k <= 15), the CD groups of each, and the CD diagram figure.
"autorank": autorank(..., force_mode="nonparametric") = Friedman + Nemenyi (it also runs the
normality and homoscedasticity tests). "scikit-posthocs": Friedman (scipy) + posthoc_nemenyi_friedman
+ critical_difference_diagram (matplotlib, Agg). Also the peak memory of ours on 1000 x 50, measured
in a fresh process.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd

import compare_lib as cl


def tables() -> dict[str, pd.DataFrame]:
    out = {"Benavoli 54 x 7": cl.load_scores("sample_data/benavoli2016_table2_accuracy.csv", higher_is_better=True).scores}
    for n, k in ((100, 20), (1000, 50)):
        rng = np.random.default_rng(n + k)
        scores = rng.normal(0.8, 0.05, size=(n, k)) + np.linspace(0, 0.04, k)
        out[f"random {n} x {k}"] = pd.DataFrame(scores, index=[f"d{i}" for i in range(n)],
                                                columns=[f"classifier {j}" for j in range(k)])
    return out


def ours(df: pd.DataFrame) -> None:
    t = cl.ScoreTable(df, True)
    t.ranks
    cl.friedman(t)
    cl.iman_davenport(t)
    procs = ["nemenyi", "bonferroni", "holm", "hochberg", "hommel", "shaffer"]
    if t.n_classifiers <= 15:
        procs.append("bergmann-hommel")
    table = cl.apv_table(t, "mean-ranks", corrections=procs)
    mean_ranks = dict(t.mean_ranks)
    pairs = list(zip(table["a"], table["b"]))
    for proc in procs:
        cl.not_different_groups(mean_ranks, [pair for pair, apv in zip(pairs, table[proc]) if apv <= 0.05])


def ours_with_figure(df: pd.DataFrame) -> None:
    ours(df)
    t = cl.ScoreTable(df, True)
    cl.plots.cd_diagram(cl.posthoc(t, "mean-ranks", "nemenyi"))


def autorank_run(df: pd.DataFrame) -> None:
    import contextlib
    import io

    from autorank import autorank

    with contextlib.redirect_stdout(io.StringIO()):  # autorank prints its result table
        autorank(df, alpha=0.05, verbose=False, force_mode="nonparametric")


def posthocs_run(df: pd.DataFrame) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import scikit_posthocs as sp
    from scipy import stats

    stats.friedmanchisquare(*df.to_numpy().T)
    sig = sp.posthoc_nemenyi_friedman(df)
    ranks = df.rank(axis=1, ascending=False).mean()
    fig, ax = plt.subplots()
    sp.critical_difference_diagram(ranks, sig, ax=ax)
    plt.close(fig)


def best_of(fn, df, repeat: int) -> float:
    fn(df)  # warm-up (imports, caches)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(df)
        times.append(time.perf_counter() - t0)
    return float(np.min(times))  # the least-disturbed run, for ours and the peers alike


PEAK = """
import resource, numpy as np, pandas as pd, sys
sys.path.insert(0, "bench")
from compare_peers import tables, ours
df = tables()["random 1000 x 50"]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ours(df)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before / 1024, after / 1024)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    # Each peer is compared with the part of ours that does the same work: autorank with the analysis,
    # scikit-posthocs (which also draws a CD diagram) with the analysis plus our CD diagram figure.
    peers = {"autorank": (autorank_run, ours), "scikit-posthocs": (posthocs_run, ours_with_figure)}
    print(f"{'table':<18} {'ours':>9} {'+figure':>9} " + " ".join(f"{p:>16} {'ratio':>6}" for p in peers))
    for name, df in tables().items():
        mine = {fn: best_of(fn, df, args.repeat) for fn in (ours, ours_with_figure)}
        cells = []
        for peer, (fn, counterpart) in peers.items():
            try:
                theirs = best_of(fn, df, args.repeat)
                cells.append(f"{theirs * 1000:>14.1f}ms {mine[counterpart] / theirs:>6.2f}")
            except ImportError:
                cells.append(f"{'not installed':>16} {'-':>6}")
        print(f"{name:<18} {mine[ours] * 1000:>7.1f}ms {mine[ours_with_figure] * 1000:>7.1f}ms " + " ".join(cells))
    out = subprocess.run([sys.executable, "-c", PEAK], capture_output=True, text=True, check=True).stdout.split()
    print(f"peak memory (max RSS) of ours on 1000 x 50: {float(out[1]):.0f} MB (process start {float(out[0]):.0f} MB)")
    print("ratio = ours / peer; below 0.5 meets the goal of at most half the peer's time.")


if __name__ == "__main__":
    main()
