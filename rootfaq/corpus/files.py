"""The shipped corpus files: read and hashed without parsing, so opening an existing index stays cheap."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from ..errors import CorpusError

FAQ_FILE = "faq.txt"
OUTSIDERS_FILE = "outsiders-rulebook.txt"
LAW_FILE = "law-excerpts.txt"
FACTIONS_FILE = "factions.yaml"
TOPICS_FILE = "topics.yaml"
VOCABULARY_FILE = "vocabulary.yaml"
QUESTIONS_FILE = "faq-questions.yaml"
PHRASINGS_FILE = "rule-phrasings.yaml"
ASKED_FILE = "asked-questions.yaml"
CORPUS_FILES = (FAQ_FILE, OUTSIDERS_FILE, LAW_FILE, FACTIONS_FILE, TOPICS_FILE, VOCABULARY_FILE, QUESTIONS_FILE,
                PHRASINGS_FILE, ASKED_FILE)


def package_folder(package: str) -> Path:
    """The folder a data package of rootfaq is installed in (a wheel's files are unpacked; an editable
    install maps `rootfaq.corpus_data` to the checkout's corpus/). Found by the import system's own spec,
    not importlib.resources, whose import and look-up cost every cold start 6 ms."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"{package} is not installed")  # an OSError, as a missing file would be
    return Path(next(iter(spec.submodule_search_locations)))


def read_corpus_files() -> dict[str, str]:
    """The shipped corpus files as text."""
    try:
        folder = package_folder("rootfaq.corpus_data")
    except FileNotFoundError:
        raise CorpusError("rootfaq.corpus_data", None, "is not installed", "reinstall rootfaq") from None
    texts = {}
    for name in CORPUS_FILES:
        try:
            texts[name] = (folder / name).read_bytes().decode("utf-8")
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
