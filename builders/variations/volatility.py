"""Volatility of a translation system on minimal input variations (Fadaee & Monz 2020, sections 4–5).

For each record: the translation of the original input and of its variation are compared with
Levenshtein distance and span of change, on subword units (SentencePiece) and on words:

    distance = minimum number of unit insertions, deletions and substitutions turning one into the other
    span     = last − first position of change (Sec. 3.1: "the first and last positions of change"), i.e.
               max(|a|, |b|) − p − s − 1 where p and s are the lengths of the common prefix and suffix; 0 when
               a == b and 0 for a one-unit change (the paper: "we expect a value of zero for the span of change")

A pair is *minor* when distance < 10 and span < 10, *major* when both are > 10, *other* otherwise (Sec. 3.1:
"major if both metrics are greater than 10, and minor if both are less than 10"; configurable). For every source
with several SUBNUM variations the oscillation range (max − min) of sentence BLEU, METEOR, TER and LengthRatio
(Sec. 3.2: "translation length over reference length as a percentage", words) over the translations of its
*variations* (Sec. 3.2; the original only with ``include_original``) measures how much quality swings under a
change of one number; Figure 3 plots each source's mean with the range as error bar. Sentence metrics
are computed on the rows of those types only (``score_all`` for every row), each distinct (hypothesis,
reference) once, optionally in several processes (``jobs``).

Use :func:`analyze_volatility` from Python (the scoring module does), or ``mtprobes analyze volatility``.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builders.core.errors import InputError, MtprobesError

if TYPE_CHECKING:
    import pandas as pd

METRICS = ("bleu", "meteor", "ter", "length_ratio")
WORDNET_HINT = (
    "METEOR needs the WordNet data of nltk: run python -c \"import nltk; nltk.download('wordnet')\" "
    "(offline: `make system-deps` builds it from Debian packages), or leave 'meteor' out "
    "of the metrics"
)


@dataclass(frozen=True)
class VolatilitySettings:
    spm_model: str = ""  # a SentencePiece model file; "" trains one on the translations
    spm_vocab_size: int = 4000
    seed: int = 13
    threshold: int = 10
    metrics: tuple[str, ...] = METRICS
    include_original: bool = False  # the paper's range is over the variations only
    oscillation_types: tuple[str, ...] = ("SUBNUM",)
    score_all: bool = False  # sentence metrics on every row, not only on the oscillation types
    jobs: int = 1


@dataclass
class VolatilityResult:
    pairs: pd.DataFrame
    oscillation: pd.DataFrame
    summary: dict[str, Any] = field(default_factory=dict)


# --- edit statistics -----------------------------------------------------------------------------------------
def edit_stats(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
    """(Levenshtein distance, span of change) between two unit sequences."""
    import Levenshtein

    if list(a) == list(b):
        return 0, 0
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]:
        suffix += 1
    span = max(len(a), len(b)) - prefix - suffix - 1
    return int(Levenshtein.distance(list(a), list(b))), max(span, 0)


def classify(distance: int, span: int, threshold: int = 10) -> str:
    if distance < threshold and span < threshold:
        return "minor"
    if distance > threshold and span > threshold:
        return "major"
    return "other"


# --- tokenisers ---------------------------------------------------------------------------------------------
def sentencepiece_tokenizer(texts: Sequence[str], settings: VolatilitySettings) -> Callable[[str], list[str]]:
    """Pieces from the given model, or from a unigram model trained on ``texts`` with a fixed seed."""
    import sentencepiece as spm

    if settings.spm_model:
        path = Path(settings.spm_model).expanduser()
        if not path.is_file():
            raise InputError(path, "SentencePiece model not found")
        processor = spm.SentencePieceProcessor(model_file=str(path))
    else:
        lines = sorted({t for t in texts if t.strip()})
        if not lines:
            raise MtprobesError("cannot train a SentencePiece model: all translations are empty")
        spm.set_random_generator_seed(settings.seed)
        model = io.BytesIO()
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(lines), model_writer=model, vocab_size=settings.spm_vocab_size,
            hard_vocab_limit=False, num_threads=1, model_type="unigram", character_coverage=1.0,
            minloglevel=2,
        )
        processor = spm.SentencePieceProcessor(model_proto=model.getvalue())
    return lambda text: list(processor.encode(text, out_type=str))


# --- sentence metrics ---------------------------------------------------------------------------------------
def _meteor_scorer() -> Callable[[str, str], float]:
    from builders.core.compat import require_module

    require_module("nltk", "METEOR scores", "nlp")
    from nltk.corpus import wordnet
    from nltk.translate.meteor_score import meteor_score

    try:
        wordnet.ensure_loaded()
    except LookupError:
        raise MtprobesError(WORDNET_HINT) from None
    return lambda hyp, ref: float(meteor_score([ref.split()], hyp.split())) * 100


def metric_functions(metrics: Sequence[str]) -> dict[str, Callable[[str, str], float]]:
    """Sentence-level scorers ``f(hypothesis, reference)``; raises for unknown names or missing WordNet."""
    unknown = sorted(set(metrics) - set(METRICS))
    if unknown:
        raise MtprobesError(f"unknown metric(s) {unknown}; choose from {list(METRICS)}")
    from sacrebleu.metrics import BLEU, TER

    bleu = BLEU(effective_order=True)
    ter = TER()
    makers: dict[str, Callable[[], Callable[[str, str], float]]] = {
        "bleu": lambda: lambda hyp, ref: float(bleu.sentence_score(hyp, [ref]).score),
        "ter": lambda: lambda hyp, ref: float(ter.sentence_score(hyp, [ref]).score),
        "meteor": _meteor_scorer,
        "length_ratio": lambda: lambda hyp, ref: 100.0 * len(hyp.split()) / max(1, len(ref.split())),
    }
    return {name: makers[name]() for name in metrics}


# --- the analysis -------------------------------------------------------------------------------------------
REQUIRED_COLUMNS = ("id", "source_id", "type", "hyp_original", "hyp_varied", "original_ref", "varied_ref")


def analyze_volatility(pairs: pd.DataFrame, settings: VolatilitySettings | None = None) -> VolatilityResult:
    """Per-pair distances and classes, per-source oscillation ranges and a summary.

    ``pairs`` needs the columns in ``REQUIRED_COLUMNS`` (``k`` optional): one row per variation with the
    system's translation of the original and of the varied source, and both references.
    """
    settings = settings or VolatilitySettings()
    missing = [c for c in REQUIRED_COLUMNS if c not in pairs.columns]
    if missing:
        raise MtprobesError(f"volatility analysis needs column(s) {missing}")
    table = pairs.reset_index(drop=True).copy()
    encode = sentencepiece_tokenizer([*table["hyp_original"], *table["hyp_varied"]], settings)
    pieces = functools.lru_cache(maxsize=None)(encode)  # an original is repeated for each of its variations
    rows = []
    for original, varied in zip(table["hyp_original"], table["hyp_varied"], strict=True):
        sub_distance, sub_span = edit_stats(pieces(original), pieces(varied))
        word_distance, word_span = edit_stats(original.split(), varied.split())
        rows.append((sub_distance, sub_span, word_distance, word_span))
    columns = ["subword_distance", "subword_span", "word_distance", "word_span"]
    for index, name in enumerate(columns):
        table[name] = [row[index] for row in rows]
    table["subword_class"] = [classify(d, s, settings.threshold) for d, s, *_ in rows]
    table["word_class"] = [classify(d, s, settings.threshold) for _, _, d, s in rows]
    add_sentence_scores(table, settings)
    oscillation = oscillation_ranges(table, settings)
    return VolatilityResult(table, oscillation, summarize(table, oscillation, settings))


def add_sentence_scores(table: pd.DataFrame, settings: VolatilitySettings) -> None:
    """``<metric>_varied`` / ``<metric>_original`` columns, on the rows of the oscillation types (all rows with
    ``score_all``; others are NaN). Each distinct (hypothesis, reference) is scored once, in ``jobs`` processes."""
    scored = table["type"].isin(settings.oscillation_types) | settings.score_all
    wanted = sorted({(h, r) for h, r in zip(table["hyp_varied"][scored], table["varied_ref"][scored], strict=True)}
                    | {(h, r) for h, r in zip(table["hyp_original"][scored], table["original_ref"][scored],
                                               strict=True)})
    scores = dict(zip(wanted, score_pairs(wanted, settings.metrics, settings.jobs), strict=True))
    nan = float("nan")
    for index, name in enumerate(settings.metrics):
        for side, ref_column in (("varied", "varied_ref"), ("original", "original_ref")):
            table[f"{name}_{side}"] = [
                scores[(h, r)][index] if keep else nan
                for h, r, keep in zip(table[f"hyp_{side}"], table[ref_column], scored, strict=True)
            ]


def _score_chunk(task: tuple[list[tuple[str, str]], tuple[str, ...]]) -> list[tuple[float, ...]]:
    pairs, metrics = task
    scorers = metric_functions(metrics)
    return [tuple(scorers[m](hyp, ref) for m in metrics) for hyp, ref in pairs]


def score_pairs(pairs: Sequence[tuple[str, str]], metrics: Sequence[str], jobs: int = 1) -> list[tuple[float, ...]]:
    """Scores of each (hypothesis, reference) for each metric, in order; ``jobs`` > 1 uses worker processes
    (TER on paragraph-length segments takes tens of milliseconds each)."""
    metric_functions(metrics)  # fail early (unknown name, missing WordNet) in this process
    if jobs <= 1 or len(pairs) < 2 * jobs:
        return _score_chunk((list(pairs), tuple(metrics)))
    from concurrent.futures import ProcessPoolExecutor

    size = -(-len(pairs) // (jobs * 4))
    chunks = [(list(pairs[i : i + size]), tuple(metrics)) for i in range(0, len(pairs), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [score for chunk in pool.map(_score_chunk, chunks) for score in chunk]


def oscillation_ranges(table: pd.DataFrame, settings: VolatilitySettings) -> pd.DataFrame:
    """Per source: mean and range (max − min) of each metric over its variations of the chosen types (and its
    original with ``include_original``): Figure 3's data points and error bars."""
    import pandas as pd

    subset = table[table["type"].isin(settings.oscillation_types)]
    records = []
    for source_id, group in subset.groupby("source_id", sort=True):
        if len(group) < 2:
            continue
        record: dict[str, Any] = {"source_id": source_id, "variations": len(group)}
        for name in settings.metrics:
            values = list(group[f"{name}_varied"])
            if settings.include_original:
                values.append(group[f"{name}_original"].iloc[0])
            record[f"{name}_mean"] = sum(values) / len(values)
            record[f"{name}_min"], record[f"{name}_max"] = min(values), max(values)
            record[f"{name}_range"] = max(values) - min(values)
        records.append(record)
    stats = [f"{m}_{stat}" for m in settings.metrics for stat in ("mean", "min", "max", "range")]
    columns = ["source_id", "variations", *stats]
    return pd.DataFrame.from_records(records, columns=columns)


