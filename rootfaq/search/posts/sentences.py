"""A post cut into its sentences and items: lines, sentence ends, numbered, lettered and bulleted items, run-on
sentences, and lines lost when a message was folded onto one line."""

from __future__ import annotations

import bisect
import itertools
import re

from .asking import (
    CHECKS_A_LIST_AT_END,
    CONFIRMS,
    ITEM,
    LETTER,
    MIN_QUESTION_WORDS,
    TABLE_RULES,
    WORD,
    asks,
    asks_in_a_clause,
    word_count,
)
from .plain import printable

RUN_ON_MIN_WORDS = 6  # a run-on sentence is cut before a question only after this many words
TITLE_CASE_MIN_WORDS, TITLE_CASE_SHARE = 4, 0.7  # a line this long, this much of it capitalised, is in Title Case
# Inline item markers in a post flattened onto one line: "1) can ... 2) does ...", "Q1: can ... Q2: does ...",
# "So: - is it ... - can I".
_INLINE_ITEM = re.compile(r"(?:^|(?<=\s))(?:\(?(\d{1,2})(?:[.)]|(?:st|nd|rd|th)[.):])|(\d{1,2})\s+[-–]"
                          r"|(?:q|question|\#)\s*(\d{1,2})[.):]?)\s+(?=[A-Za-z])", re.IGNORECASE)
# The next number of a list typed without its mark, before a question word or verb ("... 3 can birds build ...").
_UNMARKED_ITEM = re.compile(r"(?:^|(?<=\s))(\d{1,2})\s+(?=(?:can|could|does|do|did|is|are|should|must|will|would"
                            r"|how|what|when|where|which|who|why)\b)", re.IGNORECASE)
_INLINE_BULLET = re.compile(r"(?:^|(?<=\s))[-*•]\s+(?=[A-Za-z])")
# Lettered items in a post flattened onto one line: "a) when i buy ... b) lizards can convert ... c) whats ...".
_INLINE_LETTER = re.compile(rf"(?:^|(?<=\s)){LETTER}\s+(?=[A-Za-z])")
_AFTER_STOP = re.compile(r"[.:!?]\s*$")
# A full stop ends a sentence, but not an item number's ("1. can the cats ... 2. does ...") nor an
# abbreviation's that goes on with the sentence ("is hand size public, i.e. must I answer?").
_SENTENCE_END = re.compile(
    r"(?<=[?!])\s+|(?<![\s(]\d[.])(?<!^\d[.])(?<![\s(]\d\d[.])(?<!^\d\d[.])"
    r"(?<![iI][.][eE][.])(?<![eE][.][gG][.])(?<!\b[vV][sS][.])(?<!\b[cC][fF][.])"
    r"(?<=[.])\s+(?=[\"'(#]?[A-Za-z0-9])"
)
# A line break lost when a post was folded onto one line: a word that opens sentences (a question word or verb,
# a pronoun, "Also", "So", "Thanks", a greeting under a title ...) capitalised straight after a lower-case word
# ("... when the vagabond is the attacker Also side question, ..."); not "I", capitalised anywhere, nor a bare check
# of the claim before it.
_LOST_BREAK = re.compile(
    r"(?<=[a-z])\s+(?!(?:Is|Are)\s+(?:all\s+(?:of\s+)?)?(?:that|this|it|these|everything)\s+(?:right|correct|true|ok)\b)"
    r"(?=(?:Can|Could|Does|Do|Did|Is|Are|Was|Were|Should|Must|Will|Would|What|How|When|Where|Which"
    r"|Who|Why|Whether|We|He|She|They|My|Our|It|This|That|Then|Also|And|But|So|Anyway|If|Or|Any|Thanks|Hi|Hey|Hello"
    r"|Greetings)\b(?![-'’]))"
    # or a question counted ("... the turmoil comes anyway Second thing: ..."), not a name after "the" ("used the Last
    # Dynasty to battle")
    r"|(?<=[a-z])(?<!\b[Tt]he)(?<!\b[Aa])(?<!\b[Aa]n)(?<!\b[Mm]y)(?<!\b[Oo]ur)(?<!\b[Hh]is)(?<!\b[Hh]er)(?<!\b[Tt]heir)"
    r"(?<!\b[Yy]our)\s+(?=(?:First|Second|Third|Fourth|Last|Lastly|Finally|Final|Another|Next)\b(?![-'’])(?!\s+[A-Z]))")


