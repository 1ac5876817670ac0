"""Retrieval claim: the bundled tiny CLIP finds the right concept through the real commute_ext.v1 build, and a
random-init CLIP of the same config, through the same pipeline, does not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.commute_ext.embed import ClipEncoder, ModelSpec
from builders.validation.clip_train import CHECKPOINT, CLIP_NAME, FOLDER
from builders.validation.image_world import load_senses, sense_of_image
from builders.validation.retrieval import (
    CAPTION,
    PRECISION_THRESHOLD,
    TOP_K,
    RetrievalClaim,
    retrieval_table,
    validate_retrieval,
)
from builders.validation.train import models_root

for _module in ("open_clip", "faiss"):
    pytest.importorskip(_module, reason="the retrieval claim runs commute_ext.v1, which needs open_clip and faiss")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("retrieval")


@pytest.fixture(scope="module")
def trained(work: Path) -> RetrievalClaim:
    return validate_retrieval(work)


def test_bundled_clip_passes(trained: RetrievalClaim) -> None:
    assert trained.passed, trained.reasons
    assert trained.precision_at_5 >= PRECISION_THRESHOLD
    assert trained.counts["translations"] == 64 and trained.counts["sources_dropped"] == 0
    assert trained.counts["collection_images"] == 16 * 30
    assert set(trained.by_sense) == {s.key for s in load_senses()}
    assert trained.model.startswith(f"{CLIP_NAME}/file:")
    table = retrieval_table(trained)
    assert "Claim (precision@5 >= 0.8): PASS" in table and f"**{trained.precision_at_5:.3f}**" in table


def test_precision_matches_brute_force_ranking(trained: RetrievalClaim, work: Path) -> None:
    """The figures read from the built set equal a plain numpy ranking of the collection with the same model."""
    folder = models_root() / FOLDER
    clip = ClipEncoder(ModelSpec(CLIP_NAME, str(folder / CHECKPOINT), str(folder), 0, "cpu", "fp32"))
    from PIL import Image

    files = sorted((work / "world" / "image-retrieval" / "collection").glob("*.png"))
    images = clip.encode_images([Image.open(path).convert("RGB") for path in files])
    truth = np.asarray([sense_of_image(path.name) for path in files])
    for sense in load_senses():
        scores = images @ clip.encode_texts([CAPTION.format(cue=sense.cue)])[0]
        top = np.argsort(-scores, kind="stable")[:TOP_K]
        expected = float((truth[top] == sense.key).mean())
        assert trained.by_sense[sense.key]["precision_at_5"] == pytest.approx(expected), sense.key


def test_random_init_control_fails(work: Path) -> None:
    control = validate_retrieval(work, control_init_seed=1)
    assert not control.passed
    assert control.model.startswith(f"{CLIP_NAME}/random-init(seed=1")
    assert control.precision_at_5 < 0.3  # chance is 1/16; the trained model needs >= 0.8
    assert any("precision@5" in reason for reason in control.reasons)
    assert "FAIL" in retrieval_table(control)
