"""Query understanding: what a player's question asks, in the corpus's words.

A question goes through: clean-up and length cap -> words -> typo fixes (only for words neither the corpus
nor English knows, never inside paths, numbers or query syntax; a British spelling as the corpus spells it)
-> faction names and nicknames (a suit such as "bird cards" is not a faction) -> player synonyms -> filler
dropped. The result, `Understood`, is what the retrievers and the ranking read. Nothing here ranks.
"""

from __future__ import annotations

import bisect
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..corpus.query_model import NOT_A_FACTION, QueryModel
from ..corpus.records import Record, record_headings
from ..corpus.terms import TermMatcher, words
from .encoder import MAX_TOKENS
from .index import OpenIndex, word_stems
from .posts import Post, read_post

TYPO_CUTOFF = 0.75
ABBREVIATION_MIN_LETTERS = 4  # "hosp" for hospitals; a shorter start ("rec", "dom") begins too many words
COMPOUND_MIN_LETTERS = 6  # a faction's term this long is read whole typed split ("saw mill"); "ed", "wa" are none
MAX_TYPO_EDITS = 2  # a word three edits from every corpus word is a word we do not know ("codebreakers"), not a typo
# British endings and their American spelling, the corpus's (Favor cards, the Armorers): "favour" is the card.
_BRITISH_ENDINGS = [("ise", "ize"), ("ised", "ized"), ("ises", "izes"), ("ising", "izing"), ("isation", "ization"),
                    ("our", "or"), ("ours", "ors"), ("oured", "ored"), ("ouring", "oring"), ("ourer", "orer"),
                    ("ourers", "orers"), ("ourite", "orite"), ("ourites", "orites"), ("ence", "ense"),
                    ("ences", "enses"), ("enceless", "enseless"), ("tre", "ter"), ("tres", "ters")]
# Endings whose removal or British-to-American swap gives the form the English list holds.
_WORD_FORMS = [("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"), ("able", ""),
               *_BRITISH_ENDINGS]
# The sentence encoder reads MAX_TOKENS word pieces; our posts run 3.9 to 4.6 characters a piece, so past
# this many characters the end of a post may fall outside its window (encoder_text).
ENCODER_WINDOW_CHARS = int(MAX_TOKENS * 3.9)
# A faction nickname followed by one of these names a card suit or a card, not the faction.
SUIT_WORDS = frozenset({"card", "cards", "suit", "suits", "clearing", "clearings"})
_SPLIT = re.compile(r"[\s-]+")  # between the two halves of a term typed split
_STRETCHED = re.compile(r"([a-z])\1{2,}")  # a letter typed three times or more in a row
# A chunk of the raw question holding one of these is a path, a number or query syntax: never "fixed".
_NOT_PROSE = re.compile(r"[0-9/\\=<>(){}\[\]|*:;$@#%^&~`_+\"]")
# "I'm on the Eyrie", "playing as the cats", "as the vagabond": the faction the player plays.
_PLAYING = re.compile(
    r"\b(?:i'?m|i am|we'?re|playing|play|playing as|as)\s+(?:on\s+|as\s+|with\s+)?(?:the\s+)?(?P<name>[a-z' -]{2,40})"
)


# "what is X", "how does X work", "X explained", "X what even is it": a question that asks what a named rule is.
# Players stress the frame with a word that asks nothing more: "what does outrage even do", "how exactly does
# field hospitals work".
_STRESS = r"(?:\s+(?:even|actually|exactly|really|just))?"
_WHAT_IS = rf"what{_STRESS}(?:'s|s|\s+is|\s+are|\s+does|\s+do)"
_HOW_DOES = rf"how{_STRESS}\s+(?:does|do|is|are)"
# The longer frames first: "what are the rules for" is a frame of its own, not "what are" and a name "rules for ...".
_NAME_ASKED = re.compile(
    rf"^(?:(?:so\s+)?(?:(?:{_WHAT_IS}\s+(?:the\s+)?)?rules?\s+(?:for|on|of)|what'?s\s+the\s+deal\s+with"
    rf"|{_WHAT_IS}|{_HOW_DOES}|(?:(?:can|could)\s+(?:someone|somebody|anyone|you)\s+)?explain|eli5"
    r"|(?:i'?m\s+|i\s+am\s+)?confused\s+(?:about|by)|tell\s+me\s+about"
    r"|meaning\s+of|define|definition\s+of|help\s+with)\s+)?(?:the\s+|a\s+|an\s+)?"
    r"(?P<name>.+?)"
    rf"(?:{_STRESS}\s+(?:do|does|work|works|mean|means|explained|rules?|ability|action|mean\s+exactly"
    rf"|(?:{_WHAT_IS}|{_HOW_DOES})\s+(?:it|that|this|they|those){_STRESS}(?:\s+(?:do|work|mean))?))?\s*[?.!]*$",
    re.IGNORECASE,
)


