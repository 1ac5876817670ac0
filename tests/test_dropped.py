"""Every dropped candidate explained: dropped.jsonl beside the set (one line per drop, reasons agreeing with the
info.json counts), `mtprobes inspect --dropped`, and the warning for a corpus too small to align."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from test_core_build import build, corpus  # noqa: F401  (the toy corpus fixture)
from typer.testing import CliRunner

from builders.cli import app
from builders.core.compat import spacy_english
from builders.core.context import BuildContext, Counts
from builders.core.errors import ValidationFailed
from builders.core.validate import validate_dataset
from builders.core.writer_paths import DROPPED_FILE

needs_spacy = pytest.mark.skipif(not spacy_english().available, reason=spacy_english().reason)
runner = CliRunner()


def dropped_lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / DROPPED_FILE).read_text(encoding="utf-8").splitlines()]


def inspect(*args: str) -> str:
    result = runner.invoke(app, ["inspect", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_drop_of_n_candidates_gives_n_entries_and_counts_merge_in_order(tmp_path: Path) -> None:
    from builders.core.config import BuildConfig

    ctx = BuildContext(config=BuildConfig(), work_dir=tmp_path)
    ctx.drop("too_long", 2, line=3)
    other = Counts()
    other.record_drop("empty_line", 1, {"line": 4})
    ctx.counts.merge(other)
    assert ctx.counts.dropped == Counter({"too_long": 2, "empty_line": 1})
    assert ctx.counts.dropped_candidates == [
        {"reason": "too_long", "line": 3}, {"reason": "too_long", "line": 3}, {"reason": "empty_line", "line": 4}]


def test_toy_build_writes_one_line_per_drop_and_validate_checks_them(corpus, tmp_path: Path) -> None:  # noqa: F811
    out = build(corpus, tmp_path / "out", max_words=4)
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    lines = dropped_lines(out)
    assert Counter(line["reason"] for line in lines) == Counter(info["counts"]["dropped"])
    assert [line["line"] for line in lines if line["reason"] == "empty_line"] == [7, 14, 21, 28, 35]
    assert all(line["words"] > 4 for line in lines if line["reason"] == "too_long")
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    (copy / DROPPED_FILE).write_text("\n".join(json.dumps(x) for x in lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(ValidationFailed, match="lines per reason differ from info.json counts"):
        validate_dataset(copy)


@pytest.fixture(scope="module")
def three_documents(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The issue's clean corpus: table/Tisch, lamp/Lampe, book/Buch, every "it" tied to one noun."""
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    root = tmp_path_factory.mktemp("three")
    documents = {
        "table": [("I bought a new table for the kitchen.", "Ich habe einen neuen Tisch für die Küche gekauft."),
                  ("It is made of oak.", "Er ist aus Eiche."),
                  ("It was not cheap, but it looks beautiful.", "Er war nicht billig, aber er sieht schön aus.")],
        "lamp": [("The lamp in the hall is broken.", "Die Lampe im Flur ist kaputt."),
                 ("It does not turn on anymore.", "Sie geht nicht mehr an."),
                 ("I will repair it tomorrow because it is old.",
                  "Ich werde sie morgen reparieren, weil sie alt ist.")],
        "book": [("My sister gave me a book.", "Meine Schwester hat mir ein Buch gegeben."),
                 ("It is very long.", "Es ist sehr lang."),
                 ("I read it every evening and it makes me happy.",
                  "Ich lese es jeden Abend und es macht mich glücklich.")],
    }
    path = root / "three.jsonl"
    path.write_text("".join(json.dumps({"doc_id": doc, "src": src, "tgt": tgt}, ensure_ascii=False) + "\n"
                            for doc, pairs in documents.items() for src, tgt in pairs), encoding="utf-8")
    config = PronounsConfig(input_format="jsonl", jsonl=str(path), per_class=0, alignment_cache=str(root / "cache"))
    return PronounsBuilder(config).build(root / "out", quiet=True)


@needs_spacy
def test_every_pronoun_candidate_is_a_record_or_a_dropped_line(three_documents: Path) -> None:
    info = json.loads((three_documents / "info.json").read_text(encoding="utf-8"))
    lines = dropped_lines(three_documents)
    records = [json.loads(x) for x in (three_documents / "jsonl" / "test.jsonl").read_text().splitlines()]
    assert len(lines) + len(records) == info["counts"]["read"] == 9
    assert Counter(line["reason"] for line in lines) == Counter(info["counts"]["dropped"])
    assert {line["id"] for line in lines}.isdisjoint(record["id"] for record in records)
    for line in lines:
        assert {"reason", "id", "document id", "segment id", "src pronoun", "confidence", "src segment"} <= set(line)
    validate_dataset(three_documents)


@needs_spacy
def test_a_low_confidence_drop_says_its_confidence_threshold_and_antecedent(three_documents: Path) -> None:
    text = inspect(str(three_documents), "--dropped", "--where", "document id=lamp", "-n", "10")
    assert "It does not turn on anymore." in text
    lamp = [line for line in dropped_lines(three_documents) if line["document id"] == "lamp"]
    assert lamp, "the lamp's pronouns are dropped on this corpus; the test needs one"
    for line in lamp:
        if line["reason"] == "low_confidence":
            assert line["confidence"] < line["min confidence"]
            assert line["src ante phrase"] == "The lamp" and line["ref ante head"] == "Lampe"


@needs_spacy
def test_two_coreferent_it_in_one_segment_give_one_item(three_documents: Path) -> None:
    records = {r["id"]: r for r in map(json.loads, (three_documents / "jsonl" / "test.jsonl").read_text().splitlines())}
    items = Counter((r["document id"], r["segment id"], frozenset(e["contrastive"] for e in r["errors"]))
                    for r in records.values())
    assert max(items.values()) == 1
    duplicates = [line for line in dropped_lines(three_documents) if line["reason"] == "duplicate_item"]
    assert duplicates, "'It was not cheap, but it looks beautiful.' has two coreferent it"
    for line in duplicates:
        kept = records[line["same item as"]]
        assert (kept["document id"], kept["segment id"]) == (line["document id"], line["segment id"])


@needs_spacy
@pytest.mark.parametrize(("aligner", "warned"), [("diagonal", True), ("eflomal", True), ("unique", False)])
def test_a_corpus_too_small_to_align_warns_and_suggests_unique(tmp_path: Path, aligner: str, warned: bool) -> None:
    from builders.core.config import load_config_file
    from builders.core.resources import resource_path
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    sample = resource_path("samples", "variations")
    for side in ("en", "de"):
        lines = (sample / f"sample.{side}").read_text(encoding="utf-8").splitlines()[:6]
        (tmp_path / f"six.{side}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    values = load_config_file(sample / "demo.yaml")
    values.update(src=str(tmp_path / "six.en"), tgt=str(tmp_path / "six.de"), aligner=aligner,
                  alignment_cache=str(tmp_path / "cache"))
    out = VariationsBuilder(VariationsConfig.from_mapping(values)).build(tmp_path / "out", quiet=True)
    warnings = json.loads((out / "info.json").read_text(encoding="utf-8"))["notes"].get("warnings", [])
    assert any("aligner: unique" in w and "no DEL" in w for w in warnings) == warned
    lines = dropped_lines(out)
    assert all({"source_id", "line"} <= set(line) for line in lines)
    assert all(line["type"] in {"DEL", "INS", "SUBNUM", "SUBGEN"} for line in lines if line["reason"] != "empty_line")
