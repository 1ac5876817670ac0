"""Embeddings of a collection, written in shards (``shard-NNNNN.npy`` + ``.json``) and memory-mapped.

One pass: reader -> filter -> encoder -> shard. A store shard is ``shard_size`` consecutive collection items;
its batches of ``batch_size`` items are decoded, filtered and embedded as tasks on the build's executor
(in parallel on a process pool or a Ray cluster), then the driver applies the rules that depend on earlier
images (exact duplicates, repeated uids) in collection order and writes the shard. The batches depend on the
settings only, so every executor gives the same vectors. A shard's JSON is written after its matrix, both
atomically, and records how many collection items were consumed and what was dropped, so a killed pass resumes
after the last whole shard with the same counts and the same duplicate memory. ``manifest.json`` pins the
model, filter settings and the collection listing; a finished store is reused as long as they match.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builders.core.atomic import atomic_path, write_text
from builders.core.errors import InputError

from .embed import ModelSpec
from .filters import FilterSettings, ImageFilter, Verdict, inspect
from .readers import CollectionItem, CollectionReader, NpzEmbeddingReader

if TYPE_CHECKING:
    import numpy as np

    from .embed import ClipEncoder

# map(task, items, shared) -> results in item order: the build's executor (BuildContext.map), or in-process
MapFunction = Callable[[Callable[[Any, Any], Any], Sequence[Any], Any], list[Any]]


def map_here(task: Callable[[Any, Any], Any], items: Sequence[Any], shared: Any) -> list[Any]:
    return [task(item, shared) for item in items]


# 3: shards list their dropped images (uid, reason); 2: shards of consumed items, embedded per batch of items
# (1: shards of kept embeddings)
STORE_FORMAT = 3
INVALID_EMBEDDING = "invalid_embedding"
DUPLICATE_UID = "duplicate_uid"


@dataclass
class PassCounts:
    read: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    # [reason, uid, collection index] of every dropped image, in collection order (the build's dropped.jsonl)
    dropped_images: list[list[Any]] = field(default_factory=list)

    def drop(self, reason: str, uid: str, collection: int) -> None:
        self.dropped[reason] += 1
        self.dropped_images.append([reason, uid, collection])

    def to_dict(self) -> dict[str, Any]:
        return {"read": self.read, "kept": self.kept, "dropped": dict(sorted(self.dropped.items()))}

    @classmethod
    def from_dict(cls, data: dict[str, Any], dropped_images: list[list[Any]]) -> PassCounts:
        return cls(int(data["read"]), int(data["kept"]), Counter(data["dropped"]), list(dropped_images))

    def add(self, other: PassCounts) -> None:
        self.read += other.read
        self.kept += other.kept
        self.dropped.update(other.dropped)
        self.dropped_images.extend(other.dropped_images)


@dataclass
class Meta:
    """What the store keeps per embedded image besides its vector."""

    uid: str
    source: str
    caption: str
    collection: int  # index into the collection list
    sha256: str


class StoreView:
    """Read-only view over the shards: memory-mapped matrices and the per-row metadata."""

    def __init__(self, directory: Path) -> None:
        import numpy as np

        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        self.directory = directory
        self.dim: int = manifest["dim"]
        self.collections: list[str] = manifest["collections"]
        self.fingerprint: str = manifest["content_fingerprint"]
        self.counts = PassCounts.from_dict(manifest["counts"], manifest["dropped_images"])
        self.shards: list[np.ndarray] = []
        self.meta: list[Meta] = []
        for index in range(manifest["shards"]):
            self.shards.append(np.load(directory / f"shard-{index:05d}.npy", mmap_mode="r"))
            self.meta += [Meta(**m) for m in _read_json(directory / f"shard-{index:05d}.json")["meta"]]
        self.offsets = np.cumsum([0] + [len(s) for s in self.shards])

    def __len__(self) -> int:
        return len(self.meta)

    def iter_blocks(self) -> Iterator[tuple[int, np.ndarray]]:
        """(first row, matrix) per shard, without loading the whole store."""
        for start, shard in zip(self.offsets[:-1], self.shards, strict=True):
            yield int(start), shard

    def vectors(self, rows: Iterable[int]) -> np.ndarray:
        import numpy as np

        wanted = list(rows)
        if not wanted:
            return np.zeros((0, self.dim), dtype=np.float32)
        shard_of = np.searchsorted(self.offsets, wanted, side="right") - 1
        return np.stack([self.shards[s][r - self.offsets[s]] for s, r in zip(shard_of, wanted, strict=True)])

    def matrix(self) -> np.ndarray:
        import numpy as np

        if not self.shards:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.ascontiguousarray(np.concatenate(self.shards), dtype=np.float32)


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass
class StorePass:
    """Settings of one pass over the collection."""

    directory: Path
    key: dict[str, Any]  # model identity, filter settings, listing keys: a change invalidates the store
    collections: list[str]
    shard_size: int = 4096
    batch_size: int = 64
    decode_workers: int = 0  # decoding threads within one embedding task
    track: Callable[[Iterable[Any], str], Iterable[Any]] = lambda items, _description: items
    map: MapFunction = map_here


def build_store(readers: list[CollectionReader], encoder: ClipEncoder, image_filter: ImageFilter,
                settings: StorePass) -> StoreView:
    """Embed the collection (or reuse/resume a previous pass) and return the memory-mapped view."""
    writer = _ShardWriter(settings)
    if writer.complete:
        return StoreView(settings.directory)
    image_filter.kept_hashes.update(writer.kept_hashes)
    _ENCODERS[encoder.spec] = encoder  # tasks in this process (and forked workers) use it; Ray workers load one
    entries = _entries(readers, writer.consumed)
    _Pass(writer, encoder, image_filter, settings).run(settings.track(entries, "embedding collection"))
    writer.finish(encoder.dim)
    return StoreView(settings.directory)


@dataclass
class _Entry:
    item: CollectionItem
    collection: int
    vector: np.ndarray | None = None  # precomputed embedding
    skipped: bool = False  # consumed by an earlier, interrupted pass


def _entries(readers: list[CollectionReader], consumed: int) -> Iterator[_Entry]:
    position = 0
    for index, reader in enumerate(readers):
        if isinstance(reader, NpzEmbeddingReader):
            uids, features = reader.embeddings()
            for uid, vector in zip(uids, features, strict=True):
                yield _Entry(CollectionItem(uid, uid, "", None), index, vector, skipped=position < consumed)
                position += 1
            continue
        for item in reader.items(skip=max(0, consumed - position)):
            yield _Entry(item, index, skipped=position < consumed)
            position += 1


class _ShardWriter:
    """Owns the files: finds what an interrupted pass left, writes shards and the final manifest."""

    def __init__(self, settings: StorePass) -> None:
        self.directory = settings.directory
        self.key = settings.key
        self.collections = settings.collections
        self.counts = PassCounts()
        self.consumed = 0
        self.shards = 0
        self.kept_hashes: set[str] = set()
        self.kept_uids: set[str] = set()
        self.complete = False
        self._load()

    def _load(self) -> None:
        progress = self.directory / "progress.json"
        manifest = self.directory / "manifest.json"
        if manifest.exists() and _read_json(manifest).get("key") == self.key:
            self.complete = True
            return
        if not (progress.exists() and _read_json(progress).get("key") == self.key):
            if self.directory.exists():
                shutil.rmtree(self.directory)
            self.directory.mkdir(parents=True)
            write_text(progress, json.dumps({"key": self.key}, sort_keys=True))
            return
        while (self.directory / f"shard-{self.shards:05d}.json").exists():
            shard = _read_json(self.directory / f"shard-{self.shards:05d}.json")
            self.counts.add(PassCounts.from_dict(shard["counts"], shard["dropped_images"]))
            self.consumed = shard["consumed"]
            self.kept_hashes.update(m["sha256"] for m in shard["meta"])
            self.kept_uids.update(m["uid"] for m in shard["meta"])
            self.shards += 1

    def write(self, vectors: np.ndarray, meta: list[Meta], counts: PassCounts, consumed: int) -> None:
        import numpy as np

        name = f"shard-{self.shards:05d}"
        with atomic_path(self.directory / f"{name}.npy") as tmp, open(tmp, "wb") as handle:
            np.save(handle, np.asarray(vectors, dtype=np.float32))
        record = {"consumed": consumed, "counts": counts.to_dict(), "dropped_images": counts.dropped_images,
                  "meta": [m.__dict__ for m in meta]}
        write_text(self.directory / f"{name}.json", json.dumps(record, ensure_ascii=False))
        self.counts.add(counts)
        self.consumed = consumed
        self.shards += 1

    def finish(self, dim: int) -> None:
        import hashlib

        digest = hashlib.sha256()
        for index in range(self.shards):
            digest.update((self.directory / f"shard-{index:05d}.json").read_bytes())
        manifest = {
            "format": STORE_FORMAT, "key": self.key, "dim": dim, "shards": self.shards,
            "collections": self.collections, "counts": self.counts.to_dict(),
            "dropped_images": self.counts.dropped_images,
            "content_fingerprint": digest.hexdigest(),
        }
        write_text(self.directory / "manifest.json", json.dumps(manifest, indent=1, sort_keys=True))


@dataclass(frozen=True)
class EmbedJob:
    """What an embedding task needs besides its images (sent once per worker)."""

    spec: ModelSpec
    settings: FilterSettings
    decode_workers: int = 0


@dataclass(frozen=True)
class Inspected:
    """What a task found out about one image: its hash and the first failing rule (None: embedded)."""

    sha256: str
    reason: str | None


@dataclass(frozen=True)
class EmbeddedBatch:
    inspected: tuple[Inspected | None, ...]  # None where the item had no bytes to look at
    vectors: np.ndarray  # one row per item whose reason is None, in item order


# The encoders of this process by model: the driver's own (registered by build_store), or one loaded by a worker.
_ENCODERS: dict[ModelSpec, ClipEncoder] = {}


def _encoder(spec: ModelSpec) -> ClipEncoder:
    if spec not in _ENCODERS:
        from .embed import ClipEncoder

        _ENCODERS[spec] = ClipEncoder(spec)
    return _ENCODERS[spec]


def embed_batch(images: tuple[bytes | None, ...], job: EmbedJob) -> EmbeddedBatch:
    """A task: decode and check each image on its own, embed the ones that pass as one batch."""
    import numpy as np

    def look(data: bytes | None) -> Verdict | None:
        return None if data is None else inspect(data, job.settings)

    if job.decode_workers > 0 and len(images) > 1:
        with ThreadPoolExecutor(job.decode_workers) as pool:
            verdicts = list(pool.map(look, images))
    else:
        verdicts = [look(data) for data in images]
    encoder = _encoder(job.spec)
    passed = [encoder.preprocess(v.image) for v in verdicts if v is not None and v.image is not None]
    vectors = encoder.encode_pixels(passed) if passed else np.zeros((0, encoder.dim), np.float32)
    inspected = tuple(None if v is None else Inspected(v.sha256, v.reason) for v in verdicts)
    return EmbeddedBatch(inspected, vectors)


class _Pass:
    def __init__(self, writer: _ShardWriter, encoder: ClipEncoder, image_filter: ImageFilter,
                 settings: StorePass) -> None:
        self.writer = writer
        self.encoder = encoder
        self.filter = image_filter
        self.settings = settings
        self.counts = PassCounts()
        self.consumed = writer.consumed
        self.ready: list[tuple[Meta, np.ndarray]] = []
        self.job = EmbedJob(encoder.spec, image_filter.settings, settings.decode_workers)

    def run(self, entries: Iterable[_Entry]) -> None:
        shard: list[_Entry] = []
        for entry in entries:
            if entry.skipped:
                continue
            shard.append(entry)
            if len(shard) >= max(self.settings.shard_size, 1):
                self._shard(shard)
                shard = []
        if shard:
            self._shard(shard)

    def _shard(self, entries: list[_Entry]) -> None:
        """Embed one store shard's batches on the executor, then apply the order-dependent rules and write it."""
        size = max(self.settings.batch_size, 1)
        batches = [entries[first:first + size] for first in range(0, len(entries), size)]
        images = [tuple(e.item.data if _needs_embedding(e) else None for e in batch) for batch in batches]
        for batch, embedded in zip(batches, self.settings.map(embed_batch, images, self.job), strict=True):
            vectors = iter(embedded.vectors)
            for entry, inspected in zip(batch, embedded.inspected, strict=True):
                vector = next(vectors) if inspected is not None and inspected.reason is None else None
                self._one(entry, inspected, vector)
                self.consumed += 1
        self._write_shard()

    def _one(self, entry: _Entry, inspected: Inspected | None, vector: np.ndarray | None) -> None:
        self.counts.read += 1
        item = entry.item
        if item.drop:
            self.counts.drop(item.drop, item.uid, entry.collection)
            return
        if entry.vector is not None:
            self._one_vector(entry)
            return
        if inspected is None:
            raise InputError(self.settings.collections[entry.collection], f"item {item.uid!r} has no bytes")
        verdict = Verdict(inspected.sha256, inspected.reason)
        verdict = verdict if item.uid in self.writer.kept_uids else self.filter.admit(verdict)
        reason = DUPLICATE_UID if item.uid in self.writer.kept_uids else verdict.reason
        if reason is not None:
            self.counts.drop(reason, item.uid, entry.collection)
            return
        assert vector is not None  # the task embedded every image that passed its own checks
        self.writer.kept_uids.add(item.uid)
        self.counts.kept += 1
        self.ready.append((Meta(item.uid, item.source, item.caption, entry.collection, verdict.sha256), vector))

    def _one_vector(self, entry: _Entry) -> None:
        import hashlib

        import numpy as np

        vector = np.asarray(entry.vector, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        digest = hashlib.sha256(vector.tobytes()).hexdigest()
        if vector.shape[0] != self.encoder.dim:
            raise InputError(self.settings.collections[entry.collection],
                             f"embeddings have dimension {vector.shape[0]}, the model {self.encoder.dim}")
        reason = self.filter.hash_reason(digest) if np.isfinite(norm) and norm > 0 else INVALID_EMBEDDING
        reason = reason or (DUPLICATE_UID if entry.item.uid in self.writer.kept_uids else None)
        if reason is not None:
            self.counts.drop(reason, entry.item.uid, entry.collection)
            return
        self.filter.kept_hashes.add(digest)
        self.writer.kept_uids.add(entry.item.uid)
        self.counts.kept += 1
        self.ready.append((Meta(entry.item.uid, entry.item.source, "", entry.collection, digest), vector / norm))

    def _write_shard(self) -> None:
        import numpy as np

        empty = np.zeros((0, self.encoder.dim), np.float32)
        vectors = np.stack([v for _, v in self.ready]) if self.ready else empty
        self.writer.write(vectors, [m for m, _ in self.ready], self.counts, self.consumed)
        self.counts = PassCounts()
        self.ready = []


def _needs_embedding(entry: _Entry) -> bool:
    return entry.item.data is not None and not entry.item.drop and entry.vector is None
