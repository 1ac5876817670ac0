"""Image-world validation: Elliott's awareness test on shuffles.v1 sets and the CoMMuTE metrics, on the bundled
text-only and image-aware models.

Claims:

- Awareness: the test world (seed 7) in the Multi30K layout with its CLIP image features goes through the real
  shuffles.v1 builder (k random shuffles, permuted features in ``extras/``). Each model scores the reference under
  the congruent and every shuffle's features; the image-aware model passes (Fisher p <= 0.005), the text-only
  model fails with a segment delta of exactly 0 everywhere.
- CoMMuTE: ambiguous pairs (seed 7) written in the CoMMuTE layout and read by the scorer's ``commute`` layout;
  text-only TC = 0.5 and GTC = 0 (each source's two lines get the same scores, so exactly one of them ranks
  right; exact ties would break this and are reported), image-aware IC > 0.8.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.errors import MtprobesError
from builders.validation.image_models import (
    clip_encoder,
    default_clip_folder,
    load_image_model_scorer,
    scene_features,
    training_record,
)
from builders.validation.train import models_root

TEST_SEED = 7  # the models are trained on seed 1
AWARENESS_SCENES = 400
SHUFFLES = 5
COMMUTE_PAIRS = 200  # 400 CoMMuTE lines
IC_THRESHOLD = 0.8
TEXT_MODEL = "images-text-only"
IMAGE_MODEL = "images-image-aware"
ROLES = (("text", "text-only"), ("image", "image-aware"))  # claim role -> label in tables


@dataclass(frozen=True)
class AwarenessClaim:
    models: dict[str, str]  # role (text / image) -> model folder name
    results: dict[str, dict[str, Any]]  # role -> awareness_test result (without the per-segment deltas)
    zero_deltas: dict[str, int]  # role -> segment x shuffle deltas that are exactly 0
    segments: int
    passed: bool
    reasons: list[str]


@dataclass(frozen=True)
class CommuteClaim:
    models: dict[str, str]
    scores: dict[str, dict[str, float]]  # role -> TC / IC / GTC / GIC / sources
    ties: dict[str, int]  # role -> lines whose correct and incorrect perplexities are equal
    passed: bool
    reasons: list[str]


def _model_folders(models: Path | None, text_model: str, image_model: str) -> dict[str, Path]:
    root = models or models_root()
    folders = {"text": root / text_model, "image": root / image_model}
    for folder in folders.values():
        if not (folder / "config.json").is_file():
            raise MtprobesError(
                f"bundled model {folder} missing: run `python -m builders.validation.train images`"
            )
    return folders


def _features_encoder(folders: dict[str, Path], models: Path | None, clip: Path | None) -> Any:
    """The CLIP the image model was trained with (checked by identity: other features would be meaningless)."""
    encoder = clip_encoder(clip or default_clip_folder(models))
    for folder in folders.values():
        trained_with = training_record(folder).get("clip_identity")
        if trained_with is not None and trained_with != encoder.identity:
            raise MtprobesError(
                f"{folder} was trained on features of CLIP {trained_with}, but {encoder.identity} is loaded"
            )
    return encoder


def _scores(scorer: Any, examples: Sequence[Any], reduce: str) -> np.ndarray:
    return np.asarray([s.reduce(reduce) for s in scorer.score(examples)], dtype=np.float64)


# --- awareness ------------------------------------------------------------------------------------------------
def build_awareness_set(
    work: Path, encoder: Any, scenes: int = AWARENESS_SCENES, seed: int = TEST_SEED
) -> tuple[Path, Path]:
    """The test world in the Multi30K layout plus its features, through the real shuffles.v1 builder.

    Returns the set folder and the congruent features (.npy, one row per line).
    """
    from builders.shuffles.builder import ShufflesBuilder
    from builders.shuffles.config import ShufflesConfig
    from builders.validation.image_world import generate, write_multi30k

    world = generate(scenes, seed)
    data = work / "world" / "multi30k"
    write_multi30k(world, data, "test")
    features_path = data / "test.features.npy"
    np.save(features_path, scene_features(world, encoder))
    config = ShufflesConfig(
        name="image-world",
        seed=seed,
        input_format="multi30k",
        data_dir=str(data),
        split="test",
        features=str(features_path),
        image_dir=str(data / "images"),
        shuffles=SHUFFLES,
        mixup_shuffles=0,
    )
    return ShufflesBuilder(config).build(work / "sets", overwrite=True, quiet=True), features_path


def awareness_conditions(set_dir: Path, features: Path) -> dict[str, list[Any]]:
    """Scoring examples per condition (``congruent``, ``random1``..): the reference with that condition's features."""
    from builders.scoring.protocol import ScoringExample

    records = [json.loads(line) for line in (set_dir / "jsonl" / "congruent" / "test.jsonl").open(encoding="utf-8")]
    extras = set_dir / "extras"
    matrices = {"congruent": np.load(features)}
    for index in range(1, SHUFFLES + 1):
        matrices[f"random{index}"] = np.load(extras / f"test.features-random{index}.npy")
    for name, matrix in matrices.items():
        if matrix.shape[0] != len(records):
            raise MtprobesError(f"{name}: {matrix.shape[0]} feature rows for {len(records)} segments")
    return {
        name: [ScoringExample(r["src"], r["ref"], image=row) for r, row in zip(records, matrix, strict=True)]
        for name, matrix in matrices.items()
    }


