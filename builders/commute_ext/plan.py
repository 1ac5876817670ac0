"""prepare() of commute_ext.v1: CoMMuTE text and images -> collection store -> index -> top-k per caption.

Each stage is a plain function with its inputs as arguments, so any of them can be replaced or reused
(e.g. the store and index by the benchmark). The plan is one JSON-like payload per ambiguous source, from
which ``process.process_source`` selects images without touching the collection again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from builders.core.context import BuildContext, sha256_file
from builders.core.errors import InputError
from builders.core.record_file import RecordFile

from .commute import CommuteGroup, commute_files, group_pairs, read_captions, read_commute, resolve_image
from .config import CommuteExtConfig
from .embed import ClipEncoder, ModelSpec
from .filters import FilterSettings, ImageFilter, decode_rgb
from .index import IndexSettings, index_for_store, recall_on_queries, search
from .readers import ReaderOptions, collection_labels, open_readers
from .select import Candidate, read_selection
from .store import STORE_FORMAT, StorePass, StoreView, build_store
from .units import OriginalImage, SourcePayload, TranslationPayload

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

T = TypeVar("T")

MISSING_ORIGINAL = "source:missing_original_image"
UNDECODABLE_ORIGINAL = "source:undecodable_original_image"


@dataclass(frozen=True)
class Original:
    line: int
    name: str  # the img.order entry
    path: Path
    sha256: str


@dataclass(frozen=True)
class CommutePlan:
    """One payload per ambiguous source (id, source, both translations with their top-k candidates), in the
    work folder; the plan holds their offsets."""

    sources: RecordFile[SourcePayload]


def prepare(config: CommuteExtConfig, ctx: BuildContext) -> CommutePlan:
    groups, captions = read_inputs(config, ctx)
    groups, originals = find_originals(groups, config, ctx)
    encoder = make_encoder(config, ctx)
    excluded = frozenset(o.sha256 for o in originals.values())
    view, cache = embed_collection(config, encoder, excluded, ctx)
    index = index_collection(config, view, cache, ctx)
    sources: RecordFile[SourcePayload] = RecordFile(ctx.work_dir / "sources" / "payloads.pickle")
    try:
        for payload in retrieve(config, groups, captions, originals, encoder, view, index, ctx):
            sources.append(payload)
    finally:
        sources.close()
    return CommutePlan(sources)


def read_inputs(config: CommuteExtConfig, ctx: BuildContext) -> tuple[list[CommuteGroup], dict[int, str]]:
    """CoMMuTE groups and the caption of each line (both registered as inputs)."""
    directory = Path(config.data_dir)
    lines = read_commute(directory, config.tgt_lang)
    for path in commute_files(directory, config.tgt_lang).values():
        ctx.add_input(path)
    captions = read_captions(ctx.add_input(config.captions), lines)
    groups = group_pairs(lines, commute_files(directory, config.tgt_lang)["src"])
    inexact = [g.lines[0].line for g in groups if not g.exact_swap]
    ctx.notes["commute"] = {"lines": len(lines), "sources": len(groups), "pairs_not_exactly_swapped": inexact}
    return groups, {line.line: caption for line, caption in zip(lines, captions, strict=True)}


def find_originals(groups: list[CommuteGroup], config: CommuteExtConfig,
                   ctx: BuildContext) -> tuple[list[CommuteGroup], dict[int, Original]]:
    """The original image of every line; a group with a missing or undecodable image is an error or a
    counted drop (``missing_original``)."""
    root = Path(config.image_dir) if config.image_dir else Path(config.data_dir) / "images"
    order = commute_files(Path(config.data_dir), config.tgt_lang)["order"]
    kept, originals = [], {}
    for group in groups:
        found, problem = {}, None
        for line in group.lines:
            path = resolve_image(root, line.image, order, line.line)
            problem = _original_problem(path)
            if problem is not None:
                if config.missing_original == "error":
                    raise InputError(order, f"image {line.image!r} {problem[1]} (under {root})", line=line.line)
                break
            found[line.line] = Original(line.line, line.image, path, sha256_file(path))
        if problem is not None:
            ctx.read()
            ctx.drop(problem[0], lines=[member.line for member in group.lines], image=line.image, problem=problem[1])
            continue
        originals.update(found)
        kept.append(group)
    for original in originals.values():
        ctx.inputs[str(original.path)] = original.sha256
    return kept, originals


def _original_problem(path: Path) -> tuple[str, str] | None:
    """(drop reason, message) when a CoMMuTE image is missing or cannot be decoded, else None."""
    if not path.is_file():
        return MISSING_ORIGINAL, "not found"
    if decode_rgb(path.read_bytes()) is None:
        return UNDECODABLE_ORIGINAL, "cannot be decoded (corrupt or not an image)"
    return None


def make_encoder(config: CommuteExtConfig, ctx: BuildContext) -> ClipEncoder:
    from builders.core.compat import probe_module, require_module

    require_module("faiss", "commute_ext.v1's image index", "ml", "faiss-cpu")
    spec = ModelSpec(config.model, config.pretrained, config.model_config_dir, config.init_seed, config.device,
                     config.precision)
    encoder = ClipEncoder(spec)

    for module, distribution in (("open_clip", "open_clip_torch"), ("torch", None), ("faiss", "faiss-cpu")):
        ctx.add_tool(module, probe_module(module, distribution).version)
    ctx.add_tool("clip_model", encoder.identity)
    return encoder


def embed_collection(config: CommuteExtConfig, encoder: ClipEncoder, excluded: frozenset[str],
                     ctx: BuildContext) -> tuple[StoreView, Path]:
    """Filter and embed the collection into the (resumable, reusable) store; counts go to ``ctx``."""
    readers = open_readers(config.collection, config.collection_format,
                           ReaderOptions(config.parquet_image_column, config.npz_features_key))
    settings = FilterSettings(config.min_side, config.max_aspect)
    key = {
        "format": STORE_FORMAT, "model": encoder.identity, "filters": asdict(settings), "batch_size": config.batch_size,
        "shard_size": config.embed_shard_size, "excluded": sorted(excluded),
        "collections": [[r.kind, r.listing_key()] for r in readers],
    }
    key_hash = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    cache = Path(config.cache_dir) if config.cache_dir else ctx.work_dir / "cache"
    names = [str(r.path) for r in readers]
    # the batches are tasks on the build's executor: a process pool or a Ray cluster embeds them in parallel
    store_pass = StorePass(cache / f"store-{key_hash}", key, names, config.embed_shard_size, config.batch_size,
                           config.decode_workers, lambda items, label: ctx.track(items, label), ctx.map)
    view = build_store(readers, encoder, ImageFilter(settings, excluded), store_pass)
    counts = view.counts
    ctx.read(counts.read)
    ctx.keep(counts.kept)
    for reason, uid, collection in counts.dropped_images:
        ctx.drop(f"image:{reason}", image=uid, collection=Path(names[collection]).name)
    ctx.notes["collection"] = {"paths": names, **counts.to_dict()}
    for name in names:
        ctx.inputs[f"{name} (collection content)"] = view.fingerprint
    if counts.read == 0:
        raise InputError(", ".join(names), "the image collection is empty (no image files found)")
    if len(view) == 0:
        raise InputError(", ".join(names), f"no image of the collection passed the filters: {counts.to_dict()}")
    return view, store_pass.directory


def index_collection(config: CommuteExtConfig, view: StoreView, cache: Path, ctx: BuildContext) -> Any:
    settings = IndexSettings(config.index, config.index_threshold, config.index_auto_kind, config.ivf_nlist,
                             config.ivf_nprobe, config.hnsw_m, 80, config.hnsw_ef_search, config.recall_sample,
                             config.candidates, config.seed)
    index, report = index_for_store(view, settings, cache)
    ctx.notes["index"] = report
    from .index import for_search

    return for_search(index)


def in_batches(encode: Callable[[list[T]], np.ndarray], items: list[T], batch_size: int) -> np.ndarray:
    """The rows of ``encode`` over ``items``, ``batch_size`` items at a time: the encoder's activations (and the
    decoded images) of one batch are held, not those of every caption or image (issue 26). A batch's vectors do
    not depend on how many batches follow (one pass over all gave a caption other last bits as the input grew)."""
    import numpy as np

    return np.concatenate([encode(items[first:first + batch_size]) for first in range(0, len(items), batch_size)])


def original_vectors(originals: dict[int, Original], encoder: ClipEncoder, batch_size: int) -> dict[int, np.ndarray]:
    def encode(lines: list[int]) -> np.ndarray:
        return encoder.encode_images([_decoded(originals[line]) for line in lines])

    lines = sorted(originals)
    return dict(zip(lines, in_batches(encode, lines, batch_size), strict=True)) if lines else {}


def _decoded(original: Original) -> Image.Image:
    image = decode_rgb(original.path.read_bytes())
    if image is None:
        raise InputError(original.path, "CoMMuTE image cannot be decoded (corrupt or not an image)")
    return image


def read_choices(config: CommuteExtConfig, record_ids: list[str],
                 ctx: BuildContext) -> dict[str, dict[str, list[str]]]:
    if not config.selection:
        return {}
    path = ctx.add_input(config.selection)
    choices = read_selection(path)
    unknown = sorted(set(choices) - set(record_ids))
    if unknown:
        raise InputError(path, f"record id(s) {unknown[:5]} are not in this build")
    return choices


def candidates_for(view: StoreView, scores: np.ndarray, rows: np.ndarray) -> list[Candidate]:
    labels = collection_labels(view.collections)
    found = []
    for rank, (score, row) in enumerate(zip(scores.tolist(), rows.tolist(), strict=True), start=1):
        if row < 0:  # approximate indexes return -1 when they find fewer than k
            continue
        meta = view.meta[row]
        found.append(Candidate(row, meta.uid, meta.source, labels[meta.collection], meta.caption,
                               round(float(score), 6), rank, meta.sha256))
    return found


def pairwise_cosines(view: StoreView, candidates: list[Candidate],
                     original: np.ndarray) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """(cosine between candidates i and j, cosine between each candidate and the original), rounded to 1e-6."""
    vectors = view.vectors([c.row for c in candidates])
    return (tuple(tuple(round(float(x), 6) for x in row) for row in (vectors @ vectors.T)),
            tuple(round(float(x), 6) for x in (vectors @ original)))


def record_id(group: CommuteGroup, lang: str) -> str:
    return f"en-{lang}-{group.index + 1:04d}"


def retrieve(config: CommuteExtConfig, groups: list[CommuteGroup], captions: dict[int, str],
             originals: dict[int, Original], encoder: ClipEncoder, view: StoreView, index: Any,
             ctx: BuildContext) -> Iterator[SourcePayload]:
    """One payload per group, made when asked for: both translations with their caption, original and top-k
    candidates."""
    if not groups:
        return
    texts = [captions[line.line] for group in groups for line in group.lines]
    queries = in_batches(encoder.encode_texts, texts, config.batch_size)
    scores, rows = search(index, queries, config.candidates)
    report = ctx.notes.get("index", {})
    if report.get("kind", "flat") != "flat" and config.recall_sample:
        blocks = [block for _, block in view.iter_blocks()]
        recall = recall_on_queries(blocks, queries, rows, config.candidates, config.recall_sample, config.seed)
        report[f"recall_at_{config.candidates}_caption_queries"] = round(recall, 4)
    vectors = original_vectors(originals, encoder, config.batch_size)
    choices = read_choices(config, [record_id(g, config.tgt_lang) for g in groups], ctx)
    for position, group in enumerate(groups):
        translations = []
        for offset, line in enumerate(group.lines):
            at = 2 * position + offset
            candidates = candidates_for(view, scores[at], rows[at])
            original = originals[line.line]
            similarity = round(float(queries[at] @ vectors[line.line]), 6)
            pairwise, to_original = pairwise_cosines(view, candidates, vectors[line.line])
            translations.append(TranslationPayload(
                line.line, line.correct, line.incorrect, captions[line.line],
                OriginalImage(original.name, original.sha256, similarity), tuple(candidates), pairwise, to_original))
        rid = record_id(group, config.tgt_lang)
        yield SourcePayload(rid, group.lines[0].source, (translations[0], translations[1]), choices.get(rid),
                            config.selection)
