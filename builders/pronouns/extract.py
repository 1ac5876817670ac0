"""The ContraPro filters for one document: every English "it" is kept as a record or dropped with a reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from builders.pronouns.coref import TIME_NOUNS, Candidate, DocumentCoref, person_nouns
from builders.pronouns.coref_learned import Posterior, calibrated_confidence
from builders.pronouns.english import morph_string, pleonastic_reason
from builders.pronouns.german import (
    GENDER_OF_PRONOUN,
    GToken,
    NounEntry,
    RuleGerman,
    is_formal_sie,
    phrase_start,
    word_set,
)
from builders.pronouns.german_antecedent import (
    antecedent_embedded,
    antecedent_oblique,
    antecedent_presented,
    antecedent_relational,
    attitude_verb_object,
    es_without_parallel_role,
    german_competitors,
    german_head_genitive,
    head_alignment_ambiguous,
    other_gender_mention,
    person_pronoun_in_sentence,
    plural_noun_between,
    pronoun_translates_other_word,
    role_class,
)
from builders.pronouns.german_case import clause_start, german_case
from builders.pronouns.german_chain import ChainContext, chain_of, expletive_es
from builders.pronouns.german_referent import (
    gender_inconsistent,
    person_genders,
    predicate_genders,
    resumptions,
)
from builders.pronouns.german_variants_filter import Reach, es_event_or_proposition, prune_variants
from builders.pronouns.quality import german_structure_reason
from builders.pronouns.variants import ChainToken, Variant, make_variants

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from builders.pronouns.packs import LanguagePack

# the target noun aligned to an English head noun: (segment, English head index) -> (target index, entry)
NounFinder = Callable[["Segment", int], "tuple[int, NounEntry] | None"]

DEMONSTRATIVES = word_set("das dies diese dieser dieses diesen diesem der die den dem denn")
OBLIQUE_PRONOUNS = frozenset({"ihn", "ihm", "ihr", "ihnen"})


@dataclass
class Segment:
    src: str
    tgt: str
    doc: Doc | None  # None: skipped before parsing (too long, bad text)
    german: list[GToken]
    links: frozenset[tuple[int, int]]
    # English token -> why the pronoun fallback (align_pronoun.py) refused it, appended to "<it>_not_aligned"
    fallback_refused: Mapping[int, str] = field(default_factory=dict)


@dataclass
class Found:
    """A kept candidate, before it becomes a record."""

    sentence: int
    token: int
    german_index: int
    antecedent: Candidate
    german_head: int
    entry: NounEntry
    variants: list[Variant]
    confidence: float
    extra: dict[str, Any] = field(default_factory=dict)


class Drop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def aligned(segment: Segment, source_index: int) -> list[int]:
    return sorted(j for i, j in segment.links if i == source_index)


def aligned_english(segment: Segment, german_index: int) -> list[Token]:
    """English tokens linked to a German token (none for an unparsed segment)."""
    doc = segment.doc
    return [doc[i] for i, j in sorted(segment.links) if j == german_index] if doc is not None else []


def german_pronoun(segment: Segment, it: Token, german: RuleGerman) -> int:
    """The German er/sie/es aligned to this "it", or Drop naming what it was translated as instead."""
    targets = aligned(segment, it.i)
    words = [segment.german[j].text.lower() for j in targets]
    pronouns = [j for j, w in zip(targets, words, strict=True) if w in GENDER_OF_PRONOUN]
    if not pronouns:
        if not targets:
            raise Drop("it_not_aligned" + segment.fallback_refused.get(it.i, ""))
        if any(w in DEMONSTRATIVES or (w.startswith(("da", "dar")) and len(w) > 3) for w in words):
            raise Drop("translated_as_demonstrative")
        if any(w in OBLIQUE_PRONOUNS for w in words):
            raise Drop("translated_as_oblique_pronoun")
        raise Drop("not_translated_as_er_sie_es")
    if len(pronouns) > 1:
        pronouns = preferred_pronouns(segment, it, pronouns)
    if len({segment.german[j].text.lower() for j in pronouns}) > 1:
        raise Drop("ambiguous_pronoun_alignment")
    index = pronouns[0]
    token = segment.german[index]
    if is_formal_sie(segment.german, index):
        raise Drop("formal_Sie")
    subject = it.dep_ in {"nsubj", "nsubjpass"}  # the verb agrees with "sie" only when it is the subject
    if (
        token.text.lower() == "sie"
        and subject
        and german.pronoun_number(segment.tgt, segment.german, index) == "Plur"
    ):
        raise Drop("plural_sie")
    return index


# English words whose own rendering a linked German pronoun may be (so it is not this "it"'s)
OTHER_PERSONAL = frozenset({"i", "you", "he", "she", "we", "they", "him", "her", "us", "them", "it"})


def preferred_pronouns(segment: Segment, it: Token, pronouns: list[int]) -> list[int]:
    """Of several different German pronouns linked to one "it", those left when the formal "Sie" and pronouns
    also linked to another English personal pronoun are set aside ("Hold it up." / "Halten Sie es hoch.",
    "he shaped it" / "formte er sie"; issue 23, IWSLT17 dev: 10 of 16 ambiguous alignments); all of them when
    that would leave none."""
    doc = segment.doc
    shared = {j for i, j in segment.links if doc is not None and i != it.i and doc[i].lower_ in OTHER_PERSONAL}
    left = [j for j in pronouns if not is_formal_sie(segment.german, j) and j not in shared]
    return left or pronouns


def german_noun(segment: Segment, head: int, german: RuleGerman) -> tuple[int, NounEntry] | None:
    """The German noun aligned to an English head noun (the longest one when several are aligned)."""
    best: tuple[int, NounEntry] | None = None
    for j in aligned(segment, head):
        entry = german.noun_entry(segment.tgt, segment.german, j)
        if entry is not None and (
            best is None or len(segment.german[j].text) > len(segment.german[best[0]].text)
        ):
            best = (j, entry)
    return best


def choose_antecedent(
    segments: Sequence[Segment],
    candidates: list[Candidate],
    gender: str,
    german: RuleGerman,
    es_unique: bool = True,
    number: str = "Sing",
    noun_of: NounFinder | None = None,
) -> tuple[Candidate, int, NounEntry, float]:
    """First candidate whose aligned target noun has the pronoun's number (German: singular) and agrees in
    gender; confidence falls with the number of other agreeing candidates and with nouns of several genders.
    ``noun_of`` finds the aligned target noun (default: the German lexicon lookup)."""
    agreeing: list[tuple[Candidate, int, NounEntry]] = []
    saw_noun = False
    for candidate in candidates:
        segment = segments[candidate.sentence]
        match = noun_of(segment, candidate.head) if noun_of else german_noun(segment, candidate.head, german)
        if match is None or match[1].plural_only != (number == "Plur"):
            continue
        saw_noun = True
        # a plural form ("Fällen") is no antecedent of er/sie/es; plural pronouns (ils/elles) want plural nouns
        agrees = match[1].singular_in(gender) if number == "Sing" else gender in match[1].genders
        if agrees:
            agreeing.append((candidate, *match))
    if not agreeing:
        raise Drop("antecedent_gender_disagrees" if saw_noun else "antecedent_not_aligned_to_noun")
    candidate, german_head, entry = agreeing[0]
    if gender == "Neut" and candidate != candidates[0]:
        # "es" is also the expletive and event pronoun, so neuter agreement is weak evidence: as in the
        # paper, the English side decides, i.e. the antecedent must be the backend's first choice ...
        raise Drop("es_antecedent_not_first_choice")
    if gender == "Neut" and es_unique and len({(c.sentence, c.head) for c, _, _ in agreeing}) > 1:
        # ... and no other neuter candidate may compete with it (measured on docs-ende: most wrong "es"
        # items had several neuter nouns in reach)
        raise Drop("es_antecedent_not_unique")
    distinct_heads = {(c.sentence, c.head) for c, _, _ in agreeing}
    confidence = 1.0 / len(distinct_heads) * (0.5 if len(entry.genders) > 1 else 1.0)
    return candidate, german_head, entry, round(confidence, 4)


GENDER_CODES = {"Masc": "m", "Fem": "f", "Neut": "n"}


def learned_antecedent(
    segments: Sequence[Segment],
    posterior: Posterior,
    gender: str,
    number: str,
    noun_of: NounFinder,
    calibration: dict[str, tuple[float, float]],
) -> tuple[Candidate, int, NounEntry, float]:
    """The most probable candidate whose target noun agrees with the target pronoun, and its confidence: its
    share of the mass of the candidates the target side leaves possible (agreeing ones, and those whose target
    noun is unknown), times the anaphoricity, calibrated per target gender."""
    agreeing: list[tuple[Candidate, int, NounEntry, float]] = []
    unknown_mass, saw_noun = 0.0, False
    for candidate, probability in zip(posterior.candidates, posterior.probabilities, strict=True):
        match = noun_of(segments[candidate.sentence], candidate.head)
        if match is None:
            unknown_mass += probability
            continue
        saw_noun = True
        entry = match[1]
        agrees = entry.singular_in(gender) if number == "Sing" else gender in entry.genders
        if entry.plural_only == (number == "Plur") and agrees:
            agreeing.append((candidate, match[0], entry, probability))
    if not agreeing:
        raise Drop("antecedent_gender_disagrees" if saw_noun else "antecedent_not_aligned_to_noun")
    candidate, head, entry, probability = agreeing[0]
    share = probability / (sum(p for *_, p in agreeing) + unknown_mass)
    raw = share * posterior.anaphoricity
    return candidate, head, entry, calibrated_confidence(raw, calibration[GENDER_CODES[gender]])


def german_side_checks(
    segments: Sequence[Segment],
    pronoun: tuple[int, int],
    antecedent: Candidate,
    german_head: int,
    gender: str,
    german: RuleGerman,
) -> None:
    """Drop when the antecedent's German head is linked to more than its English phrase, or when the German
    text names the referent with a noun of another gender too (class 3): target-side hard filters."""
    ante_segment = segments[antecedent.sentence]
    assert ante_segment.doc is not None
    if head_alignment_ambiguous(aligned_english(ante_segment, german_head), (antecedent.start, antecedent.end)):
        raise Drop("antecedent_head_alignment_ambiguous")
    if other_gender_mention(
        [s.doc for s in segments],
        lambda k, i: aligned(segments[k], i),
        lambda k, i: german.noun_entry(segments[k].tgt, segments[k].german, i),
        (antecedent.sentence, antecedent.head),
        pronoun,
        gender,
    ):
        raise Drop("german_other_gender_mention")


def german_rivals(
    segments: Sequence[Segment],
    candidates: list[Candidate],
    pronoun: tuple[int, int],
    antecedent: Candidate,
    german_head: int,
    gender: str,
    german: RuleGerman,
) -> int:
    """German nouns of the pronoun's gender between head and pronoun that no English candidate explains."""

    def noun_at(sentence: int, index: int) -> NounEntry | None:
        return german.noun_entry(segments[sentence].tgt, segments[sentence].german, index)

    head = (antecedent.sentence, german_head)
    accounted = set()
    for candidate in candidates:
        match = german_noun(segments[candidate.sentence], candidate.head, german)
        if match is not None:
            accounted.add((candidate.sentence, match[0]))

    tokens = segments[pronoun[0]].german
    object_pronoun = german_case(tokens, pronoun[1]) in {"acc", "dat"}
    own_clause_from = clause_start(tokens, pronoun[1]) if object_pronoun else pronoun[1]
    return german_competitors(
        [s.german for s in segments], noun_at, head, pronoun, gender, accounted, not_a_thing_in(segments),
        own_clause_from,
    )


