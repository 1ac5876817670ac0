"""Prune contrastive variants that may be correct German for the reference (blind check on reserved subtitles:
most unusable items had a variant that reads as acceptable German, so the item did not test what it claims).

A variant that could be right is not contrastive: it is removed, and the item is kept while one variant is
left (``extract.german_item`` drops it as ``no_contrastive_variant_left`` otherwise). Each rule names a reason:

- ``es_situational``: the *es* variant of an *er/sie* item is a situation or proposition reading: *es* with a
  copula and one predicative adjective or participle (*Es ist vorbei*), the subject of an event verb (*ob es
  funktioniert*, *Wird es gelingen?*), or a verb that readily takes a propositional *es* (*dass er es
  verdient*, *wie wir es uns vorgestellt haben*, *Was soll es bedeuten?*).
- ``sie_plural_reading``: the *sie* variant of an *er/es* item whose *sie* would be accusative (a nominative
  *sie* is held singular by its verb) when a German plural noun stands before it in its segment (outside its
  own clause: an object cannot mean its clause's subject) or in the context segments in reach (the
  antecedent's segment and the one before the pronoun's): *Die Amerikaner bauen uns ein trojanisches Pferd.
  Aber ich kann Ihnen beibringen, wie man sie bekämpft* reads as "them" (blind-check class).
- ``rival_noun_of_variant_gender``: the variant of gender G when a singular German noun of gender G other
  than the antecedent's head stands between the head and the pronoun in the pronoun's segment
  (``german_competitors``' span and exclusions, except that a noun translating an English candidate counts:
  it is what the variant may mean): *Die Schlüssel lagen im Fach, aber es klemmte* reads as *das Fach*.
- ``predicate_noun_of_variant_gender``: the variant of a gender that a copular predicate noun or an apposition
  said of the referent has (*Dieser Ort ist die Hölle* → *sie*; ``german_referent``, blind round 5 class 2).
- ``person_of_variant_gender``: the variant of the gender of a person (English he/she) in the pronoun's segment
  or the one before (``german_referent``, class 4).

- ``es_subject_colloquial``: the *es* variant of an *er/sie* item when the probed pronoun is nominative, or
  accusative in a clause with nothing but the verb, a subject pronoun and particles (*Du willst sie?*). Blind
  round 6, class 1: colloquial German resumes almost any thing as a subject *es* (*Es folgt dir!*, *Es wurde
  zu einer weiteren Geschichte*, *Natürlich ist es das*), so such a variant is not reliably wrong. Policy of
  the issue (simplest sound version): it covers the *das* predicates (*ist er das* → *ist es das*) too.

``es_situational`` also covers impersonal frames where *es* is natural whatever the referent (class 3 of blind
round 5): *weh tun*, *passen*, *aussehen*, *führen zu*, *sich handeln um*, *gehen um/wie*, *nichts helfen*, and
a copula after a modal (*Es kann gut sein*).

Word lists are ours (German grammar, not copied from any resource)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from builders.pronouns.german import CLAUSE_BREAKS, SUBORDINATORS, GToken, NounEntry, word_set
from builders.pronouns.german_antecedent import NounAt, german_competitors, plural_noun_between
from builders.pronouns.german_case import COORDINATORS, clause_start
from builders.pronouns.quality import identificational
from builders.pronouns.variants import Variant


def _regular(*stems: str) -> set[str]:
    """Present, past and participle forms of weak verbs: "funktionier" -> funktioniert, funktionierte, ...;
    a stem written "ver|dien" takes no ge- in the participle, "vor+stell" is separable (vorgestellt)."""
    forms: set[str] = set()
    for stem in stems:
        prefix, _, core = stem.rpartition("+")
        inseparable = "|" in core
        core = core.replace("|", "")
        joint = "e" if core.endswith(("t", "d")) or (core.endswith("n") and not core.endswith("ern")) else ""
        finite = {core + ending for ending in ("e", "en", "st", "t", "te", "ten", "test", "tet")}
        finite |= {core + joint + ending for ending in ("st", "t", "te", "ten")}
        participle = core + joint + "t" if inseparable or core.endswith("ier") else "ge" + core + joint + "t"
        forms |= {prefix + form for form in finite} | {prefix + core + "en", prefix + participle}
        if prefix:
            forms |= finite | {prefix + "zu" + core + "en"}  # "stellt ... vor", "vorzustellen"
    return forms


COPULAS = word_set(
    "ist war sei wäre wird wurde würde bleibt blieb sein werden geworden gewesen bleiben worden scheint schien"
)
# adverbs and particles that may stand beside a predicative adjective without making it more than that
DEGREE_WORDS = word_set(
    "sehr so zu ganz gar wirklich echt total ziemlich recht einfach wohl doch ja schon noch nicht nie nun jetzt "
    "dann auch nur eben halt mal ja wieder immer bald endlich fast kaum völlig absolut etwas irgendwie "
    "wahrscheinlich vielleicht sicher bestimmt denn überhaupt tatsächlich genau hier da heute gestern morgen"
)
FUNCTION_WORDS = word_set(
    "der die das den dem des ein eine einen einem einer eines kein keine keinen keinem in im an am auf aus bei "
    "mit nach von vom zu zum zur für gegen ohne um durch über unter vor hinter neben zwischen wie als "
    "ich du er sie es wir ihr man mich mir dich dir uns euch ihn ihm ihnen sich was wer"
)
# verbs whose subject *es* is readily an event or situation ("ob es funktioniert", "es brennt", "es endet")
EVENT_VERBS = frozenset(
    _regular("funktionier", "klapp", "passier", "end", "dauer", "brenn", "stimm", "reich", "schad", "lohn",
             "los+geh", "weiter+geh", "auf+hör", "an+fang", "ab+lauf", "bedeut", "wirk", "zähl")
    | word_set(
        "gelingt gelang gelungen gelingen gelänge geschieht geschah geschehen brennt brannte gebrannt "
        "beginnt begann begonnen beginnen fängt fing angefangen geht ging gegangen gehen läuft lief gelaufen "
        "laufen"
    )
)
# verbs that readily take a propositional object *es* ("dass er es verdient", "wenn wir es brauchen")
PROPOSITION_VERBS = frozenset(
    _regular("ver|dien", "brauch", "mein", "sag", "schaff", "vor+stell", "glaub", "hass", "lieb", "bedeut",
             "versuch", "hoff", "erwart", "fühl", "spür", "merk", "akzeptier", "behaupt", "erzähl", "erklär",
             "ahn")
    | word_set(
        "weiß weißt wissen wisst wusste wussten wusstest gewusst mag magst mögen mochte mochten gemocht "
        "versteht verstehe verstehen verstand verstanden tut tue tun tat taten getan kennt kenne kennen "
        "denkt denke denken dachte gedacht vergisst vergesse vergessen vergaß"
    )
)


def clause_span(tokens: Sequence[GToken], index: int) -> tuple[int, int]:
    """The tokens of the pronoun's clause: from after the last punctuation mark, coordinator or subordinator
    before it (the subordinator included) to the next punctuation mark or coordinator ("als das Dorf" stays in)."""
    start = index
    while start > 0 and tokens[start - 1].text not in CLAUSE_BREAKS and (
        tokens[start - 1].text.lower() not in COORDINATORS
    ):
        start -= 1
        if tokens[start].text.lower() in SUBORDINATORS:
            break
    end = index + 1
    while end < len(tokens) and tokens[end].text not in CLAUSE_BREAKS and tokens[end].text.lower() not in COORDINATORS:
        end += 1
    return start, end


# modals before "sein": "Es kann gut sein" is the copula frame with one predicative adjective
MODALS = word_set("kann könnte muss müsste mag mochte dürfte soll sollte will wollte")


def es_situational(tokens: Sequence[GToken], index: int, case: str) -> bool:
    """*es* at ``index`` (of the reference tokens, where the probed pronoun stands) may be a situation or a
    proposition in its clause: the *es* variant could be right."""
    start, end = clause_span(tokens, index)
    words = [tokens[k].text.lower() for k in range(start, end) if k != index]
    rest = [w for w in words if w not in COPULAS | DEGREE_WORDS | SUBORDINATORS | MODALS | {"?", "!"}]
    if any(w in COPULAS for w in words) and len(rest) == 1 and rest[0] not in FUNCTION_WORDS and (
        tokens[next(k for k in range(start, end) if tokens[k].text.lower() == rest[0])].text.islower()
    ):
        return True  # "Es ist vorbei", "Es ist wirklich wunderschön", "ob es schön war"
    return es_event_or_proposition(tokens, index, case)


MEIN_FORMS = word_set("mein meine meinen meinem meiner meines")


def _possessive(tokens: Sequence[GToken], index: int) -> bool:
    """ "meinen Schreibtisch": a possessive before a noun, not the verb "meinen"."""
    following = tokens[index + 1].text if index + 1 < len(tokens) else ""
    return tokens[index].text.lower() in MEIN_FORMS and following[:1].isupper()


# impersonal frames whose subject *es* is natural whatever the referent (blind round 5, class 3): the verb's
# forms, and the words one of which must stand in the clause too ("tut weh", "sieht gut aus", "führt zu")
IMPERSONAL_FRAMES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (word_set("tut tat tun täte getan"), word_set("weh")),
    (frozenset(_regular("pass")), frozenset()),  # "Passt es?"
    (word_set("sieht sah sehen aussieht aussah aussehen ausgesehen"), word_set("aus aussieht aussah aussehen "
                                                                              "ausgesehen")),
    (frozenset(_regular("führ")), word_set("zu zum zur")),  # "es führt zu nichts"
    (frozenset(_regular("handel")), word_set("um")),  # "es handelt sich um"
    (word_set("geht ging gehen gegangen"), word_set("um wie gut schlecht")),  # "darum geht es", "wie geht es"
    (word_set("hilft half helfen geholfen"), word_set("nichts nicht")),  # "es hilft nichts"
)


def impersonal_frame(words: Sequence[str]) -> bool:
    """The clause's words hold one of the impersonal frames (the verb and one of its companion words)."""
    present = set(words)
    return any(present & forms and (not companions or present & companions) for forms, companions in IMPERSONAL_FRAMES)


