"""Language-code conventions of multilingual seq2seq families (mBART-50, NLLB, M2M100, Marian).

Each family puts language codes in a different place and spelling:

| family  | source ids                      | labels (decoder side)                    | code spelling |
|---------|---------------------------------|------------------------------------------|---------------|
| marian  | text + eos (``>>xxx<<`` prefix text for multi-target models) | text + eos  | -             |
| mbart50 | src code + text + eos           | tgt code (forced BOS, not scored) + text + eos | ``de_DE``     |
| nllb    | src code + text + eos           | tgt code (forced BOS, not scored) + text + eos | ``deu_Latn``  |
| m2m100  | src code + text + eos           | tgt code (forced BOS, not scored) + text + eos | ``__de__``    |

Users may give short ISO 639-1 codes (``en``, ``de``) or the family's own spelling.
"""

from __future__ import annotations

from dataclasses import dataclass

from builders.core.errors import MtprobesError

# ISO 639-1 -> (mBART-50, NLLB-200) spellings for the languages the papers' sets use and common neighbours.
_CODES: dict[str, tuple[str, str]] = {
    "en": ("en_XX", "eng_Latn"),
    "de": ("de_DE", "deu_Latn"),
    "fr": ("fr_XX", "fra_Latn"),
    "cs": ("cs_CZ", "ces_Latn"),
    "es": ("es_XX", "spa_Latn"),
    "it": ("it_IT", "ita_Latn"),
    "nl": ("nl_XX", "nld_Latn"),
    "pt": ("pt_XX", "por_Latn"),
    "ru": ("ru_RU", "rus_Cyrl"),
    "zh": ("zh_CN", "zho_Hans"),
    "ar": ("ar_AR", "arb_Arab"),
    "ja": ("ja_XX", "jpn_Jpan"),
    "tr": ("tr_TR", "tur_Latn"),
    "pl": ("pl_PL", "pol_Latn"),
    "ro": ("ro_RO", "ron_Latn"),
    "uk": ("uk_UA", "ukr_Cyrl"),
}


@dataclass(frozen=True)
class LanguageScheme:
    """Where a family puts language codes. ``forced_bos``: labels start with the target code token."""

    family: str
    source_code: bool
    forced_bos: bool

    def code_token(self, language: str) -> str:
        """The vocabulary token of a language code in this family's spelling."""
        return _SPELLERS[self.family](language)


def _mbart50(language: str) -> str:
    return language if "_" in language else _lookup(language, 0, "mBART-50")


def _nllb(language: str) -> str:
    return language if "_" in language else _lookup(language, 1, "NLLB")


def _m2m100(language: str) -> str:
    bare = language.strip("_")
    return f"__{bare}__"


def _no_codes(language: str) -> str:
    raise MtprobesError(f"this model family has no language-code tokens (asked for {language!r})")


def _lookup(language: str, column: int, family: str) -> str:
    if language not in _CODES:
        raise MtprobesError(
            f"no {family} code known for {language!r}; pass the {family} spelling directly "
            f"(known short codes: {', '.join(sorted(_CODES))})"
        )
    return _CODES[language][column]


_SPELLERS = {"mbart50": _mbart50, "nllb": _nllb, "m2m100": _m2m100, "marian": _no_codes, "plain": _no_codes}

SCHEMES: dict[str, LanguageScheme] = {
    "marian": LanguageScheme("marian", source_code=False, forced_bos=False),
    "mbart50": LanguageScheme("mbart50", source_code=True, forced_bos=True),
    "nllb": LanguageScheme("nllb", source_code=True, forced_bos=True),
    "m2m100": LanguageScheme("m2m100", source_code=True, forced_bos=True),
    "plain": LanguageScheme("plain", source_code=False, forced_bos=False),
}

# (substring of the tokenizer class name, model_type) -> family; first match wins, checked in order.
_FAMILY_RULES: tuple[tuple[str, str, str], ...] = (
    ("Nllb", "", "nllb"),
    ("MBart50", "", "mbart50"),
    ("M2M100", "", "m2m100"),
    ("", "m2m_100", "m2m100"),
    ("Marian", "", "marian"),
    ("", "marian", "marian"),
)


def detect_family(tokenizer_class: str, model_type: str) -> str:
    """The family of a model from its tokenizer class name and config ``model_type`` ('plain' if none)."""
    for class_part, type_name, family in _FAMILY_RULES:
        if class_part and class_part in tokenizer_class:
            return family
        if type_name and type_name == model_type:
            return family
    return "plain"
