"""Bayesian Plackett-Luce ranking of k classifiers over N data sets (issue 29).

The model (Calvo, Ceberio & Lozano 2018, "Bayesian inference for algorithm ranking analysis", GECCO '18
companion; Plackett 1975, "The analysis of permutations", Applied Statistics 24; Luce 1959, "Individual
choice behavior"): on each data set the classifiers' order, best first by the table's direction, is a
Plackett-Luce ranking with positive weights w = (w_1, ..., w_k),

    P(pi | w) = prod_{j=1}^{n-1}  w_{pi_j} / sum_{m >= j} w_{pi_m}                       (PL, eq. 1)

and the normalised weights w / sum(w) have a Dirichlet(prior, ..., prior) prior. The data sets are
independent given w.

**Sampler.** The exact Gibbs sampler with latent variables of Caron & Doucet (2012), "Efficient Bayesian
inference for generalized Bradley-Terry models", J. Comput. Graph. Stat. 21(1), their Gibbs sampler for the
Plackett-Luce model with a Gamma(a, b) prior, shape a and rate b, on each weight; here b = 1, since the
normalised weights do not depend on b): give each w_k an independent Gamma(a, 1) prior (a = ``prior``). Then
w / sum(w) ~ Dirichlet(a, ..., a) and, because the likelihood (PL, eq. 1) does not change when every weight
is multiplied by the same number, the posterior of w / sum(w) is exactly the posterior of the model above.
For every stage j of ranking i with a remaining set R_ij (the classifiers not yet placed, at least two of
them) a latent Z_ij is introduced with

    1 / (sum_{m in R_ij} w_m)^{d_ij} = int z^{d_ij - 1} exp(-z sum_{m in R_ij} w_m) dz / Gamma(d_ij)

(d_ij = the number of classifiers placed at that stage: 1 without ties, see the ties rule below). The
complete conditionals are then

    Z_ij | w ~ Gamma(d_ij, rate = sum_{m in R_ij} w_m)                                 (latent step)
    w_k | Z  ~ Gamma(a + c_k, rate = 1 + sum_{(i,j): k in R_ij} Z_ij)                  (weight step)

with c_k the number of stages at which k is placed (a ranking's last, trivial stage w/w = 1 is left out: its
factor is 1). A third step redraws the scale: given the normalised weights, sum(w) is a posteriori
Gamma(k a, 1), independent of them (the likelihood does not see the scale), so the weights are rescaled to
a fresh Gamma(k a, 1) total (a step added here for mixing, which the scale-free model allows; it integrates
the Z out and is immediately followed by the latent step, so the chain keeps the posterior: a partially
collapsed Gibbs sampler in the sense of van Dyk & Park 2008). Last, k - 1 Metropolis moves, also with the
Z integrated out (the exact target: Gamma priors times eq. 1), each multiplying the weights of one block of
classifiers by a common factor: block j holds the classifiers from place j + 1 on when they are put in the
order of their mean ranks (fixed before sampling, so the proposal is symmetric and the posterior is kept);
each moves one gap between strong and weak classifiers, the direction in which the Gibbs steps alone are
slow when the data sets agree on one order (there, 100 data sets with one order of 10 classifiers, the
smallest bulk ESS of 4,000 draws rose from 22 to 689). Their step sizes adapt during the warmup only. Stages
of any data sets that leave the same set of classifiers share one latent variable (a sum of independent
Gamma(d_ij, rate) variables with one rate is Gamma(sum of d_ij, rate), and only that sum enters the weight
step), which is exact and saves work when data sets agree. All of it is vectorised over
the stages of every data set and over the chains; Python loops run over the iterations and the k - 1 blocks.

**Missing cells.** A classifier without a score on a data set is left out of that data set's ranking:
the data set gives a partial ranking of the classifiers it scores, and the PL probability of a ranking of
a subset is eq. 1 over that subset (the marginal of PL). It neither wins nor loses there. A data set that
scores fewer than two classifiers contributes nothing (a note says how many).

**Ties (rule: "breslow").** Classifiers with the same score on a data set are placed at the same stage:
a tie group G chosen from the remaining set R contributes prod_{m in G} w_m / (sum_{m in R} w_m)^{|G|},
each member a Luce choice from the same remaining set (Breslow's 1974 rule for ties in Cox's partial
likelihood, which is eq. 1 in another guise). It is symmetric in the tied classifiers and uses no random
tie-break; its Gibbs step is exact (the latent Z of that stage has shape |G|). It is not the probability
of "any order of G" (a sum over orderings): a tie counts as evidence that the tied classifiers are
alike. With two classifiers, m wins, l losses and t ties, the posterior of w_1 / (w_1 + w_2) is exactly
Beta(a + m + t, a + l + t).

**Order.** The classifiers and the data sets are put in the order of their names (as text) before
sampling and the results are given back by name: the same seed gives exactly the same numbers whatever
the order of the table's rows and columns.

**Outputs** (posterior means over the draws; "a new data set" is one more PL ranking from the same w):

* ``p_best``: P(a classifier is ranked first on a new data set) = E[w_k / sum(w)] (in PL, P(k first) is
  w_k / sum(w), so it is the posterior mean of the normalised weight);
* ``p_largest_weight``: the posterior probability that k has the largest weight (is the best in the model);
* ``p_before``: P(row ranked before column on a new data set) = E[w_i / (w_i + w_j)] (a PL marginal);
* ``expected_rank``: 1 + sum_{j != k} p_before[j, k] (exact for PL);
* ``rank_probabilities``: P(k at rank r on a new data set), exact for each draw when k <= 10 (a sum over the
  subsets of classifiers placed before it, a dynamic programme over the 2^k subsets), otherwise estimated
  by sampling PL rankings per draw with the Gumbel trick (argsort of log w + Gumbel noise);
  ``rank_method`` says which.

Diagnostics: the rank-normalised split R-hat and the bulk effective sample size (Vehtari, Gelman,
Simpson, Carpenter & Bürkner 2021, Bayesian Analysis 16(2)) of each log normalised weight; a
:class:`~compare_lib.errors.ApproximationWarning` when the largest R-hat is above 1.01 (draw more samples or
warmup iterations then).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._result import Result
from ._table import ScoreTable, as_table
from ._validation import check_seed
from .errors import ApproximationWarning, InputError, arg
from .limits import MAX_POSTERIOR_SAMPLES

__all__ = ["BayesianRankingResult", "bayesian_ranking", "TIES_RULE"]

TIES_RULE = "breslow"
#: Largest k for which the rank probabilities are exact per draw (2^k subsets per draw).
EXACT_RANKS_MAX_K = 10
#: Largest number of chains.
MAX_CHAINS = 64
#: Bound on one call's Gibbs work: iterations x chains x stages x classifiers (about a minute at most).
MAX_RANKING_WORK = 20_000_000_000
#: The Dirichlet concentration's range: below 0.1 the Gamma draws of a classifier that is never placed above
#: another can underflow to 0 in double precision (P(Gamma(a) < 1e-300) = 1e-300^a / Gamma(a + 1)).
MIN_PRIOR, MAX_PRIOR = 0.1, 1e6
#: R-hat above this gives a warning.
RHAT_LIMIT = 1.01


@dataclass(frozen=True, eq=False)
class BayesianRankingResult(Result):
    """The posterior of a Bayesian Plackett-Luce model of the classifiers' rankings (see
    :func:`bayesian_ranking`). Series and frames are indexed by classifier in the table's order."""

    p_best: pd.Series = field(repr=False)
    p_largest_weight: pd.Series = field(repr=False)
    expected_rank: pd.Series = field(repr=False)
    rank_probabilities: pd.DataFrame = field(repr=False)
    p_before: pd.DataFrame = field(repr=False)
    weights: pd.DataFrame = field(repr=False, compare=False)
    rhat: pd.Series = field(repr=False)
    ess: pd.Series = field(repr=False)
    max_rhat: float
    min_ess: float
    n_samples: int = field(metadata={"key": "samples"})
    chains: int
    warmup: int
    seed: int | None
    prior: float
    ties: str
    rank_method: str
    n_datasets: int
    n_datasets_used: int
    higher_is_better: bool
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        order = self.p_best.sort_values(ascending=False)
        best = ", ".join(f"{name}: {p:.3f}" for name, p in list(order.items())[:5])
        more = ", ..." if len(order) > 5 else ""
        return (f"BayesianRankingResult(p_best={{{best}{more}}}, k={len(order)}, data sets used="
                f"{self.n_datasets_used}/{self.n_datasets}, samples={self.n_samples} ({self.chains} chains), "
                f"max_rhat={self.max_rhat:.4f}, min_ess={self.min_ess:.0f}, seed={self.seed}, prior={self.prior}, "
                f"ties={self.ties!r})")

    def to_frame(self) -> pd.DataFrame:
        """One row per classifier: p_best, p_largest_weight, expected_rank, R-hat and ESS."""
        return pd.DataFrame({"p_best": self.p_best, "p_largest_weight": self.p_largest_weight,
                             "expected_rank": self.expected_rank, "rhat": self.rhat, "ess": self.ess})


