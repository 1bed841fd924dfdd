"""Whether a sentence asks: by its question mark, its number in a list, or its words ("not sure if", "can the cats")."""

from __future__ import annotations

import re

MIN_QUESTION_WORDS = 3  # fewer words ask nothing on their own ("Thoughts?", "Correct?")
SHORT_CASE_WORDS = 8  # a "what if" this short goes on with the question before it (_WHAT_IF)
AND_IF_CASE_WORDS = 10  # an "and if" this short too ("And if I can, does he still score?"); a longer one asks anew
SHORT_FOLLOW_ON_WORDS = 5  # an asking sentence shorter than this goes on with the one before it ("And the keep?")
# How players number their questions: "1) ...", "2. ...", "(3) ...", "1st: ...", "2 - ...", "Q1: ...",
# "Question 2: ...", "#3 ...".
_NUMBER = (r"(?:\(?\d{1,2}(?:st|nd|rd|th)?[.):]|\d{1,2}\s+[-–](?=\s+[A-Za-z])"
           r"|(?:q|question)\s*\d{1,2}\s*[.):]|\#\d{1,2}[.):]?)")
# A line or sentence that starts a numbered or bulleted item: the numbers above, "- ...", "• ...", "a) ...".
LETTER = r"\(?([a-fA-F])\)"  # a lettered item's mark: "a)", "(b)"
ITEM = re.compile(rf"^\s*(?:{_NUMBER}|[-*•]|{LETTER})\s+", re.IGNORECASE)
_NUMBERED = re.compile(rf"^\s*(?:{_NUMBER}|{LETTER})\s+", re.IGNORECASE)  # an item that asks by its number alone


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
# Asking who is right, between the sides of a dispute (`reading._read_sentences` reads both).
WHO_IS_RIGHT = r"(?:who'?s|who is|which (?:one )?is) (?:right|correct)"
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
    rf"|i'?m not convinced|{WHO_IS_RIGHT}"
    # the question before asked again of something else: "Similar question for the WA and losing officers."
    r"|^(?:(?:and|also)[:,]?\s+)?(?:the )?(?:same|similar) (?:question|doubt|thing) (?:for|about|with|regarding)\b"
    # a question tagged on after a comma: "same goes for the hand size, is that hidden or not"
    r"|,\s+(?:is|are|does|do|can|could|should|was|were|did)\s+(?:that|this|it|they|i|we|you|he|she)\b)",
    re.IGNORECASE,
)
# What a table could not settle ("we couldnt agree whether ...", "nobody knew whether that was allowed") asks, unless a
# question with its "?" follows it, of which it tells the story ("... and nobody knew if he scores. Does the Vagabond
# get points for removing warriors?"); "we argued whether ..." always tells.
UNSETTLED = re.compile(r"\b(?:(?:couldn'?t|could not|can'?t|cannot|didn'?t|did not) agree (?:on )?(?:if|whether)"
                       r"|(?:nobody|no one|none of us) (?:knew|knows|was sure|could tell) (?:if|whether))\b",
                       re.IGNORECASE)
# Wanting to be sure of the dispute just told ("I think he is right, but I would like to be sure") asks it, unless
# the question itself comes next ("We went with mine but I want to be sure. does losing a tunnel count ...").
WANTS_TO_BE_SURE = re.compile(r"\b(?:want|like|need) to be (?:sure|certain)\b"
                              # or doubting it now ("We let it through but now I'm doubting it.")
                              r"|\b(?:i'?m|i am|we'?re|we are) (?:now |starting to |kind of |kinda )?(?:doubting"
                              r"|second[- ]guessing|having (?:second thoughts|doubts))\b"
                              # or asking it, with nothing more to say: "I think is true but I want to ask."
                              r"|\b(?:want|wanted|would like|'d like) to ask(?: (?:you|you all|here|to be sure))?\W*$",
                              re.IGNORECASE)
