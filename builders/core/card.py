"""Dataset card (README.md) with the Hub YAML header: configs, license, languages, sizes, citations."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from builders.core.fields import fields_table
from builders.core.writer_paths import data_dir_for

if TYPE_CHECKING:
    from builders.core.builder import Builder


def size_category(n: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
    for bound, label in bounds:
        if n < bound:
            return label
    return "1M<n<10M" if n < 10_000_000 else "n>10M"


# A set of several subsets (shuffles.v1: congruent, random1 ...) also gets this config, marked default: every
# subset's rows together (their records say which subset they come from), so load_dataset(folder) without a
# config name gives the whole set, not the first subset's rows.
ALL_SUBSETS = "all"


def subset_files(info: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """The Hub configs and their data files per split: one config per subset, and ``all`` when there are
    several (the default config)."""
    configs = {subset: {split: [f"{data_dir_for(subset)}/{split}-*.parquet"] for split in sorted(splits)}
               for subset, splits in sorted(info["records"].items())}
    if len(configs) > 1 and ALL_SUBSETS not in configs:
        splits = sorted({split for per_split in configs.values() for split in per_split})
        configs[ALL_SUBSETS] = {split: [f for per_split in configs.values() for f in per_split.get(split, [])]
                                for split in splits}
    return configs


def default_config(configs: dict[str, Any]) -> str:
    """The config load_dataset(folder) reads without a name: ``default``, else ``all``, else the only one."""
    for name in ("default", ALL_SUBSETS):
        if name in configs:
            return name
    return next(iter(configs), "")


def hub_yaml(builder: Builder[Any], info: dict[str, Any]) -> dict[str, Any]:
    total = sum(sum(splits.values()) for splits in info["records"].values())
    files = subset_files(info)
    default = default_config(files)
    configs = [
        {
            "config_name": name,
            "data_files": [{"split": split, "path": paths[0] if len(paths) == 1 else paths}
                           for split, paths in per_split.items()],
            **({"default": True} if name == default else {}),
        }
        for name, per_split in files.items()
    ]
    config = builder.config
    return {
        "pretty_name": builder.pretty_name,
        **card_license(builder),
        "language": list(builder.card_languages()),
        "task_categories": list(builder.task_categories),
        "size_categories": [size_category(total)],
        "tags": ["mtprobes", builder.family, "contrastive-evaluation"] + ([config.corpus] if config.corpus else []),
        "configs": configs,
        "dataset_info": dataset_info(builder, info),
    }


def card_license(builder: Builder[Any]) -> dict[str, str]:
    """The config's licence (the input's); a builder's fixed licence otherwise; ``unknown`` when neither says.
    ``other`` always comes with ``license_name`` (the config refuses it without one)."""
    config = builder.config
    if config.license:
        return {"license": config.license, **({"license_name": config.license_name} if config.license_name else {})}
    return {"license": builder.license if builder.license != "other" else "unknown"}


def dataset_info(builder: Builder[Any], info: dict[str, Any]) -> list[dict[str, Any]]:
    """Hub ``dataset_info`` per config (features, split sizes in records and parquet bytes), as push_to_hub
    writes it. ``datasets.load_dataset(folder)`` hashes it into its cache key: without it every built folder
    (all named ``v1``, config ``default``) shared one cache entry and loaded the first set's rows."""
    features = builder.features()._to_yaml_list()
    blocks = []
    for subset in subset_files(info):
        members = [subset] if subset in info["records"] else sorted(info["records"])  # ``all``: every subset
        splits = sorted({split for member in members for split in info["records"][member]})
        split_list = [
            {"name": split,
             "num_bytes": sum(_split_bytes(info, member, split) for member in members),
             "num_examples": sum(info["records"][member].get(split, 0) for member in members)}
            for split in splits
        ]
        size = sum(int(s["num_bytes"]) for s in split_list)
        blocks.append({"config_name": subset, "features": features, "splits": split_list,
                       "download_size": size, "dataset_size": size})
    return blocks


def _split_bytes(info: dict[str, Any], subset: str, split: str) -> int:
    return sum(info.get("file_sizes", {}).get(f, 0) for f in info["files"].get(subset, [])
               if f.rsplit("/", 1)[-1].startswith(f"{split}-"))


