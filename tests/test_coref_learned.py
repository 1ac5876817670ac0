"""The learned resolver (issue 27): bundled weights reproducible from OntoGUM, and a build with coref: learned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders.core.compat import spacy_english
from builders.pronouns.coref import Candidate
from builders.pronouns.coref_gum import PronounCase
from builders.pronouns.coref_learned import calibrated_confidence, load_weights, model_dir

SPACY = spacy_english()
pytestmark = pytest.mark.skipif(not SPACY.available, reason=SPACY.reason)


def test_make_models_retrains_the_bundled_weights_byte_identically(shared_data: Path, tmp_path: Path) -> None:
    from builders.pronouns.coref_train import train_all

    train_all(shared_data / "coref-gum" / "ontogum.jsonl", tmp_path)
    assert (tmp_path / "weights.json").read_bytes() == (model_dir() / "weights.json").read_bytes()


def test_bundled_weights_say_what_they_were_trained_on() -> None:
    weights = json.loads((model_dir() / "weights.json").read_text(encoding="utf-8"))
    assert weights["trained_on"]["split"] == "train"
    # only CC BY / CC BY-SA genres of GUM are in the shipped weights (model card)
    assert set(weights["trained_on"]["genres"]) <= {"academic", "court", "interview", "news", "bio", "voyage"}
    assert (model_dir() / "card.md").is_file()
    for pronoun in ("it", "they"):
        assert set(load_weights(pronoun).calibration) == {"m", "f", "n"}


@pytest.mark.parametrize(("raw", "calibration", "expected"), [
    (0.5, (1.0, 0.0), 0.5),  # the identity map
    (0.9, (1.0, 0.0), 0.9),
    (0.5, (1.0, 2.0), 0.8808),  # a positive offset raises every confidence
    (0.0, (1.0, 0.0), 0.0),  # clipped: never a math error at 0 or 1
    (1.0, (1.0, 0.0), 1.0),
])
def test_calibration_is_a_platt_map(raw: float, calibration: tuple[float, float], expected: float) -> None:
    assert calibrated_confidence(raw, calibration) == pytest.approx(expected, abs=1e-4)


def test_a_build_with_the_learned_resolver_records_its_probability(tmp_path: Path) -> None:
    from builders.core.config import load_config_file
    from builders.core.resources import resource_path
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    values = load_config_file(resource_path("samples", "pronouns", "demo.yaml"))
    config = PronounsConfig.from_mapping({**values, "coref": "learned", "min_confidence": 0.0,
                                          "alignment_cache": str(tmp_path / "cache")})
    out = PronounsBuilder(config).build(tmp_path / "out", quiet=True)
    info = json.loads((out / "info.json").read_text(encoding="utf-8"))
    assert info["tools"]["coref"] == f"learned-{load_weights('it').version}"
    records = [json.loads(line) for line in (out / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    assert records, info["counts"]
    confidences = [r["confidence"] for r in records]
    assert all(0.0 < c < 1.0 for c in confidences)
    assert len(set(confidences)) > 1  # a probability per item, not the heuristic's 1/count steps


def test_salience_counts_the_lemma_over_the_earlier_document_and_caches_it() -> None:
    from builders.pronouns.coref_learned import LEMMA_COUNTS_KEY, salience_features
    from builders.pronouns.english import load_pipeline

    nlp = load_pipeline("").nlp
    docs = [nlp(text) for text in ("The box stood in the hall.", "Nobody opened the box.", "It is a box of tea.")]
    box, hall = docs[1][3], docs[0][5]
    assert (box.lemma_, hall.lemma_) == ("box", "hall")
    pronoun = docs[2][0]
    box_row, hall_row = (salience_features(docs, 2, pronoun, noun, 2 - i) for i, noun in ((1, box), (0, hall)))
    assert box_row[0] > hall_row[0] > 0.0  # box twice before the pronoun's segment, hall once
    assert box_row[6] == 1.0 and hall_row[6] == 0.0  # "a box" named again after the pronoun
    assert docs[0].user_data[LEMMA_COUNTS_KEY] == {"box": 1, "hall": 1}


class _Marked:
    """Extra columns an experiment would add (coref_train.ExtraFeatures): the candidate's head index, and 7."""

    def ranker(self, case: PronounCase, candidate: Candidate) -> list[float]:
        return [float(candidate.head)]

    def anaphoricity(self, case: PronounCase) -> list[float]:
        return [7.0]


def test_training_scores_its_stored_features_as_rank_does_and_takes_extra_columns() -> None:
    from builders.pronouns.coref import HeuristicDocument
    from builders.pronouns.coref_gum import GoldDocument, ParsedCorpus, parse_document
    from builders.pronouns.coref_learned import rank
    from builders.pronouns.coref_train import MAX_DISTANCE, examples, posteriors
    from builders.pronouns.english import load_pipeline

    sentences = [["The", "lamp", "stood", "on", "the", "desk", "."],
                 ["The", "student", "switched", "it", "on", "near", "the", "window", "."]]
    gold = GoldDocument("own_lamp", "dev", "own", sentences, [[(0, 0, 2), (1, 3, 4)]])
    corpus = ParsedCorpus([gold], {gold.name: parse_document(load_pipeline("").nlp, gold)})
    plain = examples(corpus, frozenset({"it"}))
    assert len(plain) == 1 and plain[0].case.anaphoric
    docs = corpus.docs[gold.name]
    weights = load_weights("it")
    candidates = HeuristicDocument(docs).candidates(1, 3, MAX_DISTANCE)
    assert candidates and list(plain[0].candidates) == candidates
    assert posteriors(plain, weights) == [rank(docs, 1, docs[1][3], candidates, MAX_DISTANCE, weights)]
    marked = examples(corpus, frozenset({"it"}), _Marked())[0]
    width = plain[0].features.shape[1]
    assert (marked.features[:, :width] == plain[0].features).all()
    assert marked.features[:, width].tolist() == [float(c.head) for c in candidates]
    assert marked.anaphoricity.tolist() == [*plain[0].anaphoricity.tolist(), 7.0]
