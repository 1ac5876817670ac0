"""prepare() of pronouns.v1: read, screen and tokenise every segment, align the whole corpus once -> the plan."""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builders.core.context import BuildContext
from builders.core.errors import InputError
from builders.core.lazy import LazySequence
from builders.pronouns.align import (
    AlignSettings,
    aligner_lines,
    aligner_version,
    check_priors_file,
    lines_links,
    links_origin,
    seed_lexicon_priors,
)
from builders.pronouns.align_shards import AlignJob, AlignShard, shard_iterations, shard_results
from builders.pronouns.config import PronounsConfig
from builders.pronouns.corpus_store import DocumentFile, LineFile
from builders.pronouns.english import PipelinePin, load_pinned, load_pipeline, normalise_space, tokenize_texts
from builders.pronouns.packs import LanguagePack, class_floors, make_pack, resolved_coref
from builders.pronouns.readers import Document, InputSpec, SentencePair, stream_input
from builders.pronouns.units import DocPayload, SegmentPayload

LOG = logging.getLogger("mtprobes")
# UTF-8 read as Latin-1 and saved again ("Ã¤" for "ä"): a file that mixes encodings
MOJIBAKE_RE = re.compile("[ÃÂ][\u0080-\u00bf]")


def source_pronoun_re(pack: LanguagePack) -> re.Pattern[str]:
    """The pack's English candidate words, to count the candidates of a skipped segment."""
    return re.compile(r"\b(?:" + "|".join(sorted(pack.source_pronouns)) + r")\b", re.IGNORECASE)


def screen(pair: SentencePair, max_tokens: int) -> str:
    """Why a segment cannot be analysed ('' when it can)."""
    if not pair.src.strip() or not pair.tgt.strip():
        return "empty_segment"  # one side untranslated or missing: nothing to align
    if len(pair.src.split()) > max_tokens or len(pair.tgt.split()) > max_tokens:
        return f"segment_over_{max_tokens}_tokens"
    if MOJIBAKE_RE.search(pair.src) or MOJIBAKE_RE.search(pair.tgt):
        return "mixed_encoding_mojibake"
    return ""


def screened_details(doc_id: str, where: tuple[int, int], pair: SentencePair, match: re.Match[str]) -> dict[str, Any]:
    """dropped.jsonl's entry for a candidate of a segment that screen() refused (never parsed: no token index,
    the character offset instead)."""
    doc_index, seg_index = where
    return {"id": f"d{doc_index:06d}-s{seg_index + 1:04d}-c{match.start():03d}", "document id": doc_id,
            "segment id": seg_index + 1, "src pronoun": match.group(), "src pronoun char": match.start(),
            "confidence": None, "src segment": pair.src, "ref segment": pair.tgt}


@dataclass(frozen=True)
class PronounsShared:
    """What every worker gets once, whatever the corpus size: the corpus name and the English pipeline resolved
    on the driver (an empty ``spacy_model`` is resolved once, so no worker parses with another pipeline)."""

    corpus: str
    pipeline: PipelinePin


@dataclass(frozen=True)
class StoredCorpus:
    """Every document with its screened segments, and the aligner's forward and reverse link lines, in the
    build's work folder (corpus_store.py): the driver holds offsets per document, not the segments."""

    documents: DocumentFile
    forward: LineFile
    reverse: LineFile

    def slice(self, first: int, stop: int) -> tuple[DocPayload, ...]:
        """Documents ``first`` to ``stop - 1`` with their segments and link lines, read back."""
        forward, reverse = iter(self.forward.read(first, stop)), iter(self.reverse.read(first, stop))
        return tuple(
            DocPayload(index, doc_id, tuple(SegmentPayload(src, tgt, next(forward), next(reverse), reason)
                                            for src, tgt, reason in segments))
            for index, (doc_id, segments) in enumerate(self.documents.read(first, stop), start=first)
        )


