"""Checks `mtprobes validate` runs on a built ``commute_ext.v1`` dataset, from its records alone."""

from __future__ import annotations

from typing import Any


def record_problems(record: dict[str, Any], per_translation: int) -> list[str]:
    """Structural checks of one record (used by ``mtprobes validate``)."""
    rid = record.get("id")
    problems = []
    if len(record["translations"]) != 2:
        problems.append(f"{rid}: expected 2 translations, got {len(record['translations'])}")
    chosen: list[set[str]] = []
    for t in record["translations"]:
        images = t["images"]
        if len(images) != 1 + per_translation:
            problems.append(f"{rid} line {t['line']}: {len(images)} images, expected {1 + per_translation}")
        if images and images[0]["kind"] != "original":
            problems.append(f"{rid} line {t['line']}: slot 0 is not the original image")
        selected = {c["uid"] for c in t["candidates"] if c["selected"]}
        retrieved = {i["uid"] for i in images if i["kind"] == "retrieved"}
        if selected != retrieved:
            problems.append(f"{rid} line {t['line']}: retrieved images differ from the selected candidates")
        if any(not -1.0001 <= i["similarity"] <= 1.0001 for i in images):
            problems.append(f"{rid} line {t['line']}: similarity outside [-1, 1]")
        ranks = [c["rank"] for c in t["candidates"]]
        if ranks != sorted(set(ranks)):
            problems.append(f"{rid} line {t['line']}: candidate ranks not strictly increasing")
        chosen.append(retrieved)
    if len(chosen) == 2 and chosen[0] & chosen[1]:
        problems.append(f"{rid}: the same image is used for both translations")
    return problems
