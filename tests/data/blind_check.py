"""Blind hand checks: merge the two readers' passes, apply the written resolutions, print the per-class tables.

    python tests/data/blind_check.py            # writes the resolved *_blind_judgements.jsonl, prints Markdown

Each check has a sample (fixed before anyone looked), two independent passes (readers a and b) and the
resolution of every disagreement, with its reason, in RESOLUTIONS below. The resolved file keeps, per item, the
questions the readers disagreed on.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


@dataclass(frozen=True)
class BlindCheck:
    name: str  # file prefix: <name>_sample.jsonl, <name>_judgements_{a,b}.jsonl
    questions: tuple[str, ...]
    class_field: str  # the sample field the table is split by
    subset_field: str | None  # a boolean sample field giving a second table (items kept by the default config)
    id_field: str = "id"  # the field naming an item in the sample and in both passes
    answers: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # a question's allowed answers where not yes/no

    def allowed(self, question: str) -> tuple[Any, ...]:
        return dict(self.answers).get(question, (True, False))


VARIATION_QUESTIONS = ("grammatical_en", "grammatical_de", "parallel", "minimal", "usable")
CHECKS = (
    BlindCheck("pronouns_blind", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_blind2", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_fr_blind", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende1", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr1", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende2", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende3", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr2", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr3", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende4", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("variations_blind", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind2", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind3", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind4", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind5", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind6", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind7", VARIATION_QUESTIONS, "type", None),
    BlindCheck("pronouns_opensubs_ende5", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr4", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende6", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr5", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende7", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende8", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende9", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr6", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_ende10", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr7", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr8", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr9", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr10", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr11", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr12", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr13", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr14", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr15", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr16", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr17", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("pronouns_opensubs_enfr18", ("usable", "right_antecedent", "variants_ok"), "class", "kept_by_default"),
    BlindCheck("variations_blind8", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind9", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind10", VARIATION_QUESTIONS, "type", None),
    BlindCheck("variations_blind11", VARIATION_QUESTIONS, "type", None),
    # issue 23 part 3: disagreements with Lopes et al. (2020); each side judged usable (None: no item on that side)
    BlindCheck("lopes_disagreements", ("theirs_usable", "ours_usable", "verdict"), "kind", None, "document",
               (("theirs_usable", (True, False, None)), ("ours_usable", (True, False, None)),
                ("verdict", ("ours_wrong", "theirs_wrong", "both_acceptable", "both_wrong")))),
)

# (check, item id, question) -> (resolved answer, reason). Resolved by the lead after reading both notes and
# the item against the rubric; "when in doubt, no" decided every case.
RESOLUTIONS: dict[tuple[str, str, str], tuple[bool | str | None, str]] = {
    ("pronouns_blind", "IWSLT2017-test/d000009-s0003-t016", "usable"):
        (False, "the preceding segment also calls the referent 'ein Aspirin' (neuter): the es variant is plausible"),
    ("pronouns_blind", "IWSLT2017-test/d000016-s0080-t010", "usable"):
        (False, "the German referent stands only inside a PP; a vague 'dass es online beginnt' is acceptable"),
    ("pronouns_blind", "IWSLT2017-test/d000020-s0010-t009", "usable"):
        (False, "after 'Es ist wirklich eine erstaunliche Technologie' an es variant is acceptable German"),
    ("pronouns_blind", "IWSLT2017-test/d000021-s0066-t017", "usable"):
        (False, "naming frame ('nennen wir es ...'): es is natural whatever the gender"),
    ("pronouns_blind", "wmt24-ende/d000008-s0006-t021", "usable"):
        (False, "'Es sei ... zu interpretieren' about the statement is acceptable too"),
    ("pronouns_blind", "wmt24-ende/d000166-s0005-t039", "variants_ok"):
        (False, "es pronouns of the same referent (das Monstrum / des Biestes) stay unchanged in the variants"),
    ("pronouns_blind", "wmt24-ende/d000166-s0005-t045", "variants_ok"):
        (False, "es pronouns of the same referent (das Monstrum / das Biest) stay unchanged in the variants"),
    ("pronouns_blind2", "wmt23-ende/d000151-s0001-t009", "right_antecedent"):
        (False, "'timeline' is the predicate noun of 'This is ...': the it can be the 'this' (Das) as well"),
    ("pronouns_fr_blind", "IWSLT17-tst2016-blind/d000004-s0041-t019", "usable"):
        (False, "referent 'les enfants' is epicene and the group's gender unknown: elles may be right"),
    # issue 23, EN-DE round 1 on opensubs-ende (DeepL German), resolved by the lead against the rubric
    ("pronouns_opensubs_ende1", "opensubs-ende/d000281-s0005-t009", "usable"):
        (False, "'wenn wir es brauchen' is acceptable colloquial German with a situational es: in doubt, no"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d000554-s0005-t003", "usable"):
        (False, "the context also names 'das Virus' (neuter) for what was delayed: the es variant may be right"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d001001-s0005-t008", "usable"):
        (False, "'dass er es verdient' is idiomatic with a vague es"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d002481-s0005-t007", "usable"):
        (False, "'to save it' more likely means his remains than the grave; referent in doubt"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d002481-s0005-t007", "right_antecedent"):
        (False, "the English it is more likely the remains than 'his grave'"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d002486-s0005-t009", "usable"):
        (False, "'wie man sie bekämpft' reads as 'die Amerikaner' of the context"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d002550-s0005-t005", "usable"):
        (True, "'I'll just take it' answers 'can he at least give you the first official wave?': the wave, "
                 "not the balcony or throne offered before"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d002550-s0005-t005", "right_antecedent"):
        (True, "the wave is the thing just offered"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d002795-s0002-t022", "usable"):
        (False, "'ihn' can take 'einen Spielfilm' of the same clause"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d003129-s0005-t008", "usable"):
        (False, "'sie ... stehen zu lassen' reads as the passengers of the context"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d004268-s0005-t002", "usable"):
        (False, "what got reset (the sequence or the device) is not clear from the context"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d004268-s0005-t002", "right_antecedent"):
        (False, "the referent may be the device, not the sequence"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d005220-s0005-t017", "right_antecedent"):
        (False, "the it resumes 'this relationship' (Beziehung) of its own segment, not 'the future'"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d005517-s0004-t001", "usable"):
        (False, "'Es ... brennt bei Kontakt' is acceptable after 'Es ist schlimmer': vague es"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d005529-s0005-t004", "usable"):
        (False, "the sie variant reads as Clarke doing some good"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d005617-s0005-t001", "usable"):
        (False, "'Es ist wunderschön' is a natural exclamation with vague es"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d005852-s0005-t005", "usable"):
        (False, "'dass es fertig ist' is plausible with a situational es; the referent is in doubt"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d006109-s0005-t018", "usable"):
        (False, "the sie variant fits 'die Jeans' of the context"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d006311-s0004-t008", "usable"):
        (False, "the es variant reads as 'das Zündschloss' of the same sentence"),
    ("pronouns_opensubs_ende1", "opensubs-ende/d006414-s0005-t003", "usable"):
        (False, "'Was soll es bedeuten?' is idiomatic with a vague es"),
    ("variations_blind", "L000315-DEL-000", "minimal"):
        (False, "removing the focus adverb only/nur changes what the saying asserts, not just one word's meaning"),
    ("variations_blind", "L000315-DEL-000", "usable"):
        (False, "follows from minimal = no"),
    ("variations_blind", "L000320-SUBGEN-000", "minimal"):
        (True, "nothing beyond the pronoun swap was changed; the unswapped 'male'/'Kater' fails parallel (both no)"),
    ("variations_blind", "L000475-SUBGEN-000", "minimal"):
        (True, "nothing beyond the pronoun swap was changed; the unswapped '5-Jähriger' fails parallel (both no)"),
    ("variations_blind2", "L000327-DEL-000", "minimal"):
        (False, "'so ... that' is one correlative construction: deleting 'so' changes it, not just one word"),
    ("variations_blind2", "L001822-DEL-000", "minimal"):
        (False, "'so ... that' is one correlative construction: deleting 'so' changes it, not just one word"),
    ("variations_blind2", "L000442-DEL-000", "minimal"):
        (False, "deleting the negation never/nie inverts what the sentence asserts: not a meaning-light edit"),
    ("variations_blind2", "L000442-DEL-000", "usable"):
        (False, "follows from minimal = no"),
    ("variations_blind2", "L002263-SUBNUM-002", "minimal"):
        (False, "the 8 of 'Magic 8 Ball' is part of a product name, not a quantity: the edit renames the thing"),
    ("variations_blind2", "L002263-SUBNUM-002", "usable"):
        (False, "follows from minimal = no"),
    ("variations_blind2", "L000368-SUBGEN-000", "grammatical_de"):
        (True, "'durch ihn erschaffen' is well-formed German; that 'ihn' no longer matches 'die Natur' is parallel's"),
    ("variations_blind2", "L000368-SUBGEN-000", "parallel"):
        (False, "the German 'sie' follows the grammatical gender of 'die Natur': the swap leaves it without referent"),
    ("variations_blind2", "L000368-SUBGEN-000", "minimal"):
        (True, "nothing beyond the pronoun swap was changed; the broken reference fails parallel"),
    ("variations_blind2", "L000980-SUBGEN-000", "minimal"):
        (True, "nothing beyond the swap was changed; the unswapped 'Hausfrau' fails parallel (both no)"),
    ("variations_blind3", "wmt23-ende/L000557-SUBNUM-007", "minimal"):
        (False, "'100%' is an intensifier here (= entirely), not a quantity: as with 'Magic 8 Ball', the edit "
                "changes what the words are, not a number"),
    ("variations_blind3", "wmt23-ende/L000557-SUBNUM-007", "usable"):
        (False, "follows from minimal = no"),
    # issue 23, EN-FR round 1 on opensubs-enfr (human French), resolved by the lead against the rubric
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d000203-s0004-t001", "right_antecedent"):
        (False, "the marked French il is impersonal (il n'est que 23 h): it does not denote the train"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d001566-s0004-t008", "right_antecedent"):
        (False, "the marked French il is impersonal (il avait fallu): it does not denote the muumuu"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d001912-s0004-t009", "usable"):
        (False, "the French reference is garbled ('L couru dans quelques amis'): in doubt, no"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d002746-s0004-t018", "right_antecedent"):
        (False, "'play out exactly as it would' more likely resumes the attack (simulation) than the blast"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d005128-s0004-t014", "variants_ok"):
        (False, "the variant keeps 'son égal'; a feminine referent needs 'son égale'"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d005168-s0002-t017", "usable"):
        (False, "the French reference is garbled machine-like text: in doubt, no"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d005869-s0004-t017", "usable"):
        (False, "the legends are the Beatles of the context: 'ils' would be right too"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d006349-s0004-t015", "usable"):
        (True, "the French makes the reading explicit (ma vie ... qu'elle commence): 'waiting for his life to start'"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d006349-s0004-t015", "right_antecedent"):
        (True, "life / vie is what the French pronoun resumes"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d006826-s0004-t010", "usable"):
        (False, "'if they let me' has no clear referent: 'girls' three segments back is generic"),
    ("pronouns_opensubs_enfr1", "opensubs-enfr/d006826-s0004-t010", "right_antecedent"):
        (False, "the referent is whoever is at the pool, not the generic 'girls'"),
    # issue 23, EN-DE round 2 on opensubs-ende (the default after round 1's fixes), resolved by the lead
    ("pronouns_opensubs_ende2", "opensubs-ende/d000518-s0005-t006", "right_antecedent"):
        (False, "what is played again is likely the record, and the German also says 'eine Kopie' (f): in doubt, no"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d003173-s0005-t002", "usable"):
        (False, "the recorded antecedent is a predicate noun (it's a love poem); es may continue the "
                "presentational es"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d004829-s0005-t003", "usable"):
        (False, "es can pick up the infinitive clause 'diese Erfahrung zu genießen'"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d004838-s0005-t016", "usable"):
        (False, "the German context calls the object 'er' too; the er variant is then not clearly wrong"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d005337-s0005-t001", "right_antecedent"):
        (False, "'the loneliness' is the predicate of 'It's the loneliness'"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d005658-s0005-t005", "usable"):
        (False, "'es hat sich geändert' is acceptable German for 'things changed'"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d005683-s0005-t005", "usable"):
        (False, "'Bei falscher Zubereitung kann es zu Lähmungen führen' is natural impersonal German"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d005956-s0005-t001", "usable"):
        (False, "'a handle' is a predicate noun after 'Das ist ein Griff'; es can continue the das"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d006305-s0005-t001", "usable"):
        (False, "the dragon is the prophesied omen ('ein günstiges Omen', n) of the context: es may be right"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d006420-s0005-t008", "usable"):
        (False, "Virus is also masculine in German (der Virus): the er variant is acceptable"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d006763-s0004-t003", "usable"):
        (False, "the referent (theatre) is also 'eine tote Kunstform' (f) in the context: sie may fit"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d007002-s0005-t003", "usable"):
        (False, "'How's it feel?' may be the idiomatic non-referential question: in doubt, no"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d007002-s0005-t003", "right_antecedent"):
        (False, "the it may not resume 'my face': in doubt, no"),
    ("pronouns_opensubs_ende2", "opensubs-ende/d007298-s0002-t003", "usable"):
        (False, "'a white shirt' is a negated predicate noun; es can continue the das"),
    # issue 23, EN-DE round 3 on opensubs-ende with coref: learned, resolved by the lead
    ("pronouns_opensubs_ende3", "opensubs-ende/d000543-s0005-t005", "usable"):
        (False, "'Ich will es nicht in meiner Schule haben' is acceptable with a vague es (such things)"),
    ("pronouns_opensubs_ende3", "opensubs-ende/d001245-s0005-t012", "right_antecedent"):
        (False, "the it may be suicide in general rather than the attempt: in doubt, no"),
    ("pronouns_opensubs_ende3", "opensubs-ende/d002734-s0003-t003", "usable"):
        (False, "'your room' is a questioned predicate noun; es may agree with the demonstrative das"),
    ("pronouns_opensubs_ende3", "opensubs-ende/d002734-s0003-t003", "right_antecedent"):
        (False, "a predicate noun recorded as antecedent"),
    ("pronouns_opensubs_ende3", "opensubs-ende/d002754-s0002-t001", "right_antecedent"):
        (False, "'your cab' is a predicate noun ('It's your cab?')"),
    ("pronouns_opensubs_ende3", "opensubs-ende/d004686-s0005-t006", "usable"):
        (False, "the lost thing is named only by the predicate of 'It's a castle'"),
    ("pronouns_opensubs_ende3", "opensubs-ende/d004686-s0005-t006", "right_antecedent"):
        (False, "a predicate noun recorded as antecedent"),
    # issue 23, EN-FR round 2 on opensubs-enfr with coref: learned, resolved by the lead
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d000906-s0004-t010", "variants_ok"):
        (False, "the French il translates the next 'it may help'; the variant leaves 'le' of the same referent"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d002957-s0004-t002", "usable"):
        (False, "the referent is also 'des dispositifs microscopiques' (m) right before: ils may be right"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d003403-s0004-t008", "usable"):
        (False, "the it is the current, and 'l'électricité' (f) of the context makes elle plausible"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d003577-s0004-t020", "right_antecedent"):
        (False, "what should float is the stuff thrown, not the bridge"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d004352-s0004-t004", "usable"):
        (False, "'What case is this?' may be a physical case; the French 'affaire' leaves the referent unclear"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d004352-s0004-t004", "right_antecedent"):
        (False, "the referent may be the physical case, not 'affaire'"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d005606-s0004-t008", "usable"):
        (False, "'la souris' of the context makes 'quand elle était plus jeune' plausible: in doubt, no"),
    ("pronouns_opensubs_enfr2", "opensubs-enfr/d006400-s0004-t003", "right_antecedent"):
        (False, "the French is garbled ('il est le téléchargement'): the pronoun's referent is unclear"),
    # issue 23, EN-FR round 3 on opensubs-enfr (the default, coref auto = learned), resolved by the lead
    ("pronouns_opensubs_enfr3", "opensubs-enfr/d001484-s0004-t011", "variants_ok"):
        (False, "'parce que elles' needs elision (parce qu'elles); the rubric names elision"),
    ("pronouns_opensubs_enfr3", "opensubs-enfr/d002059-s0004-t012", "variants_ok"):
        (False, "the variant keeps the distributive 'chacune' of the same referent beside 'ils'"),
    ("pronouns_opensubs_enfr3", "opensubs-enfr/d002397-s0004-t002", "right_antecedent"):
        (False, "'Maybe it will' may echo 'everything will be all right': in doubt, no"),
    ("pronouns_opensubs_enfr3", "opensubs-enfr/d003571-s0003-t023", "variants_ok"):
        (False, "the French is garbled machine-like text: the variant is not French"),
    ("pronouns_opensubs_enfr3", "opensubs-enfr/d004572-s0004-t012", "usable"):
        (False, "'il n'a rien' reads as Earl (Il in the same segment): the variant may be right"),
    ("pronouns_opensubs_enfr3", "opensubs-enfr/d005450-s0004-t011", "variants_ok"):
        (False, "the French is garbled machine-like text: the variant is not French"),
    # issue 23, EN-DE round 4 on opensubs-ende (the default after the fixes of rounds 2-3), resolved by the lead
    ("pronouns_opensubs_ende4", "opensubs-ende/d006099-s0005-t004", "usable"):
        (False, "'the bear' is a metaphor for the car, and der Motor (m) is in reach too: in doubt, no"),
    ("pronouns_opensubs_ende4", "opensubs-ende/d006099-s0005-t004", "right_antecedent"):
        (False, "the referent is the car named 'the bear': in doubt, no"),
    ("pronouns_opensubs_ende4", "opensubs-ende/d007222-s0005-t001", "usable"):
        (False, "the it may be 'Open mind' (a title or an open mind) rather than the book: in doubt, no"),
    ("pronouns_opensubs_ende4", "opensubs-ende/d007222-s0005-t001", "right_antecedent"):
        (False, "the referent is ambiguous between the book and 'Open mind'"),
    # issue 25, rounds 4 (wmt21-22-ende) and 5 (INS on opensubs-ende), resolved by the lead against the rubric
    ("variations_blind4", "L000966-DEL-000", "grammatical_en"):
        (False, "'I mean he's, he's made' strands the contraction: not grammatical English"),
    ("variations_blind4", "L000966-DEL-000", "grammatical_de"):
        (False, "'er ist, er hat' strands the copula of the false start"),
    ("variations_blind4", "L000966-DEL-000", "minimal"):
        (False, "removing the false start's predicate changes its structure, not just one adverb: in doubt, no"),
    ("variations_blind4", "L000850-SUBNUM-007", "minimal"):
        (True, "one number changed on both sides; the feet/metres mismatch is plausibility, which the rubric "
               "does not require"),
    ("variations_blind4", "L000850-SUBNUM-007", "usable"):
        (True, "all four criteria hold (plausibility not required)"),
    ("variations_blind4", "L000348-SUBGEN-000", "grammatical_de"):
        (True, "the varied German is grammatical; the feminine genitive left beside 'seiner' is a parallelism defect"),
    ("variations_blind5", "L012737-INS-000", "parallel"):
        (False, "'very fine' (fine = OK) and 'geht es sehr gut' are not counterparts"),
    ("variations_blind5", "L018326-INS-000", "grammatical_en"):
        (True, "'all would be very well' is grammatical; the idiom change is a minimality defect"),
    ("variations_blind5", "L033443-INS-000", "parallel"):
        (False, "'sehr' modifies 'verdammt', not the counterpart of 'very strong'"),
    # issue 25, rounds 6 (INS on opensubs-ende) and 7 (wmt21-22-ende), after the round 4-5 fixes
    ("variations_blind6", "L003182-INS-000", "parallel"):
        (False, "'the very dark energy' reads as the emphatic 'the very X'; German 'sehr dunkle' has only the "
                "degree reading"),
    ("variations_blind6", "L003182-INS-000", "minimal"):
        (False, "the insertion also changes 'the X' into the emphatic 'the very X' (and splits 'dark energy')"),
    ("variations_blind6", "L011122-INS-000", "parallel"):
        (False, "'that very happy resolution' reads as 'that very resolution'; 'sehr glücklichen' does not"),
    ("variations_blind6", "L011122-INS-000", "minimal"):
        (False, "the emphatic reading of 'that very' changes more than the degree: in doubt, no"),
    # issue 23 part 3: the Lopes et al. disagreement sample (seed 20261127, default at 876e1c3)
    ("lopes_disagreements", "720", "theirs_usable"):
        (False, "both readers doubt who 'they' is (the dogs or the people training them): in doubt, no"),
    ("lopes_disagreements", "720", "verdict"): ("theirs_wrong", "their item is not usable (referent in doubt)"),
    ("lopes_disagreements", "1786", "theirs_usable"):
        (False, "their contrastive also pluralises 'familier', which agrees with 'l'air' in the reference: a change "
                "no agreement requires, so the pair is not minimal"),
    ("lopes_disagreements", "1786", "verdict"): ("theirs_wrong", "ours is minimal and well-formed, theirs is not"),
    ("lopes_disagreements", "3112", "theirs_usable"):
        (False, "'they' may be the thugs in general (only 'a thug' is named) or the locals: in doubt, no"),
    ("lopes_disagreements", "3112", "ours_usable"): (False, "the same doubt about the referent"),
    ("lopes_disagreements", "3112", "verdict"): ("both_wrong", "neither side's referent is certain"),
    ("lopes_disagreements", "6244", "theirs_usable"):
        (False, "the reference writes 'parfaite tel' (it should be 'telle'): a contrastive that repairs part of it "
                "is better French than the reference, so the pair is confounded"),
    ("lopes_disagreements", "6244", "ours_usable"):
        (False, "ours ('Il est parfait tel qu'il est') is fully well-formed against a faulty reference: confounded"),
    ("lopes_disagreements", "6244", "verdict"): ("both_wrong", "the reference's own agreement error confounds both"),
    # issue 25, round 9 (INS on opensubs-ende, rules 9d5205a)
    ("variations_blind9", "L012753-INS-000", "grammatical_en"):
        (False, "'a very young playwrights festival' reads as a very young festival: the English is ill-formed for "
                "the intended reading"),
    ("variations_blind9", "L012753-INS-000", "parallel"):
        (False, "the German puts sehr on 'Dramatiker' while the English can only scope over the compound"),
    ("variations_blind9", "L033454-INS-000", "minimal"):
        (False, "both readers note that 'very' breaks the repeated 'good to yourself / good to you': in doubt, no"),
    ("variations_blind9", "L033454-INS-000", "usable"): (False, "not minimal"),
    # issue 23, EN-DE round 5 (rubric pass; default at 5cb2851), resolved by the lead
    ("pronouns_opensubs_ende5", "opensubs-ende/d000303-s0005-t007", "usable"):
        (False, "'Man muss es einfach ausspielen' (es = the situation) is acceptable German: in doubt, no"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d001080-s0005-t006", "usable"):
        (False, "'listen to it' is more likely the streamed music (not named) than the music cloud: in doubt, no"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d001080-s0005-t006", "right_antecedent"):
        (False, "the referent may be the music itself, not 'a music cloud'"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d001189-s0004-t001", "usable"):
        (False, "'Es gehört zum Haus' can be read with 'das Grundstück' in reach or a vague es: in doubt, no"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d003241-s0005-t012", "usable"):
        (False, "the er variant reads as Matt, named in the previous line: not wrong German"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d004764-s0005-t001", "usable"):
        (False, "the referent (the Machine or its code) is not certain; the recorded antecedent is wrong"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d004779-s0005-t001", "usable"):
        (False, "'wie einen Kitt' (m) is in reach: 'Er kann sich dehnen' can be read as the putty"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d006238-s0005-t003", "usable"):
        (False, "the sie variant reads as the woman writing the letter: not wrong German"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d006252-s0005-t003", "right_antecedent"):
        (False, "the it may be the celebrating rather than 'a visit': in doubt, no"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d006255-s0005-t001", "usable"):
        (False, "the German context calls the changeling 'Es' two segments earlier: the es variant is plausible"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d006566-s0005-t003", "right_antecedent"):
        (False, "'blood' is the predicate of 'what appears to be dried blood'; the German phrase is not in the text"),
    ("pronouns_opensubs_ende5", "opensubs-ende/d007268-s0005-t002", "usable"):
        (False, "'Passt es?' is idiomatic German for a garment: not wrong"),
    # issue 23, EN-FR round 4 (default at fa9dc8a), resolved by the lead
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d000073-s0004-t018", "usable"):
        (False, "the il variant reads naturally with 'le Royaume' in the same sentence: in doubt, no"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d000125-s0004-t015", "usable"):
        (False, "'they're right' may be the thoughts: 'elles ont raison' (= pensées) is good French"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d000171-s0004-t002", "usable"):
        (False, "the French Ils translates the main clause's 'they carry away'; the marked they is not rendered"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d000222-s0004-t012", "right_antecedent"):
        (False, "'they' may be the song (music and words): the recorded head is in doubt"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d000744-s0004-t012", "usable"):
        (False, "the French 'ils veulent' translates the next 'They want action', not the marked they"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d002031-s0004-t004", "usable"):
        (False, "'ce qu'elle dit' reads naturally with 'la cour' of 'le décret de la cour': in doubt, no"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d002254-s0003-t001", "usable"):
        (False, "'orfèvres' can be either gender here (the context has 'remarquées'): gender not forced"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d003407-s0004-t002", "usable"):
        (False, "the it may continue 'it's real' (the other reality) rather than the club: in doubt, no"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d004590-s0004-t013", "usable"):
        (False, "a colloquial 'ils' for the members of 'ces nouvelles équipes' is plausible: in doubt, no"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d005439-s0004-t015", "usable"):
        (False, "'il n'a pas explosé' reads naturally with 'le bus' as subject: the variant is not clearly wrong"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d006124-s0004-t002", "usable"):
        (False, "'Il est tombé en panne' reads with 'l'embrayage' in reach; the recorded antecedent is wrong too"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d006445-s0004-t017", "usable"):
        (False, "'parce qu'ils sont trop forts' (the Chinese players) is plausible colloquial French: in doubt, no"),
    ("pronouns_opensubs_enfr4", "opensubs-enfr/d006522-s0004-t029", "right_antecedent"):
        (False, "'a car' is generic (when I'm buying a car); the it is the car being examined"),
    # issue 23, EN-DE round 6 (default at 64377aa), resolved by the lead
    ("pronouns_opensubs_ende6", "opensubs-ende/d000439-s0003-t003", "usable"):
        (False, "'Du willst es?' is acceptable with a vague es: in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d000882-s0005-t018", "usable"):
        (False, "the ihn variant reads with 'jemand' (don't miss him): in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d000912-s0005-t014", "usable"):
        (False, "it is the medicine, not the peanut butter, and its first 'sie' stays in the variant"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d003995-s0005-t008", "usable"):
        (False, "the variants also swap the expletive 'Es geht darum'"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d004033-s0003-t003", "usable"):
        (False, "'es folgt dir' is acceptable for an unnamed spooky entity: in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d004552-s0005-t003", "usable"):
        (False, "'Natürlich ist es das' is an acceptable idiom: in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d004763-s0005-t008", "usable"):
        (False, "the it may be the reported volumes, not the group: in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d004763-s0005-t008", "right_antecedent"):
        (False, "the it may be the reported volumes, not the group"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d005376-s0005-t001", "usable"):
        (False, "'Es wurde einfach zu einer weiteren Geschichte' is acceptable (situational es)"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d005522-s0005-t006", "usable"):
        (False, "'es wird dir zeigen, wer du wirklich bist' is acceptable as situational es"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d005725-s0005-t001", "usable"):
        (False, "'Es ist von der Schauspielschule' is acceptable ('dein Video' in reach, or situational)"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d005944-s0005-t001", "usable"):
        (False, "'Es hat uns nur reich gemacht' is acceptable as situational es"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d006267-s0005-t002", "usable"):
        (False, "'Vielleicht ist es das jetzt' is an acceptable idiom"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d006325-s0005-t009", "usable"):
        (False, "the sie variant reads with 'meine Schwester' in reach: in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d006635-s0005-t001", "usable"):
        (False, "'Könnte es das?' is a garbled rendering whose es may be vague: in doubt, no"),
    ("pronouns_opensubs_ende6", "opensubs-ende/d007223-s0005-t011", "usable"):
        (False, "'dass es ... alles andere als langweilig ist' is readable as impersonal"),
    # issue 23, EN-FR round 12 (default at ed41fcc, with the ils floor), resolved by the lead
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d000404-s0004-t007", "right_antecedent"):
        (False, "they may be the people (eux) rather than the shops: in doubt, no"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d001465-s0004-t003", "usable"):
        (False, "they may be the people at the station or accused parties no noun names: in doubt, no"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d001465-s0004-t003", "right_antecedent"):
        (False, "the same: the referent is unclear"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d002097-s0004-t003", "usable"):
        (False, "the referent is split or unclear (the men and women, or their hearing losses); garbled French"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d002097-s0004-t003", "right_antecedent"):
        (False, "the same: no single recorded antecedent"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d002915-s0004-t002", "usable"):
        (False, "it is more likely the tropolisine, so the variant elle may be right"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d005212-s0004-t008", "usable"):
        (False, "des gens (masculine) is in reach of the pronoun: ils can be read as right too"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d005402-s0004-t001", "right_antecedent"):
        (False, "it is more likely the replicating element than the DNA (both masculine): in doubt, no"),
    ("pronouns_opensubs_enfr12", "opensubs-enfr/d006389-s0004-t003", "usable"):
        (False, "the garbled 'Yes, it happens' may be idiomatic, not the train: in doubt, no"),
    # issue 23, EN-FR round 15 (default at d00ef3b), resolved by the lead
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d001227-s0004-t004", "right_antecedent"):
        (False, "they may be the Turks rather than the robberies (both masculine): in doubt, no"),
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d004783-s0004-t008", "usable"):
        (False, "the recorded phrase is the kind (women like them); the referent may be a family: gender not forced"),
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d005268-s0004-t003", "usable"):
        (False, "the French context also names the box le cadeau (masculine): the variant il may be right"),
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d005341-s0004-t013", "usable"):
        (False, "the variant il reads naturally as Pedro, a man in the same sentence"),
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d005346-s0004-t002", "usable"):
        (False, "meteorite is named by a masculine noun in the French context too: the variant may be right"),
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d005592-s0004-t004", "usable"):
        (False, "the variant elle reads as the dead woman, and the French mistranslates the line"),
    ("pronouns_opensubs_enfr15", "opensubs-enfr/d005848-s0004-t006", "usable"):
        (False, "the variant il reads as the client named in the same sentence"),
    # issue 23, EN-FR round 18 (default at b99dbb9), resolved by the lead
    ("pronouns_opensubs_enfr18", "opensubs-enfr/d005393-s0004-t005", "usable"):
        (False, "cette voiture stands just before: the variant elle s'est mise a vrombir (the car) may be right"),
    # issue 23, EN-FR round 14 (default at 36c5377), resolved by the lead
    ("pronouns_opensubs_enfr14", "opensubs-enfr/d000054-s0004-t002", "usable"):
        (False, "they = two men named only by their names; no French noun forces ils: in doubt, no"),
    ("pronouns_opensubs_enfr14", "opensubs-enfr/d000063-s0004-t015", "usable"):
        (False, "they = the slums (les taudis), not the people: wrong antecedent, and the referent is unnamed"),
    ("pronouns_opensubs_enfr14", "opensubs-enfr/d002551-s0004-t018", "right_antecedent"):
        (False, "the recorded mention is the non-specific half a machine; the referent is the speaker's machine"),
    ("pronouns_opensubs_enfr14", "opensubs-enfr/d003958-s0004-t008", "usable"):
        (False, "it is more likely the missing patient than the roll call: in doubt, no"),
    # issue 23, EN-FR round 13 (default at 62a4fd1), resolved by the lead
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d000053-s0004-t003", "right_antecedent"):
        (False, "the recorded French head is chanteurs, a modifier in maitres chanteurs (blackmailers), not the head"),
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d002326-s0004-t007", "usable"):
        (False, "they who cannot keep up (qu'ils verifient pas) may be the authorities, not the lawyers: in doubt, no"),
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d002326-s0004-t007", "right_antecedent"):
        (False, "the same: the lawyers may not be the referent"),
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d003032-s0004-t002", "usable"):
        (False, "English they = the restaurants, French ils = the Italians: the two sides name different referents"),
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d003540-s0004-t003", "usable"):
        (False, "they may be the two men named by their names, not the criminals; the line is cut off: in doubt, no"),
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d003540-s0004-t003", "right_antecedent"):
        (False, "the same: the criminals may not be the referent"),
    ("pronouns_opensubs_enfr13", "opensubs-enfr/d003679-s0002-t004", "usable"):
        (False, "the context coordinates les raies et les requins: the variant ils can be read as the coordination"),
    # issue 23, EN-FR round 11 (default at 37da0da), resolved by the lead
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d000491-s0004-t018", "usable"):
        (False, "the referent (the weapons, or the enemy's) is unclear; the wings are recorded: in doubt, no"),
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d000829-s0004-t008", "usable"):
        (False, "they may be the French or another group, not clearly the people recorded: in doubt, no"),
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d004435-s0004-t003", "usable"):
        (False, "the garbled it may be the watchman or the weapon (une arme): the variant elle can be right"),
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d004435-s0004-t003", "right_antecedent"):
        (False, "the same: the referent is unclear"),
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d004740-s0004-t007", "usable"):
        (False, "it is the Sontaran or its device, not the village recorded: in doubt, no"),
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d006085-s0004-t002", "usable"):
        (False, "la croix is in reach: 'Si elle est rendue publique' reads as the cross; the variant may be right"),
    ("pronouns_opensubs_enfr11", "opensubs-enfr/d006748-s0004-t008", "variants_ok"):
        (False, "the reference 'il est de manger' is ill-formed, so the variant is too"),
    # issue 23, EN-FR round 10 (default at f3fced2), resolved by the lead
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d000014-s0004-t008", "right_antecedent"):
        (False, "the recorded head is the predicate noun of 'don't call them hooligans', not a mention"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d000536-s0004-t005", "usable"):
        (False, "they may be the people in charge who would let her stay, not the men: in doubt, no"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d000536-s0004-t005", "right_antecedent"):
        (False, "the same: the men are not clearly the referent"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d001364-s0004-t026", "right_antecedent"):
        (False, "they are the explorers, not the folks"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d001487-s0004-t007", "right_antecedent"):
        (False, "they are most likely the cats, not all the animals: in doubt, no"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d001861-s0004-t005", "usable"):
        (False, "it is the meth lab; the French elle is 'sa drogue', another referent"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d002844-s0004-t004", "usable"):
        (False, "they are probably the men on screen; 'with men' is generic: the referent is doubtful"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d002844-s0004-t004", "right_antecedent"):
        (False, "the same: the recorded generic men are doubtful"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d002925-s0004-t002", "usable"):
        (False, "they are the two pies named by possessives; the recorded noun (faits) forces nothing"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d003380-s0004-t002", "variants_ok"):
        (False, "'Même ils se souvenaient' is ill-formed; the masculine needs the stressed 'Même eux'"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d004044-s0004-t001", "variants_ok"):
        (False, "the variant keeps 'agité' for the flipped referent"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d005190-s0002-t002", "usable"):
        (False, "it is maintaining a household, an activity no noun phrase names"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d005190-s0002-t002", "right_antecedent"):
        (False, "the same: no nominal antecedent"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d005318-s0004-t006", "right_antecedent"):
        (False, "it is the one non-Irish whiskey they have, not 'Irish whiskey'"),
    ("pronouns_opensubs_enfr10", "opensubs-enfr/d005318-s0004-t006", "variants_ok"):
        (False, "the variant keeps 'un seul' for the same referent, which gives the gender away"),
    # issue 23, EN-FR round 9 (default at 1930336), resolved by the lead
    ("pronouns_opensubs_enfr9", "opensubs-enfr/d002403-s0004-t003", "variants_ok"):
        (False, "the variant flips ils but keeps 'eux' for the same people: one pronoun of the referent left"),
    ("pronouns_opensubs_enfr9", "opensubs-enfr/d002584-s0004-t005", "right_antecedent"):
        (False, "it may be the box or the body (both masculine in French): in doubt, no"),
    # issue 23, EN-FR round 8 (default at 934caab), resolved by the lead
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d000104-s0004-t011", "right_antecedent"):
        (False, "they is 'one of those suckers': the recorded head lies inside the referring phrase"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d000821-s0004-t006", "usable"):
        (False, "they is the Russians (les Russes, used of both genders), not the bases"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d001609-s0004-t026", "usable"):
        (False, "they is the vulgar folk (le peuple), not the breezes: the ils is not forced by the recorded noun"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d002186-s0004-t007", "usable"):
        (False, "they is the nomads (les nomades, used of both genders), not the millennia"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d003332-s0004-t008", "right_antecedent"):
        (False, "they may be the women rather than their hands (both feminine): in doubt, no"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d003420-s0004-t002", "right_antecedent"):
        (False, "the French 'Si elle va bien' reads as the patient, not the X-ray"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d003505-s0004-t002", "usable"):
        (False, "they is the Northern Alliance (l'Alliance), not 'these men': ils is not forced"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d003505-s0004-t002", "right_antecedent"):
        (False, "the same: the referent is the Alliance"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d006650-s0004-t002", "right_antecedent"):
        (False, "the French 'elle a gagné la primaire' reads as Constance, not the maneuver"),
    ("pronouns_opensubs_enfr8", "opensubs-enfr/d006724-s0004-t006", "usable"):
        (False, "the same people are 'les gens' in the French context: ils may be right too"),
    # issue 23, EN-FR round 7 (default at d92d889), resolved by the lead
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d001105-s0003-t001", "usable"):
        (False, "'flics' is used of women too (une flic): elles is not clearly wrong"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d001521-s0004-t010", "usable"):
        (False, "the referent is also 'la lettre' in the context: elle may read, in doubt, no"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d002164-s0004-t009", "usable"):
        (False, "the French ils is the restructured subject of 'I met'; the English they is 'les chiens'"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d002795-s0004-t005", "usable"):
        (False, "'Il est pas mort ?' does not translate 'Where has it been?'"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d003149-s0003-t001", "usable"):
        (False, "'They're chasing me' is most likely the pursuers, not my friends: in doubt, no"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d003149-s0003-t001", "right_antecedent"):
        (False, "the same doubt about the referent"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d004660-s0004-t015", "variants_ok"):
        (False, "'quoi qu'elle arrive' is ill-formed: the il of 'quoi qu'il arrive' is impersonal"),
    ("pronouns_opensubs_enfr7", "opensubs-enfr/d005489-s0004-t010", "usable"):
        (False, "the plant is also 'un arbre' in the context: il may read, in doubt, no"),
    # issue 23, EN-DE round 10 (default at 410c30b), resolved by the lead
    ("pronouns_opensubs_ende10", "opensubs-ende/d000189-s0005-t011", "usable"):
        (False, "'ich kann es umkehren' (the spell's effect) is acceptable German: in doubt, no"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d000411-s0005-t002", "usable"):
        (False, "the German context already says 'Mach ihn auf' for an earlier 'Open it': the variant is in the text"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d000777-s0005-t008", "usable"):
        (False, "'use it' may be the speaker's own weapon, named by no noun: in doubt, no"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d000777-s0005-t008", "right_antecedent"):
        (False, "the same doubt about the referent"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d001960-s0002-t001", "usable"):
        (False, "a one-segment context where 'unconditional love' may be a predicate: in doubt, no"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d001960-s0002-t001", "right_antecedent"):
        (False, "the same doubt about the referent"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d003149-s0003-t019", "right_antecedent"):
        (False, "'that's it' identifies; 'a sign' is nonspecific, so no antecedent is right"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d003416-s0005-t006", "usable"):
        (False, "the German marks the other it of the sentence, and the variant leaves 'mit ihr' of the referent"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d005710-s0005-t001", "usable"):
        (False, "the referent is 'this place' or 'this job': no single noun phrase, in doubt, no"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d005966-s0002-t001", "usable"):
        (False, "the recorded antecedent is a predicate noun of 'this'; 'Es wurde nie angewendet' also reads"),
    ("pronouns_opensubs_ende10", "opensubs-ende/d007432-s0005-t002", "usable"):
        (False, "the sie variant reads with the woman in the context: in doubt, no"),
    # issue 23, EN-FR round 6 (default at 410c30b), resolved by the lead
    ("pronouns_opensubs_enfr6", "opensubs-enfr/d000352-s0004-t024", "usable"):
        (False, "no feminine singular referent, but a reader reads elle with 'les fleurs' in reach: in doubt, no"),
    ("pronouns_opensubs_enfr6", "opensubs-enfr/d001252-s0004-t002", "usable"):
        (False, "what 'works' is unclear (a sofa bed, or something on screen): in doubt, no"),
    ("pronouns_opensubs_enfr6", "opensubs-enfr/d001252-s0004-t002", "right_antecedent"):
        (False, "the same doubt about the referent"),
    ("pronouns_opensubs_enfr6", "opensubs-enfr/d003013-s0004-t005", "usable"):
        (False, "it is the kitchen (la cuisine) or something on screen: in doubt, no"),
    ("pronouns_opensubs_enfr6", "opensubs-enfr/d005884-s0004-t003", "usable"):
        (False, "'qu'elle soit rétablie' reads with Clea Hopkins in reach, and the referent is unsure: in doubt, no"),
    ("pronouns_opensubs_enfr6", "opensubs-enfr/d006861-s0004-t014", "right_antecedent"):
        (False, "'it had to be a Diviner' is identificational; the signal as referent is doubtful"),
    # issue 23, EN-FR round 5 (default at ebe7cbb), resolved by the lead
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d000224-s0003-t014", "usable"):
        (False, "the marked ils ('ce qu'ils veulent') renders 'want', not the marked 'they get it'"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d000872-s0004-t006", "right_antecedent"):
        (False, "'12-year-old girls' is generic; the referent is the pupils named before"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d001514-s0004-t005", "usable"):
        (False, "'they' may be the unnamed 'them' put in the room rather than the boys: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d001514-s0004-t005", "right_antecedent"):
        (False, "the same doubt about the referent"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d001685-s0004-t003", "usable"):
        (False, "'Il fait quoi ?' reads with 'le leader' just before: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d001879-s0004-t005", "right_antecedent"):
        (False, "the recorded phrase denotes the addressee ('c'est toi'), not the force of the line before"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d003374-s0004-t007", "usable"):
        (False, "'d'où il vient' reads with Chaplin (il) in the sentence: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d003753-s0004-t014", "usable"):
        (False, "'et il est bon' reads with Booker (he) in the sentence: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d003815-s0004-t020", "usable"):
        (False, "the marked 'what it does' is not translated; 'à quoi il sert' renders 'what it's for'"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d004301-s0004-t002", "usable"):
        (False, "'Mais il guérira' reads with 'son mariage' in reach: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d004934-s0004-t008", "right_antecedent"):
        (False, "the it may be the encephalitis rather than the psychosis: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d005548-s0004-t010", "usable"):
        (False, "'elle se développe' can be read with 'l'âme' in reach: in doubt, no"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d005844-s0004-t011", "usable"):
        (False, "'Elle n'a jamais existé' reads with Heather: not wrong French"),
    ("pronouns_opensubs_enfr5", "opensubs-enfr/d006459-s0004-t004", "usable"):
        (False, "'qu'elle reste' reads with 'la sorcière' in reach: in doubt, no"),
    # issue 23, EN-DE round 7 (default at 6a4467a), resolved by the lead
    ("pronouns_opensubs_ende7", "opensubs-ende/d000062-s0005-t004", "usable"):
        (False, "'Willst du es hören?' is acceptable for a message's content: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d001120-s0005-t007", "usable"):
        (False, "'Sie werden es hören wollen' is acceptable for a message's content: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d002157-s0004-t001", "usable"):
        (False, "the it may be the morphine (Morphium, es) rather than the pain: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d002157-s0004-t001", "right_antecedent"):
        (False, "the referent (pain or morphine) is in doubt"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d002953-s0005-t010", "usable"):
        (False, "a feminine referent is in reach (die Weltherrschaft, the earlier sie): in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d003135-s0005-t004", "usable"):
        (False, "'Ich habe sie schon mal gesehen' reads as the patient (her) in the context"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d005455-s0005-t001", "usable"):
        (False, "'Sie gehört da nicht hin' reads as Eve, in reach: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d005684-s0005-t002", "usable"):
        (False, "the sie variant can take 'Rache', personified like 'Tod' in the context: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d006023-s0005-t001", "usable"):
        (False, "'Sie wurde gestohlen?' reads with 'die Lieferung' in reach"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d006175-s0005-t002", "usable"):
        (False, "'Sollte sie das?' reads as the shy girl of the context: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d006421-s0005-t003", "usable"):
        (False, "DeepL's 'Gaspedal' does not denote the particle accelerator, and es is readable as the event"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d006421-s0005-t003", "right_antecedent"):
        (False, "the German head 'Gaspedal' is a mistranslation of the referent"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d006446-s0005-t005", "usable"):
        (False, "the er variant reads as 'der Gletscher', whose chain runs through the context"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d006603-s0005-t001", "usable"):
        (False, "'Er ist für dich' reads with 'ein Kuss' in reach: in doubt, no"),
    ("pronouns_opensubs_ende7", "opensubs-ende/d007436-s0005-t008", "usable"):
        (False, "'es endet immer schlecht' is readable as impersonal: the gender is not forced"),
    # issue 23, EN-DE round 8 (default at 13921f8), resolved by the lead
    ("pronouns_opensubs_ende8", "opensubs-ende/d002380-s0004-t001", "variants_ok"):
        (False, "'Es steht sein Name drauf' has a Vorfeld expletive es: 'Sie steht sein Name drauf' is not German"),
    ("pronouns_opensubs_ende8", "opensubs-ende/d004496-s0005-t010", "usable"):
        (False, "'bevor er begann' is readable with Liam as the subject: in doubt, no"),
    ("pronouns_opensubs_ende8", "opensubs-ende/d004931-s0005-t005", "usable"):
        (False, "'spread it' is 'spread the word'; 'die Stunde' cannot be spread: the referent is in doubt"),
    ("pronouns_opensubs_ende8", "opensubs-ende/d005535-s0005-t001", "right_antecedent"):
        (False, "'Marla's bass' is the predicate noun of 'that', not the referent's mention"),
    ("pronouns_opensubs_ende8", "opensubs-ende/d006806-s0005-t001", "usable"):
        (False, "'Es ist nicht wie ...' is readable as general, and 'der übliche Scheiß' is in reach"),
    # issue 23, EN-DE round 9 (default at the round-8 case fixes), resolved by the lead
    ("pronouns_opensubs_ende9", "opensubs-ende/d000669-s0005-t015", "right_antecedent"):
        (False,
         "the it is 'Earth' of its own segment; the recorded 'world' three segments back is another mention"),
    ("pronouns_opensubs_ende9", "opensubs-ende/d002216-s0005-t015", "usable"):
        (False,
         "the ihn variant is readable with 'deinen Segen' as the object: in doubt, no"),
    ("pronouns_opensubs_ende9", "opensubs-ende/d003210-s0005-t004", "right_antecedent"):
        (False,
         "the dialogue order leaves the referent unclear (the photo or the person in it): in doubt, no"),
    ("pronouns_opensubs_ende9", "opensubs-ende/d004345-s0005-t008", "usable"):
        (False,
         "'Ihr Job' is readable as 'her job', so 'dass sie nicht verfügbar ist' may be right: in doubt, no"),
}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def resolve(check: BlindCheck) -> list[dict[str, Any]]:
    """One record per sample item: the agreed or resolved answers and the questions the readers disagreed on."""
    sample = read_jsonl(HERE / f"{check.name}_sample.jsonl")
    a, b = (read_jsonl(HERE / f"{check.name}_judgements_{reader}.jsonl") for reader in "ab")
    ids = [str(item[check.id_field]) for item in sample]
    if [str(j[check.id_field]) for j in a] != ids or [str(j[check.id_field]) for j in b] != ids:
        raise ValueError(f"{check.name}: a reader's file does not list the sample's items in order")
    resolved = []
    for key, item, ja, jb in zip(ids, sample, a, b, strict=True):
        record: dict[str, Any] = {"id": key, check.class_field: item[check.class_field]}
        disagreed = [q for q in check.questions if ja[q] != jb[q]]
        for question in check.questions:
            if question in disagreed:
                answer, _ = RESOLUTIONS[(check.name, key, question)]
                record[question] = answer
            else:
                record[question] = ja[question]
        record["disagreed"] = disagreed
        record["notes"] = {"a": ja.get("note", ""), "b": jb.get("note", "")}
        resolved.append(record)
    unused = {k for k in RESOLUTIONS if k[0] == check.name} - {
        (check.name, r["id"], q) for r in resolved for q in r["disagreed"]
    }
    if unused:
        raise ValueError(f"{check.name}: resolutions for agreements: {sorted(unused)}")
    return resolved


def table(check: BlindCheck, records: list[dict[str, Any]]) -> str:
    by_class: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_class[record[check.class_field]].append(record)
    rows = [f"| {check.class_field} | n | " + " | ".join(check.questions) + " |",
            "|---|---|" + "---|" * len(check.questions)]
    for name, group in [*sorted(by_class.items()), ("all", records)]:
        cells = [cell([r[q] for r in group]) for q in check.questions]
        rows.append(f"| {name} | {len(group)} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def cell(answers: list[Any]) -> str:
    """Yes/no answers: yes over answered (None: that side had no item); a verdict: the count of each value."""
    if all(answer is None or isinstance(answer, bool) for answer in answers):
        answered = [answer for answer in answers if answer is not None]
        if not answered:
            return "–"
        return f"{sum(answered)}/{len(answered)} ({100 * sum(answered) / len(answered):.0f} %)"
    counts = Counter(str(answer) for answer in answers)
    return ", ".join(f"{value} {count}" for value, count in sorted(counts.items()))


def main() -> None:
    for check in CHECKS:
        if not (HERE / f"{check.name}_judgements_b.jsonl").is_file():
            print(f"## {check.name}: not judged yet\n")
            continue
        records = resolve(check)
        out = HERE / f"{check.name}_judgements.jsonl"
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        disagreements = {q: sum(q in r["disagreed"] for r in records) for q in check.questions}
        print(f"## {check.name}: {len(records)} items; disagreements per question: {disagreements}\n")
        print(table(check, records) + "\n")
        if check.subset_field:
            sample = {s["id"]: s for s in read_jsonl(HERE / f"{check.name}_sample.jsonl")}
            kept = [r for r in records if sample[r["id"]][check.subset_field]]
            print(f"{check.subset_field} only:\n\n{table(check, kept)}\n")


if __name__ == "__main__":
    main()
