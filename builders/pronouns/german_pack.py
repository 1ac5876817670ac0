"""The EN->DE pack: a thin wrapper over the German modules (german.py, quality.py, variants.py, extract.py);
EN *it* -> *er/sie/es* exactly as before the language packs (same outputs byte for byte)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from builders.pronouns.german import GENDER_OF_PRONOUN, GToken, phrase_start, tokenize
from builders.pronouns.packs import PronounForm

if TYPE_CHECKING:
    from spacy.tokens import Token

    from builders.core.context import BuildContext
    from builders.pronouns.config import PronounsConfig
    from builders.pronouns.coref import DocumentCoref
    from builders.pronouns.extract import Found, Segment


class GermanPack:
    code = "de"
    languages = ("en", "de")
    source_pronouns = frozenset({"it"})
    forms: ClassVar[Mapping[str, PronounForm]] = MappingProxyType(
        {word: PronounForm(gender, "Sing") for word, gender in GENDER_OF_PRONOUN.items()}
    )
    seed_lexicon = "seed_lexicon.tsv"
    word_lists = ("noun_genders_extra.tsv",)
    # learned is more precise on er/sie but keeps no es item (blind rounds 2-3 on opensubs-ende)
    default_coref = "heuristic"
    min_confidence = 0.55  # GENERIC_MIN_CONFIDENCE: the gender leaves one candidate
    class_min_confidence: ClassVar[Mapping[str, float]] = MappingProxyType({})

    def tokenize(self, text: str) -> list[GToken]:
        return tokenize(text)

    def analyser(self, config: PronounsConfig) -> Any:
        from builders.pronouns.german import make_german

        return make_german(config.german_analyser)

    def record_analyser(self, config: PronounsConfig, ctx: BuildContext) -> dict[str, str]:
        from builders.core.compat import package_version

        german = self.analyser(config)  # fails here, before any work, when not installed
        version = getattr(german, "version", "")
        german_tool = f"{german.name}-{version}" if version else german.name
        ctx.add_tool("german_analyser", f"{german_tool}+german-nouns-{package_version('german-nouns')}")
        return {"german_analyser": german.name}

    def prepare(self, analyser: Any, texts: Sequence[str]) -> None:
        """The German analysers work per token on demand."""

    def extract(
        self,
        segments: Sequence[Segment],
        coref: DocumentCoref,
        sentence: int,
        token: Token,
        config: PronounsConfig,
        analyser: Any,
    ) -> Found:
        from builders.pronouns.extract import extract

        return extract(
            segments, coref, sentence, token, config.max_ante_distance, analyser, config.es_unique_antecedent
        )

    def phrase_start(self, tokens: list[GToken], head: int) -> int:
        return phrase_start(tokens, head)

    def noun_pos(self, number: str) -> str:
        return "NN"