def es_event_or_proposition(tokens: Sequence[GToken], index: int, case: str) -> bool:
    """The pronoun at ``index`` is the subject of an event verb or the object of a verb that readily takes a
    propositional *es*: an *es* there may mean what happened or what was said, not a noun."""
    start, end = clause_span(tokens, index)
    words = [tokens[k].text.lower() for k in range(start, end) if k != index and not _possessive(tokens, k)]
    if case == "nom" and (any(w in EVENT_VERBS for w in words) or impersonal_frame(words)):
        return True  # "ob es funktioniert", "Wird es gelingen?", "Es brennt bei Kontakt"
    return case == "acc" and any(w in PROPOSITION_VERBS for w in words)  # "dass er es verdient"


# preceding segments in reach of a plural reading besides the antecedent's (the export's default context)
CONTEXT_IN_REACH = 1


@dataclass(frozen=True)
class Reach:
    """The document around the pronoun, for the rules that read more than the reference tokens."""

    german: Sequence[Sequence[GToken]]  # every segment's German tokens
    noun_at: NounAt  # (segment, token) -> noun entry or None
    head: tuple[int, int]  # the antecedent's German head (segment, token)
    segment: int  # the pronoun's segment
    not_a_thing: Callable[[int, int], bool]  # the noun translates a person, a name or a time
    # genders of the predicate or apposition nouns said of the referent (german_referent, class 2)
    predicate_genders: frozenset[str] = frozenset()
    # genders of the persons (English he/she) in the pronoun's segment and the one before (german_referent)
    person_genders: frozenset[str] = frozenset()


