"""Draw the hand-check sample of disagreements with Lopes et al. (2020) (issue 23, part 3), seed fixed here.

    .venv/bin/python tests/data/make_lopes_disagreement_sample.py [--set-dir DIR | --coref auto|heuristic|learned]
        [--add-to-exclusions]

Compares pronouns.v1 EN->FR with their items on ``../shared/data/opensubs-enfr`` exactly as
``tests/bench/bench_lopes_agreement.py`` does (same build, same matching rules: the bench's functions are used),
then draws 60 disagreements, 20 of each kind, fewer where a kind has fewer (the other kinds then give more):

- ``theirs_only``: an item of theirs on which we emit no item on the same French pronoun token;
- ``ours_only``: an item of ours on their segment (segment id 4) whose pronoun token is not the one they flip;
- ``different_flip``: both have the token, but none of our contrastives makes their changes.

At most one disagreement per document; documents listed in ``lopes_excluded_documents.txt`` (documents already
seen by someone: never drawn) or in ``opensubs_enfr_used_documents.txt`` (drawn by a blind round) are left out.
Writes ``lopes_disagreements_sample.jsonl`` (one object per drawn
disagreement: kind, document, their example number, the four segments of the document, their contrastive, our
record's id, pronoun and contrastives, the drop reasons we gave) and ``lopes_disagreements_sample.meta.json``
(seed, commit, counts per kind, drawn documents). Prints counts only, never a text. ``--add-to-exclusions``
appends the drawn documents to the exclusion list (do it once the sample is read).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "tests" / "data"
SAMPLE = HERE / "lopes_disagreements_sample.jsonl"
META = HERE / "lopes_disagreements_sample.meta.json"
EXCLUDED = HERE / "lopes_excluded_documents.txt"
USED_BY_BLIND_ROUNDS = HERE / "opensubs_enfr_used_documents.txt"
SEED = 20261127
PER_KIND = 20
TOTAL = 60
KINDS = ("theirs_only", "ours_only", "different_flip")


def load_bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_lopes_agreement",
                                                  REPO / "tests" / "bench" / "bench_lopes_agreement.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_lopes_agreement"] = module
    spec.loader.exec_module(module)
    return module


def excluded_documents(path: Path = EXCLUDED) -> set[int]:
    """Document numbers (0-based, as in items.jsonl), one per line; '#' starts a comment."""
    numbers: set[int] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            numbers.add(int(text))
    return numbers


def blind_round_documents(path: Path = USED_BY_BLIND_ROUNDS) -> set[int]:
    """Documents the blind rounds drew (named ``pool-docNNNNN``, 1-based) as 0-based numbers: never drawn twice."""
    numbers: set[int] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            numbers.add(int(line.split("\t")[0].rsplit("doc", 1)[1]) - 1)
    return numbers


def pool_documents(pool: Path) -> list[list[tuple[str, str]]]:
    documents: list[list[tuple[str, str]]] = []
    with (pool / "pool.en").open(encoding="utf-8") as en, (pool / "pool.fr").open(encoding="utf-8") as fr:
        for src, tgt in zip(en, fr, strict=True):
            if src.strip() == "<d>":
                documents.append([])
            else:
                documents[-1].append((src.rstrip("\n"), tgt.rstrip("\n")))
    return documents


def disagreements(bench: Any, comparison: Any) -> dict[str, list[dict[str, Any]]]:
    """Every disagreement per kind: {"document", "item" (row of theirs or None), "our id" (or None)}."""
    found: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    for row in comparison.rows:
        if row["status"] == "missed":
            found["theirs_only"].append({"document": row["document"], "row": row, "our id": None})
        elif row["status"] == "matched" and row["flip"] not in ("exact", "same_changes"):
            found["different_flip"].append({"document": row["document"], "row": row, "our id": row["id"]})
    for record in comparison.ours_only:
        number = int(record["document id"].rsplit("doc", 1)[1]) - 1
        assert bench.doc_id(number) == record["document id"]
        found["ours_only"].append({"document": number, "row": None, "our id": record["id"]})
    return found


def draw(found: dict[str, list[dict[str, Any]]], excluded: set[int],
         seed: int = SEED) -> list[tuple[str, dict[str, Any]]]:
    """Each kind shuffled with the seed; then taken in turn, one per kind, up to 20 per kind, and when a kind
    runs short the others fill up to 60; a document already drawn (or excluded) is skipped."""
    rng = random.Random(seed)
    queues: dict[str, list[dict[str, Any]]] = {}
    for kind in KINDS:
        candidates = sorted((c for c in found[kind] if c["document"] not in excluded),
                            key=lambda c: (c["document"], c["our id"] or ""))
        rng.shuffle(candidates)
        queues[kind] = candidates
    drawn: list[tuple[str, dict[str, Any]]] = []
    used: set[int] = set()

    def take(kind: str) -> bool:
        while queues[kind]:
            candidate = queues[kind].pop(0)
            if candidate["document"] not in used:
                used.add(candidate["document"])
                drawn.append((kind, candidate))
                return True
        return False

    for limit in (PER_KIND, TOTAL):  # first the quota per kind, then the shortfall from the kinds left
        active = list(KINDS)
        while active and len(drawn) < TOTAL:
            for kind in list(active):
                if len(drawn) >= TOTAL:
                    break
                if sum(k == kind for k, _ in drawn) >= limit or not take(kind):
                    active.remove(kind)
    return drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set-dir", type=Path, help="a set built as the bench builds it (default: build one)")
    parser.add_argument("--coref", default="auto", choices=["auto", "heuristic", "learned"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--add-to-exclusions", action="store_true",
                        help="append the drawn documents to lopes_excluded_documents.txt")
    args = parser.parse_args()
    bench = load_bench()
    if not (bench.POOL / "items.jsonl").is_file():
        print("skipped: ../shared/data/opensubs-enfr is absent")
        return
    with tempfile.TemporaryDirectory() as tmp:
        set_dir = args.set_dir or bench.build(Path(tmp), args.coref, args.workers)[0]
        records, dropped, info = bench.read_set(set_dir)
    items = bench.load_items()
    comparison = bench.compare(items, records, dropped)
    found = disagreements(bench, comparison)
    excluded = excluded_documents() | blind_round_documents()
    drawn = draw(found, excluded)

    by_id = {record["id"]: record for record in records}
    item_of = {item["document"]: item for item in items}
    documents = pool_documents(bench.POOL)
    lines = []
    for kind, candidate in drawn:
        number = candidate["document"]
        item, row = item_of[number], candidate["row"]
        ours = by_id.get(candidate["our id"] or "")
        lines.append({
            "kind": kind,
            "document": number,
            "example": item["example"],
            "src segments": [src for src, _ in documents[number]],
            "ref segments": [tgt for _, tgt in documents[number]],
            "their class": row.get("class") if row else None,
            "their contrastive": item["contrastive"],
            "our id": ours["id"] if ours else None,
            "our segment id": ours["segment id"] if ours else None,
            "our src pronoun": ours["src pronoun"] if ours else None,
            "our ref pronoun": ours["ref pronoun"] if ours else None,
            "our ref pronoun id": ours["ref pronoun id"] if ours else None,
            "our contrastives": [error["contrastive"] for error in ours["errors"]] if ours else [],
            "our antecedent": ours["src ante phrase"] if ours else None,
            "our flip vs theirs": row.get("flip") if row else None,
            "why we miss theirs": row.get("drop") if row else None,
        })
    SAMPLE.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    meta = {
        "seed": SEED,
        "commit": commit.stdout.strip(),
        "coref": info.get("config", {}).get("coref", args.coref),
        "disagreements per kind": {kind: len(found[kind]) for kind in KINDS},
        "excluded documents": sorted(excluded),
        "drawn per kind": {kind: sum(1 for k, _ in drawn if k == kind) for kind in KINDS},
        "drawn documents": sorted(candidate["document"] for _, candidate in drawn),
    }
    META.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"disagreements per kind: {meta['disagreements per kind']}; drawn: {meta['drawn per kind']} -> {SAMPLE}")
    if args.add_to_exclusions:
        with EXCLUDED.open("a", encoding="utf-8") as handle:
            handle.write(f"# drawn by make_lopes_disagreement_sample.py (seed {SEED}, commit {meta['commit']})\n")
            handle.writelines(f"{number}\n" for number in meta["drawn documents"])
        with USED_BY_BLIND_ROUNDS.open("a", encoding="utf-8") as handle:
            handle.writelines(f"pool-doc{number + 1:05d}\tLopes disagreement sample (seed {SEED})\n"
                              for number in meta["drawn documents"])
        print(f"appended {len(meta['drawn documents'])} documents to {EXCLUDED} and {USED_BY_BLIND_ROUNDS}")


if __name__ == "__main__":
    main()
