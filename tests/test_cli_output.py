"""What the model commands print: -q/-v before or after the command, third-party chatter only with -v, the
translate summary (distinct lines, wall time, lines/s), and help that imports nothing heavy."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from builders.cli import app
from builders.core import chatter
from builders.core.resources import resource_path

REPO_ROOT = Path(__file__).resolve().parents[1]
MODEL = resource_path("models", "pronouns-sentence")  # a Marian model: its tokenizer advises sacremoses
HEAVY = ("torch", "transformers", "spacy", "datasets", "open_clip")


def mtprobes(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    for key in chatter.QUIET_ENVIRONMENT:  # what the user did not set, as a user's shell has it
        env.pop(key, None)
    code = "import sys; from builders.cli import main; sys.argv[0] = 'mtprobes'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          check=False, timeout=300)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in.en"
    path.write_text("the cat is big\nthe dog\nthe cat is big\nthe cat is big\n")
    return path


def test_translate_is_quiet_by_default_and_says_what_it_did(source: Path, tmp_path: Path) -> None:
    result = mtprobes("translate", "--model", str(MODEL), "--source", str(source), "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no sacremoses advice, no "Loading weights" bar
    assert re.fullmatch(rf"translated 4 lines \(2 distinct\) -> {re.escape(str(tmp_path / 'o'))} in \d+\.\d s "
                        r"\(\d+\.\d lines/s\)\n", result.stdout), result.stdout
    lines = (tmp_path / "o").read_text().splitlines()
    assert len(lines) == 4 and lines[0] == lines[2] == lines[3]


@pytest.mark.parametrize("where", ["before", "after"])
def test_verbose_shows_the_libraries_and_quiet_hides_them_before_or_after_the_command(
    source: Path, tmp_path: Path, where: str
) -> None:
    command = ["translate", "--model", str(MODEL), "--source", str(source), "--out", str(tmp_path / "o")]
    verbose = mtprobes(*(["-v", *command] if where == "before" else [*command, "-v"]))
    assert verbose.returncode == 0, verbose.stderr
    assert "Loading weights" in verbose.stderr
    quiet = mtprobes(*(["-q", *command] if where == "before" else [*command, "-q"]))
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def leaf_commands(command: object, path: str = "") -> Iterator[tuple[str, object]]:
    children = getattr(command, "commands", None)
    if children is None:
        yield path, command
        return
    for name, child in children.items():
        yield from leaf_commands(child, f"{path} {name}".strip())


def test_every_command_takes_quiet_and_verbose_after_its_name() -> None:
    commands = dict(leaf_commands(typer.main.get_command(app)))
    assert {"score", "translate", "build", "evaluate", "report"} <= set(commands)
    for name, command in commands.items():
        flags = {flag for param in command.params for flag in param.opts}  # type: ignore[attr-defined]
        assert {"-q", "--quiet", "-v", "--verbose"} <= flags, name


def test_score_with_q_after_the_command_is_no_usage_error(tmp_path: Path) -> None:
    """`mtprobes score ... -q` once said "No such option: -q"."""
    src, tgt = tmp_path / "s.en", tmp_path / "t.de"
    src.write_text("the cat is big\n")
    tgt.write_text("die Katze ist groß\n")
    result = mtprobes("score", "--model", str(MODEL), "--source", str(src), "--target", str(tgt),
                      "--out", str(tmp_path / "run"), "-q")
    assert result.returncode == 0, result.stderr
    assert re.match(r"scored 1 examples \(\d+ target tokens in \d+\.\d s, [\d.]+ tokens/s; \d+\.\d s in all\)",
                    result.stdout), result.stdout


def test_library_loggers_follow_verbose() -> None:
    eflomal = logging.getLogger("eflomal")
    try:
        chatter.configure_output(quiet=False, verbose=False, level=logging.INFO)
        assert not eflomal.isEnabledFor(logging.INFO)  # "INFO eflomal: Prepared 96 sentences for alignment"
        assert logging.getLogger("mtprobes").isEnabledFor(logging.INFO)
        chatter.configure_output(verbose=True)
        assert eflomal.isEnabledFor(logging.INFO)
    finally:
        chatter.configure_output(quiet=False, verbose=False, level=logging.INFO)


@pytest.mark.parametrize("command", [[], ["build"], ["score"], ["translate"], ["evaluate"]])
def test_help_imports_nothing_heavy(command: list[str]) -> None:
    probe = ("import sys; from builders.cli import main; sys.argv = ['mtprobes', *sys.argv[1:], '-h']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             f"print('heavy:', sorted(set({HEAVY!r}) & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert result.stdout.splitlines()[-1] == "heavy: []", result.stdout + result.stderr


def test_an_image_conditioned_model_loads_its_weights_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring a shuffles set showed two "Loading weights" bars: the seq2seq part was loaded twice."""
    import transformers

    from builders.scoring.image import ImageConditionedScorer
    from builders.scoring.protocol import ScoringOptions
    from builders.scoring.run import ModelSpec, load_scorer

    loads: list[str] = []
    real = transformers.AutoModelForSeq2SeqLM.from_pretrained
    monkeypatch.setattr(transformers.AutoModelForSeq2SeqLM, "from_pretrained",
                        lambda path, **kwargs: loads.append(path) or real(path, **kwargs))
    folder = resource_path("models", "images-image-aware")
    text, image = load_scorer(ModelSpec(str(folder)), ScoringOptions(device="cpu"))
    assert loads == [str(folder)]
    assert isinstance(image, ImageConditionedScorer) and text.model is image.model.seq2seq  # type: ignore[attr-defined]
