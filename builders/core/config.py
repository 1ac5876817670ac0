"""Typed, validated, serialisable builder configs.

Each builder has a dataclass subclassing :class:`BuildConfig`. Values come from the dataclass defaults, then
a YAML/JSON file, then ``--set key=value`` overrides; every key and type is checked and errors name the key.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

import yaml

from builders.core.errors import ConfigError

ConfigT = TypeVar("ConfigT", bound="BuildConfig")

MEANING = "meaning"
REQUIRED = "required"


def setting(default: Any, meaning: str, *, required: str = "", run_only: bool = False) -> Any:
    """A config field with its meaning declared once (shown by `mtprobes config NAME --keys` and in the
    commented starting config). ``required`` says when an empty default must be filled in, e.g. "always";
    ``run_only`` keys change how a build runs, never its bytes (left out of to_dict and the signature).
    Mutable defaults (lists, dicts) are copied per instance."""
    metadata: dict[str, Any] = {MEANING: meaning, REQUIRED: required}
    if run_only:
        metadata["run_only"] = True
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: type(default)(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclasses.dataclass
class BuildConfig:
    """Fields every builder shares. ``name`` is the <config> part of the output path."""

    name: str = setting("default", "the <config> part of the output path OUT/<builder>/<name>/v1; default: a "
                        "name made of the keys that tell builds apart (corpus, split, ...)")
    seed: int = setting(13, "seed of every random choice; same seed and config give byte-identical output")
    shard_size: int = setting(50_000, "records per parquet shard")
    checkpoint_every: int = setting(64, "work units between checkpoints (what --resume continues from)")
    corpus: str = setting("", "name of the input corpus, shown on the card (and in records where a format has it)")
    license: str = setting("", 'Hub licence id of the set, usually the input\'s (cc-by-4.0, ...); "other" needs '
                           "license_name")
    license_name: str = setting("", 'the licence\'s name when license is "other" (e.g. "WMT24 test set terms")')
    # How the units run (core/executors.py). Not part of the dataset's identity: to_dict() and the signature
    # leave them out, so every executor and worker count gives the same bytes.
    executor: Literal["local", "processes", "ray"] = setting(
        "local", "where units run: local, processes or ray (never changes the bytes)", run_only=True)
    workers: int = setting(0, "worker processes / Ray CPUs; 0: all CPUs of the machine", run_only=True)
    ray_address: str = setting("", 'Ray cluster: "" local, auto, ray://host:10001', run_only=True)

    def __post_init__(self) -> None:
        check_types(self)
        _refuse_nul_characters(self)
        if not self.name or "/" in self.name or self.name.startswith(".") or not self.name.isprintable():
            raise ConfigError(f"config key 'name': {self.name!r} is not a valid directory name")
        if self.seed < 0:
            raise ConfigError(f"config key 'seed': must be >= 0, got {self.seed}")
        if self.license == "other" and not self.license_name:
            raise ConfigError("config key 'license_name': required when license is 'other' (the Hub needs a name)")
        if self.shard_size < 1:
            raise ConfigError("config key 'shard_size': must be >= 1")
        if self.checkpoint_every < 1:
            raise ConfigError("config key 'checkpoint_every': must be >= 1")
        if self.workers < 0:
            raise ConfigError("config key 'workers': must be >= 0 (0 = all CPUs)")
        self.validate()

    def validate(self) -> None:
        """Builder-specific value checks (raise ConfigError naming the key)."""

    def to_dict(self) -> dict[str, Any]:
        """The dataset-defining keys (signature, info.json, checkpoints): run-only keys are left out."""
        values = dataclasses.asdict(self)
        for field in dataclasses.fields(self):
            if field.metadata.get("run_only"):
                del values[field.name]
        return values

    @classmethod
    def from_sources(
        cls: type[ConfigT],
        file: str | Path | None = None,
        overrides: Sequence[str] = (),
        base: Mapping[str, Any] | None = None,
    ) -> ConfigT:
        """Defaults ← ``base`` ← config file ← ``key=value`` overrides."""
        values: dict[str, Any] = dict(base or {})
        if file is not None:
            values.update(load_config_file(file))
        hints = get_type_hints(cls)
        for item in overrides:
            key, sep, raw = item.partition("=")
            key = key.strip()
            if not sep or not key:
                raise ConfigError(f"--set expects key=value, got {item!r}")
            # A text field takes the value verbatim ("a: b" stays a string); others parse as YAML.
            value = raw if _is_text(hints.get(key)) else _parse_scalar(raw)
            values[key] = _expand(value, Path.cwd())
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls: type[ConfigT], values: Mapping[str, Any]) -> ConfigT:
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(values) - known, key=str)  # str: a file may mix int and str keys
        if unknown:
            import difflib

            hints = []
            for key in unknown:
                renamed = [name for name in RENAMED_KEYS.get(key, ()) if name in known]
                close = difflib.get_close_matches(key, sorted(known), n=1)
                if renamed:
                    hints.append(f"{key!r} (renamed to {' and '.join(map(repr, renamed))})")
                else:
                    hints.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
            raise ConfigError(f"unknown config key(s) for {cls.__name__}: {', '.join(hints)}")
        hints_by_name = get_type_hints(cls)
        coerced = {k: _coerce(k, v, hints_by_name[k]) for k, v in values.items()}
        return cls(**coerced)


# Keys of earlier releases, renamed when every builder got one input vocabulary (docs/inputs.md): configs and
# commands written for them get the new name in the error instead of a bare "unknown key".
RENAMED_KEYS: dict[str, tuple[str, ...]] = {
    "en_path": ("src",),
    "de_path": ("tgt",),
    "jsonl_path": ("jsonl",),
    "direction": ("src_lang", "tgt_lang"),
    "commute_dir": ("data_dir",),
    "lang": ("tgt_lang",),
}


def _parse_scalar(raw: str) -> Any:
    """A --set value as YAML (numbers, lists, booleans), or the raw string when it is not valid YAML."""
    if not raw.strip():
        return ""
    try:
        value = yaml.load(raw, Loader=_LimitedLoader)
    except _TooDeep as err:
        raise ConfigError(f"--set value {raw[:40]!r}...: {err}") from None
    except yaml.YAMLError:
        return raw
    _check_shape("--set value", value)
    return value


def load_config_file(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    data = parse_config_text(path, _read_config_text(path))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: config must be a mapping of keys to values")
    return _expand(data, path.resolve().parent)


# A config is a few dozen keys: far past these limits it is an alias bomb (9 levels of 9 aliases are 9**9
# values from 353 bytes) or a nesting no config needs, refused before anything walks or copies it.
MAX_CONFIG_DEPTH = 50
MAX_CONFIG_VALUES = 100_000


def _read_config_text(path: Path) -> str:
    if path.is_dir():
        raise ConfigError(f"{path}: is a directory, expected a YAML or JSON config file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the config file ({err.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text (byte {err.start}: 0x{data[err.start]:02x}); "
                          "save the config as UTF-8") from None


def parse_config_text(path: Path | str, text: str) -> Any:
    """YAML (or JSON by suffix) through a loader with depth and size limits; every mapping key must be text."""
    try:
        data = (json.loads(text, object_pairs_hook=_json_mapping) if str(path).endswith(".json")
                else yaml.load(text, Loader=_LimitedLoader))
    except _TooDeep as err:
        raise ConfigError(f"{path}: config is {err}") from None
    except _DuplicateKey as err:
        raise ConfigError(f"{path}{f':{err.line}' if err.line else ''}: config {err}") from None
    except json.JSONDecodeError as err:
        raise ConfigError(f"{path}:{err.lineno}:{err.colno}: cannot parse config: {err.msg}") from None
    except yaml.YAMLError as err:
        raise ConfigError(_yaml_error(path, err)) from None
    except RecursionError:  # json's parser
        raise ConfigError(f"{path}: config is nested more than {MAX_CONFIG_DEPTH} levels deep") from None
    _check_shape(path, data)
    return data


class _TooDeep(yaml.YAMLError):
    pass


class _DuplicateKey(yaml.YAMLError):
    """A key given twice in one mapping: YAML and JSON keep the last without a word."""

    def __init__(self, key: str, first: int | None, line: int | None) -> None:
        where = f" (first on line {first})" if first else ""
        super().__init__(f"key {key!r} is given twice{where}: keep the one you mean")
        self.line = line


def _yaml_error(path: Path | str, err: yaml.YAMLError) -> str:
    """One line naming the file and line (PyYAML's own message spans several, quoting "<unicode string>")."""
    mark = getattr(err, "problem_mark", None)
    problem = getattr(err, "problem", None) or str(err).splitlines()[0]
    context, context_mark = getattr(err, "context", None), getattr(err, "context_mark", None)
    started = f" started on line {context_mark.line + 1}, column {context_mark.column + 1}" if context_mark else ""
    detail = f"{problem} ({context}{started})" if context else problem
    if mark is None:
        return f"{path}: cannot parse config: {detail}"
    return f"{path}:{mark.line + 1}:{mark.column + 1}: cannot parse config: {detail}"


def _json_mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key, None, None)
        seen[key] = value
    return seen


