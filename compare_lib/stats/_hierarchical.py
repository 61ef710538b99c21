"""The Bayesian hierarchical correlated t-test across data sets.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), "Statistical comparison of classifiers through
Bayesian hierarchical modelling", Machine Learning 106(11); the authors' Stan model
(``hierarchical-t-test.stan`` in BayesianTestsML/tutorial and in baycomp) and R wrapper
(``hierarchical_test.R``).

The model, for data sets i = 1..q, each with n_i fold differences x_i (``runs`` repetitions of k-fold
cross-validation, correlation ρ_i = 1/k, or n_test/(n_test + n_train) for random splits)::

    x_i ~ MVN(δ_i 1, σ_i² M_i),   M_i = (1 - ρ_i) I + ρ_i 1 1ᵀ
    δ_i ~ Student-t(ν, δ0, σ0),   σ_i ~ U(0, σ̄),  δ0 ~ U(-max|x|, max|x|),  σ0 ~ U(0, σ̄0)
    ν = 1 + Gamma(α, β) (β a rate),   α ~ U(α_low, α_high),  β ~ U(β_low, β_high)

with σ̄ = 1000 × the mean within-data-set standard deviation and σ̄0 = 1000 × the standard deviation of
the data sets' means (the wrappers' ``std_upper_bound``). The data are first divided by the mean
within-data-set standard deviation, as the authors' wrappers do (every prior bound scales with the data,
so this changes only the numerics). The likelihood is the multivariate normal's in closed form: with
m_i the mean and C_i the centred sum of squares of x_i,

    (x_i - δ_i 1)ᵀ M_i⁻¹ (x_i - δ_i 1) = C_i / (1 - ρ_i) + n_i (m_i - δ_i)² / (1 + (n_i - 1) ρ_i)
    log det M_i = log(1 + (n_i - 1) ρ_i) + (n_i - 1) log(1 - ρ_i)

so a data set costs two numbers whatever its number of folds, and data sets may differ in n_i and ρ_i.

The answer for the next data set is computed as baycomp and the authors' R code do: in each posterior
draw, the masses of the predictive Student-t(ν, δ0, σ0) left of -rope, inside ±rope and right of +rope;
``p_x``, ``p_rope``, ``p_y`` are the shares of draws in which that region has the largest mass (the
posterior means of the masses are in ``mean_masses``).

Prior presets (``prior=``): ``"paper"``, α ~ U(0.5, 5), β ~ U(0.05, 0.15), the paper's and the
tutorial's R code (and scmamp's); ``"baycomp"``, α ~ U(1, 2), β ~ U(0.01, 0.1), baycomp's and the
tutorial's Python code. The sampler is NumPyro's NUTS (the optional extra ``compare-lib[bayes]``),
imported only when this test is used. One chain is one compiled program, built once per bucket of data-set counts
(the data padded with slots that do not enter the posterior) and run on as many CPU devices as there are cores, so
a repeated call, with new data or another number of data sets in the bucket, does not compile again.
"""

from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.stats._bayesian import BayesianResult, _check
from compare_lib.core._validation import check_seed
from compare_lib.errors import InputError, arg

PRESETS: dict[str, dict[str, tuple[float, float]]] = {
    "paper": {"alpha": (0.5, 5.0), "beta": (0.05, 0.15)},
    "baycomp": {"alpha": (1.0, 2.0), "beta": (0.01, 0.1)},
}
#: The public name of the presets (``cl.HIERARCHICAL_PRIORS``).
HIERARCHICAL_PRIORS = PRESETS
PRESET_TEXT = {
    "paper": "the paper's prior (Corani et al. 2017; the tutorial's R code, scmamp): α ~ U(0.5, 5), β ~ U(0.05, 0.15)",
    "baycomp": "baycomp's prior (and the tutorial's Python code): α ~ U(1, 2), β ~ U(0.01, 0.1)",
}
#: The wrappers' std_upper_bound: σ_i and σ0 are uniform up to this many times the data's spread.
STD_UPPER_BOUND = 1000.0
#: Bounds of one call, stated in the messages.
MAX_DATASETS = 2000
MAX_DRAWS_PER_CHAIN = 20_000
MAX_CHAINS = 8
#: A chain whose largest R-hat exceeds this, or whose smallest effective sample size is below
#: MIN_ESS, or any divergent transition, gets a warning in the notes.
RHAT_WARN = 1.01
MIN_ESS = 400
INSTALL_HINT = 'pip install "compare-lib[bayes]"  (NumPyro and JAX, about 630 MB)'


