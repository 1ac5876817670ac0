"""SUBNUM: a standalone number that occurs with the same value on both sides becomes n+k on both sides.

Each language keeps its own conventions (EN 1,000.5 / DE 1.000,5 or 1 000,5), the number of decimals, zero
padding and grouping of the original. A number is standalone when it is not glued to letters (A4, COVID-19,
1990s, 5km) and not part of a range, time, fraction or dotted date (6-8, 10:30, 3/4, 13.01.2024). "100 %" /
"100 percent" / "100 Prozent" is never changed: it means "all" or "completely", not an amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from builders.variations.strategies.base import Drop, Outcome, SentencePair, StrategyResources, Variation
from builders.variations.text import Edit, repair_indefinite_article, sentence_starts

# A run of digits with inner separators; the separators' meaning is decided per language below.
_NUMBER_RE = re.compile(r"\d(?:[\d.,\u00a0\u202f ]*\d)?")
_EN_ORDINAL_RE = re.compile(r"(st|nd|rd|th)\b", re.IGNORECASE)
_GLUE = "-–/:"
MONTHS = frozenset({
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "januar", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember",
})


# Spelled-out numbers that can stand in a part-of-whole relation with a digit number ("nine out of 10").
EN_NUMBER_WORDS = {w: n for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))} | {
    "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100, "thousand": 1000}
DE_NUMBER_WORDS = {w: n for n, w in enumerate((
    "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
    "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn", "zwanzig"))} | {
    "ein": 1, "eine": 1, "einer": 1, "eines": 1, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "hundert": 100,
    "tausend": 1000}
NUMBER_WORDS = {"en": EN_NUMBER_WORDS, "de": DE_NUMBER_WORDS}
# "X out of Y", "X of (the) Y", "X in Y", "X von Y": X is a part of Y and cannot exceed it ("9 of 5 children").
_PART_OF_WHOLE = {"en": r"(?:out\s+of|of|in)(?:\s+the)?", "de": r"(?:von|aus|unter)(?:\s+den|\s+die)?"}
# Words that compare two numbers of a sentence ("7.5, above the average of 7.4", "more than 20 ... 30"): close
# between the changed number and another one, they tie the two, and the change may contradict the comparison
# (7.5 -> 8.5 is no longer "slightly above 7.4"). 'to' only ties a range or a change ("3 to 4 hours", "from 5 to
# 8"), where at most one word stands between the two numbers besides it.
EN_COMPARISON_CUES = frozenset({
    "than", "above", "below", "average", "compared", "versus", "vs", "higher", "lower", "more", "less", "fewer",
    "greater", "larger", "smaller", "bigger", "exceed", "exceeds", "exceeded", "exceeding", "over", "under",
    "outnumber", "outnumbered"})
COMPARISON_MAX_WORDS = 6
_WORD_RE = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Convention:
    thousands: tuple[str, ...]
    decimal: str


CONVENTIONS = {
    "en": Convention(thousands=(",",), decimal="."),
    "de": Convention(thousands=(".", "\u00a0", "\u202f", " "), decimal=","),
}


@dataclass(frozen=True)
class NumberMention:
    start: int
    end: int  # end of the digits (an English ordinal suffix is not included)
    text: str
    value: Decimal
    decimals: int
    grouping: str  # thousands separator used, "" when none
    width: int  # integer-part width when zero-padded (07), else 0
    ordinal: bool
    year: bool
    near_month: bool


def _parse(text: str, convention: Convention) -> tuple[Decimal, int, str] | None:
    """Value, number of decimals and grouping separator, or None when the string breaks the convention."""
    integer, _, fraction = text.partition(convention.decimal)
    if fraction and not fraction.isdigit():
        return None
    grouping = ""
    for separator in convention.thousands:
        if separator in integer:
            groups = integer.split(separator)
            if not (1 <= len(groups[0]) <= 3 and all(len(g) == 3 and g.isdigit() for g in groups[1:])):
                return None
            grouping = separator
            integer = "".join(groups)
            break
    if not integer.isdigit():
        return None
    value = Decimal(integer + ("." + fraction if fraction else ""))
    return value, len(fraction), grouping


def parse_value(text: str, lang: str) -> Decimal | None:
    """The value of a number written in ``lang``'s convention (an English ordinal suffix allowed), else None."""
    digits = re.sub(r"(?<=\d)(st|nd|rd|th)$", "", text, flags=re.IGNORECASE) if lang == "en" else text
    parsed = _parse(digits, CONVENTIONS[lang])
    return parsed[0] if parsed else None


