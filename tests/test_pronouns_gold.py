"""Extraction quality of pronouns.v1 on the hand-written gold file (tests/data/pronouns_gold.jsonl).

The gold items are short documents written for this test: all three pronouns, antecedent distances 0-3,
non-referential "it", "it" translated by das/dies, plural and formal sie/Sie, possessive and same-chain
repair. eflomal samples its alignments, so the bounds leave a margin below the figures measured when
this test was written (precision 1.00, recall 0.92, variant exact match 1.00 on 53 expected items). The second
precision round of issue 11 drops more by design (a nearer rival of another gender, distant antecedents):
recall 0.81-0.86 over eflomal draws (2026-11-25), so its bound is 0.75; precision stays the one that matters.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from builders.core.compat import spacy_english

GOLD = Path(__file__).parent / "data" / "pronouns_gold.jsonl"


def test_gold_file_covers_the_required_cases() -> None:
    items = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]
    assert len(items) >= 60
    kept = [i for i in items if i["expect"] == "keep"]
    assert {(i["class"], i["distance"]) for i in kept} >= {
        (c, d) for c in ("er", "sie", "es") for d in range(4)
    }
    notes = " ".join(i["note"] for i in items)
    for case in ("weather", "seems", "das", "dies", "plural sie", "formal Sie", "possessive"):
        assert case in notes, case
    assert Counter(i["expect"] for i in items)["drop"] >= 12
    # two variants, or one where the other may be correct German and is pruned (german_variants_filter)
    assert all(len(i["variants"]) == (1 if "variant pruned" in i["note"] else 2) for i in kept)


def test_gold_precision_recall_and_variants(tmp_path: Path) -> None:
    probe = spacy_english()
    if not probe.available:
        pytest.skip(probe.reason)
    from builders.pronouns.gold import score_gold

    score = score_gold(GOLD, tmp_path, alignment_cache="")
    report = score.report()
    print(report)
    assert score.expected_keep >= 50
    assert score.precision >= 0.9, report
    assert score.recall >= 0.75, report
    assert score.variant_exact_match >= 0.9, report
