"""The avoir/être table and the word sets the French rules derive from it."""

from __future__ import annotations

from builders.pronouns import french, french_clitics, french_pack, french_targets
from builders.pronouns.french_verbs import ALL_TENSES, AVOIR, CONJUGATIONS, ETRE, NON_FINITE, PERSONS
from builders.pronouns.german import word_set


def test_every_tense_has_one_form_per_person() -> None:
    for tense, columns in CONJUGATIONS.items():
        assert [len(forms.split()) for forms in columns] == [len(PERSONS)] * 2, tense
    assert [len(forms.split()) for forms in NON_FINITE] == [3, 3]


def test_selections_by_person_and_tense() -> None:
    assert AVOIR.finite(("3sg",), ("present", "future")) == {"a", "aura"}
    assert ETRE.finite(("3pl",), ("imperfect_subjunctive",)) == {"fussent"}
    # 42 slots; 1sg and 2sg share their form in the imperfect, conditional, simple past and present subjunctive
    assert len(ETRE.finite(PERSONS, ALL_TENSES)) == 38
    assert (ETRE.infinitive, ETRE.present_participle, ETRE.past_participle) == ("être", "étant", "été")


def test_derived_sets_follow_the_grammar() -> None:
    # after round 15 the selections are grammar, not the old hand lists: an impersonal "il" takes the third
    # singular of every tense (so "fût", "eût", and "fut" in "il en fut de même"; no plural "sont/étaient"), and
    # "avoir" between an object clitic and its participle may be any form ("tu l'aurais vue", "je l'eus vue",
    # "pour l'avoir vue", "l'ayant vue")
    third_singular_avoir = "a avait aura aurait eut ait eût"
    every_avoir = (
        "ai as a avons avez ont avais avait avions aviez avaient aurai auras aura aurons aurez auront aurais aurait "
        "aurions auriez auraient eus eut eûmes eûtes eurent aie aies ait ayons ayez aient eusse eusses eût eussions "
        "eussiez eussent avoir ayant eu"
    )
    expected = {
        f"{third_singular_avoir} avoir ayant": french.AVOIR_AFTER_Y,
        "est était sera serait fut soit fût": french.ETRE_FORMS,
        "est était sera serait fut soit fût va allait ira irait alla aille allât": french.EN_ETRE_ALLER,
        every_avoir: french_clitics.AVOIR_FORMS,
        f"lui leur y en {every_avoir} pas jamais plus déjà bien toujours encore rien": french_pack.CLUSTER_WORDS,
        # the agreement rules read the third person of every tense, the literary imperfect subjunctive too
        "est sont était étaient sera seront serait seraient fut furent soit soient fût fussent été être":
            french_targets.ETRE,
        "a ont avait avaient aura auront aurait auraient eut eurent ait aient eût eussent": french_targets.AVOIR,
    }
    for words, derived in expected.items():
        assert word_set(words) == derived


def test_no_selection_keeps_an_exception() -> None:
    # each set is a plain selection of the table: by person and tense, plus named non-finite forms
    assert ETRE.finite(("3sg",), ALL_TENSES) == french.ETRE_FORMS
    assert AVOIR.finite(PERSONS, ALL_TENSES) | AVOIR.non_finite() == french_clitics.AVOIR_FORMS
    assert AVOIR.finite(PERSONS, ALL_TENSES) | AVOIR.non_finite() <= french_pack.CLUSTER_WORDS
