"""Sets built from the real shared data validate, keep apart, and catch tampered extras.

Uses ../shared/data (skipped when absent): NC-2016 documents for pronouns.v1, Multi30K text for shuffles.v1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders.core.compat import spacy_english
from builders.core.config import load_config_file
from builders.core.errors import ValidationFailed
from builders.core.resources import resource_path
from builders.core.validate import validate_dataset
from builders.shuffles.builder import ShufflesBuilder
from builders.shuffles.config import ShufflesConfig


@pytest.fixture(scope="module")
def nc2016_pronouns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not spacy_english().available:
        pytest.skip(spacy_english().reason)
    from conftest import SHARED_DATA

    folder = SHARED_DATA / "docs-ende" / "NC-2016"
    if not folder.is_dir():
        pytest.skip("../shared/data is absent (real public data for tests)")
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    out = tmp_path_factory.mktemp("nc2016")
    config = PronounsConfig(src=str(folder / "dev.en"), tgt=str(folder / "dev.de"), corpus="NC-2016",
                            min_confidence=0.0, alignment_cache=str(out / "align-cache"))
    return PronounsBuilder(config).build(out / "sets", quiet=True)


def test_pronouns_on_nc2016_validates(nc2016_pronouns: Path) -> None:
    """Before: 'jsonl/test.jsonl:2: differs from the parquet record' (float32 confidence 0.33329999 vs 0.3333)."""
    assert nc2016_pronouns.parent.name == "nc-2016"
    ds = validate_dataset(nc2016_pronouns)
    confidences = [r.record["confidence"] for r in ds.read_rows()]
    assert any(c not in (0.0, 1.0) for c in confidences), "the set should exercise non-trivial float32 values"


def test_contrapro_json_with_a_variant_as_reference_fails_validation(nc2016_pronouns: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(nc2016_pronouns, copy)
    items = json.loads((copy / "contrapro.json").read_text(encoding="utf-8"))
    items[1]["ref segment"] = items[1]["errors"][0]["contrastive"]
    (copy / "contrapro.json").write_text(json.dumps(items, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    with pytest.raises(ValidationFailed, match=r"contrapro\.json:\d+: differs from the records"):
        validate_dataset(copy)


def test_edited_export_fails_validation(nc2016_pronouns: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(nc2016_pronouns, copy)
    text = copy / "export" / "text.de"
    lines = text.read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2] + " x"
    text.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ValidationFailed, match=r"export/text\.de:3: differs from the records"):
        validate_dataset(copy)


def test_multi30k_splits_build_into_their_own_folders(shared_data: Path, tmp_path: Path) -> None:
    """Before: building split=val then split=test_2016_flickr said 'already exists; pass --overwrite'."""
    paths = [
        ShufflesBuilder(ShufflesConfig(data_dir=str(shared_data / "multi30k"), split=split, shuffles=2)).build(
            tmp_path, quiet=True)
        for split in ("val", "test_2016_flickr")
    ]
    assert [p.relative_to(tmp_path).as_posix() for p in paths] == ["shuffles/val/v1", "shuffles/test_2016_flickr/v1"]
    for path in paths:
        validate_dataset(path)


def test_a_shuffle_order_file_giving_an_example_its_own_image_fails(tmp_path: Path) -> None:
    values = load_config_file(resource_path("samples", "shuffles", "demo.yaml"))
    path = ShufflesBuilder(ShufflesConfig.from_mapping(values)).build(tmp_path, quiet=True)
    assert path.relative_to(tmp_path).as_posix() == "shuffles/sample/v1"
    own = (path / "extras" / "sample.images.txt").read_text().split("\n")
    shuffled_path = path / "extras" / "sample.images.txt-random1"
    shuffled = shuffled_path.read_text().split("\n")
    shuffled[3] = own[3]
    shuffled_path.write_text("\n".join(shuffled))
    with pytest.raises(ValidationFailed, match=r"sample\.images\.txt-random1:4: example \S+ gets its own image"):
        validate_dataset(path)
