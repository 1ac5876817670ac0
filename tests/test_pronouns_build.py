"""End-to-end builds of pronouns.v1: the bundled demo sample, extras, validation, determinism, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders.core.compat import spacy_english
from builders.core.config import load_config_file
from builders.core.resources import resource_path
from builders.core.validate import validate_dataset
from builders.pronouns.builder import PronounsBuilder
from builders.pronouns.config import PronounsConfig
from builders.pronouns.extras import CONTRAPRO_FIELDS

pytestmark = pytest.mark.skipif(not spacy_english().available, reason=spacy_english().reason)


def demo_config(cache: Path, **overrides: object) -> PronounsConfig:
    values = load_config_file(resource_path("samples", "pronouns", "demo.yaml"))
    values.update({"alignment_cache": str(cache), **overrides})
    return PronounsConfig.from_mapping(values)


@pytest.fixture(scope="module")
def demo_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("pronouns")
    cache = root / "cache"
    first = PronounsBuilder(demo_config(cache)).build(root / "a", overwrite=True, quiet=True)
    second = PronounsBuilder(demo_config(cache, checkpoint_every=3)).build(
        root / "b", overwrite=True, quiet=True
    )
    return first, second, cache


def test_demo_build_outputs(demo_build: tuple[Path, Path, Path]) -> None:
    out, _, _ = demo_build
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    counts = info["counts"]
    assert counts["read"] == counts["kept"] + sum(counts["dropped"].values())
    assert counts["kept"] >= 20  # 24 with the deterministic aligner (eflomal gave 28 or 30, by its random seed)
    assert {"spacy_pipeline", "aligner", "coref", "german_analyser"} <= set(info["tools"])
    assert {"non_referential_it_weather", "translated_as_oblique_pronoun"} <= set(counts["dropped"])
    assert set(info["notes"]["items_per_class"]) == {"er", "sie", "es"}
    # every bundled word list the German extraction reads is pinned by its hash
    assert {"person_nouns", "wordnet_classes", "noun_genders_extra", "seed_lexicon"} <= set(info["resources"])
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "Müller" in card
    validate_dataset(out)


def test_contrapro_json_and_text_export(demo_build: tuple[Path, Path, Path]) -> None:
    out, _, _ = demo_build
    records = [
        json.loads(line) for line in (out / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    contrapro = json.loads((out / "contrapro.json").read_text(encoding="utf-8"))
    assert len(contrapro) == len(records)
    assert all(tuple(item) == CONTRAPRO_FIELDS for item in contrapro)
    for item in contrapro:
        assert item["ref pronoun"].lower() in {"er", "sie", "es"}
        # one variant per other gender, less those pruned as possibly correct German (german_variants_filter)
        genders = [e["replacement gender"] for e in item["errors"]]
        assert genders and item["ref ante head gender"] not in genders
        assert set(genders) | {item["ref ante head gender"]} <= {"Masc", "Fem", "Neut"}
        assert all(e["contrastive"] != item["ref segment"] for e in item["errors"])
    export = {
        name: (out / "export" / name).read_text(encoding="utf-8").split("\n")[:-1]
        for name in ("text.en", "text.de", "context.en", "context.de")
    }
    expected_lines = sum(1 + len(r["errors"]) for r in records)
    assert all(len(lines) == expected_lines for lines in export.values())
    assert export["text.de"][0] == records[0]["ref segment"]
    assert export["text.de"][1] == records[0]["errors"][0]["contrastive"]
    assert export["context.en"][0] == (records[0]["src context"][-1] if records[0]["src context"] else "")


def test_same_seed_gives_identical_bytes(demo_build: tuple[Path, Path, Path]) -> None:
    first, second, _ = demo_build
    for name in ("data/test-00000-of-00001.parquet", "jsonl/test.jsonl", "contrapro.json", "export/text.de"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_balanced_sampling_is_seeded(demo_build: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, _, cache = demo_build
    out = PronounsBuilder(demo_config(cache, per_class=3, name="sampled")).build(
        tmp_path, overwrite=True, quiet=True
    )
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    assert info["notes"]["items_per_class"] == {"er": 3, "es": 3, "sie": 3}
    assert info["counts"]["dropped"]["over_quota"] > 0
    again = PronounsBuilder(demo_config(cache, per_class=3, name="sampled")).build(
        tmp_path / "again", overwrite=True, quiet=True
    )
    assert (out / "contrapro.json").read_bytes() == (again / "contrapro.json").read_bytes()
    validate_dataset(out)


def test_long_and_mojibake_segments_are_counted(tmp_path: Path) -> None:
    lines = [
        {"doc_id": "a", "src": "The table is new.", "tgt": "Der Tisch ist neu."},
        {"doc_id": "a", "src": "It is " + "very " * 30 + "old.", "tgt": "Er ist " + "sehr " * 30 + "alt."},
        {"doc_id": "a", "src": "It is made of oak.", "tgt": "Er ist aus Eiche fÃ¼r uns."},
        {"doc_id": "a", "src": "It is heavy.", "tgt": "Er ist schwer."},
        {"doc_id": "a", "src": "It was cheap.", "tgt": ""},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    config = PronounsConfig(
        input_format="jsonl",
        jsonl=str(path),
        max_tokens=20,
        per_class=0,
        alignment_cache=str(tmp_path / "cache"),
    )
    out = PronounsBuilder(config).build(tmp_path / "out", overwrite=True, quiet=True)
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    assert info["counts"]["dropped"]["segment_over_20_tokens"] == 1
    assert info["counts"]["dropped"]["mixed_encoding_mojibake"] == 1
    assert info["counts"]["dropped"]["empty_segment"] == 1
    assert info["notes"]["segments_skipped"] == {
        "empty_segment": 1,
        "mixed_encoding_mojibake": 1,
        "segment_over_20_tokens": 1,
    }
    assert info["counts"]["read"] == 4


def test_cli_export_with_more_context(demo_build: tuple[Path, Path, Path], tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from builders.pronouns.cli import register

    app = typer.Typer()
    register(app)
    out, _, _ = demo_build
    result = CliRunner().invoke(
        app, ["pronouns", "export", str(out), "--out", str(tmp_path), "--context", "2"]
    )
    assert result.exit_code == 0, result.output
    records = [
        json.loads(line) for line in (out / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    context = (tmp_path / "export" / "context.en").read_text(encoding="utf-8").split("\n")
    assert context[0] == " ".join(records[0]["src context"][-2:])
    too_much = CliRunner().invoke(
        app, ["pronouns", "export", str(out), "--out", str(tmp_path), "--context", "9"]
    )
    assert too_much.exit_code != 0 and "at most 3" in str(too_much.exception)


def test_resume_after_a_crash_gives_identical_output(
    demo_build: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, cache = demo_build
    config = demo_config(cache, checkpoint_every=4)
    original = PronounsBuilder.process
    calls = {"n": 0}

    def crash_after_ten(self: PronounsBuilder, unit: object, plan: object, ctx: object) -> list:  # type: ignore[type-arg]
        calls["n"] += 1
        if calls["n"] > 10:
            raise KeyboardInterrupt("simulated kill")
        return original(self, unit, plan, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(PronounsBuilder, "process", crash_after_ten)
    with pytest.raises(KeyboardInterrupt):
        PronounsBuilder(config).build(tmp_path, overwrite=True, quiet=True)
    resumed_calls = {"n": 0}

    def counting(self: PronounsBuilder, unit: object, plan: object, ctx: object) -> list:  # type: ignore[type-arg]
        resumed_calls["n"] += 1
        return original(self, unit, plan, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(PronounsBuilder, "process", counting)
    resumed = PronounsBuilder(config).build(tmp_path, resume=True, overwrite=True, quiet=True)
    assert resumed_calls["n"] == 32 - 8  # 32 documents; two checkpoints of 4 were saved before the kill
    for name in ("data/test-00000-of-00001.parquet", "contrapro.json"):
        assert (resumed / name).read_bytes() == (first / name).read_bytes(), name
    info = json.loads((resumed / "info.json").read_text(encoding="utf-8"))
    assert info["counts"] == json.loads((first / "info.json").read_text(encoding="utf-8"))["counts"]


def test_corpus_defaults_to_file_stem_and_copula_drop_is_counted(tmp_path: Path) -> None:
    lines = [
        {"doc_id": "a", "src": "We bought a new table.", "tgt": "Wir haben einen neuen Tisch gekauft."},
        {"doc_id": "a", "src": "It is made of oak.", "tgt": "Er ist aus Eiche."},
        {"doc_id": "b", "src": "Parliament adopted the budget.", "tgt": "Das Parlament verabschiedete den Haushalt."},
        {"doc_id": "b", "src": "It is a central project.", "tgt": "Er ist ein zentrales Projekt."},
    ]
    folder = tmp_path / "tmp-folder-name"
    folder.mkdir()
    path = folder / "news.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    config = PronounsConfig(input_format="jsonl", jsonl=str(path), per_class=0, alignment_cache=str(tmp_path / "cache"))
    out = PronounsBuilder(config).build(tmp_path / "out", overwrite=True, quiet=True)
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    records = [json.loads(line) for line in (out / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    assert info["counts"]["dropped"].get("german_copula_noun_predicate") == 1
    assert [r["corpus"] for r in records] == ["news"]  # the stem, not "tmp-folder-name"