def not_a_thing_in(segments: Sequence[Segment]) -> Callable[[int, int], bool]:
    """(segment, German token) -> the noun is no rival referent: it translates no English singular common noun
    (a name, a person, a time, a plural, a preposition as in "in der Nähe"); an unaligned one may be a rival,
    and so may a German noun made of an English adjective or verb ("accurate" → "Genauigkeit"): the German
    text can resume it."""

    def not_a_thing(sentence: int, index: int) -> bool:
        english = aligned_english(segments[sentence], index)
        return bool(english) and not any(
            (t.tag_ in {"NN", "NNP"} and t.lemma_.lower() not in person_nouns() and t.lower_ not in TIME_NOUNS)
            or t.pos_ in {"ADJ", "VERB"}
            for t in english
        )

    return not_a_thing


def closer_candidate_other_gender(
    segments: Sequence[Segment],
    candidates: list[Candidate],
    antecedent: Candidate,
    gender: str,
    german: RuleGerman,
    it: Token,
) -> bool:
    """An English candidate ranked before the chosen one and nearer to the pronoun, in the role of the "it"
    (subject for subject, object for object), whose German translation is a singular noun of another gender:
    the English side prefers another referent and only the German gender moved the choice on, which the
    development reading found wrong as often as right (issue 11, second round). The caller halves the
    confidence."""
    for candidate in candidates:
        if candidate == antecedent:
            return False
        if (candidate.sentence, candidate.head) < (antecedent.sentence, antecedent.head):
            continue  # farther from the pronoun (a main-clause subject ranked first): no closer rival
        doc = segments[candidate.sentence].doc
        match = german_noun(segments[candidate.sentence], candidate.head, german)
        if doc is None or match is None or role_class(doc[candidate.head]) != role_class(it) or not role_class(it):
            continue
        entry = match[1]
        if not entry.singular_in(gender) and any(entry.singular_in(g) for g in entry.genders):
            return True
    return False


