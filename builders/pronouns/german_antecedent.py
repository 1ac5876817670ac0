"""German-side checks of the antecedent (issue 11, classes 3, 4 and 5).

- ``german_competitors``: singular German nouns of the pronoun's gender **between** the recorded German head
  and the pronoun that no English candidate accounts for (a name, a person noun, a noun the English says with
  a verb or a plural). German readers resolve the pronoun to the nearest agreeing noun first, so each one is
  a rival of the recorded antecedent; they lower the item's confidence like an agreeing English candidate.
- ``other_gender_mention`` (class 3): the referent is named in reach by a German noun of another gender: the
  same English lemma translated with a noun of another gender (*measure* → *die Maßnahme*, later *der
  Schritt*), or a copula/apposition partner (*the supplement is a sum* → *der Nachtragshaushalt* / *die
  Summe*). A variant pronoun agreeing with that other noun would be correct too: the item is dropped.
- ``pronoun_translates_other_word`` (class 5): the German pronoun is also aligned to an English pronoun of
  another referent or to a noun: it is not (only) the translation of the probed *it*.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from builders.pronouns.german import GToken, NounEntry, word_set

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

OTHER_PRONOUNS = word_set("he him his she her they them their this that these those which who whom what")
GERMAN_TIME_NOUNS = word_set(
    "montag dienstag mittwoch donnerstag freitag samstag sonntag januar februar märz april mai juni juli "
    "august september oktober november dezember morgen abend mittag nachmittag vormittag tag woche monat jahr "
    "wochenende moment augenblick"
)
SENTENCE_OPENERS = frozenset({".", "!", "?", ":", '"', "„", "“", "–", "-", "("})
NounAt = Callable[[int, int], NounEntry | None]  # (segment, German token index) -> noun entry or None


def _sentence_initial(tokens: Sequence[GToken], index: int) -> bool:
    """A capitalised first word ("Aber", "Die") may be a function word that the lexicon also has as a noun."""
    return index == 0 or tokens[index - 1].text in SENTENCE_OPENERS


def german_competitors(
    german: Sequence[Sequence[GToken]],
    noun_at: NounAt,
    head: tuple[int, int],
    pronoun: tuple[int, int],
    gender: str,
    accounted: set[tuple[int, int]],
    not_a_thing: Callable[[int, int], bool],
    own_clause_from: int,
) -> int:
    """Distinct singular nouns of ``gender`` (by lemma) after ``head`` and before ``pronoun`` ((segment, token)
    pairs), other than the head's own lemma, the German heads of English candidates (``accounted``) and nouns
    that translate a person, a time or a name (``not_a_thing``: the English "it" cannot mean those), and nouns of
    the pronoun's own clause from ``own_clause_from`` on (an object pronoun cannot mean its clause's subject:
    "Die Stadt will sie reparieren")."""
    head_entry = noun_at(*head)
    lemmas: set[str] = {head_entry.lemma.lower()} if head_entry is not None else set()
    rivals: set[str] = set()
    for segment in range(head[0], pronoun[0] + 1):
        tokens = german[segment]
        first = head[1] + 1 if segment == head[0] else 0
        last = min(pronoun[1], own_clause_from) if segment == pronoun[0] else len(tokens)
        for index in range(first, last):
            if (segment, index) in accounted or _sentence_initial(tokens, index) or not_a_thing(segment, index):
                continue
            entry = noun_at(segment, index)
            if entry is None or entry.lemma.lower() in GERMAN_TIME_NOUNS:
                continue  # "am Montag", "im Mai": time adverbials are no referents of er/sie/es
            if entry.singular_in(gender) and entry.lemma.lower() not in lemmas:
                rivals.add(entry.lemma.lower())
    return len(rivals)


def _partners(head: Token) -> list[Token]:
    """Nouns that denote the same thing as ``head`` by the English structure: the predicate noun of its
    copula ("the supplement is a sum"), the subject when it is the predicate, and appositions."""
    partners = [c for c in head.children if c.dep_ == "appos" and c.pos_ in {"NOUN", "PROPN"}]
    if head.dep_ == "appos":
        partners.append(head.head)
    verb = head.head
    if verb.lemma_.lower() in {"be", "become", "remain"}:
        if head.dep_ in {"nsubj", "nsubjpass"}:
            partners += [c for c in verb.children if c.dep_ == "attr" and c.pos_ == "NOUN"]
        elif head.dep_ == "attr":
            partners += [c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"]
    return partners


def other_gender_mention(
    english: Sequence[Doc | None],
    german_of: Callable[[int, int], list[int]],
    noun_at: NounAt,
    head: tuple[int, int],
    pronoun: tuple[int, int],
    gender: str,
) -> bool:
    """The referent is also named, between the head's segment and the pronoun, by a German noun that has no
    singular reading of ``gender`` (see the module docstring)."""
    doc = english[head[0]]
    if doc is None:
        return False
    lemma = doc[head[1]].lemma_.lower()
    mentions = [(head[0], p.i) for p in _partners(doc[head[1]])]
    for segment in range(head[0], pronoun[0] + 1):
        other = english[segment]
        if other is None:
            continue
        end = pronoun[1] if segment == pronoun[0] else len(other)
        mentions += [(segment, t.i) for t in other[:end] if t.lemma_.lower() == lemma and t.pos_ == "NOUN"]
    for segment, token in mentions:
        for j in german_of(segment, token):
            entry = noun_at(segment, j)
            if entry is not None and not entry.plural_only and not entry.singular_in(gender):
                return True
    return False


def pronoun_translates_other_word(aligned_english: Sequence[Token], it_index: int) -> bool:
    """The German pronoun is also aligned to an English pronoun of another referent or to a noun (the
    translator restructured: "he" → "er" with the probed "it" moved elsewhere)."""
    others = [t for t in aligned_english if t.i != it_index]
    return any(t.lower_ in OTHER_PRONOUNS or t.pos_ in {"NOUN", "PROPN"} for t in others)


SUBJECT_LIKE = frozenset({"nsubj", "nsubjpass"})


def _role_node(token: Token) -> Token:
    node = token
    while node.dep_ == "conj" and node.head.i != node.i:
        node = node.head  # "the soup and the bread": the first conjunct's role
    return node


def antecedent_embedded(head: Token) -> bool:
    """The antecedent head sits in a prepositional phrase inside a larger noun phrase ("the price of the
    ticket", "the corner of Spain"): the larger phrase, not the embedded noun, is what a later pronoun usually
    picks up, and issue 11's hand check found such heads recorded wrongly. The caller halves the confidence."""
    node = _role_node(head)
    return node.dep_ == "pobj" and node.head.dep_ == "prep" and node.head.head.pos_ in {"NOUN", "PROPN"}


# nouns that name a thing through another one ("the hacked version of Jedi Knight", "a copy of the report"):
# a later pronoun may take up either noun, and German may name the referent by the inner one (blind check 2)
# ("kind", "sort", "type", "part" are light nouns: never candidates, see coref.LIGHT_NOUNS)
RELATIONAL_NOUNS = frozenset({"version", "copy", "edition", "form", "variant", "model", "piece", "remake", "sequel",
                              "adaptation", "translation"})


def antecedent_relational(head: Token) -> bool:
    """The antecedent head is a relational noun with an "of" complement naming another thing. The caller
    halves the confidence."""
    return head.lemma_.lower() in RELATIONAL_NOUNS and any(
        c.dep_ == "prep" and c.lower_ == "of" and any(g.dep_ == "pobj" and g.pos_ in {"NOUN", "PROPN"}
                                                      for g in c.children)
        for c in head.children
    )


PRESENTING_SUBJECTS = frozenset({"it", "this", "that", "these", "those"})


def antecedent_presented(head: Token) -> bool:
    """The antecedent head is the predicate noun of a pronoun or demonstrative subject ("It's a castle", "That's
    not a white shirt", "This is a handle"): the referent is named only as a predicate, so a later German pronoun
    may just continue the presentational *das/es* whatever the noun's gender (blind checks on subtitles: readers
    judged such items unusable); also the predicate of a comparison or of a verbless exclamation (blind round 4)."""
    by_pronoun = head.dep_ in {"attr", "oprd"} and any(
        c.dep_ in SUBJECT_LIKE and c.lower_ in PRESENTING_SUBJECTS for c in head.head.children
    )
    return by_pronoun or _comparison_predicate(head) or _exclamative_fragment(head)


LIKENESS_VERBS = frozenset({"sound", "look", "seem", "feel", "smell", "taste"})


def _comparison_predicate(head: Token) -> bool:
    """ "Sounds like a plan", "That looks like a good idea": the noun is said of the situation or of a
    demonstrative (blind round 4, class (a): an *es* resolved to such a predicate)."""
    node = _role_node(head)
    verb = node.head.head
    if node.dep_ != "pobj" or node.head.lower_ != "like" or verb.lemma_.lower() not in LIKENESS_VERBS:
        return False
    subjects = [c for c in verb.children if c.dep_ in SUBJECT_LIKE]
    return all(c.lower_ in PRESENTING_SUBJECTS for c in subjects)


def _exclamative_fragment(head: Token) -> bool:
    """ "Good idea.", "What a mess!", "Such a nice offer.": a short verbless sentence whose root is the noun,
    with "what/such", or with an adjective and no article: it judges the situation, it does not introduce a
    referent (a headline with an article, "The hidden killer", does)."""
    node = _role_node(head)
    sentence = node.sent
    words = [t for t in sentence if not t.is_punct]
    if node.dep_ != "ROOT" or len(words) > 5 or any(t.pos_ in {"VERB", "AUX"} for t in sentence):
        return False
    if any(c.lower_ in {"what", "such"} for c in node.children):
        return True  # "What a mess!", "Such a nice offer."
    adjective = any(c.dep_ == "amod" or (c.dep_ == "compound" and c.pos_ == "ADJ") for c in node.children)
    return adjective and not any(c.dep_ == "det" for c in node.children)  # "Nice jacket." parses "Nice" as either


def role_class(token: Token) -> str:
    """'subject' (a subject, or the predicate noun of a pronoun subject: "It's a device"), 'object' or ''."""
    node = _role_node(token)
    if node.dep_ in SUBJECT_LIKE:
        return "subject"
    if node.dep_ in {"attr", "oprd"} and any(c.dep_ in SUBJECT_LIKE and c.pos_ == "PRON" for c in node.head.children):
        return "subject"
    return "object" if node.dep_ in {"dobj", "obj"} else ""


def es_without_parallel_role(head: Token, it: Token, distance: int) -> bool:
    """ "es" is also the pronoun of situations and propositions, so across segments its antecedent must have
    the role of the "it" (subject for subject, object for object): role parallelism, the strongest cue that
    the neuter agreement is not a coincidence (development documents: most wrong "es" items lacked it). The
    caller halves the confidence."""
    return distance > 0 and role_class(head) != role_class(it)


def head_alignment_ambiguous(aligned_english: Sequence[Token], phrase: tuple[int, int]) -> bool:
    """The recorded German head is also aligned to an English noun outside the antecedent's phrase
    ("newspaper" and "saying" both linked to "Sprichwort"): the English and German heads may not match."""
    start, end = phrase
    return any(t.pos_ in {"NOUN", "PROPN"} and not start <= t.i < end for t in aligned_english)


def antecedent_oblique(head: Token) -> bool:
    """The antecedent head is the object of a preposition that modifies a verb ("came to the table", "in each
    case", "think of it like my shadow"): an adverbial, not a participant a later "it" usually continues
    (development reading of issue 11's second round). The caller halves the confidence."""
    node = _role_node(head)
    verb = node.head.head
    # a PP after a copula is the predicate ("It is at this contest"), not an adverbial; "thank for", "talk
    # about", "deal with" take prepositional objects, which stay strong
    return (
        node.dep_ == "pobj"
        and node.head.dep_ in {"prep", "dative"}
        and node.head.lower_ in ADVERBIAL_PREPOSITIONS
        and verb.pos_ in {"VERB", "AUX"}
        and verb.lemma_.lower() != "be"
    )


ADVERBIAL_PREPOSITIONS = word_set(
    "in on at to into onto from like as during after before under over near by through across around behind "
    "between within since until beside along"
)


GENITIVE_DETERMINERS = word_set("des der eines einer")


def german_head_genitive(tokens: Sequence[GToken], head: int, phrase_start: int) -> bool:
    """The German head is a genitive dependent of the noun before its phrase ("die Erholung der Wirtschaft",
    "die Entscheidung der Behörde"): when the English head heads its own phrase ("a rebounding economy"), the
    larger German phrase, not the recorded head, names what the English phrase names. The caller halves the
    confidence when the English head is not itself a possessor or in a PP (those are halved already or
    match: "the reactor's name" → "den Namen des Reaktors")."""
    if phrase_start <= 0 or tokens[phrase_start].text.lower() not in GENITIVE_DETERMINERS:
        return False
    before = tokens[phrase_start - 1].text
    return before[:1].isupper() and before.isalpha() and not _sentence_initial(tokens, phrase_start - 1) and head > 0


PERSON_PRONOUNS_OF = {
    "Masc": word_set("he him his himself"),
    "Fem": word_set("she her hers herself"),
}


def person_pronoun_in_sentence(it: Token, gender: str) -> bool:
    """The English sentence of the "it" also has a personal pronoun of a person of the German pronoun's gender
    ("if he is, I did not give it to him" → "hat er ihn nicht von mir"): the German er/sie may translate
    that person, not the "it" (issue 11 class 5, second round)."""
    words = PERSON_PRONOUNS_OF.get(gender, frozenset())
    return any(t.lower_ in words for t in it.sent if t.i != it.i)


# "I hate it", "I love it", "I like it": German says "ich hasse es" / "es gefällt mir" of a thing of any gender,
# so an es (or er/sie) variant is as good as the reference (blind check 2)
ATTITUDE_VERBS = frozenset({"hate", "love", "like", "enjoy", "adore", "dislike", "prefer", "appreciate", "loathe",
                            "detest", "mind"})


def attitude_verb_object(it: Token) -> bool:
    return it.dep_ in {"dobj", "obj"} and it.head.lemma_.lower() in ATTITUDE_VERBS


def plural_noun_between(
    german: Sequence[Sequence[GToken]], noun_at: NounAt, head: tuple[int, int], pronoun: tuple[int, int]
) -> bool:
    """A German plural noun between the recorded head and a "sie" whose number nothing fixes ("Die Broschüren
    beschreiben sie …" after "die Galápagos-Inseln"), or anywhere before the "sie" in its own segment: "sie"
    may be that plural."""
    for segment in range(head[0], pronoun[0] + 1):
        tokens = german[segment]
        # in the pronoun's own segment every plural before it counts ("eine E-Mail mit Daten …, damit er die
        # E-Mail liest und sie eingibt": blind check 2), not only those after the recorded head
        first = head[1] + 1 if segment == head[0] != pronoun[0] else 0
        last = pronoun[1] if segment == pronoun[0] else len(tokens)
        for index in range(first, last):
            entry = noun_at(segment, index)
            if entry is not None and not _sentence_initial(tokens, index) and not any(
                entry.singular_in(gender) for gender in ("Masc", "Fem", "Neut")
            ):
                return True
    return False
