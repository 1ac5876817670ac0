"""Fix the blind hand-check sample of pronouns.v1 (issue 11) before anyone looks at the items.

    .venv/bin/python tests/data/make_pronouns_blind_sample.py [--out tests/data/pronouns_blind_sample.jsonl]

Builds pronouns.v1 with the frozen default config on the two corpora reserved for the blind check
(../shared/data/docs-ende/IWSLT2017-test and ../shared/data/wmt24-ende), except that the confidence filter is
off, so every item is a candidate for the sample with its confidence. Every item records whether the DEFAULT
config keeps it (kept_by_default), so the judgements give the default's figures and a curve over
min_confidence. When the population has at most MAX_ITEMS items the sample is all of them; otherwise it holds
every kept_by_default item (a seeded draw of MAX_ITEMS when there are more) and a seeded draw of the others up
to MAX_ITEMS. Nothing of the items is printed, only counts and the yield per 1,000 English "it".
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

SEED = 20261125
MAX_ITEMS = 200
CORPORA: dict[str, dict[str, str]] = {
    "IWSLT2017-test": {
        "input_format": "docs",
        "src": str(DATA / "docs-ende" / "IWSLT2017-test" / "test.en"),
        "tgt": str(DATA / "docs-ende" / "IWSLT2017-test" / "test.de"),
    },
    "wmt24-ende": {
        "input_format": "wmt",
        "src": str(DATA / "wmt24-ende" / "source.en"),
        "tgt": str(DATA / "wmt24-ende" / "ref.de"),
        "docs_tsv": str(DATA / "wmt24-ende" / "docs.tsv"),
    },
}


def build(corpus: str, inputs: dict[str, str], work: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    config = PronounsConfig(
        name=f"blind-{corpus.lower()}",
        corpus=corpus,
        per_class=0,
        min_confidence=0.0,
        alignment_cache=str(work / "cache"),
        **inputs,  # type: ignore[arg-type]
    )
    folder = PronounsBuilder(config).build(work / corpus, overwrite=True, quiet=True)
    lines = (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines], json.loads((folder / "info.json").read_text(encoding="utf-8"))


def english_it_count(src: str) -> int:
    """English "it" tokens (spaCy tokenizer) in the corpus: the denominator of the yield."""
    from builders.pronouns.english import load_pipeline, normalise_space

    tokenizer = load_pipeline().nlp.tokenizer
    lines = [normalise_space(line) for line in Path(src).read_text(encoding="utf-8").splitlines()]
    return sum(token.lower_ == "it" for line in lines if line and line != "<d>" for token in tokenizer(line))


def marked(tokens: list[tuple[int, int]], text: str, index: int) -> str:
    """The text with the token at 0-based index wrapped in [[ ]]."""
    start, end = tokens[index]
    return f"{text[:start]}[[{text[start:end]}]]{text[end:]}"


def sample_item(record: dict[str, Any], default_min_confidence: float) -> dict[str, Any]:
    from builders.pronouns.english import load_pipeline
    from builders.pronouns.german import tokenize

    english = [(t.idx, t.idx + len(t.text)) for t in load_pipeline().nlp.tokenizer(record["src segment"])]
    german = [(t.start, t.end) for t in tokenize(record["ref segment"])]
    return {
        "id": f"{record['corpus']}/{record['id']}",
        "class": record["pronoun class"],
        "corpus": record["corpus"],
        "document id": record["document id"],
        "segment id": record["segment id"],
        "src context": record["src context"],
        "ref context": record["ref context"],
        "src segment marked": marked(english, record["src segment"], record["src pronoun id"] - 1),
        "ref segment marked": marked(german, record["ref segment"], record["ref pronoun id"] - 1),
        "src ante head": record["src ante head"],
        "src ante phrase": record["src ante phrase"],
        "ref ante head": record["ref ante head"],
        "ref ante phrase": record["ref ante phrase"],
        "ante distance": record["ante distance"],
        "variants": [error["contrastive"] for error in record["errors"]],
        "confidence": record["confidence"],
        "kept_by_default": record["confidence"] >= default_min_confidence,
    }


def choose(records: list[dict[str, Any]], default: float) -> list[dict[str, Any]]:
    """All items, or every default-kept item and a seeded draw of the rest up to MAX_ITEMS (see the module
    docstring); counts and seeds only, the items are not looked at."""
    ordered = sorted(records, key=lambda r: (r["corpus"], r["id"]))
    if len(ordered) <= MAX_ITEMS:
        return ordered
    rng = random.Random(SEED)
    kept = [r for r in ordered if r["confidence"] >= default]
    rest = [r for r in ordered if r["confidence"] < default]
    chosen = rng.sample(kept, min(len(kept), MAX_ITEMS))
    chosen += rng.sample(rest, max(0, min(len(rest), MAX_ITEMS - len(chosen))))
    return sorted(chosen, key=lambda r: (r["corpus"], r["id"]))


def main() -> None:
    from dataclasses import fields

    from builders.pronouns.config import PronounsConfig

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "data" / "pronouns_blind_sample.jsonl")
    args = parser.parse_args()
    default_min_confidence = next(f.default for f in fields(PronounsConfig) if f.name == "min_confidence")
    assert isinstance(default_min_confidence, float)
    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for corpus, inputs in CORPORA.items():
            built, info = build(corpus, inputs, Path(tmp))
            its = english_it_count(inputs["src"])
            kept = [r for r in built if r["confidence"] >= default_min_confidence]
            print(
                f"{corpus}: it={its} relaxed={len(built)} ({1000 * len(built) / its:.1f}/1000 it) "
                f"default={len(kept)} ({1000 * len(kept) / its:.1f}/1000 it) "
                f"per class relaxed={dict(Counter(r['pronoun class'] for r in built))} "
                f"default={dict(Counter(r['pronoun class'] for r in kept))}"
            )
            print(f"  drops: {json.dumps(info.get('counts', info.get('dropped', {})), sort_keys=True)[:2000]}")
            records += built
    print(f"default min_confidence {default_min_confidence}; population with the filter off: {len(records)}")
    chosen = choose(records, default_min_confidence)
    items = [sample_item(r, default_min_confidence) for r in chosen]
    text = "".join(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n" for item in items)
    partial = args.out.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(args.out)
    print(
        f"sample: {len(items)} items, per class {dict(Counter(i['class'] for i in items))}, "
        f"kept_by_default {sum(i['kept_by_default'] for i in items)} -> {args.out}"
    )


if __name__ == "__main__":
    main()