def _unfolded(line: str) -> list[str]:
    """A line cut where a line break was lost (_LOST_BREAK); not a line typed in Title Case, where every word
    opens like a sentence ("Can You Play A Dominance Card And Switch To A Coalition?")."""
    typed = [w for w in line.split() if w[:1].isalpha()]
    if len(typed) >= TITLE_CASE_MIN_WORDS and sum(w[0].isupper() for w in typed) > TITLE_CASE_SHARE * len(typed):
        return [line]
    return _LOST_BREAK.split(line)


def sentences_of(raw: str) -> list[tuple[str, int]]:
    """The post's sentences and items in order, each with the number of the line it is on: lines first (a
    line is never joined to the next when it is an item), then sentence ends, then inline numbered or
    bulleted items (a post's numbering counts on across its sentences: "1) ... 2) ...? i counted mine 3) ..."),
    then run-on sentences where a word adds a question."""
    found: list[tuple[str, int]] = []
    raw = _mark_bare_numbers(raw)
    flat = printable(raw)
    counted = _split_items(flat, 0)[1]  # how far the post counts: "So: 1. ..." is an item if a 2 follows
    numbered = 0  # inline item numbers met so far
    lettered = 0 if _letters_list(flat) else None  # inline item letters met so far; None: the post has no list
    request = CONFIRMS.search(flat)  # a request to confirm the claims listed after it
    confirming = bool(request) and len(_INLINE_BULLET.findall(flat, request.end())) >= 2
    asked_to_confirm = False  # the request met so far
    for number, line in enumerate(re.split(r"[\r\n]+", raw)):
        line = printable(line)
        if not line:
            continue
        for piece in (piece for clause in _unfolded(line) for piece in _SENTENCE_END.split(clause)):
            items, numbered = _split_items(piece, numbered, counted)
            if lettered is not None:  # the letters count on across the numbered items and sentences
                lettered_items = []
                for item in items:
                    parts, lettered = _split_letters(item, lettered)
                    lettered_items += parts
                items = lettered_items
            for item in items:
                bullet = _INLINE_BULLET.search(item)
                before_bullets = bullet.start() if bullet else len(item)
                asked_to_confirm = asked_to_confirm or bool(CONFIRMS.search(item, 0, before_bullets))
                found.extend((sentence, number) for part in _split_bullets(item, confirming and asked_to_confirm)
                             for sentence in _split_run_on(part))
    return found


# A number typed bare to open a line ("1 favor of the foxes..." then "2 Sappers when ..."), or in a line when each
# item it opens asks ("1 royal claim do you score it ... 2 can stand and deliver ..."); not a count ("3 cards").
_BARE_NUMBER = re.compile(r"(?:^|(?<=\s))(\d)[ \t]+(?=[A-Za-z])(?!(?:more|less|of|or|x|vp|pts?|points?|cards?|warriors?"
                          r"|hits?|players?|turns?|rounds?)\b)", re.IGNORECASE)
BARE_NUMBERS_MIN = 3  # bare numbers are a list only when they count 1, 2, 3 in order: "1 card, 2 hits" is not
BARE_NUMBERS_LOOSE = 4  # within a line, a list counting this far may hold one item that asks by its number alone
TWO_ITEMS_LAST_WORDS = 25  # of a two-item list's last item, the words read for its asking (the post goes on after it)


