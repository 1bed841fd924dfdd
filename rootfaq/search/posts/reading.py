"""A post read: its sentences grouped into questions, each with the sentence that leads into it, and its story."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from ..index import word_stems
from .asking import (
    ANOTHER_QUESTION,
    CHECK_TAGS,
    CHECKS_A_LIST,
    CHECKS_A_LIST_AT_END,
    CONFIRMS,
    ITEM,
    MIN_QUESTION_WORDS,
    UNSETTLED,
    WANTS_TO_BE_SURE,
    WHO_IS_RIGHT,
    asks,
    checks_story,
    follows_on,
    word_count,
)
from .plain import plain_text, printable
from .sentences import LOST_LINES_MIN_WORDS, long_sentences_cut, lost_lines, sentences_of
from .talk import LEAD_IN, SENTENCE_BREAK, content_words, talk_taken_out, talks_to_the_forum, unframed, without_talk

MAX_POST_CHARS = 5000
# A paste longer than this is no post (a whole thread, a file): only its first MAX_READ_CHARS are read, and a
# notice says so. Reading costs about 3 ms per 1,000 characters here, so this bounds a question to well under
# a second; the command line reads no further from a pipe (`yes | rootfaq ask` is answered).
MAX_READ_CHARS = 200_000
MAX_QUESTIONS = 6  # more separate questions than this in one post is a paste, not a question
# A question outside a post's list of questions restates an item when it holds this share of the item's topic
# words, and at least this many of them (`_restating`).
RESTATED_SHARE = 0.6
RESTATED_MIN_WORDS = 2
TITLE_WORDS = 12  # a first line this short, alone on its line, above the post's body, reads as its title
# A reply's subject line ("Re: Eyrie turmoil - lose points for viziers?") is the thread's title, asked by whoever
# opened it: what the reply asks is in its body.
_REPLY_SUBJECT = re.compile(r"^re\s?:", re.IGNORECASE)
# A title glued to the first of a post's questions ("Eyrie questions: can I add two cards to the decree?", "Otters -
# can I buy my own services?"): a few words before a colon or a spaced dash.
_OPENING_TITLE = re.compile(r"([A-Za-z][\w'&/ ]{0,40}?)\s*(?::|\s[-\u2013\u2014]\s)\s*(?=\S)")
OPENING_TITLE_MAX_WORDS = 5

# Asking who is right asks of a dispute, told in two sentences as often as one ("I kept the bird card. My friend said
# birds have to go too. Who's right?"); a check of one claim ("Correct?") asks of the sentence before it alone.
_WHO_IS_RIGHT = re.compile(rf"\b{WHO_IS_RIGHT}\b", re.IGNORECASE)

# Words that tell of the game night and the people at it, not of the game's rules (`_tells_of_the_table`).
_TABLE_WORDS = frozenset(
    "play plays played playing game games last night yesterday tonight today week weekend friend friends group table "
    "first time new player players evening session match fun says said say think thinks agree disagree title question "
    "questions wife husband buddy mate mates kids family box "
    # the table's verdict ("We did not allow it.", "We allowed it.", "We ruled no.")
    "allow allowed disallow disallowed ruled decided".split())


@dataclass
class Post:
    """What a player sent, read: the text searched, the questions in it, the story around them."""

    text: str  # one line, printable, at most MAX_POST_CHARS
    questions: list[str] = field(default_factory=list)  # the sentences that ask, in order
    story: str = ""  # everything else: context (factions played, pieces and cards named)
    notices: list[str] = field(default_factory=list)
    restating: tuple[int, ...] = ()  # the questions (by position) that a later item of the post's list asks again


def _claims_to_confirm(sentences: list[str], lines: list[int]) -> tuple[set[int], set[int]]:
    """The items of a bulleted list that a request asks to confirm, before it ("Couple of things I'm pretty sure
    about, want confirmation:" then "- the cats can overwork anywhere" ...) or after it ("Is all of that right?",
    on its own or at the end of the last item): two or more claims, each a question (a numbered item asks by its
    number already); and the requests, which ask nothing of their own. A sentence after an item on its line is
    that item's ("- he took a card from the lost souls. is that right"), never a request."""
    claims: set[int] = set()
    requests: set[int] = set()
    is_item = [bool(ITEM.match(s)) for s in sentences]
    first_item_of_line: dict[int, int] = {}
    for i in (i for i, item in enumerate(is_item) if item):
        first_item_of_line.setdefault(lines[i], i)

    def in_an_item(i: int) -> bool:
        return first_item_of_line.get(lines[i], i + 1) <= i

    def claimed(items: list[int]) -> set[int]:
        return {i for i in items if word_count(ITEM.sub("", sentences[i])) >= MIN_QUESTION_WORDS}

    request = next((i for i, s in enumerate(sentences) if CONFIRMS.search(s) and not in_an_item(i)), None)
    if request is not None and len(listed := [i for i in range(request + 1, len(sentences)) if is_item[i]]) >= 2:
        requests.add(request)
        claims |= claimed(listed)
    runs = [[i for i, _ in run] for item, run in itertools.groupby(enumerate(is_item), key=lambda pair: pair[1])
            if item]
    for run in (run for run in runs if len(run) >= 2):
        after = run[-1] + 1
        request_after = after < len(sentences) and not in_an_item(after) \
            and word_count(sentences[after]) <= TITLE_WORDS \
            and bool(CONFIRMS.search(sentences[after]) or CHECKS_A_LIST.match(sentences[after]))
        if request_after or CHECKS_A_LIST_AT_END.search(sentences[run[-1]]):
            requests.update([after] if request_after else [])
            claims |= claimed(run)
    return claims, requests


