"""Development sample of pronouns.v1 (issue 11, second round): build the DEVELOPMENT corpora, draw a seeded
sample of the items the default config keeps, and write them in the blind check's item format for judging.

    .venv/bin/python tests/data/make_pronouns_dev_sample.py --work /tmp/pron-dev --out sample.jsonl

Corpora: ../shared/data/docs-ende/IWSLT2017 (dev), ../shared/data/docs-ende/NC-2016 (dev) and
../shared/data/wmt24-ende (judged in the first blind round, no longer reserved). The reserved corpora
(IWSLT2017-test, wmt23-ende) are never read. The alignment cache lives in --work, so a rebuild after a rule
change aligns nothing anew and the before/after samples differ only by the rules. Prints counts and yields.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.data.make_pronouns_blind_sample import DATA, ROUND1_CORPORA, build, english_it_count, sample_item

SEED = 20261127
PER_CLASS = 20
CORPORA: dict[str, dict[str, str]] = {
    "IWSLT2017": {
        "src": str(DATA / "docs-ende" / "IWSLT2017" / "dev.en"),
        "tgt": str(DATA / "docs-ende" / "IWSLT2017" / "dev.de"),
    },
    "NC-2016": {
        "src": str(DATA / "docs-ende" / "NC-2016" / "dev.en"),
        "tgt": str(DATA / "docs-ende" / "NC-2016" / "dev.de"),
    },
    "wmt24-ende": ROUND1_CORPORA["wmt24-ende"],  # judged in the first blind round, the same inputs
}


def main() -> None:
    from builders.pronouns.packs import GENERIC_MIN_CONFIDENCE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    default = GENERIC_MIN_CONFIDENCE  # the EN-DE default
    kept: list[dict[str, Any]] = []
    for corpus, inputs in CORPORA.items():
        built, info = build(corpus, inputs, args.work, purpose="dev")
        its = english_it_count(inputs["src"])
        ok = [r for r in built if r["confidence"] >= default]
        print(
            f"{corpus}: it={its} relaxed={len(built)} default={len(ok)} ({1000 * len(ok) / its:.1f}/1000 it) "
            f"per class default={dict(sorted(Counter(r['pronoun class'] for r in ok).items()))}"
        )
        print(f"  drops: {json.dumps(info.get('counts', {}).get('dropped', {}), sort_keys=True)}")
        kept += ok
    rng = random.Random(SEED)
    chosen: list[dict[str, Any]] = []
    for pronoun_class in ("er", "sie", "es"):
        population = [r for r in kept if r["pronoun class"] == pronoun_class]
        population.sort(key=lambda r: (r["corpus"], r["id"]))
        chosen += rng.sample(population, min(PER_CLASS, len(population)))
    items = [sample_item(r, default) for r in sorted(chosen, key=lambda r: (r["corpus"], r["id"]))]
    text = "".join(json.dumps(i, ensure_ascii=False, sort_keys=True) + "\n" for i in items)
    args.out.write_text(text, encoding="utf-8")
    print(f"sample: {len(items)} of {len(kept)} kept, per class {dict(Counter(i['class'] for i in items))}")


if __name__ == "__main__":
    main()
