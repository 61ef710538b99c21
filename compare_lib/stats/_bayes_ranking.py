"""Bayesian ranking of k classifiers over N data sets (issue 29): Plackett-Luce, or Bradley-Terry-Davidson.

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
The blocks are scanned from the smallest (j = k - 1) to the largest, and each move is evaluated incrementally
(:func:`_block_moves`): a move changes each stage's sum S to S + (f - 1) T, T the block's part of it, so only
the ratios 1 + (f - 1) T / S of the stages that straddle the block enter (those wholly inside give d e), T grows
by one classifier per move and S is updated when a move is accepted. A move then costs O(chains x stages) instead
of O(chains x stages x k) for a new evaluation of the likelihood, so an iteration costs O(chains x stages x k)
instead of O(chains x stages x k^2) (k = 200 classifiers on 20 data sets: 9 times less per iteration, measured).
The decisions are exactly those of the direct evaluation (tests/test_bayes_ranking.py checks them move by move).

**Bradley-Terry-Davidson** (``model="bradley-terry-davidson"``; Davidson 1970, "On extending the Bradley-Terry
model to accommodate ties in paired comparison experiments", JASA 65(329)): each pair of classifiers scored on a
data set is one comparison with P(i beats j) = pi_i / D, P(tie) = nu sqrt(pi_i pi_j) / D, D = pi_i + pi_j + nu
sqrt(pi_i pi_j); the win, tie and loss counts of all pairs are multinomial given the strengths (the pairs of one
data set are treated as independent comparisons, as in every Bradley-Terry analysis of rankings). Priors: log pi_m
~ N(0, s^2) i.i.d., log nu ~ N(0, t^2). Sampled with Hamiltonian Monte Carlo (Neal 2011) on the centred log
strengths in an orthonormal basis (the likelihood sees only differences; the prior's mean direction integrates
out) and log nu, vectorised over chains (:class:`_Davidson`, :func:`_hmc`). With two classifiers, 7 wins, 2
losses, 3 ties and flat priors on the log scale, E[pi_A / (pi_A + pi_B)] = 7/9 = 0.78 (the ties inform nu only):
the issue's check, in the tests by numerical integration.

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

from compare_lib.core._result import Result
from compare_lib.core._table import ScoreTable, as_table
from compare_lib.core._validation import check_seed
from compare_lib.errors import ApproximationWarning, InputError, arg
from compare_lib.limits import MAX_POSTERIOR_SAMPLES
from compare_lib.ranks import win_tie_loss

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
#: Leapfrog steps per Hamiltonian Monte Carlo iteration (Bradley-Terry-Davidson).
BTD_LEAPFROG = 8


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
    prior: float | None
    ties: str
    rank_method: str
    n_datasets: int
    n_datasets_used: int
    higher_is_better: bool
    notes: tuple[str, ...] = ()
    model: str = "plackett-luce"
    strength_sd: float | None = None
    tie_sd: float | None = None
    #: Bradley-Terry-Davidson: the posterior mean of nu and its central 95 % interval.
    tie_parameter: float | None = None
    tie_interval: tuple[float, float] | None = None
    p_tie: pd.DataFrame | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        order = self.p_best.sort_values(ascending=False)
        best = ", ".join(f"{name}: {p:.3f}" for name, p in list(order.items())[:5])
        more = ", ..." if len(order) > 5 else ""
        return (f"BayesianRankingResult(p_best={{{best}{more}}}, k={len(order)}, data sets used="
                f"{self.n_datasets_used}/{self.n_datasets}, samples={self.n_samples} ({self.chains} chains), "
                f"max_rhat={self.max_rhat:.4f}, min_ess={self.min_ess:.0f}, seed={self.seed}, prior={self.prior}, "
                f"ties={self.ties!r})")

    def paragraph(self, top: int = 5) -> str:
        """A paragraph for a paper: the model with its reference, the settings, P(best) and the expected rank of
        the ``top`` classifiers most likely best, and the diagnostics (plain text; names as given)."""
        order = self.p_best.sort_values(ascending=False, kind="stable")
        shown = list(order.index[:top])
        listed = "; ".join(f"{name} {self.p_best[name]:.3f} (expected rank {self.expected_rank[name]:.2f})"
                           for name in shown)
        more = f"; the other {len(order) - len(shown)} below {order.iloc[len(shown)]:.3f}" if len(order) > len(shown) else ""
        used = (f"{self.n_datasets} data sets" if self.n_datasets_used == self.n_datasets else
                f"{self.n_datasets_used} of the {self.n_datasets} data sets (the others score fewer than two)")
        if self.model == "bradley-terry-davidson":
            method = (f"a Bayesian Bradley-Terry model with Davidson's (1970) ties on the win, tie and loss counts of "
                      f"every pair over {used} (priors: log strengths N(0, {self.strength_sd:g}²), log ν "
                      f"N(0, {self.tie_sd:g}²))")
            best = "the probability that each has the largest strength"
        else:
            method = (f"a Bayesian Plackett-Luce model (Calvo, Ceberio & Lozano, 2018) of the classifiers' rankings "
                      f"on {used}, with a Dirichlet({self.prior:g}) prior on the weights"
                      + (", missing scores as partial rankings" if any("partial ranking" in n for n in self.notes) else "")
                      + ", ties by Breslow's rule")
            best = "the posterior probability that each is ranked first on a new data set"
        seed = "no seed" if self.seed is None else f"seed {self.seed}"
        rhat = f"largest R-hat {self.max_rhat:.3f}" if self.max_rhat == self.max_rhat else "R-hat not computed"
        ess = f"smallest effective sample size {self.min_ess:,.0f}" if self.min_ess == self.min_ess else ""
        return (f"We ranked {len(order)} classifiers with {method}; {self.chains} chains, {self.n_samples:,} draws in all "
                f"after {self.warmup:,} warm-up iterations per chain, {seed}. Among the classifiers, {best} is: {listed}"
                f"{more}. Sampler: {rhat}{'; ' + ess if ess else ''}.")

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


#: Factors of the acceptance ratio multiplied together before one logarithm (2^5 = 32; see :func:`_sum_log`).
_HALVINGS = 5


def _sum_log(ratio: np.ndarray, bound: float) -> np.ndarray:
    """sum over the columns of log(ratio), per row, with one logarithm per 32 columns: the columns are multiplied
    pairwise in place (five halvings) first. Each factor lies between 1 and exp(e), so a product of 32 lies
    within exp(+-32 |e|): exact in double precision while 32 ``bound`` (the largest |e|) stays below 700; above
    that it takes the logarithm of every column. ``ratio`` is overwritten."""
    n = ratio.shape[1]
    if bound * (1 << _HALVINGS) > 700.0:
        return np.log(ratio).sum(axis=1)
    for _ in range(_HALVINGS):
        if n < 2:
            break
        half = n // 2
        ratio[:, :half] *= ratio[:, n - half:n]  # the middle column of an odd n stays as it is
        n -= half
    return np.log(ratio[:, :n]).sum(axis=1)


class _MoveLayout:
    """The stages arranged for :func:`_block_moves`: those with d = 1 sorted by the position (in the block order)
    of their first classifier, last first, then those with d > 1, first first. The stages whose first classifier
    is before position j are then the contiguous columns [start[j], stop[j]) (the d = 1 ones before n_one, whose
    logarithms :func:`_sum_log` takes in products); the others lie wholly inside block j (``inside[j]``: the sum
    of their d). ``first`` is each stage's first position (after the sort)."""

    def __init__(self, remaining: np.ndarray, size: np.ndarray, order: np.ndarray):
        k = remaining.shape[1]
        by_position = remaining.T[order]                                 # k x stages
        first = np.argmax(by_position > 0, axis=0)
        single = size == 1
        ones = np.flatnonzero(single)
        ones = ones[np.argsort(-first[ones], kind="stable")]
        multi = np.flatnonzero(~single)
        multi = multi[np.argsort(first[multi], kind="stable")]
        self.sort = np.concatenate([ones, multi])
        self.n_one = ones.size
        self.first = first[self.sort]
        self.size = size[self.sort]
        self.by_position = np.ascontiguousarray(by_position[:, self.sort])
        self.remaining = np.ascontiguousarray(remaining[self.sort])
        j = np.arange(k)
        # ones: columns [0, start[j]) have their first classifier at position >= j (inside block j)
        self.start = np.searchsorted(-self.first[:self.n_one], -j, side="right")
        self.stop = self.n_one + np.searchsorted(self.first[self.n_one:], j, side="left")  # multi: first < j
        open_size = (self.n_one - self.start) + np.concatenate([[0.0], np.cumsum(self.size[self.n_one:])])[
            self.stop - self.n_one]
        self.inside = self.size.sum() - open_size


