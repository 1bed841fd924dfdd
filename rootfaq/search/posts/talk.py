"""What a post says to the forum rather than of the rules: lead-ins ("Quick question:"), checks ("Am I right?"),
thanks and pleas; read as no word of the question."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .asking import ASIDE, CHECK_TAGS, MIN_QUESTION_WORDS, word_count

# Words too common to tell one question from another (`content_words`).
_COMMON_WORDS = frozenset(
    "the and for are but not you your can does did has have was were with what when where which who how why "
    "this that them they their there then than its it's also any all one just get got into out our from "
    "some more about only still could would should will may might must let yes really".split())
# Words that talk to the forum about the post, not of the game ("Appreciate any help.", "Sorry for bad English, not
# a native speaker.", "Couldn't find anything in the FAQ.", "Bump."): a sentence of only these says nothing of the
# rules (`talks_to_the_forum`).
_TALK_WORDS = frozenset(
    "appreciate appreciated help helps helpful know knows think thinks thought thoughts sense makes make hope hoping "
    "english native speaker language mobile formatting format sorry apologies apologize apologise bump bumping "
    "reading insight insights input ideas idea advice tips welcome welcomed great awesome community answer answers "
    "anyone everyone anybody somebody someone thanks thank advance much lot lots cheers couldn couldnt didn didnt "
    "find found anything anywhere faq law root rulebook searched looked posted reddit bgg forum thread "
    "clarify clarification confirm wondering curious confused confusing please pls plz kind bad guys folks all "
    "question questions need needed ask asking friend nvm answered solved resolved "
    "seem seems seemed counterintuitive unintuitive weird odd strange".split())

# Talk words no question of the rules uses ("need", "know" or "find" may ask of the game).
_FORUM_WORDS = frozenset(
    "help question questions thanks thank please pls plz appreciate appreciated sorry bump anyone someone "
    "confused clarify clarification faq reddit bgg forum thread".split())
# What a post says of itself before it asks, at a sentence's start ("Quick question, ...", "Noob question: ...",
# "Sorry if this has been asked before, but ...", "Settle a debate: ...", "Hi all! Long time lurker.", "Does anyone
# know if ...", "Can someone explain ..."): how the player feels about asking, or how they ask, not what they ask.
# Read, "quick", "noob" or "debate" counted as words no ruling holds and halved the certainty of the answer that
# follows.
LEAD_IN = re.compile(
    r"(?:^|(?<=[.!?:]\s)|(?<=\n))(?:(?:"
    r"(?:(?:a|one|another|just a|got a|have a|i have a)\s+)?(?:(?:quick|simple|small|short|dumb|stupid|silly|noob"
    r"|newbie|beginner|basic|easy|probably (?:dumb|obvious|stupid))\s+(?:little\s+)?(?:rules?\s+)?|rules?\s+)"
    r"(?:question|q)s?(?:\s+(?:here|for (?:you all|y'all|you guys|everyone|the experts)))?"
    r"|\[(?:rules?|question|rules question|help|q)\]"
    r"|(?:this|it) (?:might|may|could|will|is going to) (?:be|sound) (?:like )?(?:a )?(?:really |very |super )?"
    r"(?:dumb|stupid|silly|noob|basic|obvious|simple)(?: question)?,? but"
    r"|sorry if (?:this|it) (?:has been|was|is|'s been)? ?(?:already )?(?:asked|answered|covered|discussed)"
    r"(?: (?:before|already|a million times|here))?(?:[,.]? but)?"
    r"|(?:help )?settle an? (?:debate|dispute|argument)(?: for (?:us|me|my group|our group))?"
    r"|i(?:'ve| have)? (?:searched|looked|checked|googled)(?: [\w']+){0,4} (?:but|and) (?:couldn't|could not|can't"
    r"|cannot|didn't|did not) find (?:an answer|anything|it|the answer)(?: anywhere)?"
    r"|(?:hi|hey|hello|greetings)(?: (?:all|everyone|everybody|guys|folks|there|y'all|friends))?(?=\s*[!,.])"
    r"|(?:first[- ]time (?:poster|posting)(?: here)?|long ?time lurker|first post here"
    r"|new (?:player|to (?:the game|root)) here)"
    r"|(?:cross|x)-?posted(?: (?:from|to|on) (?:reddit|bgg|boardgamegeek|discord|r/\w+|the \w+ (?:forum|subreddit)))?"
    # how the player asks, before what they ask ("Does anyone know if ...", "Can someone explain ...")
    r"|(?:(?:does|do) )?(?:anyone|anybody)(?: here)? knows?(?: (?:if|whether))?"
    r"|i(?:'m| am| was)(?: just)? (?:wondering|curious)(?: (?:if|whether))?"
    r"|(?:can|could) (?:someone|anyone|somebody|anybody|you(?: guys| all)?) (?:please )?(?:explain|clarify"
    r"|tell me|help me understand|confirm)(?: (?:this|that|it)(?= ?[?.!]))?(?: (?:to me|for me))?(?: (?:if|whether))?"
    r"|is it true that|just to (?:confirm|clarify|check|be sure)(?=\s*,)|(?:so basically|ok(?:ay)? so|wait)(?=[\s,])"
    r"|i'?m (?:a bit |a little |kind of |kinda |so |very |really )?confused(?= ?[.!])"
    r"|i'?m (?:pretty|fairly|almost|99%) sure (?:the answer is (?:yes|no)|it'?s a (?:yes|no)),? but"
    r"|i'?m (?:new|fairly new|pretty new|still new) to (?:root|the game)"
    r"|(?:sorry|apologies)(?: in advance)? (?:for the (?:long post|wall of text|long read|length|essay|novel)"
    r"|if (?:this|it) is (?:obvious|a (?:dumb|stupid|silly|basic) question|basic|silly|dumb))"
    # what kind of question it is, or a label before it ("Weird one:", "Scenario:", "Ruling needed:")
    r"|(?:a |an |kind of a |bit of a )?(?:weird|odd|strange|tricky|interesting|unusual)(?: edge)? (?:one|situation"
    r"|case|scenario|interaction|question)(?: (?:came up|happened|for you(?: all)?|here))?(?: (?:in|during)"
    r" (?:our|my|a|last night's) (?:game|match|session))?"
    r"|(?:scenario|situation|ruling needed|need(?:ing)? a ruling|rules? clarification(?: needed| please)?)(?=\s*[:.!])"
    r"|hopefully (?:a |an )?(?:simple|easy|quick) one"
    r"|help me understand(?: this(?: one)?)?(?= ?[.!:])"
    r"|(?:question|q)(?: ?\d{1,2})?(?=\s*:)|(?:long story short|in short|short version)(?=\s*[,:.!–-])"
    r"|(?:hm+|um+|uh+)(?=[\s,])"
    r")\s*[,:.!–-]*\s*)+", re.IGNORECASE)


def content_words(text: str) -> Iterator[str]:
    return (w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2 and w not in _COMMON_WORDS)


def talk_taken_out(text: str, sentences: list[str]) -> str:
    """The text without those of its sentences that only talk to the forum, taken out where they stand: one may run
    on from a question typed without its stop ("hand limit is it 5 EDIT: answered, thanks"). The text may be the end
    of a long post: only the last sentences it can hold are looked for, so a huge post costs no more than its end."""
    room = 2 * len(text) + 100  # with room to spare for what reading the sentences changed
    for sentence in reversed(sentences):
        room -= len(sentence) + 1
        if room < 0:
            break
        if talks_to_the_forum(sentence):
            text = text.replace(sentence, "", 1)
    return " ".join(text.split())


SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def without_talk(text: str) -> str:
    """The text without its sentences that only talk to the forum, nor such talk at the end of a sentence typed
    without its stop ("hand limit is it 5 Appreciate any help.")."""
    text = ASIDE.sub(lambda aside: "" if talks_to_the_forum(aside.group()) else aside.group(), text)
    kept = (_without_talking_end(_without_talking_start(s)) for s in SENTENCE_BREAK.split(text)
            if not talks_to_the_forum(s))
    return " ".join(" ".join(kept).split())  # one space where an aside was


# Where a sentence typed without its stop may have ended: a capital straight after a lower-case word or a digit.
_UNSTOPPED_END = re.compile(r"(?<=[a-z0-9])\s+(?=[A-Z][a-z])")


# A plea typed onto a question's end ("... at end of turn pls", "help please!!"): talk, cut off the question.
_PLEA = re.compile(r"(?:[ ,]{1,3}(?:pls|plz|please|bump)\b[.!?]{0,3})+\s*$", re.IGNORECASE)


def _without_talking_end(text: str) -> str:
    """The text without the talk to the forum that ends it after a question typed without its stop, nor a plea
    ("... at end of turn pls")."""
    plea = _PLEA.search(text)
    if plea and word_count(text[: plea.start()]) >= MIN_QUESTION_WORDS:
        text = text[: plea.start()] + ("?" if "?" in plea.group() else "")
    for cut in _UNSTOPPED_END.finditer(text):
        tail = text[cut.end():]  # a sentence of its own, not a name ending the question ("a game of Root?")
        if word_count(text[: cut.start()]) >= MIN_QUESTION_WORDS and word_count(tail) > 1 and \
                talks_to_the_forum(tail):
            return text[: cut.start()]
    return text


def _without_talking_start(text: str) -> str:
    """The text without the talk to the forum that opens it before a question, typed without a stop between them
    (a title "Help with a rule" above the question, sent on one line). The talk ends at a talk word before a
    capital, and takes two such words or one only the forum says ("My friend Marquise ..." is no talk). Before a
    question typed in lower case no cut is sure: "I think anyone can battle" and "I'm really confused about is how"
    read as talk and a question in measured training posts."""
    start, said, forum = 0, 0, False
    left = word_count(text)  # words from this token on: counted once, so a long run of talk costs linear time
    for token in _TOKEN.finditer(text):
        left -= word_count(token.group())
        words = _judged_words(token.group())
        if token.group().endswith("?") or any(w not in _TALK_WORDS and w not in _RULE_WORDS for w in words):
            break
        said += len(words)
        forum = forum or any(word in _FORUM_WORDS for word in words)
        rest = text[token.end():].lstrip()
        opens_anew = rest[:1].isupper() and rest[1:2].islower()  # a capital after no stop: a sentence begins
        owner = token.group().endswith(("'s", "s'"))  # "My friend's Lord of the Hundreds": no end
        if words and opens_anew and not owner and (forum or said >= 2) and left >= MIN_QUESTION_WORDS:
            start = token.end()
    return text[start:].lstrip()


_TOKEN = re.compile(r"\S+")


_INITIALISM = re.compile(r"\b[A-Z]{2,3}\b")
# Words of the game that say nothing of which rule beside talk ("I have a question about the rules.", a title "Help
# with a rule"); alone they are no talk ("(I rule it)").
_RULE_WORDS = frozenset({"rule", "rules", "ruling", "rulings"})


def talks_to_the_forum(sentence: str) -> bool:
    """A sentence of words that speak only of the post and the forum ("Any insight would be great.", "Thanks for
    reading!"): no word of the rules, so it would only dilute the question."""
    if sentence.rstrip().endswith("?"):
        return False
    talk = [word for word in _judged_words(sentence) if word not in _RULE_WORDS]
    return bool(talk) and all(word in _TALK_WORDS for word in talk)


def _judged_words(text: str) -> list[str]:
    """The words that tell talk from the game: content words, and initialisms as words ("WA question." names a
    faction, "Couldn't find it in the FAQ." does not)."""
    return [*content_words(text), *(word.lower() for word in _INITIALISM.findall(text))]


# What a request cut whole leaves after the sentence before it ("... corrected me. Can somebody clarify?").
_LEFT_MARK = re.compile(r"(?:(?<=[.!?])\s+|^)\?+(?=\s|$)")


def unframed(text: str) -> str:
    return _LEFT_MARK.sub("", CHECK_TAGS.sub("", LEAD_IN.sub("", text))).strip()
