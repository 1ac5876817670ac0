"""Dataset card (README.md) with the Hub YAML header: configs, license, languages, sizes, citations."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from builders.core.writer_paths import data_dir_for

if TYPE_CHECKING:
    from builders.core.builder import Builder


def size_category(n: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
    for bound, label in bounds:
        if n < bound:
            return label
    return "1M<n<10M" if n < 10_000_000 else "n>10M"


def hub_yaml(builder: Builder[Any], info: dict[str, Any]) -> dict[str, Any]:
    total = sum(sum(splits.values()) for splits in info["records"].values())
    configs = []
    subsets = sorted(info["records"])
    # load_dataset(folder) without a config name needs one marked default: "default", else the first in order
    # (shuffles: "congruent").
    default_subset = "default" if "default" in subsets else (subsets[0] if subsets else "")
    for subset, splits in sorted(info["records"].items()):
        configs.append(
            {
                "config_name": subset,
                "data_files": [
                    {"split": split, "path": f"{data_dir_for(subset)}/{split}-*.parquet"} for split in sorted(splits)
                ],
                **({"default": True} if subset == default_subset else {}),
            }
        )
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
    for subset, splits in sorted(info["records"].items()):
        split_list = [
            {"name": split, "num_bytes": _split_bytes(info, subset, split), "num_examples": n}
            for split, n in sorted(splits.items())
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
The same records are in `jsonl/`, and `hf/` holds a copy loadable with `datasets.load_from_disk`.

{_builder_section(builder, info)}## Loading

```python
from datasets import load_dataset
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


def _loading_lines(info: dict[str, Any]) -> str:
    """How to load each subset, locally and from the Hub once published."""
    lines = []
    for subset in sorted(info["records"]):
        name = "" if subset == "default" else f', "{subset}"'
        lines.append(f'ds = load_dataset("parquet", data_dir="{data_dir_for(subset)}")  '
                     f'# or load_dataset("ORG/NAME"{name}) once published')
    return "\n".join(lines)
