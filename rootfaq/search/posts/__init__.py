"""Reading a post: its questions found among the story, so that search reads the question first.

Players put their question after the story ("3p game last night, the cats ... Can I ...?"), ask several
in one post ("1) ... 2) ..."), or ask without a question mark ("not sure if the cats can still overwork
there"). `read_post` keeps the whole post (up to MAX_POST_CHARS; past that, its question sentences and
what stands around them, and a notice saying so; a paste past MAX_READ_CHARS is read up to there) and finds
the sentences that ask something; a title line that asks ("Mercs and Eyrie turmoil?") leads the question
under it. Pure text work: nothing here searches.

In the order a post is read: `plain` (the paste made plain), `sentences` (cut into sentences and items),
`asking` (which of them ask), `talk` (what only talks to the forum), `reading` (questions grouped, the story
around them).
"""

from .asking import asks, asks_for_advice
from .plain import plain_text, printable
from .reading import MAX_POST_CHARS, MAX_QUESTIONS, MAX_READ_CHARS, Post, read_post
from .sentences import sentences_of

__all__ = ["MAX_POST_CHARS", "MAX_QUESTIONS", "MAX_READ_CHARS", "Post", "asks", "asks_for_advice", "plain_text",
           "printable", "read_post", "sentences_of"]
