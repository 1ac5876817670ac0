"""End to end through the CLI: score -> evaluate -> report, with tiny random models and hand-written sets."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from builders.cli import app

pytest.importorskip("transformers")

ITEMS = [
    (
        "it",
        "er",
        1,
        False,
        "Ich sah den Hund.",
        "Er war groß.",
        ["Sie war groß.", "Es war groß."],
        "I saw the dog.",
        "It was big.",
    ),
    (
        "it",
        "sie",
        0,
        True,
        "",
        "Die Katze sah sie an.",
        ["Die Katze sah ihn an.", "Die Katze sah es an."],
        "",
        "The cat looked at it.",
    ),
    (
        "it",
        "es",
        2,
        False,
        "Das Buch lag dort.",
        "Es war alt.",
        ["Er war alt.", "Sie war alt."],
        "The book was there.",
        "It was old.",
    ),
]


def write_contrapro_set(folder: Path) -> None:
    """A three-item set in ContraPro's JSON + text/context export layout (one context line per text line)."""
    folder.mkdir(parents=True)
    records, text_en, text_de, context_en, context_de = [], [], [], [], []
    for src_pr, ref_pr, distance, intra, ctx_de, ref, variants, ctx_en, src in ITEMS:
        records.append(
            {
                "src pronoun": src_pr,
                "ref pronoun": ref_pr,
                "ante distance": distance,
                "intrasegmental": intra,
                "errors": [{"contrastive": v} for v in variants],
            }
        )
        for target in [ref, *variants]:
            text_en.append(src)
            text_de.append(target)
            context_en.append(ctx_en)
            context_de.append(ctx_de)
    (folder / "contrapro.json").write_text(json.dumps(records))
    for name, lines in (
        ("text.en", text_en),
        ("text.de", text_de),
        ("context.en", context_en),
        ("context.de", context_de),
    ):
        (folder / name).write_text("\n".join(lines) + "\n")


def write_commute_set(folder: Path) -> None:
    folder.mkdir(parents=True)
    sources = ["He made it to the bank."] * 2 + ["That mole must go."] * 2
    correct = [
        "Er schaffte es zur Bank.",
        "Er schaffte es zum Ufer.",
        "Der Maulwurf muss weg.",
        "Der Leberfleck muss weg.",
    ]
    incorrect = [correct[1], correct[0], correct[3], correct[2]]
    for name, lines in (
        ("src.en", sources),
        ("correct.de", correct),
        ("incorrect.de", incorrect),
        ("img.order", ["a.jpg", "b.jpg", "c.jpg", "d.jpg"]),
    ):
        (folder / name).write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from builders.scoring.tiny import make_tiny_image_model, make_tiny_model

    root = tmp_path_factory.mktemp("cli-models")
    text = make_tiny_model(root / "text", "marian")
    image = make_tiny_image_model(text, root / "image", feature_dim=4)
    return {"text": text, "image": image}


def invoke(*args: str | Path) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_contrapro_score_evaluate_report(tmp_path: Path, models: dict[str, Path]) -> None:
    set_dir, run = tmp_path / "set", tmp_path / "run"
    write_contrapro_set(set_dir)
    invoke("score", set_dir, "--model", models["text"], "--out", run, "--name", "sent")
    invoke("score", set_dir, "--model", models["text"], "--out", run, "--name", "ctx", "--context", "1")
    sent, ctx = run / "sent.scores", run / "ctx.scores"
    assert len(sent.read_text().splitlines()) == 9
    assert sent.read_text() != ctx.read_text()  # context changes the scores
    info = json.loads((run / "ctx.score_info.json").read_text())
    assert info["examples"] == 9 and info["layout"] == "contrapro" and info["scored_tokens"] > 0
    output = invoke("evaluate", set_dir, "--scores", sent, "--system", "sentence", "--out", run, "--compare", ctx)
    assert "| total |" in output and "McNemar" in output
    invoke("evaluate", set_dir, "--scores", ctx, "--system", "context", "--out", run)
    result = json.loads((run / "metrics-contrapro-sentence.json").read_text())
    assert result["total"]["total"] == 3 and set(result["by_distance"]) == {"0", "1", "2"}
    report = invoke("report", run)
    assert "REPORT.md" in report
    first = (run / "accuracy_by_distance.png").read_bytes()
    assert first[:4] == b"\x89PNG"
    assert "<table>" in (run / "report.html").read_text()
    invoke("report", run)
    assert (run / "accuracy_by_distance.png").read_bytes() == first  # byte-identical rerun


