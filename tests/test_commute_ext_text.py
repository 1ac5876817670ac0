"""commute_ext: CoMMuTE text layout, captions file, caption template command."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from builders.commute_ext.commute import (
    caption_template,
    group_pairs,
    read_captions,
    read_commute,
    resolve_image,
)
from builders.core.errors import InputError

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext"


@pytest.fixture
def commute_copy(tmp_path: Path) -> Path:
    target = tmp_path / "en-de"
    shutil.copytree(SAMPLE / "commute" / "en-de", target)
    return target


def test_sample_pairs_are_exact_swaps() -> None:
    lines = read_commute(SAMPLE / "commute" / "en-de", "de")
    groups = group_pairs(lines, SAMPLE / "commute" / "en-de" / "src.en")
    assert [len(g.lines) for g in groups] == [2, 2, 2]
    assert all(g.exact_swap for g in groups)
    assert groups[0].lines[1].correct == "Er ging hinüber zum Ufer."


@pytest.mark.shared
@pytest.mark.parametrize(("lang", "sources", "inexact"), [("de", 150, 0), ("fr", 154, 2), ("cs", 154, 0)])
def test_real_commute_text(shared_data: Path, tmp_path: Path, lang: str, sources: int, inexact: int) -> None:
    folder = shared_data / "commute" / f"en-{lang}"
    lines = read_commute(folder, lang)
    groups = group_pairs(lines, folder / "src.en")
    assert len(groups) == sources
    assert sum(not g.exact_swap for g in groups) == inexact  # en-fr has two pairs with variant wording
    assert all(line.image.endswith((".jpeg", ".jpg", ".png")) for line in lines)
    template = caption_template(lines)
    assert template.count("\n") == len(lines) + 1
    filled = tmp_path / "captions.tsv"
    filled.write_text(caption_template(lines, prefix="a photo of something"), encoding="utf-8")
    assert read_captions(filled, lines) == ["a photo of something"] * len(lines)  # sources match src.en
    empty = tmp_path / "empty.tsv"
    empty.write_text(template, encoding="utf-8")
    with pytest.raises(InputError, match="empty.tsv:2: empty caption for CoMMuTE line 1"):
        read_captions(empty, lines)


def test_line_count_mismatch_names_every_file(commute_copy: Path) -> None:
    order = commute_copy / "img.order"
    order.write_text(order.read_text() + "extra.png\n")
    with pytest.raises(InputError, match=r"img.order has 7 lines") as err:
        read_commute(commute_copy, "de")
    assert "src.en has 6 lines" in str(err.value)


def test_unpaired_source_names_the_line(commute_copy: Path) -> None:
    src = commute_copy / "src.en"
    lines = src.read_text().splitlines()
    lines[3] = "Something else entirely."
    src.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"src.en:4: line 4 should repeat the source of line 3"):
        group_pairs(read_commute(commute_copy, "de"), src)


@pytest.mark.parametrize(
    ("name", "message"),
    [("../outside.png", "escapes the image root"), ("/etc/passwd", "is absolute"),
     ("sub/../../x.png", "escapes the image root"), ("", "empty image name")],
)
def test_image_paths_must_stay_under_the_root(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as err:
        resolve_image(tmp_path / "images", name, tmp_path / "img.order", 5)
    assert "img.order:5" in str(err.value)


def test_image_path_inside_root_resolves(tmp_path: Path) -> None:
    assert resolve_image(tmp_path, "a/b.png", tmp_path / "img.order", 1) == (tmp_path / "a" / "b.png").resolve()


def test_captions_plain_text_and_tsv(tmp_path: Path) -> None:
    lines = read_commute(SAMPLE / "commute" / "en-de", "de")
    assert read_captions(SAMPLE / "captions.tsv", lines)[1] == "a photo of a river bank with grass"
    plain = tmp_path / "captions.txt"
    plain.write_text("".join(f"caption {i}\n" for i in range(6)))
    assert read_captions(plain, lines) == [f"caption {i}" for i in range(6)]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("".join(f"c{i}\n" for i in range(5)), "has 5 captions but the CoMMuTE files have 6 lines"),
        ("".join(f"c{i}\n" for i in range(7)), "has 7 captions but the CoMMuTE files have 6 lines"),
        ("c0\nc1\n\nc3\nc4\nc5\n", r"captions.txt:3: empty caption for CoMMuTE line 3"),
    ],
)
def test_bad_plain_captions(tmp_path: Path, content: str, message: str) -> None:
    lines = read_commute(SAMPLE / "commute" / "en-de", "de")
    path = tmp_path / "captions.txt"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_captions(path, lines)


def test_misaligned_tsv_is_refused(tmp_path: Path) -> None:
    lines = read_commute(SAMPLE / "commute" / "en-de", "de")
    rows = (SAMPLE / "captions.tsv").read_text(encoding="utf-8").splitlines()
    rows[2], rows[3] = rows[3], rows[2]  # swap two data rows: sources 2 and 3 differ
    path = tmp_path / "captions.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"captions.tsv:3: source column does not match src.en line 2"):
        read_captions(path, lines)


def test_template_then_unfilled_caption_is_an_error(tmp_path: Path) -> None:
    from builders.commute_ext.cli import register

    app = typer.Typer()
    register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer in multi-command mode, as in the real app
        """Nothing."""

    out = tmp_path / "captions.tsv"
    result = CliRunner().invoke(app, ["caption-template", str(SAMPLE / "commute" / "en-de"), "--lang", "de",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "6 lines" in result.output
    header, first = out.read_text(encoding="utf-8").splitlines()[:2]
    assert header.split("\t") == ["line", "source", "translation", "contrast", "image", "caption"]
    assert first.split("\t")[:3] == ["1", "He walked over to the bank.", "Er ging hinüber zur Bank."]
    lines = read_commute(SAMPLE / "commute" / "en-de", "de")
    with pytest.raises(InputError, match=r"captions.tsv:2: empty caption for CoMMuTE line 1"):
        read_captions(out, lines)
    again = CliRunner().invoke(app, ["caption-template", str(SAMPLE / "commute" / "en-de"), "--out", str(out)])
    assert again.exit_code != 0 and "exists" in again.output


def test_template_on_missing_folder_is_one_clear_error(tmp_path: Path) -> None:
    from builders.commute_ext.cli import register

    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    result = CliRunner().invoke(app, ["caption-template", str(tmp_path / "nope"), "--out", str(tmp_path / "c.tsv")])
    assert result.exit_code == 1
    assert "CoMMuTE folder not found" in result.output
