"""Issue 26: the kept rows stay on disk (checkpoint chunks) and every stage after the units streams them.

The view's order and length over loaded and new chunks (what --resume sees), the pronouns' balanced sample
through positions (same items, same dropped.jsonl entries in the same order, same notes as the sample of a list),
and the writer's parquet shards of a multi-shard split (the bytes of the slices of one whole-split table).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from toy_builder import ToyBuilder, ToyConfig

from builders.core import writer
from builders.core.checkpoint import Checkpoint
from builders.core.context import BuildContext, Counts, Row
from builders.core.errors import MtprobesError
from builders.pronouns.builder import PronounsBuilder, distribution_notes, over_quota_details
from builders.pronouns.config import PronounsConfig


def rows_of(start: int, n: int) -> list[Row]:
    return [Row(split="test", record={"id": f"r{i}", "n": i}) for i in range(start, start + n)]


def test_the_view_reads_loaded_and_new_chunks_in_order(tmp_path: Path) -> None:
    first = Checkpoint(tmp_path, "toy.v1", {"seed": 1}, {})
    first.reset()
    first.save(["u0"], rows_of(0, 3), Counts(read=3, kept=3))
    first.save(["u1"], rows_of(3, 0), Counts(read=1))
    first.save(["u2"], rows_of(3, 4), Counts(read=4, kept=4))
    # a resumed build: the chunks are loaded (counts only in memory), then its own units are saved after them
    resumed = Checkpoint(tmp_path, "toy.v1", {"seed": 1}, {})
    loaded = list(resumed.load(["u0", "u1", "u2", "u3"]))
    assert [c.unit_keys for c in loaded] == [["u0"], ["u1"], ["u2"]]
    resumed.save(["u3"], rows_of(7, 2), Counts(read=2, kept=2))
    rows = resumed.rows()
    assert len(rows) == 9
    assert [r.record["n"] for r in rows] == list(range(9))
    assert [r.record["n"] for r in rows] == list(range(9))  # re-iterable: read from disk again
    picked = rows.select([8, 0, 5, 3])
    assert (len(picked), [r.record["n"] for r in picked]) == (4, [0, 3, 5, 8])
    assert [r.record["n"] for r in picked.select([1, 3])] == [3, 8]  # positions within the selection


def test_a_chunk_changed_during_the_build_is_refused(tmp_path: Path) -> None:
    checkpoint = Checkpoint(tmp_path, "toy.v1", {"seed": 1}, {})
    checkpoint.reset()
    checkpoint.save(["u0"], rows_of(0, 3), Counts(read=3, kept=3))
    chunk = tmp_path / "chunk-000000.pkl"
    chunk.write_bytes(chunk.read_bytes()[:-1] + b"x")
    with pytest.raises(MtprobesError, match="changed during the build"):
        list(checkpoint.rows())


def pronoun_record(i: int) -> dict[str, Any]:
    label = ("er", "sie", "es", "es", "sie", "es")[i % 6]
    return {"id": f"p{i}", "document id": f"d{i // 5}", "segment id": i, "src pronoun": "it", "src pronoun id": 2,
            "confidence": 0.5 + i / 100, "src segment": f"segment {i} with it", "ref segment": f"Satz {i} {label}",
            "ref pronoun": label, "pronoun class": label, "ante distance": i % 3}


def list_sample(rows: list[Row], per_class: int, ctx: BuildContext) -> list[Row]:
    """The balanced sample as it was made of a list of rows before issue 26 (the reference)."""
    by_class: dict[str, list[int]] = {}
    for position, row in enumerate(rows):
        by_class.setdefault(row.record["pronoun class"], []).append(position)
    keep: set[int] = set()
    for label, positions in sorted(by_class.items()):
        quota = per_class or len(positions)
        if len(positions) > quota:
            chosen = ctx.rng("balanced-sample", label).choice(len(positions), size=quota, replace=False)
            keep.update(positions[i] for i in chosen)
            for left_out in sorted(set(positions) - {positions[i] for i in chosen}):
                ctx.unkeep("over_quota", **over_quota_details(rows[left_out].record, quota))
        else:
            keep.update(positions)
    sampled = [row for position, row in enumerate(rows) if position in keep]
    ctx.notes.update(distribution_notes([r.record for r in sampled]))
    return sampled


def dropped_entries(ctx: BuildContext) -> list[dict[str, Any]]:
    ctx.spill_dropped()
    if not ctx.dropped_spill.is_file():
        return []
    return [json.loads(line) for line in ctx.dropped_spill.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("per_class", [0, 3, 7])
def test_pronoun_sampling_per_class_through_the_view(tmp_path: Path, per_class: int) -> None:
    rows = [Row(split="test", record=pronoun_record(i)) for i in range(40)]
    checkpoint = Checkpoint(tmp_path / "checkpoint", "pronouns.v1", {}, {})
    checkpoint.reset()
    for start in range(0, 40, 6):  # chunks of 6 rows: a class's positions span several chunks
        checkpoint.save([f"u{start}"], rows[start : start + 6], Counts())
    config = PronounsConfig(input_format="jsonl", jsonl=str(tmp_path / "unused.jsonl"), per_class=per_class, seed=7)
    expected_ctx = BuildContext(config=config, work_dir=tmp_path / "expected")
    expected_ctx.counts.kept = 40
    expected = list_sample(rows, per_class, expected_ctx)
    ctx = BuildContext(config=config, work_dir=tmp_path / "streamed")
    ctx.counts.kept = 40
    sampled = PronounsBuilder(config).finalize(checkpoint.rows(), None, ctx)  # type: ignore[arg-type]
    assert len(sampled) == len(expected) == {0: 40, 3: 9, 7: 21}[per_class]  # er 7, sie 13, es 20 items
    assert [r.record["id"] for r in sampled] == [r.record["id"] for r in expected]
    assert dropped_entries(ctx) == dropped_entries(expected_ctx)
    assert len(dropped_entries(ctx)) == 40 - len(expected)
    assert ctx.notes == expected_ctx.notes and ctx.counts.kept == expected_ctx.counts.kept == len(expected)


@pytest.mark.parametrize("encode_batch", [1000, 3])
def test_a_multi_shard_split_has_the_bytes_of_a_whole_split_table_sliced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encode_batch: int
) -> None:
    """Shards written from batches of shard_size records (encoded 3 at a time: a shard made of several Arrow
    parts) equal the slices of one table of the split (the writer before issue 26), and the hf/ copy (from the
    memory-mapped Arrow file) holds every record in order."""
    monkeypatch.setattr(writer, "ENCODE_BATCH", encode_batch)
    lines = [f"sentence number {i} " + "word " * (i % 7) for i in range(40)]
    (tmp_path / "src.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "tgt.txt").write_text("\n".join(f"Satz {i}" for i in range(40)) + "\n", encoding="utf-8")
    config = ToyConfig(src=str(tmp_path / "src.txt"), tgt=str(tmp_path / "tgt.txt"), shard_size=7,
                       checkpoint_every=2)
    builder = ToyBuilder(config)
    folder = builder.build(tmp_path / "out", quiet=True)
    records = [json.loads(line) for line in (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    features = builder.features()
    whole = pa.Table.from_pylist([features.encode_example(r) for r in records], schema=features.arrow_schema)
    shards = sorted((folder / "data").glob("test-*.parquet"))
    assert len(records) > 14 and len(shards) == -(-len(records) // 7)
    for index, shard in enumerate(shards):
        assert shard.name == f"test-{index:05d}-of-{len(shards):05d}.parquet"
        expected = tmp_path / f"expected-{index}.parquet"
        pq.write_table(whole.slice(index * 7, 7), expected, compression="zstd")
        assert shard.read_bytes() == expected.read_bytes()
    assert datasets.load_from_disk(str(folder / "hf" / "default"))["test"].to_list() == records
    assert not (folder.parent / ".v1.partial").exists()  # the work folder (chunks, Arrow files) is gone
