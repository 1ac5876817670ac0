"""Score the extraction against a hand-written gold file (precision, recall, variant exact match).

Gold JSONL, one item per line: ``{"id", "expect": "keep"|"drop", "class", "ante", "distance", "segments":
[{"en", "de"}, ...], "variants": [two German lines, genders in Masc/Fem/Neut order] | null, "it_occurrence"}``
(EN-FR gold: ``{"en", "fr"}`` segments, one variant, scored with ``tgt_lang="fr"``).
The last segment holds the probed "it" (its n-th occurrence); the others are its preceding context.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from builders.core.context import BuildContext
from builders.pronouns.config import PronounsConfig
from builders.pronouns.extract import Found
from builders.pronouns.process import Dropped


@dataclass
class GoldScore:
    expected_keep: int = 0
    kept: int = 0
    correct: int = 0  # kept, expected keep, same pronoun class, antecedent head and distance
    variants_exact: int = 0  # of the correct ones, both variants exactly as written in the gold file
    mistakes: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.kept if self.kept else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected_keep if self.expected_keep else 0.0

    @property
    def variant_exact_match(self) -> float:
        return self.variants_exact / self.correct if self.correct else 0.0

    def report(self) -> str:
        """The three figures on one line, then every mistake (what a failing test prints)."""
        figures = (f"precision {self.precision:.3f} recall {self.recall:.3f} "
                   f"variant exact match {self.variant_exact_match:.3f}")
        return "\n".join([figures, *self.mistakes])


def load_gold(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def gold_as_jsonl(items: list[dict[str, Any]], out: Path) -> Path:
    lines = [
        json.dumps({"doc_id": item["id"], "src": s["en"], "tgt": s["de"] if "de" in s else s["fr"]}, ensure_ascii=False)
        for item in items
        for s in item["segments"]
    ]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _judge(item: dict[str, Any], outcome: Found | Dropped, segments: list[Any], score: GoldScore) -> None:
    expected = item["expect"] == "keep"
    score.expected_keep += expected
    if isinstance(outcome, Dropped):
        if expected:
            score.mistakes.append(
                f"{item['id']}: dropped ({outcome.reason}), expected {item['class']} -> {item['ante']}"
            )
        return
    score.kept += 1
    head = segments[outcome.antecedent.sentence].doc[outcome.antecedent.head]
    pronoun = segments[outcome.sentence].german[outcome.german_index].text.lower()
    distance = outcome.sentence - outcome.antecedent.sentence
    got = f"{pronoun} -> {head.lower_} @{distance}"
    if not expected or (pronoun, head.lower_, distance) != (item["class"], item["ante"], item["distance"]):
        score.mistakes.append(
            f"{item['id']}: kept as {got}, expected {item['expect']} {item['class']} "
            f"-> {item['ante']} @{item['distance']}"
        )
        return
    score.correct += 1
    variants = [v.text for v in outcome.variants]
    if variants == item["variants"]:
        score.variants_exact += 1
    else:
        score.mistakes.append(f"{item['id']}: variants {variants} != {item['variants']}")


def score_gold(gold_path: Path, work_dir: Path, **overrides: Any) -> GoldScore:
    """Run the pre-pass and the filters on the gold documents (aligned together) and score the probed "it"."""
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.process import iter_outcomes

    items = load_gold(gold_path)
    work_dir.mkdir(parents=True, exist_ok=True)
    jsonl = gold_as_jsonl(items, work_dir / "gold_input.jsonl")
    config = PronounsConfig(input_format="jsonl", jsonl=str(jsonl), per_class=0, **overrides)
    builder = PronounsBuilder(config)
    ctx = BuildContext(config=config, work_dir=work_dir, quiet=True)
    by_id = {item["id"]: item for item in items}
    score = GoldScore()
    plan = builder.prepare(ctx)
    for unit in builder.units(plan):
        for document in unit.payload.documents:
            item = by_id[document.doc_id]
            target = len(document.segments) - 1
            its = [
                (segs, outcome)
                for segs, sentence, _, outcome in iter_outcomes(config, plan.shared.pipeline, document)
                if sentence == target
            ]
            segments, outcome = its[item.get("it_occurrence", 0)]
            _judge(item, outcome, segments, score)
    return score


__all__ = ["GoldScore", "load_gold", "replace", "score_gold"]
