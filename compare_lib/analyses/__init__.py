"""Analyses built from tests and procedures: post-hoc comparisons, pool sensitivity, replicability, rank
sets, letters, planning, the family-wise demonstration, metrics, experiments and item-level comparisons.

Layer 5: imports ``multiple``, ``stats`` and the layers below them.
"""
