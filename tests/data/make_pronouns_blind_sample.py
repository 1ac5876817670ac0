"""Fix the blind hand-check sample of pronouns.v1 (issue 11) before anyone looks at the items.

    .venv/bin/python tests/data/make_pronouns_blind_sample.py [--round 1|2]

Round 1 (``pronouns_blind_sample.jsonl``, rules of 89b9a5a): ../shared/data/docs-ende/IWSLT2017-test and
../shared/data/wmt24-ende. Round 2 (``pronouns_blind2_sample.jsonl``): ../shared/data/wmt23-ende, reserved and
never used for pronoun rules; its paragraphs carry no document ids, so every line is a document of its own
(antecedents within the paragraph only, none across an unknown document boundary), and the lines shown in the
variations blind checks (rounds 1 and 3) are left out.

Builds pronouns.v1 with the frozen default config on the round's corpora, except that the confidence filter is
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

MAX_ITEMS = 200
ROUND1_CORPORA: dict[str, dict[str, str]] = {
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


@dataclass(frozen=True)
class Round:
    name: str  # sample file prefix in tests/data
    seed: int
    corpora: dict[str, dict[str, str]]
    lines_as_documents: bool  # a corpus without document ids: every line its own document


ROUNDS = {
    1: Round("pronouns_blind", 20261125, ROUND1_CORPORA, False),
    2: Round("pronouns_blind2", 20261127, {"wmt23-ende": {
        "input_format": "docs",
        "src": str(DATA / "wmt23-ende" / "source.en"),
        "tgt": str(DATA / "wmt23-ende" / "ref.de"),
    }}, True),
}


def one_document_per_line(inputs: dict[str, str], work: Path) -> dict[str, str]:
    """The corpus with a ``<d>`` marker before every line."""
    converted = dict(inputs)
    for side in ("src", "tgt"):
        lines = Path(inputs[side]).read_text(encoding="utf-8").splitlines()
        target = work / f"lines-as-documents.{side}"
        target.write_text("".join(f"<d>\n{line}\n" for line in lines), encoding="utf-8")
        converted[side] = str(target)
    return converted


def shown_before() -> set[str]:
    """English lines shown to the readers of the variations blind checks (rounds 1 and 3 read wmt23-ende)."""
    lines: list[str] = []
    for name in ("variations_blind", "variations_blind3"):
        lines += (REPO / "tests" / "data" / f"{name}_sample.jsonl").read_text(encoding="utf-8").splitlines()
    return {" ".join(json.loads(line)["original_src"].split()) for line in lines}


def build(corpus: str, inputs: dict[str, str], work: Path, purpose: str = "blind"
          ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """pronouns.v1 on one corpus with the default config but the confidence filter off (the dev and FR sample
    scripts build the same way); the records and info.json."""
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    config = PronounsConfig(
        name=f"{purpose}-{corpus.lower()}",
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


def sample_item(record: dict[str, Any], default_min_confidence: float, tgt_lang: str = "de") -> dict[str, Any]:
    """What the readers see of one record: both segments with the probed pronouns marked [[ ]], the recorded
    antecedents, the variants and whether the default config keeps it."""
    from builders.pronouns.english import load_pipeline
    from builders.pronouns.packs import make_pack

    english = [(t.idx, t.idx + len(t.text)) for t in load_pipeline().nlp.tokenizer(record["src segment"])]
    target = [(t.start, t.end) for t in make_pack(tgt_lang).tokenize(record["ref segment"])]
    return {
        "id": f"{record['corpus']}/{record['id']}",
        "class": record["pronoun class"],
        "corpus": record["corpus"],
        "document id": record["document id"],
        "segment id": record["segment id"],
        "src context": record["src context"],
        "ref context": record["ref context"],
        "src segment marked": marked(english, record["src segment"], record["src pronoun id"] - 1),
        "ref segment marked": marked(target, record["ref segment"], record["ref pronoun id"] - 1),
        "src ante head": record["src ante head"],
        "src ante phrase": record["src ante phrase"],
        "ref ante head": record["ref ante head"],
        "ref ante phrase": record["ref ante phrase"],
        "ante distance": record["ante distance"],
        "variants": [error["contrastive"] for error in record["errors"]],
        "confidence": record["confidence"],
        "kept_by_default": record["confidence"] >= default_min_confidence,
    }


def choose(records: list[dict[str, Any]], default: float, seed: int) -> list[dict[str, Any]]:
    """All items, or every default-kept item and a seeded draw of the rest up to MAX_ITEMS (see the module
    docstring); counts and seeds only, the items are not looked at."""
    ordered = sorted(records, key=lambda r: (r["corpus"], r["id"]))
    if len(ordered) <= MAX_ITEMS:
        return ordered
    rng = random.Random(seed)
    kept = [r for r in ordered if r["confidence"] >= default]
    rest = [r for r in ordered if r["confidence"] < default]
    chosen = rng.sample(kept, min(len(kept), MAX_ITEMS))
    chosen += rng.sample(rest, max(0, min(len(rest), MAX_ITEMS - len(chosen))))
    return sorted(chosen, key=lambda r: (r["corpus"], r["id"]))


def main() -> None:
    from builders.pronouns.packs import GENERIC_MIN_CONFIDENCE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=max(ROUNDS))
    chosen_round = ROUNDS[parser.parse_args().round]
    out = REPO / "tests" / "data" / f"{chosen_round.name}_sample.jsonl"
    default_min_confidence = GENERIC_MIN_CONFIDENCE  # the EN-DE default
    records: list[dict[str, Any]] = []
    seen = shown_before() if chosen_round.lines_as_documents else set()
    with tempfile.TemporaryDirectory() as tmp:
        for corpus, given in chosen_round.corpora.items():
            inputs = one_document_per_line(given, Path(tmp)) if chosen_round.lines_as_documents else given
            built, info = build(corpus, inputs, Path(tmp))
            left_out = [r for r in built if " ".join(r["src segment"].split()) in seen]
            built = [r for r in built if r not in left_out]
            its = english_it_count(inputs["src"])
            kept = [r for r in built if r["confidence"] >= default_min_confidence]
            print(
                f"{corpus}: it={its} relaxed={len(built)} ({1000 * len(built) / its:.1f}/1000 it) "
                f"default={len(kept)} ({1000 * len(kept) / its:.1f}/1000 it) "
                f"per class relaxed={dict(Counter(r['pronoun class'] for r in built))} "
                f"default={dict(Counter(r['pronoun class'] for r in kept))}; "
                f"{len(left_out)} items of lines shown before left out"
            )
            print(f"  drops: {json.dumps(info.get('counts', info.get('dropped', {})), sort_keys=True)[:2000]}")
            records += built
    print(f"default min_confidence {default_min_confidence}; population with the filter off: {len(records)}")
    chosen = choose(records, default_min_confidence, chosen_round.seed)
    items = [sample_item(r, default_min_confidence) for r in chosen]
    text = "".join(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n" for item in items)
    partial = out.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(out)
    print(
        f"sample: {len(items)} items, per class {dict(Counter(i['class'] for i in items))}, "
        f"kept_by_default {sum(i['kept_by_default'] for i in items)} -> {out}"
    )


if __name__ == "__main__":
    main()