# ---------------------------------------------------------------------------------------------
# the data: stages of the (partial, tied) rankings


def _stages(oriented: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The stages of every data set's ranking: ``remaining`` (stages x k, 1 where a classifier is still
    unplaced), ``size`` (classifiers placed at the stage, its tie group), ``counts`` (k: how often each is
    placed at a counted stage) and the number of data sets with at least two scores. Higher = better;
    NaN = missing (left out)."""
    n, k = oriented.shape
    remaining, sizes = [], []
    counts = np.zeros(k)
    used = 0
    for i in range(n):
        row = oriented[i]
        present = np.flatnonzero(~np.isnan(row))
        if present.size < 2:
            continue
        used += 1
        values = np.unique(row[present])[::-1]  # distinct scores, best first
        for v in values:
            still = present[row[present] <= v]
            group = present[row[present] == v]
            if still.size < 2:  # the last, single classifier: w / w = 1
                continue
            mask = np.zeros(k)
            mask[still] = 1.0
            remaining.append(mask)
            sizes.append(group.size)
            counts[group] += 1
    if not remaining:
        return np.zeros((0, k)), np.zeros(0), counts, used
    return np.array(remaining), np.array(sizes, dtype=float), counts, used


# ---------------------------------------------------------------------------------------------
# the Gibbs sampler (Caron & Doucet 2012)


def _log_target(logw: np.ndarray, remaining: np.ndarray, size: np.ndarray, shape_w: np.ndarray) -> np.ndarray:
    """log posterior density of u = log w (Gamma(a, 1) priors, the Jacobian, the PL likelihood), per chain:
    sum_k (a + c_k) u_k - sum_k w_k - sum_ij d_ij log(sum_{m in R_ij} w_m)."""
    w = np.exp(logw)
    return logw @ shape_w - w.sum(axis=1) - np.log(w @ remaining.T) @ size


def _gibbs(remaining: np.ndarray, size: np.ndarray, counts: np.ndarray, a: float, chains: int, draws: int,
           warmup: int, rng: np.random.Generator, order: np.ndarray | None = None) -> np.ndarray:
    """Normalised weights, chains x draws x k.

    Each iteration: the latent step, the weight step, the scale step and k - 1 Metropolis moves, each
    multiplying the weights of one block of classifiers by a common factor exp(e), e ~ N(0, s_j^2), with the
    Z integrated out (the exact target :func:`_log_target`). Block j holds the classifiers from position j
    on in ``order`` (best first by mean rank), fixed before sampling from the data alone: the proposal is
    symmetric, so each move keeps the posterior. The step sizes s_j adapt during the warmup only (towards an
    acceptance rate of 0.3)."""
    k = remaining.shape[1]
    w = np.exp(rng.normal(0.0, 2.0, size=(chains, k)))  # dispersed starts
    shape_w = a + counts
    order = np.arange(k) if order is None else order
    blocks = np.zeros((k - 1, k))
    for j in range(1, k):
        blocks[j - 1, order[j:]] = 1.0
    log_step = np.full(k - 1, math.log(0.5))
    out = np.empty((chains, draws, k))
    for it in range(warmup + draws):
        rate_z = w @ remaining.T                                     # chains x stages: sum of w over R_ij
        z = rng.standard_gamma(size, size=rate_z.shape) / rate_z     # Z_ij ~ Gamma(d_ij, rate_z)
        rate_w = 1.0 + z @ remaining                                 # chains x k
        w = rng.standard_gamma(shape_w, size=rate_w.shape) / rate_w  # w_k ~ Gamma(a + c_k, rate_w)
        pi = w / w.sum(axis=1, keepdims=True)
        w = pi * rng.standard_gamma(k * a, size=(chains, 1))         # scale ~ Gamma(k a, 1)
        # the block moves (Metropolis, Z integrated out), each block once, in turn
        logw = np.log(w)
        current = _log_target(logw, remaining, size, shape_w)
        steps = np.exp(log_step)[:, None] * rng.normal(size=(k - 1, chains))
        uniforms = np.log(rng.random((k - 1, chains)))
        for j in range(k - 1):
            proposal = logw + steps[j][:, None] * blocks[j]
            target = _log_target(proposal, remaining, size, shape_w)
            accept = uniforms[j] < target - current
            logw = np.where(accept[:, None], proposal, logw)
            current = np.where(accept, target, current)
            if it < warmup:  # adapt the step sizes (warmup only)
                log_step[j] += (accept.mean() - 0.3) / math.sqrt(it + 10.0)
        w = np.exp(logw)
        if it >= warmup:
            out[:, it - warmup] = w / w.sum(axis=1, keepdims=True)
    return out


# ---------------------------------------------------------------------------------------------
# diagnostics (Vehtari et al. 2021)


def _split(x: np.ndarray) -> np.ndarray:
    """chains x draws -> 2 chains x half the draws (a middle draw of an odd count is dropped)."""
    half = x.shape[1] // 2
    return np.concatenate([x[:, :half], x[:, x.shape[1] - half:]], axis=0)


def _z_scale(x: np.ndarray) -> np.ndarray:
    from scipy import stats

    flat = x.ravel()
    r = stats.rankdata(flat, method="average")
    return stats.norm.ppf((r - 0.375) / (flat.size + 0.25)).reshape(x.shape)


def _rhat_plain(x: np.ndarray) -> float:
    m, n = x.shape
    means = x.mean(axis=1)
    b = n * means.var(ddof=1)
    w = x.var(axis=1, ddof=1).mean()
    if w <= 0:
        return float("nan")
    return float(math.sqrt(((n - 1) / n * w + b / n) / w))


def _rhat(x: np.ndarray) -> float:
    """Rank-normalised split R-hat: the larger of the bulk and the folded (tail) values."""
    s = _split(x)
    bulk = _rhat_plain(_z_scale(s))
    tail = _rhat_plain(_z_scale(np.abs(s - np.median(s))))
    return float(max(bulk, tail))


def _autocov(x: np.ndarray) -> np.ndarray:
    """Biased autocovariance of each chain (chains x draws), by FFT."""
    n = x.shape[1]
    c = x - x.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    f = np.fft.rfft(c, n=size, axis=1)
    return np.fft.irfft(f * np.conj(f), n=size, axis=1)[:, :n] / n


def _ess_plain(x: np.ndarray) -> float:
    """Effective sample size of chains x draws (Geyer's initial monotone sequence, as Stan and ArviZ)."""
    m, n = x.shape
    if n < 4:
        return float("nan")
    acov = _autocov(x)
    mean_var = acov[:, 0].mean() * n / (n - 1.0)
    var_plus = mean_var * (n - 1.0) / n
    if m > 1:
        var_plus += x.mean(axis=1).var(ddof=1)
    if var_plus <= 0:
        return float("nan")
    rho = np.zeros(n)
    even, odd = 1.0, 1.0 - (mean_var - acov[:, 1].mean()) / var_plus
    rho[0], rho[1] = even, odd
    t = 1
    while t < n - 3 and even + odd > 0.0:
        even = 1.0 - (mean_var - acov[:, t + 1].mean()) / var_plus
        odd = 1.0 - (mean_var - acov[:, t + 2].mean()) / var_plus
        if even + odd >= 0:
            rho[t + 1], rho[t + 2] = even, odd
        t += 2
    max_t = t - 2
    if rho[max_t + 1] > 0:
        max_t += 1
    t = 1
    while t <= max_t - 2:  # monotone
        if rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]:
            rho[t + 1] = rho[t + 2] = (rho[t - 1] + rho[t]) / 2.0
        t += 2
    total = m * n
    tau = -1.0 + 2.0 * rho[:max_t + 1].sum() + rho[max_t + 1:max_t + 2].sum()
    tau = max(tau, 1.0 / math.log10(total))
    return float(total / tau)


