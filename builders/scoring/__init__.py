"""Scoring: turn a built set and a model into per-token log-probabilities (and translations).

Nothing heavy is imported here; torch and transformers load inside the adapters.
"""
