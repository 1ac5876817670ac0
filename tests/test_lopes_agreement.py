"""The matching rules of tests/bench/bench_lopes_agreement.py, on sentences written for this test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("spacy")

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_lopes_agreement",
                                               REPO / "tests" / "bench" / "bench_lopes_agreement.py")
assert _spec is not None and _spec.loader is not None
bench: Any = importlib.util.module_from_spec(_spec)
sys.modules["bench_lopes_agreement"] = bench
_spec.loader.exec_module(bench)


def flip(ref: str, contrastive: str) -> int | None:
    tokens = bench.words(ref)
    return bench.flipped_pronoun(tokens, bench.changes(tokens, bench.words(contrastive)))


def test_flipped_pronoun_with_agreement_and_elision() -> None:
    assert flip("Oui, il est petit.", "Oui, elle est petite.") == 2
    assert flip("Je crois qu'il viendra.", "Je crois qu'elle viendra.") == 3
    assert flip("Et s'il tombe ?", "Et si elle tombe ?") == 2  # s' -> si changes first: not a pronoun
    assert flip("Est-elle partie ?", "Est-il parti ?") == 2  # Est - elle
    assert flip("Elle l'a vu.", "Elle l'a vue.") is None  # no subject pronoun flipped


def record(doc: int, segment: int, pronoun_id: int, ref: str, contrastives: list[str], cls: str) -> dict[str, Any]:
    return {"id": f"d{doc:06d}-s{segment:04d}-t{pronoun_id:03d}", "document id": bench.doc_id(doc),
            "segment id": segment, "ref segment": ref, "ref pronoun": bench.words(ref)[pronoun_id - 1],
            "ref pronoun id": pronoun_id, "pronoun class": cls,
            "errors": [{"contrastive": c} for c in contrastives]}


def item(doc: int, ref: str, contrastive: str) -> dict[str, Any]:
    return {"example": 2 * doc, "document": doc, "segment": 3, "src segment": "", "ref segment": ref,
            "contrastive": contrastive}


def test_compare_counts_every_case() -> None:
    items = [
        item(0, "Il est petit.", "Elle est petite."),  # exact
        item(1, "Il dort et il rêve.", "Elle dort et il rêve."),  # ours also swaps the second il: chain
        item(2, "Elles sont parties.", "Ils sont partis."),  # we do not repair the participle: different
        item(3, "Il pleut, elle dort.", "Il pleut, il dort."),  # no record of ours: drop reason
        item(4, "Ils arrivent.", "Elles arrivent."),  # ours is on another token
    ]
    records = [
        record(0, 4, 1, "Il est petit.", ["Elle est petite."], "il"),
        record(1, 4, 1, "Il dort et il rêve.", ["Elle dort et elle rêve."], "il"),
        record(2, 4, 1, "Elles sont parties.", ["Ils sont parties."], "elles"),
        record(4, 4, 2, "Ils arrivent.", ["Ils arrivèrent."], "ils"),  # an impossible item: token 2
        record(5, 2, 1, "Elle part.", ["Il part."], "elle"),  # segment id 2: no counterpart in their set
    ]
    dropped = [
        {"reason": "low_confidence", "document id": bench.doc_id(3), "segment id": 4, "src pronoun": "it",
         "ref pronoun": "elle"},
        {"reason": "impersonal_il_verb", "document id": bench.doc_id(3), "segment id": 4, "src pronoun": "It"},
        {"reason": "they_not_aligned", "document id": bench.doc_id(3), "segment id": 4, "src pronoun": "they"},
    ]
    result = bench.compare(items, records, dropped)
    rows = {row["document"]: row for row in result.rows}
    assert rows[0]["flip"] == "exact"
    assert rows[1]["flip"] == "same_changes" and rows[1]["ours_changes_more"]
    assert rows[2]["flip"] == "theirs_changes_more"
    assert rows[3]["status"] == "missed" and rows[3]["drop"] == {"low_confidence": 1.0}
    assert rows[4]["drop"] == {"ours_on_other_token": 1.0}
    assert [r["id"] for r in result.ours_only] == ["d000004-s0004-t002"]
    assert result.ours_other_segments == {"elle": 1}
    summary = bench.summarise(result, {"counts": {"kept": 5}}, None, "heuristic")
    every = summary["per class"]["all"]
    assert (every["their items"], every["matched"], every["same flip"]) == (5, 3, 2)
    assert summary["per class"]["il"]["recall %"] == 100.0 and summary["per class"]["elle"]["recall %"] == 0.0


def test_drop_shares_split_between_candidates() -> None:
    entries = [{"reason": "it_not_aligned", "src pronoun": "it"}, {"reason": "translated_as_ce", "src pronoun": "It"}]
    assert bench.drop_shares(entries, "il") == {"it_not_aligned": 0.5, "translated_as_ce": 0.5}
    assert bench.drop_shares(entries, "ils") == {"no_dropped_candidate": 1.0}


def test_disagreement_sample_draw_is_seeded_and_excludes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_lopes_disagreement_sample",
                                                  REPO / "tests" / "data" / "make_lopes_disagreement_sample.py")
    assert spec is not None and spec.loader is not None
    sample: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)
    assert {0, 1} <= sample.excluded_documents()
    listed = tmp_path / "excluded.txt"
    listed.write_text("# seen\n3\n 5  # again\n", encoding="utf-8")
    assert sample.excluded_documents(listed) == {3, 5}
    found = {
        "theirs_only": [{"document": n, "row": {}, "our id": None} for n in range(0, 40)],
        "ours_only": [{"document": n, "row": None, "our id": f"o{n}"} for n in range(30, 35)],
        "different_flip": [{"document": n, "row": {}, "our id": f"d{n}"} for n in range(100, 130)],
    }
    drawn = sample.draw(found, {0, 1, 31})
    assert drawn == sample.draw(found, {0, 1, 31})
    documents = [c["document"] for _, c in drawn]
    assert len(drawn) == 60 and len(set(documents)) == 60 and not {0, 1, 31} & set(documents)
    kinds = [kind for kind, _ in drawn]
    assert kinds.count("ours_only") <= 4 and kinds.count("different_flip") >= 20


def test_disagreement_sample_skips_documents_of_the_blind_rounds(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_lopes_disagreement_sample",
                                                  REPO / "tests" / "data" / "make_lopes_disagreement_sample.py")
    assert spec is not None and spec.loader is not None
    sample: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)
    listed = tmp_path / "used.txt"
    listed.write_text("# used\npool-doc00001\tseen\npool-doc00120\tround 2\n", encoding="utf-8")
    assert sample.blind_round_documents(listed) == {0, 119}
    assert {0, 1} <= sample.blind_round_documents()