def _ess(x: np.ndarray) -> float:
    """Bulk ESS: of the rank-normalised split chains."""
    return _ess_plain(_z_scale(_split(x)))


# ---------------------------------------------------------------------------------------------
# a new data set's ranking under each draw


def _popcounts(k: int) -> np.ndarray:
    masks = np.arange(1 << k)
    return np.array([bin(s).count("1") for s in masks])


def _rank_probabilities_exact(pi: np.ndarray) -> np.ndarray:
    """P(k at rank r) averaged over the draws (draws x k -> k x k), exact per draw.

    f(S) = P(the first |S| places hold the set S) = sum_{j in S} f(S - j) w_j / w(complement of S - j);
    P(k at rank r) = sum over S without k, |S| = r - 1, of f(S) w_k / w(complement of S).
    Vectorised over the draws and, layer by layer (|S| = 1, 2, ...), over the subsets."""
    d, k = pi.shape
    full = (1 << k) - 1
    subsets = np.arange(1 << k)
    pop = _popcounts(k)
    member = (subsets[:, None] >> np.arange(k)) & 1  # 2^k x k
    layers = []
    for size in range(1, k):
        sets = np.flatnonzero(pop == size)
        js = np.nonzero(member[sets])[1].reshape(sets.size, size)  # the members of each set, in order
        parents = sets[:, None] & ~(1 << js)
        layers.append((sets, js.ravel(), parents.ravel(), size))
    out = np.zeros((k, k))
    for start in range(0, d, 2000):
        w = pi[start:start + 2000].T  # k x draws
        nd = w.shape[1]
        wsum = member.astype(float) @ w  # 2^k x draws: total weight of each subset
        rest = wsum[full ^ subsets]      # weight of each subset's complement
        g = np.zeros((1 << k, nd))  # g(S) = f(S) / w(complement of S)
        g[0] = 1.0 / rest[0]
        for sets, js, parents, size in layers:
            g[sets] = (g[parents] * w[js]).reshape(sets.size, size, nd).sum(axis=1) / rest[sets]
        # sum over draws of f(S) w_k / w(complement of S): one product for every subset S and item k
        g = g[:full]                                   # the full set (no complement) places nobody after it
        per_set = g @ w.T                              # (2^k - 1) x k
        without = member[:full] == 0
        for item in range(k):
            out[item] += np.bincount(pop[:full][without[:, item]], weights=per_set[without[:, item], item],
                                     minlength=k)[:k]
    return out / d


