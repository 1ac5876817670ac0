"""Dataset card (README.md) with the Hub YAML header: configs, license, languages, sizes, citations."""

from __future__ import annotations

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
    for subset, splits in sorted(info["records"].items()):
        configs.append(
            {
                "config_name": subset,
                "data_files": [
                    {"split": split, "path": f"{data_dir_for(subset)}/{split}-*.parquet"} for split in sorted(splits)
                ],
                **({"default": True} if subset == "default" else {}),
            }
        )
    return {
        "pretty_name": builder.pretty_name,
        "license": builder.license,
        "language": list(builder.card_languages()),
        "task_categories": list(builder.task_categories),
        "size_categories": [size_category(total)],
        "tags": ["mtprobes", builder.family, "contrastive-evaluation"],
        "configs": configs,
    }


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