def _list_of_questions(sentences: list[str], asking: list[bool]) -> set[int]:
    """The items of a list at least two of whose items ask (`asking`: each sentence's `asks`): each is a question,
    though it asks by no word of its own ("- if i get ambushed and the ambush kills all my attackers does the battle
    just stop" beside two that do)."""
    is_item = [bool(ITEM.match(s)) for s in sentences]
    listed: set[int] = set()
    for item, run in itertools.groupby(range(len(sentences)), key=lambda i: is_item[i]):
        run = list(run)
        if item and sum(asking[i] for i in run) >= 2:
            listed |= {i for i in run if word_count(ITEM.sub("", sentences[i])) >= MIN_QUESTION_WORDS}
    return listed


def _states_only(sentence: str) -> bool:
    """An item that asks nothing by its own words ("3. Supporters cap: without bases I can only have 5."):
    the question after it is that item's question."""
    return bool(ITEM.match(sentence)) and not asks(ITEM.sub("", sentence))


def _within_item(start: int, sentence: int, items: set[int], last_item: int, lines: list[int]) -> bool:
    """Whether `sentence` still belongs to the numbered or bulleted item begun at sentence `start`: the
    item opens its line and the sentence is on that line, or another item comes after it ("2) How does a
    clearing become settled? Is it when someone builds there? 3) ..."): the numbering, not the question
    marks, tells where the item's question ends. After the last item of a flattened post a sentence may be
    a question of its own, and stays one."""
    if start not in items:
        return False
    opens_line = start == 0 or lines[start - 1] != lines[start]
    return (opens_line and lines[sentence] == lines[start]) or sentence < last_item


def _title_into_question(groups: list[list[int]], sentences: list[str], lines: list[int], items: set[int]) -> None:
    """A post's title line that asks ("Mercs and Eyrie turmoil?", "Bomb went off on a relic, who scores?")
    names what its body's first question asks: it leads that question, not a question of its own without the
    story. Numbered questions after it keep to themselves."""
    if len(groups) < 2 or groups[0] != [0] or lines.count(lines[0]) > 1 or groups[1][0] in items:
        return
    if word_count(sentences[0]) > TITLE_WORDS:
        return
    groups[1].insert(0, 0)
    del groups[0]


