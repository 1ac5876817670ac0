"""Variations validation: build minimal pairs from the pronoun world with the real variations.v1 builder, translate
originals and variations with the bundled context-free model through the scorer's beam search, and run the
package's volatility analysis on them end to end.

Claim: the context-free model's volatility figures are computed end to end. The figures must come from real
outputs, so the claim fails when
- no variation was built, or a figure is not finite;
- the model's translations of the originals are not translations (corpus BLEU against the references below
  ``MIN_ORIGINAL_BLEU``);
- a variation type never changes the translation (the variations did not reach the model, e.g. identical pairs);
- the control is not clean: translating the original sources a second time, in other batches, must give exactly
  the same outputs (zero distance, nothing changed), so that the measured volatility comes from the input change
  and not from decoding noise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builders.core.errors import MtprobesError
from builders.validation.pronouns import TEST_DOCUMENTS, TEST_SEED
from builders.validation.train import models_root

if TYPE_CHECKING:
    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.variations.volatility import VolatilityResult, VolatilitySettings

MODEL = "pronouns-sentence"  # the context-free model: volatility of a sentence-level system
NUM_BEAMS = 4
MAX_NEW_TOKENS = 64  # world sentences are at most ~20 target pieces
BATCH_SIZE = 64
CONTROL_BATCH_SIZE = 7  # another batch composition (and padding) for the second translation of the originals
MIN_ORIGINAL_BLEU = 30.0
METRICS = ("bleu", "ter", "length_ratio")  # no METEOR: it needs WordNet data, which a plain install lacks
KINDS = ("DEL", "INS", "SUBNUM", "SUBGEN")
DROP_PREFIX = {"DEL": "del_", "INS": "ins_", "SUBNUM": "subnum_", "SUBGEN": "subgen_"}
MEAN_COLUMNS = ("subword_distance", "subword_span", "word_distance", "word_span")


@dataclass(frozen=True)
class VariationsClaim:
    counts: dict[str, int]  # variation type -> pairs built (all four types; 0 where the world offers none)
    figures: dict[str, dict[str, float]]  # type with pairs -> volatility figure -> value
    control: dict[str, float]  # the originals translated twice: pairs, translation_changed, mean distances
    original_bleu: float  # corpus BLEU of the originals' translations against the original references
    oscillation_sources: int  # sources with >= 2 SUBNUM variations (oscillation ranges need them)
    zero_kinds: dict[str, str]  # type without pairs -> why, from the builder's counted drops
    distinct_sources: int  # distinct original sentences among the pairs (the world repeats its templates)
    documents: int
    num_beams: int
    passed: bool
    reasons: list[str] = field(default_factory=list)


# --- building ---------------------------------------------------------------------------------------------------
def build_variation_set(out_root: Path, documents: int = TEST_DOCUMENTS, seed: int = TEST_SEED) -> Path:
    """Write the test world one sentence per line (the model is sentence-level) and run the real variations.v1."""
    from builders.core.atomic import write_text
    from builders.validation.pronoun_world import generate
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    world = generate(documents, seed)
    paths = {side: out_root / "world" / f"pronoun-world.{side}" for side in ("en", "de")}
    for side, attribute in (("en", "english"), ("de", "target")):
        write_text(paths[side], "".join(f"{line}\n" for doc in world for line in getattr(doc, attribute)))
    # aligner 'unique': the world is a few hundred template sentences, too little text for eflomal (the default)
    # to link every adverb, and in templates each adverb occurs once per side anyway
    config = VariationsConfig(name="pronoun-world", seed=seed, src=str(paths["en"]), tgt=str(paths["de"]),
                              aligner="unique")
    return VariationsBuilder(config).build(out_root / "sets", overwrite=True, quiet=True)


def read_records(set_dir: Path) -> list[dict[str, Any]]:
    """The set's records; none when the builder kept nothing (then it writes no split file)."""
    from builders.core.textio import iter_jsonl

    path = set_dir / "jsonl" / "test.jsonl"
    return [record for _, record in iter_jsonl(path)] if path.is_file() else []


def zero_kind_notes(set_dir: Path, counts: dict[str, int]) -> dict[str, str]:
    """For each type without pairs, the builder's drop counts for it, or that the input had no candidate."""
    import json

    dropped: dict[str, int] = json.loads((set_dir / "info.json").read_text(encoding="utf-8"))["counts"]["dropped"]
    notes = {}
    for kind in KINDS:
        if counts[kind]:
            continue
        drops = {reason: n for reason, n in sorted(dropped.items()) if reason.startswith(DROP_PREFIX[kind])}
        notes[kind] = (
            "candidates dropped: " + ", ".join(f"{reason} {n}" for reason, n in drops.items())
            if drops else "no candidate in the input"
        )
    return notes


# --- translating ------------------------------------------------------------------------------------------------
def load_translator(model_dir: Path, batch_size: int) -> HFSeq2SeqScorer:
    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.protocol import ScoringOptions

    return HFSeq2SeqScorer.from_pretrained(model_dir, options=ScoringOptions(batch_size=batch_size))


