"""The work behind `mtprobes score` / `translate`: load, run, write outputs atomically."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.atomic import write_text
from builders.core.errors import InputError, MtprobesError
from builders.scoring.built_layouts import BUILT_SET_SCORERS, BuiltSet, built_set
from builders.scoring.hf import HFSeq2SeqScorer
from builders.scoring.layouts import make_job
from builders.scoring.protocol import ScoringOptions, TokenScores, at_temperature, drop_shared_prefixes

log = logging.getLogger("mtprobes.scoring")


@dataclass(frozen=True)
class ModelSpec:
    model: str
    tokenizer: str | None = None
    src_lang: str | None = None
    tgt_lang: str | None = None
    marian_target_token: str | None = None


def load_scorer(spec: ModelSpec, options: ScoringOptions) -> tuple[HFSeq2SeqScorer, Any]:
    """The text scorer, and the image-conditioned scorer when the folder holds a feature-prefix model (its
    seq2seq part is the text scorer's model: the weights load once)."""
    image_model = None
    if (Path(spec.model) / "image_prefix.json").exists():
        from builders.scoring.image import load_feature_prefix_model

        image_model = load_feature_prefix_model(spec.model)
    text = HFSeq2SeqScorer.from_pretrained(
        spec.model,
        tokenizer_path=spec.tokenizer,
        src_lang=spec.src_lang,
        tgt_lang=spec.tgt_lang,
        options=options,
        marian_target_token=spec.marian_target_token,
        model=image_model.seq2seq if image_model is not None else None,
    )
    if image_model is None:
        return text, text
    from builders.scoring.image import ImageConditionedScorer

    return text, ImageConditionedScorer(text, image_model)


def load_image_features(path: Path | None) -> list[np.ndarray] | None:
    if path is None:
        return None
    if not path.is_file():
        raise InputError(path, "file not found")
    try:
        matrix = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError) as err:
        raise InputError(path, f"not a readable .npy array ({err})") from None
    if not isinstance(matrix, np.ndarray) or matrix.ndim != 2:
        raise InputError(path, f"expected a 2-D feature matrix (one row per line), got shape {np.shape(matrix)}")
    if not np.all(np.isfinite(matrix)):
        row = int(np.argwhere(~np.isfinite(matrix))[0][0])
        raise InputError(path, "non-finite image feature", line=row + 1)
    return [np.asarray(row, dtype=np.float32) for row in matrix]


def _details(scores: list[TokenScores]) -> str:
    return "".join(
        json.dumps(
            {
                "n_tokens": s.n_tokens,
                "sum": round(s.sum, 6),
                "mean": round(s.mean, 6),
                "perplexity": round(s.perplexity, 6),
                "truncated": s.truncated,
            }
        )
        + "\n"
        for s in scores
    )


def temperature_variants(scores: list[TokenScores], options: ScoringOptions) -> list[tuple[str, list[TokenScores]]]:
    """(file-name suffix ``.T<T>``, scores at T) for every temperature of ``options.temperature_grid``."""
    return [(f".T{value:g}", at_temperature(scores, index)) for index, value in enumerate(options.temperature_grid)]


def run_scoring(
    set_dir: Path | None,
    out: Path,
    spec: ModelSpec,
    options: ScoringOptions,
    *,
    name: str,
    layout: str = "auto",
    context: int = 0,
    source: Path | None = None,
    target: Path | None = None,
    image_features: Path | None = None,
    drop_prefix: bool = False,
) -> dict[str, Any]:
    """Score a set with a model; write anchor-format scores, per-line details and a score_info.json."""
    built = built_set(set_dir)
    if built is not None and built.family in BUILT_SET_SCORERS:
        return score_built_set(
            built, out, spec, options, name=name, image_features=image_features, drop_prefix=drop_prefix
        )
    job = make_job(
        set_dir,
        layout=layout,
        src=spec.src_lang or "en",
        tgt=spec.tgt_lang or "de",
        context=context,
        source=source,
        target=target,
        images=load_image_features(image_features),
    )
    text, scorer = load_scorer(spec, options)
    if image_features is None and scorer is not text:
        raise MtprobesError(f"{spec.model} is image-conditioned: pass --image-features")
    started = time.perf_counter()
    raw = scorer.score(job.examples)
    seconds = time.perf_counter() - started
    variants = [("", raw), *temperature_variants(raw, options)]
    if drop_prefix:
        variants = [(suffix, drop_shared_prefixes(job.examples, variant)) for suffix, variant in variants]
    out.mkdir(parents=True, exist_ok=True)
    written = [path for suffix, variant in variants for path in job.write(out, name + suffix, variant)]
    scores = variants[0][1]
    write_text(out / f"{name}.tokens.jsonl", _details(scores))
    tokens = int(sum(s.n_tokens for s in scores))
    info = {
        "layout": job.layout,
        "inputs": [str(p) for p in job.inputs],
        "model": text.describe(),
        "options": asdict(options),
        "drop_shared_prefix": drop_prefix,
        "examples": len(job.examples),
        "scored_tokens": tokens,
        "seconds": round(seconds, 3),
        "target_tokens_per_second": round(tokens / seconds, 1) if seconds > 0 else None,
        "truncation": text.truncation.to_dict(),
        "outputs": [p.name for p in written],
    }
    write_text(out / f"{name}.score_info.json", json.dumps(info, indent=1, ensure_ascii=False) + "\n")
    return info


def score_built_set(
    built: BuiltSet,
    out: Path,
    spec: ModelSpec,
    options: ScoringOptions,
    *,
    name: str,
    image_features: Path | None,
    drop_prefix: bool = False,
) -> dict[str, Any]:
    """A set built by mtprobes (shuffles.v1 ...): every condition it defines, in the files its metric reads."""
    if options.temperature_grid:
        raise MtprobesError(f"--temperatures: score a CoMMuTE folder (for this set: {built.folder}/commute/slot0) "
                            "or a ContraPro export; built sets are scored at one --temperature")
    text, scorer = load_scorer(spec, options)
    started = time.perf_counter()
    score_set = BUILT_SET_SCORERS[built.family]
    written, scores = score_set(built, out, name, scorer, scorer is not text, image_features, drop_prefix)
    seconds = time.perf_counter() - started
    write_text(out / f"{name}.tokens.jsonl", _details(scores))
    tokens = int(sum(s.n_tokens for s in scores))
    info = {
        "layout": built.info["builder"],
        "inputs": [str(built.folder)],
        "model": text.describe(),
        "options": asdict(options),
        "image_features": str(image_features) if image_features else None,
        "drop_shared_prefix": drop_prefix,
        "examples": len(scores),
        "scored_tokens": tokens,
        "seconds": round(seconds, 3),
        "target_tokens_per_second": round(tokens / seconds, 1) if seconds > 0 else None,
        "truncation": text.truncation.to_dict(),
        "outputs": [str(p.relative_to(out)) for p in written],
    }
    write_text(out / f"{name}.score_info.json", json.dumps(info, indent=1, ensure_ascii=False) + "\n")
    return info