@dataclass(frozen=True)
class HierarchicalResult(BayesianResult):
    """:class:`BayesianResult` of the hierarchical test, with what only this test gives.

    ``mean_masses``: posterior means of the three masses of the next data set's difference (x better,
    rope, y better). ``p_delta0_positive``: P(δ0 > 0), the posterior probability that the mean
    difference over data sets favours x. ``datasets``: one row per data set: its mean difference, the
    shrunk δ_i (posterior mean, 95% interval, in the units of the scores, positive favours x) and the
    posterior probabilities of the three regions for δ_i. ``diagnostics``: largest R-hat, smallest
    effective sample size, divergent transitions, chains, draws. ``prior``: the preset's name.
    """

    prior: str = "paper"
    mean_masses: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    p_delta0_positive: float = math.nan
    runs: int = 1
    rho: float | None = None
    scale: float = 1.0
    diagnostics: dict = field(default_factory=dict, metadata={"to_dict": False})
    datasets: pd.DataFrame | None = field(default=None, repr=False, compare=False, metadata={"to_dict": False})
    notes: tuple[str, ...] = ()

    @property
    def max_rhat(self) -> float:
        return float(self.diagnostics.get("max_rhat", math.nan))

    @property
    def min_ess(self) -> float:
        return float(self.diagnostics.get("min_ess", math.nan))

    @property
    def divergences(self) -> int:
        return int(self.diagnostics.get("divergences", 0))

    def diagnosis(self) -> str:
        """The sampler's diagnostics in plain words (what they are, and whether they are good enough)."""
        d = self.diagnostics
        parts = [f"{d.get('chains', 0)} chains × {d.get('draws', 0):,} draws after {d.get('warmup', 0):,} warm-up "
                 "iterations (NUTS)"]
        if math.isfinite(self.max_rhat):
            parts.append(f"largest R-hat {self.max_rhat:.3f} "
                         + ("(at most 1.01: the chains agree)" if self.max_rhat <= RHAT_WARN
                            else f"(above {RHAT_WARN}: the chains disagree; draw more)"))
        if math.isfinite(self.min_ess):
            parts.append(f"smallest effective sample size {self.min_ess:,.0f} "
                         + (f"(at least {MIN_ESS})" if self.min_ess >= MIN_ESS else f"(below {MIN_ESS}: draw more)"))
        parts.append("no divergent transitions" if not self.divergences else
                     f"{self.divergences} divergent transition{'s' if self.divergences > 1 else ''} (the sampler "
                     "struggled with the posterior's shape: the probabilities may be biased)")
        return "; ".join(parts) + "."

    def paragraph(self, a: str = "x", b: str = "y") -> str:
        """A paragraph for a paper: the method with its reference, the settings, the three probabilities for the
        next data set and the diagnostics (plain text; names as given)."""
        r = self.rope
        return (f"We compared {a} and {b} with the Bayesian hierarchical correlated t-test (Corani et al., 2017) on the "
                f"fold-level results of {self.n} data sets (ρ = {self.rho:.3g}, " if self.rho is not None else
                f"We compared {a} and {b} with the Bayesian hierarchical correlated t-test (Corani et al., 2017) on the "
                f"fold-level results of {self.n} data sets (ρ per data set from its resampling scheme, ") + (
                f"region of practical equivalence ±{r:g}, {PRESET_TEXT[self.prior]}). For a new data set, the posterior "
                f"probability that {a} is practically better is {self.p_x:.3f}, that the two are practically equivalent "
                f"{self.p_rope:.3f}, and that {b} is practically better {self.p_y:.3f}; the posterior probability that "
                f"the mean difference over data sets favours {a} is {self.p_delta0_positive:.3f}. Sampler: "
                f"{self.diagnosis()}")


def hierarchical_available() -> str | None:
    """None when the sampler can be imported, else why not (and how to install it)."""
    try:
        import numpyro  # noqa: F401
        import jax  # noqa: F401
    except Exception as err:  # ImportError, or a broken jaxlib
        return f"the hierarchical test needs NumPyro ({type(err).__name__}: {err}); install it with: {INSTALL_HINT}"
    return None


def _need_numpyro():
    problem = hierarchical_available()
    if problem is not None:
        raise InputError(problem[0].upper() + problem[1:] + ".")


# ---------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class _Data:
    names: tuple
    n: np.ndarray        # folds per data set
    rho: np.ndarray      # correlation per data set
    mean: np.ndarray     # mean difference per data set (scores' units, positive favours x)
    css: np.ndarray      # centred sum of squares per data set (scores' units)
    max_abs: float
    notes: tuple[str, ...]