def translate_lines(scorer: HFSeq2SeqScorer, sources: Sequence[str], num_beams: int) -> list[str]:
    """Beam-search translations; each distinct source is decoded once (the world repeats sentences)."""
    from builders.scoring.protocol import ScoringExample

    unique = sorted(set(sources))
    outputs = scorer.translate([ScoringExample(s, "") for s in unique], num_beams=num_beams,
                               max_new_tokens=MAX_NEW_TOKENS)
    by_source = dict(zip(unique, outputs, strict=True))
    return [by_source[s] for s in sources]


def write_hypotheses(folder: Path, name: str, lines: Sequence[str]) -> Path:
    from builders.core.atomic import write_text

    path = folder / f"{name}.hyp"
    write_text(path, "".join(line.replace("\n", " ") + "\n" for line in lines))
    return path


def translate_set(set_dir: Path, model_dir: Path, folder: Path, num_beams: int) -> dict[str, Path]:
    """original.hyp / varied.hyp (one scorer, usual batches) and control.hyp (the originals again, other batches),
    line-aligned with the records as `mtprobes analyze volatility` reads them."""
    records = read_records(set_dir)
    originals = [r["original_src"] for r in records]
    scorer = load_translator(model_dir, BATCH_SIZE)
    control = load_translator(model_dir, CONTROL_BATCH_SIZE)
    return {
        "original": write_hypotheses(folder, "original", translate_lines(scorer, originals, num_beams)),
        "varied": write_hypotheses(folder, "varied", translate_lines(scorer, [r["varied_src"] for r in records],
                                                                     num_beams)),
        "control": write_hypotheses(folder, "control", translate_lines(control, originals, num_beams)),
    }


# --- analysing and judging --------------------------------------------------------------------------------------
def volatility_settings(model_dir: Path) -> VolatilitySettings:
    """Subword distances in the model's own target pieces (the system's units, as the paper measures them; a
    SentencePiece model trained on a few hundred short outputs would cut words into letters); sentence metrics on
    every pair, because the world has no numbers and so no SUBNUM row that would be scored otherwise."""
    from builders.variations.volatility import VolatilitySettings

    target_pieces = model_dir / "target.spm"
    return VolatilitySettings(spm_model=str(target_pieces) if target_pieces.is_file() else "", metrics=METRICS,
                              score_all=True)


def measure(set_dir: Path, hyp_original: Path, hyp_varied: Path, settings: VolatilitySettings) -> VolatilityResult:
    """The package's volatility analysis, joined exactly as `mtprobes analyze volatility` joins its inputs."""
    from builders.variations.volatility import analyze_volatility, load_pairs

    return analyze_volatility(load_pairs(set_dir, hyp_original, hyp_varied), settings)


def type_figures(result: VolatilityResult) -> dict[str, dict[str, float]]:
    """The summary's per-type shares, plus mean distances/spans and mean sentence metrics of both sides."""
    figures: dict[str, dict[str, float]] = {}
    for kind, group in result.pairs.groupby("type", sort=True):
        summary = result.summary["by_type"][kind]
        row = {name: float(value) for name, value in summary.items()}
        row |= {f"mean_{column}": float(group[column].mean()) for column in MEAN_COLUMNS}
        row |= {f"mean_{metric}_{side}": float(group[f"{metric}_{side}"].mean())
                for metric in METRICS for side in ("original", "varied")}
        figures[str(kind)] = row
    return figures


def control_figures(result: VolatilityResult) -> dict[str, float]:
    pairs = result.pairs
    return {
        "pairs": float(len(pairs)),
        "translation_changed": float((pairs["hyp_original"] != pairs["hyp_varied"]).mean()) if len(pairs) else 0.0,
        **{f"mean_{column}": float(pairs[column].mean()) if len(pairs) else 0.0 for column in MEAN_COLUMNS},
    }


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    from sacrebleu.metrics import BLEU

    return float(BLEU().corpus_score(list(hypotheses), [list(references)]).score)


def judge(
    counts: dict[str, int], varied: VolatilityResult, control: VolatilityResult, original_bleu: float
) -> tuple[dict[str, dict[str, float]], dict[str, float], list[str]]:
    """(figures per type, control figures, reasons the claim fails; empty when it holds)."""
    figures, control_row = type_figures(varied), control_figures(control)
    reasons = []
    if not sum(counts.values()):
        reasons.append("no variation was built from the world")
    not_finite = sorted(f"{kind}.{name}" for kind, row in figures.items() for name, value in row.items()
                        if not math.isfinite(value))
    if not_finite or not math.isfinite(original_bleu):
        reasons.append(f"figures not finite: {', '.join(not_finite) or 'original BLEU'}")
    if not original_bleu >= MIN_ORIGINAL_BLEU:
        reasons.append(f"the originals' translations are not translations: BLEU {original_bleu:.1f} "
                       f"< {MIN_ORIGINAL_BLEU}")
    unchanged = [kind for kind, row in figures.items() if not row["translation_changed"] > 0]
    if unchanged:
        reasons.append(f"{', '.join(unchanged)}: no varied translation differs from its original "
                       "(the variations did not reach the model)")
    if control_row["translation_changed"] or control_row["mean_subword_distance"] or control_row["mean_word_distance"]:
        reasons.append(f"control: the originals translated twice differ in {control_row['translation_changed']:.1%} "
                       "of the pairs (volatility would include decoding noise)")
    return figures, control_row, reasons