# determiners that before a masculine or neuter noun can only be plural ("die Amerikaner", "diese Lehrer")
PLURAL_DETERMINERS = word_set("die diese jene meine deine seine ihre unsere eure keine alle viele einige manche")


def sie_plural_reading(reach: Reach, pronouns: Sequence[tuple[int, str]]) -> bool:
    """An accusative pronoun of the chain would be a *sie* that a plural noun in reach can take."""
    first = max(0, min(reach.head[0], reach.segment - CONTEXT_IN_REACH))
    tokens = reach.german[reach.segment]

    def noun_at(segment: int, token: int) -> NounEntry | None:
        # a form the lexicon also has as a singular ("Amerikaner") is plural after "die" unless feminine
        entry = reach.noun_at(segment, token)
        before = reach.german[segment][token - 1].text.lower() if token > 0 else ""
        if entry is not None and before in PLURAL_DETERMINERS and not entry.singular_in("Fem"):
            return NounEntry(entry.lemma, entry.genders, True, frozenset())
        return entry

    return any(
        case == "acc"
        and plural_noun_between(reach.german, noun_at, (first, -1), (reach.segment, clause_start(tokens, index)))
        for index, case in pronouns
    )


def rival_of_gender(reach: Reach, index: int, case: str, gender: str) -> bool:
    """A singular noun of ``gender`` between the antecedent's head and the pronoun at ``index``, in the
    pronoun's own segment: a noun of an earlier sentence yields to the antecedent (gold: *Mein Auto steht in
    der Garage. Es braucht neue Reifen* does not read as *die Garage* with *sie*)."""
    tokens = reach.german[reach.segment]
    own_clause_from = clause_start(tokens, index) if case in {"acc", "dat"} else index

    def noun_at(segment: int, token: int) -> NounEntry | None:
        near = segment == reach.segment or (segment, token) == reach.head
        return reach.noun_at(segment, token) if near else None

    pronoun = (reach.segment, index)
    return german_competitors(
        reach.german, noun_at, reach.head, pronoun, gender, set(), reach.not_a_thing, own_clause_from
    ) > 0