def _is_glued(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or before == "_" or (after.isalnum() and not _EN_ORDINAL_RE.match(text, end)):
        return True
    if before in _GLUE and start > 1 and text[start - 2].isalnum():
        return True
    if after in _GLUE and end + 1 < len(text) and text[end + 1].isalnum():
        return True
    # a dotted date or a version number: 13.01.2024 / 1.2.3 leave trailing ".digit"
    return after in ".," and end + 1 < len(text) and text[end + 1].isdigit()


def _near_month(text: str, start: int, end: int) -> bool:
    words_before = re.findall(r"[^\W\d_]+", text[max(0, start - 12) : start].lower())
    words_after = re.findall(r"[^\W\d_]+", text[end : end + 14].lower())
    return bool((words_before[-1:] and words_before[-1] in MONTHS) or (words_after[:1] and words_after[0] in MONTHS))


def find_numbers(text: str, lang: str) -> list[NumberMention]:
    convention = CONVENTIONS[lang]
    found: list[NumberMention] = []
    for match in _NUMBER_RE.finditer(text):
        raw = match.group().rstrip(" \u00a0\u202f.,")
        start, end = match.start(), match.start() + len(raw)
        if " " in raw and not re.fullmatch(r"\d{1,3}(?: \d{3})+(?:,\d+)?", raw):
            # spaces only group thousands; otherwise these are separate numbers ("in 2 3er Gruppen")
            for part in re.finditer(r"\d+(?:[.,]\d+)*", raw):
                found += _mention(text, start + part.start(), start + part.end(), lang, convention)
            continue
        found += _mention(text, start, end, lang, convention)
    return found


def _mention(text: str, start: int, end: int, lang: str, convention: Convention) -> list[NumberMention]:
    if _is_glued(text, start, end):
        return []
    raw = text[start:end]
    parsed = _parse(raw, convention)
    if parsed is None:
        return []
    value, decimals, grouping = parsed
    integer_part = raw.split(convention.decimal)[0]
    width = len(integer_part) if integer_part.startswith("0") and len(integer_part) > 1 else 0
    ordinal = bool(_EN_ORDINAL_RE.match(text, end)) if lang == "en" else _german_ordinal(text, end)
    year = not grouping and decimals == 0 and len(integer_part) == 4 and 1000 <= value <= 2999
    return [NumberMention(start, end, raw, value, decimals, grouping, width, ordinal, year,
                          _near_month(text, start, end))]


def _german_ordinal(text: str, end: int) -> bool:
    """'13. Januar', 'am 3. Tag': a period followed by a month or a lowercase/noun word, not a sentence end."""
    if not text.startswith(". ", end):
        return False
    following = re.match(r"[^\W\d_]+", text[end + 2 :])
    if not following:
        return False
    word = following.group()
    return word.lower() in MONTHS or word[0].islower()


def format_number(value: Decimal, template: NumberMention, lang: str) -> str:
    convention = CONVENTIONS[lang]
    quantized = value.quantize(Decimal(1).scaleb(-template.decimals)) if template.decimals else value
    integer, _, fraction = f"{quantized:f}".partition(".")
    if template.width:
        integer = integer.zfill(template.width)
    if template.grouping:
        groups: list[str] = []
        while len(integer) > 3:
            groups.insert(0, integer[-3:])
            integer = integer[:-3]
        integer = template.grouping.join([integer, *groups])
    return integer + (convention.decimal + fraction if fraction else "")


def _value_of_word(word: str, lang: str) -> Decimal | None:
    """A number written with digits or as one of the small number words, else None."""
    word = word.rstrip(".,")
    value = parse_value(word, lang) if word[:1].isdigit() else None
    if value is None and word.lower() in NUMBER_WORDS[lang]:
        value = Decimal(NUMBER_WORDS[lang][word.lower()])
    return value


def part_exceeds_whole(text: str, mention: NumberMention, new_value: Decimal, lang: str) -> bool:
    """The change breaks a part-of-whole relation that held: 'nine out of 10' -> 'nine out of 5', '3 von 4' ->
    '7 von 4'."""
    relation = _PART_OF_WHOLE[lang]
    after = re.match(rf"(?:st|nd|rd|th)?\s+{relation}\s+([\w.,]+)", text[mention.end :], re.IGNORECASE)
    whole = _value_of_word(after.group(1), lang) if after else None
    if whole is not None and mention.value <= whole < new_value:
        return True
    before = re.search(rf"([\w.,]+)\s+{relation}\s+$", text[: mention.start], re.IGNORECASE)
    part = _value_of_word(before.group(1), lang) if before else None
    return part is not None and new_value < part <= mention.value


def _close_and_compared(text: str, starts: list[int], first: NumberMention, second: NumberMention,
                        between: list[str], mention: NumberMention, other: NumberMention, new_value: Decimal) -> bool:
    """'the average is at 7.4, and ours lands at 7.5, so slightly above average': a comparison word near two
    numbers of the sentence (up to 6 words before the first or after the second, at most 12 words apart), and a
    change at least as large as the distance between them, which alters how they compare."""
    if len(between) > 12 or abs(new_value - mention.value) < abs(mention.value - other.value):
        return False
    sentence_start = max(start for start in starts if start <= first.start)
    sentence_end = min([start for start in starts if start > second.start], default=len(text))
    before = _WORD_RE.findall(text[sentence_start : first.start])[-COMPARISON_MAX_WORDS:]
    after = _WORD_RE.findall(text[second.end : sentence_end])[:COMPARISON_MAX_WORDS]
    return bool({w.lower() for w in [*before, *between, *after]} & EN_COMPARISON_CUES)


def compared_to_another_number(text: str, mention: NumberMention, others: list[NumberMention],
                               new_value: Decimal) -> bool:
    """Another number of the same sentence with a comparison word close between the two ('above the average of
    7.4', 'more than 20 of 30') or that forms a range with it ('3 to 4 hours', 'from 5 to 8', 'between 2 and 3'):
    the change may contradict the comparison, so it is skipped. Two years ('from 2010 to 2020') stay comparable
    unless the change reverses their order."""
    starts = sentence_starts(text)
    for other in others:
        if other.start == mention.start:
            continue
        first, second = sorted((mention, other), key=lambda m: m.start)
        if any(first.start < start <= second.start for start in starts):
            continue  # another sentence
        if mention.year != other.year:
            continue  # a year and an amount ('up 13 percent from 2012') are not compared
        between = [w.lower() for w in _WORD_RE.findall(text[first.end : second.start])]
        range_word = "and" if text[: first.start].rstrip().lower().endswith("between") else "to"
        is_range = len(between) <= 2 and range_word in between
        compared = len(between) <= COMPARISON_MAX_WORDS and bool(set(between) & EN_COMPARISON_CUES)
        if not (is_range or compared or _close_and_compared(text, starts, first, second, between, mention, other,
                                                               new_value)):
            continue
        order_kept = (mention.value - other.value) * (new_value - other.value) > 0
        if not (mention.year and other.year and order_kept):
            return True
    return False


# A capitalised word before a number that is a date or an amount, not a name ("May 5", "EUR 20", "I 2").
WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})
NOT_NAME_WORDS = MONTHS | WEEKDAYS | {"i", "eur", "usd", "gbp", "chf", "us", "no", "nr"}
# After the number, these mark a quantity even behind a name ('Alabama 34 percent', 'Augustus 2000 years ago').
QUANTITY_FOLLOWERS = frozenset({"percent", "per", "%", "times"})
_QUOTE_OR_END = {".", "!", "?", ":", ";", "\"", "“", "‘", "'", "(", "--", "—", "–"}


