"""Image collections to retrieve from: folders, webdataset tars, parquet with image bytes, precomputed
embeddings (DataComp-style ``.npz`` with ``uid`` + features). Each reader yields items in a fixed order so
that embedding shards can be resumed by position, and can fetch the bytes of a few items later (thumbnails,
exported images).
"""

from __future__ import annotations

import abc
import glob
import hashlib
import os
import tarfile
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, ClassVar

from builders.core.errors import InputError
from builders.core.paths import resolve_input

if TYPE_CHECKING:
    import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".gif", ".tif", ".tiff")
UNSAFE_PATH = "unsafe_path"
SYMLINK_LOOP = "symlink_loop"
NO_IMAGE_BYTES = "no_image_bytes"
PARQUET_IMAGE_COLUMNS = ("image", "jpg", "jpeg", "png", "webp", "img", "image_bytes", "bytes")
PARQUET_UID_COLUMNS = ("uid", "key", "id", "__key__")
PARQUET_CAPTION_COLUMNS = ("caption", "text", "txt", "alt")


@dataclass(frozen=True)
class ReaderOptions:
    parquet_image_column: str = ""  # "" = first of PARQUET_IMAGE_COLUMNS present
    npz_features_key: str = ""  # "" = the only 2-D float array in the file


@dataclass(frozen=True)
class CollectionItem:
    uid: str  # stable identity shown to reviewers and written as provenance
    source: str  # where the bytes live inside the collection (relative path, tar member, parquet row)
    caption: str  # the collection's own caption / alt text, "" when it has none
    data: bytes | None  # None for items skipped on resume
    drop: str | None = None  # a reason the reader found itself (e.g. a member path leaving the archive)


class CollectionReader(abc.ABC):
    kind: ClassVar[str]
    precomputed: ClassVar[bool] = False

    def __init__(self, path: Path, options: ReaderOptions) -> None:
        self.path = path
        self.options = options

    @abc.abstractmethod
    def items(self, skip: int = 0) -> Iterator[CollectionItem]:
        """All items in a fixed order; the first ``skip`` come without bytes (already embedded)."""

    @abc.abstractmethod
    def fetch(self, sources: Sequence[str]) -> dict[str, bytes]:
        """Bytes of the given items (by ``source``)."""

    def listing_key(self) -> str:
        """A cheap identity (names, sizes, mtimes) used to decide whether cached embeddings still apply."""
        stat = self.path.stat()
        return _digest([self.kind, str(resolve_input(self.path)), str(stat.st_size), str(stat.st_mtime_ns)])


@contextmanager
def reading(path: Path, kind: str) -> Iterator[None]:
    """Turn a damaged or mislabelled collection file into one error naming it."""
    try:
        yield
    except InputError:
        raise
    except (tarfile.TarError, zipfile.BadZipFile, OSError, ValueError, EOFError, KeyError) as err:
        raise InputError(path, f"cannot read it as a {kind} collection: {type(err).__name__}: {err}"[:400]) from None


def _digest(parts: Sequence[str]) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _is_unsafe(name: str) -> bool:
    pure = PurePosixPath(name)
    return pure.is_absolute() or ".." in pure.parts


class FolderReader(CollectionReader):
    """Image files under a folder (recursively, sorted); ``name.txt`` beside ``name.jpg`` is its caption."""

    kind = "folder"

    def _files(self) -> list[str]:
        found = []
        for directory, subdirs, files in os.walk(self.path, followlinks=False):
            subdirs.sort()
            for name in sorted(files):
                if name.lower().endswith(IMAGE_SUFFIXES):
                    found.append(Path(directory, name).relative_to(self.path).as_posix())
        return found

    def items(self, skip: int = 0) -> Iterator[CollectionItem]:
        root = resolve_input(self.path)
        for position, relative in enumerate(self._files()):
            path = self.path / relative
            reason = _link_problem(path, root)
            if reason:  # a symlink pointing out of the collection, or to itself
                yield CollectionItem(relative, relative, "", None, drop=reason)
                continue
            sidecar = path.with_suffix(".txt")
            caption = sidecar.read_text(encoding="utf-8", errors="replace").strip() if sidecar.is_file() else ""
            yield CollectionItem(relative, relative, caption, None if position < skip else _read_file(path))

    def fetch(self, sources: Sequence[str]) -> dict[str, bytes]:
        return {source: (self.path / source).read_bytes() for source in sources}

    def listing_key(self) -> str:
        parts = [self.kind, str(resolve_input(self.path))]
        for relative in self._files():
            stat = (self.path / relative).lstat()  # lstat: a link loop has a listing entry too
            parts += [relative, str(stat.st_size), str(stat.st_mtime_ns)]
        return _digest(parts)


def _read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise InputError(path, f"cannot read the image file: {err.strerror}") from None


def _split_key(name: str) -> tuple[str, str]:
    """webdataset convention: the key is the member path up to the first dot of its file name."""
    directory, _, base = name.rpartition("/")
    stem, _, extension = base.partition(".")
    return (f"{directory}/{stem}" if directory else stem), extension.lower()


