from __future__ import annotations

import pytest

from builders.core.errors import MtprobesError, UnknownBuilderError
from builders.core.registry import entries, get_builder_class, register, resolve_name


def test_all_four_families_are_registered() -> None:
    names = {e.name for e in entries()}
    assert {"pronouns.v1", "variations.v1", "shuffles.v1", "commute_ext.v1"} <= names


@pytest.mark.parametrize(
    ("query", "suggestion"),
    [("pronoun.v1", "pronouns.v1"), ("shufles.v1", "shuffles.v1"), ("variation", "variations.v1")],
)
def test_unknown_names_suggest_the_closest(query: str, suggestion: str) -> None:
    with pytest.raises(UnknownBuilderError, match=f"did you mean '{suggestion}'"):
        resolve_name(query)


def test_bare_family_resolves_to_latest_version() -> None:
    assert resolve_name("pronouns") == "pronouns.v1"


def test_registered_target_must_be_a_builder() -> None:
    register("notabuilder.v1", "builders.core.config:BuildConfig", "not a builder")
    with pytest.raises(MtprobesError, match="not a Builder subclass"):
        get_builder_class("notabuilder.v1")


@pytest.mark.parametrize("bad", ["nover", "x.1", "x.vv"])
def test_names_must_be_versioned(bad: str) -> None:
    with pytest.raises(MtprobesError, match="family.vN"):
        register(bad, "a:b", "")
