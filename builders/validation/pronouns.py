"""Pronoun validation: build a ContraPro-style set from the pronoun world with the real pronouns.v1 builder,
score it with the bundled sentence-level and context-aware models, and test the claim. The EN-DE world is the
claim ``pronouns``, the EN-FR world (``tgt_lang: fr``, il/elle) the claim ``pronouns-fr``, with their own models.

Claim: the context-aware model beats the sentence-level one on items whose antecedent is in an earlier sentence
(ante distance >= 1, McNemar p < 0.01) and both are similar on distance 0 (antecedent in the same sentence).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from builders.core.errors import MtprobesError
from builders.core.resources import resource_path
from builders.validation.train import CONTEXT_SENTENCES, PRONOUN_WORLDS, models_root, pronoun_model_name

if TYPE_CHECKING:
    from builders.scoring.protocol import ScoringOptions

TEST_SEED = 7  # the training world uses another seed
TEST_DOCUMENTS = 800
SIMILAR_AT_DISTANCE_0 = 0.05  # largest accuracy gap still called "similar"
MCNEMAR_ALPHA = 0.01


@dataclass(frozen=True)
class PronounClaim:
    accuracy: dict[str, dict[str, float]]  # model -> distance bucket ("0", "1", "2", "3", ">=1") -> accuracy
    counts: dict[str, int]  # distance bucket -> items
    mcnemar_far: dict[str, Any]  # context vs sentence on distance >= 1
    passed: bool
    reasons: list[str]
    # reference pronoun (lower case) -> items, and model -> pronoun -> accuracy: shown, not part of the claim
    class_counts: dict[str, int] = field(default_factory=dict)
    class_accuracy: dict[str, dict[str, float]] = field(default_factory=dict)


def build_world_set(
    out_root: Path, documents: int = TEST_DOCUMENTS, seed: int = TEST_SEED, lang: str = "de"
) -> Path:
    """Generate the test world and run the real pronouns.v1 builder on it; returns the set folder."""
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig
    from builders.validation.pronoun_world import generate, write_docs_format

    world = generate(documents, seed, lang=lang)
    english, target = write_docs_format(world, out_root / "world" / "pronoun-world", lang)
    # The bundled models were validated on the set that one eflomal run's links gave: those links are bundled
    # (eflomal samples from /dev/urandom), and a changed world or tokeniser has another cache key and is then
    # aligned afresh.
    cache = out_root / "alignment-cache"
    cache.mkdir(parents=True, exist_ok=True)
    for bundled in sorted(resource_path("validation", "alignment").glob("*.json")):
        shutil.copy(bundled, cache / bundled.name)
    config = PronounsConfig(
        name="pronoun-world",
        seed=seed,
        tgt_lang=lang,  # type: ignore[arg-type]  # the world's languages are the pack's
        input_format="docs",
        src=str(english),
        tgt=str(target),
        corpus="mtprobes-pronoun-world",
        per_class=0,
        max_ante_distance=3,
        context_stored=CONTEXT_SENTENCES,
        context_sentences=CONTEXT_SENTENCES,
        aligner="eflomal",
        coref="heuristic",  # the resolver the bundled models were validated with (coref: auto is learned for fr)
        alignment_cache=str(cache),
    )
    return PronounsBuilder(config).build(out_root / "sets", overwrite=True, quiet=True)


def score_set(
    set_dir: Path, model_dir: Path, context: int, lang: str = "de", options: ScoringOptions | None = None
) -> np.ndarray:
    """Log-probability sums of every export line, through the scorer's HF adapter and contrapro layout."""
    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.layouts import contrapro_job

    job = contrapro_job(set_dir / "export", "en", lang, context)
    scorer = HFSeq2SeqScorer.from_pretrained(model_dir, options=options)
    return np.asarray([s.sum for s in scorer.score(job.examples)], dtype=np.float64)


def decide(set_dir: Path, scores: np.ndarray) -> tuple[list[dict[str, Any]], np.ndarray]:
    from builders.metrics.contrapro import decisions, load_contrapro_json

    records = load_contrapro_json(set_dir / "contrapro.json")
    return records, decisions(records, scores, lower_is_better=False)