class WebdatasetReader(CollectionReader):
    """A webdataset shard: members grouped by key (``0001.jpg``, ``0001.txt``, ``0001.json``)."""

    kind = "webdataset"

    def items(self, skip: int = 0) -> Iterator[CollectionItem]:
        position = 0
        with reading(self.path, self.kind), tarfile.open(self.path, "r:*") as tar:
            for key, members in self._groups(tar):
                images = [m for ext, m in members.items() if ("." + ext.rpartition(".")[2]) in IMAGE_SUFFIXES]
                if not images:
                    continue
                image = sorted(images, key=lambda m: m.name)[0]
                caption = self._text(tar, members.get("txt"))
                uid = self._uid(tar, members.get("json"), key)
                if _is_unsafe(image.name):
                    yield CollectionItem(uid, image.name, caption, None, drop=UNSAFE_PATH)
                else:
                    data = None if position < skip else _read_member(tar, image)
                    yield CollectionItem(uid, image.name, caption, data)
                position += 1

    @staticmethod
    def _groups(tar: tarfile.TarFile) -> Iterator[tuple[str, dict[str, tarfile.TarInfo]]]:
        current: str | None = None
        members: dict[str, tarfile.TarInfo] = {}
        for member in tar:
            if not member.isfile():
                continue
            key, extension = _split_key(member.name)
            if key != current and members:
                yield current or "", members
                members = {}
            current = key
            members[extension] = member
        if members:
            yield current or "", members

    @staticmethod
    def _text(tar: tarfile.TarFile, member: tarfile.TarInfo | None) -> str:
        return _read_member(tar, member).decode("utf-8", errors="replace").strip() if member else ""

    def _uid(self, tar: tarfile.TarFile, member: tarfile.TarInfo | None, key: str) -> str:
        if member is not None:
            import json

            try:
                meta = json.loads(_read_member(tar, member))
            except ValueError:
                meta = None
            if isinstance(meta, dict) and isinstance(meta.get("uid"), str) and meta["uid"]:
                return str(meta["uid"])
        return f"{self.path.name}/{key}"

    def fetch(self, sources: Sequence[str]) -> dict[str, bytes]:
        with reading(self.path, self.kind), tarfile.open(self.path, "r:*") as tar:
            return {source: _read_member(tar, tar.getmember(source)) for source in sources}


def _read_member(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    handle = tar.extractfile(member)
    return handle.read() if handle is not None else b""


class ParquetReader(CollectionReader):
    """Rows of a parquet file with image bytes (binary, or a HF ``Image`` struct with ``bytes``)."""

    kind = "parquet"

    def _columns(self) -> tuple[str, str | None, str | None]:
        import pyarrow.parquet as pq

        with reading(self.path, self.kind):
            names = pq.ParquetFile(self.path).schema_arrow.names
        wanted = self.options.parquet_image_column
        image = wanted if wanted in names else next((c for c in PARQUET_IMAGE_COLUMNS if c in names), None)
        if image is None:
            hint = f"column {wanted!r} not found" if wanted else "no image column found"
            raise InputError(self.path, f"{hint}; columns are {names} (set parquet_image_column)")
        uid = next((c for c in PARQUET_UID_COLUMNS if c in names), None)
        caption = next((c for c in PARQUET_CAPTION_COLUMNS if c in names), None)
        return image, uid, caption

    def items(self, skip: int = 0) -> Iterator[CollectionItem]:
        image_column, uid_column, caption_column = self._columns()
        columns = [c for c in (image_column, uid_column, caption_column) if c]
        with reading(self.path, self.kind):
            yield from self._rows(columns, image_column, uid_column, caption_column, skip)

    def _rows(self, columns: list[str], image_column: str, uid_column: str | None, caption_column: str | None,
              skip: int) -> Iterator[CollectionItem]:
        import pyarrow.parquet as pq

        row = 0
        for batch in pq.ParquetFile(self.path).iter_batches(batch_size=256, columns=columns):
            values = batch.to_pydict()
            for index in range(batch.num_rows):
                uid = str(values[uid_column][index]) if uid_column else f"{self.path.name}#{row}"
                caption = str(values[caption_column][index] or "") if caption_column else ""
                data = _image_bytes(values[image_column][index])
                source = f"row {row}"
                if data is None:
                    yield CollectionItem(uid, source, caption, None, drop=NO_IMAGE_BYTES)
                else:
                    yield CollectionItem(uid, source, caption, None if row < skip else data)
                row += 1

    def fetch(self, sources: Sequence[str]) -> dict[str, bytes]:
        import pyarrow.parquet as pq

        image_column = self._columns()[0]
        parquet = pq.ParquetFile(self.path)
        starts = [0]
        for group in range(parquet.num_row_groups):
            starts.append(starts[-1] + parquet.metadata.row_group(group).num_rows)
        found: dict[str, bytes] = {}
        for source in sources:
            row = int(source.removeprefix("row "))
            group = max(g for g in range(parquet.num_row_groups) if starts[g] <= row)
            column = parquet.read_row_group(group, columns=[image_column]).column(0)
            found[source] = _image_bytes(column[row - starts[group]].as_py()) or b""
        return found


def _image_bytes(value: object) -> bytes | None:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, dict) and isinstance(value.get("bytes"), (bytes, bytearray)):
        return bytes(value["bytes"])
    return None


