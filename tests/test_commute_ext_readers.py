"""commute_ext: collection readers (folder, webdataset tar, parquet, npz) and the resumable embedding store."""

from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from builders.commute_ext.embed import ClipEncoder, ModelSpec
from builders.commute_ext.filters import ImageFilter
from builders.commute_ext.readers import (
    FolderReader,
    NpzEmbeddingReader,
    ParquetReader,
    ReaderOptions,
    WebdatasetReader,
    open_readers,
)
from builders.commute_ext.store import StorePass, StoreView, build_store
from builders.core.errors import InputError

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext"


@pytest.fixture(scope="module")
def encoder() -> ClipEncoder:
    return ClipEncoder(ModelSpec("mtprobes-tiny-clip", "", str(SAMPLE / "tiny_clip"), 0, "cpu", "fp32"))


def png(colour: tuple[int, int, int], size: tuple[int, int] = (96, 96)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


FILES = {
    "a.png": png((200, 10, 10)),
    "b.png": png((10, 200, 10)),
    "c.png": png((200, 10, 10)),  # exact duplicate of a.png
    "d.png": png((1, 1, 1), (20, 20)),  # too small
    "e.png": b"\x89PNG broken",
    "f.png": png((10, 10, 200)),
}


def make_folder(root: Path) -> Path:
    root.mkdir()
    for name, data in FILES.items():
        (root / name).write_bytes(data)
    (root / "a.txt").write_text("a red square\n")
    (root / "notes.md").write_text("not an image")
    return root


def make_tar(path: Path, extra: dict[str, bytes] | None = None) -> Path:
    members = {"a.png": FILES["a.png"], "a.txt": b"a red square", **FILES, **(extra or {})}  # grouped by key
    with tarfile.open(path, "w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def make_parquet(path: Path) -> Path:
    names = list(FILES)
    table = pa.table({
        "uid": names,
        "image": [{"bytes": FILES[n], "path": n} for n in names],
        "caption": ["a red square" if n == "a.png" else "" for n in names],
    })
    pq.write_table(table, path, row_group_size=2)
    return path


def summary(reader: Any) -> list[tuple[str, str, bytes | None]]:
    return [(item.uid.rpartition("/")[2].removesuffix(".png"), item.caption, item.data) for item in reader.items()]


def test_folder_tar_parquet_give_the_same_items(tmp_path: Path) -> None:
    options = ReaderOptions()
    folder = FolderReader(make_folder(tmp_path / "imgs"), options)
    tar = WebdatasetReader(make_tar(tmp_path / "shard-000.tar"), options)
    parquet = ParquetReader(make_parquet(tmp_path / "part.parquet"), options)
    expected = [(name.removesuffix(".png"), "a red square" if name == "a.png" else "", data)
                for name, data in FILES.items()]
    assert summary(folder) == expected
    assert summary(tar) == expected
    assert summary(parquet) == expected
    assert parquet.fetch(["row 5", "row 2"]) == {"row 5": FILES["f.png"], "row 2": FILES["c.png"]}
    assert tar.fetch(["b.png"]) == {"b.png": FILES["b.png"]}
    skipped = [item.data for item in folder.items(skip=2)]
    assert skipped[:2] == [None, None] and skipped[2] == FILES["c.png"]


def test_unsafe_tar_member_is_a_counted_drop(tmp_path: Path, encoder: ClipEncoder) -> None:
    tar = make_tar(tmp_path / "shard.tar", {"../escape.png": png((5, 5, 5))})
    view = build_store(open_readers([str(tar)], "auto", ReaderOptions()), encoder, ImageFilter(),
                       StorePass(tmp_path / "store", {"k": 1}, [str(tar)], batch_size=2, shard_size=2))
    assert view.counts.dropped["unsafe_path"] == 1
    assert view.counts.read == view.counts.kept + sum(view.counts.dropped.values())


def test_folder_symlink_leaving_the_root_is_dropped(tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "imgs")
    (tmp_path / "outside.png").write_bytes(png((3, 3, 3)))
    os.symlink(tmp_path / "outside.png", folder / "z_link.png")
    items = list(FolderReader(folder, ReaderOptions()).items())
    assert items[-1].uid == "z_link.png" and items[-1].drop == "unsafe_path"


def test_npz_embeddings(tmp_path: Path, encoder: ClipEncoder) -> None:
    rng = np.random.default_rng(0)
    features = rng.normal(size=(5, 32)).astype(np.float32)
    features[3] = 0.0  # a zero vector cannot be normalised
    features[4] = features[1]  # exact duplicate vector
    uids = np.array([(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], dtype=[("a", "<u8"), ("b", "<u8")])
    path = tmp_path / "emb.npz"
    np.savez(path, uid=uids, b32_img=features)
    reader = NpzEmbeddingReader(path, ReaderOptions())
    assert reader.embeddings()[0][0] == "0000000000000001" + "0000000000000002"
    view = build_store([reader], encoder, ImageFilter(), StorePass(tmp_path / "store", {"k": 1}, [str(path)]))
    assert len(view) == 3
    assert view.counts.to_dict() == {"read": 5, "kept": 3, "dropped": {"duplicate": 1, "invalid_embedding": 1}}
    expected = features[:3] / np.linalg.norm(features[:3], axis=1, keepdims=True)
    assert np.allclose(view.matrix(), expected, atol=1e-6)


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"b32_img": np.zeros((2, 32), np.float32)}, "no 'uid' array"),
        ({"uid": np.array(["a", "b"]), "x": np.zeros((2, 32), np.float32), "y": np.zeros((2, 32), np.float32)},
         "cannot tell the feature array"),
        ({"uid": np.array(["a", "b"]), "f": np.zeros((3, 32), np.float32)}, "has shape"),
    ],
)
def test_bad_npz_files(tmp_path: Path, arrays: dict[str, np.ndarray], message: str) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=message):
        NpzEmbeddingReader(path, ReaderOptions()).embeddings()


