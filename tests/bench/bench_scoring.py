"""Scoring speed: batched, length-sorted scorer vs a one-example-at-a-time loop, at equal scores.

Run: .venv/bin/python tests/bench/bench_scoring.py [--examples 256]
Prints the speed-up and target tokens/s on CPU. When CUDA is present it also prints:
- tokens/s of a Marian-sized random model (d_model 512, 6+6 layers, 58,101-entry vocabulary like opus-mt-en-de)
  and of an NLLB-600M-sized one, at fp32 and under bf16 and fp16 autocast;
- how far CUDA's scores at each precision are from CPU fp32 with the bundled models on the validation's pronoun
  world sets (EN-DE and EN-FR): the largest |difference| of a line's log-probability sum, and the share of
  ContraPro decisions that stay the same.

`--world-sets DIR` keeps the built world sets in DIR and reuses them when they are there (a GPU machine without
spaCy or eflomal can score sets built elsewhere).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from builders.scoring.hf import HFSeq2SeqScorer
from builders.scoring.protocol import ScoringExample, ScoringOptions
from builders.scoring.tiny import make_tiny_model, synthetic_corpus


def make_examples(count: int, seed: int = 7) -> list[ScoringExample]:
    lines = synthetic_corpus(2 * count, seed=seed)
    return [ScoringExample(lines[2 * i], lines[2 * i + 1]) for i in range(count)]


def timed(function, *args):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def bench_cpu(folder: Path, count: int, threads: int) -> None:
    import torch

    # Thread count matters on a shared machine: several intra-op threads spin-wait on tiny matrices.
    torch.set_num_threads(threads)
    examples = make_examples(count)
    scorer = HFSeq2SeqScorer.from_pretrained(folder, options=ScoringOptions(device="cpu", batch_size=64))
    scorer.score(examples[:8])  # warm-up
    batched, batched_s = timed(scorer.score, examples)
    single, single_s = timed(lambda: [scorer.score([e])[0] for e in examples])
    worst = max(float(np.max(np.abs(a.logprobs - b.logprobs))) for a, b in zip(batched, single, strict=True))
    tokens = sum(s.n_tokens for s in batched)
    print(
        f"tiny Marian (d_model 32, 2+2 layers), CPU fp32, {threads} torch thread(s), {count} examples, "
        f"{tokens} target tokens"
    )
    print(f"  one at a time : {single_s:7.3f} s  {tokens / single_s:10.0f} target tokens/s")
    print(f"  batched (64)  : {batched_s:7.3f} s  {tokens / batched_s:10.0f} target tokens/s")
    print(f"  speed-up      : {single_s / batched_s:7.1f}x   (goal >= 8x)   max |Δ log-prob| = {worst:.2e}")


# Random models of real models' shapes: (d_model, layers each side, heads, ffn, vocabulary). Speed depends on the
# shape, not on the weights, so no weights are needed.
GPU_SHAPES = {
    "Marian-sized (opus-mt-en-de)": (512, 6, 8, 2048, 58101),
    "NLLB-600M-sized": (1024, 12, 16, 4096, 256206),
}


# (precision, logit chunk MiB): the default chunk at each precision, and larger chunks at fp32
GPU_RUNS = (("fp32", 64), ("fp32", 256), ("fp32", 1024), ("bf16", 64), ("fp16", 64))


def bench_gpu(folder: Path, count: int) -> None:
    import torch
    from transformers import AutoTokenizer, MarianConfig, MarianMTModel

    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    examples = make_examples(count, seed=11)
    for label, (d_model, layers, heads, ffn, vocab) in GPU_SHAPES.items():
        config = MarianConfig(
            vocab_size=vocab,
            d_model=d_model,
            encoder_layers=layers,
            decoder_layers=layers,
            encoder_attention_heads=heads,
            decoder_attention_heads=heads,
            encoder_ffn_dim=ffn,
            decoder_ffn_dim=ffn,
            pad_token_id=tokenizer.pad_token_id,
            eos_token_id=tokenizer.eos_token_id,
            decoder_start_token_id=tokenizer.pad_token_id,
        )
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            model = MarianMTModel(config)
        reference = None
        for precision, chunk_mib in GPU_RUNS:
            options = ScoringOptions(device="cuda", precision=precision, batch_size=256, batch_tokens=65536,
                                     logit_chunk_bytes=chunk_mib * 2**20)  # type: ignore[arg-type]
            scorer = HFSeq2SeqScorer(model, tokenizer, options=options)
            scorer.score(examples[:64])
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            scores, seconds = timed(scorer.score, examples)
            torch.cuda.synchronize()
            sums = np.asarray([s.sum for s in scores])
            reference = sums if reference is None else reference
            tokens = sum(s.n_tokens for s in scores)
            print(
                f"{label} random model, {torch.cuda.get_device_name()}, {precision}, logit chunks {chunk_mib} MiB: "
                f"{count} examples, {tokens / seconds:,.0f} target tokens/s ({seconds:.2f} s), peak GPU memory "
                f"{torch.cuda.max_memory_allocated() / 2**30:.1f} GiB, max |Δ sum| against the first run "
                f"{np.max(np.abs(sums - reference)):.2e}"
            )
        del model, scorer
        torch.cuda.empty_cache()


def world_sets(root: Path) -> dict[str, Path]:
    """The validation's pronoun world set per target language, built under root unless already there."""
    from builders.validation.pronouns import build_world_set
    from builders.validation.train import PRONOUN_WORLDS

    sets = {}
    for lang in sorted(PRONOUN_WORLDS.values()):
        built = sorted((root / lang).glob("sets/**/contrapro.json"))
        sets[lang] = built[0].parent if built else build_world_set(root / lang, lang=lang)
    return sets