def test_contrapro_bad_scores_file(tmp_path: Path) -> None:
    set_dir = tmp_path / "set"
    write_contrapro_set(set_dir)
    short = tmp_path / "short.scores"
    short.write_text("1\n" * 8)
    result = CliRunner().invoke(app, ["evaluate", str(set_dir), "--scores", str(short)])
    assert result.exit_code != 0
    assert "short.scores: scores file has 8 lines but the set needs 9" in str(result.exception)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root / "absent", "absent: not found (give a built set, a ContraPro export or a CoMMuTE folder)"),
        (lambda root: root, "neither a ContraPro text export (*text.en, *text.de) nor a CoMMuTE layout"),
    ],
    ids=["missing", "neither-layout"],
)
def test_score_names_what_the_set_folder_lacks(tmp_path: Path, make: Callable[[Path], Path], message: str) -> None:
    """A wrong set path is one clear error before any model is loaded (the model path here does not exist)."""
    result = CliRunner().invoke(app, ["score", str(make(tmp_path)), "--model", str(tmp_path / "no-model"),
                                      "--out", str(tmp_path / "r")])
    assert result.exit_code == 1
    assert message in str(result.exception)


def test_evaluate_names_a_missing_set_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["evaluate", str(tmp_path / "absent"), "--scores", str(tmp_path / "x")])
    assert result.exit_code == 1
    assert "absent: not found (give a built set" in str(result.exception)


def test_commute_text_only_and_image_model(tmp_path: Path, models: dict[str, Path]) -> None:
    set_dir, run = tmp_path / "commute", tmp_path / "run"
    write_commute_set(set_dir)
    invoke("score", set_dir, "--model", models["text"], "--out", run, "--name", "text")
    assert (run / "text.correct.txt").exists() and (run / "text.incorrect.txt").exists()
    invoke(
        "evaluate",
        set_dir,
        "--scores",
        run / "text.correct.txt",
        "--scores",
        run / "text.incorrect.txt",
        "--system",
        "text-only",
        "--out",
        run,
    )
    text_only = json.loads((run / "metrics-commute-text-only.json").read_text())
    # By construction: a text-only model ranks the same translation first under both images.
    assert (text_only["TC"], text_only["GTC"], text_only["IC"], text_only["GIC"]) == (0.5, 0.0, 0.0, 0.0)
    features = tmp_path / "features.npy"
    np.save(features, np.random.default_rng(0).normal(size=(4, 4)).astype(np.float32) * 3)
    invoke("score", set_dir, "--model", models["image"], "--out", run, "--name", "mm", "--image-features", features)
    np.save(tmp_path / "mix.npy", np.repeat(np.load(features).reshape(2, 2, 4).mean(axis=1), 2, axis=0))
    invoke(
        "score",
        set_dir,
        "--model",
        models["image"],
        "--out",
        run,
        "--name",
        "mix",
        "--image-features",
        tmp_path / "mix.npy",
    )
    invoke(
        "evaluate",
        set_dir,
        "--scores",
        run / "mm.correct.txt",
        "--scores",
        run / "mm.incorrect.txt",
        "--mixup",
        run / "mix.correct.txt",
        "--mixup",
        run / "mix.incorrect.txt",
        "--system",
        "image",
        "--compare",
        run / "text.correct.txt",
        "--compare",
        run / "text.incorrect.txt",
        "--out",
        run,
    )
    image = json.loads((run / "metrics-commute-image.json").read_text())
    assert image["mixup"]["identities_hold"] is True
    assert image["IC"] > 0.0  # the image changes perplexities, so image consistency is no longer 0
    invoke("report", run)
    assert (run / "commute_perplexity.png").exists()