def judge_awareness(models: dict[str, str], scores: dict[str, dict[str, np.ndarray]]) -> AwarenessClaim:
    """scores: role -> condition -> per-segment log-probability sums (higher is better)."""
    from builders.metrics.awareness import awareness_test

    results, zero_deltas = {}, {}
    for role, conditions in scores.items():
        shuffles = {name: values for name, values in conditions.items() if name != "congruent"}
        result = awareness_test(conditions["congruent"], shuffles, lower_is_better=False)
        deltas = np.asarray(list(result.pop("deltas").values()))
        zero_deltas[role] = int(np.sum(deltas == 0.0))
        results[role] = result
    segments = int(next(iter(scores["text"].values())).size)
    reasons = []
    if not results["image"]["aware"]:
        reasons.append(f"image-aware model not aware (Fisher p={results['image']['fisher_p']:.3g})")
    if results["text"]["aware"]:
        reasons.append(f"text-only model judged aware (Fisher p={results['text']['fisher_p']:.3g})")
    if zero_deltas["text"] != segments * SHUFFLES:
        reasons.append(f"text-only model: {segments * SHUFFLES - zero_deltas['text']} deltas are not exactly 0")
    return AwarenessClaim(models, results, zero_deltas, segments, not reasons, reasons)


def validate_awareness(
    work: Path,
    models: Path | None = None,
    text_model: str = TEXT_MODEL,
    image_model: str = IMAGE_MODEL,
    clip: Path | None = None,
) -> AwarenessClaim:
    """Build the shuffles set from the test world, score every condition with both models, judge the claim."""
    from builders.scoring.scores_io import write_awareness_scores

    folders = _model_folders(models, text_model, image_model)
    set_dir, features = build_awareness_set(work, _features_encoder(folders, models, clip))
    conditions = awareness_conditions(set_dir, features)
    scores: dict[str, dict[str, np.ndarray]] = {}
    for role, folder in folders.items():
        scorer = load_image_model_scorer(folder)
        scores[role] = {name: _scores(scorer, examples, "sum") for name, examples in conditions.items()}
        write_awareness_scores(work / "scores" / folder.name, {k: v.tolist() for k, v in scores[role].items()})
    return judge_awareness({"text": text_model, "image": image_model}, scores)


def _p(value: float) -> str:
    return "< 1e-300" if value == 0.0 else f"{value:.3g}"  # Fisher's chi-square tail underflows to 0


def awareness_table(claim: AwarenessClaim) -> str:
    """Markdown: Delta-awareness (mean +- std over shuffles), per-shuffle Wilcoxon p, Fisher p, verdict."""
    shuffles = list(next(iter(claim.results.values()))["shuffles"])
    lines = [
        f"{claim.segments} segments, {len(shuffles)} random shuffles (shuffles.v1); score: log-probability sum "
        "of the reference; Delta = congruent - incongruent.",
        "",
        "| model | Delta-awareness | " + " | ".join(f"p {name}" for name in shuffles)
        + " | Fisher p | deltas = 0 | aware |",
        "|---|---|" + "---|" * len(shuffles) + "---|---|---|",
    ]
    for role, label in ROLES:
        result = claim.results[role]
        per_shuffle = " | ".join(_p(result["shuffles"][name]["wilcoxon_p"]) for name in shuffles)
        lines.append(
            f"| {label} ({claim.models[role]}) | {result['delta_awareness_mean']:.4f} "
            f"± {result['delta_awareness_std']:.4f} | {per_shuffle} | {_p(result['fisher_p'])} | "
            f"{claim.zero_deltas[role]}/{claim.segments * len(shuffles)} | {'yes' if result['aware'] else 'no'} |"
        )
    verdict = "PASS" if claim.passed else "FAIL: " + "; ".join(claim.reasons)
    lines += ["", f"Claim (image-aware passes with p <= 0.005, text-only fails with Delta exactly 0): {verdict}"]
    return "\n".join(lines) + "\n"


