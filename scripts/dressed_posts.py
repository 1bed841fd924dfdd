#!/usr/bin/env python3
"""How forum markup moves answers: our own training posts, plain and dressed as real posts are pasted.

usage: python scripts/dressed_posts.py

Reads training/long-posts-*.yaml and the post-style blind questions (never an eval set), sends each post
as score.py does (white space folded), and judges each labelled question as score.py's "per question of
a post" line does. Then the same posts dressed with BBCode (a [q] quote, [b], an [url], HTML entities) and
with Markdown (a "> " quote, **bold**, a link, an emoji), and as copied text (a quote's "Quote: Originally
posted by" header, a sign-off, "Sent from my iPhone"), seeded, so each run dresses them alike.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rootfaq  # noqa: E402


def words(text: str | None) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", (text or "").lower()))


def training_posts() -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each post with its labelled questions and their records."""
    posts = []
    for path in sorted((ROOT / "training").glob("long-posts-*.yaml")):
        for post in yaml.safe_load(path.read_text()):
            posts.append((post["post"], [(p["question"], p.get("records") or []) for p in post["parts"]]))
    for path in sorted((ROOT / "training").glob("blind-questions-*.yaml")):
        for item in yaml.safe_load(path.read_text()):
            if item.get("style") == "post":
                posts.append((item["q"], [(item["q"], item.get("records") or [])]))
    return posts


def dress(post: str, style: str, rng: random.Random) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", post.strip())
    dressed = []
    for sentence in sentences:
        roll = rng.random()
        if roll < 0.12:
            sentence = f"[b]{sentence}[/b]" if style == "bbcode" else f"**{sentence}**"
        elif roll < 0.2:
            sentence = sentence.replace("&", "&amp;").replace("'", "&#39;") if style == "bbcode" \
                else sentence.replace("*", "\\*")
        dressed.append(sentence)
    text = " ".join(dressed)
    thread = rng.randint(10**5, 10**7)
    if style == "bbcode":
        return (f'[q="rootplayer{rng.randint(1, 99)}"]Rules as written, check the Law.[/q] {text} '
                f"[url=https://boardgamegeek.com/thread/{thread}/rules-question]see this thread[/url] :)")
    if style == "copied":  # BoardGameGeek's quote as copied text, a sign-off and a phone's signature
        return (f"Quote:\nOriginally posted by rootplayer{rng.randint(1, 99)}\nRules as written, check the Law.\n\n"
                f"{text}\n\nThanks in advance,\nSam\n--\nSent from my iPhone using Tapatalk")
    return (f"> Rules as written, check the Law.\n\n{text} "
            f"(see [this thread](https://www.reddit.com/r/rootgame/comments/{thread}/)) \N{SLIGHTLY SMILING FACE}")


def judge(posts) -> str:
    asked = first = top3 = sure = sure_right = 0
    for text, labelled in posts:
        answer = rootfaq.ask(re.sub(r"\s+", " ", text).strip(), limit=5)
        given = answer.get("parts") or []
        for question, records in labelled:
            if not records:
                continue
            want = words(question)
            best = max(given, key=lambda g: len(want & words(g.get("query"))), default=None)
            hits = (best if best is not None and want & words(best.get("query")) else answer).get("hits", [])
            rank = next((i for i, h in enumerate(hits) if h["id"] in records), None)
            asked += 1
            first += rank == 0
            top3 += rank is not None and rank < 3
            if len(labelled) == 1:
                sure += answer["confident"]
                sure_right += answer["confident"] and rank == 0
    return (f"{asked} questions: top-1 {first / asked:.1%}, top-3 {top3 / asked:.1%}; "
            f"one-question posts confident {sure} ({sure_right} right)")


def main() -> int:
    posts = training_posts()
    print(f"plain     {judge(posts)}")
    for style in ("bbcode", "markdown", "copied"):
        rng = random.Random(7)
        print(f"{style:9} {judge([(dress(text, style, rng), labelled) for text, labelled in posts])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
