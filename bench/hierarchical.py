"""Benchmark of the hierarchical Bayesian test (issue 29): the first call (JAX compiles the sampler), repeated calls
with new data of the same shape, a call with another number of data sets, for q data sets × n folds, 4 chains ×
1,000 draws after 1,000 warm-up iterations; the process's peak memory; the diagnostics; the load average.

    .venv/bin/python bench/hierarchical.py [--datasets 50] [--folds 10] [--repeats 3] [--other 60]

Goals (issue 29, 50 data sets × 10 folds on the 2-core machine): first call <= 20 s, a repeated call <= 5 s.
The times are wall-clock and the CPU time of this process; on a shared machine the CPU time is the steadier number
(run it on an idle machine for the wall-clock goals).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def _rss() -> tuple[float, float]:
    """Current and peak resident memory of this process, MB."""
    now = peak = float("nan")
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM"):
                peak = int(line.split()[1]) / 1024
    return now, peak


def _clock() -> tuple[float, float]:
    t = os.times()
    return time.perf_counter(), t.user + t.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=50)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--other", type=int, default=60, help="data sets of the last call (another shape)")
    args = parser.parse_args()

    w0, c0 = _clock()
    import compare_lib as cl
    from compare_lib.stats import _hierarchical as H

    problem = cl.hierarchical_available()
    if problem:
        sys.exit(problem)
    jax = H._jax() if hasattr(H, "_jax") else __import__("jax")  # as the library imports it (devices asked first)
    import numpyro  # noqa: F401  (its import is part of the first call's cost on a fresh server)

    w1, c1 = _clock()
    compile_time = []
    if hasattr(H, "_bucket"):  # time the compilations inside the calls
        build = H._sampler

        def timed(*a, **k):
            cached = (*a, bool(jax.config.jax_enable_x64)) in H._SAMPLERS
            s = _clock()
            out = build(*a, **k)
            if not cached:
                e = _clock()
                compile_time.append((e[0] - s[0], e[1] - s[1]))
            return out
        H._sampler = timed
    print(f"{args.datasets} data sets x {args.folds} folds, 4 chains x {args.samples} draws (+1,000 warm-up); "
          f"{len(jax.local_devices())} JAX device(s), {os.cpu_count()} cores")
    print(f"import of compare_lib + JAX + NumPyro: {w1 - w0:.1f} s wall, {c1 - c0:.1f} s CPU; "
          f"RSS {_rss()[0]:.0f} MB; load average {os.getloadavg()[0]:.1f}")
    rng = np.random.default_rng(0)
    n = args.folds
    plan = [(args.datasets, "first: compiles" if i == 0 else "new data, same shape") for i in range(args.repeats)]
    plan.append((args.other, f"{args.other} data sets"))
    for i, (q, what) in enumerate(plan):
        true = rng.normal(0.01, 0.02, (q, 1))
        x = 0.8 + true + rng.normal(0, 0.03, (q, n))
        y = np.full((q, n), 0.8)
        compile_time.clear()
        s = _clock()
        res = cl.bayesian_hierarchical(x, y, 0.01, samples=args.samples, seed=i)
        e = _clock()
        d = res.diagnostics
        comp = (f" (compile {compile_time[0][0]:.1f} s wall, {compile_time[0][1]:.1f} s CPU)" if compile_time else
                " (no compilation)" if hasattr(H, "_bucket") else "")
        print(f"  call {i + 1} ({what}): {e[0] - s[0]:5.1f} s wall, {e[1] - s[1]:5.1f} s CPU{comp}; load "
              f"{os.getloadavg()[0]:.1f}\n      p = ({res.p_x:.3f}, {res.p_rope:.3f}, {res.p_y:.3f})   max R-hat "
              f"{res.max_rhat:.4f}   min ESS {res.min_ess:,.0f}   divergences {res.divergences}"
              + (f"   leapfrog steps per draw {d['mean_leapfrog_steps']:.1f}" if "mean_leapfrog_steps" in d else ""))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak:.0f} MB (now {_rss()[0]:.0f} MB); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