def _restating(groups: list[list[int]], sentences: list[str], items: set[int]) -> tuple[int, ...]:
    """Which questions (by position) say again what an item of the post's list of questions asks: a post
    that asks in its story, or in a title, and then lists its questions ("So: 1. ... 2. ...")."""
    listed = [_content_stems(" ".join(sentences[i] for i in group)) for group in groups if group[0] in items]
    if len(listed) < 2:
        return ()

    def restates(group: list[int]) -> bool:
        words = _content_stems(" ".join(sentences[i] for i in group))
        return any(len(item & words) >= RESTATED_MIN_WORDS and len(item & words) >= RESTATED_SHARE * len(item)
                   for item in listed)

    return tuple(n for n, group in enumerate(groups) if group[0] not in items and restates(group))


def _tells_of_the_table(sentence: str) -> bool:
    """A sentence that tells only of the game night or the people at it ("Played a 4p game last night.", "My friend
    says yes, I say no."): no lead into the question after it, which it would only dilute; it stays in the story."""
    return all(word in _TABLE_WORDS for word in content_words(sentence))


def _content_stems(text: str) -> set[str]:
    """The stems of a sentence's words that carry its topic ("ruling", "rule" -> "rule"), as the index stems
    them: enough to see one question said twice."""
    return {stem for word in content_words(text) for stem in word_stems(word)}


def read_post(raw: str) -> Post:
    """The post as search reads it (see the module's docstring)."""
    pasted_too_much = len(raw) > MAX_READ_CHARS
    raw = plain_text(raw[:MAX_READ_CHARS])
    text = printable(raw)
    post = _read_sentences(text, long_sentences_cut(sentences_of(raw)))
    if not post.questions and word_count(text) >= LOST_LINES_MIN_WORDS:
        # Lines typed without stops or "?" and sent folded onto one line: read again cut where lines began. The
        # pieces stay on the one line they came on: a short first piece is no title above them (`_title_into_question`:
        # "can the vagabond slip into a forest and whats the most items ..." asks twice).
        pieces = lost_lines(text)
        again = _read_sentences(text, [(piece, 0) for piece in pieces]) if len(pieces) > 1 else post
        if len(again.questions) > 1:
            post = again
    if pasted_too_much:
        post.notices.insert(0, f"a paste of more than {MAX_READ_CHARS:,} characters: read its first "
                               f"{MAX_READ_CHARS:,}, the rest left out")
    return _titled(_without_framing(post))


def _titled(post: Post) -> Post:
    """A post of several questions whose first opens with a title (`_OPENING_TITLE`): the title is also the story
    of the others, as it names what they are all about ("Eyrie questions: can I add two cards to the decree? what
    happens if I cannot recruit?" asks the second of the Eyrie). The first keeps it among its own words."""
    title = _OPENING_TITLE.match(post.questions[0]) if len(post.questions) > 1 else None
    if title and len(title[1].split()) <= OPENING_TITLE_MAX_WORDS:
        post.story = f"{title[1]}. {post.story}".strip()
    return post


def _without_framing(post: Post) -> Post:
    """The post searched without what it says of itself (`LEAD_IN`) and the checks and requests around its
    questions (`CHECK_TAGS`), once its questions are found: "Quick question:" still marks what follows as a
    question, and "Is that correct?" the claim before it."""
    post.text = unframed(post.text) or post.text
    post.questions = [unframed(q) or q for q in post.questions]
    post.story = unframed(post.story)
    # A sentence that only talks to the forum is neither a question nor its story.
    post.text = without_talk(talk_taken_out(post.text, SENTENCE_BREAK.split(post.story))) or post.text
    post.story = without_talk(post.story)
    return post


