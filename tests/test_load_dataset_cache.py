"""`datasets.load_dataset(<built folder>)` through one cache gives each set its own rows.

Every built folder is called ``v1`` with config ``default``; before the card carried ``dataset_info`` the
three loads below shared one cache entry and all returned the first set's rows.
"""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
import yaml

from builders.core.config import load_config_file
from builders.core.registry import get_builder_class
from builders.core.resources import resource_path


def build_demo(family: str, out: Path, **overrides: object) -> Path:
    builder_class = get_builder_class(family)
    values = {**load_config_file(resource_path("samples", family, "demo.yaml")), **overrides}
    try:
        return builder_class(builder_class.config_class.from_mapping(values)).build(out, quiet=True)
    except ModuleNotFoundError as err:  # an optional backend (spaCy, open_clip) of that family
        pytest.skip(f"{family}: {err}")


@pytest.fixture(scope="module")
def three_sets(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("sets")
    return [
        build_demo("pronouns", out, alignment_cache=str(out / "align-cache")),
        build_demo("variations", out),
        build_demo("commute_ext", out),
    ]


def test_three_sets_load_their_own_rows_through_one_cache(three_sets: list[Path], tmp_path: Path) -> None:
    assert {p.name for p in three_sets} == {"v1"}
    cache = tmp_path / "hf-cache"
    for path in three_sets:
        loaded = datasets.load_dataset(str(path), cache_dir=str(cache))
        expected = [json.loads(line)["id"] for line in (path / "jsonl" / "test.jsonl").read_text().splitlines()]
        assert loaded["test"]["id"] == expected, path
        assert set(loaded["test"].column_names) == set(json.loads((path / "jsonl" / "test.jsonl").read_text()
                                                                  .splitlines()[0]))


def test_the_card_names_corpus_and_licence(tmp_path: Path) -> None:
    path = build_demo("variations", tmp_path, corpus="mtprobes-sample", license="other",
                      license_name="mtprobes sample terms")
    header = yaml.safe_load((path / "README.md").read_text().split("---\n")[1])
    assert header["license"] == "other" and header["license_name"] == "mtprobes sample terms"
    assert "mtprobes-sample" in header["tags"]
    assert header["dataset_info"][0]["config_name"] == "default"
    assert header["dataset_info"][0]["splits"][0]["num_examples"] > 0


def test_license_other_without_a_name_is_refused() -> None:
    from builders.core.errors import ConfigError
    from builders.variations.config import VariationsConfig

    with pytest.raises(ConfigError, match="'license_name': required when license is 'other'"):
        VariationsConfig(src="a.en", tgt="a.de", license="other")


def test_an_edited_plain_file_fails_validation(three_sets: list[Path], tmp_path: Path) -> None:
    import shutil

    from builders.core.errors import ValidationFailed
    from builders.core.validate import validate_dataset

    copy = tmp_path / "variations"
    shutil.copytree(three_sets[1], copy)
    plain = sorted(name for name in json.loads((copy / "info.json").read_text())["files_sha256"]
                   if name.startswith("plain/"))
    assert plain, "variations.v1 writes plain/ files"
    lines = (copy / plain[0]).read_text().split("\n")
    lines[1] = "an edited line"
    (copy / plain[0]).write_text("\n".join(lines))
    with pytest.raises(ValidationFailed, match=f"{plain[0]}:2: differs from the records") as failed:
        validate_dataset(copy)
    assert f"{plain[0]}: changed since the build" in str(failed.value)


def test_the_card_body_names_the_input_corpus_and_its_terms(three_sets: list[Path]) -> None:
    card = (three_sets[0] / "README.md").read_text()
    assert "Input corpus: **mtprobes-demo**. Licence: unknown" in card


def test_an_edited_commute_slot_file_fails_validation(three_sets: list[Path], tmp_path: Path) -> None:
    import shutil

    from builders.core.errors import ValidationFailed
    from builders.core.validate import validate_dataset

    copy = tmp_path / "commute_ext"
    shutil.copytree(three_sets[2], copy)
    order = copy / "commute" / "slot1" / "img.order"
    lines = order.read_text().split("\n")
    lines[0], lines[1] = lines[1], lines[0]
    order.write_text("\n".join(lines))
    with pytest.raises(ValidationFailed, match=r"commute/slot1/img\.order:1: differs from the records"):
        validate_dataset(copy)


def test_commute_ext_with_exported_images_validates(tmp_path: Path) -> None:
    from builders.core.validate import validate_dataset

    path = build_demo("commute_ext", tmp_path, export_images=True)
    assert any((path / "commute" / "images" / "retrieved").iterdir())
    validate_dataset(path)


def test_a_set_of_several_configs_loads_without_a_config_name(tmp_path: Path) -> None:
    """shuffles.v1 has one config per condition and "all", the default: load_dataset(folder) gives every row
    (before, it gave the congruent 40 of 240), a condition loads by name, and hf/<subset>/ loads from disk."""
    path = build_demo("shuffles", tmp_path)
    header = yaml.safe_load((path / "README.md").read_text().split("---\n")[1])
    assert [c["config_name"] for c in header["configs"] if c.get("default")] == ["all"]
    info = json.loads((path / "info.json").read_text())
    cache = str(tmp_path / "hf-cache")
    everything = datasets.load_dataset(str(path), cache_dir=cache)
    congruent = datasets.load_dataset(str(path), "congruent", cache_dir=cache)
    shuffled = datasets.load_dataset(str(path), "random1", cache_dir=cache)
    split = next(iter(congruent))
    assert everything[split].num_rows == sum(splits[split] for splits in info["records"].values()) > 40
    assert congruent[split].num_rows == shuffled[split].num_rows > 0
    assert congruent[split]["input_image"] == congruent[split]["image"] != shuffled[split]["input_image"]
    card = (path / "README.md").read_text()
    for subset in info["records"]:
        assert f"`hf/{subset}/`" in card
        assert datasets.load_from_disk(str(path / "hf" / subset))[split].num_rows == info["records"][subset][split]
    blocks = {b["config_name"]: b for b in header["dataset_info"]}
    assert blocks["all"]["splits"][0]["num_examples"] == everything[split].num_rows


def test_without_a_corpus_name_the_card_names_the_input_files(three_sets: list[Path]) -> None:
    info = json.loads((three_sets[1] / "info.json").read_text())
    assert info["config"]["corpus"] == ""
    card = (three_sets[1] / "README.md").read_text()
    assert "Input files: `variations/sample.de`, `variations/sample.en` (no `corpus` named)." in card
    assert "/work/" not in card.split("## Contents")[0]  # folder and name only, no local paths
