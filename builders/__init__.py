"""mtprobes: build, validate and publish evaluation sets for (multimodal) machine translation.

Nothing heavy is imported here: builders, models and pipelines load only when used.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
