"""End-to-end builds of variations.v1: demo sample, rebuild identity, extras, invariants and bad input."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from builders.core.compat import spacy_english
from builders.core.config import load_config_file
from builders.core.errors import ConfigError, InputError
from builders.variations.builder import VariationsBuilder
from builders.variations.config import VariationsConfig
from builders.variations.invariants import record_problems

SPACY = spacy_english()
pytestmark = pytest.mark.skipif(not SPACY.available, reason=SPACY.reason)


def _tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "info.json"}


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def demo_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from builders.core.resources import resource_path

    config = VariationsConfig.from_mapping(load_config_file(resource_path("samples", "variations", "demo.yaml")))
    return VariationsBuilder(config).build(tmp_path_factory.mktemp("demo"), quiet=True)


def test_demo_build_has_every_type_card_info_and_extras(demo_build: Path) -> None:
    info = json.loads((demo_build / "info.json").read_text(encoding="utf-8"))
    per_type = info["notes"]["variations_per_type"]
    assert all(per_type[t] > 0 for t in ("DEL", "INS", "SUBNUM", "SUBGEN")), per_type
    counts = info["counts"]
    assert counts["read"] == counts["kept"] + sum(counts["dropped"].values())
    assert counts["dropped"]["empty_line"] == 1
    assert "en_core_web_sm" in " ".join(info["tools"]) and "spacy" in info["tools"]
    assert set(info["resources"]) == {"adverbs", "insertions", "gendered_nouns"}  # gendered nouns: on by default
    card = (demo_build / "README.md").read_text(encoding="utf-8")
    assert "Fadaee" in card and "empty_line" in card
    for suffix in ("num", "adv", "prn", "ins"):
        lengths = {len((demo_build / "plain" / f"variations.{suffix}.{x}").read_text(encoding="utf-8").splitlines())
                   for x in ("en", "de", "orig.en", "orig.de", "ids")}
        assert len(lengths) == 1, f"{suffix} files are not line-aligned: {lengths}"
    records = _records(demo_build)
    assert sum(per_type.values()) == len(records) == len({r["id"] for r in records})
    assert all(record_problems(r) == [] for r in records)


def test_demo_rebuild_is_byte_identical(demo_build: Path, tmp_path: Path) -> None:
    from builders.core.resources import resource_path

    config = VariationsConfig.from_mapping(load_config_file(resource_path("samples", "variations", "demo.yaml")))
    again = VariationsBuilder(config).build(tmp_path, quiet=True)
    assert _tree_digest(again) == _tree_digest(demo_build)


def test_tiny_aligner_blocks_on_disk_give_the_same_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: the driver streams the aligner's input through the work folder, the aligner keeps its pair
    table on disk in blocks and links are attached one line at a time; the block size may not change a byte
    (blocks of one pair, every block spilled, here). ``lines_per_unit`` is a config key that does change the
    output: each unit draws from its own random stream."""
    import functools
    import shutil

    from builders.core.resources import resource_path
    from builders.pronouns import align_diagonal

    values = load_config_file(resource_path("samples", "variations", "demo.yaml"))

    def build(name: str) -> Path:
        """Aligned afresh each time (a cache, the home folder's say, could hold other links), in one cache
        folder: its path is in the card."""
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        config = VariationsConfig.from_mapping({**values, "alignment_cache": str(tmp_path / "cache")})
        return VariationsBuilder(config).build(tmp_path / name, quiet=True)

    default = build("default")
    spilled: list[int] = []

    class CountedBlockFiles(align_diagonal.BlockFiles):
        def append(self, block: align_diagonal.PairBlock) -> None:
            spilled.append(len(block.position))
            super().append(block)

    monkeypatch.setattr(align_diagonal, "DiagonalSettings",
                        functools.partial(align_diagonal.DiagonalSettings, block_pairs=1, spill_pairs=0))
    monkeypatch.setattr(align_diagonal, "BlockFiles", CountedBlockFiles)
    small = build("small")
    # blocks of one pair hold one whole sentence each: the 40 sentence pairs (41 lines, one empty), both ways
    assert len(spilled) == 80 and all(pairs > 1 for pairs in spilled)
    assert _tree_digest(small) == _tree_digest(default) and len(_tree_digest(default)) > 5
    assert not list((tmp_path / "cache").glob("scratch-*"))  # the spilled tables are removed