def name_asked(question: str) -> str:
    """The name a question asks about, its frame dropped: "what is outrage?" -> "outrage", "how does field
    hospitals work" -> "field hospitals"; anything else is returned as it is (in lower-case words)."""
    match = _NAME_ASKED.match(question.strip())
    return " ".join(words(match["name"] if match else question))


@dataclass
class Understood:
    """What we made of a question."""

    cleaned: str
    content: list[str]  # the words that carry its meaning, typos fixed, filler and faction names dropped
    expansions: list[str]  # rule terms the player's words stand for, and the printed names of factions named
    factions: list[str]  # faction keys the question names: by name, nickname or a term only it has ("sawmill")
    corrections: dict[str, str]
    refs: list[str]  # section numbers inside the question
    known: float = 1.0  # share of the content words the corpus uses (a corrected typo counts in part)
    playing: str | None = None  # the faction the player says they play ("I'm on the Eyrie")
    words: list[str] = field(default_factory=list)  # every word, typos fixed
    names_fan_content: bool = False  # names the fan expansion or one of its maps ("deep woods")
    # For one question of a longer post: the story's words, weighed below the question's.
    context: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class HeadingStems:
    """A record's headings as stems: each heading's number of stems, and which headings hold each stem."""

    sizes: tuple[int, ...]
    by_stem: dict[str, tuple[int, ...]]

    @classmethod
    def of(cls, headings: list[set[str]]) -> HeadingStems:
        by_stem: dict[str, list[int]] = {}
        for number, heading in enumerate(headings):
            for stem in heading:
                by_stem.setdefault(stem, []).append(number)
        return cls(tuple(len(h) for h in headings), {stem: tuple(n) for stem, n in by_stem.items()})


class ProseWord(NamedTuple):
    word: str
    correctable: bool  # may be a typo: not a word of a path, a number or query syntax
    as_name: bool  # capitalised after a lower-case word ("my friend Theo", "right, Hana said"): a name


def prose_words(text: str) -> list[ProseWord]:
    """Each word of the text, lower-case, with what its chunk says of it."""
    found = []
    after_lower = False
    for chunk in text.split():
        correctable = not _NOT_PROSE.search(chunk)
        as_name = after_lower and chunk[:1].isupper() and chunk[1:2].islower()
        found.extend(ProseWord(word, correctable, as_name) for word in words(chunk))
        after_lower = chunk.islower() or chunk.endswith(",")
    return found


# "Is it legal for the cats to ...", "Is it possible to ...": what the encoder reads as "Can the cats ...", "Can you
# ..." (our short checks so put kept their first answers but lost most of their certainty, right and confident
# 18 -> 6 of 53 for "is it legal for"; `docs/levers.md`). Not "Am I allowed to", which kept its certainty (17 of 18).
_MAY_ONE = re.compile(r"^is it (?:legal|allowed|possible|ok|okay|fine|permitted|legit|valid)"
                      r"(?: for ((?:\S+ ){0,5}?\S+))? to (?=[a-z])", re.IGNORECASE)
_SUBJECT_OF = {"me": "I", "us": "we", "him": "he", "her": "she", "them": "they"}


def _asked_plainly(text: str) -> str:
    """A question that asks whether something may be done put as "Can ...", as most questions are."""
    may = _MAY_ONE.match(text)
    if not may:
        return text
    subject = may[1] or "you"
    return f"Can {_SUBJECT_OF.get(subject.lower(), subject)} {text[may.end():]}"


