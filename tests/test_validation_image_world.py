"""The synthetic image world: agreement in the German sentences, seeded pictures, the layouts the builders read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError
from builders.validation.image_world import (
    COLOURS,
    POSITIONS,
    Scene,
    ambiguous_pairs,
    generate,
    load_senses,
    other_sense,
    sense_of_image,
    write_commute,
    write_multi30k,
)

SENSES = {s.key: s for s in load_senses()}
RED, LEFT = COLOURS[0], POSITIONS[0]


@pytest.mark.parametrize(
    ("sense", "template", "english", "german"),
    [
        ("bat-animal", 0, "The red bat is on the left.", "Die rote Fledermaus ist links."),
        ("bat-club", 0, "The red bat is on the left.", "Der rote Schläger ist links."),
        ("seal-stamp", 0, "The red seal is on the left.", "Das rote Siegel ist links."),
        ("bat-club", 1, "I see the red bat on the left.", "Ich sehe den roten Schläger links."),
        ("bat-animal", 1, "I see the red bat on the left.", "Ich sehe die rote Fledermaus links."),
        ("bat-club", 2, "A red bat is on the left.", "Ein roter Schläger ist links."),
        ("seal-stamp", 2, "A red seal is on the left.", "Ein rotes Siegel ist links."),
        ("key-door", 3, "There is a red key on the left.", "Es gibt einen roten Schlüssel links."),
        ("key-button", 3, "There is a red key on the left.", "Es gibt eine rote Taste links."),
    ],
)
def test_sentences_agree_with_the_sense_gender(sense: str, template: int, english: str, german: str) -> None:
    scene = Scene(SENSES[sense], RED, LEFT, template, draw_seed=0)
    assert (scene.english, scene.german()) == (english, german)


def test_the_contrastive_translation_only_swaps_the_sense() -> None:
    scene = Scene(SENSES["mole-animal"], RED, LEFT, 2, draw_seed=0)
    other = other_sense(list(SENSES.values()), scene.sense)
    assert other.key == "mole-skin" and other.word == scene.sense.word
    assert scene.german(other) == "Ein rotes Muttermal ist links."
    assert scene.caption == "a red mole animal on the left"


def test_the_sense_table_is_complete_and_checked(tmp_path: Path) -> None:
    senses = load_senses()
    assert len(senses) == 16 and len({s.word for s in senses}) == 8
    assert len({s.glyph for s in senses}) == 16 and len({s.german for s in senses}) == 16
    bad = tmp_path / "senses.tsv"
    bad.write_text("bat-animal\tbat\tflying bat\tFledermaus\tx\ttriangle\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"senses.tsv:1: gender"):
        load_senses(bad)
    bad.write_text("bat-animal\tbat\tflying bat\tFledermaus\tf\ttriangle\n", encoding="utf-8")
    with pytest.raises(InputError, match="two senses"):
        load_senses(bad)


def test_scenes_are_seeded_balanced_and_glyphs_differ() -> None:
    first, again, other = generate(64, seed=3), generate(64, seed=3), generate(64, seed=4)
    assert first == again and first != other
    assert {s.sense.key for s in first} == set(SENSES)
    pixels = np.asarray(first[0].image())
    assert pixels.shape == (64, 64, 3)
    assert np.array_equal(pixels, np.asarray(again[0].image()))
    # the glyph really is drawn: the same scene with another sense's glyph gives other pixels
    swapped = Scene(SENSES["bat-club"], first[0].colour, first[0].position, first[0].template, first[0].draw_seed)
    assert first[0].sense.key == "bat-animal"
    assert (np.asarray(swapped.image()) != pixels).any(axis=2).sum() > 20


def test_commute_layout_repeats_each_source_with_swapped_translations(tmp_path: Path) -> None:
    pairs = ambiguous_pairs(8, seed=2)
    folder = write_commute(pairs, tmp_path / "commute")
    read = {name: (folder / name).read_text(encoding="utf-8").splitlines()
            for name in ("src.en", "correct.de", "incorrect.de", "img.order")}
    assert len(read["src.en"]) == 16 and {a.sense.word for a, _ in pairs} == {s.word for s in SENSES.values()}
    for line in range(0, 16, 2):
        assert read["src.en"][line] == read["src.en"][line + 1]
        assert read["correct.de"][line] == read["incorrect.de"][line + 1]
        assert read["incorrect.de"][line] == read["correct.de"][line + 1]
        assert sense_of_image(read["img.order"][line]) != sense_of_image(read["img.order"][line + 1])
    assert all((tmp_path / "commute" / "images" / name).is_file() for name in read["img.order"])


def test_multi30k_layout_is_line_aligned(tmp_path: Path) -> None:
    scenes = generate(5, seed=1)
    names = write_multi30k(scenes, tmp_path, "test")
    assert (tmp_path / "test.en").read_text(encoding="utf-8").splitlines() == [s.english for s in scenes]
    assert (tmp_path / "test.de").read_text(encoding="utf-8").splitlines() == [s.german() for s in scenes]
    assert (tmp_path / "test.images.txt").read_text(encoding="utf-8").splitlines() == names
    assert [sense_of_image(n) for n in names] == [s.sense.key for s in scenes]
