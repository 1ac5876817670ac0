"""Markdown tables for metric results (used by `mtprobes evaluate` and `mtprobes report`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def fmt(value: Any, digits: int = 4) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(fmt(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _accuracy_rows(cells: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for name, cell in cells.items():
        ci = cell.get("ci95")
        interval = f"[{ci['low']:.3f}, {ci['high']:.3f}]" if ci else "-"
        rows.append([name, cell["correct"], cell["total"], cell["accuracy"], interval])
    return rows


def render_contrapro(result: dict[str, Any]) -> str:
    header = ["group", "correct", "total", "accuracy", "95% CI"]
    parts = [markdown_table(header, _accuracy_rows({"total": result["total"]}))]
    for title, key in (
        ("antecedent distance", "by_distance"),
        ("src:ref pronoun", "by_pair"),
        ("intrasegmental", "by_intrasegmental"),
    ):
        parts.append(f"\nBy {title}:\n\n" + markdown_table(header, _accuracy_rows(result[key])))
    if "compare" in result:
        test = result["compare"]["mcnemar"]
        parts.append(
            f"\nMcNemar vs `{result.get('compare_system', 'B')}` (accuracy "
            f"{fmt(result['compare']['total']['accuracy'])}): only this system right {test['only_a']}, only the "
            f"other right {test['only_b']}, exact p = {fmt(test['p_exact'])}, chi2 = {fmt(test['chi2'])} "
            f"(p = {fmt(test['p_chi2'])})\n"
        )
    return "".join(parts)


def render_commute(result: dict[str, Any]) -> str:
    keys = ["TC", "IC", "GTC", "GIC"]
    parts = [markdown_table(["sources", *keys], [[result["sources"], *(result[k] for k in keys)]])]
    if "mixup" in result:
        mix = result["mixup"]
        rates = ["IPR", "INR", "CPR", "CNR"]
        parts.append(
            "\nAgainst the mixup image:\n\n"
            + markdown_table(
                [*rates, "IPR+CNR", "INR+CPR", "identities hold", "mixup ties"],
                [
                    [
                        *(mix[r] for r in rates),
                        mix["IPR"] + mix["CNR"],
                        mix["INR"] + mix["CPR"],
                        mix["identities_hold"],
                        mix["mixup_ties"],
                    ]
                ],
            )
        )
    if "oracle" in result:
        oracle = result["oracle"]
        parts.append(
            "\nImage oracle over the extended image sets:\n\n"
            + markdown_table(
                ["original GIC", "max GIC", "max RR", "min GIC", "min RR"],
                [[oracle["original_GIC"], oracle["max_GIC"], oracle["max_RR"], oracle["min_GIC"], oracle["min_RR"]]],
            )
        )
    if "failure_iou" in result:
        parts.append(
            "\nIoU of failures with the compared system:\n\n"
            + markdown_table(list(result["failure_iou"]), [list(result["failure_iou"].values())])
        )
    if result.get("unswapped_lines"):
        parts.append(f"\nLines whose translations are not an exact swap of their pair: {result['unswapped_lines']}\n")
    return "".join(parts)


def render_awareness(result: dict[str, Any]) -> str:
    rows = [[name, s["segments"], s["delta_awareness"], s["wilcoxon_p"]] for name, s in result["shuffles"].items()]
    table = markdown_table(["shuffle", "segments", "Δ-awareness", "Wilcoxon p"], rows)
    verdict = "image-aware" if result["aware"] else "not shown to be image-aware"
    return table + (
        f"\nΔ-awareness {result['delta_awareness_mean']:.4f} ± {result['delta_awareness_std']:.4f}; Fisher χ² = "
        f"{result['fisher_statistic']:.3f} ({result['fisher_dof']} dof), p = {result['fisher_p']:.3g} -> "
        f"**{verdict}** (threshold p ≤ {result['threshold']})\n"
    )


RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "contrapro": render_contrapro,
    "commute": render_commute,
    "awareness": render_awareness,
}


def render(result: dict[str, Any]) -> str:
    return RENDERERS[result["kind"]](result)
