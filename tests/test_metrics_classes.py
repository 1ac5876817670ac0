"""Metric classes: registry, options, signatures, inputs checks, `mtprobes evaluate --list` and the outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from builders.cli import app
from builders.core.errors import InputError, MtprobesError
from builders.metrics.base import MetricInputs
from builders.metrics.registry import Registry, metrics

KINDS = ("awareness", "commute", "commute-temperature", "contrapro")


def write_lines(path: Path, values: list[float] | np.ndarray) -> Path:
    path.write_text("".join(f"{v:.6f}\n" for v in values), encoding="utf-8")
    return path


def commute_set(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "src.en").write_text("bank\nbank\n", encoding="utf-8")
    (folder / "correct.de").write_text("Ufer\nBank\n", encoding="utf-8")
    (folder / "incorrect.de").write_text("Bank\nUfer\n", encoding="utf-8")
    return folder


def test_registry_lists_every_metric_with_its_properties() -> None:
    registry = metrics()
    assert registry.names() == sorted(KINDS)
    for name in KINDS:
        metric = registry.get(name)
        assert metric.name == name and isinstance(metric.higher_is_better, bool)
        assert name in metric.describe()
        assert metric.title  # the report's section heading comes from the class, not from a second table


def test_registry_did_you_mean_and_type_check() -> None:
    with pytest.raises(MtprobesError, match="did you mean 'commute'"):
        metrics().get("comute")
    registry: Registry[type[int]] = Registry("thing", int)  # type: ignore[arg-type]
    registry.add("path", "pathlib:Path", "not an int")
    with pytest.raises(MtprobesError, match="is not a int"):
        registry.get("path")
    with pytest.raises(MtprobesError, match="registered twice"):
        registry.add("path", "os:sep", "clash")


@pytest.mark.parametrize(
    ("kind", "options", "message"),
    [
        ("awareness", {"alternatve": "greater"}, "unknown option 'alternatve'; did you mean 'alternative'"),
        ("awareness", {"alternative": "one-sided"}, "'one-sided' is not one of greater, two-sided, less"),
        ("commute", {"tie_break": "lowest"}, "not one of eq10, fewest-replaced"),
        ("contrapro", {"lower_is_better": "maybe"}, "not a yes/no value"),
    ],
)
def test_options_are_typed_and_unknown_ones_are_errors(kind: str, options: dict[str, str], message: str) -> None:
    with pytest.raises(MtprobesError, match=message):
        metrics().get(kind).from_options(options)


def test_unread_inputs_are_errors_not_swallowed(tmp_path: Path) -> None:
    folder = commute_set(tmp_path / "set")
    scores = write_lines(tmp_path / "c.txt", [1.0, 2.0])
    inputs = MetricInputs(folder, (scores,), mixup=(scores, scores))
    with pytest.raises(MtprobesError, match="contrapro does not read --mixup"):
        metrics().get("contrapro")().evaluate(inputs)


def test_signature_names_options_and_file_hashes(tmp_path: Path) -> None:
    folder = commute_set(tmp_path / "set")
    correct = write_lines(tmp_path / "c.txt", [1.0, 4.0])
    incorrect = write_lines(tmp_path / "i.txt", [2.0, 3.0])
    metric = metrics().get("commute").from_options({"tie_break": "fewest-replaced"})
    result = metric.evaluate(MetricInputs(folder, (correct, incorrect)), "sys")
    signature = result["signature"]
    assert signature.startswith("commute|v:1|mtprobes:") and "|tie_break:fewest-replaced|" in signature
    assert "|scores:c.txt@" in signature and "|scores:i.txt@" in signature
    assert "Signature: `" + signature + "`" in metric.render(result)
    write_lines(correct, [1.0, 5.0])
    assert metric.evaluate(MetricInputs(folder, (correct, incorrect)))["signature"] != signature


def test_score_files_need_the_sets_line_count(tmp_path: Path) -> None:
    folder = commute_set(tmp_path / "set")
    short = write_lines(tmp_path / "short.txt", [1.0])
    with pytest.raises(InputError, match="short.txt: scores file has 1 lines but the set needs 2"):
        metrics().get("commute")().evaluate(MetricInputs(folder, (short, short)))


def test_awareness_checks_the_shuffles_sets_count(tmp_path: Path) -> None:
    folder = tmp_path / "shuffles"
    folder.mkdir()
    info = {"builder": "shuffles.v1", "records": {"congruent": {"test": 1014}, "random1": {"test": 1014}}}
    (folder / "info.json").write_text(json.dumps(info), encoding="utf-8")
    congruent = write_lines(tmp_path / "congruent.scores", np.zeros(100))
    shuffle = write_lines(tmp_path / "random1.scores", np.zeros(100))
    message = "congruent.scores: congruent scores file has 100 lines but the set needs 1014"
    with pytest.raises(InputError, match=message):
        metrics().get("awareness")().evaluate(MetricInputs(folder, (congruent, shuffle)))


def test_temperature_metric_reads_one_pair_per_temperature(tmp_path: Path) -> None:
    folder = commute_set(tmp_path / "set")
    files = [
        write_lines(tmp_path / "c1.txt", [1.0, 1.0]),
        write_lines(tmp_path / "i1.txt", [2.0, 2.0]),  # T=0.5: correct always wins -> TC 1, GTC 1
        write_lines(tmp_path / "c2.txt", [1.0, 3.0]),
        write_lines(tmp_path / "i2.txt", [2.0, 2.0]),  # T=2: second line's correct loses -> TC 0.5
    ]
    metric = metrics().get("commute-temperature").from_options({"temperatures": "0.5,2"})
    result = metric.evaluate(MetricInputs(folder, tuple(files)))
    rows = [(r["temperature"], r["TC"], r["GTC"]) for r in result["by_temperature"]]
    assert rows == [(0.5, 1.0, 1.0), (2.0, 0.5, 0.0)]
    with pytest.raises(MtprobesError, match="2 files for each of 2 temperatures"):
        metric.evaluate(MetricInputs(folder, tuple(files[:2])))


def test_temperature_files_in_the_wrong_order_are_refused_and_fig5_is_drawn(tmp_path: Path) -> None:
    """`mtprobes score --temperature T` notes T in <name>.score_info.json; a file listed for another T is an error
    (a swapped pair would draw a plausible but wrong Fig. 5), and `mtprobes report` draws the figure."""
    from builders.metrics.cli import run_evaluation
    from builders.report.report import write_report

    folder = commute_set(tmp_path / "set")
    files = []
    for temperature, correct in ((0.5, [1.0, 1.0]), (2.0, [1.0, 3.0])):
        name = f"image-T{temperature:g}"
        files += [write_lines(tmp_path / f"{name}.correct.txt", correct),
                  write_lines(tmp_path / f"{name}.incorrect.txt", [2.0, 2.0])]
        (tmp_path / f"{name}.score_info.json").write_text(json.dumps({"options": {"temperature": temperature}}))
    with pytest.raises(InputError, match=r"image-T2\.correct\.txt: scored at temperature 2 .* listed for 0\.5"):
        run_evaluation(folder, "commute-temperature", "image", None, scores=[*files[2:], *files[:2]],
                       options={"temperatures": "0.5,2"})
    run = tmp_path / "run"
    result, _ = run_evaluation(folder, "commute-temperature", "image", run, scores=files,
                               options={"temperatures": "0.5,2"})
    assert [row["TC"] for row in result["by_temperature"]] == [1.0, 0.5]
    assert "(commute_temperature.png)" in write_report(run).read_text()
    assert (run / "commute_temperature.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_list_and_evaluate_write_signed_json(tmp_path: Path) -> None:
    runner = CliRunner()
    listing = runner.invoke(app, ["evaluate", "--list"])
    assert listing.exit_code == 0, listing.output
    for name in KINDS:
        assert f"{name} v1:" in listing.output
    folder = commute_set(tmp_path / "set")
    correct = write_lines(tmp_path / "c.txt", [1.0, 4.0])
    incorrect = write_lines(tmp_path / "i.txt", [2.0, 3.0])
    args = ["evaluate", str(folder), "-s", str(correct), "-s", str(incorrect), "--out", str(tmp_path / "run")]
    result = runner.invoke(app, [*args, "-O", "tie_break=eq10"])
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "run" / "metrics-commute-system.json").read_text(encoding="utf-8"))
    assert written["signature"] in result.output and written["options"] == {"tie_break": "eq10"}
    assert written["higher_is_better"] is True and written["kind"] == "commute"
    bad = runner.invoke(app, [*args, "-O", "tiebreak"])
    assert bad.exit_code != 0 and "--option takes key=value" in str(bad.exception)


def test_no_import_cycle_between_scoring_and_metrics() -> None:
    code = (
        "import sys, builders.scoring.layouts, builders.scoring.setfiles, builders.scoring.scores_io;"
        "print(sorted(m for m in sys.modules if m.startswith('builders.metrics')))"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"
