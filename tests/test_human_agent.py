"""The human-agent filter for *they* and the person-noun filter for *it* (builders/pronouns/human_agent.py;
acceptance rules and figures in docs/coref.md).

Every sentence here was written for these tests."""

from __future__ import annotations

import pytest

from builders.core.compat import spacy_english
from builders.pronouns.human_agent import PERSON_ANTECEDENT_REASON, REASON, human_agent_reason, person_antecedent_reason

needs_english = pytest.mark.skipif(not spacy_english().available, reason=spacy_english().reason)


@needs_english
@pytest.mark.parametrize(
    ("text", "antecedent", "reason"),
    [
        ("We sorted the old tickets. They thanked us for the help.", "tickets", REASON),  # verb.communication
        ("The documents were on the desk. They discussed the plan.", "documents", REASON),  # not in the old list
        ("The prices went up again. They worried about the rent.", "prices", REASON),  # verb.emotion
        ("The tickets were expensive. They voted against the plan.", "tickets", REASON),  # verb.social
        ("The engineers left early. They discussed the plan.", "engineers", ""),  # a person can discuss
        ("The dogs barked all night. They feared the storm.", "dogs", ""),  # an animal can fear
        ("The committees met today. They voted against the plan.", "committees", ""),  # a group can vote
        ("The tickets were on the table. They cost twenty euros.", "tickets", ""),  # any subject can cost
        ("The new rules arrived today. They change everything.", "rules", ""),  # verb.change
        ("The old tickets were sorted. They were discussed.", "tickets", ""),  # a passive subject is no agent
        ("The report came out. It says that prices rose.", "report", ""),  # *it* is not filtered
        ("The old programs are slow. They work well.", "programs", ""),  # a light verb: things work, do, help
        ("The old programs are slow. They do the job.", "programs", ""),
    ],
)
def test_human_agent_reason(text: str, antecedent: str, reason: str) -> None:
    import spacy

    doc = spacy.load(spacy_english().name)(text)
    pronoun = next(t for t in doc if t.lower_ in {"they", "it"})
    head = next(t for t in doc if t.lower_ == antecedent)
    assert human_agent_reason(pronoun, head) == reason


def test_a_lemma_wordnet_lacks_never_fires() -> None:
    from builders.pronouns.human_agent import thing_noun

    class Fake:  # the two attributes thing_noun reads
        lemma_ = "zzyzxthing"
        pos_ = "NOUN"

    assert not thing_noun(Fake())  # type: ignore[arg-type]


@needs_english
@pytest.mark.parametrize(
    ("text", "antecedent", "reason"),
    [
        ("The inspector saw the engine. It was loud.", "inspector", PERSON_ANTECEDENT_REASON),  # first sense: person
        ("The killer escaped. It was fast.", "killer", PERSON_ANTECEDENT_REASON),
        ("The inspector saw the engine. It was loud.", "engine", ""),  # a thing
        ("The baby cried all night. It was hungry.", "baby", ""),  # English calls a baby *it*
        ("The dog barked all night. It was hungry.", "dog", ""),  # an animal is no person
        ("The inspectors saw the engines. They were loud.", "inspectors", ""),  # *they* is not this filter's
        ("Paris is lovely. It is big.", "Paris", ""),  # a name is left to the other checks
    ],
)
def test_person_antecedent_reason(text: str, antecedent: str, reason: str) -> None:
    import spacy

    doc = spacy.load(spacy_english().name)(text)
    pronoun = next(t for t in doc if t.lower_ in {"they", "it"})
    head = next(t for t in doc if t.text == antecedent)
    assert person_antecedent_reason(pronoun, head) == reason