def test_awareness_end_to_end(tmp_path: Path, models: dict[str, Path]) -> None:
    run = tmp_path / "run"
    source, target = tmp_path / "src.en", tmp_path / "ref.de"
    source.write_text("the cat\nthe dog\nthe red car\nthe old book\nthe bank\nthe big tree\n")
    target.write_text("die Katze\nder Hund\ndas rote Auto\ndas alte Buch\ndie Bank\nder große Baum\n")
    rng = np.random.default_rng(1)
    congruent = rng.normal(size=(6, 4)).astype(np.float32)
    np.save(tmp_path / "congruent.npy", congruent)
    for index in range(2):
        np.save(tmp_path / f"random{index}.npy", np.roll(congruent, index + 1, axis=0))
    for name in ("congruent", "random0", "random1"):
        for system in ("text", "image"):
            features = ["--image-features", tmp_path / f"{name}.npy"] if system == "image" else []
            invoke(
                "score",
                "--source",
                source,
                "--target",
                target,
                "--model",
                models[system],
                "--out",
                run / system,
                "--name",
                name,
                *features,
            )
    for system in ("text", "image"):
        scores = [a for n in ("congruent", "random0", "random1") for a in ("--scores", run / system / f"{n}.scores")]
        invoke("evaluate", tmp_path, "--kind", "awareness", *scores, "--system", system, "--out", run)
    text = json.loads((run / "metrics-awareness-text.json").read_text())
    assert text["delta_awareness_mean"] == 0.0 and text["fisher_p"] == 1.0 and text["aware"] is False
    image = json.loads((run / "metrics-awareness-image.json").read_text())
    assert image["delta_awareness_mean"] != 0.0 and image["fisher_dof"] == 4
    invoke("report", run)
    assert (run / "awareness_violins.png").exists()


def test_image_model_needs_features(tmp_path: Path, models: dict[str, Path]) -> None:
    source = tmp_path / "s.en"
    source.write_text("the cat\n")
    result = CliRunner().invoke(
        app,
        [
            "score",
            "--source",
            str(source),
            "--target",
            str(source),
            "--model",
            str(models["image"]),
            "--out",
            str(tmp_path / "r"),
        ],
    )
    assert result.exit_code != 0 and "pass --image-features" in str(result.exception)


def test_translate_cli_reports_truncation(
    tmp_path: Path, models: dict[str, Path], caplog: pytest.LogCaptureFixture
) -> None:
    source = tmp_path / "s.en"
    source.write_text("the cat\n" + " ".join(["the big red house"] * 200) + "\n")
    out = tmp_path / "t.de"
    result = CliRunner().invoke(app, ["translate", "--model", str(models["text"]), "--source", str(source),
                                      "--out", str(out), "--beams", "2", "--max-new-tokens", "4"])
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 2
    # one report, with the model's limit (not the tokenizer's own notice with another number)
    reports = [r.getMessage() for r in caplog.records if "maximum" in r.getMessage()]
    assert len(reports) == 1, reports
    assert "1 of 2 examples were longer than the model maximum (128 tokens)" in reports[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"not numpy", r"f\.npy: not a readable \.npy array"), (None, r"f\.npy:2: non-finite image feature")],
    ids=["junk", "NaN row"],
)
def test_bad_image_feature_files(tmp_path: Path, models: dict[str, Path], content: bytes | None, message: str) -> None:
    features = tmp_path / "f.npy"
    if content is None:
        np.save(features, np.array([[0.0] * 4, [np.nan] * 4], dtype=np.float32))
    else:
        features.write_bytes(content)
    source = tmp_path / "s.en"
    source.write_text("the cat\nthe dog\n")
    result = CliRunner().invoke(app, ["score", "--source", str(source), "--target", str(source), "--model",
                                      str(models["image"]), "--image-features", str(features), "--out",
                                      str(tmp_path / "r")])
    assert result.exit_code != 0
    assert re.search(message, str(result.exception) + result.output)


