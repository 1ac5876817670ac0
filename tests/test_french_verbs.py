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


def test_derived_sets_keep_the_hand_lists() -> None:
    # the literal lists the rules had before the table: every derived set keeps exactly their members
    expected = {
        "a avait aura aurait eut ait avoir ayant": french.AVOIR_AFTER_Y,
        "est était sera serait fut soit sont étaient": french.ETRE_FORMS,
        "est était sera serait soit fût va allait ira irait": french.EN_ETRE_ALLER,
        "est sont était étaient sera seront serait seraient fut furent soit soient été être": french_targets.ETRE,
        "a ont avait avaient aura auront aurait auraient eut eurent ait aient": french_targets.AVOIR,
        "a ai as avons avez ont avait avais avions aviez avaient aura aurai auras aurons aurez auront aurait aurais "
        "aurions auriez auraient eut eurent ait aie aies ayons ayez aient avoir ayant eu": french_clitics.AVOIR_FORMS,
        "lui leur y en a ai as avons avez ont avait avais avions aviez avaient aura aurait eu ait pas jamais plus "
        "déjà bien toujours encore rien": french_pack.CLUSTER_WORDS,
    }
    for words, derived in expected.items():
        assert word_set(words) == derived
