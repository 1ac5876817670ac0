"""One helper for the tests of the French variants: the variants of a sentence's first subject pronoun, or why
none could be made (the counted drop reason)."""

from __future__ import annotations

from builders.pronouns.french import FORMS, impersonal_reason, tokenize


def variants_or_reason(text: str) -> list[str] | str:
    """The variants of the first subject pronoun of ``text``, or the drop reason."""
    from builders.pronouns.french import make_french
    from builders.pronouns.french_agreement import AgreementProblem, french_variants

    tokens = tokenize(text)
    index = next(i for i, t in enumerate(tokens) if t.text.lower() in FORMS)
    parsed = make_french().token(text, tokens, index)
    assert parsed is not None
    try:
        return [v.text for v in french_variants(text, tokens, [(index, parsed)])]
    except AgreementProblem as problem:
        return problem.reason


def il_reason(text: str) -> str:
    """Why the first "il" of ``text`` is impersonal ('' when it may refer)."""
    tokens = tokenize(text)
    return impersonal_reason(tokens, next(i for i, t in enumerate(tokens) if t.text.lower() == "il"))
