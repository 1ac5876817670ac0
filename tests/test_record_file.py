"""core.record_file (issue 26): records go to disk as they are made and come back one at a time, by offset."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from builders.core.lazy import LazySequence
from builders.core.record_file import RecordFile


def test_records_come_back_in_order_one_or_a_range_at_a_time(tmp_path: Path) -> None:
    records: RecordFile[tuple[str, list[int]]] = RecordFile(tmp_path / "deep" / "records.pickle")
    made = [(f"record {n}", list(range(n))) for n in range(5)]
    for record in made:
        records.append(record)
    records.close()
    assert len(records) == 5
    assert [records.read(n)[0] for n in range(5)] == made
    assert records.read(1, 4) == made[1:4] and records.read(2, 2) == []
    with pytest.raises(IndexError, match="records 5..6 of 5"):
        records.read(5)


def test_the_pickled_file_object_holds_offsets_not_records(tmp_path: Path) -> None:
    """What a plan holds (and what pickling it costs) is 8 bytes per record, whatever the records hold."""
    records: RecordFile[str] = RecordFile(tmp_path / "records.pickle")
    for n in range(100):
        records.append(f"a long record number {n} " * 50)
    records.close()
    stored = pickle.dumps(records)
    assert b"long record" not in stored and len(stored) < 100 * 8 + 500
    copy: RecordFile[str] = pickle.loads(stored)
    lazy = LazySequence(len(copy), lambda n: copy.read(n)[0])
    assert lazy[42] == "a long record number 42 " * 50 and len(lazy[90:]) == 10


def test_an_empty_file_has_no_records(tmp_path: Path) -> None:
    records: RecordFile[int] = RecordFile(tmp_path / "none.pickle")
    records.close()
    assert len(records) == 0 and records.read(0, 0) == []
