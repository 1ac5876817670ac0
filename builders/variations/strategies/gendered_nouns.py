"""Gendered person nouns for SUBGEN (optional): man/woman on the English side, Mann/Frau with the article.

German articles change with the noun: masculine -> feminine is determined by the article (der/den -> die,
dem -> der, ein/einen -> eine, einem -> einer, zum -> zur, im -> in der). Feminine -> masculine needs the case,
which the article alone does not give (die = nominative or accusative, der = dative or genitive): it comes from
a preposition before the article (für die -> für den, mit der -> mit dem) or from the English noun's dependency
(subject -> der, object -> den); otherwise the pair is skipped. A noun with an adjective or a possessive before
it is skipped too (the adjective ending or the possessive would change as well), and so is a noun followed by a
relative clause (der Mann, dem ... -> die Frau, der ...: the relative pronoun's case is not known).
"""

from __future__ import annotations

from builders.variations.lexicons import GenderedNoun
from builders.variations.strategies.base import Drop, EnglishToken, SentencePair
from builders.variations.text import Edit, Token, match_case

DET_MASC_TO_FEM = {
    "der": "die", "den": "die", "dem": "der", "ein": "eine", "einen": "eine", "einem": "einer",
    "dieser": "diese", "diesen": "diese", "diesem": "dieser", "jeder": "jede", "jeden": "jede", "jedem": "jeder",
    "kein": "keine", "keinen": "keine", "keinem": "keiner", "mein": "meine", "meinen": "meine", "meinem": "meiner",
    "dein": "deine", "deinen": "deine", "deinem": "deiner", "unser": "unsere", "unseren": "unsere",
    "unserem": "unserer", "zum": "zur", "im": "in der", "am": "an der", "vom": "von der", "beim": "bei der",
}
# feminine article -> (nominative, accusative) masculine form
DET_FEM_NOM_ACC = {"die": ("der", "den"), "eine": ("ein", "einen"), "diese": ("dieser", "diesen"),
                   "keine": ("kein", "keinen"), "meine": ("mein", "meinen"), "deine": ("dein", "deinen"),
                   "jede": ("jeder", "jeden")}
# feminine article -> dative masculine form (the genitive would also change the noun: des Mannes)
DET_FEM_DATIVE = {"der": "dem", "einer": "einem", "dieser": "diesem", "keiner": "keinem", "meiner": "meinem",
                  "jeder": "jedem", "zur": "zum"}
ACCUSATIVE_PREPOSITIONS = {"für", "gegen", "ohne", "um", "durch"}
DATIVE_PREPOSITIONS = {"mit", "von", "zu", "bei", "nach", "aus", "seit", "gegenüber", "außer"}
SUBJECT_DEPS = {"nsubj", "nsubjpass"}
OBJECT_DEPS = {"dobj"}


def english_nouns(pair: SentencePair, nouns: tuple[GenderedNoun, ...]) -> list[tuple[int, GenderedNoun, bool]]:
    """(token index, lexicon entry, is masculine) for each gendered noun on the English side."""
    found = []
    for index, token in enumerate(pair.en_tokens):
        if token.pos != "NOUN":
            continue
        for noun in nouns:
            if token.lower in (noun.en_masculine, noun.en_feminine):
                found.append((index, noun, token.lower == noun.en_masculine))
    return found


def english_noun_edits(pair: SentencePair, hits: list[tuple[int, GenderedNoun, bool]]) -> list[Edit]:
    edits = []
    for index, noun, masculine in hits:
        token = pair.en_tokens[index]
        new = noun.en_feminine if masculine else noun.en_masculine
        edits.append(Edit(token.start, token.end, token.text, match_case(token.text, new)))
    return edits


def _feminine_article(tokens: list[Token], article: int, english: EnglishToken) -> str | None:
    word = tokens[article].lower
    before = tokens[article - 1].lower if article > 0 else ""
    if word in DET_FEM_DATIVE and (before in DATIVE_PREPOSITIONS or word == "zur"):
        return DET_FEM_DATIVE[word]
    if word in DET_FEM_NOM_ACC:
        nominative, accusative = DET_FEM_NOM_ACC[word]
        if before in ACCUSATIVE_PREPOSITIONS or english.dep in OBJECT_DEPS:
            return accusative
        if english.dep in SUBJECT_DEPS and before not in DATIVE_PREPOSITIONS and not _subject_before(tokens, article):
            return nominative
    return None


# Words that end a German clause for the subject search: punctuation and the subordinators and conjunctions
# that open a new clause ('Sie sagt, die Frau ...', 'weil die Frau ...').
CLAUSE_OPENERS = frozenset({",", ";", ":", ".", "!", "?", "–", "—", "dass", "weil", "ob", "wenn", "als",
                            "obwohl", "damit", "während", "bevor", "nachdem", "und", "aber", "oder", "denn"})
# Personal pronouns that can be a clause's subject (nominative forms; 'es' is left out: an expletive 'es'
# precedes a postponed subject, 'Es kam die Frau').
NOMINATIVE_PRONOUNS = frozenset({"ich", "du", "er", "sie", "wir", "ihr", "man"})