def _rank_probabilities_sampled(pi: np.ndarray, rng: np.random.Generator, per_draw: int) -> np.ndarray:
    """P(k at rank r) estimated with ``per_draw`` PL rankings per draw (Gumbel trick)."""
    d, k = pi.shape
    out = np.zeros((k, k))
    logw = np.log(pi)
    chunk = max(1, 2_000_000 // (per_draw * k))
    for start in range(0, d, chunk):
        lw = logw[start:start + chunk]
        keys = lw[:, None, :] + rng.gumbel(size=(lw.shape[0], per_draw, k))
        order = np.argsort(-keys, axis=2)          # best first
        ranks = np.argsort(order, axis=2)          # rank index (0 = first) of each classifier
        for item in range(k):
            out[item] += np.bincount(ranks[:, :, item].ravel(), minlength=k)
    return out / (d * per_draw)


# ---------------------------------------------------------------------------------------------
# the public function


def _check_number(value, name: str, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float, np.floating)) \
            or not np.isfinite(value) or int(value) != value or not low <= value <= high:
        raise InputError(f"{arg(name, bare=True)} must be a whole number between {low:,} and {high:,}, got {value!r}.")
    return int(value)


def bayesian_ranking(table, *, samples: int = 4000, seed: int | None = None, prior: float = 1.0, chains: int = 4,
                     warmup: int = 1000, higher_is_better: bool | None = None) -> BayesianRankingResult:
    """Bayesian Plackett-Luce ranking of the classifiers (Calvo, Ceberio & Lozano 2018; Plackett 1975;
    Luce 1959), sampled with the exact latent-variable Gibbs sampler of Caron & Doucet (2012) plus Metropolis
    moves of blocks of weights (module docstring).

    Each data set's order of the classifiers (best first, by the table's direction) is a Plackett-Luce
    ranking with weights w; the normalised weights have a Dirichlet(``prior``) prior. Missing cells are
    partial rankings (the classifier is left out of that data set); ties follow Breslow's rule (the tied
    classifiers share one stage's remaining set, no random tie-break). The module docstring gives the
    equations.

    Parameters
    ----------
    table : ScoreTable (or a DataFrame with ``higher_is_better``)
    samples : int
        Posterior draws kept in all, split evenly over the chains (rounded up to a multiple of ``chains``).
    seed : int or None
        The same seed gives exactly the same result (whatever the order of rows and columns).
    prior : float
        The Dirichlet concentration of the normalised weights (1: uniform on the simplex), from 0.1 to 10^6.
    chains : int
        Independent chains from dispersed starts (R-hat and ESS need at least two).
    warmup : int
        Iterations discarded at the start of each chain.

    Returns
    -------
    BayesianRankingResult
        ``p_best`` (P(ranked first on a new data set) = posterior mean of w_k / sum(w)), ``p_largest_weight``
        (P(k has the largest weight)), ``expected_rank``, ``rank_probabilities`` (classifiers x ranks 1..k),
        ``p_before`` (P(row ranked before column)), ``weights`` (the normalised draws, chain by chain),
        ``rhat``/``ess`` per classifier (of log w_k / sum(w)), their extremes, and the settings.
    """
    seed = check_seed(seed)
    t: ScoreTable = as_table(table, higher_is_better)
    if not (isinstance(prior, (int, float, np.integer, np.floating)) and not isinstance(prior, (bool, np.bool_))
            and math.isfinite(prior) and MIN_PRIOR <= prior <= MAX_PRIOR):
        raise InputError(f"{arg('prior', bare=True)} must be a number between {MIN_PRIOR} and {MAX_PRIOR:,} (the "
                         f"Dirichlet concentration; 1 is uniform on the simplex), got {prior!r}.")
    prior = float(prior)
    chains = _check_number(chains, "chains", 1, MAX_CHAINS)
    samples = _check_number(samples, "samples", 100, MAX_POSTERIOR_SAMPLES)
    warmup = _check_number(warmup, "warmup", 0, MAX_POSTERIOR_SAMPLES)
    k = t.n_classifiers
    if k < 2:
        raise InputError(f"A ranking needs at least two classifiers; the table has {k}.")
    draws = -(-samples // chains)

    # canonical order: by name, so that the order of rows and columns does not matter
    cols = np.argsort(np.array([str(c) for c in t.classifiers], dtype=object), kind="stable")
    rows = np.argsort(np.array([str(r) for r in t.datasets], dtype=object), kind="stable")
    oriented = np.asarray(t.oriented_scores, dtype=float)[np.ix_(rows, cols)]
    remaining, size, counts, used = _stages(oriented)
    if remaining.shape[0]:  # stages with the same remaining set share one latent Z: Gamma(sum of d_ij, rate)
        remaining, inverse = np.unique(remaining, axis=0, return_inverse=True)
        size = np.bincount(inverse.ravel(), weights=size, minlength=remaining.shape[0])
    notes = []
    skipped = t.n_datasets - used
    if skipped:
        notes.append(f"{skipped} data set{'s' if skipped > 1 else ''} with fewer than two scored classifiers "
                     f"contribute{'s' if skipped == 1 else ''} nothing to the ranking.")
    if used == 0:
        raise InputError("No data set scores two or more classifiers: there is no ranking to learn from.")
    work = (warmup + draws) * chains * remaining.shape[0] * k
    if work > MAX_RANKING_WORK:
        raise InputError(f"This ranking is {work:,} units of work (iterations x chains x stages x classifiers), above "
                         f"the limit of {MAX_RANKING_WORK:,}; use fewer samples, chains or warmup iterations.")
    if t.has_missing:
        notes.append("Missing cells: each classifier without a score on a data set is left out of that data set's "
                     "ranking (a partial ranking).")
    if np.any(size > 1):
        notes.append("Ties: tied classifiers share one stage (Breslow's rule), which counts a tie as evidence that "
                     "they are alike.")

    rng_sampler, rng_ranks = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    # the sampler's blocks: the classifiers best first by mean rank (ties: by name), from the data alone
    mean_ranks = t.ranks.mean().to_numpy(dtype=float)[cols]
    order = np.argsort(mean_ranks, kind="stable")
    pi_c = _gibbs(remaining, size, counts, prior, chains, draws, warmup, rng_sampler, order)  # canonical order
    # every summary is computed in the canonical order and then put in the table's order
    names = t.classifiers
    cnames = [names[c] for c in cols]
    pi = pi_c.reshape(-1, k)

    p_best = pd.Series(pi.mean(axis=0), index=cnames, name="p_best")
    largest = np.bincount(np.argmax(pi, axis=1), minlength=k) / pi.shape[0]
    p_largest = pd.Series(largest, index=cnames, name="p_largest_weight")
    before = np.zeros((k, k))
    for i in range(k):
        before[i] = (pi[:, [i]] / (pi[:, [i]] + pi)).mean(axis=0)
    np.fill_diagonal(before, np.nan)
    expected = 1.0 + np.nansum(before, axis=0)
    expected_rank = pd.Series(expected, index=cnames, name="expected_rank")
    p_before = pd.DataFrame(before, index=cnames, columns=cnames).loc[names, names]
    if k <= EXACT_RANKS_MAX_K:
        rp = _rank_probabilities_exact(pi)
        method = "exact per draw (dynamic programme over subsets)"
    else:
        per_draw = max(1, 200_000 // pi.shape[0])
        rp = _rank_probabilities_sampled(pi, rng_ranks, per_draw)
        method = f"Monte Carlo: {per_draw} Plackett-Luce rankings per draw (Gumbel trick)"
    rank_probabilities = pd.DataFrame(rp, index=cnames, columns=pd.RangeIndex(1, k + 1, name="rank")).loc[names]

    logs = np.log(pi_c)
    if chains * draws >= 8 and draws >= 4:
        rhat = np.array([_rhat(logs[:, :, j]) for j in range(k)])
        ess = np.array([_ess(logs[:, :, j]) for j in range(k)])
    else:
        rhat = ess = np.full(k, np.nan)
    max_rhat = float(np.nanmax(rhat)) if np.isfinite(rhat).any() else float("nan")
    min_ess = float(np.nanmin(ess)) if np.isfinite(ess).any() else float("nan")
    if chains < 2:
        notes.append("One chain: R-hat compares its two halves only.")
    if max_rhat > RHAT_LIMIT:
        message = (f"The Plackett-Luce sampler may not have converged: the largest R-hat is {max_rhat:.3f} "
                   f"(above {RHAT_LIMIT}); draw more samples or warmup iterations.")
        notes.append(message)
        warnings.warn(message, ApproximationWarning, stacklevel=2)
    index = pd.MultiIndex.from_product([range(chains), range(draws)], names=["chain", "draw"])
    weights = pd.DataFrame(pi, columns=cnames, index=index)[names]
    return BayesianRankingResult(
        notes=tuple(notes), p_best=p_best.loc[names], p_largest_weight=p_largest.loc[names],
        expected_rank=expected_rank.loc[names],
        rank_probabilities=rank_probabilities, p_before=p_before, weights=weights,
        rhat=pd.Series(rhat, index=cnames, name="rhat").loc[names],
        ess=pd.Series(ess, index=cnames, name="ess").loc[names],
        max_rhat=max_rhat, min_ess=min_ess, n_samples=int(chains * draws), chains=chains, warmup=warmup, seed=seed,
        prior=prior, ties=TIES_RULE, rank_method=method, n_datasets=t.n_datasets, n_datasets_used=used,
        higher_is_better=t.higher_is_better)
