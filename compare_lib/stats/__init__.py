"""The statistical kernels: two-classifier and rank tests, omnibus tests, exact distributions, critical
values, effect sizes, Skillings-Mack, resampled (fold-level) tests and the Bayesian tests and models.

Layer 3: imports ``core``, ``io`` and the base modules (``errors``, ``limits``, ``ranks``) only.
"""
