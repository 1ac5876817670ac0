"""Every card says what its set is: a table of every record field with its type and meaning."""

from __future__ import annotations

import pytest

from builders.core.fields import fields_table, missing_meanings, type_name
from builders.core.registry import get_builder_class

FAMILIES = ["pronouns.v1", "variations.v1", "shuffles.v1", "commute_ext.v1"]


@pytest.mark.parametrize("name", FAMILIES)
def test_every_record_field_has_a_meaning(name: str) -> None:
    builder_class = get_builder_class(name)
    builder = builder_class.__new__(builder_class)  # features() needs no config
    features = builder.features()
    assert missing_meanings(features, builder_class.field_meanings) == []
    table = fields_table(features, builder_class.field_meanings)
    assert table.count("\n| `") == len(features)


def test_type_names_say_what_a_field_holds() -> None:
    import datasets

    assert type_name(datasets.Value("int32")) == "int32"
    assert type_name([datasets.Value("string")]) == "list of string"
    assert type_name([{"contrastive": datasets.Value("string"), "type": datasets.Value("string")}]) == \
        "list of {contrastive, type}"
    assert missing_meanings(datasets.Features({"a": datasets.Value("int32")}), {"b": "x"}) == [
        "a: no meaning", "b: not a field"]
