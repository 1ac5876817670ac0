"""`mtprobes score` on sets mtprobes built: a shuffles.v1 set -> awareness score files -> `evaluate`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from builders.cli import app
from builders.core.config import load_config_file
from builders.core.resources import resources_root
from builders.shuffles.builder import ShufflesBuilder
from builders.shuffles.config import ShufflesConfig

SAMPLE = resources_root() / "samples" / "shuffles"
SHUFFLES = 2


@pytest.fixture(scope="module")
def shuffles_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = {**load_config_file(SAMPLE / "demo.yaml"), "shuffles": SHUFFLES, "mixup_shuffles": 0}
    return ShufflesBuilder(ShufflesConfig.from_mapping(config)).build(
        tmp_path_factory.mktemp("set"), overwrite=True, quiet=True
    )


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from transformers import AutoModelForSeq2SeqLM

    from builders.scoring.image import feature_prefix_model
    from builders.scoring.tiny import make_tiny_model

    root = tmp_path_factory.mktemp("models")
    text = make_tiny_model(root / "text", "marian")
    image = root / "image"
    feature_dim = int(np.load(SAMPLE / "sample.features.npy").shape[1])
    feature_prefix_model(AutoModelForSeq2SeqLM.from_pretrained(text), feature_dim=feature_dim, seed=2).save(image)
    for tokenizer_file in text.glob("*"):
        if not (image / tokenizer_file.name).exists():
            (image / tokenizer_file.name).write_bytes(tokenizer_file.read_bytes())
    return {"text": text, "image": image}


def invoke(*args: str | Path) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def condition_files(folder: Path) -> list[str]:
    return [str(folder / f"{name}.scores") for name in ["congruent", *(f"random{i}" for i in range(1, SHUFFLES + 1))]]


@pytest.mark.parametrize("system", ["text", "image"])
def test_score_shuffles_set_then_evaluate_awareness(
    shuffles_set: Path, models: dict[str, Path], tmp_path: Path, system: str
) -> None:
    run = tmp_path / "run"
    invoke("score", shuffles_set, "--model", models[system], "--out", run, "--name", system)
    files = condition_files(run / system)
    for path in files:
        assert len(Path(path).read_text(encoding="utf-8").splitlines()) == 40
    info = json.loads((run / f"{system}.score_info.json").read_text(encoding="utf-8"))
    assert info["layout"] == "shuffles.v1" and info["examples"] == 40 * (SHUFFLES + 1)
    scores = [a for path in files for a in ("--scores", path)]
    invoke("evaluate", shuffles_set, "--kind", "awareness", *scores, "--system", system, "--out", run)
    result = json.loads((run / f"metrics-awareness-{system}.json").read_text(encoding="utf-8"))
    assert set(result["shuffles"]) == {"random1", "random2"}
    if system == "text":  # a text-only model cannot tell the images apart: every Δ is exactly 0
        assert result["delta_awareness_mean"] == 0.0 and result["fisher_p"] == 1.0
    else:
        assert result["delta_awareness_mean"] != 0.0


def test_score_files_of_another_set_are_refused(shuffles_set: Path, tmp_path: Path) -> None:
    wrong = [tmp_path / "congruent.scores", tmp_path / "random1.scores"]
    for path in wrong:
        path.write_text("0.5\n" * 100, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["evaluate", str(shuffles_set), "--kind", "awareness", "-s", str(wrong[0]), "-s", str(wrong[1])]
    )
    assert result.exit_code != 0
    assert "congruent.scores: congruent scores file has 100 lines but the set needs 40" in str(result.exception)


def test_image_model_needs_the_sets_features(shuffles_set: Path, models: dict[str, Path], tmp_path: Path) -> None:
    bad = tmp_path / "short.npy"
    np.save(bad, np.zeros((3, 64), dtype=np.float32))
    result = CliRunner().invoke(
        app,
        ["score", str(shuffles_set), "--model", str(models["image"]), "--out", str(tmp_path), "--image-features",
         str(bad)],
    )
    assert result.exit_code != 0 and "short.npy: expected 40 feature rows" in str(result.exception)
