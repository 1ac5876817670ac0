"""Fix the blind hand-check sample of variations.v1 (issue 16) before anyone looks at the items.

    .venv/bin/python tests/data/make_variations_blind_sample.py [--round 1|2|3|4|5]

Round 1 (``variations_blind_sample.jsonl``): wmt23-ende, rules frozen at 02f1bae, 20 per type, seed 20261125.
Round 2 (``variations_blind2_sample.jsonl``): docs-ende/IWSLT2017-test (reserved TED talks on which no variation
rule was developed; the segments shown in the pronoun blind check, and their context, are left out), rules
frozen at c9f2e57 (after the round-1 fixes), 30 per type, seed 20261126.
Round 3 (``variations_blind3_sample.jsonl``): both reserved corpora, every line shown in an earlier blind check
left out (rounds 1 and 2 and the first pronoun check), rules frozen at 78cf5f7 (after the round-2 fixes), 30 per
type, seed 20261128.
Round 4 (``variations_blind4_sample.jsonl``, issue 25): wmt21-22-ende (reserved for this check, never read),
rules of issue 25 frozen at 7d58fa6 (the sample records the commit it was built at), 30 per type, seed 20261129.
Round 5 (``variations_blind5_sample.jsonl``, issue 25): INS only, on opensubs-ende (DeepL German: machine
translation), 30 items, seed 20261130; documents drawn by an earlier round of that pool
(``opensubs_ende_used_documents.txt``) are left out, and this round's documents are appended there.
Round 6 (``variations_blind6_sample.jsonl``): round 5 again (INS on opensubs-ende, new documents) after the fixes of
rounds 4-5 (55b3319), seed 20261201. Round 7 (``variations_blind7_sample.jsonl``): wmt21-22-ende after the same
fixes, every line shown in round 4 left out, 30 per type, seed 20261202. Rounds 8 and 9 (issue 25, after the
fixes of the second session, 9d5205a): round 8 on wmt21-22-ende, every line shown in rounds 4 and 7 left out, DEL,
SUBGEN and SUBNUM (INS has no unread line there), seed 20261203; round 9 INS on opensubs-ende, new documents (and
none overlapping a used one), seed 20261204. Rounds 10 and 11 (after the INS and SUBNUM fixes of rounds 8-9,
351ed61): round 10 INS on opensubs-ende, new documents, seed 20261205; round 11 on wmt21-22-ende, every line shown
in rounds 4, 7 and 8 left out, DEL, SUBGEN and SUBNUM, seed 20261206.

Builds variations.v1 with the default config on each corpus of the round (document markers removed) and draws
``per_type`` variations per type with a fixed seed, at most one per source line (the line's variation drawn first,
then the lines), fewer where a type has fewer lines. Writes id, type, original_src, original_ref, varied_src,
varied_ref per item and a .meta.json beside it (seed, commit, counts, yields). Prints only counts per type and
the yield per 1,000 input lines, never an item.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "tests" / "data"
SHARED = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

FIELDS = ("id", "type", "original_src", "original_ref", "varied_src", "varied_ref")


@dataclass(frozen=True)
class Corpus:
    name: str
    src: Path
    tgt: Path
    used_documents: str = ""  # a reserved pool with <d> documents: its used-documents file in tests/data


WMT23 = Corpus("wmt23-ende", SHARED / "wmt23-ende" / "source.en", SHARED / "wmt23-ende" / "ref.de")
IWSLT_TEST = Corpus("IWSLT2017-test", SHARED / "docs-ende" / "IWSLT2017-test" / "test.en",
                    SHARED / "docs-ende" / "IWSLT2017-test" / "test.de")
WMT21_22 = Corpus("wmt21-22-ende", SHARED / "wmt21-22-ende" / "source.en", SHARED / "wmt21-22-ende" / "ref.de")
OPENSUBS_DE = Corpus("opensubs-ende", SHARED / "opensubs-ende" / "pool.en", SHARED / "opensubs-ende" / "pool.de",
                     "opensubs_ende_used_documents.txt")


@dataclass(frozen=True)
class Round:
    name: str  # sample file prefix in tests/data
    corpora: tuple[Corpus, ...]
    seed: int
    per_type: int
    frozen_at: str  # the commit whose rules are judged (docs/variations.md names it too)
    shown_before: tuple[str, ...]  # earlier samples whose English lines are left out
    types: tuple[str, ...] = ()  # the types drawn (all when empty)


ROUNDS = {
    1: Round("variations_blind", (WMT23,), 20261125, 20, "02f1bae", ()),
    2: Round("variations_blind2", (IWSLT_TEST,), 20261126, 30, "c9f2e57", ("pronouns_blind",)),
    3: Round("variations_blind3", (WMT23, IWSLT_TEST), 20261128, 30, "78cf5f7",
             ("pronouns_blind", "variations_blind", "variations_blind2")),
    4: Round("variations_blind4", (WMT21_22,), 20261129, 30, "7d58fa6", ()),
    5: Round("variations_blind5", (OPENSUBS_DE,), 20261130, 30, "7d58fa6", (), ("INS",)),
    6: Round("variations_blind6", (OPENSUBS_DE,), 20261201, 30, "55b3319", (), ("INS",)),
    7: Round("variations_blind7", (WMT21_22,), 20261202, 30, "55b3319", ("variations_blind4",)),
    8: Round("variations_blind8", (WMT21_22,), 20261203, 30, "9d5205a", ("variations_blind4", "variations_blind7"),
             ("DEL", "SUBGEN", "SUBNUM")),
    9: Round("variations_blind9", (OPENSUBS_DE,), 20261204, 30, "9d5205a", (), ("INS",)),
    10: Round("variations_blind10", (OPENSUBS_DE,), 20261205, 30, "351ed61", (), ("INS",)),
    11: Round("variations_blind11", (WMT21_22,), 20261206, 30, "351ed61",
              ("variations_blind4", "variations_blind7", "variations_blind8"), ("DEL", "SUBGEN", "SUBNUM")),
}


def line_documents(corpus: Corpus) -> list[str]:
    """The document id (as the pronouns builder names it: ``<stem>-docNNNNN``, 1-based) of every plain line."""
    documents, number = [], 0
    for line in corpus.src.read_text(encoding="utf-8").splitlines():
        if line.strip() == "<d>":
            number += 1
        else:
            documents.append(f"{corpus.src.stem}-doc{number:05d}")
    return documents


def used_documents(corpus: Corpus) -> set[str]:
    """The pool's documents drawn before, and every document overlapping one of them (a shared long English
    segment: windows of one film), as the pronoun rounds count them."""
    if not corpus.used_documents:
        return set()
    from tests.data.make_pronouns_opensubs_sample import segments_by_document, with_overlapping

    text = (HERE / corpus.used_documents).read_text(encoding="utf-8")
    used = {line.split("\t")[0] for line in text.splitlines() if line.strip() and not line.startswith("#")}
    return with_overlapping(used, segments_by_document(corpus.src))


def _space(text: str) -> str:
    return " ".join(text.replace("[[", "").replace("]]", "").split())


def shown_lines(samples: tuple[str, ...]) -> set[str]:
    """English lines (and pronoun context) shown to the readers of earlier blind checks."""
    seen: set[str] = set()
    for name in samples:
        for line in (HERE / f"{name}_sample.jsonl").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            seen.add(_space(item.get("original_src") or item["src segment marked"]))
            seen.update(_space(text) for text in item.get("src context", []))
    return seen


def plain_lines(corpus: Corpus, work: Path) -> tuple[Path, Path]:
    """The corpus without document markers (variations.v1 reads one sentence pair per line)."""
    paths = []
    for side, path in (("en", corpus.src), ("de", corpus.tgt)):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() != "<d>"]
        paths.append(work / f"{corpus.name}.{side}")
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths[0], paths[1]


def build(corpus: Corpus, work: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    src, tgt = plain_lines(corpus, work)
    config = VariationsConfig(name=f"blind-{corpus.name.lower()}", src=str(src), tgt=str(tgt))
    folder = VariationsBuilder(config).build(work / corpus.name, overwrite=True, quiet=True)
    lines = (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines], json.loads((folder / "info.json").read_text(encoding="utf-8"))


def draw(records: list[dict[str, Any]], types: list[str], chosen_round: Round) -> list[dict[str, Any]]:
    """Per type: one variation per source line (per document, in a pool of documents) (seeded), then
    ``per_type`` of those lines (seeded)."""
    rng = random.Random(chosen_round.seed)
    chosen: list[dict[str, Any]] = []
    for kind in types:
        by_line: dict[tuple[str, int | str], list[dict[str, Any]]] = defaultdict(list)
        for record in sorted((r for r in records if r["type"] == kind), key=lambda r: r["id"]):
            by_line[(record["corpus"], record.get("document") or record["line"])].append(record)
        one_per_line = [rng.choice(by_line[line]) for line in sorted(by_line)]
        size = min(chosen_round.per_type, len(one_per_line))
        chosen += sorted(rng.sample(one_per_line, size), key=lambda r: r["id"])
    return chosen


def parser_round(chosen_round: Round) -> int:
    return next(number for number, known in ROUNDS.items() if known is chosen_round)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=max(ROUNDS))
    chosen_round = ROUNDS[parser.parse_args().round]
    out = HERE / f"{chosen_round.name}_sample.jsonl"
    missing = [str(c.src) for c in chosen_round.corpora if not c.src.is_file()]
    if missing:
        sys.exit(f"{missing} not found: the blind check needs ../shared/data")
    seen = shown_lines(chosen_round.shown_before)
    records: list[dict[str, Any]] = []
    meta: dict[str, Any] = {"seed": chosen_round.seed, "per_type": chosen_round.per_type,
                            "rules_frozen_at": chosen_round.frozen_at, "corpora": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for corpus in chosen_round.corpora:
            built, info = build(corpus, Path(tmp))
            prefix = f"{corpus.name}/" if len(chosen_round.corpora) > 1 else ""
            documents = line_documents(corpus) if corpus.used_documents else []
            excluded = used_documents(corpus)
            unread = [{**r, "corpus": corpus.name, "id": prefix + r["id"],
                       "document": documents[r["line"] - 1] if documents else ""} for r in built
                      if _space(r["original_src"]) not in seen
                      and not (documents and documents[r["line"] - 1] in excluded)]
            records += unread
            per_type: dict[str, int] = info["notes"]["variations_per_type"]
            input_lines = int(info["notes"]["input_lines"])
            meta["corpora"][corpus.name] = {
                "input_lines": input_lines, "variations_per_type": per_type,
                "per_1000_lines": {k: round(1000 * v / input_lines, 1) for k, v in per_type.items()},
                "left_out_shown_before": len(built) - len(unread),
                "unread_source_lines_per_type": {k: len({r["line"] for r in unread if r["type"] == k})
                                                 for k in per_type},
                "dropped": info["counts"]["dropped"],
            }
            print(f"{corpus.name}: {input_lines} lines, {len(built) - len(unread)} variations of lines shown "
                  f"before left out; per type {per_type}")
    types = chosen_round.types or tuple(sorted({r["type"] for r in records},
                                               key=["DEL", "INS", "SUBNUM", "SUBGEN"].index))
    chosen = draw(records, list(types), chosen_round)
    meta["built_at_commit"] = os.popen(f"git -C {REPO} rev-parse --short HEAD").read().strip()
    for corpus in chosen_round.corpora:
        if corpus.used_documents:
            with (HERE / corpus.used_documents).open("a", encoding="utf-8") as used:
                used.write("".join(f"{r['document']}\tvariations round {parser_round(chosen_round)}\n"
                                   for r in chosen if r["corpus"] == corpus.name))
    meta["sampled"] = dict(Counter(r["type"] for r in chosen))
    text = "".join(json.dumps({f: r[f] for f in FIELDS}, ensure_ascii=False) + "\n" for r in chosen)
    partial = out.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(out)
    out.with_suffix(".meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"sample: {len(chosen)} items {meta['sampled']} -> {out}")


if __name__ == "__main__":
    main()
