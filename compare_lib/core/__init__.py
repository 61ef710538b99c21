"""The data the library works on: the score table, its validation, provenance and the result objects.

Layer 1 (above ``errors``, ``limits``, ``ranks``): imports nothing else from compare_lib.
"""