@dataclass(frozen=True)
class PronounsPlan:
    """The shared part, and the corpus on disk, which stays with the driver: ``units()`` gives each unit its own
    documents (units.DocBatch), read back when the executor takes the unit."""

    shared: PronounsShared
    corpus: StoredCorpus


def _record_tools(
    config: PronounsConfig, ctx: BuildContext, pipeline_name: str, pipeline_version: str
) -> None:
    from builders.core.compat import package_version
    from builders.pronouns.coref import make_backend

    ctx.add_tool("spacy", package_version("spacy"))
    ctx.add_tool("spacy_pipeline", f"{pipeline_name}-{pipeline_version}")
    ctx.add_tool("aligner", f"{aligner_version(config.aligner)}+{config.symmetrisation}")
    analyser_components = make_pack(config.tgt_lang).record_analyser(config, ctx)
    backend = make_backend(resolved_coref(config))
    ctx.add_tool("coref", f"{backend.name}-{backend.version}")
    ctx.notes["components"] = {
        "reader": config.input_format,
        "english_analyser": f"{config.english_analyser}:{pipeline_name}",
        **analyser_components,
        "aligner": config.aligner,
        "symmetrisation": config.symmetrisation,
        "coref": backend.name,
    }


def prepare(config: PronounsConfig, ctx: BuildContext) -> PronounsPlan:
    spec = InputSpec(config.src, config.tgt, config.docs_tsv, config.ids, config.opus_root, config.jsonl)
    stream = stream_input(config.input_format, spec)
    screened = _store_documents(config, ctx, stream.documents)
    for path in stream.input_files:
        ctx.add_input(path)
    left_out = {reason: f"{len(names)} input line(s) left out as {reason}, first {names[0]}"
                for reason, names in stream.problems.items()}
    if not screened.any_text:  # an input of only <d> markers or blank lines has nothing to align
        where = stream.input_files[0] if stream.input_files else "input"
        # every line left out (an opus_root without the documents) is not an input of blank lines
        why = "; ".join(left_out.values()) or "only <d> document markers or blank lines?"
        raise InputError(where, f"no sentence pairs with text on both sides ({screened.store.documents} "
                                f"document(s) read; {why})")
    for reason, names in stream.problems.items():
        ctx.notes[reason] = {"count": len(names), "names": names[:50]}
        # said on stderr too: these lines are in no drop count, only in info.json (not stored as a warning there,
        # which would change the bytes of sets built before)
        LOG.warning("%s (info.json notes.%s)", left_out[reason], reason)
    pipeline = load_pipeline(config.spacy_model)
    pin = PipelinePin(pipeline.name, pipeline.version)
    _record_tools(config, ctx, pipeline.name, pipeline.version)
    ctx.unit_inputs["spacy_pipeline"] = f"{pin.name}-{pin.version}"
    # every bundled word list the extraction reads: a changed list shows in info.json and the signature
    for name in ("person_nouns.txt", "wordnet_classes.tsv", *make_pack(config.tgt_lang).word_lists):
        ctx.add_resource(Path(name).stem, _resource(name))
    if floors := class_floors(config):  # the pack's floors are not in the config: info.json says which applied
        ctx.notes["class_min_confidence"] = dict(sorted(floors.items()))
    ctx.notes["segments"] = screened.store.segments
    ctx.notes["documents"] = screened.store.documents
    ctx.notes["segments_skipped"] = dict(sorted(screened.skipped.items()))
    forward, reverse = _align(config, ctx, pin, screened.store)
    return PronounsPlan(PronounsShared(corpus_name(config), pin), StoredCorpus(screened.store, forward, reverse))


@dataclass(frozen=True)
class Screened:
    store: DocumentFile
    skipped: Counter[str]
    any_text: bool  # a segment with text on both sides (else nothing to align)