def _read_sentences(text: str, found: list[tuple[str, int]]) -> Post:
    """The post read from its sentences and the lines they are on."""
    sentences, lines = [sentence for sentence, _ in found], [line for _, line in found]
    claims, requests = _claims_to_confirm(sentences, lines)
    by_words = [asks(s) for s in sentences]
    claims |= _list_of_questions(sentences, by_words)
    asked_alone = [(by_words[i] or i in claims) and i not in requests and not (i == 0 and _REPLY_SUBJECT.match(s))
                   for i, s in enumerate(sentences)]
    for i in range(len(sentences) - 1, -1, -1):  # from the end: what follows a sentence is settled first
        if not asked_alone[i] and UNSETTLED.search(sentences[i]):
            asked_alone[i] = i + 1 == len(sentences) or not (asked_alone[i + 1] and "?" in sentences[i + 1])
        elif not asked_alone[i] and WANTS_TO_BE_SURE.search(sentences[i]):
            asked_alone[i] = i + 1 == len(sentences) or not asked_alone[i + 1] \
                or bool(ANOTHER_QUESTION.match(sentences[i + 1]))
    checks = any(asked_alone)  # beside the post's other questions, a short check asks with the claim before it
    asking = [i for i, s in enumerate(sentences) if asked_alone[i] or (
        checks and i and i not in requests and checks_story(s)
        and word_count(sentences[i - 1]) >= MIN_QUESTION_WORDS)]
    # A short question is its own question; so is a post that asks nothing we can find.
    if len(sentences) <= 1 or not asking:
        post = _capped(Post(text))
        post.text = talk_taken_out(post.text, sentences) or post.text if len(sentences) > 1 else post.text
        return post
    items = {i for i, s in enumerate(sentences) if ITEM.match(s)}
    last_item = max(items, default=-1)
    groups: list[list[int]] = []  # an asking sentence that follows on from the one before joins it
    for i in asking:
        if groups and groups[-1][-1] == i - 1 and not ITEM.match(sentences[i]) and (
                follows_on(sentences[i], sentences[i - 1]) or _states_only(sentences[i - 1])
                or _within_item(groups[-1][0], i, items, last_item, lines)):
            groups[-1].append(i)
        else:
            groups.append([i])
    # The sentence just before a question leads into it ("The bomb removes all enemy pieces. Does that hit
    # the Vagabond?"): it goes with the question (measured on generated posts' separate questions: top-1
    # 77% with it, 77% without; top-3 93% against 91%).
    # Not a short question that checks the story ("We ruled turmoil. Correct?"): it asks about what came before.
    # Nor one that only talks to the forum ("I have a question about the rules."); such a line asks nothing of its
    # own either (a title "Help with a rule" above the question), where the post asks something else.
    talk = [talks_to_the_forum(s) for s in sentences]
    groups = [group for group in groups if not _asks_nothing(group, sentences, talk)] or groups
    if len(groups) > 1 and _requests_only(groups[-1], sentences):
        groups.pop()  # "... But the app corrected me. Can somebody clarify?": a plea for the whole post
    asked_all = {i for group in groups for i in group}

    def leads_in(before: int) -> bool:
        return before >= 0 and before not in asked_all and not sentences[before].rstrip().endswith("?") \
            and not talk[before]

    checked_again: set[int] = set()  # groups that ask again what the question before them asks
    for n, group in enumerate(groups):
        before = group[0] - 1
        if ITEM.match(sentences[group[0]]) or not leads_in(before):
            continue
        checks = checks_story(sentences[group[0]]) or bool(CHECK_TAGS.fullmatch(sentences[group[0]].strip()))
        if not _tells_of_the_table(sentences[before]):
            # who is right, between the two sides told before the question; not a claim listed as an item, whole
            # on its own, nor a list's introduction
            both = bool(_WHO_IS_RIGHT.search(sentences[group[0]])) and not ITEM.match(sentences[before]) \
                and leads_in(before - 1) and not _tells_of_the_table(sentences[before - 1]) \
                and not sentences[before - 1].rstrip().endswith(":")
            group[:0] = [before - 1, before] if both else [before]
        elif checks and leads_in(before - 1) and not _tells_of_the_table(sentences[before - 1]):
            # A check after the table's verdict ("... wanted to craft a sword for the points. We said no. Right
            # call?") asks of the claim the verdict settled: both go with it.
            group[:0] = [before - 1, before]
        elif checks and n > 0 and n - 1 not in checked_again and groups[n - 1][-1] == before - 1:
            # "Can cats build in ruins? We said no. Correct?": the verdict and its check go with the question they
            # settled, not a question of their own.
            groups[n - 1].extend([before, *group])
            checked_again.add(n)
    groups = [group for n, group in enumerate(groups) if n not in checked_again]
    _title_into_question(groups, sentences, lines, items)
    questions = [" ".join(ITEM.sub("", sentences[i]).strip() for i in group) for group in groups]
    notices = []
    if len(questions) > MAX_QUESTIONS:
        notices.append(f"the post asks {len(questions)} things; read its last {MAX_QUESTIONS}")
        groups, questions = groups[-MAX_QUESTIONS:], questions[-MAX_QUESTIONS:]
    asked = {i for group in groups for i in group}
    story = " ".join(s for i, s in enumerate(sentences) if i not in asked)
    post = Post(text, questions, story, notices, _restating(groups, sentences, items))
    if len(text) > MAX_POST_CHARS:
        if sum(len(q) + 1 for q in questions) > MAX_POST_CHARS:  # "questions" that are pastes, not questions
            share = MAX_POST_CHARS // len(questions) - 1
            post.questions = questions = [_ending(q, share) for q in questions]
            notices.append(f"its question sentences are too long to read whole: read the last {share:,} "
                           "characters of each")
        kept = " ".join(questions)
        room = max(0, MAX_POST_CHARS - len(kept) - 1)
        post.story = story[:room].rsplit(" ", 1)[0] if len(story) > room else story
        post.text = f"{post.story} {kept}".strip()
        post.notices.append(f"a long post ({len(text):,} characters): read its {len(questions)} question "
                            f"sentence(s) and {len(post.story):,} characters of its story")
    return post


