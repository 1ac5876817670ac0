"""prepare() of pronouns.v1: read, screen and tokenise every segment, align the whole corpus once -> the plan."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from builders.core.context import BuildContext
from builders.core.errors import InputError
from builders.pronouns.align import (
    AlignSettings,
    aligner_lines,
    aligner_version,
    lines_links,
    links_origin,
    seed_lexicon_priors,
)
from builders.pronouns.align_shards import AlignJob, align_in_shards, shard_bounds
from builders.pronouns.config import PronounsConfig
from builders.pronouns.english import PipelinePin, load_pinned, load_pipeline, normalise_space, tokenize_texts
from builders.pronouns.packs import LanguagePack, make_pack, resolved_coref
from builders.pronouns.readers import InputSpec, SentencePair, read_input
from builders.pronouns.units import DocPayload, SegmentPayload

T = TypeVar("T")

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
class PronounsPlan:
    """The shared part, and every document with its aligned segments, which stay on the driver: ``units()``
    gives each unit its own documents (units.DocBatch)."""

    shared: PronounsShared
    documents: tuple[DocPayload, ...]


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
    result = read_input(config.input_format, spec)
    for path in result.input_files:
        ctx.add_input(path)
    _require_text(result.documents, result.input_files)
    for reason, names in result.problems.items():
        ctx.notes[reason] = {"count": len(names), "names": names[:50]}
    pipeline = load_pipeline(config.spacy_model)
    pin = PipelinePin(pipeline.name, pipeline.version)
    _record_tools(config, ctx, pipeline.name, pipeline.version)
    ctx.unit_inputs["spacy_pipeline"] = f"{pin.name}-{pin.version}"
    ctx.add_resource("person_nouns", _resource("person_nouns.txt"))
    skipped: Counter[str] = Counter()
    candidate_re = source_pronoun_re(make_pack(config.tgt_lang))
    pairs: list[tuple[str, str, str]] = []
    for doc_index, document in enumerate(result.documents):
        for seg_index, pair in enumerate(document.pairs):
            reason = screen(pair, config.max_tokens)
            if reason:
                skipped[reason] += 1
                for match in candidate_re.finditer(pair.src):
                    ctx.read()
                    ctx.drop(reason, **screened_details(document.doc_id, (doc_index, seg_index), pair, match))
            pairs.append((normalise_space(pair.src), normalise_space(pair.tgt), reason))
    ctx.notes["segments"] = len(pairs)
    ctx.notes["documents"] = len(result.documents)
    ctx.notes["segments_skipped"] = dict(sorted(skipped.items()))
    forward, reverse = _align(config, ctx, pin, pairs, [len(d.pairs) for d in result.documents])
    documents: list[DocPayload] = []
    position = 0
    for index, document in enumerate(result.documents):
        segments = []
        for _ in document.pairs:
            src, tgt, reason = pairs[position]
            segments.append(SegmentPayload(src, tgt, forward[position], reverse[position], reason))
            position += 1
        documents.append(DocPayload(index, document.doc_id, tuple(segments)))
    return PronounsPlan(PronounsShared(corpus_name(config), pin), tuple(documents))


def _require_text(documents: Sequence[Any], input_files: Sequence[Path]) -> None:
    """An input of only ``<d>`` markers or blank lines has nothing to align (eflomal divides by zero)."""
    if not any(pair.src.strip() and pair.tgt.strip() for document in documents for pair in document.pairs):
        where = input_files[0] if input_files else "input"
        raise InputError(where, f"no sentence pairs with text on both sides ({len(documents)} document(s) read; "
                                "only <d> document markers or blank lines?)")


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


def chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def _align(
    config: PronounsConfig,
    ctx: BuildContext,
    pipeline: PipelinePin,
    pairs: list[tuple[str, str, str]],
    segments_per_document: list[int],
) -> tuple[list[str], list[str]]:
    """The aligner's forward and reverse link lines of every segment; each unit symmetrises its own
    (process.py). Their sha256 is an input of the units: a checkpoint made with other links is not resumed."""
    links = _aligned(config, ctx, pipeline, pairs, segments_per_document)
    ctx.unit_inputs["alignment_links"] = links_digest(*links)
    return links


def links_digest(forward: Sequence[str], reverse: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for line in (*forward, *reverse):
        digest.update(line.encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _aligned(
    config: PronounsConfig,
    ctx: BuildContext,
    pipeline: PipelinePin,
    pairs: list[tuple[str, str, str]],
    segments_per_document: list[int],
) -> tuple[list[str], list[str]]:
    analysed = [(s, t) if not reason else ("", "") for s, t, reason in pairs]
    job = TokenizeJob(pipeline, config.tgt_lang)
    lines = ctx.map(tokenize_pairs, chunks(analysed, CHUNK_SEGMENTS), job)
    src_lines = [line for src_chunk, _ in lines for line in src_chunk]
    tgt_lines = [line for _, tgt_chunk in lines for line in tgt_chunk]
    pack = make_pack(config.tgt_lang)
    priors = [str(Path(p).expanduser()) for p in config.priors_in]
    for number, path in enumerate(priors):
        ctx.add_resource(f"priors_in_{number}", path)
    if config.seed_lexicon:
        lexicon = ctx.add_resource("seed_lexicon", _resource(pack.seed_lexicon))
        priors.append(str(seed_lexicon_priors(lexicon, ctx.work_dir / "seed_priors.txt")))
    settings = AlignSettings(
        config.eflomal_samplers, config.eflomal_rel_iterations, tuple(priors), config.priors_out
    )
    cache_dirs = [ctx.work_dir / "alignment"]
    if config.alignment_cache:
        cache_dirs.append(Path(config.alignment_cache).expanduser())
    if config.align_shard_docs:
        align_job = AlignJob(config.aligner, settings, tuple(cache_dirs))
        bounds = shard_bounds(segments_per_document, config.align_shard_docs)
        links, shards = align_in_shards(src_lines, tgt_lines, bounds, align_job, config.align_shard_priors, ctx)
        ctx.notes["alignment_shards"] = len(shards)
        ctx.notes["alignment_cache_key"] = hashlib.sha256(" ".join(s.key for s in shards).encode()).hexdigest()
        ctx.add_tool("alignment_links", links_origin(config.aligner, [s.cached for s in shards]))
        return links
    whole = lines_links(src_lines, tgt_lines, aligner=config.aligner, settings=settings, cache_dirs=cache_dirs)
    ctx.notes["alignment_cache_key"] = whole.key
    ctx.add_tool("alignment_links", links_origin(config.aligner, [whole.cached]))
    return whole.forward, whole.reverse