def test_plain_files_match_records(demo_build: Path) -> None:
    records = [r for r in _records(demo_build) if r["type"] == "SUBNUM"]
    lines_en = (demo_build / "plain" / "variations.num.en").read_text(encoding="utf-8").splitlines()
    lines_orig_de = (demo_build / "plain" / "variations.num.orig.de").read_text(encoding="utf-8").splitlines()
    assert lines_en == [r["varied_src"] for r in records]
    assert lines_orig_de == [r["original_ref"] for r in records]


def test_invariants_catch_broken_records(demo_build: Path) -> None:
    record = next(r for r in _records(demo_build) if r["type"] == "SUBNUM")
    broken = json.loads(json.dumps(record))
    broken["varied_src"] = broken["original_src"]
    assert any("equals original_src" in p for p in record_problems(broken))
    shifted = json.loads(json.dumps(record))
    shifted["edits_ref"][0]["start"] += 1
    assert record_problems(shifted)
    wrong_k = json.loads(json.dumps(record))
    wrong_k["parameters"]["k"] = 7
    assert any("not n+7" in p for p in record_problems(wrong_k))
    two = json.loads(json.dumps(record))
    two["edits_src"] = two["edits_src"] * 2
    assert any("exactly one edit" in p for p in record_problems(two))


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_jsonl_input_and_de_en_direction(tmp_path: Path) -> None:
    rows = [{"id": "a", "src": "Er kam 3 Tage zu spät.", "tgt": "He came 3 days late."},
            {"id": "b", "src": "", "tgt": ""}]
    path = _write(tmp_path / "in.jsonl", [json.dumps(r) for r in rows])
    # aligner 'unique': eflomal (the default) has nothing to learn from a one-line corpus
    config = VariationsConfig(jsonl=str(path), src_lang="de", tgt_lang="en", types=["SUBNUM", "SUBGEN"],
                              num_offsets=[1], aligner="unique")
    out = VariationsBuilder(config).build(tmp_path / "out", quiet=True)
    records = _records(out)
    assert {r["type"] for r in records} == {"SUBNUM", "SUBGEN"}
    subnum = next(r for r in records if r["type"] == "SUBNUM")
    assert subnum["varied_src"] == "Er kam 4 Tage zu spät." and subnum["varied_ref"] == "He came 4 days late."
    assert subnum["id"] == "a-SUBNUM-000"
    assert (out / "plain" / "variations.num.de").read_text(encoding="utf-8") == "Er kam 4 Tage zu spät.\n"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"id": "", "src": "B.", "tgt": "B."}, "in.jsonl:2: 'id' is empty"),  # was the source_id "" of records
        ({"id": " ", "src": "B.", "tgt": "B."}, "in.jsonl:2: 'id' is empty"),
        ({"id": "a", "src": "B.", "tgt": "B."}, "in.jsonl:2: duplicate id 'a'"),
        ({"id": 2, "src": "B.", "tgt": "B."}, "in.jsonl:2: fields 'id', 'src' and 'tgt' must be strings"),
    ],
)
def test_bad_jsonl_id_names_file_and_line(tmp_path: Path, bad: dict, message: str) -> None:
    rows = [{"id": "a", "src": "He came 3 days late.", "tgt": "Er kam 3 Tage zu spät."}, bad]
    path = _write(tmp_path / "in.jsonl", [json.dumps(r) for r in rows])
    config = VariationsConfig(jsonl=str(path), types=["SUBNUM"], aligner="unique")
    with pytest.raises(InputError, match=message):
        VariationsBuilder(config).build(tmp_path / "out", quiet=True)
    assert not any(p.is_file() for p in (tmp_path / "out").rglob("*"))  # nothing half-written


