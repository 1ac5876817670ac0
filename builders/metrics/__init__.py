"""The papers' metrics: ContraPro, CoMMuTE family, image awareness, and their statistics."""
