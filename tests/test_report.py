"""`mtprobes report`: Markdown + HTML + PNGs from metric files; deterministic bytes; clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError, MtprobesError
from builders.metrics import awareness, commute, contrapro
from builders.report.report import markdown_to_html, write_report

RECORDS = [
    {"src pronoun": "it", "ref pronoun": p, "ante distance": d, "intrasegmental": d == 0, "errors": [{}, {}]}
    for p, d in [("er", 0), ("sie", 1), ("es", 2), ("er", 4), ("sie", 0), ("es", 1)]
]


def write_metrics(run: Path) -> None:
    run.mkdir(parents=True, exist_ok=True)
    scores = np.array([1.0, 2.0, 3.0] * 3 + [3.0, 2.0, 1.0] * 3)
    result = {"system": "sys-a", **contrapro.evaluate_contrapro(RECORDS, scores, resamples=100)}
    (run / "metrics-contrapro-sys-a.json").write_text(json.dumps(result))
    congruent = np.linspace(0, 1, 12)
    aware = awareness.awareness_test(congruent, {"random0": congruent - 0.1, "random1": congruent - 0.2})
    (run / "metrics-awareness-sys-a.json").write_text(json.dumps({"system": "sys-a", "kind": "awareness", **aware}))
    ppl = np.array([[[2.0, 5.0], [4.0, 3.0]], [[2.0, 1.0], [3.0, 6.0]]])
    views = commute.perplexity_views(ppl, None)
    result = {"system": "sys-a", "kind": "commute", **commute.consistency_scores(ppl), "perplexity_views": views}
    (run / "metrics-commute-sys-a.json").write_text(json.dumps(result))


def test_report_contents_and_determinism(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_metrics(run)
    report = write_report(run)
    text = report.read_text()
    assert "## Pronouns: ContraPro accuracy" in text and "| total | 3 | 6 | 0.5000 |" in text
    assert "**image-aware**" in text and "| sources | TC | IC | GTC | GIC |" in text
    for png in ("accuracy_by_distance.png", "awareness_violins.png", "commute_perplexity.png"):
        assert f"({png})" in text
        assert (run / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (run / "report.html").read_text()
    separators = [line for line in text.splitlines() if line.startswith("|---")]
    assert html.count("<table>") == len(separators) > 5
    assert '<img src="accuracy_by_distance.png"' in html and "<b>image-aware</b>" in html
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    write_report(run)
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


def test_markdown_to_html_table_and_escaping() -> None:
    html = markdown_to_html("# T <x>\n\n| a | b |\n|---|---|\n| 1 | `c` |\n\ntext **bold**\n")
    assert "<h1>T &lt;x&gt;</h1>" in html
    assert "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>" in html
    assert "<tr><td>1</td><td><code>c</code></td></tr>" in html
    assert "<p>text <b>bold</b></p>" in html


def test_report_errors(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError, match="no metrics-"):
        write_report(tmp_path)
    (tmp_path / "metrics-x.json").write_text("{not json")
    with pytest.raises(InputError, match="metrics-x.json:1: invalid JSON"):
        write_report(tmp_path)
    (tmp_path / "metrics-x.json").write_text(json.dumps({"kind": "bleu"}))
    with pytest.raises(InputError, match="unknown metric kind 'bleu'"):
        write_report(tmp_path)


def test_report_shows_volatility_results_and_explains_their_columns(tmp_path: Path) -> None:
    run = tmp_path / "run"
    folder = run / "volatility"
    folder.mkdir(parents=True)
    summary = {"pairs": 4, "threshold": 10, "oscillation": {"sources": 2, "mean_bleu_range": 12.5},
               "by_type": {"DEL": {"pairs": 2, "translation_changed": 0.5, "subword_minor": 0.5, "subword_major": 0.0,
                                   "word_minor": 0.5, "word_major": 0.0},
                           "SUBNUM": {"pairs": 2, "translation_changed": 1.0, "subword_minor": 1.0,
                                      "subword_major": 0.0, "word_minor": 1.0, "word_major": 0.0}}}
    (folder / "summary.json").write_text(json.dumps(summary))
    for name in ("figure1_distance_vs_span.png", "figure3_oscillation.png"):
        (folder / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    text = write_report(run).read_text()  # no metrics-*.json: the volatility results alone make a report
    assert "## Variations: output volatility" in text
    assert "| SUBNUM | 2 | 1.0000 | 1.0000 | 0.0000 | 1.0000 | 0.0000 |" in text
    assert "(volatility/figure1_distance_vs_span.png)" in text and "(volatility/figure3_oscillation.png)" in text
    assert "**changed** (`translation_changed`): share of pairs" in text
    assert "**subword minor** (`subword_minor`)" in text and "bleu 12.5000" in text


def test_an_empty_run_names_the_commands_that_fill_it(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError) as error:
        write_report(tmp_path)
    assert "analyze volatility" in str(error.value) and "contrapro" in str(error.value)


def test_metric_tables_explain_their_columns_and_every_missing_interval(tmp_path: Path) -> None:
    from builders.metrics.commute_metric import _oracle_tables

    run = tmp_path / "run"
    write_metrics(run)
    text = write_report(run).read_text()
    assert "TC (text consistency, CoMMuTE's accuracy)" in text
    assert "GTC / GIC (group)" in text
    no_interval = [line for line in text.splitlines() if line.startswith("| ") and line.endswith(" - |")]
    assert no_interval == [], "a CI cell without a reason"
    assert "n/a*: no interval for this grouping" in text
    pair = {"TC": 1.0, "IC": 1.0, "GTC": 1.0, "GIC": 1.0, "RR": 0.25}
    oracle = _oracle_tables({"min": pair, "max": pair, "original": pair, "sources": 2, "tie_break": "eq10"})
    header = next(line for line in oracle.splitlines() if line.startswith("| Min IC"))
    assert header == "| Min IC | Min GIC | Min RR | Max IC | Max GIC | Max RR |"
    assert "RR (replacement rate)" in oracle and "`eq10` = the paper's Sec. 5.5" in oracle
