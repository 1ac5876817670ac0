"""Issue 26: what travels to every worker does not grow with the corpus, and --resume cannot mix two alignments
or two English pipelines."""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from builders.core.compat import spacy_english
from builders.core.config import load_config_file
from builders.core.context import BuildContext
from builders.core.errors import MtprobesError
from builders.core.executors import LocalExecutor, Result, Shared, Task
from builders.core.resources import resource_path
from builders.pronouns import align
from builders.pronouns.builder import PronounsBuilder
from builders.pronouns.config import PronounsConfig
from builders.pronouns.english import PipelinePin, load_pinned

pytestmark = pytest.mark.skipif(not spacy_english().available, reason=spacy_english().reason)
DEMO = resource_path("samples", "pronouns")


def repeated_demo(folder: Path, times: int) -> tuple[Path, Path]:
    """The demo corpus ``times`` over: documents are numbered by position, so every copy has its own ids."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in ("en", "de"):
        path = folder / f"corpus.{suffix}"
        path.write_text((DEMO / f"demo.{suffix}").read_text(encoding="utf-8") * times, encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def demo_config(**overrides: Any) -> PronounsConfig:
    values = load_config_file(DEMO / "demo.yaml")
    values.update(overrides)
    return PronounsConfig.from_mapping(values)


def file_hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_shared_plan_workers_get_does_not_grow_with_the_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the executor gets as its per-worker shared data for the units is the same size at 1x and 4x the
    corpus; each unit carries its own documents, so the largest unit does not grow either."""
    sent: list[tuple[int, int]] = []  # (pickled shared data, largest pickled item) of each map
    original = LocalExecutor.map

    def recording(self: LocalExecutor, task: Task[Any, Shared, Result], items: Sequence[Any],
                  shared: Shared) -> Iterator[Result]:
        sent.append((len(pickle.dumps(shared)), max(len(pickle.dumps(item)) for item in items)))
        return original(self, task, items, shared)

    monkeypatch.setattr(LocalExecutor, "map", recording)
    sizes = []
    for times in (1, 4):
        src, tgt = repeated_demo(tmp_path / f"x{times}", times)
        config = demo_config(src=str(src), tgt=str(tgt), docs_per_unit=2)
        PronounsBuilder(config).build(tmp_path / f"out{times}", quiet=True)
        sizes.append(sent[-1])  # the last map is the units'
    (shared_1, unit_1), (shared_4, unit_4) = sizes
    assert shared_4 == shared_1 < 4000  # builder (its config), corpus name, pinned pipeline: no documents
    assert unit_4 == unit_1  # two documents, links included, whatever the corpus size


def test_resume_reads_the_interrupted_builds_links_after_the_cache_is_emptied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Links that came from the shared cache are copied into the work folder: emptying the cache before
    --resume neither runs the aligner again nor changes a byte."""
    cache = tmp_path / "cache"
    config = demo_config(alignment_cache=str(cache), checkpoint_every=4)
    reference = PronounsBuilder(config).build(tmp_path / "reference", quiet=True)  # fills the cache
    interrupt_after_units(monkeypatch, 10)
    with pytest.raises(KeyboardInterrupt):
        PronounsBuilder(config).build(tmp_path / "out", quiet=True)
    monkeypatch.undo()
    shutil.rmtree(cache)

    def no_aligning(*args: Any) -> Any:
        raise AssertionError("the aligner ran again on --resume")

    monkeypatch.setitem(align.ALIGNERS, config.aligner, replace(align.ALIGNERS[config.aligner], links=no_aligning))
    resumed = PronounsBuilder(config).build(tmp_path / "out", resume=True, quiet=True)
    assert file_hashes(resumed) == file_hashes(reference)


def test_resume_refuses_a_checkpoint_made_with_other_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint pins the sha256 of the links its units used: other links (here: one segment's links
    edited in the work folder, as a second eflomal sample would give) are refused, naming them."""
    config = demo_config(checkpoint_every=4)
    interrupt_after_units(monkeypatch, 10)
    with pytest.raises(KeyboardInterrupt):
        PronounsBuilder(config).build(tmp_path, quiet=True)
    monkeypatch.undo()
    (links_file,) = (tmp_path / "pronouns" / "demo" / ".v1.partial" / "alignment").glob("*.json")
    links = json.loads(links_file.read_text(encoding="utf-8"))
    first = next(k for k, line in enumerate(links["forward"]) if line)
    links["forward"][first] = ""
    links_file.write_text(json.dumps(links), encoding="utf-8")
    with pytest.raises(MtprobesError, match=r"cannot resume, the inputs \(alignment_links\) differ"):
        PronounsBuilder(config).build(tmp_path, resume=True, quiet=True)


def test_an_empty_spacy_model_is_resolved_once_and_pinned(tmp_path: Path) -> None:
    """The driver resolves the best installed pipeline and pins its name and version in the shared plan; a
    worker with another version of it stops with one line instead of parsing with it."""
    from builders.core.context import BuildContext

    config = demo_config(spacy_model="")
    plan = PronounsBuilder(config).prepare(BuildContext(config=config, work_dir=tmp_path, quiet=True))
    pin = plan.shared.pipeline
    assert pin.name == spacy_english().name and pin.version
    assert load_pinned(pin).name == pin.name
    with pytest.raises(MtprobesError, match=rf"{pin.name}.* on this worker, 0\.0\.1 on the driver"):
        load_pinned(PipelinePin(pin.name, "0.0.1"))


def interrupt_after_units(monkeypatch: pytest.MonkeyPatch, units: int) -> None:
    """A simulated kill of the driver after ``units`` units (checkpoints of the finished chunks stay)."""
    original = PronounsBuilder.process
    calls = {"n": 0}

    def interrupted(self: PronounsBuilder, unit: Any, plan: Any, ctx: Any) -> Any:
        calls["n"] += 1
        if calls["n"] > units:
            raise KeyboardInterrupt("simulated kill")
        return original(self, unit, plan, ctx)

    monkeypatch.setattr(PronounsBuilder, "process", interrupted)


def test_the_driver_keeps_offsets_per_document_not_the_segments(tmp_path: Path) -> None:
    """Issue 26: prepare() writes the screened segments, aligner lines and link lines to the work folder and
    keeps offsets per document; units read their documents back when taken. The plan grows by a few bytes per
    document (the demo: 32 documents), not by the text, aligner lines and links of its segments."""
    sizes, units = [], []
    for times in (1, 8):
        src, tgt = repeated_demo(tmp_path / f"x{times}", times)
        config = demo_config(src=str(src), tgt=str(tgt), docs_per_unit=2)
        builder = PronounsBuilder(config)
        plan = builder.prepare(BuildContext(config=config, work_dir=tmp_path / f"work{times}", quiet=True))
        sizes.append(len(pickle.dumps(plan)))
        made = builder.units(plan)
        assert not isinstance(made, list)  # made when taken
        units.append([(unit.key, pickle.dumps(unit.payload)) for unit in made])
    added_documents = 32 * 7
    assert (sizes[1] - sizes[0]) / added_documents <= 40  # int64 offsets: documents, segments, links (both)
    payloads = [sum(len(payload) for _, payload in made) for made in units]  # what the plan held before
    assert sizes[1] - sizes[0] < (payloads[1] - payloads[0]) / 5
    assert len(units[1]) == 8 * len(units[0]) == 8 * 16
    assert units[1][0][1] != units[1][1][1]  # each unit its own documents