PLURAL_PRONOUNS = word_set("they them their themselves")


def plural_competitor(segments: Sequence[Segment], sentence: int, it: Token, antecedent: Candidate) -> bool:
    """German "sie" is also plural: a plural noun or they/them between the antecedent and "it" makes the
    plural reading likely (docs-ende hand check: "sie" aligned to "it" but meaning "die Bilder", "them")."""
    for index in range(antecedent.sentence, sentence + 1):
        doc = segments[index].doc
        if doc is None:
            continue
        for token in doc:
            after_antecedent = index > antecedent.sentence or token.i > antecedent.head
            before_it = index < sentence or token.i < it.i
            plural = token.tag_ in {"NNS", "NNPS"} or token.lower_ in PLURAL_PRONOUNS
            if after_antecedent and before_it and plural:
                return True
    return False


def chain_tokens(
    segment: Segment,
    it: Token,
    german_index: int,
    antecedent: Candidate,
    sentence: int,
    german: RuleGerman,
    antecedent_lemma: str,
) -> list[ChainToken]:
    """The other German tokens of the probed pronoun's chain (policy in german_chain), or Drop."""
    assert segment.doc is not None
    context = ChainContext(
        segment.doc,
        segment.german,
        segment.links,
        it.i,
        german_index,
        antecedent.head if antecedent.sentence == sentence else -1,
        antecedent_lemma,
        lambda token: bool(pleonastic_reason(token)),
        lambda j: german.noun_entry(segment.tgt, segment.german, j),
    )
    chain, reason = chain_of(context)
    if reason:
        raise Drop(reason)
    return chain


