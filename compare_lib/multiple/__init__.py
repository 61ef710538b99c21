"""Multiple comparison procedures: family-wise corrections, adjusted p-values, exhaustive sets of hypotheses.

Layer 4: imports ``stats`` and the layers below it.
"""
