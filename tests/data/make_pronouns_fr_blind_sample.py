"""Fix the blind hand-check sample of pronouns.v1 EN->FR (issue 13) before anyone looks at the items.

    .venv/bin/python tests/data/make_pronouns_fr_blind_sample.py [--out tests/data/pronouns_fr_blind_sample.jsonl]

Builds pronouns.v1 with ``tgt_lang: fr`` and the frozen default config, except that the confidence filter is
off (so every item records its confidence and whether the default keeps it), on the LAST 5 talks of
../shared/data/docs-enfr/IWSLT17-tst2016 (reserved: rules were developed on the first 8 only). Writes every
item, or a seeded sample of SAMPLE_SIZE when there are more (per class first, then the rest), to the output
file. Nothing of the items is printed: only counts per class, the yield per 1,000 English it/they and the drop
counts. Rubric: tests/data/pronouns_fr_blind_rubric.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
from make_pronouns_blind_sample import build, sample_item  # noqa: E402  (sets the offline variables too)

SEED = 20261125
SAMPLE_SIZE = 150
PER_CLASS = 30
CLASSES = ("il", "elle", "ils", "elles")
CORPUS = "IWSLT17-tst2016-blind"


def load_talks() -> Any:
    spec = importlib.util.spec_from_file_location("enfr_talks", HERE / "enfr_talks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def candidate_count(src: Path) -> Counter[str]:
    """English it / they tokens (spaCy tokenizer): the denominators of the yield."""
    from builders.pronouns.english import load_pipeline, normalise_space

    tokenizer = load_pipeline().nlp.tokenizer
    lines = [normalise_space(line) for line in src.read_text(encoding="utf-8").splitlines()]
    return Counter(
        token.lower_
        for line in lines
        if line and line != "<d>"
        for token in tokenizer(line)
        if token.lower_ in {"it", "they"}
    )


def draw(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """All items when there are at most SAMPLE_SIZE; else PER_CLASS per class (seeded), then the rest."""
    ordered = sorted(records, key=lambda r: r["id"])
    if len(ordered) <= SAMPLE_SIZE:
        return ordered
    rng = random.Random(SEED)
    chosen: list[dict[str, Any]] = []
    for name in CLASSES:
        members = [r for r in ordered if r["pronoun class"] == name]
        chosen += rng.sample(members, min(PER_CLASS, len(members)))
    rest = [r for r in ordered if r not in chosen]
    chosen += rng.sample(rest, max(0, min(len(rest), SAMPLE_SIZE - len(chosen))))
    return sorted(chosen, key=lambda r: r["id"])


def main() -> None:
    from builders.pronouns.packs import GENERIC_MIN_CONFIDENCE

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "pronouns_fr_blind_sample.jsonl")
    args = parser.parse_args()
    default_min_confidence = GENERIC_MIN_CONFIDENCE  # the default of every class when this sample was drawn
    with tempfile.TemporaryDirectory() as tmp:
        src, tgt = load_talks().write_part("blind", Path(tmp) / "blind")
        inputs = {"tgt_lang": "fr", "input_format": "docs", "src": str(src), "tgt": str(tgt)}
        records, info = build(CORPUS, inputs, Path(tmp))
        candidates = candidate_count(src)
        # the FR sample never had the "corpus" field (one corpus)
        items = [{k: v for k, v in sample_item(r, default_min_confidence, "fr").items() if k != "corpus"}
                 for r in draw(records)]
    total = sum(candidates.values())
    kept = [r for r in records if r["confidence"] >= default_min_confidence]
    print(f"English candidates: {dict(candidates)}")
    print(f"items, filter off: {len(records)} ({1000 * len(records) / total:.1f} per 1,000 it/they), per class "
          f"{dict(Counter(r['pronoun class'] for r in records))}")
    print(f"items, default min_confidence {default_min_confidence}: {len(kept)} ({1000 * len(kept) / total:.1f} "
          f"per 1,000), per class {dict(Counter(r['pronoun class'] for r in kept))}")
    print(f"antecedent distance (filter off): {dict(sorted(Counter(r['ante distance'] for r in records).items()))}")
    print(f"drops: {json.dumps(info['counts']['dropped'], sort_keys=True)}")
    text = "".join(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n" for item in items)
    partial = args.out.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(args.out)
    print(f"sample: {len(items)} items, per class {dict(Counter(i['class'] for i in items))}, "
          f"kept_by_default {sum(i['kept_by_default'] for i in items)} -> {args.out}")


if __name__ == "__main__":
    main()