def extract(
    segments: Sequence[Segment],
    coref: DocumentCoref,
    sentence: int,
    it: Token,
    max_distance: int,
    german: RuleGerman,
    es_unique: bool = True,
) -> Found:
    """Apply the filters in the paper's order; raise Drop with the first failing reason."""
    rule = pleonastic_reason(it)
    if rule:
        raise Drop(f"non_referential_it_{rule}")
    segment = segments[sentence]
    german_index = german_pronoun(segment, it, german)
    german_reason = german_structure_reason(segment.german, german_index)
    if german_reason:
        raise Drop(german_reason)
    if expletive_es(segment.german, german_index):
        raise Drop("german_es_expletive")  # "Aber es gibt es" with the first es marked (blind round 6, class 3)
    if pronoun_translates_other_word(aligned_english(segment, german_index), it.i):
        raise Drop("german_pronoun_translates_other_word")
    gender = GENDER_OF_PRONOUN[segment.german[german_index].text.lower()]
    if person_pronoun_in_sentence(it, gender):
        raise Drop("german_pronoun_may_be_person")
    if attitude_verb_object(it):
        raise Drop("attitude_verb_object")
    posterior = coref.posterior(sentence, it.i, max_distance)
    if posterior is not None:
        return learned_item(segments, sentence, it, german_index, gender, posterior, german)
    candidates = coref.candidates(sentence, it.i, max_distance)
    if not candidates:
        raise Drop("no_antecedent_candidate")
    antecedent, german_head, entry, confidence = choose_antecedent(segments, candidates, gender, german, es_unique)
    # weak antecedents are halved, so the default min_confidence (0.55) drops them and a lower one keeps them
    for _ in weak_antecedent_reasons(segments, candidates, sentence, it, antecedent, german_head, gender, german):
        confidence /= 2
    # the German side: hard checks, then 1 + the unexplained German rivals divide the confidence
    pronoun = (sentence, german_index)
    german_side_checks(segments, pronoun, antecedent, german_head, gender, german)
    rivals = german_rivals(segments, candidates, pronoun, antecedent, german_head, gender, german)
    confidence = round(confidence / (1 + rivals), 4)
    return german_item(segments, sentence, it, german_index, gender, antecedent, german_head, entry, confidence,
                       german)


