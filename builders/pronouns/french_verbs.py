"""The conjugated forms of the French auxiliaries *avoir* and *être* in one table (written for mtprobes from
French grammar), and the selections of them that the French rules name.

The rules read the clause after a subject pronoun *il/elle/ils/elles* or an object clitic, so most selections are
by person. A selection takes every tense unless it names some: the literary ones (*il en fut*, *qu'il fût*) occur
in subtitles and books too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

PERSONS = ("1sg", "2sg", "3sg", "1pl", "2pl", "3pl")
THIRD_SINGULAR = ("3sg",)
THIRD_PERSON = ("3sg", "3pl")

# tense: (avoir, être), each the six forms in the order of PERSONS
CONJUGATIONS: dict[str, tuple[str, str]] = {
    "present": ("ai as a avons avez ont", "suis es est sommes êtes sont"),
    "imperfect": ("avais avais avait avions aviez avaient", "étais étais était étions étiez étaient"),
    "future": ("aurai auras aura aurons aurez auront", "serai seras sera serons serez seront"),
    "conditional": ("aurais aurais aurait aurions auriez auraient", "serais serais serait serions seriez seraient"),
    "simple_past": ("eus eus eut eûmes eûtes eurent", "fus fus fut fûmes fûtes furent"),
    "subjunctive": ("aie aies ait ayons ayez aient", "sois sois soit soyons soyez soient"),
    "imperfect_subjunctive": ("eusse eusses eût eussions eussiez eussent", "fusse fusses fût fussions fussiez fussent"),
}
# (avoir, être), each: infinitive, present participle, past participle
NON_FINITE = ("avoir ayant eu", "être étant été")

ALL_TENSES = tuple(CONJUGATIONS)


@dataclass(frozen=True)
class Verb:
    column: int  # of CONJUGATIONS and NON_FINITE

    def finite(self, persons: Iterable[str] = PERSONS, tenses: Iterable[str] = ALL_TENSES) -> frozenset[str]:
        """The finite forms of these persons in these tenses."""
        slots = [PERSONS.index(person) for person in persons]
        return frozenset(CONJUGATIONS[tense][self.column].split()[slot] for tense in tenses for slot in slots)

    def non_finite(self) -> frozenset[str]:
        return frozenset(NON_FINITE[self.column].split())

    @property
    def infinitive(self) -> str:
        return NON_FINITE[self.column].split()[0]

    @property
    def present_participle(self) -> str:
        return NON_FINITE[self.column].split()[1]

    @property
    def past_participle(self) -> str:
        return NON_FINITE[self.column].split()[2]


AVOIR = Verb(0)
ETRE = Verb(1)
