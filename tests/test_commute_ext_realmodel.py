"""commute_ext with real CLIP weights: runs only where the paper's model is already in the local cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from builders.commute_ext.builder import CommuteExtBuilder
from builders.commute_ext.config import CommuteExtConfig

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext"
CONCEPT_OF_LINE = {1: "coins", 2: "river", 3: "flying_bat", 4: "club", 5: "seal_animal", 6: "wax_seal"}


def cached_weights(model: str, tag: str) -> str | None:
    """Local path of open_clip weights for (model, tag), or None; never downloads."""
    import open_clip
    from huggingface_hub import try_to_load_from_cache

    config = open_clip.get_pretrained_cfg(model, tag)
    repo = (config or {}).get("hf_hub", "").strip("/")
    for filename in ("open_clip_model.safetensors", "open_clip_pytorch_model.bin"):
        found = try_to_load_from_cache(repo, filename) if repo else None
        if isinstance(found, str):
            return found
    return None


def test_paper_model_retrieves_matching_drawings(tmp_path: Path) -> None:
    model, tag = os.environ.get("COMMUTE_EXT_MODEL", "ViT-B-32"), os.environ.get("COMMUTE_EXT_TAG", "laion2b_s34b_b79k")
    weights = cached_weights(model, tag)
    if weights is None:
        pytest.skip(f"open_clip weights {model}/{tag} are not in the local Hugging Face cache (nothing is downloaded)")
    config = CommuteExtConfig.from_sources(
        SAMPLE / "demo.yaml",
        [f"model={model}", f"pretrained={weights}", "model_config_dir=", "near_duplicate_cosine=0.999"],
    )
    out = CommuteExtBuilder(config).build(tmp_path, overwrite=True, quiet=True)
    lines = [json.loads(line) for line in (out / "jsonl" / "test.jsonl").read_text().splitlines()]
    top_matches = [
        t["candidates"][0]["path"].startswith(CONCEPT_OF_LINE[t["line"]] + "/")
        for record in lines for t in record["translations"]
    ]
    # a real CLIP model should put a drawing of the captioned concept first for most captions
    assert sum(top_matches) >= 4, top_matches