# A sentence that opens another question ("And last thing, ...", "Also, ...", "Secondly, ..."): what comes before it is
# not its lead-in.
ANOTHER_QUESTION = re.compile(r"^(?:and\s+|oh\s+)?(?:also|another|lastly|finally|secondly|thirdly|one more"
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
CONFIRMS = re.compile(
    r"\b(?:confirm(?:ation|ed)?|correct me|sanity[- ]?check|double[- ]?check|verify"
    r"|check (?:these|this|that|my|if|whether)|am i (?:right|wrong|correct)|are (?:these|those|we) (?:right|correct)"
    r"|(?:let me know|tell me) if"
    # doubting each claim the list makes: "The Marquise player tried three things and I'm not sure about any of them:"
    r"|(?:not|n't) (?:sure|certain) (?:about|of) (?:(?:any|all|each|either|both|some) of )?(?:them|these|those"
    r"|the following)|unsure (?:about|of) (?:(?:any|all|each|either|both|some) of )?(?:them|these|those))\b",
    re.IGNORECASE)
# A short check after a list of claims ("Is all of that right?", "Correct?", "Right?").
CHECKS_A_LIST = re.compile(r"^(?:(?:so|and|is|are|was)\s+)?(?:(?:that|this|all|all of|everything|any of|these"
                           r"|those)\s+)*(?:that\s+|this\s+|it\s+)?(?:right|correct|true|legit|accurate|ok)\W*$",
                           re.IGNORECASE)
# The same check at the end of a list flattened onto one line ("- ... - bird cards pay for outrage Is all of that
# right?").
CHECKS_A_LIST_AT_END = re.compile(
    r"\b(?:(?:is|are)\s+(?:all\s+(?:of\s+)?)?(?:that|this|these|those|everything)\s+(?:all\s+)?(?:right|correct|true"
    r"|accurate)|am i (?:right|wrong|correct)(?:\s+(?:on|about)\s+(?:all|any|these|those|this)(?:\s+\w+){0,3})?)\W*$",
    re.IGNORECASE)
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


ASIDE = re.compile(r"\([^()]*\)|\([^()]*$")  # an aside, or one still open where a "?" ended the sentence
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
# A check put after a question or a claim ("Am I reading this right?", "Or am I missing something?", "Is that
# correct?"), or at a question's end (", or am I wrong?"), and a request for opinions or help ("Thoughts?", "Any
# help appreciated."): they ask only whether what came before holds, or for an answer at all, and their words
# ("reading", "missing", "right", "help") are no rule's; left in the story, they made a bare question look told. As a
# sentence a check asks with the one before it (`follows_on`); once the post's questions are found both are dropped
# (`reading._without_framing`).
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
CHECK_TAGS = re.compile(
    rf"(?:(?<=[.!?])\s+|^|\s+(?=(?-i:[A-Z][a-z])))(?:{_CHECK_TAG}\s*\?+|(?:any\s+)?(?:{_ASKS_FOR_OPINIONS})\s*[?!.]+)(?=\s|$)"
    rf"|,?\s+(?=or\s){_CHECK_TAG}(?=\s*\?)", re.IGNORECASE)


WORD = re.compile(r"[A-Za-z0-9']+")  # a word, as `word_count` counts them


# A claim closed by a check typed without its "?" ("we ruled i lose the earl since its the highest rank, correct").
_TAGGED_CLAIM = re.compile(r",\s*(?:correct|right|yes|true|yeah)\s*[.!]*$", re.IGNORECASE)
# The table's own ruling ("we said ...", "and i ruled ..."): checked by a bare "right" at the end, with its comma left
# out as phones type it (`_checks_the_tables_ruling`); in a folded message a line may have begun with it
# (`sentences._LOST_LINE`).
TABLE_RULES = r"(?:i|we)\s+(?:said|ruled|thought|figured|decided|assumed)"
_TABLES_RULING = re.compile(rf"(?:^|\b(?:so|and|but)\s+)(?:{TABLE_RULES}|(?:i|we)\s+played\s+it)\b", re.IGNORECASE)
_CHECK_WORDS = frozenset({"right", "correct"})
_TELLING_BEFORE_CHECK = frozenset({"was", "were", "is", "are", "be"})  # "We decided she was right." tells


# Asking how to play well, not what the rules say ("any tips for the otters?", "is dominance worth it?", "which faction
# is best for a new player?", "how do you beat the Riverfolk?"): no ruling settles it. Kept narrow: "how do you win
# with a dominance card", "how do you stop a revolt", "is the chain broken", "the recommended reach" ask the rules,
# and a question naming the rules asks them ("quick rules tip: does the vagabond exhaust a torch to explore?").
_ADVICE = re.compile(
    r"\b(?:tips?|advice|strateg(?:y|ies|ic)|worth (?:it|(?!(?:any|no|some)thing)\w+ing)\b"
    r"|good (?:way|idea|strategy|opening|price|faction)"
    r"|(?:best|strongest|weakest|easiest|hardest) (?:faction|way|opening|move|start|strategy|first)"
    r"|factions? (?:is|are) (?:the )?(?:best|strongest|weakest|easiest|hardest)"
    r"|(?:overpowered|underpowered|unbalanced|snowbally)\b"
    r"|how (?:do|can|should) (?:you|i|we) (?:beat|counter|play against|get better)"
    r"|(?:who|which faction) (?:usually |actually )?wins? (?:more|most)|any (?:suggestions|ideas)"
    r"|should i (?:be|go|focus|prioriti[sz]e|try|just)|is it (?:better|smarter|wise))", re.IGNORECASE)


_NAMES_THE_RULES = re.compile(r"\b(?:rules?|rulebook|legal|allowed|official|raw|lrr|law)\b", re.IGNORECASE)


def asks_for_advice(question: str) -> bool:
    """Whether a question asks how to play well rather than what the rules say (`_ADVICE`, and no word naming the
    rules): the sources hold rules only, so no answer to it is sure, and a post's rules questions speak for the post
    without it. Of 40 rules questions written to look like advice ("is it better to say the defender chooses ...
    Which one is the actual rule?"), none is read as advice."""
    return bool(_ADVICE.search(question)) and not _NAMES_THE_RULES.search(question)


def asks(sentence: str) -> bool:
    """Whether a sentence asks something: a question mark (not one in parentheses, closed or still open:
    "Sophie: Vagabond (Harrier? the one that glides)" is split at its "?"), a numbered item, a bulleted
    one that asks by its words (`_bullet_asks`), a question word first, or an asking phrase ("not sure
    if", "my question is"); never an empty ask ("Thoughts?")."""
    body = ITEM.sub("", sentence).strip()
    least = MIN_QUESTION_WORDS - 1 if ITEM.match(sentence) else MIN_QUESTION_WORDS  # "2. keep building"
    if word_count(body) < least or _EMPTY_ASKS.match(body):
        return False
    return "?" in ASIDE.sub("", body) or bool(_TAGGED_CLAIM.search(body)) or _checks_the_tables_ruling(body) \
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
    return bool(ITEM.match(sentence)) and asks_in_a_clause(body)


def asks_in_a_clause(text: str) -> bool:
    """A question word opens the text or one of its clauses ("False orders, does the ruling apply ..."), or a
    verb comes before its subject within one ("warriors in the burrow can they be attacked")."""
    return any(_ASKING_START.match(clause.strip()) for clause in re.split(r"[,:;]", text)) \
        or bool(_INVERTED.search(text))


def word_count(text: str) -> int:
    return len(WORD.findall(text))


def _labelled_ask(body: str) -> bool:
    """A "question:" label that asks: what follows it asks ("Quick question: can ...", "Question: if ...")."""
    label = _QUESTION_LABEL.search(body)
    after = body[label.end():] if label else ""
    if _ASKING_START.match(after) or re.match(r"(?:if|whether)\b", after, re.IGNORECASE):
        return True
    lead = _SHORT_LABEL.match(body)  # any short label: "Help settle this: can cats build in ruins"
    return bool(lead and _ASKING_START.match(body[lead.end():]))


def checks_story(sentence: str) -> bool:
    """A question too short to ask on its own that asks whether the sentence before it holds ("The keep blocks
    roosts. Correct?", "the Lost City counts as every suit. Does it?"): with that sentence it is a question."""
    body = sentence.strip()
    return body.endswith("?") and 0 < word_count(body) < MIN_QUESTION_WORDS and not _OPINION_ASKS.match(body)


def follows_on(sentence: str, before: str) -> bool:
    """An asking sentence that goes on with the one before it ("Or is the pawn immune?", "And if I can,
    does he still score?", "Is that really how it works?", "What if they have none?"), or offers the answers an
    open question before it could have ("If Outrage would add a sixth card, what happens? Is the card discarded,
    or ...?"): one question with it, not another."""
    return bool(_FOLLOW_ON.match(sentence) or CHECK_TAGS.fullmatch(sentence.strip())) \
        or word_count(sentence) < SHORT_FOLLOW_ON_WORDS \
        or (word_count(sentence) <= AND_IF_CASE_WORDS and bool(_AND_IF.match(sentence))) \
        or (word_count(sentence) <= SHORT_CASE_WORDS and bool(_WHAT_IF.match(sentence))) \
        or bool(_OPEN_QUESTION_END.search(before) and _OFFERS_ANSWERS.match(sentence))