def number_in_name(pair: SentencePair, position: int) -> bool:
    """The number is part of a name ('Formula 1', 'Apollo 11', 'Magic 8 Ball', 'Windows 10'): it follows a
    capitalised word that is a proper noun or not at a sentence start. Changing it renames the thing, it does
    not change a quantity."""
    if position < 1:
        return False
    previous = pair.en_tokens[position - 1]
    if not (previous.text.isalpha() and previous.text[0].isupper()) or previous.lower in NOT_NAME_WORDS:
        return False
    following = pair.en_tokens[position + 1] if position + 1 < len(pair.en_tokens) else None
    if following is not None and (following.tag == "NNS" or following.lower in QUANTITY_FOLLOWERS):
        return False  # a plural noun or 'percent' after it: a quantity ('Alabama 34 percent', '2000 years')
    sentence_initial = position == 1 or pair.en_tokens[position - 2].text in _QUOTE_OR_END
    return previous.pos == "PROPN" or not sentence_initial


def english_ordinal_suffix(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


# "100 %" is the whole, and in speech an intensifier ("it was 100% the phone", "I agree 100 percent", "hundert
# Prozent sicher"): 103 % is no quantity and 97 % turns "completely" into a measurement (issue 16, blind check 3).
_PERCENT_AFTER = {"en": re.compile(r"\s?(?:%|percent\b|per\s+cent\b|pct\b)", re.IGNORECASE),
                  "de": re.compile(r"[\s\u00a0\u202f]?(?:%|prozent\b)", re.IGNORECASE)}


def hundred_percent(text: str, mention: NumberMention, lang: str) -> bool:
    return mention.value == 100 and bool(_PERCENT_AFTER[lang].match(text, mention.end))


# A quantity with its converted equivalent ('100 miles per hour (161 kilometers per hour)', '5 feet (1.5 m)', '$10
# (€9)', '50 miles, or about 80 km'): changing one of the two numbers makes the line contradict itself (blind
# rounds 8-9). The number is followed, within a few unit words, by an opening bracket or 'or about' and a number,
# or stands right inside a bracket (after an optional 'about' and currency sign) that follows another number.
_APPROX = (r"(?:about|approx\.?|approximately|roughly|around|some|nearly|almost|ca\.?|circa|etwa|rund|ungefähr|knapp"
           r"|gut|~|≈)")
# (the number in the bracket is no score or date: 'since 2013 (4:2 against Admira)')
_CONVERSION_AFTER = re.compile(
    rf"[^\d()\[\].!?;]{{0,30}}?(?:[(\[]\s*(?:{_APPROX}\s*)?|,?\s+(?:or|oder)\s+{_APPROX}\s+)[$€£¥]?\s?"
    r"\d(?![\d.,]*[:/]\d)", re.IGNORECASE)
_INSIDE_CONVERSION = re.compile(
    rf"\d[^\d()\[\].!?;]{{0,30}}?(?:[(\[]\s*(?:{_APPROX}\s*)?|,?\s+(?:or|oder)\s+{_APPROX}\s+)[$€£¥]?\s?$",
    re.IGNORECASE)


def has_conversion(text: str, mention: NumberMention) -> bool:
    """The number has a converted equivalent beside it (see _CONVERSION_AFTER), or is that equivalent."""
    return bool(_CONVERSION_AFTER.match(text, mention.end)
                or _INSIDE_CONVERSION.search(text[max(0, mention.start - 60): mention.start]))


# Dates that name an event ('September 11', 'Sept. 11', '11. September' = the 2001 attacks): a changed day is
# another date, not the event (blind rounds 8-9). '9/11', '24/7', 'Catch-22', 'G20' are glued and never changed;
# 'Formula 1', 'Apollo 11', 'World War 2' are names (number_in_name).
# English: the month before the day; German: the day's period and the month after it.
_EVENT_DAYS = {"en": {11: re.compile(r"\b(?:september|sept?\.?)\s*$", re.IGNORECASE)},
               "de": {11: re.compile(r"\.\s*september\b", re.IGNORECASE)}}


def event_date(text: str, mention: NumberMention, lang: str) -> bool:
    pattern = _EVENT_DAYS[lang].get(int(mention.value)) if mention.decimals == 0 else None
    if pattern is None:
        return False
    if lang == "en":
        return bool(pattern.search(text[max(0, mention.start - 12): mention.start]))
    return bool(pattern.match(text, mention.end))


class SubstituteNumber:
    type_name = "SUBNUM"

    def generate(self, pair: SentencePair, resources: StrategyResources) -> list[Outcome]:
        config = resources.config
        en_numbers = find_numbers(pair.en, "en")
        de_numbers = find_numbers(pair.de, "de")
        outcomes: list[Outcome] = []
        for mention in en_numbers:
            same_en = [m for m in en_numbers if m.value == mention.value]
            same_de = [m for m in de_numbers if m.value == mention.value]
            reason = self._reject_reason(mention, same_en, same_de, config.include_years, config.include_ordinals)
            if reason:
                outcomes.append(Drop(reason))
                continue
            if hundred_percent(pair.en, mention, "en") or hundred_percent(pair.de, same_de[0], "de"):
                outcomes.append(Drop("subnum_hundred_percent"))
                continue
            if has_conversion(pair.en, mention) or has_conversion(pair.de, same_de[0]):
                outcomes.append(Drop("subnum_converted_quantity"))
                continue
            if event_date(pair.en, mention, "en") or event_date(pair.de, same_de[0], "de"):
                outcomes.append(Drop("subnum_event_date"))
                continue
            position = next((i for i, t in enumerate(pair.en_tokens) if t.start <= mention.start < t.end), -1)
            if number_in_name(pair, position):
                outcomes.append(Drop("subnum_in_name"))
                continue
            outcomes += self._variations(pair, mention, same_de[0], position, config.num_offsets, en_numbers)
        return outcomes

    @staticmethod
    def _reject_reason(mention: NumberMention, same_en: list[NumberMention], same_de: list[NumberMention],
                       include_years: bool, include_ordinals: bool) -> str:
        if not same_de:
            return "subnum_not_in_ref"
        if len(same_en) > 1 or len(same_de) > 1:
            return "subnum_not_unique"
        if (mention.year or same_de[0].year) and not include_years:
            return "subnum_year_excluded"
        if (mention.ordinal or same_de[0].ordinal) and not include_ordinals:
            return "subnum_ordinal_excluded"
        if mention.decimals == 0 and mention.value == 1:
            return "subnum_singular_agreement"
        return ""

    def _variations(self, pair: SentencePair, en: NumberMention, de: NumberMention, position: int,
                    offsets: list[int], en_numbers: list[NumberMention]) -> list[Outcome]:
        """``position``: the index of the English token holding the number (-1: none)."""
        outcomes: list[Outcome] = []
        for k in offsets:
            new_value = en.value + k
            if new_value < 0:
                outcomes.append(Drop("subnum_negative_result"))
                continue
            if en.decimals == 0 and new_value == 1:
                outcomes.append(Drop("subnum_singular_agreement"))
                continue
            if (en.near_month or de.near_month) and not en.year and not 1 <= new_value <= 31:
                outcomes.append(Drop("subnum_invalid_day"))
                continue
            if part_exceeds_whole(pair.en, en, new_value, "en") or part_exceeds_whole(pair.de, de, new_value, "de"):
                outcomes.append(Drop("subnum_part_exceeds_whole"))
                continue
            if compared_to_another_number(pair.en, en, en_numbers, new_value):
                outcomes.append(Drop("subnum_compared_number"))
                continue
            new_en = format_number(new_value, en, "en")
            new_de = format_number(new_value, de, "de")
            en_edit = repair_indefinite_article(pair.en, self._english_edit(pair.en, en, new_en, int(new_value)))
            de_edit = Edit(de.start, de.end, de.text, new_de)
            outcomes.append(
                Variation(self.type_name, (en_edit,), (de_edit,), en_edit.old, de.text, en_edit.new, new_de,
                          position, k=k, detail="year" if en.year else "ordinal" if en.ordinal else "")
            )
        return outcomes

    @staticmethod
    def _english_edit(text: str, mention: NumberMention, new_digits: str, new_integer: int) -> Edit:
        if not mention.ordinal:
            return Edit(mention.start, mention.end, mention.text, new_digits)
        suffix = text[mention.end : mention.end + 2]
        new_suffix = english_ordinal_suffix(new_integer)
        new_suffix = new_suffix.upper() if suffix.isupper() else new_suffix
        return Edit(mention.start, mention.end + 2, mention.text + suffix, new_digits + new_suffix)
