"""Reading a post: its questions found among the story, so that search reads the question first.

Players put their question after the story ("3p game last night, the cats ... Can I ...?"), ask several
in one post ("1) ... 2) ..."), or ask without a question mark ("not sure if the cats can still overwork
there"). `read_post` keeps the whole post (up to MAX_POST_CHARS; past that, its question sentences and
what stands around them, and a notice saying so; a paste past MAX_READ_CHARS is read up to there) and finds
the sentences that ask something; a title line that asks ("Mercs and Eyrie turmoil?") leads the question
under it. Pure text work: nothing here searches.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from .index import word_stems

MAX_POST_CHARS = 5000
# A paste longer than this is no post (a whole thread, a file): only its first MAX_READ_CHARS are read, and a
# notice says so. Reading costs about 3 ms per 1,000 characters here, so this bounds a question to well under
# a second; the command line reads no further from a pipe (`yes | rootfaq ask` is answered).
MAX_READ_CHARS = 200_000
MAX_QUESTIONS = 6  # more separate questions than this in one post is a paste, not a question
MIN_QUESTION_WORDS = 3
RUN_ON_MIN_WORDS = 6  # a run-on sentence is cut before a question only after this many words
# A question outside a post's list of questions restates an item when it holds this share of the item's topic
# words, and at least this many of them (`_restating`).
RESTATED_SHARE = 0.6
RESTATED_MIN_WORDS = 2
TITLE_WORDS = 12  # a first line this short, alone on its line, above the post's body, reads as its title
SHORT_CASE_WORDS = 8  # a "what if" this short goes on with the question before it (_WHAT_IF)
AND_IF_CASE_WORDS = 10  # an "and if" this short too ("And if I can, does he still score?"); a longer one asks anew
TITLE_CASE_MIN_WORDS, TITLE_CASE_SHARE = 4, 0.7  # a line this long, this much of it capitalised, is in Title Case
SHORT_FOLLOW_ON_WORDS = 5  # an asking sentence shorter than this goes on with the one before it ("And the keep?")
# How players number their questions: "1) ...", "2. ...", "(3) ...", "1st: ...", "2 - ...", "Q1: ...",
# "Question 2: ...", "#3 ...".
_NUMBER = (r"(?:\(?\d{1,2}(?:st|nd|rd|th)?[.):]|\d{1,2}\s+[-–](?=\s+[A-Za-z])"
           r"|(?:q|question)\s*\d{1,2}\s*[.):]|\#\d{1,2}[.):]?)")
# A line or sentence that starts a numbered or bulleted item: the numbers above, "- ...", "• ...", "a) ...".
_LETTER = r"\(?([a-fA-F])\)"  # a lettered item's mark: "a)", "(b)"
_ITEM = re.compile(rf"^\s*(?:{_NUMBER}|[-*•]|{_LETTER})\s+", re.IGNORECASE)
_NUMBERED = re.compile(rf"^\s*(?:{_NUMBER}|{_LETTER})\s+", re.IGNORECASE)  # an item that asks by its number alone
# Inline item markers in a post flattened onto one line: "1) can ... 2) does ...", "Q1: can ... Q2: does ...",
# "So: - is it ... - can I".
_INLINE_ITEM = re.compile(r"(?:^|(?<=\s))(?:\(?(\d{1,2})(?:[.)]|(?:st|nd|rd|th)[.):])|(\d{1,2})\s+[-–]"
                          r"|(?:q|question|\#)\s*(\d{1,2})[.):]?)\s+(?=[A-Za-z])", re.IGNORECASE)
# The next number of a list typed without its mark, before a question word or verb ("... 3 can birds build ...").
_UNMARKED_ITEM = re.compile(r"(?:^|(?<=\s))(\d{1,2})\s+(?=(?:can|could|does|do|did|is|are|should|must|will|would"
                            r"|how|what|when|where|which|who|why)\b)", re.IGNORECASE)
_INLINE_BULLET = re.compile(r"(?:^|(?<=\s))[-*•]\s+(?=[A-Za-z])")
# Lettered items in a post flattened onto one line: "a) when i buy ... b) lizards can convert ... c) whats ...".
_INLINE_LETTER = re.compile(rf"(?:^|(?<=\s)){_LETTER}\s+(?=[A-Za-z])")
_AFTER_STOP = re.compile(r"[.:!?]\s*$")
# A full stop ends a sentence, but not an item number's ("1. can the cats ... 2. does ...") nor an
# abbreviation's that goes on with the sentence ("is hand size public, i.e. must I answer?").
_SENTENCE_END = re.compile(
    r"(?<=[?!])\s+|(?<![\s(]\d[.])(?<!^\d[.])(?<![\s(]\d\d[.])(?<!^\d\d[.])"
    r"(?<![iI][.][eE][.])(?<![eE][.][gG][.])(?<!\b[vV][sS][.])(?<!\b[cC][fF][.])"
    r"(?<=[.])\s+(?=[\"'(#]?[A-Za-z0-9])"
)
# A line break lost when a post was folded onto one line: a word that opens sentences (a question word or verb,
# a pronoun, "Also", "So", "Thanks" ...) capitalised straight after a lower-case word ("... when the vagabond is
# the attacker Also side question, ..."); not "I", capitalised anywhere, nor a bare check of the claim before it.
_LOST_BREAK = re.compile(
    r"(?<=[a-z])\s+(?!(?:Is|Are)\s+(?:all\s+(?:of\s+)?)?(?:that|this|it|these|everything)\s+(?:right|correct|true|ok)\b)"
    r"(?=(?:Can|Could|Does|Do|Did|Is|Are|Was|Were|Should|Must|Will|Would|What|How|When|Where|Which"
    r"|Who|Why|We|He|She|They|My|Our|It|This|That|Then|Also|And|But|So|Anyway|If|Or|Any|Thanks)\b(?![-'’]))")


def _unfolded(line: str) -> list[str]:
    """A line cut where a line break was lost (_LOST_BREAK); not a line typed in Title Case, where every word
    opens like a sentence ("Can You Play A Dominance Card And Switch To A Coalition?")."""
    typed = [w for w in line.split() if w[:1].isalpha()]
    if len(typed) >= TITLE_CASE_MIN_WORDS and sum(w[0].isupper() for w in typed) > TITLE_CASE_SHARE * len(typed):
        return [line]
    return _LOST_BREAK.split(line)


# Sentences that ask without a question mark.
_ASKING_START = re.compile(
    # "So basically, does ...", "oh and can ..."
    r"^(?:(?:so|and|but|also|plus|oh|btw|ok\s+so|ok|okay|basically|anyway|well|now)[:,]?\s+){0,2}"
    r"(?:can|could|does|do|did|is|are|was|were|should|must|may|will|would|how|what|whats|when|where|which|who|why"
    r"|whether)\b"
    r"(?!\s+(?:i|we)\s+(?:think|guess|thought)\b)"
    r"(?!(?<=what)\s+an?\b)",  # "what a mess", "What a game that was": an exclamation
    re.IGNORECASE,
)
_ASKING_PHRASE = re.compile(
    r"\b(?:my question is|the question is|wondering (?:if|whether|how|what|about)"
    r"|(?:i )?wonder(?:ed)? (?:if|whether)|curious (?:if|whether)"  # not "curious what the official answer is"
    r"|(?:not|wasn't|weren't|isn't|aren't) sure (?:if|whether|how|what)|unsure (?:if|whether)"
    r"|not (?:clear|obvious)(?: to (?:me|us))? (?:if|whether|how|what|who|which)"
    r"|(?:trying|tried) to (?:figure|work) out (?:if|whether|how|what|who|which)"
    # a belief put up for checking: "pretty sure he can just decline it, but correct me if I'm wrong"
    r"|correct me if|(?:want|need|like|looking for) (?:some |a )?confirmation|(?:can|could) (?:someone|anyone) confirm"
    r"|(?:like|want) (?:someone|somebody|anyone)(?: [\w']+){0,6} to confirm"
    r"|no idea (?:if|whether|how)|(?:didn't|did not|don't) know (?:if|whether)|i'?m guessing|does anyone know"
    r"|(?:wants?|wanted|likes?|love|needs?|grateful) to know (?:if|whether|the (?:correct|right|official)\b)"
    r"|need (?:some )?clarification (?:on|about)"
    r"|please (?:explain|clarify)|help me understand"
    r"|anyone know|can someone (?:explain|clarify|tell)|is it legal|is that legal|is this legal"
    r"|is that right|is that how|am i (?:right|wrong)|are we (?:right|wrong)"
    r"|did we (?:play|do) (?:it|that|this) (?:right|wrong)"
    r"|i'?m not convinced|who is right|who'?s right|which (?:is|one is) (?:right|correct)"
    # the question before asked again of something else: "Similar question for the WA and losing officers."
    r"|^(?:(?:and|also)[:,]?\s+)?(?:the )?(?:same|similar) (?:question|doubt|thing) (?:for|about|with|regarding)\b"
    # a question tagged on after a comma: "same goes for the hand size, is that hidden or not"
    r"|,\s+(?:is|are|does|do|can|could|should|was|were|did)\s+(?:that|this|it|they|i|we|you|he|she)\b)",
    re.IGNORECASE,
)
# What a table could not settle ("we couldnt agree whether ...", "nobody knew whether that was allowed") asks, unless a
# question with its "?" follows it, of which it tells the story ("... and nobody knew if he scores. Does the Vagabond
# get points for removing warriors?"); "we argued whether ..." always tells.
_UNSETTLED = re.compile(r"\b(?:(?:couldn'?t|could not|can'?t|cannot|didn'?t|did not) agree (?:on )?(?:if|whether)"
                        r"|(?:nobody|no one|none of us) (?:knew|knows|was sure|could tell) (?:if|whether))\b",
                        re.IGNORECASE)
# Wanting to be sure of the dispute just told ("I think he is right, but I would like to be sure") asks it, unless
# the question itself comes next ("We went with mine but I want to be sure. does losing a tunnel count ...").
_WANTS_TO_BE_SURE = re.compile(r"\b(?:want|like|need) to be (?:sure|certain)\b"
                               # or doubting it now ("We let it through but now I'm doubting it.")
                               r"|\b(?:i'?m|i am|we'?re|we are) (?:now |starting to |kind of |kinda )?(?:doubting"
                               r"|second[- ]guessing|having (?:second thoughts|doubts))\b"
                               # or asking it, with nothing more to say: "I think is true but I want to ask."
                               r"|\b(?:want|wanted|would like|'d like) to ask(?: (?:you|you all|here|to be sure))?\W*$",
                               re.IGNORECASE)
# A sentence that opens another question ("And last thing, ...", "Also, ...", "Secondly, ..."): what comes before it is
# not its lead-in.
_ANOTHER_QUESTION = re.compile(r"^(?:and\s+|oh\s+)?(?:also|another|lastly|finally|secondly|thirdly|one more"
                               r"|(?:the\s+)?(?:last|other|second|third|next)\s+(?:thing|question|one))\b",
                               re.IGNORECASE)
# A verb before its subject asks, wherever it comes in a sentence typed without "?" ("warriors in the burrow can
# they be attacked", "who does the vaga pick"); not "so do I" or "neither can the cats", which agree; so does a
# check tagged on ("is that legal").
_INVERTED = re.compile(r"(?<!\bso )(?<!\bneither )(?<!\bnor )"
                       r"\b(?:(?:can|could|does|do|did|should|must|will|would|are|were)\s+(?:i|we|you|he|she|they)\b(?!['’])"
                       # or a modal before a named subject: "quick one for lizard players can the cult score gardens"
                       r"|(?:can|could|should|must)\s+(?:the|a|an|my|his|her|their|your|our)\s+[a-z]+\s+[a-z]+)"
                       # a question word and its verb before the subject within a clause: "... tied for lowest who does
                       # the vaga pick"
                       r"|\b(?:who|what|which|where|how|when)\s+(?:does|do|did|can|could|should|will)\s+"
                       r"(?:the|a|an|i|we|you|he|she|they|it|my|his|her|their|your|our)\b"
                       # and the checks players tag on: "... in a fox clearing is that even legal"
                       r"|\bis\s+(?:that|this|it)\s+(?:even\s+|really\s+|actually\s+)?(?:legal|allowed|right|true|correct"
                       r"|possible|a thing)\b", re.IGNORECASE)
# A request to confirm a list of claims ("Couple of things I'm pretty sure about but want confirmation: - ... - ..."):
# each claim of the list after it is a question, though none asks by its words.
_CONFIRMS = re.compile(
    r"\b(?:confirm(?:ation|ed)?|correct me|sanity[- ]?check|double[- ]?check|verify"
    r"|check (?:these|this|that|my|if|whether)|am i (?:right|wrong|correct)|are (?:these|those|we) (?:right|correct)"
    r"|(?:let me know|tell me) if"
    # doubting each claim the list makes: "The Marquise player tried three things and I'm not sure about any of them:"
    r"|(?:not|n't) (?:sure|certain) (?:about|of) (?:(?:any|all|each|either|both|some) of )?(?:them|these|those"
    r"|the following)|unsure (?:about|of) (?:(?:any|all|each|either|both|some) of )?(?:them|these|those))\b",
    re.IGNORECASE)
# A short check after a list of claims ("Is all of that right?", "Correct?", "Right?").
_CHECKS_A_LIST = re.compile(r"^(?:(?:so|and|is|are|was)\s+)?(?:(?:that|this|all|all of|everything|any of|these"
                            r"|those)\s+)*(?:that\s+|this\s+|it\s+)?(?:right|correct|true|legit|accurate|ok)\W*$",
                            re.IGNORECASE)
# The same check at the end of a list flattened onto one line ("- ... - bird cards pay for outrage Is all of that
# right?").
_CHECKS_A_LIST_AT_END = re.compile(
    r"\b(?:(?:is|are)\s+(?:all\s+(?:of\s+)?)?(?:that|this|these|those|everything)\s+(?:all\s+)?(?:right|correct|true"
    r"|accurate)|am i (?:right|wrong|correct)(?:\s+(?:on|about)\s+(?:all|any|these|those|this)(?:\s+\w+){0,3})?)\W*$",
    re.IGNORECASE)
# A reply's subject line ("Re: Eyrie turmoil - lose points for viziers?") is the thread's title, asked by whoever
# opened it: what the reply asks is in its body.
_REPLY_SUBJECT = re.compile(r"^re\s?:", re.IGNORECASE)
# "Question:" asks when what follows it does ("Quick question: if he is hostile, ..."); before a statement it
# titles a story ("Eyrie Emigre question: crafted it as lizards."), whose question comes after.
_QUESTION_LABEL = re.compile(r"\bquestions?\s*:\s*", re.IGNORECASE)
# A short label before a colon, or a card's name before a dash ("Favor of the mice - does it remove the pawn").
_SHORT_LABEL = re.compile(r"^[^:?]{1,40}(?::|\s[-–])\s+")
# "When ..., <a statement>." tells what happens, ending in a full stop with no question after its comma ("When my
# building is removed in battle, the attacker scores."); "when the WA loses a base what do they discard" asks.
_TELLS_WHEN = re.compile(
    r"^(?:(?:so|and|but)\s+)?when\b[^,?]{1,200},\s+(?!(?:so\s+)?(?:what|how|which|who|where|why|when|can|could|does|do|did|is"
    r"|are|was|were|should|must|may|will|would)\b)[^?]{1,400}[.!]$",
    re.IGNORECASE,
)
# Asks for opinions or help, never about the rules ("Thoughts?", "Any tips?", "Any help appreciated?").
_ASKS_FOR_OPINIONS = (r"thoughts|ideas|help|advice|tips|suggestions|opinions|input|anyone|thanks|thx|ty|lol|ok|okay"
                      r"|what do you think|what do you guys think|does that make sense|make sense|any help appreciated"
                      r"|(?:are there )?(?:any )?(?:rules? lawyers|experts)(?: (?:here|around|out there))?"
                      r"|(?:can|could) (?:someone|anyone|somebody|anybody|you guys) help(?: me| us)?(?: out)?"
                      r"(?: here)?")
_OPINION_ASKS = re.compile(rf"^(?:any\s+)?(?:{_ASKS_FOR_OPINIONS})\W*$", re.IGNORECASE)
# Asking sentences that ask nothing about the rules on their own: those, and a bare check ("Right?", "Am I crazy?"),
# which asks only with the claim before it (`checks_story`).
_EMPTY_ASKS = re.compile(rf"^(?:any\s+)?(?:{_ASKS_FOR_OPINIONS}|right|or not|am i crazy)\W*$", re.IGNORECASE)


_ASIDE = re.compile(r"\([^()]*\)|\([^()]*$")  # an aside, or one still open where a "?" ended the sentence
_FOLLOW_ON = re.compile(
    r"^(?:or|and what if|and then|like|if so|if not|is that|is this|does that|does this|would that"
    r"|or does|or do|or is|or can|what happens then|then what|and then what|what then"
    r"|for example|for instance"  # the question before, put as a case ("For example, always cats starts?")
    r"|(?:i'?m |i am |i )?ask(?:ing)? (?:because|since|as)|the reason i ask)\b",  # why the question before asks
    re.IGNORECASE,
)
_AND_IF = re.compile(r"^and if\b", re.IGNORECASE)  # "And if I can, does he still score?": a case of the question before
# A question left open ("..., what happens?") and one that offers its answers ("Is the card discarded, or ...?").
_OPEN_QUESTION_END = re.compile(r"\bwhat (?:happens|then|now|do (?:i|you|we|they) do)\s*\?+\s*$", re.IGNORECASE)
# "What if they don't have one?": a short case put to the question before, its subject a pronoun for what that
# question names.
_WHAT_IF = re.compile(r"^(?:what|how) about if\b|^what if (?:they|he|she|it|i|we|you|there|that|this)\b", re.IGNORECASE)
_OFFERS_ANSWERS = re.compile(r"^(?:is|are|does|do|did|can|should|must|will|would)\b[^?]*,?\s\bor\b", re.IGNORECASE)
# Words too common to tell one question from another (`_content_stems`).
_COMMON_WORDS = frozenset(
    "the and for are but not you your can does did has have was were with what when where which who how why "
    "this that them they their there then than its it's also any all one just get got into out our from "
    "some more about only still could would should will may might must let yes really".split())

# Words that tell of the game night and the people at it, not of the game's rules (`_tells_of_the_table`).
_TABLE_WORDS = frozenset(
    "play plays played playing game games last night yesterday tonight today week weekend friend friends group table "
    "first time new player players evening session match fun says said say think thinks agree disagree title question "
    "questions wife husband buddy mate mates kids family box "
    # the table's verdict ("We did not allow it.", "We allowed it.", "We ruled no.")
    "allow allowed disallow disallowed ruled decided".split())
# Words that talk to the forum about the post, not of the game ("Appreciate any help.", "Sorry for bad English, not
# a native speaker.", "Couldn't find anything in the FAQ.", "Bump."): a sentence of only these says nothing of the
# rules (`_talks_to_the_forum`).
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

# Forum markup (BGG's BBCode, Reddit's Markdown): its tags, links and emphasis are not the player's words,
# yet they would count against how much of the question the corpus knows. Their words are kept. Every span
# is bounded, so no input makes a pattern scan back and forth (a post of 200,000 "**" is read in a blink).
_MARKUP = [
    (re.compile(r"\[img\][^\[\]\n]{0,500}\[/img\]|\[imageid=[^\]\n]{0,200}\]", re.IGNORECASE), ""),
    (re.compile(r"\[/?(?:b|i|u|s|o|c|q|quote|size|color|url|thing|user|center|floatleft|floatright|spoiler|code|-)"
                r"(?:=[^\]\n]{0,200})?\]", re.IGNORECASE), ""),
    (re.compile(r"\[([^\]\n]{1,200})\]\((?:https?://|www\.|/)[^)\s]{0,500}\)"), r"\1"),  # [this thread](https://...)
    # a link with its label ("Related thread: https://...", "(pic: https://...)"): the label alone had read as a
    # sentence of the post, and an aside emptied of its link as words
    (re.compile(r"(?:\b[A-Za-z]{1,12}(?: [A-Za-z]{1,12})?:[ \t]{0,5})?(?:https?://|www\.)[^\s\])]{1,500}"), ""),
    (re.compile(r"\([ \t]{0,20}\)|\[[ \t]{0,20}\]"), ""),
    (re.compile(r"(\*\*|__|~~)(?=\S)([^\n]{1,300}?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]{1,300}?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_\n]{1,300}?)(?<=\S)_(?!\w)"),
     lambda m: m.group(1) or m.group(2)),
    (re.compile(r"`([^`\n]{1,300})`"), r"\1"),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!>~|])"), r"\1"),  # Markdown's escapes: "\*" is a star
    (re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE), ""),  # a quoted line's marks
    # a quote's header as copied text ("Quote: Originally posted by name", "name wrote:") and a phone's signature
    (re.compile(r"\b(?:quote:\s*)?originally posted by\s+\S{1,40}|(?:^|(?<=\s))[\w.-]{1,40}\s{1,5}wrote:"
                r"|\bsent from my (?:[\w-]{1,20} ){1,3}using tapatalk"
                r"|\bsent from my (?:iphone|ipad|ipod|android|phone|smartphone|mobile|tablet|galaxy|pixel|samsung"
                r"|kindle)(?: (?!using\b)[\w-]{1,12}){0,2}", re.IGNORECASE), ""),
    # a sign-off that ends a post after its words ("Thanks in advance, Sam", "Cheers!", "TIA"): no word of its question
    (re.compile(r"(?<=[\s.!?])(?:(?:thanks|thank you|thx)(?: (?:in advance|all|everyone|guys|so much|a lot))?|tia"
                r"|cheers|regards)\W{0,3}(?:\s{1,5}[A-Z][\w.-]{0,20})?[\s\W]{0,8}\Z"
                r"|(?<=[\w.!?)])\s{1,5}[-~\u2013\u2014]{1,2} ?(?-i:[A-Z][a-z]{1,15})\s{0,5}\Z", re.IGNORECASE), ""),
    # forum and chat conventions: "@name", "u/name", "r/rootgame", "#rootgame", "TL;DR:", "EDIT 2:", a pasted chat's
    # "[8:14 PM]"
    (re.compile(r"(?<![\w/])(?:@\w{1,40}|/?[ur]/\w{1,40})|(?<![\w&#])#[A-Za-z]\w{1,40}|\btl;? ?dr\b:?"
                r"|\[\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\]", re.IGNORECASE), ""),
    # an edit's note of its own form ("Edit: typo"), else just its label ("EDIT 2:", "ETA:"): what follows is a line
    # of its own, though the post was typed without a stop before it
    (re.compile(r"\b(?:edit|update|eta)(?: ?\d)?:(?:\s{0,5}(?:fixed |fixing )?(?:a |the |some )?(?:typos?"
                r"|formatting|spelling|grammar|clarity|wording)(?![\w ]{0,3}\w)[.!]?)?", re.IGNORECASE), "\n"),
    # a typed face (":)", ";-P", "XD", "^^"): its ")" had opened no aside, its ":" or ";" had cut a sentence, and it
    # had read as a sentence of story after the question. Eyes only from ":;=", after a space or a stop, so "4.3.2:",
    # "8)" and "<3" (fewer than three) stay.
    (re.compile(r"(?<![\w:;=)(])(?:[:;=][-'^o]?[()\[\]DPpOo/\\|3*]{1,3}|[xX]D{1,3}|\^_?\^|-_-|[oO]_[oO]|T_T)"
                r"(?![\w()])"), ""),
]


# A phone's typographic apostrophes and quotes as typed on a keyboard: "doesn’t" had read as "doesn" and "t".
_TYPED_PUNCTUATION = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "\u201c": '"',
                                    "\u201d": '"', "\u201e": '"', "\u2033": '"'})
# Shorthand written with symbols, which the word reader cannot see: "w/ marquise", "w/o ruling", "b/c", "cats &
# birds" (a spaced "&" also hid an "and can I ..." that asks anew).
_SYMBOL_SHORTHAND = [
    (re.compile(r"(?<![\w/])w/o(?![\w/])", re.IGNORECASE), "without"),
    (re.compile(r"(?<![\w/])b/c(?![\w/])", re.IGNORECASE), "because"),
    (re.compile(r"(?<![\w/])w/(?:\s+|(?=[A-Za-z]))", re.IGNORECASE), "with "),
    (re.compile(r"(?<=\s)&(?=\s)"), "and"),
]
# The sources cited ("according to the LRR, ...", "per the rulebook", "checked the Law of Root: ..."): where the
# player looked, not what they ask. Read, they pulled the question toward the Law's own records and its meaning
# away from the ruling's. A section number stays ("per LRR 4.3.2"); so does a bare "the Law", which a question of
# precedence asks about ("does the card or the Law win?").
_CITED_SOURCE = re.compile(
    r"(?:\b(?:according to|as per|per|in|from|checked|check|see)\s+)?(?:the\s+)?\b(?:LRR|LtP)\b"
    r"(?:\s+(?:says|said|states))?\s?[,:]?"
    r"|\b(?:according to|as per|per|in|from|checked|check)\s+the\s+(?:Law of Root|rule ?book|rules reference"
    r"|learning to play guide)\b(?:\s+(?:says|said|states))?\s?[,:]?"
    r"|\b(?:according to|as per|per)\s+the\s+(?:Law|rules|FAQ)\b\s?[,:]?"
    r"|\bthe\s+(?:Law of Root|rule ?book|rules reference)\s+(?:says|said|states)\b", re.IGNORECASE)
# What a post says of itself before it asks, at a sentence's start ("Quick question, ...", "Noob question: ...",
# "Sorry if this has been asked before, but ...", "Settle a debate: ...", "Hi all! Long time lurker.", "Does anyone
# know if ...", "Can someone explain ..."): how the player feels about asking, or how they ask, not what they ask.
# Read, "quick", "noob" or "debate" counted as words no ruling holds and halved the certainty of the answer that
# follows.
_LEAD_IN = re.compile(
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
# A check put after a question or a claim ("Am I reading this right?", "Or am I missing something?", "Is that
# correct?"), or at a question's end (", or am I wrong?"), and a request for opinions or help ("Thoughts?", "Any
# help appreciated."): they ask only whether what came before holds, or for an answer at all, and their words
# ("reading", "missing", "right", "help") are no rule's; left in the story, they made a bare question look told. As a
# sentence a check asks with the one before it (`follows_on`); once the post's questions are found both are dropped
# (`_without_framing`).
_CHECK_TAG = (r"(?:or\s+|so\s+|and\s+)?(?:"
              r"(?:am i|are we|did (?:i|we)) (?:reading|understanding|interpreting|playing|doing|seeing|getting)"
              r" (?:this|that|it|these|those|the (?:rules?|card|text|rule))(?: \w+){0,2}? (?:right|correctly|correct"
              r"|wrong|wrongly|properly)"
              r"|(?:am i|are we) (?:missing|overlooking|forgetting) (?:something|anything)(?: (?:here|obvious))?"
              r"|am i (?:right|wrong|correct|crazy)(?: (?:here|in this|about this|on this))?"
              r"|(?:is|was) (?:that|this|my (?:reading|understanding|interpretation)(?: \w+){0,3}?) (?:right|correct"
              r"|accurate)"
              r"|did (?:we|i) (?:play|do|get|read) (?:it|this|that) (?:right|correctly|wrong)"
              r"|(?:(?:was|is) (?:that|this|it) )?(?:the |a )?(?:right|correct|good|fair) (?:call|ruling)"
              r"|or not|right|correct)")
_CHECK_TAGS = re.compile(
    rf"(?:(?<=[.!?])\s+|^|\s+(?=(?-i:[A-Z][a-z])))(?:{_CHECK_TAG}\s*\?+|(?:any\s+)?(?:{_ASKS_FOR_OPINIONS})\s*[?!.]+)(?=\s|$)"
    rf"|,?\s+(?=or\s){_CHECK_TAG}(?=\s*\?)", re.IGNORECASE)
# A sentence run on to the next without a space, as phones send them ("last night.can cats", "ruins?and can"):
# a stop after a word of two letters or more, or a "?" or "!", then a letter ("r.s.i", "e.g.", 4.3.2 and a site's
# name, "boardgamegeek.com", stay whole).
_RUN_ON_STOP = re.compile(r"(?<=[a-z]{2}\.)(?=[A-Za-z])(?!(?:com|org|net|io|gg|co|uk|de|fr|wiki|pdf)\b)"
                          r"|(?<=[?!])(?=[A-Za-z])")


def plain_text(raw: str) -> str:
    """A post without its forum markup: entities decoded, BBCode tags, Markdown emphasis and link targets,
    quote marks and symbols such as emoji dropped, and what a forum adds around a post copied as text (a
    quote's header, a phone's signature, a closing sign-off); its lines and the player's words kept, with
    typographic apostrophes and quotes as plain ones, letters without their accents, shorthand written with
    symbols as its words ("w/o" is "without"), a source cited ("according to the LRR,") dropped, and a space
    after a stop that runs on into the next sentence."""
    if "&" in raw:
        import html  # its table of entities costs a cold start 1 ms; few questions hold an "&"

        raw = html.unescape(raw)
    raw = raw.translate(_TYPED_PUNCTUATION)  # after the entities: "&rsquo;" is one
    if not raw.isascii():  # accents off ("Émigré" was read "migr"), compatibility forms plain ("…" is "...")
        raw = "".join(ch for ch in unicodedata.normalize("NFKD", raw) if not unicodedata.combining(ch))
    # In this order: the shorthand after the links are gone ("/w/o" in an address stays).
    for pattern, replacement in (*_MARKUP, *_SYMBOL_SHORTHAND, (_CITED_SOURCE, "")):
        raw = pattern.sub(replacement, raw)
    raw = _RUN_ON_STOP.sub(" ", raw)  # after the links are gone: "boardgamegeek.com" is no run-on sentence
    if raw.isascii():  # no symbol (So) nor surrogate (Cs) is ASCII; a character at a time is slow on a long paste
        return raw
    return "".join(ch for ch in raw if unicodedata.category(ch) not in ("So", "Cs"))


_ASCII_CONTROLS_AS_SPACES = str.maketrans({chr(code): " " for code in (*range(32), 127)})


@dataclass
class Post:
    """What a player sent, read: the text searched, the questions in it, the story around them."""

    text: str  # one line, printable, at most MAX_POST_CHARS
    questions: list[str] = field(default_factory=list)  # the sentences that ask, in order
    story: str = ""  # everything else: context (factions played, pieces and cards named)
    notices: list[str] = field(default_factory=list)
    restating: tuple[int, ...] = ()  # the questions (by position) that a later item of the post's list asks again


def printable(text: str) -> str:
    """One line, control characters (newlines too) as spaces, white space folded."""
    if text.isascii():  # ASCII's control characters are its first 32 and DEL: the same, without a call a character
        text = text.translate(_ASCII_CONTROLS_AS_SPACES)
    else:
        text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return re.sub(r"\s+", " ", text).strip()


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
    request = _CONFIRMS.search(flat)  # a request to confirm the claims listed after it
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
                asked_to_confirm = asked_to_confirm or bool(_CONFIRMS.search(item, 0, before_bullets))
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
        last = rest[:[*itertools.islice(_WORD.finditer(rest), TWO_ITEMS_LAST_WORDS)][-1].end()] if rest else ""
        if not (_asks_in_a_clause(items[0]) and _asks_in_a_clause(last)):
            return raw
    elif not opens_lines and sum(not asks(item) for item in items) > (len(starts) >= BARE_NUMBERS_LOOSE):
        return raw
    for match in reversed(starts):
        raw = f"{raw[:match.end(1)]}){raw[match.end(1):]}"
    return raw


_WORD = re.compile(r"[A-Za-z0-9']+")  # a word, as `_word_count` counts them


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
    word_starts = [m.start() for m in _WORD.finditer(sentence)]
    cuts = sorted(cut for cut in cuts if bisect.bisect_left(word_starts, cut[0]) >= RUN_ON_MIN_WORDS
                  and len(word_starts) - bisect.bisect_left(word_starts, cut[1]) >= MIN_QUESTION_WORDS + 1)
    starts: list[int] = []
    for n, (start, end, asking, subject) in enumerate(cuts):
        if not asking:  # what lies between the cuts either side: each read once, so a huge post costs linear time
            head = sentence[cuts[n - 1][1] if n else 0:start]
            tail = sentence[end:cuts[n + 1][0] if n + 1 < len(cuts) else len(sentence)]
            asking = _asks_in_a_clause(head) and (
                _asks_in_a_clause(tail) or (subject and tail.rstrip().endswith("?")))
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
    return lettered >= 2 and all(asks(_ITEM.sub("", item)) for item in items[:-1])


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
    confirming = confirming or len(bounds) > 2 and bool(_CHECKS_A_LIST_AT_END.search(text))
    items = {start: piece for start, end in itertools.pairwise(bounds)
             if _word_count(piece := _INLINE_BULLET.sub("", text[start:end], count=1)) >= MIN_QUESTION_WORDS}
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
    return label.start(1) if label and _word_count(text[window:label.start(1)]) >= MIN_QUESTION_WORDS else start


def _bullet_piece_asks(piece: str) -> bool:
    """An inline bullet's words ask: a question word first, or a "?" at their end ("- he overworked with a mouse
    card, pretty sure that's backwards??"); a bold label before a dash ("**who picks** - when I deal hits ...")
    is too short to be a question of its own."""
    return _word_count(piece) >= MIN_QUESTION_WORDS and (piece.rstrip().endswith("?") or _asks_in_a_clause(piece))


def _cut(text: str, starts: list[int]) -> list[str]:
    """The non-blank pieces of text cut at the given positions."""
    bounds = [0, *starts, len(text)]
    return [piece for a, b in zip(bounds, bounds[1:], strict=False) if (piece := text[a:b].strip())]


# A claim closed by a check typed without its "?" ("we ruled i lose the earl since its the highest rank, correct").
_TAGGED_CLAIM = re.compile(r",\s*(?:correct|right|yes|true|yeah)\s*[.!]*$", re.IGNORECASE)
# The table's own ruling ("we said ...", "and i ruled ..."): checked by a bare "right" at the end, with its comma left
# out as phones type it (`_checks_the_tables_ruling`); in a folded message a line may have begun with it (_LOST_LINE).
_TABLE_RULES = r"(?:i|we)\s+(?:said|ruled|thought|figured|decided|assumed)"
_TABLES_RULING = re.compile(rf"(?:^|\b(?:so|and|but)\s+)(?:{_TABLE_RULES}|(?:i|we)\s+played\s+it)\b", re.IGNORECASE)
_CHECK_WORDS = frozenset({"right", "correct"})
_TELLING_BEFORE_CHECK = frozenset({"was", "were", "is", "are", "be"})  # "We decided she was right." tells


def asks(sentence: str) -> bool:
    """Whether a sentence asks something: a question mark (not one in parentheses, closed or still open:
    "Sophie: Vagabond (Harrier? the one that glides)" is split at its "?"), a numbered item, a bulleted
    one that asks by its words (`_bullet_asks`), a question word first, or an asking phrase ("not sure
    if", "my question is"); never an empty ask ("Thoughts?")."""
    body = _ITEM.sub("", sentence).strip()
    least = MIN_QUESTION_WORDS - 1 if _ITEM.match(sentence) else MIN_QUESTION_WORDS  # "2. keep building"
    if _word_count(body) < least or _EMPTY_ASKS.match(body):
        return False
    return "?" in _ASIDE.sub("", body) or bool(_TAGGED_CLAIM.search(body)) or _checks_the_tables_ruling(body) \
        or bool(_NUMBERED.match(sentence)) \
        or _bullet_asks(sentence, body) \
        or bool(_ASKING_START.match(body) and not _TELLS_WHEN.match(body)) \
        or bool(_ASKING_PHRASE.search(body)) or _labelled_ask(body) or bool(_INVERTED.search(body))


def _checks_the_tables_ruling(body: str) -> bool:
    """The table's ruling closed by a bare "right" or "correct", its comma left out ("we said vaga picks whatever
    items he wants to damage right"). The last words are looked at first, then the ruling found once: one pattern
    for both took 83 s on 200,000 characters of "and we said it right then"."""
    last = body.rstrip(" .!").rsplit(None, 2)[-2:]
    return len(last) == 2 and last[1].lower() in _CHECK_WORDS and last[0].lower() not in _TELLING_BEFORE_CHECK \
        and bool(_TABLES_RULING.search(body))


def _bullet_asks(sentence: str, body: str) -> bool:
    """A bulleted item asks by its words, after its topic too ("Eyrie Emigre, must you discard ...", "Burrow Bank:
    do both draw"); a bullet alone is a list ("- Ty: Cats (new)", "- cats player, very salty")."""
    return bool(_ITEM.match(sentence)) and _asks_in_a_clause(body)


def _asks_in_a_clause(text: str) -> bool:
    """A question word opens the text or one of its clauses ("False orders, does the ruling apply ..."), or a
    verb comes before its subject within one ("warriors in the burrow can they be attacked")."""
    return any(_ASKING_START.match(clause.strip()) for clause in re.split(r"[,:;]", text)) \
        or bool(_INVERTED.search(text))


def _word_count(text: str) -> int:
    return len(_WORD.findall(text))


def _labelled_ask(body: str) -> bool:
    """A "question:" label that asks: what follows it asks ("Quick question: can ...", "Question: if ...")."""
    label = _QUESTION_LABEL.search(body)
    after = body[label.end():] if label else ""
    if _ASKING_START.match(after) or re.match(r"(?:if|whether)\b", after, re.IGNORECASE):
        return True
    lead = _SHORT_LABEL.match(body)  # any short label: "Help settle this: can cats build in ruins"
    return bool(lead and _ASKING_START.match(body[lead.end():]))


def _claims_to_confirm(sentences: list[str], lines: list[int]) -> tuple[set[int], set[int]]:
    """The items of a bulleted list that a request asks to confirm, before it ("Couple of things I'm pretty sure
    about, want confirmation:" then "- the cats can overwork anywhere" ...) or after it ("Is all of that right?",
    on its own or at the end of the last item): two or more claims, each a question (a numbered item asks by its
    number already); and the requests, which ask nothing of their own. A sentence after an item on its line is
    that item's ("- he took a card from the lost souls. is that right"), never a request."""
    claims: set[int] = set()
    requests: set[int] = set()
    is_item = [bool(_ITEM.match(s)) for s in sentences]
    first_item_of_line: dict[int, int] = {}
    for i in (i for i, item in enumerate(is_item) if item):
        first_item_of_line.setdefault(lines[i], i)

    def in_an_item(i: int) -> bool:
        return first_item_of_line.get(lines[i], i + 1) <= i

    def claimed(items: list[int]) -> set[int]:
        return {i for i in items if _word_count(_ITEM.sub("", sentences[i])) >= MIN_QUESTION_WORDS}

    request = next((i for i, s in enumerate(sentences) if _CONFIRMS.search(s) and not in_an_item(i)), None)
    if request is not None and len(listed := [i for i in range(request + 1, len(sentences)) if is_item[i]]) >= 2:
        requests.add(request)
        claims |= claimed(listed)
    runs = [[i for i, _ in run] for item, run in itertools.groupby(enumerate(is_item), key=lambda pair: pair[1])
            if item]
    for run in (run for run in runs if len(run) >= 2):
        after = run[-1] + 1
        request_after = after < len(sentences) and not in_an_item(after) \
            and _word_count(sentences[after]) <= TITLE_WORDS \
            and bool(_CONFIRMS.search(sentences[after]) or _CHECKS_A_LIST.match(sentences[after]))
        if request_after or _CHECKS_A_LIST_AT_END.search(sentences[run[-1]]):
            requests.update([after] if request_after else [])
            claims |= claimed(run)
    return claims, requests


def _list_of_questions(sentences: list[str], asking: list[bool]) -> set[int]:
    """The items of a list at least two of whose items ask (`asking`: each sentence's `asks`): each is a question,
    though it asks by no word of its own ("- if i get ambushed and the ambush kills all my attackers does the battle
    just stop" beside two that do)."""
    is_item = [bool(_ITEM.match(s)) for s in sentences]
    listed: set[int] = set()
    for item, run in itertools.groupby(range(len(sentences)), key=lambda i: is_item[i]):
        run = list(run)
        if item and sum(asking[i] for i in run) >= 2:
            listed |= {i for i in run if _word_count(_ITEM.sub("", sentences[i])) >= MIN_QUESTION_WORDS}
    return listed


def checks_story(sentence: str) -> bool:
    """A question too short to ask on its own that asks whether the sentence before it holds ("The keep blocks
    roosts. Correct?", "the Lost City counts as every suit. Does it?"): with that sentence it is a question."""
    body = sentence.strip()
    return body.endswith("?") and 0 < _word_count(body) < MIN_QUESTION_WORDS and not _OPINION_ASKS.match(body)


def follows_on(sentence: str, before: str) -> bool:
    """An asking sentence that goes on with the one before it ("Or is the pawn immune?", "And if I can,
    does he still score?", "Is that really how it works?", "What if they have none?"), or offers the answers an
    open question before it could have ("If Outrage would add a sixth card, what happens? Is the card discarded,
    or ...?"): one question with it, not another."""
    return bool(_FOLLOW_ON.match(sentence) or _CHECK_TAGS.fullmatch(sentence.strip())) \
        or _word_count(sentence) < SHORT_FOLLOW_ON_WORDS \
        or (_word_count(sentence) <= AND_IF_CASE_WORDS and bool(_AND_IF.match(sentence))) \
        or (_word_count(sentence) <= SHORT_CASE_WORDS and bool(_WHAT_IF.match(sentence))) \
        or bool(_OPEN_QUESTION_END.search(before) and _OFFERS_ANSWERS.match(sentence))


def _states_only(sentence: str) -> bool:
    """An item that asks nothing by its own words ("3. Supporters cap: without bases I can only have 5."):
    the question after it is that item's question."""
    return bool(_ITEM.match(sentence)) and not asks(_ITEM.sub("", sentence))


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
    if _word_count(sentences[0]) > TITLE_WORDS:
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
    return all(word in _TABLE_WORDS for word in _content_words(sentence))


def _content_words(text: str) -> Iterator[str]:
    return (w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2 and w not in _COMMON_WORDS)


def _content_stems(text: str) -> set[str]:
    """The stems of a sentence's words that carry its topic ("ruling", "rule" -> "rule"), as the index stems
    them: enough to see one question said twice."""
    return {stem for word in _content_words(text) for stem in word_stems(word)}


def read_post(raw: str) -> Post:
    """The post as search reads it (see the module's docstring)."""
    pasted_too_much = len(raw) > MAX_READ_CHARS
    raw = plain_text(raw[:MAX_READ_CHARS])
    text = printable(raw)
    post = _read_sentences(text, _long_sentences_cut(sentences_of(raw)))
    if not post.questions and _word_count(text) >= LOST_LINES_MIN_WORDS:
        # Lines typed without stops or "?" and sent folded onto one line: read again cut where lines began.
        pieces = _lost_lines(text)
        again = _read_sentences(text, [(piece, line) for line, piece in enumerate(pieces)]) if len(pieces) > 1 else post
        if len(again.questions) > 1:
            post = again
    if pasted_too_much:
        post.notices.insert(0, f"a paste of more than {MAX_READ_CHARS:,} characters: read its first "
                               f"{MAX_READ_CHARS:,}, the rest left out")
    return _without_framing(post)


def _without_framing(post: Post) -> Post:
    """The post searched without what it says of itself (`_LEAD_IN`) and the checks and requests around its
    questions (`_CHECK_TAGS`), once its questions are found: "Quick question:" still marks what follows as a
    question, and "Is that correct?" the claim before it."""
    post.text = _unframed(post.text) or post.text
    post.questions = [_unframed(q) or q for q in post.questions]
    post.story = _unframed(post.story)
    # A sentence that only talks to the forum is neither a question nor its story.
    post.text = _without_talk(_talk_taken_out(post.text, _SENTENCE_BREAK.split(post.story))) or post.text
    post.story = _without_talk(post.story)
    return post


def _talk_taken_out(text: str, sentences: list[str]) -> str:
    """The text without those of its sentences that only talk to the forum, taken out where they stand: one may run
    on from a question typed without its stop ("hand limit is it 5 EDIT: answered, thanks"). The text may be the end
    of a long post: only the last sentences it can hold are looked for, so a huge post costs no more than its end."""
    room = 2 * len(text) + 100  # with room to spare for what reading the sentences changed
    for sentence in reversed(sentences):
        room -= len(sentence) + 1
        if room < 0:
            break
        if _talks_to_the_forum(sentence):
            text = text.replace(sentence, "", 1)
    return " ".join(text.split())


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def _without_talk(text: str) -> str:
    """The text without its sentences that only talk to the forum, nor such talk at the end of a sentence typed
    without its stop ("hand limit is it 5 Appreciate any help.")."""
    text = _ASIDE.sub(lambda aside: "" if _talks_to_the_forum(aside.group()) else aside.group(), text)
    kept = (_without_talking_end(_without_talking_start(s)) for s in _SENTENCE_BREAK.split(text)
            if not _talks_to_the_forum(s))
    return " ".join(" ".join(kept).split())  # one space where an aside was


# Where a sentence typed without its stop may have ended: a capital straight after a lower-case word or a digit.
_UNSTOPPED_END = re.compile(r"(?<=[a-z0-9])\s+(?=[A-Z][a-z])")


# A plea typed onto a question's end ("... at end of turn pls", "help please!!"): talk, cut off the question.
_PLEA = re.compile(r"(?:[ ,]{1,3}(?:pls|plz|please|bump)\b[.!?]{0,3})+\s*$", re.IGNORECASE)


def _without_talking_end(text: str) -> str:
    """The text without the talk to the forum that ends it after a question typed without its stop, nor a plea
    ("... at end of turn pls")."""
    plea = _PLEA.search(text)
    if plea and _word_count(text[: plea.start()]) >= MIN_QUESTION_WORDS:
        text = text[: plea.start()] + ("?" if "?" in plea.group() else "")
    for cut in _UNSTOPPED_END.finditer(text):
        tail = text[cut.end():]  # a sentence of its own, not a name ending the question ("a game of Root?")
        if _word_count(text[: cut.start()]) >= MIN_QUESTION_WORDS and _word_count(tail) > 1 and \
                _talks_to_the_forum(tail):
            return text[: cut.start()]
    return text


def _without_talking_start(text: str) -> str:
    """The text without the talk to the forum that opens it before a question, typed without a stop between them
    (a title "Help with a rule" above the question, sent on one line). The talk ends at a talk word before a
    capital, and takes two such words or one only the forum says ("My friend Marquise ..." is no talk). Before a
    question typed in lower case no cut is sure: "I think anyone can battle" and "I'm really confused about is how"
    read as talk and a question in measured training posts."""
    start, said, forum = 0, 0, False
    left = _word_count(text)  # words from this token on: counted once, so a long run of talk costs linear time
    for token in _TOKEN.finditer(text):
        left -= _word_count(token.group())
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


def _talks_to_the_forum(sentence: str) -> bool:
    """A sentence of words that speak only of the post and the forum ("Any insight would be great.", "Thanks for
    reading!"): no word of the rules, so it would only dilute the question."""
    if sentence.rstrip().endswith("?"):
        return False
    talk = [word for word in _judged_words(sentence) if word not in _RULE_WORDS]
    return bool(talk) and all(word in _TALK_WORDS for word in talk)


def _judged_words(text: str) -> list[str]:
    """The words that tell talk from the game: content words, and initialisms as words ("WA question." names a
    faction, "Couldn't find it in the FAQ." does not)."""
    return [*_content_words(text), *(word.lower() for word in _INITIALISM.findall(text))]


# What a request cut whole leaves after the sentence before it ("... corrected me. Can somebody clarify?").
_LEFT_MARK = re.compile(r"(?:(?<=[.!?])\s+|^)\?+(?=\s|$)")


def _unframed(text: str) -> str:
    return _LEFT_MARK.sub("", _CHECK_TAGS.sub("", _LEAD_IN.sub("", text))).strip()


LOST_LINES_MIN_WORDS = 30  # a post this long that asks nothing we can find may be lines folded without stops
LOST_LINES_SENTENCE_WORDS = 35  # so may a sentence this long, when two of its pieces ask
LOST_LINE_MIN_WORDS = 5  # each side of a cut where a line may have begun
# Where a line typed without a stop may have begun, in a post folded onto one line: a topic labelled with a colon
# ("... i think thats illegal rats: the warlord died ..."), "also" and a subject or question word ("... skip him also
# we play 2 player ...", not "the warrior also dies"), a verb before its subject ("... like 6 items does a favor
# card do anything ...", "... and do bots ever play ..."), another question announced ("... and last thing is it
# even worth ...") or the table's own ruling ("... still need boots i said buying a service ..."), each straight
# after a lower-case word.
_LOST_LINE = re.compile(
    r"(?<=[a-z0-9])\s+(?="
    r"(?:[a-z]+\s+){0,2}[a-z]+:\s"
    r"|also\s+(?:i|we|you|he|she|they|my|our|the|a|an|is|are|can|could|does|do|did|how|what|whats|when|where"
    r"|which|who|why|if)\s"
    r"|(?:and\s+)?(?:can|could|does|do|did|should|will|would)\s+(?:i|we|you|he|she|they|it|bots?|the|a|an"
    r"|my|his|her|their|your|our)\s"
    r"|(?:and\s+)?(?:one\s+more|(?:the\s+)?last|another)\s+(?:thing|question|q)\b"
    rf"|{_TABLE_RULES}\s)")
# nor after a subject waiting for its verb ("did we | do it right")
_NO_CUT_AFTER = frozenset({"what", "how", "why", "where", "when", "who", "which", "if", "whether", "that", "so", "and",
                           "or", "but", "to", "not", "like", "i", "we", "he", "she", "they"})


# A condition opening a clause and still open before a place where a line may have begun: the question it conditions
# follows ("... so when i flip it | does it also blow up buildings"), so no line began there; a condition after its
# question ("can we ambush a bot when it attacks us | can the vagabot ...") holds no cut. Heeded when a long sentence
# is cut among questions found; a post that asks nothing we can find is cut at such places still, as its pieces then
# rarely ask apart (our post checks: one question more right so).
_OPEN_CONDITION = re.compile(r"(?:^|[,.;:]\s*|\b(?:so|and|but|then|also|or|plus)\s+)"
                             r"(?:if|when|whenever|once|after|before|while|unless)\b(?![^,;:]*[,;:])"
                             r"(?:\W+\w+){0,8}\W*$", re.IGNORECASE)
OPEN_CONDITION_CHARS = 80  # how far back before a cut a condition is looked for


def _long_sentences_cut(found: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """A sentence of LOST_LINES_SENTENCE_WORDS words or more cut where its lines may have begun (`_lost_lines`)
    when at least two of its pieces ask: a message typed one question a line without "?" or a stop, folded onto
    one line ("... some stuff we couldnt find can we play ambush cards against the bots can the vagabot form a
    coalition do bots ever buy services ..."). Measured on our post checks (`docs/levers.md`)."""
    cut: list[tuple[str, int]] = []
    for sentence, line in found:
        # the length first: a huge paste of short sentences is not counted word by word again
        long = len(sentence) > 2 * LOST_LINES_SENTENCE_WORDS and _word_count(sentence) >= LOST_LINES_SENTENCE_WORDS
        pieces = _lost_lines(sentence, heed_open_conditions=True) if long else [sentence]
        if len(pieces) > 1 and sum(asks(piece) for piece in pieces) >= 2:
            cut += [(piece.strip(), line) for piece in pieces]
        else:
            cut.append((sentence, line))
    return cut


def _lost_lines(text: str, heed_open_conditions: bool = False) -> list[str]:
    """A folded post cut where its lines may have begun (`_LOST_LINE`), not inside a question ("what does the
    bot do"; with `heed_open_conditions`, nor after a condition still open, `_OPEN_CONDITION`), each piece at
    least LOST_LINE_MIN_WORDS words. Words are found once, so a huge post is cut in linear time."""
    found = list(_WORD.finditer(text))
    word_starts = [word.start() for word in found]
    pieces, start, first = [], 0, 0  # the piece being read begins at `start`, its first word is found[first]
    for match in _LOST_LINE.finditer(text):
        before, after = bisect.bisect_left(word_starts, match.start()), bisect.bisect_left(word_starts, match.end())
        if before - first < LOST_LINE_MIN_WORDS or len(found) - after < LOST_LINE_MIN_WORDS \
                or found[before - 1].group(0).lower() in _NO_CUT_AFTER \
                or heed_open_conditions \
                and _OPEN_CONDITION.search(text, max(start, match.start() - OPEN_CONDITION_CHARS), match.start()):
            continue
        pieces.append(text[start:match.start()])
        start, first = match.end(), after
    return [*pieces, text[start:]]


def _read_sentences(text: str, found: list[tuple[str, int]]) -> Post:
    """The post read from its sentences and the lines they are on."""
    sentences, lines = [sentence for sentence, _ in found], [line for _, line in found]
    claims, requests = _claims_to_confirm(sentences, lines)
    by_words = [asks(s) for s in sentences]
    claims |= _list_of_questions(sentences, by_words)
    asked_alone = [(by_words[i] or i in claims) and i not in requests and not (i == 0 and _REPLY_SUBJECT.match(s))
                   for i, s in enumerate(sentences)]
    for i in range(len(sentences) - 1, -1, -1):  # from the end: what follows a sentence is settled first
        if not asked_alone[i] and _UNSETTLED.search(sentences[i]):
            asked_alone[i] = i + 1 == len(sentences) or not (asked_alone[i + 1] and "?" in sentences[i + 1])
        elif not asked_alone[i] and _WANTS_TO_BE_SURE.search(sentences[i]):
            asked_alone[i] = i + 1 == len(sentences) or not asked_alone[i + 1] \
                or bool(_ANOTHER_QUESTION.match(sentences[i + 1]))
    checks = any(asked_alone)  # beside the post's other questions, a short check asks with the claim before it
    asking = [i for i, s in enumerate(sentences) if asked_alone[i] or (
        checks and i and i not in requests and checks_story(s)
        and _word_count(sentences[i - 1]) >= MIN_QUESTION_WORDS)]
    # A short question is its own question; so is a post that asks nothing we can find.
    if len(sentences) <= 1 or not asking:
        post = _capped(Post(text))
        post.text = _talk_taken_out(post.text, sentences) or post.text if len(sentences) > 1 else post.text
        return post
    items = {i for i, s in enumerate(sentences) if _ITEM.match(s)}
    last_item = max(items, default=-1)
    groups: list[list[int]] = []  # an asking sentence that follows on from the one before joins it
    for i in asking:
        if groups and groups[-1][-1] == i - 1 and not _ITEM.match(sentences[i]) and (
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
    talk = [_talks_to_the_forum(s) for s in sentences]
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
        if _ITEM.match(sentences[group[0]]) or not leads_in(before):
            continue
        checks = checks_story(sentences[group[0]]) or bool(_CHECK_TAGS.fullmatch(sentences[group[0]].strip()))
        if not _tells_of_the_table(sentences[before]):
            group.insert(0, before)
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
    questions = [" ".join(_ITEM.sub("", sentences[i]).strip() for i in group) for group in groups]
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
    if not all(talk[i] or not _unframed(sentences[i]).strip(" ?!.,;:") for i in group):
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
    return all(not _LEAD_IN.sub("", sentences[i]).strip(" ?!.,;:") and not _CONFIRM_REQUEST.search(sentences[i])
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
