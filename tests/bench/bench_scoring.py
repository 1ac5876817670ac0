"""Scoring speed: batched, length-sorted scorer vs a one-example-at-a-time loop, at equal scores.

Run: .venv/bin/python tests/bench/bench_scoring.py [--examples 256]
Prints the speed-up, target tokens/s, and (when CUDA is present) tokens/s of a Marian-sized random model
(d_model 512, 6+6 layers, 58,101-entry vocabulary like opus-mt-en-de) under bf16 autocast.
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


def bench_gpu(folder: Path, count: int) -> None:
    import torch
    from transformers import AutoTokenizer, MarianConfig, MarianMTModel

    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    config = MarianConfig(
        vocab_size=58101,
        d_model=512,
        encoder_layers=6,
        decoder_layers=6,
        encoder_attention_heads=8,
        decoder_attention_heads=8,
        encoder_ffn_dim=2048,
        decoder_ffn_dim=2048,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = MarianMTModel(config)
    examples = make_examples(count, seed=11)
    for precision in ("fp32", "bf16"):
        scorer = HFSeq2SeqScorer(
            model,
            tokenizer,
            options=ScoringOptions(device="cuda", precision=precision, batch_size=256, batch_tokens=65536),
        )
        scorer.score(examples[:64])
        torch.cuda.synchronize()
        scores, seconds = timed(scorer.score, examples)
        torch.cuda.synchronize()
        tokens = sum(s.n_tokens for s in scores)
        print(
            f"Marian-sized random model, {torch.cuda.get_device_name()}, {precision}: "
            f"{count} examples, {tokens / seconds:,.0f} target tokens/s ({seconds:.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=256)
    parser.add_argument("--gpu-examples", type=int, default=8192)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_tiny_model(Path(tmp) / "marian", "marian")
        import torch

        default_threads = torch.get_num_threads()
        for threads in sorted({1, default_threads}):
            bench_cpu(folder, args.examples, threads)
        from builders.core.compat import torch_device

        if torch_device() == "cuda":
            bench_gpu(folder, args.gpu_examples)
        else:
            print("no CUDA device: GPU throughput not measured")


if __name__ == "__main__":
    main()