def validate_variations(
    work: Path, models: Path | None = None, documents: int = TEST_DOCUMENTS, num_beams: int = NUM_BEAMS
) -> VariationsClaim:
    """The whole variations validation: build the pairs, translate with the context-free model, analyse, judge.
    Tables, summary.json and Figures 1/3 of the analysis are written to ``work/volatility``."""
    from builders.core.textio import read_lines
    from builders.variations.volatility import write_result

    model_dir = (models or models_root()) / MODEL
    if not (model_dir / "config.json").is_file():
        raise MtprobesError(f"bundled model {model_dir} missing: run `python -m builders.validation.train pronouns`")
    set_dir = build_variation_set(work, documents)
    records = read_records(set_dir)
    counts = {kind: sum(r["type"] == kind for r in records) for kind in KINDS}
    if not records:
        return VariationsClaim(counts, {}, {}, float("nan"), 0, zero_kind_notes(set_dir, counts), 0, documents,
                               num_beams, False, ["no variation was built from the world"])
    hyps = translate_set(set_dir, model_dir, work / "translations", num_beams)
    settings = volatility_settings(model_dir)
    varied = measure(set_dir, hyps["original"], hyps["varied"], settings)
    control = measure(set_dir, hyps["original"], hyps["control"], settings)
    write_result(varied, work / "volatility")
    bleu = corpus_bleu(read_lines(hyps["original"]), [r["original_ref"] for r in records])
    figures, control_row, reasons = judge(counts, varied, control, bleu)
    return VariationsClaim(counts, figures, control_row, bleu, int(varied.summary["oscillation"]["sources"]),
                           zero_kind_notes(set_dir, counts), len({r["original_src"] for r in records}), documents,
                           num_beams, not reasons, reasons)


# --- report -----------------------------------------------------------------------------------------------------
TABLE_COLUMNS = (  # (header, figure key, format)
    ("changed", "translation_changed", "{:.3f}"),
    ("subword minor", "subword_minor", "{:.3f}"),
    ("subword major", "subword_major", "{:.3f}"),
    ("word minor", "word_minor", "{:.3f}"),
    ("word major", "word_major", "{:.3f}"),
    ("mean subword dist / span", ("mean_subword_distance", "mean_subword_span"), "{:.2f} / {:.2f}"),
    ("mean word dist / span", ("mean_word_distance", "mean_word_span"), "{:.2f} / {:.2f}"),
    ("BLEU orig → varied", ("mean_bleu_original", "mean_bleu_varied"), "{:.1f} → {:.1f}"),
)


def _cell(row: dict[str, float], key: str | tuple[str, ...], fmt: str) -> str:
    keys = (key,) if isinstance(key, str) else key
    return fmt.format(*(row[k] for k in keys))


def variations_table(claim: VariationsClaim) -> str:
    """A Markdown table: volatility figures per variation type (zero-pair types say why), control and verdict."""
    lines = [
        "| type | pairs | " + " | ".join(header for header, _, _ in TABLE_COLUMNS) + " |",
        "|---|---|" + "---|" * len(TABLE_COLUMNS),
    ]
    for kind in KINDS:
        if kind in claim.figures:
            cells = [_cell(claim.figures[kind], key, fmt) for _, key, fmt in TABLE_COLUMNS]
        else:
            cells = [claim.zero_kinds.get(kind, "—")] + ["—"] * (len(TABLE_COLUMNS) - 1)
        lines.append(f"| {kind} | {claim.counts[kind]} | " + " | ".join(cells) + " |")
    verdict = "PASS" if claim.passed else "FAIL: " + "; ".join(claim.reasons)
    control = claim.control
    nan = float("nan")
    lines += [
        "",
        f"- Model `{MODEL}`, beam {claim.num_beams}; pronoun world of {claim.documents} documents (seed {TEST_SEED}), "
        f"one sentence per line; the pairs come from {claim.distinct_sources} distinct original sentences.",
        "- Distances: Levenshtein on the model's target SentencePiece pieces / on words; minor = distance and span "
        "< 10, major = both > 10. BLEU: mean sentence BLEU against each side's reference.",
        f"- Originals' corpus BLEU {claim.original_bleu:.1f}. Oscillation ranges: {claim.oscillation_sources} sources "
        "(they need >= 2 SUBNUM variations of one source).",
        f"- Control, the originals translated again in other batches: {control.get('translation_changed', nan):.3f} "
        f"changed, mean subword distance {control.get('mean_subword_distance', nan):.2f}.",
        "",
        f"Claim: {verdict}",
    ]
    return "\n".join(lines) + "\n"