def _prepare(rows: list[np.ndarray], rhos: list[float], names, rope: float, rng: np.random.Generator) -> _Data:
    """Per-data-set sufficient statistics; zero-variance data sets get the authors' fix."""
    notes = []
    if not rows:
        raise InputError("No data sets: the hierarchical test needs the fold differences of at least one data set.")
    if len(rows) > MAX_DATASETS:
        raise InputError(f"{len(rows):,} data sets is more than the hierarchical test takes in one call "
                         f"({MAX_DATASETS:,}).")
    sizes = np.array([r.size for r in rows])
    if (sizes < 2).any():
        i = int(np.flatnonzero(sizes < 2)[0])
        raise InputError(f"Data set {names[i]!r} has {sizes[i]} fold result; the hierarchical test needs at least 2 per "
                         "data set (the results of every fold, not their mean).")
    # All data sets at once: their folds end to end, with each data set's sums by np.add.reduceat.
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    flat = np.concatenate(rows).astype(float)
    # "The same difference on every fold", tested exactly (a mean's rounding can leave a constant row a tiny spread).
    constant = np.maximum.reduceat(flat, starts) == np.minimum.reduceat(flat, starts)
    if constant.all():
        raise InputError("Every data set's fold differences are constant (the two classifiers differ by the same "
                         "amount on every fold of every data set): there is no variance for the model to describe. "
                         "Check that these are fold-level results of two different classifiers.")
    zero = np.flatnonzero(constant)
    if zero.size:
        mean0 = np.add.reduceat(flat, starts) / sizes
        dev0 = flat - np.repeat(mean0, sizes)
        sds = np.sqrt(np.add.reduceat(dev0 * dev0, starts) / (sizes - 1))
        # The authors' R wrapper: add ±U(rope_min, rope_max) to the two halves of the folds, which keeps the
        # mean and gives a positive spread; with no ROPE, a hundredth of the typical within-data-set sd.
        half = rope if rope > 0 else 0.01 * float(sds[~constant].mean())
        for i in zero.tolist():  # at most one pass per constant data set, each vectorised over its folds
            h = int(sizes[i]) // 2
            noise = rng.uniform(-half, half, h)
            flat[starts[i]:starts[i] + h] += noise
            flat[starts[i] + h:starts[i] + 2 * h] -= noise
        named = ", ".join(repr(names[i]) for i in zero[:5]) + (" …" if zero.size > 5 else "")
        notes.append(f"{zero.size} data set{'s' if zero.size > 1 else ''} ({named}) had the same difference on every "
                     f"fold; as in the authors' code, ±U(0, {half:.3g}) noise was added to the two halves of its folds "
                     "(the mean is unchanged) so that its variance is positive.")
    mean = np.add.reduceat(flat, starts) / sizes
    dev = flat - np.repeat(mean, sizes)
    css = np.add.reduceat(dev * dev, starts)
    return _Data(tuple(names), sizes.astype(float), np.asarray(rhos, dtype=float), mean, css,
                 float(np.abs(flat).max()), tuple(notes))


def _as_rows(x, y, higher_is_better: bool) -> list[np.ndarray]:
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.ndim != 2 or b.ndim != 2:
        raise InputError(f"x and y must be 2-D (data sets × fold scores); got shapes {a.shape} and {b.shape}. "
                         "For one score per data set use bayesian_signed_rank.")
    if a.shape != b.shape:
        raise InputError(f"x and y have shapes {a.shape} and {b.shape}; the fold results must be paired.")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        bad = np.argwhere(~(np.isfinite(a) & np.isfinite(b)))[0]
        raise InputError(f"The scores must be finite numbers: data set {bad[0] + 1}, fold {bad[1] + 1} is not.")
    d = (a - b) if higher_is_better else (b - a)
    return list(d)


# ---------------------------------------------------------------------------------------------
# Sampler


