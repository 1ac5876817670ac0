"""Relative paths inside a built dataset folder (shared by the writer, the card and the validator)."""

from __future__ import annotations


def data_dir_for(subset: str) -> str:
    return "data" if subset == "default" else f"data/{subset}"


def jsonl_path_for(subset: str, split: str) -> str:
    return f"jsonl/{split}.jsonl" if subset == "default" else f"jsonl/{subset}/{split}.jsonl"


# One line per candidate the build dropped: {"reason": ..., then what the family knows of it}.
DROPPED_FILE = "dropped.jsonl"