def test_npz_dimension_must_match_the_model(tmp_path: Path, encoder: ClipEncoder) -> None:
    path = tmp_path / "emb.npz"
    np.savez(path, uid=np.array(["a", "b"]), feats=np.ones((2, 512), np.float32))
    with pytest.raises(InputError, match="dimension 512, the model 32"):
        build_store([NpzEmbeddingReader(path, ReaderOptions())], encoder, ImageFilter(),
                    StorePass(tmp_path / "store", {"k": 1}, [str(path)]))


@pytest.mark.parametrize(("pattern", "message"), [("missing-dir", "collection not found"),
                                                  ("shards/*.tar", "matches no file"),
                                                  ("file.csv", "cannot tell the collection format")])
def test_bad_collection_paths(tmp_path: Path, pattern: str, message: str) -> None:
    (tmp_path / "file.csv").write_text("x")
    with pytest.raises(InputError, match=message):
        open_readers([str(tmp_path / pattern)], "auto", ReaderOptions())


@pytest.mark.parametrize("suffix", [".tar", ".parquet", ".npz", ".tar.gz"])
def test_damaged_collection_files_are_one_clear_error(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"damaged{suffix}"
    path.write_bytes(b"this is not a " + suffix.encode() + b" file" * 50)
    (reader,) = open_readers([str(path)], "auto", ReaderOptions())
    with pytest.raises(InputError, match=r"damaged.*: cannot read it as a (webdataset|parquet|npz) collection"):
        list(reader.items())


def test_collection_labels_are_portable_and_unique() -> None:
    from builders.commute_ext.readers import collection_labels

    assert collection_labels(["/a/imgs", "/b/shard.tar"]) == ["imgs", "shard.tar"]
    assert collection_labels(["/a/imgs", "/b/imgs", "/c/x"]) == ["imgs(1)", "imgs(2)", "x"]


def _store(tmp_path: Path, folder: Path, encoder: ClipEncoder, directory: str) -> StoreView:
    readers = open_readers([str(folder)], "auto", ReaderOptions())
    return build_store(readers, encoder, ImageFilter(), StorePass(tmp_path / directory, {"k": 1}, [str(folder)],
                                                                  shard_size=3, batch_size=2))


def test_store_counts_and_vectors(tmp_path: Path, encoder: ClipEncoder) -> None:
    view = _store(tmp_path, make_folder(tmp_path / "imgs"), encoder, "store")
    assert view.counts.to_dict() == {"read": 6, "kept": 3,
                                     "dropped": {"decode_error": 1, "duplicate": 1, "too_small": 1}}
    assert [m.uid for m in view.meta] == ["a.png", "b.png", "f.png"]
    assert view.meta[0].caption == "a red square"
    matrix = view.matrix()
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    direct = encoder.encode_images([Image.open(io.BytesIO(FILES[n])).convert("RGB") for n in ("a.png", "b.png")])
    assert np.allclose(matrix[:2], direct, atol=1e-5)
    assert np.array_equal(view.vectors([2, 0]), matrix[[2, 0]])


def test_store_batches_are_executor_tasks_with_the_same_vectors(tmp_path: Path, encoder: ClipEncoder) -> None:
    """Each store shard's batches are one map on the build's executor (here a real process pool)."""
    from builders.core.executors import ProcessesExecutor

    folder = make_folder(tmp_path / "imgs")
    here = _store(tmp_path, folder, encoder, "here")
    maps: list[int] = []

    def pooled(task: Any, items: Any, shared: Any) -> list[Any]:
        maps.append(len(items))
        return list(ProcessesExecutor(2).map(task, items, shared))

    pooled_view = build_store(open_readers([str(folder)], "auto", ReaderOptions()), encoder, ImageFilter(),
                              StorePass(tmp_path / "pooled", {"k": 1}, [str(folder)], shard_size=3, batch_size=2,
                                        map=pooled))
    assert maps == [2, 2]  # 6 items: two shards of 3 items, each two batches (2 + 1)
    assert pooled_view.counts.to_dict() == here.counts.to_dict()
    assert np.array_equal(pooled_view.matrix(), here.matrix())
    for shard in sorted((tmp_path / "here").glob("shard-*")):
        assert (tmp_path / "pooled" / shard.name).read_bytes() == shard.read_bytes()


def test_store_resumes_after_an_interrupted_pass(tmp_path: Path, encoder: ClipEncoder,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "imgs"
    folder.mkdir()
    for index in range(11):
        (folder / f"{index:02d}.png").write_bytes(png((index * 20, 50, 255 - index * 20)))
    clean = _store(tmp_path, folder, encoder, "clean")
    calls = {"n": 0}
    original = ClipEncoder.encode_pixels

    def flaky(self: ClipEncoder, tensors: Any) -> np.ndarray:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt  # killed in the middle of the pass
        return original(self, tensors)

    monkeypatch.setattr(ClipEncoder, "encode_pixels", flaky)
    with pytest.raises(KeyboardInterrupt):
        _store(tmp_path, folder, encoder, "resumed")
    shards_before = sorted(p.name for p in (tmp_path / "resumed").glob("shard-*.json"))
    assert shards_before and not (tmp_path / "resumed" / "manifest.json").exists()
    calls["n"] = -100  # no more failures
    resumed = _store(tmp_path, folder, encoder, "resumed")
    assert calls["n"] - (-100) < 6  # only the remaining batches were embedded again
    assert np.array_equal(resumed.matrix(), clean.matrix())
    assert [m.uid for m in resumed.meta] == [m.uid for m in clean.meta]
    assert resumed.fingerprint == clean.fingerprint
    assert resumed.counts.to_dict() == clean.counts.to_dict()
    for name in shards_before:
        assert (tmp_path / "resumed" / name).read_bytes() == (tmp_path / "clean" / name).read_bytes()


def test_finished_store_is_reused_and_a_changed_key_rebuilds(tmp_path: Path, encoder: ClipEncoder,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    folder = make_folder(tmp_path / "imgs")
    first = _store(tmp_path, folder, encoder, "store")

    def forbidden(self: ClipEncoder, tensors: Any) -> np.ndarray:
        raise AssertionError("a finished store must not embed again")

    monkeypatch.setattr(ClipEncoder, "encode_pixels", forbidden)
    again = _store(tmp_path, folder, encoder, "store")
    assert again.fingerprint == first.fingerprint
    manifest = json.loads((tmp_path / "store" / "manifest.json").read_text())
    assert manifest["counts"]["kept"] == 3
    with pytest.raises(AssertionError, match="must not embed"):
        build_store(open_readers([str(folder)], "auto", ReaderOptions()), encoder, ImageFilter(),
                    StorePass(tmp_path / "store", {"k": 2}, [str(folder)]))


def test_empty_folder_has_nothing(tmp_path: Path, encoder: ClipEncoder) -> None:
    (tmp_path / "empty").mkdir()
    view = _store(tmp_path, tmp_path / "empty", encoder, "store")
    assert len(view) == 0 and view.counts.read == 0
    assert view.matrix().shape == (0, 32)
