"""Validation of pronouns.v1 on the bundled models: the context-aware model must win where context matters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError
from builders.validation.pronoun_world import GRAMMARS, generate, grammar_for, load_lexicon
from builders.validation.train import models_root, pronoun_model_name

# sha256 of the EN-DE test world (800 documents, seed 7) as generated before the French grammar was added
GERMAN_WORLD_SHA256_PREFIX = "9650aa972160d726"


@pytest.mark.parametrize("lang", sorted(GRAMMARS))
def test_lexicon_has_enough_gendered_nouns(lang: str) -> None:
    grammar = grammar_for(lang)
    lexicon = load_lexicon(grammar=grammar)
    assert len(lexicon.nouns) >= 150
    assert {n.gender for n in lexicon.nouns} == set(grammar.genders)
    assert len(lexicon.adjectives) >= 20 and len(lexicon.verbs) >= 20
    assert len({n.english for n in lexicon.nouns}) == len(lexicon.nouns)  # one target noun per English noun


def test_french_world_nouns_show_their_gender_and_adjectives_agree() -> None:
    from builders.pronouns.french_agreement import feminine

    lexicon = load_lexicon(grammar=grammar_for("fr"))
    assert not [n.target for n in lexicon.nouns if n.target[0].lower() in "aeiouhéèêâîôû"]  # no elided article
    # the builder's agreement repair must be able to make every variant of the world
    assert [a.masculine for a in lexicon.adjectives if feminine(a.masculine) != a.feminine] == []


def test_bad_lexicon_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.tsv"
    path.write_text("noun\ttable\tTisch\tm\nnoun\tchair\tStuhl\tx\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"lexicon.tsv:2: noun gender"):
        load_lexicon(path)
    path.write_text("noun\ttable\ttable\tn\n", encoding="utf-8")  # French has no neuter
    with pytest.raises(InputError, match=r"lexicon.tsv:1: noun gender must be m, f"):
        load_lexicon(path, grammar_for("fr"))


def test_unknown_world_language_is_a_config_error() -> None:
    from builders.core.errors import ConfigError

    with pytest.raises(ConfigError, match="no target language 'es'"):
        generate(4, seed=1, lang="es")


@pytest.mark.parametrize(
    ("lang", "example"),
    [
        ("de", ("Anna bought the cup because it was small.", "Anna kaufte die Tasse, weil sie klein war.")),
        ("fr", ("Anna bought the cup because it was small.", "Anna a acheté la tasse car elle était petite.")),
    ],
)
def test_world_is_seeded_and_plants_the_gendered_pronoun(lang: str, example: tuple[str, str]) -> None:
    grammar = grammar_for(lang)
    first, again, other = (generate(40, seed=s, lang=lang) for s in (3, 3, 4))
    assert first == again and first != other
    assert [d.distance for d in first[:8]] == [0, 1, 2, 3, 0, 1, 2, 3]
    for doc in first:
        frames = grammar.plural if doc.plural and grammar.plural else grammar.singular
        pronoun, english = frames.pronouns[doc.gender], "they" if doc.plural else "it"
        # the planted pronoun is in the last target sentence, at the planted distance from its antecedent
        assert pronoun in doc.target[-1].lower().replace(",", " ").replace(".", " ").split()
        assert english in doc.english[-1].lower().replace(".", " ").split()
    # French plants "they" -> ils / elles in about a quarter of the documents; German has no plural documents
    plural = sum(doc.plural for doc in generate(400, seed=3, lang=lang))
    assert (60 <= plural <= 140) if grammar.plural else plural == 0
    # the same-sentence frame, filled by hand: articles, pronoun and (in French) adjective agreement
    from builders.validation.pronoun_world import NAMES, Referent, _same_sentence

    lexicon = load_lexicon(grammar=grammar)
    cup = next(n for n in lexicon.nouns if n.english == "cup")
    small = lexicon.adjectives.index(next(a for a in lexicon.adjectives if a.english == "small"))
    bought = lexicon.verbs.index(next(v for v in lexicon.verbs if v[0] == "bought"))

    class Draws:  # the three picks of the frame: name, verb, adjective
        def __init__(self) -> None:
            self.values = iter([NAMES.index("Anna"), bought, small])

        def integers(self, high: int) -> int:
            return next(self.values)

    assert _same_sentence(Draws(), lexicon, Referent(cup, grammar.singular, False)) == example  # type: ignore[arg-type]
    if grammar.plural:  # French: the plural frame, plural noun and agreeing plural adjective
        they = _same_sentence(Draws(), lexicon, Referent(cup, grammar.plural, True))  # type: ignore[arg-type]
        assert they == ("Anna bought the cups because they were small.",
                        "Anna a acheté les tasses car elles étaient petites.")


def test_german_world_is_unchanged_by_the_language_grammars() -> None:
    """The bundled EN-DE models and alignment cache were made from this world: its text must not change."""
    import hashlib

    text = "\n".join(line for doc in generate(800, seed=7) for line in (*doc.english, *doc.target))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == GERMAN_WORLD_SHA256_PREFIX


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_context_aware_model_wins_only_where_context_matters(tmp_path: Path, lang: str) -> None:
    import torch

    from builders.core.compat import spacy_french
    from builders.validation.pronouns import claim_table, validate_pronouns

    if not (models_root() / pronoun_model_name("context", lang) / "config.json").is_file():
        pytest.skip(f"bundled {lang} pronoun models not trained")
    if lang == "fr" and not spacy_french().available:
        pytest.skip(f"tgt_lang fr needs spaCy French: {spacy_french().reason}")
    torch.set_num_threads(1)
    claim = validate_pronouns(tmp_path, lang=lang)
    table = claim_table(claim)
    assert claim.passed, table
    assert claim.counts["0"] >= 100 and claim.counts[">=1"] >= 300
    assert claim.accuracy["context"][">=1"] > claim.accuracy["sentence"][">=1"] + 0.2, table
    assert np.isfinite(claim.mcnemar_far["p_exact"]) and claim.mcnemar_far["p_exact"] < 0.01
    classes = {"de": {"er", "sie", "es"}, "fr": {"il", "elle", "ils", "elles"}}[lang]
    assert set(claim.class_counts) == classes and min(claim.class_counts.values()) >= 50, table


def test_validate_sets_command_names_missing_models(tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from builders.validation.cli import register

    app = typer.Typer()
    register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer from collapsing the app into one command
        """Nothing."""

    result = CliRunner().invoke(app, ["validate-sets", "--models", str(tmp_path / "none")])
    assert result.exit_code != 0
    assert "pronouns-sentence" in str(result.exception) + result.output


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_world_set_reads_the_bundled_links(tmp_path: Path, lang: str) -> None:
    """eflomal samples from /dev/urandom: the validation set is reproducible only while its links come from the
    bundled cache files, so a change to the cache key must rename them (a miss aligns afresh, other items)."""
    import json

    from builders.core.compat import spacy_english, spacy_french
    from builders.core.resources import resource_path
    from builders.validation.pronouns import build_world_set

    for probe in (spacy_english(), spacy_french() if lang == "fr" else spacy_english()):
        if not probe.available:
            pytest.skip(probe.reason)
    info = json.loads((build_world_set(tmp_path, lang=lang) / "info.json").read_text(encoding="utf-8"))
    bundled = {p.stem for p in resource_path("validation", "alignment").glob("*.json")}
    assert info["notes"]["alignment_cache_key"] in bundled
    assert info["tools"]["alignment_links"] == "cache"