def _mark_bare_numbers(raw: str) -> str:
    """Numbers typed bare before their questions, as on a phone, marked as items ("1) favor ..."), when the post
    counts at least BARE_NUMBERS_MIN of them from one, in order, and each opens its line or every item but the
    last asks: in a post sent as one line "had 1 rat warrior ... round 2 ... turn 3" counts as often as a list."""
    starts, expected = [], 1
    for match in _BARE_NUMBER.finditer(raw):
        if int(match.group(1)) == expected:
            starts.append(match)
            expected += 1
    if len(starts) < BARE_NUMBERS_MIN - 1:
        return raw
    opens_lines = all(raw[:m.start()].rstrip(" \t").endswith("\n") or not raw[:m.start()].strip() for m in starts)
    items = [raw[a.end():b.start()] for a, b in itertools.pairwise(starts)]
    if len(starts) < BARE_NUMBERS_MIN:
        # Two numbers are a list only when both items open by asking ("1 can the crows flip ... 2 during
        # exposure if i guess wrong, does it go ..."): "1 cat warrior and 2 workshops" counts.
        rest = raw[starts[-1].end():]
        last = rest[:[*itertools.islice(WORD.finditer(rest), TWO_ITEMS_LAST_WORDS)][-1].end()] if rest else ""
        if not (asks_in_a_clause(items[0]) and asks_in_a_clause(last)):
            return raw
    elif not opens_lines and sum(not asks(item) for item in items) > (len(starts) >= BARE_NUMBERS_LOOSE):
        return raw
    for match in reversed(starts):
        raw = f"{raw[:match.end(1)]}){raw[match.end(1):]}"
    return raw


# In a run-on sentence typed without stops ("... i thought that was sketchy ngl also can the vagabond even buy
# services"), a new question opens at a word that adds one.
_ADDS_ONE_MORE = r"(?<!\band)(?<!\boh)\s(?=(?:and\s+also|oh\s+and|also|plus|btw)\s+"
_RUN_ON_ASK = re.compile(
    _ADDS_ONE_MORE + r"(?:can|could|does|do|did|is|are|was|were"
    r"|should|must|may|will|would|how|what|when|where|which|who|why|whether"
    r"|(?:i\s+)?(?:was\s+)?wonder(?:ed|ing)?\s+(?:if|whether))"
    r"\b(?!['’]))",  # not "he also can't move"
    re.IGNORECASE)


# ... or at such a word before a clause that tells ("... is bird wild there also we did it so ..., thats right?") or
# a topic ("... or what also the Lost Souls pile, do i get ..."), when what it opens asks in the end, a topic by a
# clause of its own ("..., they remove all enemy pieces, also the pawn of Vagabond?" asks on), and what comes before
# it asks too.
_RUN_ON_TELL = re.compile(_ADDS_ONE_MORE + r"(?:(?P<subject>i|we|they|he|she|you)|the|my|our)\b(?!['’]))",
                          re.IGNORECASE)


def _split_run_on(sentence: str) -> list[str]:
    """A sentence cut where "also", "and also", "oh and", "plus" or "btw" opens a question, when both sides are
    long enough to be sentences of their own ("Can the cats build there and also can they recruit?" is one), or
    opens a clause that asks by its end, after a question."""
    cuts = [(*m.span(), True, False) for m in _RUN_ON_ASK.finditer(sentence)]
    asking_at = {start for start, *_ in cuts}  # "also i wondered if" asks: no second reading of the same cut
    cuts += [(*m.span(), False, bool(m.group("subject"))) for m in _RUN_ON_TELL.finditer(sentence)
             if m.start() not in asking_at]
    if not cuts:
        return _cut(sentence, [])
    # Words counted once, by where they start: a post of 50,000 "also can i" is cut in linear time.
    word_starts = [m.start() for m in WORD.finditer(sentence)]
    cuts = sorted(cut for cut in cuts if bisect.bisect_left(word_starts, cut[0]) >= RUN_ON_MIN_WORDS
                  and len(word_starts) - bisect.bisect_left(word_starts, cut[1]) >= MIN_QUESTION_WORDS + 1)
    starts: list[int] = []
    for n, (start, end, asking, subject) in enumerate(cuts):
        if not asking:  # what lies between the cuts either side: each read once, so a huge post costs linear time
            head = sentence[cuts[n - 1][1] if n else 0:start]
            tail = sentence[end:cuts[n + 1][0] if n + 1 < len(cuts) else len(sentence)]
            asking = asks_in_a_clause(head) and (
                asks_in_a_clause(tail) or (subject and tail.rstrip().endswith("?")))
        if asking:
            starts.append(start)
    return _cut(sentence, starts)