def subject_it_before(head: Token, it: Token) -> bool:
    """ "It has very good time resolution, and it can look at the world …": the probed *it* is a subject, and
    a referential subject *it* stands before the antecedent (no subject) in the antecedent's segment. The
    pronoun subject is the more salient referent, and the probed *it* most likely continues it rather than
    the nearer noun (issue 23, class 3: the nearest noun was recorded as antecedent). The caller halves the
    confidence."""
    if role_class(it) != "subject" or role_class(head) == "subject":
        return False
    return any(
        token.lower_ == "it" and token.i < head.i and token != it and role_class(token) == "subject"
        and not pleonastic_reason(token)
        for token in head.doc
    )


def weak_english_head(head: Token) -> bool:
    """An English antecedent head embedded in a larger noun phrase, oblique (a verb's prepositional object),
    relational (*the version of the game*) or only presented as a predicate (*It's a castle*)."""
    return (antecedent_embedded(head) or antecedent_oblique(head) or antecedent_relational(head)
            or antecedent_presented(head))


def weak_antecedent_reasons(
    segments: Sequence[Segment],
    candidates: list[Candidate],
    sentence: int,
    it: Token,
    antecedent: Candidate,
    german_head: int,
    gender: str,
    german: RuleGerman,
) -> list[str]:
    """Why the chosen antecedent is a weak one (issue 11, second round): a nearer English candidate of another
    German gender in the pronoun's role; an embedded, oblique or relational English head; a German genitive head
    where the English head heads its phrase; "es" across segments without a parallel role. The rule path halves
    the confidence once per reason; the learned path drops the item (its posterior does not see these)."""
    ante_doc = segments[antecedent.sentence].doc
    assert ante_doc is not None  # candidates come from parsed segments only
    ante_head = ante_doc[antecedent.head]
    ante_german = segments[antecedent.sentence].german
    english_phrase_head = ante_head.dep_ not in {"poss", "pobj"}
    checks = (
        ("closer_rival_other_gender", lambda: closer_candidate_other_gender(
            segments, candidates, antecedent, gender, german, it)),
        ("embedded_oblique_or_relational", lambda: weak_english_head(ante_head)),
        ("german_genitive_head", lambda: english_phrase_head and german_head_genitive(
            ante_german, german_head, phrase_start(ante_german, german_head))),
        ("es_role_not_parallel", lambda: gender == "Neut" and es_without_parallel_role(
            ante_head, it, sentence - antecedent.sentence)),
        ("subject_it_before_antecedent", lambda: subject_it_before(ante_head, it)),
    )
    return [name for name, fires in checks if fires()]


