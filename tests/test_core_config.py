from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from builders.core.config import BuildConfig
from builders.core.errors import ConfigError
from builders.core.resources import resources_root


@dataclass
class SampleConfig(BuildConfig):
    threshold: float = 0.5
    k: int = 5
    deltas: list[int] = field(default_factory=lambda: [1, 2])
    policy: Literal["random", "similar"] = "random"
    path: str = ""
    label: str | None = None


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (["k=7"], {"k": 7}),
        (["threshold=1"], {"threshold": 1.0}),
        (["deltas=[-1, 3]"], {"deltas": [-1, 3]}),
        (["policy=similar"], {"policy": "similar"}),
        (["label=abc", "seed=99"], {"label": "abc", "seed": 99}),
        (["path={resources}/x"], {"path": f"{resources_root()}/x"}),
        (["label=a: b"], {"label": "a: b"}),
        # YAML 1.1 wants a dot in a float: these were "expected float, got str '1e-1'"
        (["threshold=1e-1"], {"threshold": 0.1}),
        (["label=1e-1x"], {"label": "1e-1x"}),
    ],
)
def test_overrides_are_parsed_and_typed(overrides: list[str], expected: dict[str, object]) -> None:
    config = SampleConfig.from_sources(None, overrides)
    for key, value in expected.items():
        assert getattr(config, key) == value


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["thresold=0.1"], "did you mean 'threshold'"),
        (["k=abc"], "config key 'k': expected int, got str"),
        (["k=true"], "config key 'k': expected int"),
        (["deltas=[1, x]"], "config key 'deltas'"),
        (["policy=closest"], "config key 'policy': expected one of 'random', 'similar', got str 'closest'"),
        (["name=a/b"], "config key 'name'"),
        (["shard_size=0"], "config key 'shard_size'"),
        (["k"], "--set expects key=value"),
    ],
)
def test_bad_overrides_name_the_key(overrides: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        SampleConfig.from_sources(None, overrides)


def test_file_then_overrides_and_placeholders(tmp_path: Path) -> None:
    config_file = tmp_path / "c.yaml"
    config_file.write_text("k: 3\npath: '{resources}/samples'\nlabel: '{config_dir}/here'\n")
    config = SampleConfig.from_sources(config_file, ["k=4"])
    assert config.k == 4
    assert config.path == f"{resources_root()}/samples"
    assert config.label == f"{tmp_path.resolve()}/here"
    json_file = tmp_path / "c.json"
    json_file.write_text(json.dumps(config.to_dict()))
    assert SampleConfig.from_sources(json_file) == config


@pytest.mark.parametrize(
    ("content", "message"),
    [("- a\n- b\n", "must be a mapping"), ("k: [unclosed\n", "cannot parse config"), ("bogus: 1\n", "bogus"),
     # PyYAML's message spanned five lines and named "<unicode string>", not the file
     ("k: [unclosed\n", r"^\S*bad\.yaml:2:1: cannot parse config: expected ',' or '\]', but got '<stream end>' "
                        r"\(while parsing a flow sequence started on line 1, column 4\)$"),
     # a key given twice: the last one won without a word
     ("k: 3\nlabel: x\nk: 4\n", r"^\S*bad\.yaml:3: config key 'k' is given twice \(first on line 1\)"),
     ("outer:\n  a: 1\n  a: 2\n", r"bad\.yaml:3: config key 'a' is given twice")],
)
def test_bad_config_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message):
        SampleConfig.from_sources(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [('{"k": 3, "k": 4}', r"^\S*bad\.json: config key 'k' is given twice"),
     ('{"k": 3,\n "label": }', r"^\S*bad\.json:2:11: cannot parse config: Expecting value$")],
)
def test_bad_json_config_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message):
        SampleConfig.from_sources(path)


def test_a_float_without_a_dot_in_a_config_file_is_a_number(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("threshold: 5e-1\nlabel: '1e-1'\n")
    config = SampleConfig.from_sources(path)
    assert (config.threshold, config.label) == (0.5, "1e-1")  # quoted, it stays text


def test_keys_merged_in_by_an_alias_may_be_overridden() -> None:
    """The duplicate-key check leaves YAML merges alone: overriding a merged key is what they are for."""
    from builders.core.config import parse_config_text

    text = "base: &b\n  k: 1\n  label: x\nother:\n  <<: *b\n  k: 2\n"
    assert parse_config_text("merge.yaml", text)["other"] == {"k": 2, "label": "x"}


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        SampleConfig.from_sources(tmp_path / "nope.yaml")


@pytest.mark.parametrize(
    ("family", "overrides", "message"),
    [
        # issue 15's own repro still used the keys of before the one input vocabulary
        ("variations", ["en_path=r.en", "de_path=r.de"], "'de_path' (renamed to 'tgt'), 'en_path' (renamed to 'src')"),
        ("variations", ["direction=de-en"], "'direction' (renamed to 'src_lang' and 'tgt_lang')"),
        ("commute_ext", ["commute_dir=c", "lang=fr"],
         "'commute_dir' (renamed to 'data_dir'), 'lang' (renamed to 'tgt_lang')"),
    ],
)
def test_keys_of_earlier_releases_name_their_new_key(family: str, overrides: list[str], message: str) -> None:
    from builders.core.registry import get_builder_class

    config_class = get_builder_class(family).config_class
    with pytest.raises(ConfigError, match=re.escape(message)):
        config_class.from_sources(None, overrides)