# What comes before a number that opens a clause: the text's start, a stop, colon or dash, "so", "and", "questions".
_OPENS_CLAUSE = re.compile(r"(?:^|[.:?!]|\s[-–]|\b(?:so|and|questions?))\s*$", re.IGNORECASE)


def _split_items(text: str, numbered: int, counted: int = 0) -> tuple[list[str], int]:
    """Split at inline item numbers that count on from the post's last one ("1) ... 2) ..."), when the post
    has two (met so far, or `counted` in the whole post); a lone "(2)" in a sentence ("warriors equal to the
    clearings (2) plus an officer") is not an item. Once a list has counted to two, the next number typed
    without its mark opens an item when a question word or verb follows it ("1. can ... 2. does ... 3 can birds
    build ..."). Returns the pieces and how many numbers the post has met."""
    starts, unmarked = [], []
    marked = {match.start(): match for match in _INLINE_ITEM.finditer(text)}
    for match in sorted([*marked.values(), *(m for m in _UNMARKED_ITEM.finditer(text) if m.start() not in marked)],
                        key=lambda m: m.start()):
        if int(next(n for n in match.groups() if n)) == numbered + 1 and (match.start() in marked or numbered >= 2):
            starts.append(match.start())
            numbered += 1
            if match.start() not in marked:
                unmarked.append(match.end(1))
    for at in reversed(unmarked):  # marked as the item it is: "3 can" -> "3) can"
        text = f"{text[:at]}){text[at:]}"
        starts = [start + (start > at) for start in starts]
    if numbered < 2 and starts and counted < 3 and not _OPENS_CLAUSE.search(text[:starts[0]]):
        # the 2 comes later: "So: 1. Can ..." opens a list, "rolled 1." does not; a post counting to 3 is a list
        starts, numbered = [], numbered - 1
    return _cut(text, starts if max(numbered, counted) >= 2 else []), numbered


def _letters_list(flat: str) -> bool:
    """Whether a post's inline letters are a list of questions ("a) when i buy ... b) lizards can convert ..."):
    they count to b at least, and every item but the last asks; in prose ("can I either a) move twice or b)
    battle") they are the choices of one question."""
    pieces, lettered = _split_letters(flat, 0)
    items = pieces[-lettered:] if lettered else []
    return lettered >= 2 and all(asks(ITEM.sub("", item)) for item in items[:-1])


def _split_letters(text: str, lettered: int) -> tuple[list[str], int]:
    """Split at inline item letters that go on from the post's last one ("a) ... b) ... c) ..."). Returns the
    pieces and how many letters the post has met."""
    starts = []
    for match in _INLINE_LETTER.finditer(text):
        if ord(match.group(1).lower()) - ord("a") == lettered:
            starts.append(match.start())
            lettered += 1
    return _cut(text, starts), lettered


def _split_bullets(text: str, confirming: bool = False) -> list[str]:
    """Split at inline bullets that ask ("So: - is it allowed ... - when a card passes ..."), or that a request
    asks to confirm ("want confirmation: - the cats can ... - the vagabond ...", "... Is all of that right?"): two
    or more of them, or one right after a sentence's end or a colon; a dash in prose ("has not been - and cannot
    be - removed") asks nothing and stays."""
    bounds = [*(m.start() for m in _INLINE_BULLET.finditer(text)), len(text)]
    confirming = confirming or len(bounds) > 2 and bool(CHECKS_A_LIST_AT_END.search(text))
    items = {start: piece for start, end in itertools.pairwise(bounds)
             if word_count(piece := _INLINE_BULLET.sub("", text[start:end], count=1)) >= MIN_QUESTION_WORDS}
    asking = [start for start, piece in items.items() if confirming or _bullet_piece_asks(piece)]
    if len(asking) >= 2:  # a list of questions: each of its items is one, though it asks by no word of its own
        asking = list(items)
    else:
        asking = [a for a in asking if a and _AFTER_STOP.search(text[:a])]
    return _cut(text, [_label_start(text, a) for a in asking])


