"""A pasted post made plain: forum markup, a phone's typography and symbols dropped, its words and lines kept."""

from __future__ import annotations

import re
import unicodedata

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


def printable(text: str) -> str:
    """One line, control characters (newlines too) as spaces, white space folded."""
    if text.isascii():  # ASCII's control characters are its first 32 and DEL: the same, without a call a character
        text = text.translate(_ASCII_CONTROLS_AS_SPACES)
    else:
        text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return re.sub(r"\s+", " ", text).strip()
