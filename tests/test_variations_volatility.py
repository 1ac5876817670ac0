"""Volatility analysis: edit statistics, classes, oscillation ranges, outputs and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from builders.core.errors import InputError, MtprobesError
from builders.variations.volatility import (
    VolatilitySettings,
    analyze_volatility,
    classify,
    edit_stats,
    load_pairs,
    write_result,
)

NO_METEOR = ("bleu", "ter", "length_ratio")


@pytest.mark.parametrize(
    ("a", "b", "distance", "span"),
    [
        # span = last - first position of change (Fadaee & Monz 2020, Sec. 3.1: zero for a one-token change)
        ("a b c d", "a b c d", 0, 0),
        ("a b c d", "a x c d", 1, 0),
        ("a b c d", "a c d", 1, 0),
        ("a b c d e f", "a x c d y f", 2, 3),  # two substitutions at positions 1 and 4
        ("a b", "c d e f", 4, 3),  # positions 0..3 differ
        ("", "a b", 2, 1),
    ],
)
def test_edit_stats(a: str, b: str, distance: int, span: int) -> None:
    assert edit_stats(a.split(), b.split()) == (distance, span)


@pytest.mark.parametrize(("distance", "span", "label"), [(0, 0, "minor"), (9, 9, "minor"), (11, 12, "major"),
                                                          (3, 15, "other"), (10, 10, "other")])
def test_classify(distance: int, span: int, label: str) -> None:
    assert classify(distance, span) == label


def _pairs() -> pd.DataFrame:
    base = "the house has 12 rooms and a big garden behind it"
    rows = []
    for k, hyp in [(1, "the house has 13 rooms and a big garden behind it"),
                   (2, "the house has 14 rooms and a garden behind it"),
                   (3, "there are 15 rooms in a building with a large garden at the back of it all")]:
        rows.append({"id": f"s1-SUBNUM-{k}", "source_id": "s1", "type": "SUBNUM", "k": k,
                     "hyp_original": base, "hyp_varied": hyp, "original_ref": base,
                     "varied_ref": base.replace("12", str(12 + k))})
    rows.append({"id": "s2-DEL-0", "source_id": "s2", "type": "DEL", "k": None, "hyp_original": "he is very tall",
                 "hyp_varied": "he is tall", "original_ref": "he is very tall", "varied_ref": "he is tall"})
    return pd.DataFrame(rows)


def test_analysis_columns_classes_and_oscillation() -> None:
    result = analyze_volatility(_pairs(), VolatilitySettings(metrics=NO_METEOR, spm_vocab_size=60))
    table = result.pairs
    assert list(table["word_class"]) == ["minor", "minor", "major", "minor"]
    assert table.loc[0, "word_distance"] == 1 and table.loc[0, "word_span"] == 0
    assert (table["subword_distance"] >= table["word_distance"]).all()
    assert table.loc[0, "bleu_varied"] == pytest.approx(100.0)
    oscillation = result.oscillation
    assert list(oscillation["source_id"]) == ["s1"]  # s2 has one variation of a non-SUBNUM type
    bleu = list(table.loc[:2, "bleu_varied"])  # the paper's range: over the variations only
    assert oscillation.loc[0, "bleu_range"] == pytest.approx(max(bleu) - min(bleu))
    assert oscillation.loc[0, "bleu_mean"] == pytest.approx(sum(bleu) / 3)
    assert oscillation.loc[0, "bleu_range"] > 40
    # LengthRatio as a percentage: 11, 10 and 17 words over 11-word references
    assert list(table.loc[:2, "length_ratio_varied"]) == pytest.approx([100.0, 1000 / 11, 1700 / 11])
    assert oscillation.loc[0, "length_ratio_range"] == pytest.approx(700 / 11)
    with_original = analyze_volatility(_pairs(), VolatilitySettings(metrics=("bleu",), spm_vocab_size=60,
                                                                    include_original=True)).oscillation
    assert with_original.loc[0, "bleu_range"] == pytest.approx(max([*bleu, 100.0]) - min(bleu))
    assert result.summary["by_type"]["SUBNUM"]["word_major"] == pytest.approx(1 / 3, abs=1e-3)


def test_metrics_only_on_oscillation_types_unless_asked_and_parallel_is_identical() -> None:
    import math

    table = analyze_volatility(_pairs(), VolatilitySettings(metrics=NO_METEOR, spm_vocab_size=60)).pairs
    assert math.isnan(table.loc[3, "bleu_varied"])  # the DEL row
    everything = analyze_volatility(_pairs(), VolatilitySettings(metrics=NO_METEOR, spm_vocab_size=60,
                                                                 score_all=True, jobs=2)).pairs
    assert everything.loc[3, "bleu_varied"] == pytest.approx(100) == everything.loc[3, "bleu_original"]
    pd.testing.assert_frame_equal(everything.loc[:2], table.loc[:2])


def test_analysis_is_deterministic() -> None:
    settings = VolatilitySettings(metrics=NO_METEOR, spm_vocab_size=60)
    first = analyze_volatility(_pairs(), settings).pairs
    second = analyze_volatility(_pairs(), settings).pairs
    pd.testing.assert_frame_equal(first, second)


def test_unknown_metric_and_missing_columns() -> None:
    with pytest.raises(MtprobesError, match="unknown metric"):
        analyze_volatility(_pairs(), VolatilitySettings(metrics=("chrf",)))
    with pytest.raises(MtprobesError, match="hyp_varied"):
        analyze_volatility(_pairs().drop(columns=["hyp_varied"]))


def test_meteor_with_wordnet_or_a_clear_error() -> None:
    try:
        from nltk.corpus import wordnet

        wordnet.ensure_loaded()
    except LookupError:
        with pytest.raises(MtprobesError, match=r"nltk.download\('wordnet'\)"):
            analyze_volatility(_pairs(), VolatilitySettings(metrics=("meteor",), spm_vocab_size=60))
        pytest.skip("WordNet is absent (python tests/setup_wordnet.py installs it from Debian packages); "
                    "checked the error message instead")
    result = analyze_volatility(_pairs(), VolatilitySettings(metrics=("meteor",), spm_vocab_size=60))
    assert result.pairs.loc[0, "meteor_original"] > 99
    assert 0 < result.pairs.loc[2, "meteor_varied"] < result.pairs.loc[0, "meteor_varied"]


def test_outputs_and_figures(tmp_path: Path) -> None:
    from PIL import Image

    result = analyze_volatility(_pairs(), VolatilitySettings(metrics=NO_METEOR, spm_vocab_size=60))
    written = write_result(result, tmp_path)
    names = {p.name for p in written}
    assert {"volatility_pairs.csv", "volatility_pairs.parquet", "oscillation.csv", "summary.json",
            "figure1_distance_vs_span.png", "figure3_oscillation.png"} <= names
    assert pd.read_parquet(tmp_path / "volatility_pairs.parquet").shape[0] == 4
    for figure in ("figure1_distance_vs_span.png", "figure3_oscillation.png"):
        with Image.open(tmp_path / figure) as image:
            assert image.size[0] > 300 and image.getextrema() != ((255, 255), (255, 255), (255, 255), (255, 255))


def _records_file(path: Path) -> Path:
    rows = []
    for row in _pairs().to_dict("records"):
        rows.append({"id": row["id"], "source_id": row["source_id"], "type": row["type"],
                     "original_src": "x", "varied_src": "y", "original_ref": row["original_ref"],
                     "varied_ref": row["varied_ref"], "parameters": {"k": row["k"]}})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_load_pairs_checks_line_counts(tmp_path: Path) -> None:
    records = _records_file(tmp_path / "test.jsonl")
    (tmp_path / "orig.txt").write_text("a\nb\nc\nd\n", encoding="utf-8")
    (tmp_path / "var.txt").write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(InputError, match="hyp_varied has 2 lines but .* has 4 records"):
        load_pairs(records, tmp_path / "orig.txt", tmp_path / "var.txt")


def test_cli_volatility(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from builders.cli import app

    records = _records_file(tmp_path / "test.jsonl")
    pairs = _pairs()
    (tmp_path / "orig.txt").write_text("".join(h + "\n" for h in pairs["hyp_original"]), encoding="utf-8")
    (tmp_path / "var.txt").write_text("".join(h + "\n" for h in pairs["hyp_varied"]), encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", "volatility", str(records), "--hyp-original",
                                      str(tmp_path / "orig.txt"), "--hyp-varied", str(tmp_path / "var.txt"),
                                      "--out", str(tmp_path / "out"), "--metrics", "bleu,ter",
                                      "--vocab-size", "60", "--format", "csv"])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["pairs"] == 4 and summary["oscillation"]["sources"] == 1
    assert (tmp_path / "out" / "figure1_distance_vs_span.png").is_file()