# A card's or an action's name that titles the dashed item after it, left at the end of the item before once a post
# is folded onto one line ("... can I still score the point Royal Claim - when exactly do I score it"): one to four
# capitalised words, after a word that ends a clause (not "the", "of", "with": "I asked the Vagabond - can he").
_LABEL_AT_END = re.compile(r"(?<![\w'’])(?!(?:the|a|an|of|to|in|on|at|for|with|by|from|my|his|her|their|our|your|and|or"
                           r"|but|as|than|that)\s)[a-z0-9'’]+[,;]?\s+([A-Z][\w'’]*(?:\s+(?:(?:of|the|and|in|a|to)\s+)*"
                           r"[A-Z][\w'’]*){0,3}[!?]?)\s*$")
LABEL_WINDOW = 80  # characters before a dash searched for its label


def _label_start(text: str, start: int) -> int:
    """Where the dashed item at `start` begins: before its title when the item before ends with one."""
    window = max(0, start - LABEL_WINDOW)
    label = _LABEL_AT_END.search(text, window, start)
    return label.start(1) if label and word_count(text[window:label.start(1)]) >= MIN_QUESTION_WORDS else start


def _bullet_piece_asks(piece: str) -> bool:
    """An inline bullet's words ask: a question word first, or a "?" at their end ("- he overworked with a mouse
    card, pretty sure that's backwards??"); a bold label before a dash ("**who picks** - when I deal hits ...")
    is too short to be a question of its own."""
    return word_count(piece) >= MIN_QUESTION_WORDS and (piece.rstrip().endswith("?") or asks_in_a_clause(piece))


def _cut(text: str, starts: list[int]) -> list[str]:
    """The non-blank pieces of text cut at the given positions."""
    bounds = [0, *starts, len(text)]
    return [piece for a, b in zip(bounds, bounds[1:], strict=False) if (piece := text[a:b].strip())]


LOST_LINES_MIN_WORDS = 20  # a post this long that asks nothing we can find may be lines folded without stops
# (two questions typed in one breath: "can cats build in ruins and whats the hand limit ...")
LOST_LINES_SENTENCE_WORDS = 35  # so may a sentence this long, when two of its pieces ask
LOST_LINE_MIN_WORDS = 5  # each side of a cut where a line may have begun
# Where a line typed without a stop may have begun, in a post folded onto one line: a topic labelled with a colon
# ("... i think thats illegal rats: the warlord died ..."), "also" and a subject or question word ("... skip him also
# we play 2 player ...", not "the warrior also dies"), a verb before its subject ("... like 6 items does a favor
# card do anything ...", "... and do bots ever play ..."), another question announced ("... and last thing is it
# even worth ...") or the table's own ruling ("... still need boots i said buying a service ..."), each straight
# after a lower-case word.
_ASKING_WORD = r"(?:what|whats|how|why|where)"  # not "who" nor "which", which relate as often as they ask
_ASKED_BY_WORD = (rf"{_ASKING_WORD}\s+(?:is|are|was|does|do|did|can|could|should|will|would|happens|goes|gets|many"
                  r"|much)\b")
_LOST_LINE = re.compile(
    r"(?<=[a-z0-9])\s+(?="
    r"(?:[a-z]+\s+){0,2}[a-z]+:\s"
    r"|also\s+(?:i|we|you|he|she|they|my|our|the|a|an|is|are|can|could|does|do|did|how|what|whats|when|where"
    r"|which|who|why|if)\s"
    r"|(?:and\s+)?(?:can|could|does|do|did|should|will|would)\s+(?:i|we|you|he|she|they|it|bots?|the|a|an"
    r"|my|his|her|their|your|our)\s"
    r"|(?:and\s+)?(?:one\s+more|(?:the\s+)?last|another)\s+(?:thing|question|q)\b"
    rf"|{TABLE_RULES}\s"
    # a question word after "and" ("... build in ruins and whats the hand limit ..."), or before the verb it asks with
    # ("... draw at the start how many cards ...", not "aid someone who is hostile")
    r"|and\s+(?:what|whats|how|who|why|where|which)\s"
    rf"|{_ASKED_BY_WORD}\s)")