def test_line_count_mismatch_names_both_counts(tmp_path: Path) -> None:
    en = _write(tmp_path / "a.en", ["One.", "Two."])
    de = _write(tmp_path / "a.de", ["Eins."])
    with pytest.raises(InputError, match=r"has 2 lines.*has 1 lines"):
        VariationsBuilder(VariationsConfig(src=str(en), tgt=str(de))).build(tmp_path / "out", quiet=True)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("very\tsehr\tdegree\textra", "expected 3 tab-separated fields, got 4"),
        ("very sehr degree", "expected 3 tab-separated fields, got 1"),
        ("very\tsehr\tsomewhere", "slot 'somewhere'"),
        ("Very\tsehr\tdegree", "lowercase single words"),
    ],
)
def test_malformed_lexicon_row_names_file_and_row(tmp_path: Path, row: str, message: str) -> None:
    en = _write(tmp_path / "a.en", ["It is 5 km."])
    de = _write(tmp_path / "a.de", ["Es sind 5 km."])
    lexicon = _write(tmp_path / "ins.tsv", ["# comment", "also\tauch\tverbal", row])
    config = VariationsConfig(src=str(en), tgt=str(de), insertion_lexicon=str(lexicon))
    with pytest.raises(InputError, match=rf"ins.tsv:3: malformed lexicon row: .*{message}"):
        VariationsBuilder(config).build(tmp_path / "out", quiet=True)


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"num_offsets": [0, 1]}, "num_offsets"),
        ({"types": ["DEL", "SWAP"]}, "types"),
        ({"ins_threshold": 0.0}, "ins_threshold"),
        ({"tgt_lang": "fr"}, "tgt_lang"),
        # SUBNUM with no offsets made no item and counted no drop
        ({"num_offsets": []}, "'num_offsets': empty, but types has SUBNUM"),
        # the message named two keys, whichever was off
        ({"ins_max_shift": -1.0}, r"^config key 'ins_max_shift': must be in \(0, 1\], got -1\.0$"),
        ({"ins_min_count": 0}, r"^config key 'ins_min_count': must be >= 1, got 0$"),
        ({"lines_per_unit": 0}, r"^config key 'lines_per_unit': must be >= 1, got 0$"),
    ],
)
def test_config_errors_name_the_key(overrides: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        VariationsConfig.from_mapping({"src": "a.en", "tgt": "a.de", **overrides})


def test_eflomal_aligner_option_is_cached_and_reproducible(tmp_path: Path) -> None:
    from builders.core.resources import resource_path
    from builders.variations.backends import aligner_probe

    probe = aligner_probe("eflomal")
    if not probe.available:
        pytest.skip(probe.reason)
    values = load_config_file(resource_path("samples", "variations", "demo.yaml"))
    config = VariationsConfig.from_mapping({**values, "aligner": "eflomal", "types": ["DEL", "INS"],
                                            "alignment_cache": str(tmp_path / "cache")})
    first = VariationsBuilder(config).build(tmp_path / "a", quiet=True)
    second = VariationsBuilder(config).build(tmp_path / "b", quiet=True)
    # eflomal is unseeded: the link cache makes the data hold; the card's signature says where the links came from
    data_files = {k: v for k, v in _tree_digest(first).items() if k != "README.md"}
    assert data_files == {k: v for k, v in _tree_digest(second).items() if k != "README.md"}
    records = _records(first)
    assert records and all(record_problems(r) == [] for r in records)
    tools = json.loads((first / "info.json").read_text(encoding="utf-8"))["tools"]
    assert tools["aligner"].startswith("eflomal-") and tools["alignment_links"] == "computed"
    second_tools = json.loads((second / "info.json").read_text(encoding="utf-8"))["tools"]
    assert second_tools["alignment_links"] == "cache"  # the signature says where eflomal's links came from


def test_number_change_with_article_repair_validates(tmp_path: Path) -> None:
    """'a 9.4' -> 'an 8.4': the article repaired with the number is part of one number change (issue 15)."""
    from builders.core.validate import validate_dataset

    (tmp_path / "r.en").write_text("The firm posted a 9.4 per cent rise.\n", encoding="utf-8")
    (tmp_path / "r.de").write_text("Die Firma meldete einen Anstieg um 9,4 Prozent.\n", encoding="utf-8")
    config = VariationsConfig(src=str(tmp_path / "r.en"), tgt=str(tmp_path / "r.de"), name="r", types=["SUBNUM"])
    folder = VariationsBuilder(config).build(tmp_path / "out", quiet=True)
    repaired = [r for r in _records(folder) if r["parameters"]["new_src"].startswith("an ")]
    assert [r["varied_src"] for r in repaired] == ["The firm posted an 8.4 per cent rise.",
                                                    "The firm posted an 11.4 per cent rise."]
    assert all(record_problems(r) == [] for r in _records(folder))
    validate_dataset(folder)


def test_subnum_validation_reads_each_side_in_its_convention() -> None:
    """'9.975' is nine point nine seven five in English and '9,975' the same in German: n-5 is 4.975 on both
    sides (the validator once read both as 9975)."""
    edit = {"start": 0, "end": 5, "varied_start": 0, "varied_end": 5}
    record = {
        "type": "SUBNUM", "direction": "en-de", "parameters": {"k": -5},
        "original_src": "9.975 percent", "varied_src": "4.975 percent",
        "original_ref": "9,975 Prozent", "varied_ref": "4,975 Prozent",
        "edits_src": [{**edit, "old": "9.975", "new": "4.975"}],
        "edits_ref": [{**edit, "old": "9,975", "new": "4,975"}],
    }
    assert record_problems(record) == []
    record["edits_ref"] = [{**edit, "old": "9,975", "new": "4,975"}]
    record["direction"] = "de-en"  # read the other way round the numbers no longer differ by 5
    assert record_problems(record)


def test_plan_keeps_lines_in_the_work_folder_in_input_order(tmp_path: Path) -> None:
    """Issue 26: the plan holds offsets, not lines; lines with an empty side stay in place although spaCy reads
    ahead (batches of 2 here), and units read their lines back in order."""
    import pickle

    from builders.core.context import BuildContext
    from builders.core.lazy import LazySequence
    from builders.variations.plan import prepare
    from builders.variations.strategies.base import SentencePair
    from builders.variations.units import make_units

    english = ["She often sings.", "", "He has 3 cats.", "", "", "They walked home.", "It rains.", ""]
    german = ["Sie singt oft.", "Leer.", "Er hat 3 Katzen.", "", "", "Sie gingen nach Hause.", "Es regnet.", ""]
    config = VariationsConfig(src=str(_write(tmp_path / "a.en", english)), tgt=str(_write(tmp_path / "a.de", german)),
                              spacy_batch_size=2, lines_per_unit=3, aligner="diagonal")
    plan = prepare(config, BuildContext(config=config, work_dir=tmp_path / "work", quiet=True))
    units = make_units(plan.lines)
    lines = [line for unit in units for line in unit.payload.pairs]
    assert isinstance(units, LazySequence) and [u.key for u in units] == ["lines-0000000", "lines-0000003",
                                                                         "lines-0000006"]
    assert [(line.line, line.en) if isinstance(line, SentencePair) else line[1] for line in lines] == [
        (1, "She often sings."), 2, (3, "He has 3 cats."), 4, 5, (6, "They walked home."), (7, "It rains."), 8]
    assert all(line.alignment for line in lines if isinstance(line, SentencePair))
    assert (plan.lines.lines, plan.lines.sentences) == (8, 4)
    stored = pickle.dumps(plan.lines)
    assert b"sings" not in stored and len(stored) < 1000


def test_a_line_too_long_to_align_is_a_counted_drop(tmp_path: Path) -> None:
    """A line of thousands of words held the build for minutes in the diagonal aligner (3,000 words: 30 s)."""
    from builders.variations.plan import MAX_LINE_WORDS

    long_line = " ".join(f"w{n % 997}" for n in range(MAX_LINE_WORDS + 1))
    en = _write(tmp_path / "a.en", ["He came 3 days late.", long_line, "She waited 4 hours."])
    de = _write(tmp_path / "a.de", ["Er kam 3 Tage zu spät.", "kurz", "Sie wartete 4 Stunden."])
    out = VariationsBuilder(VariationsConfig(src=str(en), tgt=str(de), types=["SUBNUM"], num_offsets=[1])).build(
        tmp_path / "out", quiet=True)
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    assert info["counts"]["dropped"]["line_too_long"] == 1
    dropped = [json.loads(line) for line in (out / "dropped.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [d["line"] for d in dropped if d["reason"] == "line_too_long"] == [2]
    assert {r["line"] for r in _records(out)} == {1, 3}  # the lines around it are parsed and varied as before
