"""Readers for document-level EN-DE parallel text; each returns documents of sentence pairs.

Formats (chosen by the config key ``input_format``):
  docs   line-aligned ``.en``/``.de`` files, a line ``<d>`` starts a document
  wmt    ``source.en`` + ``ref.de`` + ``docs.tsv`` (``domain<TAB>document id`` per line)
  opus   OPUS Moses files + ``.ids`` (one subtitle file pair per document)
  jsonl  one ``{"doc_id", "src", "tgt"}`` object per line, documents contiguous
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from builders.core.errors import InputError
from builders.core.textio import iter_jsonl, iter_lines, iter_parallel, require_fields

DOC_MARK = "<d>"


@dataclass(frozen=True)
class SentencePair:
    src: str
    tgt: str
    line: int  # 1-based line in the input file(s), for messages


@dataclass(frozen=True)
class Document:
    doc_id: str  # ContraPro "document id"
    pairs: tuple[SentencePair, ...]


@dataclass
class ReadResult:
    documents: list[Document]
    input_files: list[Path]
    # Named problems that do not stop the build (e.g. ids lines naming missing documents): reason -> names.
    problems: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class InputSpec:
    src: str = ""
    tgt: str = ""
    docs_tsv: str = ""
    ids: str = ""
    opus_root: str = ""
    jsonl: str = ""


def _need(value: str, key: str, fmt: str) -> Path:
    if not value:
        raise InputError(f"<config {key}>", f"input_format {fmt!r} needs the config key {key!r}")
    return Path(value).expanduser()


@dataclass
class DocumentStream:
    """Documents read one at a time (the input is never held whole: issue 26); ``problems`` is complete once
    ``documents`` is exhausted."""

    documents: Iterator[Document]
    input_files: list[Path]
    problems: dict[str, list[str]] = field(default_factory=dict)


def stream_docs_format(spec: InputSpec) -> DocumentStream:
    src_path, tgt_path = _need(spec.src, "src", "docs"), _need(spec.tgt, "tgt", "docs")
    return DocumentStream(_docs_documents(src_path, tgt_path), [src_path, tgt_path])


def _docs_documents(src_path: Path, tgt_path: Path) -> Iterator[Document]:
    group: list[SentencePair] | None = None
    count = 0
    for number, (src, tgt) in enumerate(iter_parallel([src_path, tgt_path]), start=1):
        src_mark, tgt_mark = src.strip() == DOC_MARK, tgt.strip() == DOC_MARK
        if src_mark != tgt_mark:
            path = tgt_path if src_mark else src_path
            raise InputError(
                path, f"document marker {DOC_MARK} is on this line in only one of the two files", line=number
            )
        if src_mark:
            if group is not None:
                yield Document(f"{src_path.stem}-doc{count:05d}", tuple(group))
            group, count = [], count + 1
        elif group is not None:
            group.append(SentencePair(src.strip(), tgt.strip(), number))
        elif src.strip() or tgt.strip():
            raise InputError(
                src_path,
                f"sentence before the first {DOC_MARK} header (a document with no header)",
                line=number,
            )
    if group is None:
        raise InputError(src_path, f"no {DOC_MARK} document header found")
    yield Document(f"{src_path.stem}-doc{count:05d}", tuple(group))


def stream_wmt(spec: InputSpec) -> DocumentStream:
    src_path, tgt_path = _need(spec.src, "src", "wmt"), _need(spec.tgt, "tgt", "wmt")
    docs_path = _need(spec.docs_tsv, "docs_tsv", "wmt")
    return DocumentStream(_wmt_documents(src_path, tgt_path, docs_path), [src_path, tgt_path, docs_path])


def _wmt_documents(src_path: Path, tgt_path: Path, docs_path: Path) -> Iterator[Document]:
    return _contiguous_documents(_wmt_rows(src_path, tgt_path, docs_path), docs_path)


def _wmt_rows(src_path: Path, tgt_path: Path, docs_path: Path) -> Iterator[tuple[str, SentencePair]]:
    for number, (src, tgt, doc_line) in enumerate(iter_parallel([src_path, tgt_path, docs_path]), start=1):
        fields = doc_line.split("\t")
        if len(fields) != 2 or not fields[1].strip():
            raise InputError(docs_path, "expected 'domain<TAB>document id'", line=number)
        yield fields[1].strip(), SentencePair(src.strip(), tgt.strip(), number)


def _contiguous_documents(rows: Iterable[tuple[str, SentencePair]], path: Path) -> Iterator[Document]:
    """Documents of consecutive rows with the same id, each yielded once complete; an id that comes back after
    other documents is an error naming ``path`` and the line. Only the ids are remembered, one per document."""
    seen: set[str] = set()
    group: list[SentencePair] = []
    last = ""
    for doc_id, pair in rows:
        if doc_id != last or not group:
            if doc_id in seen:
                raise InputError(path, f"document {doc_id!r} resumes after other documents", line=pair.line)
            if group:
                yield Document(last, tuple(group))
            seen.add(doc_id)
            group = []
        group.append(pair)
        last = doc_id
    if group:
        yield Document(last, tuple(group))


def _opus_german_column(first_fields: list[str]) -> int:
    """The ids columns name the two subtitle files; the German one starts with 'de/' (else the second)."""
    return 0 if first_fields[0].startswith("de/") else 1


OpusNames = tuple[str, str]  # the two subtitle files an ids line names: one document


def stream_opus(spec: InputSpec) -> DocumentStream:
    """OPUS documents, one at a time. A document is its ids names, and its lines may come back after other
    documents: a first pass over the ids file finds each document's last line (one entry per document, never
    per line), so the second pass yields a document as soon as it is complete, in order of first appearance.
    With contiguous documents (OPUS's own files) one document is held at a time."""
    src_path, tgt_path = _need(spec.src, "src", "opus"), _need(spec.tgt, "tgt", "opus")
    ids_path = _need(spec.ids, "ids", "opus")
    root = Path(spec.opus_root).expanduser() if spec.opus_root else None
    problems: dict[str, list[str]] = {}
    documents = _opus_documents(src_path, tgt_path, ids_path, root, problems)
    return DocumentStream(documents, [src_path, tgt_path, ids_path], problems)


def _opus_names(ids_path: Path, id_line: str, number: int) -> tuple[list[str], OpusNames]:
    fields = id_line.split("\t")
    if len(fields) < 2:
        raise InputError(ids_path, "expected at least two tab-separated document names", line=number)
    return fields, (fields[0].strip(), fields[1].strip())


def _opus_last_lines(ids_path: Path) -> dict[OpusNames, int]:
    """The last ids line of every document (the first pass; bad lines raise here, naming file and line)."""
    last: dict[OpusNames, int] = {}
    for number, id_line in enumerate(iter_lines(ids_path, report=False), start=1):
        last[_opus_names(ids_path, id_line, number)[1]] = number
    return last


def _opus_documents(src_path: Path, tgt_path: Path, ids_path: Path, root: Path | None,
                    problems: dict[str, list[str]]) -> Iterator[Document]:
    last = _opus_last_lines(ids_path)
    open_documents: dict[OpusNames, list[SentencePair]] = {}  # in order of first appearance
    missing: dict[str, None] = {}
    german_column = -1
    for number, (src, tgt, id_line) in enumerate(iter_parallel([src_path, tgt_path, ids_path]), start=1):
        fields, names = _opus_names(ids_path, id_line, number)
        german_column = _opus_german_column(fields) if german_column < 0 else german_column
        if not all(names) or (root is not None and not all((root / n).exists() for n in names)):
            missing.setdefault(f"{ids_path}:{number}: {' / '.join(n or '<empty>' for n in names)}", None)
        else:
            open_documents.setdefault(names, []).append(SentencePair(src.strip(), tgt.strip(), number))
        while open_documents and last[next(iter(open_documents))] <= number:
            done = next(iter(open_documents))
            yield Document(done[german_column], tuple(open_documents.pop(done)))
    if missing:
        problems["ids_missing_document"] = list(missing)


def stream_jsonl(spec: InputSpec) -> DocumentStream:
    path = _need(spec.jsonl, "jsonl", "jsonl")
    return DocumentStream(_jsonl_documents(path), [path])


def _jsonl_documents(path: Path) -> Iterator[Document]:
    empty = True
    for document in _contiguous_documents(_jsonl_rows(path), path):
        empty = False
        yield document
    if empty:
        raise InputError(path, "no records")


def _jsonl_rows(path: Path) -> Iterator[tuple[str, SentencePair]]:
    for number, record in iter_jsonl(path):
        require_fields(path, number, record, ("doc_id", "src", "tgt"))
        doc_id, src, tgt = record["doc_id"], record["src"], record["tgt"]
        # a bool is an int to Python: true would become the document "True"
        if (not all(isinstance(v, str) for v in (src, tgt)) or not isinstance(doc_id, (str, int))
                or isinstance(doc_id, bool)):
            raise InputError(
                path, "'src' and 'tgt' must be strings, 'doc_id' a string or integer", line=number
            )
        if not str(doc_id).strip():  # the records' "document id" would be blank (wmt refuses it too)
            raise InputError(path, "'doc_id' is empty", line=number)
        yield str(doc_id), SentencePair(src.strip(), tgt.strip(), number)


STREAMS: dict[str, Callable[[InputSpec], DocumentStream]] = {
    "docs": stream_docs_format,
    "wmt": stream_wmt,
    "opus": stream_opus,
    "jsonl": stream_jsonl,
}


def stream_input(input_format: str, spec: InputSpec) -> DocumentStream:
    return STREAMS[input_format](spec)


def read_input(input_format: str, spec: InputSpec) -> ReadResult:
    """The whole input at once (small inputs, tests); builds stream it with ``stream_input``."""
    stream = stream_input(input_format, spec)
    documents = list(stream.documents)  # problems are complete once the documents are read
    return ReadResult(documents, stream.input_files, stream.problems)


__all__ = ["DOC_MARK", "STREAMS", "Document", "DocumentStream", "InputSpec", "ReadResult",
           "SentencePair", "read_input", "stream_input"]