def judge(records: list[dict[str, Any]], sentence: np.ndarray, context: np.ndarray) -> PronounClaim:
    from builders.metrics.stats import mcnemar

    distance = np.asarray([int(r["ante distance"]) for r in records])
    buckets = {str(d): distance == d for d in range(4)} | {">=1": distance >= 1}
    accuracy = {
        name: {b: float(hits[mask].mean()) for b, mask in buckets.items() if mask.any()}
        for name, hits in (("sentence", sentence), ("context", context))
    }
    far = mcnemar(context[distance >= 1], sentence[distance >= 1])
    reasons = []
    if not (far.only_a > far.only_b and far.p_exact < MCNEMAR_ALPHA):
        reasons.append(f"distance>=1: context-aware not significantly better (McNemar p={far.p_exact:.3g})")
    gap = abs(accuracy["context"].get("0", 0.0) - accuracy["sentence"].get("0", 0.0))
    if gap > SIMILAR_AT_DISTANCE_0:
        reasons.append(f"distance 0: accuracies differ by {gap:.3f} > {SIMILAR_AT_DISTANCE_0}")
    counts = {b: int(mask.sum()) for b, mask in buckets.items()}
    pronoun = np.asarray([str(r["ref pronoun"]).lower() for r in records])
    classes = {name: pronoun == name for name in sorted(set(pronoun.tolist()))}
    class_accuracy = {
        name: {c: float(hits[mask].mean()) for c, mask in classes.items()}
        for name, hits in (("sentence", sentence), ("context", context))
    }
    class_counts = {c: int(mask.sum()) for c, mask in classes.items()}
    return PronounClaim(accuracy, counts, far.to_dict(), not reasons, reasons, class_counts, class_accuracy)


def validate_pronouns(
    work: Path, models: Path | None = None, context_model: str = "", lang: str = "de"
) -> PronounClaim:
    """The whole pronoun validation: build the set, score with both bundled models, judge the claim."""
    models = models or models_root()
    sentence_model = pronoun_model_name("sentence", lang)
    context_model = context_model or pronoun_model_name("context", lang)
    world = next(name for name, world_lang in PRONOUN_WORLDS.items() if world_lang == lang)
    for name in (sentence_model, context_model):
        if not (models / name / "config.json").is_file():
            raise MtprobesError(
                f"bundled model {models / name} missing: run `python -m builders.validation.train {world}`"
            )
    set_dir = build_world_set(work, lang=lang)
    records, sentence = decide(set_dir, score_set(set_dir, models / sentence_model, context=0, lang=lang))
    _, context = decide(set_dir, score_set(set_dir, models / context_model, context=CONTEXT_SENTENCES, lang=lang))
    return judge(records, sentence, context)


def validate_pronouns_fr(work: Path, models: Path | None = None, context_model: str = "") -> PronounClaim:
    """The same claim on the EN-FR world (il/elle), built with ``tgt_lang: fr`` and scored by the FR models."""
    return validate_pronouns(work, models, context_model, lang="fr")


def claim_table(claim: PronounClaim) -> str:
    """A Markdown table: accuracy by antecedent distance for both models, with the McNemar result."""
    buckets = [b for b in ("0", "1", "2", "3", ">=1") if claim.counts.get(b)]  # an empty bucket has no accuracy
    lines = [
        "| model | " + " | ".join(f"d{'' if b.startswith('>') else '='}{b} (n={claim.counts[b]})" for b in buckets)
        + " |",
        "|---|" + "---|" * len(buckets),
    ]
    for name, label in (("sentence", "sentence-level"), ("context", "context-aware")):
        lines.append(f"| {label} | " + " | ".join(f"{claim.accuracy[name][b]:.3f}" for b in buckets) + " |")
    if claim.class_counts:
        names = list(claim.class_counts)
        lines += ["", "| model | " + " | ".join(f"{c} (n={claim.class_counts[c]})" for c in names) + " |",
                  "|---|" + "---|" * len(names)]
        for name, label in (("sentence", "sentence-level"), ("context", "context-aware")):
            lines.append(f"| {label} | " + " | ".join(f"{claim.class_accuracy[name][c]:.3f}" for c in names) + " |")
    far = claim.mcnemar_far
    verdict = "PASS" if claim.passed else "FAIL: " + "; ".join(claim.reasons)
    lines.append("")
    lines.append(
        f"McNemar (d>=1, context vs sentence): only context right {far['only_a']}, only sentence right "
        f"{far['only_b']}, exact p = {far['p_exact']:.3g}. Claim: {verdict}"
    )
    return "\n".join(lines) + "\n"
