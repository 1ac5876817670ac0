"""Validation of pronouns.v1 on the bundled models: the context-aware model must win where context matters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError
from builders.validation.pronoun_world import ARTICLES, PRONOUNS, generate, load_lexicon
from builders.validation.train import models_root


def test_lexicon_has_enough_gendered_nouns() -> None:
    lexicon = load_lexicon()
    assert len(lexicon.nouns) >= 150
    assert {n.gender for n in lexicon.nouns} == set(ARTICLES)
    assert len(lexicon.adjectives) >= 20 and len(lexicon.verbs) >= 20


def test_bad_lexicon_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.tsv"
    path.write_text("noun\ttable\tTisch\tm\nnoun\tchair\tStuhl\tx\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"lexicon.tsv:2: noun gender"):
        load_lexicon(path)


def test_world_is_seeded_and_plants_the_gendered_pronoun() -> None:
    first, again, other = generate(40, seed=3), generate(40, seed=3), generate(40, seed=4)
    assert first == again and first != other
    assert [d.distance for d in first[:8]] == [0, 1, 2, 3, 0, 1, 2, 3]
    for doc in first:
        pronoun = PRONOUNS[doc.gender]
        # the planted pronoun is in the last German sentence, at the planted distance from its antecedent
        assert pronoun in doc.german[-1].lower().replace(",", " ").replace(".", " ").split()
        assert doc.english[-1].lower().count(" it ") + doc.english[-1].startswith("It ") >= 1


@pytest.mark.skipif(
    not (models_root() / "pronouns-context" / "config.json").is_file(), reason="bundled pronoun models not trained"
)
def test_context_aware_model_wins_only_where_context_matters(tmp_path: Path) -> None:
    import torch

    from builders.validation.pronouns import claim_table, validate_pronouns

    torch.set_num_threads(1)
    claim = validate_pronouns(tmp_path)
    table = claim_table(claim)
    assert claim.passed, table
    assert claim.counts["0"] >= 100 and claim.counts[">=1"] >= 300
    assert claim.accuracy["context"][">=1"] > claim.accuracy["sentence"][">=1"] + 0.2, table
    assert np.isfinite(claim.mcnemar_far["p_exact"]) and claim.mcnemar_far["p_exact"] < 0.01


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