# --- CoMMuTE --------------------------------------------------------------------------------------------------
def build_commute_set(work: Path, pairs: int = COMMUTE_PAIRS, seed: int = TEST_SEED) -> Path:
    from builders.validation.image_world import ambiguous_pairs, write_commute

    return write_commute(ambiguous_pairs(pairs, seed), work / "commute")


def commute_features(folder: Path, encoder: Any) -> list[np.ndarray]:
    """One feature row per CoMMuTE line: that line's image (``img.order``, files under ``../images``)."""
    from PIL import Image

    from builders.core.textio import read_lines

    images = []
    for name in read_lines(folder / "img.order"):
        with Image.open(folder.parent / "images" / name) as opened:
            images.append(opened.convert("RGB"))
    return list(encoder.encode_images(images))


def judge_commute(models: dict[str, str], scores: dict[str, dict[str, Any]]) -> CommuteClaim:
    """scores: role -> {"scores": consistency_scores, "ties": n}."""
    reasons = []
    text, image = scores["text"]["scores"], scores["image"]["scores"]
    if text["TC"] != 0.5 or text["GTC"] != 0.0:
        reasons.append(f"text-only: TC={text['TC']:.4f} (need 0.5), GTC={text['GTC']:.4f} (need 0)")
    if not image["IC"] > IC_THRESHOLD:
        reasons.append(f"image-aware: IC={image['IC']:.4f} (need > {IC_THRESHOLD})")
    return CommuteClaim(
        models,
        {role: value["scores"] for role, value in scores.items()},
        {role: value["ties"] for role, value in scores.items()},
        not reasons,
        reasons,
    )


def validate_commute(
    work: Path,
    models: Path | None = None,
    text_model: str = TEXT_MODEL,
    image_model: str = IMAGE_MODEL,
    clip: Path | None = None,
) -> CommuteClaim:
    """Write the CoMMuTE-layout pairs, score correct and incorrect with both models, compute TC/IC/GTC/GIC."""
    from builders.core.textio import read_lines
    from builders.metrics.commute import consistency_scores, pairs_from_lines
    from builders.scoring.layouts import commute_job

    folders = _model_folders(models, text_model, image_model)
    folder = build_commute_set(work)
    job = commute_job(folder, commute_features(folder, _features_encoder(folders, models, clip)))
    texts = {
        "sources": read_lines(folder / "src.en"),
        "correct_texts": read_lines(folder / "correct.de"),
        "incorrect_texts": read_lines(folder / "incorrect.de"),
    }
    scores: dict[str, dict[str, Any]] = {}
    for role, model_folder in folders.items():
        results = load_image_model_scorer(model_folder).score(job.examples)
        job.write(work / "scores", model_folder.name, results)
        ppl = np.asarray([s.perplexity for s in results], dtype=np.float64)
        correct, incorrect = ppl[: len(ppl) // 2], ppl[len(ppl) // 2 :]
        pairs = pairs_from_lines(correct, incorrect, origin=folder, **texts)
        scores[role] = {"scores": consistency_scores(pairs.ppl), "ties": int(np.sum(correct == incorrect))}
    return judge_commute({"text": text_model, "image": image_model}, scores)


def commute_table(claim: CommuteClaim) -> str:
    """Markdown: TC / IC / GTC / GIC per model with the claim's verdict."""
    sources = int(next(iter(claim.scores.values()))["sources"])
    lines = [
        f"{sources} ambiguous sources x 2 images (CoMMuTE layout); perplexity of the correct vs incorrect "
        "translation.",
        "",
        "| model | TC | IC | GTC | GIC | ties |",
        "|---|---|---|---|---|---|",
    ]
    for role, label in ROLES:
        s = claim.scores[role]
        lines.append(
            f"| {label} ({claim.models[role]}) | {s['TC']:.4f} | {s['IC']:.4f} | {s['GTC']:.4f} | "
            f"{s['GIC']:.4f} | {claim.ties[role]} |"
        )
    verdict = "PASS" if claim.passed else "FAIL: " + "; ".join(claim.reasons)
    lines += ["", f"Claim (text-only TC = 0.5 and GTC = 0; image-aware IC > {IC_THRESHOLD}): {verdict}"]
    return "\n".join(lines) + "\n"
