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
    from builders.scoring.tiny import make_tiny_image_model, make_tiny_model

    root = tmp_path_factory.mktemp("models")
    text = make_tiny_model(root / "text", "marian")
    feature_dim = int(np.load(SAMPLE / "sample.features.npy").shape[1])
    image = make_tiny_image_model(text, root / "image", feature_dim=feature_dim)
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
    invoke("evaluate", shuffles_set, *scores, "--system", system, "--out", run)  # kind from info.json: awareness
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


def test_shuffle_features_are_the_congruent_ones_moved_to_each_distractor(shuffles_set: Path) -> None:
    """What the scorer feeds shuffle i equals the build's extras/<stem>-random<i>.npy."""
    from builders.scoring.built_layouts import built_set, shuffles_conditions

    built = built_set(shuffles_set)
    assert built is not None
    conditions = shuffles_conditions(built, None, with_images=True)
    stem = Path(built.info["config"]["features"]).name.removesuffix(".npy")
    for condition in conditions[1:]:
        extras = np.load(shuffles_set / "extras" / f"{stem}-{condition.name}.npy")
        np.testing.assert_array_equal(np.stack([e.image for e in condition.examples]), extras)


def test_a_set_built_without_features_is_scored_with_features_given_later(
    models: dict[str, Path], tmp_path: Path
) -> None:
    """Multi30K ships no features: build text-only, compute features afterwards, score every condition with them.
    Before, the shuffles read extras/<stem>-random<i>.npy, which such a set does not have."""
    config = {**load_config_file(SAMPLE / "demo.yaml"), "shuffles": SHUFFLES, "mixup_shuffles": 0, "features": ""}
    text_only_set = ShufflesBuilder(ShufflesConfig.from_mapping(config)).build(tmp_path / "set", quiet=True)
    assert not list((text_only_set / "extras").glob("*.npy"))
    run = tmp_path / "run"
    invoke("score", text_only_set, "--model", models["image"], "--out", run, "--name", "image",
           "--image-features", SAMPLE / "sample.features.npy")
    congruent = np.loadtxt(run / "image" / "congruent.scores")
    assert congruent.size == 40 and not np.array_equal(congruent, np.loadtxt(run / "image" / "random1.scores"))


# --- commute_ext.v1: extended-image perplexities for the image oracle ---------------------------------------------


@pytest.fixture(scope="module")
def commute_ext_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("open_clip", "faiss"):
        pytest.importorskip(module, reason="commute_ext.v1 retrieves with open_clip and faiss")
    from builders.validation.retrieval import FOLDER, build_retrieval_set, write_world
    from builders.validation.train import models_root

    root = tmp_path_factory.mktemp("ext")
    world = write_world(root / "world", pairs=4)
    return build_retrieval_set(world, root / "sets", models_root() / FOLDER, "image-world")


def test_image_features_for_a_commute_folder_and_its_mixup(commute_ext_set: Path, tmp_path: Path) -> None:
    folder = commute_ext_set.parents[3] / "world" / "commute" / "en-de"
    invoke("image-features", folder, "--out", tmp_path / "f.npy")
    invoke("image-features", folder, "--mixup", "--out", tmp_path / "m.npy")
    own, mixed = np.load(tmp_path / "f.npy"), np.load(tmp_path / "m.npy")
    assert own.shape == mixed.shape == (8, own.shape[1])
    assert np.array_equal(mixed[0::2], mixed[1::2])  # one blend per source, on both of its lines
    assert not np.allclose(mixed[0], own[0]) and not np.allclose(mixed[0], own[1])