def _model(mean, css, n, rho, real, delta_hi, sd_hi, sd0_hi, a_lo, a_hi, b_lo, b_hi):
    """The authors' model on ``size`` slots, of which the data sets are those with ``real`` true; the others pad the
    data to a size bucket (so that one compiled sampler serves every number of data sets up to it). A padding slot
    has no likelihood and its δ a fixed N(0, 1) prior instead of the Student-t: its parameters share no term with
    any other, so the posterior of the data sets' parameters and of the hyper-parameters is exactly the model's."""
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    size = mean.shape[0]
    delta0 = numpyro.sample("delta0", dist.Uniform(-delta_hi, delta_hi))
    std0 = numpyro.sample("std0", dist.Uniform(0.0, sd0_hi))
    gamma_alpha = numpyro.sample("gamma_alpha", dist.Uniform(a_lo, a_hi))
    gamma_beta = numpyro.sample("gamma_beta", dist.Uniform(b_lo, b_hi))
    nu_minus_one = numpyro.sample("nu_minus_one", dist.Gamma(gamma_alpha, gamma_beta))
    nu = numpyro.deterministic("nu", nu_minus_one + 1.0)
    with numpyro.plate("datasets", size):
        with numpyro.handlers.mask(mask=real):
            delta = numpyro.sample("delta", dist.StudentT(nu, delta0, std0))
        sigma = numpyro.sample("sigma", dist.Uniform(0.0, sd_hi))
    numpyro.factor("padding", jnp.where(real, 0.0, -0.5 * delta ** 2).sum())
    numpyro.factor("loglik", jnp.where(real, loglik(mean, css, n, rho, delta, sigma, jnp), 0.0).sum())


def loglik(mean, css, n, rho, delta, sigma, xp=np):
    """log MVN(x_i; δ_i 1, σ_i² M_i) per data set from its mean and centred sum of squares (the module's
    closed form; ``xp`` is numpy or jax.numpy)."""
    quad = css / (1.0 - rho) + n * (mean - delta) ** 2 / (1.0 + (n - 1.0) * rho)
    logdet = xp.log1p((n - 1.0) * rho) + (n - 1.0) * xp.log1p(-rho)
    return -0.5 * (n * math.log(2 * math.pi) + 2.0 * n * xp.log(sigma) + logdet + quad / sigma ** 2)


#: The sampled sites and whether they have one value per data set.
_SITES = {"delta0": False, "std0": False, "gamma_alpha": False, "gamma_beta": False, "nu_minus_one": False,
          "delta": True, "sigma": True}
#: With XLA's newer CPU fusion emitters this sampler took about 8-9 s of CPU and 400 MB of extra peak memory to
#: compile, without them about 5 s and 65 MB, for the same draws bit for bit (measured with jax 0.10.2).
_COMPILER_OPTIONS = {"xla_cpu_use_fusion_emitters": False}
_SAMPLERS: dict[tuple, Any] = {}
_SAMPLERS_LOCK = threading.Lock()
#: Compiled samplers kept at once (each holds its compiled program).
MAX_CACHED_SAMPLERS = 4
#: One sampling at a time per process: the chains already use every core, and a shared app must not run many
#: samplers at once (each holds its compiled program and its draws).
_RUN_LOCK = threading.Lock()
_DEVICES_ASKED = False


def _bucket(q: int) -> int:
    """The number of slots the sampler is compiled for: the smallest of 8, 12, 16, 24, 32, 48, ... (a power of two
    or 1.5 times one) that holds q data sets, so a call with another number of data sets mostly reuses it."""
    size = 8
    while size < q:
        size = size * 3 // 2 if size & (size - 1) == 0 else size * 4 // 3
    return size


def _jax():
    """Import JAX, first asking (if JAX has not started yet and nobody chose) for one CPU device per core, so the
    chains run in parallel; `jax_num_cpu_devices` must be set before JAX initialises its backend."""
    global _DEVICES_ASKED
    import jax

    if not _DEVICES_ASKED:
        _DEVICES_ASKED = True
        chosen = jax.config.jax_num_cpu_devices >= 0 or "xla_force_host_platform_device_count" in os.environ.get(
            "XLA_FLAGS", "")
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if not chosen and cores > 1:
            try:
                jax.config.update("jax_num_cpu_devices", min(cores, MAX_CHAINS))
            except RuntimeError:  # JAX already runs (the caller used it first): its devices as they are
                pass
    return jax