# nor after a subject waiting for its verb ("did we | do it right")
_NO_CUT_AFTER = frozenset({"what", "how", "why", "where", "when", "who", "which", "if", "whether", "that", "so", "and",
                           "or", "but", "to", "not", "like", "i", "we", "he", "she", "they"})
# nor before a question word that a verb before it asks about ("who decides | what gets removed", "not sure | how many")
_EMBEDS_A_QUESTION = frozenset({"know", "knows", "sure", "decide", "decides", "decided", "choose", "chooses", "wonder",
                                "wondering", "wondered", "ask", "asking", "asked", "explain", "tell", "remember",
                                "understand", "see", "matter", "matters", "about", "on", "clear", "idea", "figure",
                                "out", "check", "confused", "unclear", "care", "says", "say", "find", "read", "shows"})
_QUESTION_WORD = re.compile(rf"{_ASKING_WORD}\b")


# A condition opening a clause and still open before a place where a line may have begun: the question it conditions
# follows ("... so when i flip it | does it also blow up buildings"), so no line began there; a condition after its
# question ("can we ambush a bot when it attacks us | can the vagabot ...") holds no cut. Heeded when a long sentence
# is cut among questions found; a post that asks nothing we can find is cut at such places still, as its pieces then
# rarely ask apart (our post checks: one question more right so).
_OPEN_CONDITION = re.compile(r"(?:^|[,.;:]\s*|\b(?:so|and|but|then|also|or|plus)\s+)"
                             r"(?:if|when|whenever|once|after|before|while|unless)\b(?![^,;:]*[,;:])"
                             r"(?:\W+\w+){0,8}\W*$", re.IGNORECASE)
OPEN_CONDITION_CHARS = 80  # how far back before a cut a condition is looked for


def long_sentences_cut(found: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """A sentence of LOST_LINES_SENTENCE_WORDS words or more cut where its lines may have begun (`lost_lines`)
    when at least two of its pieces ask: a message typed one question a line without "?" or a stop, folded onto
    one line ("... some stuff we couldnt find can we play ambush cards against the bots can the vagabot form a
    coalition do bots ever buy services ..."). Measured on our post checks (`docs/levers.md`)."""
    cut: list[tuple[str, int]] = []
    for sentence, line in found:
        # the length first: a huge paste of short sentences is not counted word by word again
        long = len(sentence) > 2 * LOST_LINES_SENTENCE_WORDS and word_count(sentence) >= LOST_LINES_SENTENCE_WORDS
        pieces = lost_lines(sentence, heed_open_conditions=True) if long else [sentence]
        if len(pieces) > 1 and sum(asks(piece) for piece in pieces) >= 2:
            cut += [(piece.strip(), line) for piece in pieces]
        else:
            cut.append((sentence, line))
    return cut


def lost_lines(text: str, heed_open_conditions: bool = False) -> list[str]:
    """A folded post cut where its lines may have begun (`_LOST_LINE`), not inside a question ("what does the
    bot do"; with `heed_open_conditions`, nor after a condition still open, `_OPEN_CONDITION`), each piece at
    least LOST_LINE_MIN_WORDS words. Words are found once, so a huge post is cut in linear time."""
    found = list(WORD.finditer(text))
    word_starts = [word.start() for word in found]
    pieces, start, first = [], 0, 0  # the piece being read begins at `start`, its first word is found[first]
    for match in _LOST_LINE.finditer(text):
        before, after = bisect.bisect_left(word_starts, match.start()), bisect.bisect_left(word_starts, match.end())
        word_before = found[before - 1].group(0).lower() if before else ""
        if before - first < LOST_LINE_MIN_WORDS or len(found) - after < LOST_LINE_MIN_WORDS \
                or word_before in _NO_CUT_AFTER \
                or word_before in _EMBEDS_A_QUESTION and _QUESTION_WORD.match(text, match.end()) \
                or heed_open_conditions \
                and _OPEN_CONDITION.search(text, max(start, match.start() - OPEN_CONDITION_CHARS), match.start()):
            continue
        pieces.append(text[start:match.start()])
        start, first = match.end(), after
    return [*pieces, text[start:]]