@pytest.mark.shared
def test_real_commute_text_only_identities(shared_data: Path, tmp_path: Path, models: dict[str, Path]) -> None:
    """On the real en-de CoMMuTE text, a text-only model must give TC = 0.5 and IC = GTC = GIC = 0 exactly."""
    folder, run = shared_data / "commute" / "en-de", tmp_path / "run"
    invoke("score", folder, "--model", models["text"], "--out", run, "--name", "text")
    invoke(
        "evaluate",
        folder,
        "--scores",
        run / "text.correct.txt",
        "--scores",
        run / "text.incorrect.txt",
        "--system",
        "text",
        "--out",
        run,
    )
    result = json.loads((run / "metrics-commute-text.json").read_text())
    assert (result["sources"], result["TC"], result["IC"], result["GTC"], result["GIC"]) == (150, 0.5, 0, 0, 0)


@pytest.mark.parametrize(
    ("lines", "keep", "expected"),
    [
        (["a1", "a2", "", "b2"], 2, [("a1", "a2"), ("b2",)]),  # ContraPro: 2 lines per text line, oldest first
        (["a1", "a2", "", "b2"], 1, [("a2",), ("b2",)]),
        (["a1 a2", ""], 3, [("a1 a2",), ()]),  # one joined line per text line: used whole
        (["a1", "a2"], 0, [(), ()]),
    ],
)
def test_context_layouts(tmp_path: Path, lines: list[str], keep: int, expected: list[tuple[str, ...]]) -> None:
    from builders.scoring.layouts import _context_per_line

    path = tmp_path / "context.en"
    path.write_text("\n".join(lines) + "\n")
    assert _context_per_line(path, 2, keep) == expected


def test_context_count_mismatch(tmp_path: Path) -> None:
    from builders.core.errors import InputError
    from builders.scoring.layouts import _context_per_line

    path = tmp_path / "context.en"
    path.write_text("a\nb\nc\n")
    with pytest.raises(InputError, match="3 context lines is not a multiple of the 2 text lines"):
        _context_per_line(path, 2, 1)
    path.write_text("a\nb\nc\nd\n")
    with pytest.raises(InputError, match="--context 3 asked, but the export has 2 per line"):
        _context_per_line(path, 2, 3)


def test_one_pass_temperature_grid_equals_one_run_per_temperature(tmp_path: Path, models: dict[str, Path]) -> None:
    """Fig. 5 (Kashani Motlagh et al. 2024) from one scoring pass: --temperatures keeps every token's
    log-probability at each T from the same logits; the files equal separate --temperature runs."""
    set_dir, run = tmp_path / "commute", tmp_path / "run"
    write_commute_set(set_dir)
    features = tmp_path / "features.npy"
    np.save(features, np.random.default_rng(1).normal(size=(4, 4)).astype(np.float32) * 3)
    common = ["--model", models["image"], "--image-features", features, "--out", run]
    invoke("score", set_dir, *common, "--name", "grid", "--temperatures", "0.5,1,2", "--drop-shared-prefix")
    for temperature in ("0.5", "2"):
        invoke("score", set_dir, *common, "--name", f"single{temperature}", "--temperature", temperature,
               "--drop-shared-prefix")
        for side in ("correct", "incorrect"):
            grid = np.loadtxt(run / f"grid.T{temperature}.{side}.txt")
            single = np.loadtxt(run / f"single{temperature}.{side}.txt")
            np.testing.assert_allclose(grid, single, atol=2e-6)
    assert (run / "grid.T1.correct.txt").read_text() == (run / "grid.correct.txt").read_text()
    assert (run / "grid.T0.5.correct.txt").read_text() != (run / "grid.T2.correct.txt").read_text()
    files = [run / f"grid.T{t}.{side}.txt" for t in ("0.5", "1", "2") for side in ("correct", "incorrect")]
    output = invoke("evaluate", set_dir, "--kind", "commute-temperature", "-O", "temperatures=0.5,1,2",
                    *(a for f in files for a in ("-s", f)), "--out", run)
    assert "Consistency scores by softmax temperature" in output
    swapped = CliRunner().invoke(app, ["evaluate", str(set_dir), "--kind", "commute-temperature", "-O",
                                       "temperatures=1,0.5,2", *(str(a) for f in files for a in ("-s", f))])
    assert swapped.exit_code != 0 and "scored at temperature 0.5 but listed for 1" in str(swapped.exception)