def render_card(builder: Builder[Any], info: dict[str, Any]) -> str:
    header = yaml.safe_dump(hub_yaml(builder, info), sort_keys=False, allow_unicode=True)
    counts = info["counts"]
    dropped = "".join(f"| {reason} | {n} |\n" for reason, n in counts["dropped"].items()) or "| (none) | 0 |\n"
    records = "".join(
        f"| {subset} | {split} | {n} |\n"
        for subset, splits in sorted(info["records"].items())
        for split, n in sorted(splits.items())
    )
    input_citation = builder.input_citation().strip()
    return f"""---
{header}---

# {builder.pretty_name}

{builder.description.strip()}

Built with `mtprobes` builder `{builder.name}` (dataset version {builder.dataset_version}).
{_input_line(builder, info)}
**Signature:** `{info["signature"]}`

## Contents

| subset | split | records |
|---|---|---|
{records}
Candidates read: {counts["read"]}, kept: {counts["kept"]}.

| dropped because | count |
|---|---|
{dropped}
`info.json` has the full config, seed, sha256 of every input and resource and the versions of the tools used.
`dropped.jsonl` has one line per dropped candidate: its reason and what the builder knew of it
(`mtprobes inspect SET --dropped --where reason=...`). The same records are in `jsonl/`, and
{_hf_line(info)}

{_builder_section(builder, info)}{fields_table(builder.features(), builder.field_meanings)}
## Loading

```python
from datasets import load_dataset, load_from_disk
{_loading_lines(info)}
```

## Citation

Method:

```bibtex
{builder.citation.strip()}
```
{_input_citation_block(input_citation)}"""


def _input_line(builder: Builder[Any], info: dict[str, Any]) -> str:
    """The input corpus and its licence, as the config names them (the set inherits the input's terms); without
    a ``corpus``, the input files by folder and name (never the builder's local paths)."""
    config = builder.config
    licence = card_license(builder)
    terms = licence.get("license_name") or licence["license"]
    if config.corpus:
        corpus = f"Input corpus: **{config.corpus}**. "
    else:
        files = sorted({"/".join(Path(name).parts[-2:]) for name in info.get("inputs", {})})
        shown = ", ".join(f"`{name}`" for name in files[:6]) + (f" and {len(files) - 6} more" if len(files) > 6 else "")
        corpus = f"Input files: {shown} (no `corpus` named). " if files else ""
    return f"\n{corpus}Licence: {terms} (config keys `corpus`, `license`, `license_name`).\n"


def _input_citation_block(citation: str) -> str:
    return f"\nInput data:\n\n```bibtex\n{citation}\n```\n" if citation else ""


def _builder_section(builder: Builder[Any], info: dict[str, Any]) -> str:
    """The builder's own card section (e.g. statistics), when it has one."""
    text = builder.card_section(info).strip()
    return f"{text}\n\n" if text else ""


def _hf_line(info: dict[str, Any]) -> str:
    subsets = sorted(info["records"])
    if len(subsets) == 1:
        return f"`hf/{subsets[0]}/` holds a copy loadable with `datasets.load_from_disk`."
    return ("`hf/<subset>/` holds a copy of each subset loadable with `datasets.load_from_disk` "
            f"({', '.join(f'`hf/{s}/`' for s in subsets)}).")


def _loading_lines(info: dict[str, Any]) -> str:
    """How to load the set, a subset, and the save_to_disk copy; locally and from the Hub once published."""
    configs = subset_files(info)
    default = default_config(configs)
    subsets = sorted(info["records"])
    every = f'config "{ALL_SUBSETS}", every subset; ' if default == ALL_SUBSETS else ""
    lines = [f'ds = load_dataset("path/to/this/folder")  # {every}or load_dataset("ORG/NAME") once published']
    if len(subsets) > 1:
        lines.append(f'ds = load_dataset("path/to/this/folder", "{subsets[-1]}")  # one subset: '
                     + ", ".join(subsets))
    if subsets:
        lines.append(f'ds = load_from_disk("path/to/this/folder/hf/{subsets[0]}")  # the save_to_disk copy'
                     + (" of one subset" if len(subsets) > 1 else ""))
    return "\n".join(lines)