def learned_item(
    segments: Sequence[Segment],
    sentence: int,
    it: Token,
    german_index: int,
    gender: str,
    posterior: Posterior,
    german: RuleGerman,
) -> Found:
    """The learned path: the posterior under the German gender constraint is the confidence. The rule path's
    weak-antecedent and German-rival penalties are hard filters here (the posterior does not see them; our gold
    file keeps precision 1.0 only with them); the German-side checks and the variants follow as on the rule
    path."""
    from builders.pronouns.coref_learned import load_weights

    if not posterior.candidates:
        raise Drop("no_antecedent_candidate")
    antecedent, german_head, entry, confidence = learned_antecedent(
        segments, posterior, gender, "Sing", lambda seg, head: german_noun(seg, head, german),
        load_weights(it.lower_).calibration)
    weak = weak_antecedent_reasons(segments, posterior.candidates, sentence, it, antecedent, german_head, gender,
                                   german)
    if weak:
        raise Drop(f"weak_antecedent_{weak[0]}")
    pronoun = (sentence, german_index)
    german_side_checks(segments, pronoun, antecedent, german_head, gender, german)
    if german_rivals(segments, posterior.candidates, pronoun, antecedent, german_head, gender, german):
        raise Drop("german_rival_noun")
    return german_item(segments, sentence, it, german_index, gender, antecedent, german_head, entry, confidence,
                       german)


def german_item(
    segments: Sequence[Segment],
    sentence: int,
    it: Token,
    german_index: int,
    gender: str,
    antecedent: Candidate,
    german_head: int,
    entry: NounEntry,
    confidence: float,
    german: RuleGerman,
) -> Found:
    """The German hard filters after the antecedent is chosen (plural "sie", case), then the variants."""
    segment = segments[sentence]
    ante_doc = segments[antecedent.sentence].doc
    assert ante_doc is not None  # candidates come from parsed segments only
    ante_head = ante_doc[antecedent.head]
    case = german_case(segment.german, german_index)  # from the German clause, never the English role
    # the verb fixes the number of "sie" only when "sie" is the German subject: an English subject may have
    # become a German object ("The brochures say it is untouched" → "Die Broschüren beschreiben sie …")
    subject = it.dep_ in {"nsubj", "nsubjpass"} and case != "acc"
    singular_by_agreement = subject and german.pronoun_number(segment.tgt, segment.german, german_index) == "Sing"
    if gender == "Fem" and not singular_by_agreement and (
        plural_competitor(segments, sentence, it, antecedent)
        or plural_noun_between(
            [s.german for s in segments],
            lambda k, j: german.noun_entry(segments[k].tgt, segments[k].german, j),
            (antecedent.sentence, german_head),
            (sentence, german_index),
        )
    ):
        raise Drop("sie_may_be_plural")
    if not case:
        raise Drop("variant_case_undecided")
    if gender == "Neut" and antecedent.sentence != sentence and es_event_or_proposition(
        segment.german, german_index, case
    ):
        # blind round 4, class (a): an "es" that may be what happened or what was said ("Es ist passiert",
        # "Ich kann es nicht glauben") across a segment boundary tests no agreement with the recorded noun
        raise Drop("es_situational_reading")
    lemma = ante_head.lemma_.lower()
    chain = chain_tokens(segment, it, german_index, antecedent, sentence, german, lemma)
    variants = make_variants(segment.tgt, segment.german, german_index, case, chain)
    if len(variants) < 2:
        raise Drop("no_contrastive_variant")
    # a variant that may be correct German for the reference is no contrast (german_variants_filter)
    swapped = [(german_index, case), *((c.index, c.case) for c in chain if c.kind == "pronoun")]
    reach = german_reach(segments, sentence, it, antecedent, german_head, gender, german, swapped)
    variants, pruned = prune_variants(variants, segment.german, swapped, gender, reach)
    if not variants:
        raise Drop("no_contrastive_variant_left")
    extra: dict[str, Any] = {"pruned variants": pruned} if pruned else {}
    return Found(sentence, it.i, german_index, antecedent, german_head, entry, variants, confidence, extra)