def test_score_commute_ext_set_then_oracle(commute_ext_set: Path, models: dict[str, Path], tmp_path: Path) -> None:
    from builders.validation.train import models_root

    run = tmp_path / "run"
    invoke("image-features", commute_ext_set, "--out", run / "ext.npy")
    per_source = 2 * (1 + 4)  # two translations, the original and 4 retrieved images each
    assert np.load(run / "ext.npy").shape[0] == 4 * per_source
    invoke("score", commute_ext_set, "--model", models_root() / "images-text-only", "--out", run, "--name", "text")
    rows = [json.loads(line) for line in (run / "text.extended.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4 and all(np.shape(r["ppl_a"]) == (2, 5) == np.shape(r["ppl_b"]) for r in rows)
    # a text-only model gives one perplexity per translation whatever the image: every IC is a tie, so 0
    assert all(len(set(r["ppl_a"][t] + r["ppl_b"][t])) == 1 for r in rows for t in (0, 1))
    slot0 = commute_ext_set / "commute" / "slot0"
    args = ["-s", run / "text.correct.txt", "-s", run / "text.incorrect.txt", "--extended", run / "text.extended.jsonl"]
    invoke("evaluate", slot0, *args, "--system", "text", "--out", run)
    result = json.loads((run / "metrics-commute-text.json").read_text(encoding="utf-8"))
    assert result["TC"] == 0.5 and result["oracle"]["max"]["GIC"] == 0.0 == result["oracle"]["max"]["IC"]
    assert result["oracle"]["max"]["RR"] == 0.0  # all pairs tie on GIC and Eq. 10: the originals (lowest index)
    root = CliRunner().invoke(app, ["evaluate", str(commute_ext_set), *map(str, args)])
    assert "evaluate its CoMMuTE folder" in str(root.exception) and "slot0" in str(root.exception)
    short = run / "short.jsonl"
    short.write_text("".join(json.dumps(r) + "\n" for r in rows[:3]), encoding="utf-8")
    bad = CliRunner().invoke(app, ["evaluate", str(slot0), *map(str, args[:4]), "--extended", str(short)])
    assert "short.jsonl: extended perplexities file has 3 lines but the set has 4 sources" in str(bad.exception)


def _references(shuffles_set: Path) -> list[str]:
    path = next((shuffles_set / "jsonl" / "congruent").glob("*.jsonl"))
    return [json.loads(line)["ref"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_translations_to_meteor_style_awareness_eq_4(shuffles_set: Path, tmp_path: Path) -> None:
    """Δ_E (Elliott 2018, Eq. 4): translations per condition -> per-segment text scores -> awareness, no
    hand-made score files. length_ratio is checked by hand (100 * |hyp| / |ref| words); METEOR needs WordNet."""
    references = _references(shuffles_set)
    hyps = {"congruent": references, "random1": [" ".join(r.split()[:-1]) for r in references],
            "random2": [" ".join(r.split()[:-2]) for r in references]}
    files = []
    for name, lines in hyps.items():
        files.append(tmp_path / f"{name}.hyp")
        files[-1].write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    out = tmp_path / "lr"
    invoke("sentence-scores", shuffles_set, *(a for f in files for a in ("--hyp", f)), "--metric", "length_ratio",
           "--out", out)
    ratio = [float(v) for v in (out / "random1.scores").read_text(encoding="utf-8").split()]
    assert ratio == pytest.approx([round(100 * (len(r.split()) - 1) / len(r.split()), 6) for r in references])
    assert set((out / "congruent.scores").read_text(encoding="utf-8").split()) == {"100.000000"}
    invoke("evaluate", shuffles_set, *(a for n in hyps for a in ("-s", out / f"{n}.scores")), "--system", "lr",
           "--out", tmp_path)
    result = json.loads((tmp_path / "metrics-awareness-lr.json").read_text(encoding="utf-8"))
    assert result["shuffles"]["random1"]["delta_awareness"] == pytest.approx(
        float(np.mean([100 - r for r in ratio])), abs=1e-5)
    assert result["aware"] is True


def test_sentence_scores_need_one_translation_per_segment(shuffles_set: Path, tmp_path: Path) -> None:
    short = tmp_path / "congruent.hyp"
    short.write_text("ein Hund\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["sentence-scores", str(shuffles_set), "--hyp", str(short), "--metric", "bleu",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "congruent.hyp: translations file has 1 lines but the set has 40 segments" in str(result.exception)


def test_meteor_sentence_scores(shuffles_set: Path, tmp_path: Path) -> None:
    from builders.core.errors import MtprobesError
    from builders.variations.volatility import metric_functions

    try:
        metric_functions(["meteor"])
    except MtprobesError as err:  # no WordNet: the hint is the skip reason
        pytest.skip(str(err))
    references = _references(shuffles_set)
    hyp = tmp_path / "congruent.hyp"
    hyp.write_text("".join(f"{r}\n" for r in references), encoding="utf-8")
    invoke("sentence-scores", shuffles_set, "--hyp", hyp, "--out", tmp_path)
    values = [float(v) for v in (tmp_path / "congruent.scores").read_text(encoding="utf-8").split()]
    assert len(values) == 40 and min(values) > 90  # identical to the reference: METEOR near 100


def test_temperature_grid_on_a_built_set_points_to_a_commute_folder(
    shuffles_set: Path, models: dict[str, Path], tmp_path: Path
) -> None:
    result = CliRunner().invoke(app, ["score", str(shuffles_set), "--model", str(models["text"]), "--temperatures",
                                      "0.5,2", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "--temperatures: score a CoMMuTE folder" in str(result.exception)
