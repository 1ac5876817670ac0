"""Issue 24 §1: the same config gives the same bytes on any machine, with no alignment cache to lean on.

Each build runs in its own process, into its own folder, with an empty alignment cache: only a deterministic
aligner can make the two trees equal (eflomal, seeded from /dev/urandom, gave 28 records once and 30 the other).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from builders.core.compat import spacy_english
from builders.core.resources import resource_path

SPACY = spacy_english()
pytestmark = pytest.mark.skipif(not SPACY.available, reason=SPACY.reason)

# builder -> (sample config, the family's alignment cache key)
ALIGNED_BUILDERS = {
    "pronouns": ("pronouns/demo.yaml", "alignment_cache"),
    "pronouns-fr": ("pronouns/demo_fr.yaml", "alignment_cache"),
    "variations": ("variations/demo.yaml", "alignment_cache"),
}


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build(family: str, config: Path, out: Path, *overrides: str) -> Path:
    sets = [arg for override in overrides for arg in ("--set", override)]
    result = subprocess.run([sys.executable, "-m", "builders", "-q", "build", family, "--config", str(config),
                             *sets, "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    (info,) = out.rglob("info.json")
    return info.parent


@pytest.mark.parametrize("name", sorted(ALIGNED_BUILDERS))
def test_two_builds_with_empty_caches_are_byte_identical(tmp_path: Path, name: str) -> None:
    sample, cache_key = ALIGNED_BUILDERS[name]
    family = name.split("-")[0]
    config = resource_path("samples", *sample.split("/"))
    first = build(family, config, tmp_path / "one", f"{cache_key}=")
    second = build(family, config, tmp_path / "two", f"{cache_key}=")
    assert tree_digest(first) == tree_digest(second)
    info = json.loads((first / "info.json").read_text(encoding="utf-8"))
    assert info["tools"]["aligner"].startswith("diagonal-")
    assert info["tools"]["alignment_links"] == "deterministic"
    assert "alignment_links:deterministic" in info["signature"]


def test_a_damaged_alignment_cache_is_aligned_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from builders.pronouns.align import AlignSettings, lines_links

    src, tgt = ["the cat sleeps .", "it is black ."], ["die katze schläft .", "sie ist schwarz ."]
    cache = tmp_path / "cache"
    fresh = lines_links(src, tgt, aligner="diagonal", settings=AlignSettings(), cache_dirs=[cache])
    (cache / f"{fresh.key}.json").write_text('{"forward": ["0-0"', encoding="utf-8")  # cut off mid-write
    again = lines_links(src, tgt, aligner="diagonal", settings=AlignSettings(), cache_dirs=[cache])
    assert (again.forward, again.reverse, again.cached) == (fresh.forward, fresh.reverse, False)
    assert "is damaged" in caplog.text and fresh.key in caplog.text
    repaired = lines_links(src, tgt, aligner="diagonal", settings=AlignSettings(), cache_dirs=[cache])
    assert repaired.cached and repaired.forward == fresh.forward  # the damaged file was written anew


def test_links_cached_by_another_aligner_version_are_not_reused(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared cache outlives upgrades: links written by another version of the algorithm must miss."""
    from builders.pronouns import align_diagonal
    from builders.pronouns.align import AlignSettings, lines_links

    src, tgt = ["the cat sleeps .", "it is black ."], ["die katze schläft .", "sie ist schwarz ."]
    cache = tmp_path / "cache"
    current = lines_links(src, tgt, aligner="diagonal", settings=AlignSettings(), cache_dirs=[cache])
    (cache / f"{current.key}.json").write_text('{"forward": ["0-1", "0-1"], "reverse": ["0-1", "0-1"]}',
                                               encoding="utf-8")  # what an older algorithm might have written
    monkeypatch.setattr(align_diagonal, "ALGORITHM_VERSION", "0")
    older = lines_links(src, tgt, aligner="diagonal", settings=AlignSettings(), cache_dirs=[cache])
    assert older.key != current.key and not older.cached and older.forward == current.forward


def test_the_diagonal_aligner_links_a_small_parallel_corpus() -> None:
    """Co-occurrence and the diagonal settle every word of a varied toy corpus (no priors)."""
    from builders.pronouns.align_diagonal import align_lines

    words = [("dog", "hund"), ("cat", "katze"), ("tree", "baum"), ("house", "haus"), ("car", "wagen")]
    colours = [("red", "rot"), ("big", "groß"), ("old", "alt"), ("new", "neu")]
    src = [f"the {e} is {c}" for e, _ in words for c, _ in colours]
    tgt = [f"der {g} ist {d}" for _, g in words for _, d in colours]
    forward, reverse = align_lines(src, tgt, [])
    assert set(forward) == set(reverse) == {"0-0 1-1 2-2 3-3"}


