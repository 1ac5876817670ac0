"""Readers of pronouns.v1 and their bad-input errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders.core.errors import ConfigError, InputError
from builders.pronouns.config import PronounsConfig
from builders.pronouns.readers import InputSpec, read_input


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_docs_format_splits_documents(tmp_path: Path) -> None:
    src = write(tmp_path / "a.en", "<d>\nOne.\nTwo.\n<d>\nThree.\n")
    tgt = write(tmp_path / "a.de", "<d>\nEins.\nZwei.\n<d>\nDrei.\n")
    result = read_input("docs", InputSpec(src=str(src), tgt=str(tgt)))
    assert [d.doc_id for d in result.documents] == ["a-doc00001", "a-doc00002"]
    assert [p.src for p in result.documents[0].pairs] == ["One.", "Two."]
    assert result.documents[1].pairs[0].line == 5


@pytest.mark.parametrize(
    ("en", "de", "message"),
    [
        ("<d>\nOne.\nTwo.\n", "<d>\nEins.\n", "a.en has 3 lines, "),
        ("One.\n<d>\nTwo.\n", "Eins.\n<d>\nZwei.\n", "a.en:1: sentence before the first <d> header"),
        ("<d>\nOne.\n<d>\n", "<d>\nEins.\nZwei.\n", "a.de:3: document marker <d>"),
        ("One.\nTwo.\n", "Eins.\nZwei.\n", "a.en:1: sentence before"),
    ],
)
def test_docs_format_bad_input(tmp_path: Path, en: str, de: str, message: str) -> None:
    src, tgt = write(tmp_path / "a.en", en), write(tmp_path / "a.de", de)
    with pytest.raises(InputError) as err:
        read_input("docs", InputSpec(src=str(src), tgt=str(tgt)))
    assert message in str(err.value)


def test_mixed_encoding_names_file_and_line(tmp_path: Path) -> None:
    src = write(tmp_path / "a.en", "<d>\nOne.\n")
    tgt = write(tmp_path / "a.de", "<d>\nGr\xfc\xdfe.\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"a\.de:2 \(byte \d+\): invalid UTF-8"):
        read_input("docs", InputSpec(src=str(src), tgt=str(tgt)))


def test_wmt_groups_by_document(tmp_path: Path) -> None:
    src = write(tmp_path / "source.en", "A.\nB.\nC.\n")
    tgt = write(tmp_path / "ref.de", "A.\nB.\nC.\n")
    docs = write(tmp_path / "docs.tsv", "news\tx1\nnews\tx1\nspeech\ty2\n")
    result = read_input("wmt", InputSpec(src=str(src), tgt=str(tgt), docs_tsv=str(docs)))
    assert [(d.doc_id, len(d.pairs)) for d in result.documents] == [("x1", 2), ("y2", 1)]


@pytest.mark.parametrize(
    ("docs_tsv", "message"),
    [
        ("news\tx1\nnews\ty2\nnews\tx1\n", "docs.tsv:3: document 'x1' resumes"),
        ("news\nnews\tx\nn\tx\n", "docs.tsv:1"),
    ],
)
def test_wmt_bad_docs_tsv(tmp_path: Path, docs_tsv: str, message: str) -> None:
    src = write(tmp_path / "source.en", "A.\nB.\nC.\n")
    tgt = write(tmp_path / "ref.de", "A.\nB.\nC.\n")
    docs = write(tmp_path / "docs.tsv", docs_tsv)
    with pytest.raises(InputError, match=message):
        read_input("wmt", InputSpec(src=str(src), tgt=str(tgt), docs_tsv=str(docs)))


def test_opus_ids_documents_and_missing_ones(tmp_path: Path) -> None:
    src = write(tmp_path / "os.en", "A.\nB.\nC.\nD.\n")
    tgt = write(tmp_path / "os.de", "A.\nB.\nC.\nD.\n")
    ids = write(
        tmp_path / "os.ids",
        "de/2001/1/a.xml.gz\ten/2001/1/b.xml.gz\t1\t1\n"
        "de/2001/1/a.xml.gz\ten/2001/1/b.xml.gz\t2\t2\n"
        "de/2002/9/gone.xml.gz\ten/2002/9/gone.xml.gz\t1\t1\n"
        "de/2003/5/c.xml.gz\ten/2003/5/d.xml.gz\t1\t1\n",
    )
    root = tmp_path / "root"
    for name in ("de/2001/1/a.xml.gz", "en/2001/1/b.xml.gz", "de/2003/5/c.xml.gz", "en/2003/5/d.xml.gz"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"")
    result = read_input("opus", InputSpec(src=str(src), tgt=str(tgt), ids=str(ids), opus_root=str(root)))
    assert [(d.doc_id, len(d.pairs)) for d in result.documents] == [
        ("de/2001/1/a.xml.gz", 2),
        ("de/2003/5/c.xml.gz", 1),
    ]
    assert [p.line for p in result.documents[0].pairs] == [1, 2]
    missing = result.problems["ids_missing_document"]
    assert len(missing) == 1 and "os.ids:3" in missing[0] and "gone.xml.gz" in missing[0]


def test_opus_ids_line_count_mismatch(tmp_path: Path) -> None:
    src = write(tmp_path / "os.en", "A.\nB.\n")
    tgt = write(tmp_path / "os.de", "A.\nB.\n")
    ids = write(tmp_path / "os.ids", "de/a\ten/b\t1\t1\n")
    with pytest.raises(InputError, match="os.ids has 1 lines"):
        read_input("opus", InputSpec(src=str(src), tgt=str(tgt), ids=str(ids)))


OPUS_NAMES = "de/2001/1/{0}.xml.gz\ten/2001/1/{0}.xml.gz\t1\t1\n"


def test_opus_is_streamed_a_document_at_a_time(tmp_path: Path) -> None:
    """Issue 26: a complete document is yielded before the lines after it are read (here: a bad line that ends
    the stream only once the first document is out), instead of after the whole input."""
    from builders.pronouns.readers import stream_input

    src = write(tmp_path / "os.en", b"A.\nB.\nC.\nbad \xff.\n")
    tgt = write(tmp_path / "os.de", "A.\nB.\nC.\nD.\n")
    ids = write(tmp_path / "os.ids", OPUS_NAMES.format("a") * 2 + OPUS_NAMES.format("b") * 2)
    stream = stream_input("opus", InputSpec(src=str(src), tgt=str(tgt), ids=str(ids)))
    first = next(stream.documents)
    assert (first.doc_id, [p.src for p in first.pairs]) == ("de/2001/1/a.xml.gz", ["A.", "B."])
    with pytest.raises(InputError, match=r"os\.en:4 \(byte 13\): invalid UTF-8"):
        next(stream.documents)


def test_opus_document_that_comes_back_keeps_its_place_and_all_its_lines(tmp_path: Path) -> None:
    """Lines of a document after other documents join it; documents come in order of first appearance."""
    src = write(tmp_path / "os.en", "A1.\nB1.\nA2.\nC1.\nB2.\nD1.\n")
    tgt = write(tmp_path / "os.de", "a1.\nb1.\na2.\nc1.\nb2.\nd1.\n")
    order = "ABACBD"
    ids = write(tmp_path / "os.ids", "".join(OPUS_NAMES.format(name) for name in order))
    result = read_input("opus", InputSpec(src=str(src), tgt=str(tgt), ids=str(ids)))
    assert [(d.doc_id[-8], [p.line for p in d.pairs]) for d in result.documents] == [
        ("A", [1, 3]), ("B", [2, 5]), ("C", [4]), ("D", [6])]
    assert [p.tgt for p in result.documents[1].pairs] == ["b1.", "b2."]


def test_opus_ids_file_read_twice_counts_its_replaced_characters_once(tmp_path: Path) -> None:
    """The first pass over the ids file neither warns nor counts: info.json's count is the file's, as before."""
    from builders.core.textio import counting_normalised

    src = write(tmp_path / "os.en", "A.\nB.\n")
    tgt = write(tmp_path / "os.de", "A.\nB.\n")
    ids = write(tmp_path / "os.ids", OPUS_NAMES.format("a\x00") + OPUS_NAMES.format("a\x00"))
    with counting_normalised() as counted:
        result = read_input("opus", InputSpec(src=str(src), tgt=str(tgt), ids=str(ids)))
    assert dict(counted) == {str(ids): 4}  # NUL -> space, twice per line (both names), two lines
    assert [(d.doc_id, len(d.pairs)) for d in result.documents] == [("de/2001/1/a .xml.gz", 2)]


@pytest.mark.parametrize("line", [2, 5])
def test_opus_bad_ids_line_names_file_and_line(tmp_path: Path, line: int) -> None:
    src = write(tmp_path / "os.en", "A.\n" * 5)
    tgt = write(tmp_path / "os.de", "A.\n" * 5)
    rows = [OPUS_NAMES.format("a")] * 5
    rows[line - 1] = "de/2001/1/a.xml.gz only one name\n"
    ids = write(tmp_path / "os.ids", "".join(rows))
    with pytest.raises(InputError, match=rf"os\.ids:{line}: expected at least two tab-separated document names"):
        read_input("opus", InputSpec(src=str(src), tgt=str(tgt), ids=str(ids)))


def test_jsonl_reader_and_errors(tmp_path: Path) -> None:
    good = write(
        tmp_path / "ok.jsonl",
        "\n".join(
            json.dumps(r)
            for r in [
                {"doc_id": "d1", "src": "A.", "tgt": "A."},
                {"doc_id": "d1", "src": "B.", "tgt": "B."},
                {"doc_id": 7, "src": "C.", "tgt": "C."},
            ]
        )
        + "\n",
    )
    result = read_input("jsonl", InputSpec(jsonl=str(good)))
    assert [(d.doc_id, len(d.pairs)) for d in result.documents] == [("d1", 2), ("7", 1)]
    missing = write(tmp_path / "bad.jsonl", '{"doc_id": "d1", "src": "A."}\n')
    with pytest.raises(InputError, match=r"bad.jsonl:1: missing field\(s\) 'tgt'"):
        read_input("jsonl", InputSpec(jsonl=str(missing)))
    broken = write(tmp_path / "broken.jsonl", '{"doc_id": "d1", "src": "A.", "tgt": "A."}\n{oops\n')
    with pytest.raises(InputError, match=r"broken.jsonl:2: invalid JSON"):
        read_input("jsonl", InputSpec(jsonl=str(broken)))
    records = [{"doc_id": d, "src": "A.", "tgt": "A."} for d in ("d1", "d2", "d1")]
    resumed = write(tmp_path / "resumed.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(InputError, match=r"resumed.jsonl:3: document 'd1' resumes"):
        read_input("jsonl", InputSpec(jsonl=str(resumed)))
    empty = write(tmp_path / "empty.jsonl", "\n\n")  # blank lines only: no record
    with pytest.raises(InputError, match=r"empty.jsonl: no records"):
        read_input("jsonl", InputSpec(jsonl=str(empty)))


@pytest.mark.parametrize(
    ("doc_id", "message"),
    [
        ("", "'doc_id' is empty"),  # were records of the document "", "  " and "True"
        ("  ", "'doc_id' is empty"),
        (True, "'doc_id' a string or integer"),
    ],
)
def test_jsonl_blank_or_boolean_document_id_names_the_line(tmp_path: Path, doc_id: object, message: str) -> None:
    records = [{"doc_id": "d1", "src": "A.", "tgt": "A."}, {"doc_id": doc_id, "src": "B.", "tgt": "B."}]
    path = write(tmp_path / "ids.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(InputError, match=f"ids.jsonl:2: .*{message}"):
        read_input("jsonl", InputSpec(jsonl=str(path)))


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"input_format": "wmt", "src": "a", "tgt": "b"}, "'docs_tsv': required"),
        ({"input_format": "docs", "src": "a"}, "'tgt': required"),
        ({"src": "a", "tgt": "b", "max_ante_distance": -1}, "'max_ante_distance'"),
        ({"src": "a", "tgt": "b", "coref": "magic"}, "'coref'"),
        ({"src": "a", "tgt": "b", "context_sentences": 5}, "'context_sentences'"),
        # a floor no item can match (a typo, another language's class) was accepted and did nothing
        ({"src": "a", "tgt": "b", "class_min_confidence": {"zz": 0.5}},
         r"'class_min_confidence': 'zz' is not a pronoun class of tgt_lang 'de' \(er, es, sie\)$"),
        ({"src": "a", "tgt": "b", "class_min_confidence": {"ils": 0.9}},
         r"'class_min_confidence': 'ils' is not a pronoun class of tgt_lang 'de'"),
        ({"src": "a", "tgt": "b", "tgt_lang": "fr", "class_min_confidence": {"Ils": 0.9}},
         r"'Ils' is not a pronoun class of tgt_lang 'fr' \(elle, elles, il, ils\); did you mean 'ils'"),
    ],
)
def test_config_errors_name_the_key(values: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        PronounsConfig.from_mapping(values)


def test_readers_on_shared_real_data(shared_data: Path) -> None:
    wmt = shared_data / "wmt24-ende"
    result = read_input(
        "wmt", InputSpec(src=str(wmt / "source.en"), tgt=str(wmt / "ref.de"), docs_tsv=str(wmt / "docs.tsv"))
    )
    assert len(result.documents) == 171
    assert sum(len(d.pairs) for d in result.documents) == 998
    for corpus, documents in (("IWSLT2017", 93), ("NC-2016", 81)):
        folder = shared_data / "docs-ende" / corpus
        docs = read_input("docs", InputSpec(src=str(folder / "dev.en"), tgt=str(folder / "dev.de")))
        assert len(docs.documents) == documents
        assert all(p.src != "<d>" for d in docs.documents for p in d.pairs)