# words that leave a clause "bare": the pronoun's clause holds nothing that tells a thing from a situation
BARE_CLAUSE_WORDS = word_set("ich du wir ihr man sie er es das doch ja denn schon noch nicht auch nur wirklich")


def es_colloquial(tokens: Sequence[GToken], index: int, case: str) -> bool:
    """The *es* variant of the pronoun at ``index`` may be colloquially right (blind round 6, class 1): the
    pronoun is nominative, or accusative in a clause of at most the verb besides pronouns and particles."""
    if case == "nom":
        return True
    if case != "acc":
        return False
    start, end = clause_span(tokens, index)
    words = [tokens[k].text.lower() for k in range(start, end) if k != index and tokens[k].text.isalpha()]
    return len([w for w in words if w not in BARE_CLAUSE_WORDS]) <= 1


def _es_reason(tokens: Sequence[GToken], pronouns: Sequence[tuple[int, str]]) -> str:
    """Why the *es* variant of an *er/sie* item may be right German, or ''."""
    if any(es_situational(tokens, index, case) for index, case in pronouns):
        return "es_situational"
    if identificational(tokens, pronouns[0][0]):
        return "es_identificational"  # "Das ist sie!" -> "Das ist es!" ("that's it") is right German too
    return "es_subject_colloquial" if es_colloquial(tokens, *pronouns[0]) else ""


def prune_variants(
    variants: Sequence[Variant],
    tokens: Sequence[GToken],
    pronouns: Sequence[tuple[int, str]],
    gender: str,
    reach: Reach | None = None,
) -> tuple[list[Variant], dict[str, str]]:
    """The variants that stay contrastive, and {pruned variant's gender: reason}. ``pronouns`` are the (index,
    case) of every pronoun the variants swap, the probed one first: the others of its chain too, since a
    variant swaps them all and one situational *es* among them is enough for the variant to read as right.
    Without ``reach`` only the rules on the reference tokens run."""
    kept: list[Variant] = []
    pruned: dict[str, str] = {}
    es_reason = _es_reason(tokens, pronouns) if gender in {"Masc", "Fem"} else ""
    for variant in variants:
        reason = ""
        if variant.gender == "Neut" and es_reason:
            reason = es_reason
        elif reach is not None and variant.gender == "Fem" != gender and sie_plural_reading(reach, pronouns):
            reason = "sie_plural_reading"
        elif reach is not None and rival_of_gender(reach, *pronouns[0], variant.gender):
            reason = "rival_noun_of_variant_gender"
        elif reach is not None and variant.gender in reach.predicate_genders:
            reason = "predicate_noun_of_variant_gender"
        elif reach is not None and variant.gender in reach.person_genders:
            reason = "person_of_variant_gender"
        if reason:
            pruned[variant.gender] = reason
        else:
            kept.append(variant)
    return kept, pruned