def summarize(table: pd.DataFrame, oscillation: pd.DataFrame, settings: VolatilitySettings) -> dict[str, Any]:
    summary: dict[str, Any] = {"pairs": len(table), "threshold": settings.threshold, "by_type": {}}
    for type_name, group in table.groupby("type", sort=True):
        changed = group["hyp_original"] != group["hyp_varied"]
        summary["by_type"][type_name] = {
            "pairs": len(group),
            "translation_changed": round(float(changed.mean()), 4),
            **{f"subword_{c}": round(float((group["subword_class"] == c).mean()), 4) for c in ("minor", "major")},
            **{f"word_{c}": round(float((group["word_class"] == c).mean()), 4) for c in ("minor", "major")},
        }
    summary["oscillation"] = {
        "sources": len(oscillation),
        **{f"mean_{m}_range": round(float(oscillation[f"{m}_range"].mean()), 4) if len(oscillation) else None
           for m in settings.metrics},
    }
    return summary


# --- inputs ------------------------------------------------------------------------------------------------
def load_pairs(records: str | Path, hyp_original: str | Path, hyp_varied: str | Path) -> pd.DataFrame:
    """Records of a built variations dataset (its folder or a JSONL file) joined with two translation files
    that are line-aligned with the records (translation of original_src and of varied_src, in record order)."""
    import pandas as pd

    from builders.core.textio import iter_jsonl, read_lines

    path = Path(records)
    if path.is_dir():
        path = path / "jsonl" / "test.jsonl"
    rows = [record for _, record in iter_jsonl(path)]
    originals, varied = read_lines(hyp_original, allow_empty_file=True), read_lines(hyp_varied, allow_empty_file=True)
    for name, lines in (("hyp_original", (hyp_original, originals)), ("hyp_varied", (hyp_varied, varied))):
        if len(lines[1]) != len(rows):
            raise InputError(lines[0], f"{name} has {len(lines[1])} lines but {path} has {len(rows)} records")
    return pd.DataFrame({
        "id": [r["id"] for r in rows], "source_id": [r["source_id"] for r in rows],
        "type": [r["type"] for r in rows], "k": [r["parameters"]["k"] for r in rows],
        "original_ref": [r["original_ref"] for r in rows], "varied_ref": [r["varied_ref"] for r in rows],
        "hyp_original": originals, "hyp_varied": varied,
    })


def write_result(result: VolatilityResult, out_dir: Path, formats: Sequence[str] = ("csv", "parquet")) -> list[Path]:
    """Tables (CSV and/or parquet), summary.json, Figure 1 and Figure 3 PNGs; returns the paths written."""
    import json

    from builders.core.atomic import atomic_path, write_text
    from builders.variations.plots import figure1, figure3

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in (("volatility_pairs", result.pairs), ("oscillation", result.oscillation)):
        for fmt in formats:
            path = out_dir / f"{name}.{fmt}"
            with atomic_path(path) as tmp:
                if fmt == "csv":
                    frame.to_csv(tmp, index=False)
                else:
                    frame.to_parquet(tmp, index=False)
            written.append(path)
    write_text(out_dir / "summary.json", json.dumps(result.summary, indent=2) + "\n")
    written.append(out_dir / "summary.json")
    written.append(figure1(result.pairs, out_dir / "figure1_distance_vs_span.png"))
    written.append(figure3(result.oscillation, out_dir / "figure3_oscillation.png"))
    return written