def _store_documents(config: PronounsConfig, ctx: BuildContext, documents: Iterable[Document]) -> Screened:
    """Screen and normalise every segment, one document at a time into the work folder; a segment that is not
    analysed is kept (its reason says why), its candidates counted as dropped."""
    store = DocumentFile(ctx.work_dir / "corpus" / "documents.pickle")
    skipped: Counter[str] = Counter()
    candidate_re = source_pronoun_re(make_pack(config.tgt_lang))
    any_text = False
    for doc_index, document in enumerate(documents):
        segments = []
        for seg_index, pair in enumerate(document.pairs):
            reason = screen(pair, config.max_tokens)
            if reason:
                skipped[reason] += 1
                for match in candidate_re.finditer(pair.src):
                    ctx.read()
                    ctx.drop(reason, **screened_details(document.doc_id, (doc_index, seg_index), pair, match))
            any_text = any_text or bool(pair.src.strip() and pair.tgt.strip())
            segments.append((normalise_space(pair.src), normalise_space(pair.tgt), reason))
        store.append(document.doc_id, segments)
    store.close()
    return Screened(store, skipped, any_text)


def corpus_name(config: PronounsConfig) -> str:
    if config.corpus:
        return config.corpus
    path = Path(config.jsonl or config.src)
    return path.stem  # not the folder: a temporary folder's name must not end up in published records


def _resource(name: str) -> Path:
    from builders.core.resources import resource_path

    return resource_path("pronouns", name)


# Segments per tokenisation task: the aligner's input is made on the build's workers in chunks (the output does
# not depend on the chunk size, only the spread of the work does).
CHUNK_SEGMENTS = 2000


@dataclass(frozen=True)
class TokenizeJob:
    pipeline: PipelinePin
    tgt_lang: str


def tokenize_pairs(pairs: Sequence[tuple[str, str]], job: TokenizeJob) -> tuple[list[str], list[str]]:
    """A module-level task: the aligner lines (``align.aligner_lines``) of the English and target sides, from the
    same tokenizers the parse uses later (a forked worker reuses the driver's loaded pipeline). One string per
    segment, so little travels back to the driver."""
    pack = make_pack(job.tgt_lang)
    src_tokens = tokenize_texts(load_pinned(job.pipeline), [src for src, _ in pairs])
    tgt_tokens = [[t.text for t in pack.tokenize(tgt)] for _, tgt in pairs]
    return aligner_lines(src_tokens), aligner_lines(tgt_tokens)


def _align(
    config: PronounsConfig, ctx: BuildContext, pipeline: PipelinePin, store: DocumentFile
) -> tuple[LineFile, LineFile]:
    """The aligner's forward and reverse link lines of every segment, in the work folder; each unit symmetrises
    its own (process.py). Their sha256 is an input of the units: a checkpoint made with other links is not
    resumed."""
    links = _aligned(config, ctx, pipeline, store)
    ctx.unit_inputs["alignment_links"] = files_digest([links[0].path, links[1].path])
    return links


def files_digest(paths: Sequence[Path]) -> str:
    """The sha256 of the files one after the other: for the link files, the digest of every forward line, then
    every reverse line, each ending in a newline (what the checkpoint pinned before the files existed)."""
    digest = hashlib.sha256()
    for path in paths:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def document_chunks(segment_starts: Sequence[int], size: int) -> list[tuple[int, int]]:
    """(first, stop) documents of each chunk: whole documents, at least ``size`` segments (the last fewer)."""
    bounds, first = [], 0
    documents = len(segment_starts) - 1
    for stop in range(1, documents + 1):
        if segment_starts[stop] - segment_starts[first] >= size or stop == documents:
            bounds.append((first, stop))
            first = stop
    return bounds