def test_the_diagonal_aligner_gives_the_same_links_in_any_block_size() -> None:
    """Issue 26: the aligner works in blocks of sentences to bound its memory; the sums of the E step keep their
    order across blocks, so blocks of a few pairs give the very links of one block over the whole corpus."""
    from builders.pronouns.align_diagonal import DiagonalSettings, align_lines

    nouns = [("dog", "hund"), ("cat", "katze"), ("tree", "baum"), ("house", "haus"), ("car", "wagen")]
    src, tgt = [], []
    for number, ((e1, g1), (e2, g2)) in enumerate(list(zip(nouns, nouns[1:] + nouns[:1], strict=True)) * 7):
        src.append(f"the {e1} sees the {e2}" + " today" * (number % 3))
        tgt.append(f"heute sieht der {g1} den {g2}" if number % 3 else f"der {g1} sieht den {g2}")
    src.append("it")  # a one-word sentence, and a long one that is a block of its own at the smallest size
    tgt.append("es")
    src.append(" ".join(e for e, _ in nouns * 3))
    tgt.append(" ".join(g for _, g in nouns * 3))
    lexicon = [("dog", "hund", 2.0), ("it", "es", 1.0)]
    whole = align_lines(src, tgt, lexicon, DiagonalSettings(block_pairs=10**9))
    whole_table = trained_table(src, tgt, lexicon, DiagonalSettings(block_pairs=10**9))
    for block_pairs in (1, 7, 60, 500):
        settings = DiagonalSettings(block_pairs=block_pairs)
        assert align_lines(src, tgt, lexicon, settings) == whole
        # the lexical table to the last bit, not only its argmax: no sum was regrouped
        assert trained_table(src, tgt, lexicon, settings).tobytes() == whole_table.tobytes()
    assert any(whole[0]) and any(whole[1])


def test_the_diagonal_aligner_gives_the_same_links_from_blocks_on_disk_and_spooled_lines(tmp_path: Path) -> None:
    """Issue 26: a large table keeps its blocks on disk (BlockFiles) and the aligner reads its input lines from
    a file, once, in order (SpooledLines): the same links and the same lexical table to the last bit as blocks
    in memory over lists; the blocks' folder is removed after each direction."""
    from builders.core.lazy import SpooledLines
    from builders.pronouns.align_diagonal import DiagonalSettings, align_lines

    nouns = [("dog", "hund"), ("cat", "katze"), ("tree", "baum"), ("house", "haus")]
    src = [f"the {e1} and the {e2}" + " now" * (n % 4) for n, ((e1, _), (e2, _)) in
           enumerate(zip(nouns * 5, nouns[1:] * 5, strict=False))]
    tgt = [("jetzt " * (n % 4)) + f"der {g1} und der {g2}" for n, ((_, g1), (_, g2)) in
           enumerate(zip(nouns * 5, nouns[1:] * 5, strict=False))]
    lexicon = [("cat", "katze", 2.0)]
    in_memory = DiagonalSettings(block_pairs=10**9)
    whole = align_lines(src, tgt, lexicon, in_memory)
    spooled = [SpooledLines(tmp_path / name) for name in ("src.txt", "tgt.txt")]
    for lines, file in ((src, spooled[0]), (tgt, spooled[1])):
        for line in lines:
            file.append(line)
        file.close()
    for block_pairs in (1, 40, 300):
        on_disk = DiagonalSettings(block_pairs=block_pairs, spill_pairs=0)
        assert align_lines(*spooled, lexicon, on_disk, spill=tmp_path / "spill") == whole
        assert not any((tmp_path / "spill").rglob("*.npy"))
        table = trained_table(src, tgt, lexicon, on_disk, spill=tmp_path / "table")
        assert table.tobytes() == trained_table(src, tgt, lexicon, in_memory).tobytes()
    assert any(whole[0]) and any(whole[1])


def trained_table(src: list[str], tgt: list[str], lexicon: list[tuple[str, str, float]], settings: Any,
                  spill: Path | None = None) -> Any:
    from builders.pronouns.align_diagonal import BlockFiles, encode, lexicon_pseudo_counts, pair_table, train_lexicon

    source, target = encode(src), encode(tgt)
    table = pair_table(source, target, settings, spill)
    assert isinstance(table.blocks, BlockFiles) == (spill is not None and settings.spill_pairs == 0)
    return train_lexicon(table, lexicon_pseudo_counts(table, source, target, lexicon), len(target.vocabulary),
                         settings)


def test_spooled_lines_come_back_as_they_went_in(tmp_path: Path) -> None:
    """The aligner's input spooled to the work folder (issue 26): only a newline ends a line, so a carriage return
    or a Unicode line separator inside a token line comes back unchanged (splitlines() would cut it); a line with
    a newline is refused rather than read back as two."""
    from builders.core.lazy import SpooledLines

    lines = ["der hund", "", "a\rb", "zeile\u2028zwei", "<empty>", "ünïcode ß"]
    spooled = SpooledLines(tmp_path / "lines.txt")
    for line in lines:
        spooled.append(line)
    with pytest.raises(ValueError, match="newline"):
        spooled.append("two\nlines")
    spooled.close()
    assert len(spooled) == len(lines)
    assert list(spooled) == lines and list(spooled) == lines  # read again from the start
