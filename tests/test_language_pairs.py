"""The language pairs that are pure configuration today, built from the real shared text.

commute_ext.v1 for EN-FR reads the real CoMMuTE en-fr text; the CoMMuTE images are distributed separately by their
authors (not in ../shared), so each image named in img.order is drawn here as a small stand-in PNG. The retrieval
choices are then not meaningful, but the layout, the French slot files and the card are what a user gets.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from builders.commute_ext.builder import CommuteExtBuilder
from builders.commute_ext.commute import caption_template, read_commute
from builders.commute_ext.config import CommuteExtConfig
from builders.core.validate import validate_dataset

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext"


def stand_in_images(names: list[str], folder: Path) -> None:
    """One distinct 64x64 colour image per name, its colour derived from the name (deterministic)."""
    folder.mkdir(parents=True)
    for name in sorted(set(names)):
        red, green, blue = hashlib.sha256(name.encode()).digest()[:3]
        Image.new("RGB", (64, 64), (red, green, blue)).save(folder / name)


def noise_collection(folder: Path, count: int) -> None:
    """A retrieval collection of seeded random-noise images: distinct enough for the tiny CLIP's dedup."""
    folder.mkdir(parents=True)
    rng = np.random.default_rng(7)
    for index in range(count):
        pixels = rng.integers(0, 256, size=(64, 64, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(folder / f"noise_{index:04d}.png")


@pytest.mark.shared
@pytest.mark.slow
def test_commute_ext_en_fr_from_real_commute_text(shared_data: Path, tmp_path: Path) -> None:
    commute = shared_data / "commute" / "en-fr"
    lines = read_commute(commute, "fr")
    stand_in_images([line.image for line in lines], tmp_path / "images")
    noise_collection(tmp_path / "collection", 300)
    captions = tmp_path / "captions.tsv"
    # each line's caption is its own French translation, so the two senses of a source retrieve apart
    template = caption_template(lines).splitlines()
    filled = [template[0]] + [f"{row}{line.correct}" for row, line in zip(template[1:], lines, strict=True)]
    captions.write_text("\n".join(filled) + "\n", encoding="utf-8")
    demo = yaml.safe_load((SAMPLE / "demo.yaml").read_text())
    config = CommuteExtConfig.from_sources(
        SAMPLE / "demo.yaml",
        [f"data_dir={commute}", "tgt_lang=fr", f"image_dir={tmp_path / 'images'}", f"captions={captions}",
         "name=commute-en-fr", f"collection=[{tmp_path / 'collection'}]"],
    )
    assert config.model == demo["model"]  # the bundled tiny CLIP, no download
    out = CommuteExtBuilder(config).build(tmp_path / "out", quiet=True)

    validate_dataset(out)  # raises ValidationFailed listing every problem
    records = [json.loads(line) for line in (out / "jsonl" / "test.jsonl").read_text().splitlines()]
    counts = json.loads((out / "info.json").read_text())["counts"]
    # every ambiguous English source of CoMMuTE en-fr is kept or counted (the untrained CLIP finds too few
    # distinct candidates for some)
    assert len(records) + sum(counts["dropped"].values()) == 154
    assert len(records) > 100
    assert {r["lang"] for r in records} == {"fr"}
    header = yaml.safe_load((out / "README.md").read_text().split("---")[1])
    assert header["language"] == ["en", "fr"]
    slot = out / "commute" / "slot1"
    french = (slot / "correct.fr").read_text(encoding="utf-8").splitlines()
    source = (commute / "correct.fr").read_text(encoding="utf-8").splitlines()
    assert set(french) <= set(source)  # the French translations are CoMMuTE's own
    assert len(french) == len((slot / "img.order").read_text().splitlines())