def _aligner_input(config: PronounsConfig, ctx: BuildContext, pipeline: PipelinePin,
                   store: DocumentFile) -> tuple[LineFile, LineFile]:
    """The aligner lines of both sides, tokenised on the build's workers in chunks of whole documents (a skipped
    segment gets an empty line) and written as they come."""
    def chunk(number: int) -> list[tuple[str, str]]:
        return [(src, tgt) if not reason else ("", "")
                for _, segments in store.read(*bounds[number]) for src, tgt, reason in segments]

    bounds = document_chunks(store.segment_starts, CHUNK_SEGMENTS)
    folder = ctx.work_dir / "corpus"
    src_file = LineFile(folder / "aligner.src", store.segment_starts)
    tgt_file = LineFile(folder / "aligner.tgt", store.segment_starts)
    job = TokenizeJob(pipeline, config.tgt_lang)
    for src_lines, tgt_lines in ctx.imap(tokenize_pairs, LazySequence(len(bounds), chunk), job):
        src_file.write(src_lines)
        tgt_file.write(tgt_lines)
    src_file.close()
    tgt_file.close()
    return src_file, tgt_file


def _align_settings(config: PronounsConfig, ctx: BuildContext) -> AlignSettings:
    pack = make_pack(config.tgt_lang)
    priors = [str(Path(p).expanduser()) for p in config.priors_in]
    for number, path in enumerate(priors):
        ctx.add_resource(f"priors_in_{number}", path)
        check_priors_file(Path(path))
    if config.seed_lexicon:
        lexicon = ctx.add_resource("seed_lexicon", _resource(pack.seed_lexicon))
        priors.append(str(seed_lexicon_priors(lexicon, ctx.work_dir / "seed_priors.txt")))
    return AlignSettings(config.eflomal_samplers, config.eflomal_rel_iterations, tuple(priors), config.priors_out)


def _aligned(
    config: PronounsConfig, ctx: BuildContext, pipeline: PipelinePin, store: DocumentFile
) -> tuple[LineFile, LineFile]:
    src_file, tgt_file = _aligner_input(config, ctx, pipeline, store)
    settings = _align_settings(config, ctx)
    cache_dirs = [ctx.work_dir / "alignment"]
    if config.alignment_cache:
        cache_dirs.append(Path(config.alignment_cache).expanduser())
    folder = ctx.work_dir / "corpus"
    forward = LineFile(folder / "forward.links", store.segment_starts)
    reverse = LineFile(folder / "reverse.links", store.segment_starts)
    if config.align_shard_docs:
        align_job = AlignJob(config.aligner, settings, tuple(cache_dirs))
        bounds = [(a, b) for a, b in document_runs(store.documents, config.align_shard_docs)
                  if store.segment_starts[b] > store.segment_starts[a]]

        def shard(number: int) -> AlignShard:
            first, stop = bounds[number]
            size = store.segment_starts[stop] - store.segment_starts[first]
            return AlignShard(tuple(src_file.read(first, stop)), tuple(tgt_file.read(first, stop)),
                              shard_iterations(settings.rel_iterations, size, store.segments))

        keys, cached = [], []
        for links in shard_results(LazySequence(len(bounds), shard), align_job, config.align_shard_priors, ctx):
            forward.write(links.forward)
            reverse.write(links.reverse)
            keys.append(links.key)
            cached.append(links.cached)
        ctx.notes["alignment_shards"] = len(bounds)
        ctx.notes["alignment_cache_key"] = hashlib.sha256(" ".join(keys).encode()).hexdigest()
    else:  # one alignment of the whole corpus: the aligner holds it all (docs/cluster.md: shard a large corpus)
        whole = lines_links(src_file.read(0, store.documents), tgt_file.read(0, store.documents),
                            aligner=config.aligner, settings=settings, cache_dirs=cache_dirs)
        forward.write(whole.forward)
        reverse.write(whole.reverse)
        ctx.notes["alignment_cache_key"] = whole.key
        cached = [whole.cached]
    forward.close()
    reverse.close()
    ctx.add_tool("alignment_links", links_origin(config.aligner, cached))
    return forward, reverse


def document_runs(documents: int, per_run: int) -> list[tuple[int, int]]:
    """(first, stop) of each run of ``per_run`` documents (alignment shards: shard_bounds in documents)."""
    return [(first, min(first + per_run, documents)) for first in range(0, documents, per_run)]