def _asks_nothing(group: list[int], sentences: list[str], talk: list[bool]) -> bool:
    """Whether a group of asking sentences asks nothing of the rules: each only talks to the forum, or says nothing
    once its framing goes ("Am I missing something?", "Can somebody clarify?"). Such a check asks with a claim
    before it ("We ruled turmoil. Correct?"), but after talk ("This seems counterintuitive.") or after a question it
    asks nothing more."""
    if all(talk[i] for i in group):
        return True
    if not all(talk[i] or not unframed(sentences[i]).strip(" ?!.,;:") for i in group):
        return False
    before = group[0] - 1
    return before < 0 or talk[before] or sentences[before].rstrip().endswith("?")


# A request to confirm asks about the claim before it, as a check does ("... when a building is removed. Can anyone
# confirm this?").
_CONFIRM_REQUEST = re.compile(r"\bconfirm\b", re.IGNORECASE)


def _requests_only(group: list[int], sentences: list[str]) -> bool:
    """Whether a group only asks for an explanation ("Can somebody clarify?", "Can anyone explain?"): nothing is
    left once its lead-in goes. Unlike a check ("Correct?", "Can anyone confirm?"), it does not ask about the claim
    before it."""
    return all(not LEAD_IN.sub("", sentences[i]).strip(" ?!.,;:") and not _CONFIRM_REQUEST.search(sentences[i])
               for i in group)


def _ending(text: str, limit: int) -> str:
    """The end of a text, at most `limit` characters, from a word's start: a question's ask ends it."""
    if len(text) <= limit:
        return text
    tail = text[-limit:]
    return tail.split(" ", 1)[1] if " " in tail[:100] else tail


def _capped(post: Post) -> Post:
    """A long post with no question found: its end, where players ask, is kept."""
    if len(post.text) > MAX_POST_CHARS:
        cut = _ending(post.text, MAX_POST_CHARS)
        post.notices.append(f"no question found in a long post ({len(post.text):,} characters): "
                            f"read its last {len(cut):,}")
        post.text = cut
    return post