def german_reach(
    segments: Sequence[Segment],
    sentence: int,
    it: Token,
    antecedent: Candidate,
    german_head: int,
    gender: str,
    german: RuleGerman,
    swapped: Sequence[tuple[int, str]],
) -> Reach:
    """The document around the pronoun for the variant filter; Drop when the German text resumes the referent
    with a pronoun of another gender (german_referent, class 1)."""

    def noun_at(k: int, j: int) -> NounEntry | None:
        return german.noun_entry(segments[k].tgt, segments[k].german, j)

    docs = [s.doc for s in segments]
    germans = [s.german for s in segments]
    found = resumptions(
        docs, germans, lambda k, i: aligned(segments[k], i), lambda t: not pleonastic_reason(t),
        (antecedent.sentence, antecedent.head), (sentence, it.i),
    )
    if gender_inconsistent(found, gender):
        raise Drop("german_referent_gender_inconsistent")
    mentions = [(antecedent.sentence, german_head), *((sentence, j) for j, _ in swapped)]
    mentions += [(k, j) for k, j, _ in found]
    return Reach(
        germans,
        noun_at,
        (antecedent.sentence, german_head),
        sentence,
        not_a_thing_in(segments),
        predicate_genders(germans, noun_at, mentions, gender),
        person_genders(docs, sentence),
    )


def contrapro_fields(
    segments: Sequence[Segment], found: Found, doc_id: str, corpus: str, pack: LanguagePack
) -> dict[str, Any]:
    """The ContraPro record fields, named exactly as in the released contrapro.json."""
    segment = segments[found.sentence]
    assert segment.doc is not None
    ante_segment = segments[found.antecedent.sentence]
    assert ante_segment.doc is not None
    head = ante_segment.doc[found.antecedent.head]
    form = pack.forms[segment.german[found.german_index].text.lower()]
    gender = form.gender
    ref_start = pack.phrase_start(ante_segment.german, found.german_head)
    german = ante_segment.german
    return {
        "document id": doc_id,
        "segment id": found.sentence + 1,
        "corpus": corpus,
        "src segment": segment.src,
        "ref segment": segment.tgt,
        "src pronoun": segment.doc[found.token].text,
        "ref pronoun": segment.german[found.german_index].text,
        "ante distance": found.sentence - found.antecedent.sentence,
        "intrasegmental": found.sentence == found.antecedent.sentence,
        "src ante head": head.text,
        "src ante head lemma": head.lemma_,
        "src ante head pos": head.tag_,
        "src ante head morpho": morph_string(head),
        "src ante head id": head.i + 1,
        "src ante phrase": ante_segment.doc[found.antecedent.start : found.antecedent.end].text,
        "ref ante head": german[found.german_head].text,
        "ref ante head lemma": found.entry.lemma,
        "ref ante head pos": pack.noun_pos(form.number),
        "ref ante head morpho": f"Gender={gender}|Number={form.number}",
        "ref ante head id": found.german_head + 1,
        "ref ante phrase": ante_segment.tgt[german[ref_start].start : german[found.german_head].end],
        "ref ante head gender": gender,
        "errors": [
            {
                "contrastive": v.text,
                "replacement": v.replacement,
                "replacement gender": v.gender,
                "type": "pronominal coreference",
            }
            for v in found.variants
        ],
    }