def _block_moves(w: np.ndarray, total: np.ndarray, layout: _MoveLayout, shape_pos: np.ndarray, order: np.ndarray,
                 steps: np.ndarray, log_uniforms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k - 1 Metropolis block moves of one iteration, exactly the sequential moves on the target
    :func:`_log_target` (block j = the classifiers at positions j..k-1 of ``order``, scanned from j = k - 1 down
    to 1), at a cost of O(chains x stages) each instead of a new evaluation of the whole likelihood.

    Multiplying block j by f = exp(e) changes a stage's sum S to S + (f - 1) T (T: the weight of its classifiers
    from position j on), so the log acceptance ratio is e sum_{block} (a + c_m) - (f - 1) sum_{block} w_m -
    sum_i d_i log(1 + (f - 1) T_i / S_i). Scanning the blocks from the smallest, T grows by one position per move
    (a sum of positive terms, no cancellation) and is multiplied by f when a move is accepted (kept as T / h with h
    the product of the factors accepted so far); S is multiplied by its ratio when a move is accepted. A stage whose
    first classifier lies in block j contributes d_i e exactly (``layout.inside``), so move j visits only the
    others, a contiguous range of columns (:class:`_MoveLayout`); a deterministic scan order of moves that each keep
    the posterior keeps it.

    ``total``: chains x stages, S at the current weights (layout order). Returns the new weights (chains x k), the
    acceptances ((k - 1) x chains, for the step-size adaptation) and S at the new weights."""
    chains, k = w.shape
    wp = w[:, order]                                          # chains x k, in block order
    shape_suffix = np.cumsum(shape_pos[::-1])[::-1]
    tail = np.zeros_like(total)                               # T / h
    block = np.zeros(chains)                                  # the block's weight / h
    h = np.ones(chains)
    accepted = np.zeros((k - 1, chains), dtype=bool)
    gained = np.zeros((chains, k))                            # the accepted log factor of each move
    bound = float(np.abs(steps).max())
    n_one, size, by_position = layout.n_one, layout.size, layout.by_position
    for j in range(k - 1, 0, -1):
        lo, hi = layout.start[j], layout.stop[j]
        block += wp[:, j] / h
        if hi > lo:
            tail[:, lo:hi] += (wp[:, j] / h)[:, None] * by_position[j, lo:hi]  # position j joins the block
        e = steps[j - 1]
        f = np.exp(e)
        ratio = ((f - 1.0) * h)[:, None] * tail[:, lo:hi]
        ratio /= total[:, lo:hi]
        ratio += 1.0                                          # S_new / S of each visited stage
        change = e * layout.inside[j]
        if n_one > lo:  # (the stop of the range is never before n_one)
            change = change + _sum_log(ratio[:, :n_one - lo].copy(), bound)
        if hi > n_one:
            change = change + np.log(ratio[:, n_one - lo:]) @ size[n_one:hi]
        log_ratio = e * shape_suffix[j] - (f - 1.0) * h * block - change
        accept = log_uniforms[j - 1] < log_ratio
        accepted[j - 1] = accept
        np.multiply(total[:, lo:hi], ratio, out=total[:, lo:hi], where=accept[:, None])
        h = np.where(accept, h * f, h)
        gained[:, j] = np.where(accept, e, 0.0)
    factor = np.exp(np.cumsum(gained, axis=1))                # position p: every accepted move j <= p
    total *= factor[:, layout.first]  # a stage left the scan when its first position entered the block
    new = np.empty_like(w)
    new[:, order] = wp * factor
    return new, accepted, total


def _gibbs(remaining: np.ndarray, size: np.ndarray, counts: np.ndarray, a: float, chains: int, draws: int,
           warmup: int, rng: np.random.Generator, order: np.ndarray | None = None) -> np.ndarray:
    """Normalised weights, chains x draws x k.

    Each iteration: the latent step, the weight step, the scale step and k - 1 Metropolis moves, each
    multiplying the weights of one block of classifiers by a common factor exp(e), e ~ N(0, s_j^2), with the
    Z integrated out (the exact target :func:`_log_target`, evaluated incrementally by :func:`_block_moves`).
    Block j holds the classifiers from position j on in ``order`` (best first by mean rank), fixed before
    sampling from the data alone: the proposal is symmetric, so each move keeps the posterior. The step sizes
    s_j adapt during the warmup only (towards an acceptance rate of 0.3).

    Vectorised over chains and stages: per iteration two matrix products (the stage sums for the moves, the
    weight step's rates; the latent step reuses the sums the moves leave) and k - 1 moves of O(chains x stages)
    each. The latent variables of single-placement stages (d = 1) are exponential draws (the same distribution
    as Gamma(1), cheaper than Gamma draws with a vector of shapes)."""
    k = remaining.shape[1]
    w = np.exp(rng.normal(0.0, 2.0, size=(chains, k)))  # dispersed starts
    shape_w = a + counts
    order = np.arange(k) if order is None else np.asarray(order)
    layout = _MoveLayout(remaining, size, order)
    remaining = layout.remaining                               # stages x k, in the layout's order
    rem_t = np.ascontiguousarray(remaining.T)                  # k x stages
    multi = np.arange(layout.n_one, remaining.shape[0])        # stages with a tie group: Gamma(d) latents
    multi_shape = layout.size[layout.n_one:]
    shape_pos = shape_w[order]
    log_step = np.full(k - 1, math.log(0.5))
    out = np.empty((chains, draws, k))
    rate_z = w @ rem_t                                               # chains x stages: sum of w over R_ij
    for it in range(warmup + draws):
        z = rng.standard_exponential(size=rate_z.shape)
        if multi.size:
            z[:, layout.n_one:] = rng.standard_gamma(multi_shape, size=(chains, multi.size))
        z /= rate_z                                                  # Z_ij ~ Gamma(d_ij, rate_z)
        rate_w = 1.0 + z @ remaining                                 # chains x k
        w = rng.standard_gamma(shape_w, size=rate_w.shape) / rate_w  # w_k ~ Gamma(a + c_k, rate_w)
        pi = w / w.sum(axis=1, keepdims=True)
        w = pi * rng.standard_gamma(k * a, size=(chains, 1))         # scale ~ Gamma(k a, 1)
        # the block moves (Metropolis, Z integrated out), each block once, in turn
        steps = np.exp(log_step)[:, None] * rng.normal(size=(k - 1, chains))
        uniforms = np.log(rng.random((k - 1, chains)))
        w, accepted, rate_z = _block_moves(w, w @ rem_t, layout, shape_pos, order, steps, uniforms)
        if it < warmup:  # adapt the step sizes (warmup only)
            log_step += (accepted.mean(axis=1) - 0.3) / math.sqrt(it + 10.0)
        else:
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
        g: np.ndarray = np.zeros((1 << k, nd))  # g(S) = f(S) / w(complement of S)
        g[0] = 1.0 / rest[0]
        for sets, members, parents, size in layers:
            g[sets] = (g[parents] * w[members]).reshape(sets.size, size, nd).sum(axis=1) / rest[sets]
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
        ranks = np.empty_like(order)               # rank index (0 = first) of each classifier: invert the order
        np.put_along_axis(ranks, order, np.broadcast_to(np.arange(k), order.shape), axis=2)
        # one count over (classifier, rank) cells instead of a loop over the classifiers
        out += np.bincount((ranks + np.arange(k) * k).ravel(), minlength=k * k).reshape(k, k)
    return out / (d * per_draw)


# ---------------------------------------------------------------------------------------------
# the Bradley-Terry-Davidson model (Davidson 1970), sampled with Hamiltonian Monte Carlo


class _Davidson:
    """The log posterior of the Bradley-Terry-Davidson model and its gradient, vectorised over chains.

    Parameters x = (u_1..u_{k-1}, lambda): the log strengths theta = B u, with B an orthonormal basis of the vectors
    that sum to zero (Helmert), and lambda = log nu. The likelihood depends on theta only through its differences,
    and the prior theta_m ~ N(0, strength_sd^2) i.i.d. gives the centred theta the density of u ~ N(0, strength_sd^2
    I): sampling u gives exactly the posterior of the normalised strengths, without the flat direction (the mean of
    theta) that would slow the sampler when the prior is wide. For a pair (i, j) compared n_ij times (the data sets
    scoring both), with d = theta_i - theta_j,
        pi_i + pi_j + nu sqrt(pi_i pi_j) = exp((theta_i + theta_j) / 2) (2 cosh(d / 2) + nu),
    so the multinomial log-likelihood of the wins, ties and losses is
        sum_m c_m theta_m + T lambda - sum_{pairs} n_ij [(theta_i + theta_j) / 2 + log(2 cosh(d / 2) + nu)],
    c_m = wins of m + half its ties, T = all ties. log(2 cosh(d/2) + nu) is evaluated as |d|/2 + log(1 + e^-|d| +
    nu e^(-|d|/2)) (no overflow). Prior of lambda: N(0, tie_sd^2)."""

    def __init__(self, wins: np.ndarray, ties: np.ndarray, strength_sd: float, tie_sd: float):
        from scipy import linalg, sparse

        k = wins.shape[0]
        n = wins + wins.T + ties
        iu, ju = np.triu_indices(k, 1)
        keep = n[iu, ju] > 0
        i, j, self.n = iu[keep], ju[keep], n[iu, ju][keep].astype(float)
        m = i.size
        # pairs x k incidence: +1 at i, -1 at j (d = theta @ D.T); sparse, as k can be large
        self.d = sparse.csr_matrix((np.r_[np.ones(m), -np.ones(m)], (np.r_[np.arange(m), np.arange(m)], np.r_[i, j])),
                                   shape=(m, k))
        if m * k <= 1_000_000:  # small: a dense product has less overhead per call than a sparse one
            self.d = self.d.toarray()
        self.basis = linalg.helmert(k).T                       # k x (k - 1), orthonormal, columns sum to 0
        c = wins.sum(axis=1) + ties.sum(axis=1) / 2.0
        half = (np.bincount(i, self.n, k) + np.bincount(j, self.n, k)) / 2.0
        self.linear = (c - half) @ self.basis                  # the theta-linear part, in u
        self.t = float(np.triu(ties, 1).sum())
        self.k, self.s2, self.t2 = k, strength_sd ** 2, tie_sd ** 2

    def theta(self, u: np.ndarray) -> np.ndarray:
        return u @ self.basis.T

    def log_post_grad(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u, lam = x[:, :-1], x[:, -1]
        d = np.asarray(self.d @ self.theta(u).T).T             # chains x pairs
        a = np.abs(d)
        e1, e2 = np.exp(-a), np.exp(-a / 2.0)
        nu = np.exp(lam)[:, None]
        den = 1.0 + e1 + nu * e2
        logp = (u @ self.linear + self.t * lam - (a / 2.0 + np.log(den)) @ self.n
                - (u ** 2).sum(axis=1) / (2 * self.s2) - lam ** 2 / (2 * self.t2))
        g_pair = self.n * np.sign(d) * (1.0 - e1) / (2.0 * den)  # d/d(d) of n log(2 cosh(d/2) + nu)
        grad = np.empty_like(x)
        grad[:, :-1] = self.linear - np.asarray(self.d.T @ g_pair.T).T @ self.basis - u / self.s2
        grad[:, -1] = self.t - (nu * e2 / den) @ self.n - lam / self.t2
        return logp, grad


def _hmc(model: _Davidson, chains: int, draws: int, warmup: int, rng: np.random.Generator,
         leapfrog: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """Hamiltonian Monte Carlo (Neal 2011, "MCMC using Hamiltonian dynamics", Handbook of MCMC ch. 5) on x =
    (log strengths, log nu), all chains at once: ``leapfrog`` steps of a size drawn uniformly from [0.8, 1.2] times
    the chain's step size, then a Metropolis test on the total energy (exact for the posterior whatever the step).
    Warmup only: the step size adapts towards an acceptance probability of 0.8, and at the middle of the warmup a
    diagonal mass matrix is set from the variances of the second quarter's draws (pooled over chains); both stay
    fixed afterwards. Returns the draws (chains x draws x k: u, then lambda) and the acceptance rate after warmup."""
    dim = model.k                                             # k - 1 coordinates of theta, and lambda
    x = rng.normal(0.0, 2.0, size=(chains, dim))              # dispersed starts
    logp, grad = model.log_post_grad(x)
    inv_mass = np.ones(dim)
    log_eps = np.full(chains, math.log(0.1))
    out = np.empty((chains, draws, dim))
    kept = []
    accepted = 0.0
    for it in range(warmup + draws):
        p0 = rng.normal(size=(chains, dim)) / np.sqrt(inv_mass)
        eps = np.exp(log_eps)[:, None] * rng.uniform(0.8, 1.2, size=(chains, 1))
        xn, gn, p = x.copy(), grad.copy(), p0 + 0.5 * eps * grad
        for step in range(leapfrog):
            xn = xn + eps * inv_mass * p
            lpn, gn = model.log_post_grad(xn)
            if step < leapfrog - 1:
                p = p + eps * gn
        p = p + 0.5 * eps * gn
        log_accept = (lpn - 0.5 * (p ** 2 * inv_mass).sum(axis=1)) - (logp - 0.5 * (p0 ** 2 * inv_mass).sum(axis=1))
        log_accept = np.where(np.isfinite(log_accept), log_accept, -np.inf)
        accept = np.log(rng.random(chains)) < log_accept
        x = np.where(accept[:, None], xn, x)
        logp = np.where(accept, lpn, logp)
        grad = np.where(accept[:, None], gn, grad)
        if it < warmup:
            log_eps += (np.exp(np.minimum(log_accept, 0.0)) - 0.8) / math.sqrt(it + 10.0)
            if warmup // 4 <= it < warmup // 2:
                kept.append(x.copy())
            if it == warmup // 2 - 1 and len(kept) >= 10:
                var = np.concatenate(kept).var(axis=0)
                inv_mass = np.clip(var, 1e-6, 1e6)
                log_eps[:] = math.log(0.5 / math.sqrt(dim) ** 0.5)  # restart the step size on the new scale
        else:
            out[:, it - warmup] = x
            accepted += accept.mean()
    return out, np.array(accepted / max(draws, 1))


# ---------------------------------------------------------------------------------------------
# the public function


def _check_number(value, name: str, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float, np.floating)) \
            or not np.isfinite(value) or int(value) != value or not low <= value <= high:
        raise InputError(f"{arg(name, bare=True)} must be a whole number between {low:,} and {high:,}, got {value!r}.")
    return int(value)


def _check_real(value, name: str, low: float, high: float, what: str) -> float:
    if not (isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
            and math.isfinite(value) and low <= value <= high):
        raise InputError(f"{arg(name, bare=True)} must be a number between {low:g} and {high:,g} ({what}), got {value!r}.")
    return float(value)


def _pair_means(pi: np.ndarray, nu: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Posterior means over the draws (draws x k) of pi_i / (pi_i + pi_j) and, given nu (draws), of Davidson's tie
    probability nu sqrt(pi_i pi_j) / (pi_i + pi_j + nu sqrt(pi_i pi_j)). One row at a time: O(k^2 draws) work,
    O(k draws) memory."""
    k = pi.shape[1]
    before = np.zeros((k, k))
    tie = None if nu is None else np.zeros((k, k))
    root = None if nu is None else np.sqrt(pi)
    for i in range(k):
        pair = pi[:, [i]] + pi
        before[i] = (pi[:, [i]] / pair).mean(axis=0)
        if nu is not None and tie is not None and root is not None:  # the three are given together
            t = nu[:, None] * root[:, [i]] * root
            tie[i] = (t / (pair + t)).mean(axis=0)
    np.fill_diagonal(before, np.nan)
    if tie is not None:
        np.fill_diagonal(tie, np.nan)
    return before, tie


def _strength_ranks(pi: np.ndarray) -> np.ndarray:
    """P(classifier k has the r-th largest weight), from the draws (draws x k -> k x k)."""
    d, k = pi.shape
    out = np.zeros(k * k)
    for start in range(0, d, 4000):
        order = np.argsort(-pi[start:start + 4000], axis=1, kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.broadcast_to(np.arange(k), order.shape), axis=1)
        out += np.bincount((ranks + np.arange(k) * k).ravel(), minlength=k * k)
    return out.reshape(k, k) / d


MODELS = ("plackett-luce", "bradley-terry-davidson")
#: Default prior standard deviations of the Bradley-Terry-Davidson log strengths and log nu.
STRENGTH_SD, TIE_SD = 2.0, 2.0
MIN_SD, MAX_SD = 0.01, 1000.0


def bayesian_ranking(table, *, model: str = "plackett-luce", samples: int = 4000, seed: int | None = None,
                     prior: float | None = None, chains: int = 4, warmup: int = 1000,
                     higher_is_better: bool | None = None, strength_sd: float | None = None,
                     tie_sd: float | None = None) -> BayesianRankingResult:
    """Bayesian ranking of the classifiers: Plackett-Luce (default; Calvo, Ceberio & Lozano 2018; Plackett 1975;
    Luce 1959), sampled with the exact latent-variable Gibbs sampler of Caron & Doucet (2012) plus Metropolis
    moves of blocks of weights, or Bradley-Terry with Davidson's (1970) ties, sampled with Hamiltonian Monte Carlo
    (module docstring).

    **Plackett-Luce**: each data set's order of the classifiers (best first, by the table's direction) is a
    Plackett-Luce ranking with weights w; the normalised weights have a Dirichlet(``prior``) prior. Missing cells
    are partial rankings (the classifier is left out of that data set); ties follow Breslow's rule (the tied
    classifiers share one stage's remaining set, no random tie-break).

    **Bradley-Terry-Davidson** (``model="bradley-terry-davidson"``): every pair of classifiers scored on a data set
    is one comparison with three outcomes, P(i beats j) = pi_i / (pi_i + pi_j + nu sqrt(pi_i pi_j)), P(tie) =
    nu sqrt(pi_i pi_j) / (same), P(j beats i) likewise (Davidson 1970, JASA 65, eq. 2.1); the win, tie and loss
    counts over all data sets are multinomial given the strengths (the comparisons taken as independent). Priors:
    log pi_m ~ N(0, ``strength_sd``^2) independently (default 2), log nu ~ N(0, ``tie_sd``^2) (default 2). A missing
    cell removes that data set's comparisons of that classifier; ties are Davidson's third outcome (no tie-break).
    There p_best is P(a classifier has the largest strength), the rank probabilities are those of the strengths'
    ranks, ``p_before`` is E[pi_i / (pi_i + pi_j)] (P(i beats j) given a decisive comparison), ``p_tie`` the posterior
    mean tie probability and ``tie_parameter`` the posterior mean of nu (``tie_interval``: its central 95 % interval).

    Parameters
    ----------
    table : ScoreTable (or a DataFrame with ``higher_is_better``)
    model : "plackett-luce" or "bradley-terry-davidson"
    samples : int
        Posterior draws kept in all, split evenly over the chains (rounded up to a multiple of ``chains``).
    seed : int or None
        The same seed gives exactly the same result (whatever the order of rows and columns).
    prior : float
        Plackett-Luce only: the Dirichlet concentration of the normalised weights (1, the default: uniform on the
        simplex), from 0.1 to 10^6.
    chains : int
        Independent chains from dispersed starts (R-hat and ESS need at least two).
    warmup : int
        Iterations discarded at the start of each chain.
    strength_sd, tie_sd : float
        Bradley-Terry-Davidson only: the prior standard deviations of the log strengths and of log nu (0.01 to
        1,000; large values approach flat priors on the log scale).

    Returns
    -------
    BayesianRankingResult
        ``p_best``, ``p_largest_weight`` (P(k has the largest weight)), ``expected_rank``, ``rank_probabilities``
        (classifiers x ranks 1..k), ``p_before`` (P(row ranked before column)), ``weights`` (the normalised draws,
        chain by chain), ``rhat``/``ess`` per classifier (of log w_k / sum(w)), their extremes, the model and
        its settings; for Bradley-Terry-Davidson also ``p_tie``, ``tie_parameter`` and ``tie_interval``.
    """
    seed = check_seed(seed)
    t: ScoreTable = as_table(table, higher_is_better)
    if model not in MODELS:
        raise InputError(f"{arg('model', bare=True)} must be one of {', '.join(repr(m) for m in MODELS)}, "
                         f"got {model!r}.")
    btd = model == "bradley-terry-davidson"
    if btd:
        if prior is not None:
            raise InputError(f"{arg('prior', bare=True)} is the Plackett-Luce Dirichlet concentration; the "
                             f"Bradley-Terry-Davidson model takes {arg('strength_sd', bare=True)} and "
                             f"{arg('tie_sd', bare=True)}.")
        strength_sd = _check_real(STRENGTH_SD if strength_sd is None else strength_sd, "strength_sd", MIN_SD, MAX_SD,
                                  "the prior standard deviation of the log strengths")
        tie_sd = _check_real(TIE_SD if tie_sd is None else tie_sd, "tie_sd", MIN_SD, MAX_SD,
                             "the prior standard deviation of log nu")
    else:
        if strength_sd is not None or tie_sd is not None:
            raise InputError(f"{arg('strength_sd', bare=True)} and {arg('tie_sd', bare=True)} belong to the "
                             f"Bradley-Terry-Davidson model; Plackett-Luce takes {arg('prior', bare=True)}.")
        prior = _check_real(1.0 if prior is None else prior, "prior", MIN_PRIOR, MAX_PRIOR,
                            "the Dirichlet concentration; 1 is uniform on the simplex")
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
    used = int((np.sum(~np.isnan(oriented), axis=1) >= 2).sum())
    notes = []
    skipped = t.n_datasets - used
    if skipped:
        notes.append(f"{skipped} data set{'s' if skipped > 1 else ''} with fewer than two scored classifiers "
                     f"contribute{'s' if skipped == 1 else ''} nothing to the ranking.")
    if used == 0:
        raise InputError("No data set scores two or more classifiers: there is no ranking to learn from.")
    rng_sampler, rng_ranks = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    names = t.classifiers
    cnames = [names[c] for c in cols]
    tie_parameter = tie_interval = p_tie = None
    extra_chain = None  # log nu's draws (Bradley-Terry-Davidson), for the diagnostics

    if btd:
        wins, ties, _ = win_tie_loss(oriented, higher_is_better=True)
        np.fill_diagonal(ties, 0)
        n_pairs = int(np.count_nonzero(np.triu(wins + wins.T + ties, 1)))
        work = (warmup + draws) * chains * BTD_LEAPFROG * max(n_pairs, k)
        if work > MAX_RANKING_WORK:
            raise InputError(f"This ranking is {work:,} units of work (iterations x chains x leapfrog steps x pairs), "
                             f"above the limit of {MAX_RANKING_WORK:,}; use fewer samples, chains or warmup iterations.")
        if t.has_missing:
            notes.append("Missing cells: a classifier without a score on a data set takes part in none of that data "
                         "set's comparisons.")
        if ties.any():
            notes.append("Ties: Davidson's third outcome, with its own parameter nu.")
        assert strength_sd is not None and tie_sd is not None  # checked for this model above
        davidson = _Davidson(wins, ties, strength_sd, tie_sd)
        x, acceptance = _hmc(davidson, chains, draws, warmup, rng_sampler, BTD_LEAPFROG)
        theta = davidson.theta(x[:, :, :-1])
        theta = theta - theta.max(axis=2, keepdims=True)
        pi_c = np.exp(theta)
        pi_c /= pi_c.sum(axis=2, keepdims=True)
        nu = np.exp(x[:, :, -1]).ravel()
        extra_chain = x[:, :, -1]
        pi = pi_c.reshape(-1, k)
        before, tie = _pair_means(pi, nu)
        rp = _strength_ranks(pi)
        p_best_values = rp[:, 0]
        largest = rp[:, 0]
        expected = rp @ np.arange(1, k + 1)
        method = "posterior ranks of the strengths (from the draws)"
        tie_parameter = float(nu.mean())
        tie_interval = (float(np.quantile(nu, 0.025)), float(np.quantile(nu, 0.975)))
        p_tie = pd.DataFrame(tie, index=cnames, columns=cnames).loc[names, names]
        if acceptance < 0.4:
            notes.append(f"The Hamiltonian sampler accepted {acceptance:.0%} of its moves after warmup (low); "
                         "more warmup iterations may help.")
        rule = "davidson"
    else:
        remaining, size, counts, _ = _stages(oriented)
        # stages with the same remaining set share one latent Z: Gamma(sum of d_ij, rate)
        remaining, inverse = np.unique(remaining, axis=0, return_inverse=True)
        size = np.bincount(inverse.ravel(), weights=size, minlength=remaining.shape[0])
        work = (warmup + draws) * chains * remaining.shape[0] * k
        if work > MAX_RANKING_WORK:
            raise InputError(f"This ranking is {work:,} units of work (iterations x chains x stages x classifiers), "
                             f"above the limit of {MAX_RANKING_WORK:,}; use fewer samples, chains or warmup "
                             f"iterations.")
        if t.has_missing:
            notes.append("Missing cells: each classifier without a score on a data set is left out of that data "
                         "set's ranking (a partial ranking).")
        if np.any(size > 1):
            notes.append("Ties: tied classifiers share one stage (Breslow's rule), which counts a tie as evidence "
                         "that they are alike.")
        # the sampler's blocks: the classifiers best first by mean rank (ties: by name), from the data alone
        mean_ranks = t.ranks.mean().to_numpy(dtype=float)[cols]
        order = np.argsort(mean_ranks, kind="stable")
        assert prior is not None  # checked for this model above
        pi_c = _gibbs(remaining, size, counts, prior, chains, draws, warmup, rng_sampler, order)  # canonical order
        pi = pi_c.reshape(-1, k)
        p_best_values = pi.mean(axis=0)
        largest = np.bincount(np.argmax(pi, axis=1), minlength=k) / pi.shape[0]
        before, _ = _pair_means(pi)
        expected = 1.0 + np.nansum(before, axis=0)
        if k <= EXACT_RANKS_MAX_K:
            rp = _rank_probabilities_exact(pi)
            method = "exact per draw (dynamic programme over subsets)"
        else:
            per_draw = max(1, 200_000 // pi.shape[0])
            rp = _rank_probabilities_sampled(pi, rng_ranks, per_draw)
            method = f"Monte Carlo: {per_draw} Plackett-Luce rankings per draw (Gumbel trick)"
        rule = TIES_RULE

    # every summary is computed in the canonical order and then put in the table's order
    p_best = pd.Series(p_best_values, index=cnames, name="p_best")
    p_largest = pd.Series(largest, index=cnames, name="p_largest_weight")
    expected_rank = pd.Series(expected, index=cnames, name="expected_rank")
    p_before = pd.DataFrame(before, index=cnames, columns=cnames).loc[names, names]
    rank_probabilities = pd.DataFrame(rp, index=cnames, columns=pd.RangeIndex(1, k + 1, name="rank")).loc[names]

    logs = np.log(pi_c)
    if chains * draws >= 8 and draws >= 4:
        rhat = np.array([_rhat(logs[:, :, j]) for j in range(k)])
        ess = np.array([_ess(logs[:, :, j]) for j in range(k)])
        extra = [] if extra_chain is None else [(_rhat(extra_chain), _ess(extra_chain))]
    else:
        rhat = ess = np.full(k, np.nan)
        extra = []
    all_rhat = np.concatenate([rhat, [r for r, _ in extra]])
    all_ess = np.concatenate([ess, [e for _, e in extra]])
    max_rhat = float(np.nanmax(all_rhat)) if np.isfinite(all_rhat).any() else float("nan")
    min_ess = float(np.nanmin(all_ess)) if np.isfinite(all_ess).any() else float("nan")
    if chains < 2:
        notes.append("One chain: R-hat compares its two halves only.")
    if max_rhat > RHAT_LIMIT:
        label = "Plackett-Luce" if not btd else "Bradley-Terry-Davidson"
        message = (f"The {label} sampler may not have converged: the largest R-hat is {max_rhat:.3f} "
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
        prior=prior, ties=rule, rank_method=method, n_datasets=t.n_datasets, n_datasets_used=used,
        higher_is_better=t.higher_is_better, model=model, strength_sd=strength_sd, tie_sd=tie_sd,
        tie_parameter=tie_parameter, tie_interval=tie_interval, p_tie=p_tie)
