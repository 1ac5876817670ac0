"""Precision/yield curve of pronouns.v1 over min_confidence (run as a script; a few minutes on one core).

    .venv/bin/python tests/bench/bench_pronouns_quality.py [--corpus NC-2016|IWSLT2017|both] [--skip-gold] [--skip-docs]

Prints, for each threshold: gold precision and recall (tests/data/pronouns_gold.jsonl), and on the development
documents of ../shared/data/docs-ende the items kept per class and per 1,000 English "it". The documents are
built once with the filter off; a threshold keeps the items whose recorded confidence reaches it (exactly what
the filter does). The blind check corpora (IWSLT2017-test, wmt24-ende) are never read here.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO.parent / "shared" / "data" / "docs-ende"
GOLD = REPO / "tests" / "data" / "pronouns_gold.jsonl"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

THRESHOLDS = (0.0, 0.2, 0.25, 0.34, 0.5, 0.55, 1.0)
CLASSES = ("er", "sie", "es")


def gold_curve(work: Path) -> None:
    from builders.pronouns.gold import score_gold

    print("gold: min_confidence  precision  recall  kept/expected")
    for threshold in THRESHOLDS:
        # one alignment cache for all thresholds: eflomal is unseeded, so separate alignments would differ
        cache = str(work / "gold-cache")
        score = score_gold(GOLD, work / f"gold{threshold}", alignment_cache=cache, min_confidence=threshold)
        print(f"  {threshold:>4}  {score.precision:.3f}  {score.recall:.3f}  {score.correct}/{score.expected_keep}")


def build_all(name: str, work: Path) -> list[dict[str, Any]]:
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    folder = DOCS / name
    config = PronounsConfig(
        name=f"quality-{name.lower()}",
        src=str(folder / "dev.en"),
        tgt=str(folder / "dev.de"),
        per_class=0,
        min_confidence=0.0,
        alignment_cache=str(work / "cache"),
    )
    out = PronounsBuilder(config).build(work / name, overwrite=True, quiet=True)
    lines = (out / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def it_count(path: Path) -> int:
    from builders.pronouns.english import load_pipeline, normalise_space

    tokenizer = load_pipeline().nlp.tokenizer
    lines = [normalise_space(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return sum(token.lower_ == "it" for line in lines if line and line != "<d>" for token in tokenizer(line))


def yield_curve(name: str, work: Path) -> None:
    records = build_all(name, work)
    its = it_count(DOCS / name / "dev.en")
    print(f"{name}: {its} English 'it'; min_confidence  items  per 1000 it  er/sie/es")
    for threshold in THRESHOLDS:
        kept = [r for r in records if r["confidence"] >= threshold]
        counts = Counter(r["pronoun class"] for r in kept)
        per_class = "/".join(str(counts[c]) for c in CLASSES)
        print(f"  {threshold:>4}  {len(kept):>5}  {1000 * len(kept) / its:6.1f}  {per_class}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("NC-2016", "IWSLT2017", "both"), default="both")
    parser.add_argument("--skip-gold", action="store_true")
    parser.add_argument("--skip-docs", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_gold:
            gold_curve(Path(tmp))
        if args.skip_docs:
            return
        if not DOCS.is_dir():
            print(f"skipped the documents: {DOCS} is absent")
            return
        for name in ("NC-2016", "IWSLT2017") if args.corpus == "both" else (args.corpus,):
            yield_curve(name, Path(tmp))


if __name__ == "__main__":
    main()
