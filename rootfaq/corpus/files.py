"""The shipped corpus files: read and hashed without parsing, so opening an existing index stays cheap."""

from __future__ import annotations

import hashlib
from importlib import resources

from ..errors import CorpusError

FAQ_FILE = "faq.txt"
OUTSIDERS_FILE = "outsiders-rulebook.txt"
LAW_FILE = "law-excerpts.txt"
FACTIONS_FILE = "factions.yaml"
TOPICS_FILE = "topics.yaml"
VOCABULARY_FILE = "vocabulary.yaml"
QUESTIONS_FILE = "faq-questions.yaml"
PHRASINGS_FILE = "rule-phrasings.yaml"
CORPUS_FILES = (FAQ_FILE, OUTSIDERS_FILE, LAW_FILE, FACTIONS_FILE, TOPICS_FILE, VOCABULARY_FILE, QUESTIONS_FILE,
                PHRASINGS_FILE)


def read_corpus_files() -> dict[str, str]:
    """The shipped corpus files as text, read through importlib.resources (works from a wheel)."""
    package = resources.files("rootfaq.corpus_data")
    texts = {}
    for name in CORPUS_FILES:
        try:
            texts[name] = package.joinpath(name).read_bytes().decode("utf-8")
        except FileNotFoundError:
            raise CorpusError(name, None, "missing from the installed corpus", "reinstall rootfaq") from None
        except UnicodeDecodeError as exc:
            raise CorpusError(name, None, f"not UTF-8 text ({exc.reason})", "restore the file from git") from None
    return texts


def corpus_hash(texts: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for name in sorted(texts):
        digest.update(name.encode())
        digest.update(texts[name].encode("utf-8"))
    return digest.hexdigest()