class _LimitedLoader(yaml.SafeLoader):
    """SafeLoader (plain data only) that refuses nesting past MAX_CONFIG_DEPTH while composing, before the
    recursive constructor could overflow the stack."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        lines: dict[str, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                continue  # keys merged in by "<<" may be overridden: that is what a merge is for
            line = key_node.start_mark.line + 1
            if key_node.value in lines:
                raise _DuplicateKey(key_node.value, lines[key_node.value], line)
            lines[key_node.value] = line
        return super().construct_mapping(node, deep)

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_CONFIG_DEPTH:
                mark = self.peek_event().start_mark
                raise _TooDeep(f"nested more than {MAX_CONFIG_DEPTH} levels deep (line {mark.line + 1})")
            return super().compose_node(parent, index)  # type: ignore[no-untyped-call]
        finally:
            self._depth -= 1


# PyYAML follows YAML 1.1, where a float needs a dot: 1e-3 was the string '1e-3' and then "expected float, got
# str". YAML 1.2, JSON and Python read it as a number, as anyone writing it means.
_LimitedLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float", re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$"),
    list("-+0123456789."))


def _check_shape(path: Path | str, data: Any) -> None:
    """Walk the loaded values counting every visit, so aliases count each time they are used: an alias bomb
    stops at MAX_CONFIG_VALUES instead of being expanded. Keys must be text (``1: a`` beside ``foo: b``)."""
    visits = 0
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        visits += 1
        if visits > MAX_CONFIG_VALUES:
            raise ConfigError(f"{path}: config holds more than {MAX_CONFIG_VALUES:,} values once its YAML aliases "
                              "are expanded (aliases nested inside aliases?); refusing it")
        if depth > MAX_CONFIG_DEPTH:
            raise ConfigError(f"{path}: config is nested more than {MAX_CONFIG_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise ConfigError(f"{path}: config key {key!r} ({type(key).__name__}) is not text; "
                                      "keys are names such as 'seed'")
                pending.append((item, depth + 1))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def _expand(value: Any, config_dir: Path) -> Any:
    """Expand ``{resources}`` and ``{config_dir}`` in string values so bundled configs are location-free."""
    from builders.core.resources import expand_placeholders

    if isinstance(value, str):
        return expand_placeholders(value, config_dir)
    if isinstance(value, list):
        return [_expand(v, config_dir) for v in value]
    if isinstance(value, dict):
        return {k: _expand(v, config_dir) for k, v in value.items()}
    return value


def _coerce(key: str, value: Any, hint: Any) -> Any:
    """Gentle coercions a YAML/CLI value needs (tuple from list, float from int); types are checked later."""
    origin = get_origin(hint)
    if origin is tuple and isinstance(value, list):
        return tuple(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint is str and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if _is_optional(hint) and value is not None:
        inner = [a for a in get_args(hint) if a is not type(None)]
        if len(inner) == 1:
            return _coerce(key, value, inner[0])
    return value


def _is_text(hint: Any) -> bool:
    if hint is str:
        return True
    if get_origin(hint) is typing.Literal:
        return all(isinstance(a, str) for a in get_args(hint))
    if _is_optional(hint):
        inner = [a for a in get_args(hint) if a is not type(None)]
        return len(inner) == 1 and _is_text(inner[0])
    return False


def _is_optional(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def _matches(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_matches(value, arm) for arm in get_args(hint))
    if origin is typing.Literal:
        return value in get_args(hint)
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin in (list, tuple):
        if not isinstance(value, origin):
            return False
        args = get_args(hint)
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(args) == len(value) and all(_matches(v, a) for v, a in zip(value, args, strict=True))
        return all(_matches(v, args[0]) for v in value) if args else True
    if origin is dict:
        key_hint, value_hint = get_args(hint) or (Any, Any)
        return isinstance(value, dict) and all(
            _matches(k, key_hint) and _matches(v, value_hint) for k, v in value.items()
        )
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _describe(hint: Any) -> str:
    """A type as a user reads it: ``one of 'unique', 'eflomal'`` for a Literal (the valid values, not "Literal")."""
    origin = get_origin(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(choice) for choice in get_args(hint))
    if origin in (Union, types.UnionType):
        return " or ".join("None" if arm is type(None) else _describe(arm) for arm in get_args(hint))
    if origin is not None:
        return str(hint).replace("typing.", "")
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


def check_types(config: Any) -> None:
    hints = get_type_hints(type(config))
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        hint = hints[field.name]
        if not _matches(value, hint):
            raise ConfigError(
                f"config key {field.name!r}: expected {_describe(hint)}, got {type(value).__name__} {value!r}"
            )


def _refuse_nul_characters(config: Any) -> None:
    """A NUL cannot be part of a path or a name the OS accepts (``name: "a\\0b"``): refuse it by key, before
    any file is opened."""
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        texts = list(value) if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(text, str) and "\x00" in text for text in texts):
            raise ConfigError(f"config key {field.name!r}: contains a NUL character ({value!r})")