def _sampler(size: int, draws: int, warmup: int, target_accept: float, parallel: int):
    """The NUTS sampler of one chain, compiled once per (slots, draws, warm-up, target, parallel chains) and run
    over ``parallel`` devices at once (``jax.pmap``). Every chain runs the same compiled program whatever the number
    of devices, so the same seed gives the same draws on any machine with the same processor and libraries.

    The data and the prior bounds are arguments of the compiled program: a call with new data of a size that falls in
    the same bucket runs it again without compiling."""
    jax = _jax()
    key = (size, draws, warmup, target_accept, parallel, bool(jax.config.jax_enable_x64))
    with _SAMPLERS_LOCK:
        if key in _SAMPLERS:
            return _SAMPLERS[key]
    import jax.numpy as jnp
    from jax import lax, random
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import constrain_fn, potential_energy

    def potential_gen(*args):
        return lambda z: potential_energy(_model, args, {}, z)

    init_kernel, sample_kernel = hmc(potential_fn_gen=potential_gen, algo="NUTS")
    shapes = {name: ((size,) if per_set else ()) for name, per_set in _SITES.items()}

    def chain(rng_key, args):
        key_init, key_run = random.split(rng_key)

        # NumPyro's default start: uniform on (-2, 2) in the unconstrained space, where every term of the potential
        # is finite (the data are finite and every data set's spread positive), so no retry is needed.
        ks = random.split(key_init, len(shapes))
        z0 = {name: random.uniform(k, shp, minval=-2.0, maxval=2.0) for k, (name, shp) in zip(ks, shapes.items())}
        state = init_kernel(z0, warmup, target_accept_prob=target_accept, model_args=args, rng_key=key_run)
        buffers = ({name: jnp.zeros((draws,) + shp) for name, shp in shapes.items()},
                   jnp.zeros(draws, bool), jnp.zeros(draws, jnp.int32))

        def step(i, carry):
            state, (zs, diverging, steps) = carry
            state = sample_kernel(state, model_args=args)
            at = jnp.maximum(i - warmup, 0)  # warm-up draws all go to slot 0, which the first kept draw overwrites
            zs = {name: zs[name].at[at].set(state.z[name]) for name in zs}
            return state, (zs, diverging.at[at].set(state.diverging), steps.at[at].set(state.num_steps))

        state, (zs, diverging, steps) = lax.fori_loop(0, warmup + draws, step, (state, buffers))
        sites = jax.vmap(lambda z: constrain_fn(_model, args, {}, z, return_deterministic=True))(zs)
        return ({name: sites[name] for name in (*_SITES, "nu")}, diverging, steps, state.adapt_state.step_size)

    dummy = (jax.ShapeDtypeStruct((parallel, 2), jnp.uint32),
             tuple(jax.ShapeDtypeStruct((size,), jnp.bool_ if j == 4 else jnp.result_type(float)) if j < 5
                   else jax.ShapeDtypeStruct((), jnp.result_type(float)) for j in range(12)))
    compiled = jax.pmap(chain, in_axes=(0, None), devices=jax.local_devices()[:parallel]).lower(
        *dummy).compile(compiler_options=_COMPILER_OPTIONS)
    with _SAMPLERS_LOCK:
        while len(_SAMPLERS) >= MAX_CACHED_SAMPLERS:
            _SAMPLERS.pop(next(iter(_SAMPLERS)))
        _SAMPLERS[key] = compiled
    return compiled


def _split_rhat_ess(x: np.ndarray) -> tuple[float, float]:
    """Split R-hat and effective sample size of draws (chains × draws), by NumPyro's diagnostics."""
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin

    if x.shape[0] * x.shape[1] < 4 or not np.isfinite(x).all():
        return math.nan, math.nan
    return float(split_gelman_rubin(x)), float(effective_sample_size(x))