def _subject_before(tokens: list[Token], article: int) -> bool:
    """A personal pronoun that may be the subject stands before the noun phrase in its German clause ('dass sie
    die Frau sehen möchte', 'Wir begrüßten die Frau'): the English subject was translated as an object, and the
    nominative the English dependency asks for would be wrong (blind round 11), so the case is unknown."""
    for index in range(article - 1, -1, -1):
        word = tokens[index].lower
        if word in CLAUSE_OPENERS:
            return False
        if word in NOMINATIVE_PRONOUNS:
            return True
    return False


EN_MODIFIER_DEPS = {"compound", "nmod"}
DE_DETERMINERS = frozenset(DET_MASC_TO_FEM) | frozenset(DET_FEM_NOM_ACC) | frozenset(DET_FEM_DATIVE)


def noun_used_as_modifier(pair: SentencePair, hits: list[tuple[int, GenderedNoun, bool]]) -> bool:
    """'mother cow' / 'Mutter Kuh': the gendered noun qualifies another noun and names no person of its own
    ('father cow' is no swap). English: the noun is a compound or nominal modifier of the next common noun;
    German: the noun has no determiner and a common noun of the noun lexicon follows it (apposition). A title
    before a name ('Actor Tom Berg', 'Schauspieler Tom Berg') names the person and is swapped."""
    from builders.pronouns.german import noun_lexicon

    tokens = pair.de_tokens
    for en_index, noun, masculine in hits:
        token = pair.en_tokens[en_index]
        following = pair.en_tokens[en_index + 1] if en_index + 1 < len(pair.en_tokens) else None
        if following is not None and following.pos == "PROPN":
            continue  # a title before a name
        if token.dep in EN_MODIFIER_DEPS and following is not None and following.pos == "NOUN":
            return True
        source = noun.de_masculine if masculine else noun.de_feminine
        for index in (i for i, t in enumerate(tokens) if t.text == source):
            bare = index == 0 or tokens[index - 1].lower not in DE_DETERMINERS
            following_de = tokens[index + 1] if index + 1 < len(tokens) else None
            if bare and following_de is not None and following_de.text[:1].isupper() and (
                    following_de.lower in noun_lexicon()):
                return True
    return False


PREPOSITIONS = {"mit", "von", "zu", "bei", "für", "an", "in", "auf", "über", "unter", "gegen", "nach", "aus"}
RELATIVE_PRONOUNS = {"der", "die", "den", "dem", "dessen", "deren", "welcher", "welche", "welchen", "welchem"}


def relative_clause_follows(tokens: list[Token], index: int) -> bool:
    """'die Frau, dem der Laden gehörte', 'der Vater von zwei Kindern, die ...': a relative pronoun after the noun
    in its sentence may agree with it and would have to change too (its case comes from the relative clause, which
    we do not parse), so the pair is skipped."""
    for position in range(index + 1, len(tokens) - 1):
        if tokens[position].text in {".", "!", "?", ";"}:
            return False
        if tokens[position].text == "," and tokens[position + 1].lower in RELATIVE_PRONOUNS:
            return True
        if (tokens[position].text == "," and position + 2 < len(tokens) and tokens[position + 1].lower in PREPOSITIONS
                and tokens[position + 2].lower in RELATIVE_PRONOUNS):
            return True
    return False


def german_noun_edits(pair: SentencePair, hits: list[tuple[int, GenderedNoun, bool]]) -> list[Edit] | Drop:
    """Noun and article edits on the German side, or why the pair is skipped."""
    tokens = pair.de_tokens
    edits: list[Edit] = []
    for en_index, noun, masculine in hits:
        source, target = (noun.de_masculine, noun.de_feminine) if masculine else (noun.de_feminine, noun.de_masculine)
        matches = [i for i, t in enumerate(tokens) if t.text == source]
        english_count = sum(1 for _, other, m in hits if other == noun and m == masculine)
        if len(matches) != english_count or english_count != 1:
            return Drop("subgen_noun_count_mismatch")
        index = matches[0]
        if relative_clause_follows(tokens, index):
            return Drop("subgen_noun_relative_clause")
        noun_token = tokens[index]
        edits.append(Edit(noun_token.start, noun_token.end, noun_token.text, target))
        if index == 0:
            continue
        article = tokens[index - 1]
        if masculine and article.lower in DET_MASC_TO_FEM:
            edits.append(Edit(article.start, article.end, article.text,
                              match_case(article.text, DET_MASC_TO_FEM[article.lower])))
        elif not masculine and (article.lower in DET_FEM_NOM_ACC or article.lower in DET_FEM_DATIVE):
            new = _feminine_article(tokens, index - 1, pair.en_tokens[en_index])
            if new is None:
                return Drop("subgen_noun_case_unknown")
            edits.append(Edit(article.start, article.end, article.text, match_case(article.text, new)))
        elif article.text.isalpha():
            # an adjective or a possessive (alte, Ihrer, seine) whose ending would have to change as well
            return Drop("subgen_noun_modifier_inflects")
    return sorted(edits, key=lambda e: e.start)