class QueryReader:
    """Reads questions with the query model stored in the index, through lookup structures built once per process.

    `english` loads the English word list (stored with the index) the first time a word looks like a typo.
    """

    def __init__(self, model: QueryModel, english: Callable[[], frozenset[str]] | None = None):
        self.model = model
        self.synonyms = TermMatcher(model.synonyms)
        # a word players type that the vocabulary glosses is theirs, not a typo ("strat" is no "start")
        self.player_words = {term for term in model.synonyms if " " not in term}
        self.abbreviations = model.abbreviations
        self.filler = {f for f in model.filler if " " not in f}
        self.filler_phrases = TermMatcher({f: ["filler"] for f in model.filler if " " in f})
        self.faction_names = TermMatcher(model.faction_names, yielding=frozenset({NOT_A_FACTION}))
        self.fan_terms = TermMatcher({term: ["fan"] for term in model.fan_terms})
        # a faction's distinctive terms name it too ("the keep", "sawmill")
        self.terms_naming = TermMatcher(model.faction_terms)
        # a capitalised typo is corrected only to a word players capitalise as the cards do: a faction's names and
        # terms, and the words the sources capitalise ("Erie" is the Eyrie, "the Decre" the decree, "an Ambuhs card"
        # an Ambush, "at Eening" Evening), never to a common word ("Theo" is no "the")
        named = [name for name, keys in model.faction_names.items() if NOT_A_FACTION not in keys]
        self.name_words = {word for name in [*named, *model.faction_terms, *model.proper_terms] for word in words(name)
                           if word not in self.filler}
        self.counts: dict[str, int] = model.word_counts
        # the factions' one-word terms and names, as players type them split in two ("saw mill", "work shop")
        self.compounds = {term for term in [*model.faction_terms, *model.faction_names]
                          if term.isalpha() and len(term) >= COMPOUND_MIN_LETTERS}
        self._english_loader = english
        self._english: frozenset[str] | None = None
        self._headings: dict[str, HeadingStems] = {}
        self.by_length: dict[int, list[str]] = {}
        for word in self.counts:
            if word.isalpha():
                self.by_length.setdefault(len(word), []).append(word)
        self._alphabetical: list[str] | None = None  # the corpus words in order, sorted the first time one is cut

    def english(self) -> frozenset[str]:
        if self._english is None:
            self._english = self._english_loader() if self._english_loader else frozenset()
        return self._english

    def stems(self, tokens: list[str]) -> set[str]:
        """Stems of the content words (filler dropped)."""
        return {stem for t in tokens if t not in self.filler for stem in word_stems(t)}

    def heading_stems(self, record: Record) -> HeadingStems:
        cached = self._headings.get(record.id)
        if cached is None:
            lines = record_headings(record)
            if record.source == "outsiders" and record.part:
                lines = [f"{record.part} {line}" for line in lines] or [record.part]
            cached = self._headings[record.id] = HeadingStems.of(
                [s for s in (self.stems(words(line)) for line in lines) if s])
        return cached

    def corrected(self, cleaned: str, corrections: dict[str, str]) -> str:
        """The question with its typos fixed, for the sentence encoder (it cannot read "warirors")."""
        if not corrections:
            return cleaned
        # a term typed in two ("saw mill") may be typed with a hyphen too ("saw-mill")
        typed = (re.escape(typo).replace(r"\ ", r"[\s-]+") for typo in corrections)
        pattern = re.compile(r"\b(" + "|".join(typed) + r")\b", re.IGNORECASE)
        return pattern.sub(lambda m: corrections.get(_SPLIT.sub(" ", m.group(1).lower()), m.group(1)), cleaned)

    def correct(self, word: str) -> str | None:
        """What a word is read as: its sure reading (`sure_reading`), else the corpus word a typo most likely
        meant; None for a known word, an English word or no close match."""
        if reading := self.sure_reading(word):
            return reading
        if word in self.filler or word in self.player_words or not word.isalpha() or len(word) < 3:
            return None
        if word in self.counts or self._known_form(word):
            return None
        if stretched := self._unstretched(word):
            return stretched
        if completed := self._completion(word):
            return completed
        if len(word) == 3:  # too short for edit distance: a swapped pair of letters ("teh"), else a letter left out
            known = [s for s in _swapped_pairs(word) if s in self.counts]
            if not known and not (word.endswith("s") and word[:2] in self.counts):  # "AIs", "VPs": plurals
                known = [w for w in _one_letter_more(word) if w in self.counts]
            return max(known, key=lambda s: self.counts[s]) if known else None
        from rapidfuzz.distance import OSA

        closest = self._closest(word)
        if closest and OSA.distance(word, closest) <= 1:
            return closest
        # Two words typed without the space between ("canthe", "fieldhospitals"), unless one letter fixes it.
        return self._two_words(word) or closest

    def _closest(self, word: str) -> str | None:
        """The corpus word a typo most likely meant: within rapidfuzz's OSA similarity TYPO_CUTOFF and
        MAX_TYPO_EDITS edits, of a similar length; None when there is none."""
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        choices = [w for n in (len(word) - 1, len(word), len(word) + 1) for w in self.by_length.get(n, ())]
        best = process.extractOne(word, choices, scorer=OSA.normalized_similarity, score_cutoff=TYPO_CUTOFF)
        if not best or OSA.distance(word, best[0]) > MAX_TYPO_EDITS:
            return None
        # Among equally close words, one two letters typed the wrong way round is the likelier meaning ("thye" is
        # "they", not "the"; "wiat" "wait", not "what"), then the commoner one.
        ties = [c for c in choices if OSA.normalized_similarity(word, c) >= best[1]]
        swapped = _swapped_pairs(word)
        ties = [c for c in ties if c in swapped] or ties
        return max(ties, key=lambda c: self.counts.get(c, 0))

    def _two_words(self, word: str) -> str | None:
        """Two words the corpus holds, typed without the space between them ("canthe" -> "can the", "inruins" ->
        "in ruins"): each of three letters or more, or a two-letter common word beside a longer one; the split
        whose rarer half the corpus uses most."""
        splits = [(word[:i], word[i:]) for i in range(2, len(word) - 1)]
        usable = [(left, right) for left, right in splits
                  if all(half in self.counts for half in (left, right)) and max(len(left), len(right)) >= 3
                  and all(len(half) >= 3 or half in self.filler for half in (left, right))]
        if not usable:
            return None
        left, right = max(usable, key=lambda pair: min(self.counts[half] for half in pair))
        return f"{left} {right}"

    def sure_reading(self, word: str) -> str | None:
        """What a word surely stands for, no typo guessed: the words of a short form players type ("fh" is field
        hospitals, "dom" dominance: `corpus/vocabulary.yaml`), or a British spelling as the corpus spells it."""
        return self.abbreviations.get(word) or self.american_spelling(word)

    def american_spelling(self, word: str) -> str | None:
        """The corpus's spelling of a British one ("favour" -> "favor", "armourers" -> "armorers"), when the corpus
        uses it more often than the British one (it writes "colour" as often as "color": both stay); else None.
        Not a typo fix: the word is right, and read as the corpus spells it even where it looks like a name."""
        seen = self.counts.get(word, 0)
        forms = (word[: -len(end)] + american for end, american in _BRITISH_ENDINGS
                 if word.endswith(end) and len(word) > len(end) + 2)
        return next((form for form in forms if self.counts.get(form, 0) > seen), None)

    def _unstretched(self, word: str) -> str | None:
        """A word typed with a letter held down ("sooo", "pleeease", "whyyy") as the word it stretches, when
        runs of three or more letters cut to two ("sooo" -> "soo") or one ("so") make a known word."""
        if not _STRETCHED.search(word):
            return None
        for held in (r"\1\1", r"\1"):
            short = _STRETCHED.sub(held, word)
            if len(short) > 1 and (short in self.counts or short in self.filler or self._known_form(short)):
                return short  # not a single letter: "BBB" is Better Burrow Bank
        return None

    def _completion(self, word: str) -> str | None:
        """The commonest corpus word a cut-short word begins ("hosp" -> "hospitals", "sympa" -> "sympathy"), as
        phones type them: closer in meaning than the nearest word by spelling ("hop")."""
        if len(word) < ABBREVIATION_MIN_LETTERS:
            return None
        if self._alphabetical is None:
            self._alphabetical = sorted(w for w in self.counts if w.isalpha())
        completions, at = [], bisect.bisect_right(self._alphabetical, word)
        while at < len(self._alphabetical) and self._alphabetical[at].startswith(word):
            completions.append(self._alphabetical[at])
            at += 1
        return max(completions, key=lambda w: self.counts[w], default=None)

    def _known_form(self, word: str) -> bool:
        """An English word, or a form of one the word list leaves out: a plural or past tense ("newts",
        "sleeved") or a British spelling ("realised", "colour") of a word it or the corpus holds."""
        known = self.english()
        if word in known:
            return True
        forms = [word[: -len(end)] + base for end, base in _WORD_FORMS
                 if word.endswith(end) and len(word) > len(end) + 2]
        return any(form in known or form in self.counts for form in forms)

    def understand(self, cleaned: str) -> Understood:
        """Words, typo fixes, factions named, synonyms and filler for one question."""
        fixed, corrections = self.fix_typos(prose_words(cleaned))
        filler_positions = {i for start, end, _ in self.filler_phrases.spans(fixed) for i in range(start, end)}
        named, nickname_positions, expansions = self.factions_named(fixed)
        for start, end, terms in self.synonyms.spans(fixed):
            if not filler_positions.intersection(range(start, end)):  # "at what point" is not about points
                expansions.extend(terms)
        dropped = filler_positions | nickname_positions
        content = [t for i, t in enumerate(fixed) if t not in self.filler and i not in dropped]
        if not content and not named:
            content = [t for t in fixed if t not in self.filler]
        expansions = [e for e in dict.fromkeys(expansions) if e not in content and e not in self.filler]
        known = self.known_share(content, corrections)
        refs_named = self.model.section_numbers().in_query(cleaned)
        return Understood(cleaned, content, expansions, named, corrections, refs_named, known,
                          self.faction_played(" ".join(fixed)), fixed, bool(self.fan_terms.spans(fixed)))

    def understand_in_post(self, question: str, post: Post | None) -> Understood:
        """One question of a post: its own words, with the story's factions, the faction played, and the
        story's words as context (a story names the pieces and cards the question calls "it")."""
        understood = self.understand(question)
        if post is None or not post.story:
            return understood
        around = self.understand(post.story)
        understood.factions += [k for k in around.factions if k not in understood.factions]
        understood.playing = understood.playing or around.playing
        understood.names_fan_content = understood.names_fan_content or around.names_fan_content
        asked = set(understood.content) | set(understood.expansions)
        understood.context = [w for w in dict.fromkeys(around.content + around.expansions) if w not in asked]
        understood.corrections = {**around.corrections, **understood.corrections}
        return understood

    def encoder_text(self, understood: Understood) -> str:
        """What the sentence encoder reads: the question, typos fixed (it cannot read "warirors"), with the
        printed names of the factions it names only by nickname ("wa", "vaga", "birds"). A post
        longer than the encoder's window (its first 256 word pieces) is read with its question sentences
        first, so the window holds what it asks and then as much of the story as fits; else a question at
        the end of a long story would be outside the vector."""
        text = _asked_plainly(self.corrected(understood.cleaned, understood.corrections))
        said = set(words(text))
        spelled = [n for n in (self.model.factions[k].name for k in understood.factions if k in self.model.factions)
                   if not said & {w for w in words(n) if len(w) > 3}]
        names = [f"({', '.join(spelled)})"] if spelled else []
        asked = read_post(text).questions if len(text) > ENCODER_WINDOW_CHARS else []
        return " ".join([*asked, *names, text] if asked else [text, *names])

    def fix_typos(self, tokens: list[ProseWord]) -> tuple[list[str], dict[str, str]]:
        corrections = {}
        fixed = []
        for token, correctable, as_name in self.joined(tokens, corrections):
            # a short form with a digit ("b4") is no typo but still stands for its words
            better = self.correct(token) if correctable else self.abbreviations.get(token)
            if (better and as_name and better not in self.name_words  # "Theo" is no "the", "Erie" is "eyrie"
                    and better != self.sure_reading(token)):  # "Favour of the Foxes" is the Favor card, "FH" hospitals
                better = None
            if better:
                corrections[token] = better
            fixed.extend((better or token).split())  # a short form stands for its words ("fh": field hospitals)
        return fixed, corrections

    def joined(self, tokens: list[ProseWord], corrections: dict[str, str]) -> list[ProseWord]:
        """The tokens with a faction's one-word term typed split in two read as the term ("saw mill" is sawmill,
        "over work" overwork: "mill" and "rage" alone are no rule's words), each join noted in `corrections`."""
        out: list[ProseWord] = []
        at = 0
        while at < len(tokens):
            first, second = tokens[at], tokens[at + 1] if at + 1 < len(tokens) else None
            if second and first.correctable and second.correctable and first.word + second.word in self.compounds:
                corrections[f"{first.word} {second.word}"] = first.word + second.word
                out.append(ProseWord(first.word + second.word, False, False))
                at += 2
            else:
                out.append(first)
                at += 1
        return out

    def factions_named(self, tokens: list[str]) -> tuple[list[str], set[int], list[str]]:
        """(faction keys named, positions of the names, words to search instead)."""
        named: list[str] = []
        positions: set[int] = set()
        expansions: list[str] = []
        for start, end, keys in self.faction_names.spans(tokens):
            keys = [k for k in keys if k != NOT_A_FACTION]
            if not keys or (end < len(tokens) and tokens[end] in SUIT_WORDS):
                continue
            named.extend(k for k in keys if k not in named)
            # A nickname is searched as the faction's printed name; the word itself counts less.
            positions.update(range(start, end))
            expansions.extend(tokens[start:end])
            for key in keys:
                expansions.extend(words(self.model.factions[key].name))
        # A faction's own term names it, the term still searched as itself: "can the eyrie place a roost in the
        # keep clearing" asks of the Marquise's keep too. Not a word already read as a name ("robots" are the bots,
        # though Old Man Tinker's term).
        for start, end, keys in self.terms_naming.spans(tokens):
            if positions.isdisjoint(range(start, end)):
                named.extend(k for k in keys if k not in named)
        return named, positions, expansions

    def faction_played(self, text: str) -> str | None:
        """The faction a player says they play: "I'm on the Eyrie", "playing as the cats"."""
        for match in _PLAYING.finditer(text):
            spans = self.faction_names.spans(words(match["name"]))
            if spans and spans[0][0] == 0:
                keys = [k for k in spans[0][2] if k != NOT_A_FACTION]
                if len(keys) == 1:
                    return keys[0]
        return None

    def known_share(self, content: list[str], corrections: dict[str, str]) -> float:
        """The share of content words the corpus uses. A fixed typo counts in part: a long word one edit
        away is likelier a typo than a short one ("warirors" vs "world" -> "would")."""
        typo_of = {fixed: typo for typo, fixed in corrections.items()
                   if " " not in typo and self.sure_reading(typo) != fixed}  # a term typed split is no typo
        scored = [
            (0.75 if len(typo_of[t]) >= 6 else 0.5) if t in typo_of else 1.0 if t in self.counts else 0.0
            for t in content
        ]
        return sum(scored) / len(scored) if scored else 1.0


def _swapped_pairs(word: str) -> set[str]:
    """The word with two neighbouring letters swapped, each way it can be (a typo of the commonest kind)."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}


def _one_letter_more(word: str) -> list[str]:
    """The word with one letter put in after its first ("crd" -> "card", "wht" -> "what"): a short word typed with
    a letter left out, too short to be found by edit distance among the corpus's words."""
    return [word[:i] + letter + word[i:] for i in range(1, len(word) + 1) for letter in string.ascii_lowercase]


def reader_of(index: OpenIndex) -> QueryReader:
    """The question reader of an index, with its lookup structures, built once per process."""
    if index.derived.query_reader is None:
        index.derived.query_reader = QueryReader(index.library.query_model, index.english_words)
    return index.derived.query_reader