def bench_devices_agree(sets: dict[str, Path]) -> None:
    """Each bundled pronoun model on its world set: CUDA at each precision against CPU fp32."""
    import torch

    from builders.validation.pronouns import decide, score_set
    from builders.validation.train import CONTEXT_SENTENCES, models_root, pronoun_model_name

    print(f"bundled pronoun models on the world sets, {torch.cuda.get_device_name()} against CPU fp32:")
    for lang, set_dir in sets.items():
        for mode, context in (("sentence", 0), ("context", CONTEXT_SENTENCES)):
            model = models_root() / pronoun_model_name(mode, lang)
            cpu = score_set(set_dir, model, context, lang, ScoringOptions(device="cpu"))
            records, cpu_hits = decide(set_dir, cpu)
            for precision in ("fp32", "bf16", "fp16"):
                options = ScoringOptions(device="cuda", precision=precision)  # type: ignore[arg-type]
                cuda, seconds = timed(score_set, set_dir, model, context, lang, options)
                _, hits = decide(set_dir, cuda)
                print(
                    f"  {lang} {mode:8s} {precision}: {len(records)} items, accuracy CPU {cpu_hits.mean():.4f} "
                    f"CUDA {hits.mean():.4f}, same decision {np.mean(hits == cpu_hits):.2%}, "
                    f"max |Δ sum| {np.max(np.abs(cuda - cpu)):.2e} ({seconds:.1f} s with loading)"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=256)
    parser.add_argument("--gpu-examples", type=int, default=8192)
    parser.add_argument("--world-sets", type=Path, help="keep (and reuse) the pronoun world sets here")
    parser.add_argument("--gpu-throughput-only", action="store_true", help="only the random models on CUDA")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_tiny_model(Path(tmp) / "marian", "marian")
        import torch

        from builders.core.compat import torch_device

        if args.gpu_throughput_only and torch_device() == "cuda":
            bench_gpu(folder, args.gpu_examples)
            return
        default_threads = torch.get_num_threads()
        for threads in sorted({1, default_threads}):
            bench_cpu(folder, args.examples, threads)
        if torch_device() == "cuda":
            bench_gpu(folder, args.gpu_examples)
            bench_devices_agree(world_sets(args.world_sets or Path(tmp) / "worlds"))
        elif args.world_sets:
            world_sets(args.world_sets)
            print(f"no CUDA device: world sets kept in {args.world_sets}; GPU figures not measured")
        else:
            print("no CUDA device: GPU throughput and CPU/CUDA agreement not measured")


if __name__ == "__main__":
    main()