class NpzEmbeddingReader(CollectionReader):
    """Precomputed image embeddings: a ``uid`` array and one 2-D float feature matrix (DataComp style)."""

    kind = "npz"
    precomputed = True

    def embeddings(self) -> tuple[list[str], np.ndarray]:
        import numpy as np

        with reading(self.path, self.kind), np.load(self.path, allow_pickle=False) as archive:
            if "uid" not in archive.files:
                raise InputError(self.path, f"no 'uid' array; arrays are {archive.files}")
            key = self._features_key(archive.files, {k: archive[k] for k in archive.files if k != "uid"})
            uids = _format_uids(self.path, archive["uid"])
            features = np.asarray(archive[key], dtype=np.float32)
        if features.ndim != 2 or features.shape[0] != len(uids):
            raise InputError(self.path, f"{key!r} has shape {features.shape}, expected ({len(uids)}, dim)")
        return uids, features

    def _features_key(self, files: list[str], arrays: dict[str, np.ndarray]) -> str:
        wanted = self.options.npz_features_key
        if wanted:
            if wanted not in files:
                raise InputError(self.path, f"no array {wanted!r}; arrays are {files}")
            return wanted
        matrices = [k for k, v in arrays.items() if v.ndim == 2 and v.dtype.kind == "f"]
        if len(matrices) != 1:
            raise InputError(self.path, f"cannot tell the feature array among {matrices}; set npz_features_key")
        return matrices[0]

    def items(self, skip: int = 0) -> Iterator[CollectionItem]:
        for uid in self.embeddings()[0]:
            yield CollectionItem(uid, uid, "", None)

    def fetch(self, sources: Sequence[str]) -> dict[str, bytes]:
        return {}  # only embeddings are stored; reviewers see the uid


def _format_uids(path: Path, uids: np.ndarray) -> list[str]:
    """DataComp uids are 128-bit: stored as hex strings or as a pair of uint64."""
    if uids.dtype.kind in ("U", "S"):
        return [u.decode() if isinstance(u, bytes) else str(u) for u in uids.tolist()]
    if uids.dtype.names and len(uids.dtype.names) == 2:
        high, low = uids.dtype.names
        return [f"{int(h):016x}{int(lo):016x}" for h, lo in zip(uids[high], uids[low], strict=True)]
    if uids.dtype.kind in ("i", "u"):
        return [str(int(u)) for u in uids]
    raise InputError(path, f"'uid' array has unsupported dtype {uids.dtype}")


READERS: dict[str, type[CollectionReader]] = {
    reader.kind: reader for reader in (FolderReader, WebdatasetReader, ParquetReader, NpzEmbeddingReader)
}
SUFFIX_FORMATS = {".tar": "webdataset", ".tgz": "webdataset", ".gz": "webdataset", ".parquet": "parquet",
                  ".npz": "npz"}


def detect_format(path: Path) -> str:
    if path.is_dir():
        return "folder"
    found = SUFFIX_FORMATS.get(path.suffix.lower())
    if found is None:
        raise InputError(path, f"cannot tell the collection format from {path.suffix!r}; set collection_format")
    return found


def expand_paths(patterns: Sequence[str]) -> list[Path]:
    """Collection paths in config order; a glob (``shards/*.tar``) expands to its sorted matches."""
    paths: list[Path] = []
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            matches = sorted(glob.glob(pattern))
            if not matches:
                raise InputError(pattern, "collection pattern matches no file")
            paths += [Path(m) for m in matches]
        else:
            if not Path(pattern).exists():
                raise InputError(pattern, "collection not found")
            paths.append(Path(pattern))
    return paths


def collection_labels(paths: Sequence[str]) -> list[str]:
    """Portable names of the collections for the records: the file or folder name, numbered when repeated."""
    names = [Path(p).name or str(p) for p in paths]
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if names.count(name) == 1 else f"{name}({seen[name]})")
    return labels


def open_readers(patterns: Sequence[str], fmt: str, options: ReaderOptions) -> list[CollectionReader]:
    return [READERS[detect_format(p) if fmt == "auto" else fmt](p, options) for p in expand_paths(patterns)]


def _link_problem(path: Path, root: Path) -> str | None:
    """The drop reason of a collection file that is a link loop or leads outside the collection."""
    try:
        resolved = resolve_input(path)
    except InputError:
        return SYMLINK_LOOP
    return None if resolved.is_relative_to(root) else UNSAFE_PATH
