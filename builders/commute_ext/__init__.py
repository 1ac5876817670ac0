"""commute_ext.v1: CoMMuTE extended with CLIP + FAISS retrieved images per translation."""