def _run(data: _Data, prior: str, chains: int, draws: int, warmup: int, seed: int,
         target_accept: float = 0.8) -> tuple[dict, dict]:
    _need_numpyro()
    jax = _jax()
    import jax.numpy as jnp

    sds = np.sqrt(data.css / (data.n - 1.0))
    scale = float(sds.mean())  # the wrappers' stdX (R's rowSds: n - 1)
    mean = data.mean / scale
    css = data.css / scale ** 2
    std_within = float(sds.mean()) / scale  # = 1
    std_among = float(np.std(mean, ddof=1)) if mean.size > 1 else std_within
    if not std_among > 0:  # every data set has the same mean difference
        std_among = std_within
    bounds = PRESETS[prior]
    q = mean.size
    size = _bucket(q)
    pad = size - q

    def padded(v, fill):
        return jnp.asarray(np.concatenate([v, np.full(pad, fill)]), dtype=jnp.result_type(float))

    args = (padded(mean, 0.0), padded(css, 1.0), padded(data.n, 2.0), padded(data.rho, 0.5),
            jnp.asarray(np.arange(size) < q), *(jnp.asarray(v, dtype=jnp.result_type(float)) for v in (
                data.max_abs / scale, std_within * STD_UPPER_BOUND, std_among * STD_UPPER_BOUND,
                bounds["alpha"][0], bounds["alpha"][1], bounds["beta"][0], bounds["beta"][1])))
    parallel = max(1, min(chains, len(jax.local_devices())))
    rounds = -(-chains // parallel)
    # One key per chain (the last round padded with spare chains whose draws are dropped): chain j's draws depend
    # only on the seed and j, not on how many run at once.
    keys = np.asarray(jax.random.split(jax.random.PRNGKey(seed), rounds * parallel))
    with _RUN_LOCK:
        sampler = _sampler(size, draws, warmup, target_accept, parallel)
        outs = [sampler(keys[r * parallel:(r + 1) * parallel], args) for r in range(rounds)]
        outs = [jax.tree.map(np.asarray, o) for o in outs]
    sites, diverging, steps, step_size = (
        jax.tree.map(lambda *v: np.concatenate(v)[:chains], *[o[j] for o in outs]) for j in range(4))
    got = {name: (v[:, :, :q] if v.ndim == 3 else v) for name, v in sites.items()}
    rhats, esss = [], []
    for name in ("delta0", "std0", "nu", "delta", "sigma"):
        v = got[name]
        v = v.reshape(v.shape[0], v.shape[1], -1)
        for j in range(v.shape[2]) if v.shape[2] <= 50 else np.linspace(0, v.shape[2] - 1, 50).astype(int):
            r, e = _split_rhat_ess(v[:, :, j])
            rhats.append(r)
            esss.append(e)
    diag = {"max_rhat": float(np.nanmax(rhats)) if chains > 1 else math.nan, "min_ess": float(np.nanmin(esss)),
            "divergences": int(diverging.sum()), "chains": chains, "draws": draws, "warmup": warmup, "scale": scale,
            "mean_leapfrog_steps": float(steps.mean()), "step_size": tuple(float(v) for v in step_size)}
    flat = {k: v.reshape(chains * draws, *v.shape[2:]) for k, v in got.items()}
    flat["scale"] = scale
    return flat, diag


def _regions(df, loc, sc, rope: float) -> np.ndarray:
    """Masses (x better, rope, y better) of Student-t(df, loc, sc), one row per draw (positive favours x)."""
    below = stats.t.cdf(-rope, df, loc, sc)
    above = stats.t.sf(rope, df, loc, sc)
    return np.column_stack([above, np.clip(1.0 - above - below, 0.0, 1.0), below])


def _check_sampling(prior, chains, samples, warmup, seed) -> int:
    if prior not in PRESETS:
        raise InputError(f"{arg('prior', bare=True)} must be one of {', '.join(map(repr, PRESETS))}, got {prior!r}.")
    for what, value, lo, hi in (("chains", chains, 1, MAX_CHAINS), ("samples", samples, 100, MAX_DRAWS_PER_CHAIN),
                                ("warmup", warmup, 100, MAX_DRAWS_PER_CHAIN)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
            raise InputError(f"{arg(what, bare=True)} must be a whole number between {lo:,} and {hi:,}, got {value!r}.")
    seed = check_seed(seed)
    # a fresh SeedSequence draws its entropy from the OS as one int
    return int(cast(int, np.random.SeedSequence().entropy) % 2**32) if seed is None else seed


def _hierarchical(data: _Data, rope: float, prior: str, chains: int, samples: int, warmup: int, seed: int,
                  runs: int, rho: float | None, higher_is_better: bool, target_accept: float = 0.8) -> HierarchicalResult:
    draws, diag = _run(data, prior, chains, samples, warmup, seed, target_accept)
    diag["target_accept"] = target_accept
    scale = draws["scale"]
    masses = _regions(draws["nu"], draws["delta0"], draws["std0"], rope / scale)
    winners = np.bincount(np.argmax(masses, axis=1), minlength=3) / masses.shape[0]
    # The shares' Monte Carlo error, with the effective sample size of the least mixed parameter.
    ess = max(1.0, min(diag["min_ess"], masses.shape[0])) if math.isfinite(diag["min_ess"]) else masses.shape[0]
    se_x, se_rope, se_y = (float(math.sqrt(p * (1 - p) / ess)) for p in winners)
    mc_se = (se_x, se_rope, se_y)
    mass_x, mass_rope, mass_y = (float(v) for v in masses.mean(axis=0))
    delta = draws["delta"] * scale
    r = rope
    rows = pd.DataFrame({
        "dataset": list(data.names), "folds": data.n.astype(int), "rho": data.rho, "mean_difference": data.mean,
        "delta": delta.mean(axis=0), "delta_low": np.quantile(delta, 0.025, axis=0),
        "delta_high": np.quantile(delta, 0.975, axis=0),
        "p_x": (delta > r).mean(axis=0), "p_rope": (np.abs(delta) <= r).mean(axis=0), "p_y": (delta < -r).mean(axis=0),
    })
    notes = list(data.notes)
    warn = []
    if chains > 1 and diag["max_rhat"] > RHAT_WARN:
        warn.append(f"the largest R-hat is {diag['max_rhat']:.3f} (above {RHAT_WARN}: the chains disagree)")
    if diag["min_ess"] < MIN_ESS:
        warn.append(f"the smallest effective sample size is {diag['min_ess']:.0f} (below {MIN_ESS})")
    if diag["divergences"]:
        warn.append(f"{diag['divergences']} divergent transition{'s' if diag['divergences'] > 1 else ''}")
    if warn:
        notes.append("The sampler may not have converged: " + "; ".join(warn) +
                     ". Draw more samples, a longer warm-up or a higher target_accept (0.9 to 0.99: smaller steps) "
                     "before reading the probabilities.")
    diag["warnings"] = tuple(warn)
    notes.append(f"Prior: {PRESET_TEXT[prior]}.")
    return HierarchicalResult(
        p_x=float(winners[0]), p_rope=float(winners[1]), p_y=float(winners[2]), test="hierarchical", rope=float(rope),
        prior_strength=None, prior_place=None, n_samples=int(masses.shape[0]), seed=seed,
        higher_is_better=bool(higher_is_better), n=len(data.names), mc_se=mc_se, samples=masses,
        posterior={k: draws[k] * (scale if k in ("delta0", "std0") else 1.0)
                   for k in ("delta0", "std0", "nu", "gamma_alpha", "gamma_beta")},
        prior=prior, mean_masses=(mass_x, mass_rope, mass_y),
        p_delta0_positive=float((draws["delta0"] > 0).mean()), runs=runs, rho=rho, scale=scale, diagnostics=diag,
        datasets=rows, notes=tuple(notes))


def bayesian_hierarchical(x, y=None, rope: float = 0.0, *, runs: int = 1, prior: str = "paper", samples: int = 1000,
                          chains: int = 4, warmup: int = 1000, seed: int | None = None,
                          higher_is_better: bool = True, names=None, target_accept: float = 0.8) -> HierarchicalResult:
    """The hierarchical Bayesian test of Corani et al. (2017) on the fold results of q data sets.

    ``x``, ``y``: 2-D, data sets × fold scores of the two classifiers on the same splits (``runs``
    repetitions of k-fold cross-validation, so each row has runs × k scores and ρ = 1/k). Or ``x`` a
    long fold-level table (``Results.fold_rows()``, the experiment runner's output: columns dataset,
    classifier, score and run/fold identifiers) and ``y`` a pair ``(a, b)`` of classifier names; then
    each data set may have its own number of folds and its ρ comes from the table
    (:func:`compare_lib.fold_groups`).

    ``rope`` in the units of the scores. ``prior``: ``"paper"`` or ``"baycomp"`` (see the module).
    ``samples`` draws per chain after ``warmup``, ``chains`` chains (4,000 draws by default, as the
    authors' R code). Same ``seed``, same result. ``target_accept``: NUTS's target acceptance rate (0.8, as
    Stan's default; raise it towards 0.99 when the diagnostics report divergent transitions).

    Returns a :class:`HierarchicalResult`: ``p_x``, ``p_rope``, ``p_y`` for the next data set, the
    posterior mean masses, P(δ0 > 0), the shrunk δ_i per data set, diagnostics (notes warn when
    R-hat > 1.01, an effective sample size < 400 or any divergence).

    Tutorial (Benavoli et al. 2017, "Hierarchical test" notebook; NBC vs HNB on 54 data sets, 10 × 10-fold
    cv, rope 0.01, baycomp's prior): P(HNB better) = 0.998, P(rope) = 0.002, P(NBC better) = 0.
    """
    rope_value = rope
    _check(rope_value, None, None, None)
    seed = _check_sampling(prior, chains, samples, warmup, seed)
    if not (isinstance(target_accept, (int, float)) and 0.5 <= target_accept < 1):
        raise InputError(f"{arg('target_accept', bare=True)} must be a number in [0.5, 1), got {target_accept!r}.")
    target_accept = float(target_accept)
    rng = np.random.default_rng(seed)
    if isinstance(x, pd.DataFrame):
        if not (isinstance(y, (tuple, list)) and len(y) == 2):
            raise InputError(f"With a fold-level table, give the two classifiers as {arg('y', bare=True)} = (a, b).")
        return _from_folds(x, str(y[0]), str(y[1]), rope_value, prior, chains, samples, warmup, seed, rng,
                           higher_is_better, target_accept)
    if y is None:
        raise InputError("Give y, the second classifier's fold scores (the same shape as x).")
    rows = _as_rows(x, y, higher_is_better)
    if isinstance(runs, bool) or not isinstance(runs, (int, np.integer)) or runs < 1:
        raise InputError(f"{arg('runs', bare=True)} must be a whole number >= 1 (repetitions of cross-validation), "
                         f"got {runs!r}.")
    n_scores = rows[0].size if rows else 0
    if n_scores % runs or n_scores // runs < 2:
        raise InputError(f"Each data set has {n_scores} fold scores, which is not {runs} run(s) of k >= 2 folds; "
                         f"give {arg('runs')} the number of repetitions of cross-validation.")
    folds = n_scores // runs
    names = list(names) if names is not None else [f"data set {i + 1}" for i in range(len(rows))]
    if len(names) != len(rows):
        raise InputError(f"names has {len(names)} entries for {len(rows)} data sets.")
    data = _prepare(rows, [1.0 / folds] * len(rows), names, rope_value, rng)
    return _hierarchical(data, rope_value, prior, chains, samples, warmup, seed, runs, 1.0 / folds, higher_is_better,
                         target_accept)


def _from_folds(folds: pd.DataFrame, a: str, b: str, rope, prior, chains, samples, warmup, seed, rng,
                higher_is_better, target_accept) -> HierarchicalResult:
    from compare_lib.stats._resampling import fold_groups

    groups = fold_groups(folds, a, b)
    by_set: dict = {}
    for g in groups:
        if g.test_train_ratio is None:
            raise InputError(f"Data set {g.dataset!r} has random splits without n_train/n_test columns: the correlation "
                             "between its results is unknown. Add the columns or use k-fold cross-validation.")
        d = g.differences.ravel() if higher_is_better else -g.differences.ravel()
        rho = g.test_train_ratio / (1.0 + g.test_train_ratio)
        if g.dataset in by_set:
            prev_d, prev_rho, prev_label = by_set[g.dataset]
            if not math.isclose(prev_rho, rho, rel_tol=1e-9):
                raise InputError(f"Data set {g.dataset!r} has results of two schemes ({prev_label} and {g.label}) with "
                                 "different correlations; keep one scheme per data set.")
            by_set[g.dataset] = (np.concatenate([prev_d, d]), rho, prev_label)
        else:
            by_set[g.dataset] = (d, rho, g.label)
    names = list(by_set)
    runs_seen = {g.differences.shape[0] for g in groups}
    data = _prepare([v[0] for v in by_set.values()], [v[1] for v in by_set.values()], names, rope, rng)
    data = _Data(data.names, data.n, data.rho, data.mean, data.css, data.max_abs,
                 tuple(groups.notes) + data.notes)
    rhos = set(np.round(data.rho, 12))
    return _hierarchical(data, rope, prior, chains, samples, warmup, seed,
                         runs_seen.pop() if len(runs_seen) == 1 else 0,
                         float(data.rho[0]) if len(rhos) == 1 else None, higher_is_better, target_accept)


def hierarchical_sensitivity(x, y=None, rope: float = 0.0, *, given: HierarchicalResult | None = None,
                             **kwargs) -> pd.DataFrame:
    """The hierarchical test under each prior preset: one row per preset (prior, its bounds, p_x, p_rope,
    p_y, the mean masses, P(δ0 > 0), largest R-hat), so a reader sees whether the answer depends on the
    hyper-prior that the packages disagree on. ``given``: a result already computed on the same data and
    settings under one preset, used for that preset's row instead of sampling again."""
    kwargs.pop("prior", None)
    rows = []
    for prior in PRESETS:
        res = given if given is not None and given.prior == prior else bayesian_hierarchical(
            x, y, rope, prior=prior, **kwargs)
        (alo, ahi), (blo, bhi) = PRESETS[prior]["alpha"], PRESETS[prior]["beta"]
        rows.append({"prior": prior, "alpha": f"U({alo:g}, {ahi:g})", "beta": f"U({blo:g}, {bhi:g})",
                     "p_x": res.p_x, "p_rope": res.p_rope, "p_y": res.p_y,
                     "mass_x": res.mean_masses[0], "mass_rope": res.mean_masses[1], "mass_y": res.mean_masses[2],
                     "p_delta0_positive": res.p_delta0_positive, "max_rhat": res.max_rhat})
    return pd.DataFrame(rows)
