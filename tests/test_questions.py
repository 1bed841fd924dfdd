"""The reconstructed FAQ questions: coverage, uniqueness, fingerprints, and that they are marked."""

from __future__ import annotations

import re

import pytest

from rootfaq.corpus.refs import base_ref


def answered(corpus):
    return [r for r in corpus.records if r.source == "faq" and r.is_answer]


def test_every_answered_entry_has_a_reconstructed_question(corpus):
    entries = answered(corpus)
    assert len(entries) == 283
    assert all(r.title and r.title.endswith("?") for r in entries)
    assert all("reconstructed-question" in r.flags for r in entries)
    assert corpus.question_problems == []


def test_the_entry_without_answer_gets_no_question(corpus):
    missing = [r for r in corpus.records if r.source == "faq" and not r.is_answer]
    assert missing and missing[0].title is None


def test_no_two_questions_alike(corpus):
    def norm(text):
        return re.sub(r"\W+", " ", text.lower()).strip()

    questions = [norm(r.title) for r in answered(corpus)]
    assert len(set(questions)) == len(questions)
    phrasings = [norm(p) for r in answered(corpus) for p in r.phrasings]
    assert len(set(phrasings)) == len(phrasings)
    assert not set(questions) & set(phrasings)


def test_at_most_eight_other_phrasings(corpus):
    from rootfaq.corpus.curated import MAX_PHRASINGS

    assert MAX_PHRASINGS == 8
    assert all(len(r.phrasings) <= MAX_PHRASINGS for r in answered(corpus))


# Questions in our own words, not the reconstructed ones nor their phrasings (none of these is indexed), and
# the entry a reader of the answers picks for each.
PARAPHRASES = {
    "is a ruin a building that the cats could build on": "faq-021",
    "my opponent attacks me where I have zero pieces, can I still throw down the ambush card": "faq-071",
    "when the alliance revolts and wipes out the cats, do they pay a card for every warrior to save them": "faq-108",
    "at what moment must I get rid of cards over the limit of five in my hand": "faq-029",
    "we blew up three of their pieces in a single fight, how many victory points is that": "faq-045",
    "the vagabond kills hired otter warriors, who does he become hostile to": "faq-196",
}


@pytest.mark.parametrize("question,faq_id", PARAPHRASES.items())
def test_a_question_in_other_words_finds_its_entry(index, question, faq_id):
    from rootfaq.search import answers

    record = index.library.records[faq_id]
    assert question not in [record.title.lower(), *record.phrasings]
    assert faq_id in [h.record.id for h in answers.ask(index, question, limit=3).hits]


def test_every_rule_and_law_record_has_curated_phrasings(corpus):
    rules = [r for r in corpus.records if r.source != "faq" and r.section]
    assert rules and all(1 <= len(r.phrasings) <= 8 for r in rules)


def test_rule_phrasings_are_unique(corpus):
    def norm(text):
        return re.sub(r"\W+", " ", text.lower()).strip()

    phrasings = [norm(p) for r in corpus.records if r.source != "faq" for p in r.phrasings]
    assert len(set(phrasings)) == len(phrasings)


def test_a_changed_rule_text_names_the_phrasings_to_reread():
    from rootfaq.corpus.build import build_corpus
    from rootfaq.corpus.files import read_corpus_files

    texts = read_corpus_files()
    texts["outsiders-rulebook.txt"] = texts["outsiders-rulebook.txt"].replace(
        "BP.2.4 Obedient. Bone Patrol warriors can only", "BP.2.4 Obedient. Bone Patrol warriors may only", 1)
    changed = build_corpus(texts)
    assert len(changed.question_problems) == 1 and "rule-BP.2.4" in changed.question_problems[0]
    assert changed.by_id()["rule-BP.2.4"].phrasings == []


def test_phrasings_are_never_shown_as_rule_text(index):
    from typer.testing import CliRunner

    from rootfaq.cli import app as cli

    record = index.library.records["rule-BP.2.2"]
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(cli.app, ["--no-pager", "show", record.id],
                                                    catch_exceptions=False).stdout
    assert record.text.split(".")[0] in shown
    assert not any(p in shown for p in record.phrasings)


# --- questions players asked (corpus/asked-questions.yaml) ---------------------------------------------------


def test_asked_questions_join_their_records_headings_but_not_the_corpus_words(corpus):
    from rootfaq.corpus.build import query_model
    from rootfaq.corpus.records import record_headings
    from rootfaq.search.dense import HEADING, WHOLE, embedding_texts

    record = corpus.by_id()["faq-104"]
    asked = "sawmill wood cap?? can i stack more than 1 wood per sawmill"
    assert asked in record.asked and asked not in record.phrasings
    assert asked in record_headings(record)  # searched by its words, as a heading
    texts = embedding_texts(record)
    assert (HEADING, asked) in texts  # a row of the semantic index of its own
    assert all(asked not in text for kind, text in texts if kind == WHOLE)  # never crowding the record's words
    typos = {"gotta"}  # "wood gotta be connected for build? thru birds clearings ok?" (faq-103; "thru" is vocabulary)
    assert not typos & set(query_model(corpus).word_counts)  # typo fixing and rarity read the sources' words only
    assert corpus.question_problems == []


def test_an_asked_question_for_a_record_that_does_not_exist_is_reported_not_attached():
    from rootfaq.corpus.build import build_corpus
    from rootfaq.corpus.files import read_corpus_files

    texts = read_corpus_files()
    texts["asked-questions.yaml"] += '- {q: "can the cats fly", records: [faq-104, faq-999]}\n'
    corpus = build_corpus(texts)
    assert [p for p in corpus.question_problems if "faq-999" in p] == \
        [f"asked-questions.yaml:{texts['asked-questions.yaml'].count(chr(10))}: no record faq-999"]
    assert "can the cats fly" in corpus.by_id()["faq-104"].asked


@pytest.mark.parametrize(
    "text, where, problem",
    [
        ("q: can cats fly\nrecords: [faq-001]\n", "asked-questions.yaml:1:", "expected a list"),
        ('- {q: "can cats fly", records: []}\n', "asked-questions.yaml:1:", "'records' must list record ids"),
        ('- {q: "ok", records: [faq-001]}\n- {q: "can cats fly", records: [BP.2.5]}\n', "asked-questions.yaml:2:",
         "'records' must list record ids"),
        ('- {q: "can cats fly", records: [faq-001], answer: no}\n', "asked-questions.yaml:1:", "unknown field"),
        ('- {q: "", records: [faq-001]}\n', "asked-questions.yaml:1:", "'q' must be a non-empty string"),
        (f'- {{q: "{"why " * 600}", records: [faq-001]}}\n', "asked-questions.yaml:1:", "at most 2000 characters"),
    ],
)
def test_asked_questions_file_mistakes_name_their_line(text, where, problem):
    from rootfaq.corpus.curated import parse_asked_questions
    from rootfaq.errors import CorpusError

    with pytest.raises(CorpusError) as err:
        parse_asked_questions(text, "asked-questions.yaml")
    assert err.value.message.startswith(where) and problem in err.value.message, err.value.message


def test_asked_questions_are_players_words_kept_apart_from_the_training_data():
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parent.parent
    asked = {" ".join(i["q"].split()) for i in yaml.safe_load((root / "corpus" / "asked-questions.yaml").read_text())}
    trained = {" ".join(i["q"].split()) for path in (root / "training").glob("blind-questions-*.yaml")
               for i in yaml.safe_load(path.read_text()) if i["records"]}
    assert len(asked) > 1400 and not asked & trained  # the fit never reads a question the index holds


# checks/: the short-question sets with the least number of questions each holds (none a post) and the post sets
# with the least number of posts each holds, every post's questions labelled in `parts`.
SHORT_CHECKS = {**{f"blind-2026-12{letter}": 75 for letter in "defghijklmnopqrst"},
                "blind-2026-12u": 45,  # one writer's, a clean measure of a session's end
                "blind-2026-12v": 80,  # two writers', a clean measure after 0bcdbf1
                "blind-2026-12w": 90,  # two writers', a second clean measure of the same search
                "blind-2026-12x": 70}  # terse search-box queries by two writers
POST_CHECKS = {
    "long-posts-2026-12": 25,  # long posts only
    "noisy-posts-2026-12": 30,  # forum posts as posted, markup and all
    "noisy-posts-2026-12b": 25,  # chat messages and session reports
    "noisy-posts-2026-12c": 24,  # Reddit, BGG and Discord posts, non-native
    "noisy-posts-2026-12d": 20,  # typed in one breath, claims, dashes
    "noisy-posts-2026-12e": 24,  # folded lines, claims to confirm, TL;DR
    "noisy-posts-2026-12f": 23,  # BoardGameGeek threads: quotes, subjects
    "noisy-posts-2026-12g": 24,  # chat messages: lettered, "and also", "Q1."
    "noisy-posts-2026-12h": 20,  # titles, stories, "who's right?", no "?"
    "noisy-posts-2026-12i": 21,  # one question after a story, or two to four
    "noisy-posts-2026-12j": 22,  # one after a story, lists, chat, off-rules
    "noisy-posts-2026-12k": 21,  # BGG threads, r/rootgame posts, off-rules
    "noisy-posts-2026-12l": 27,  # game nights, phone lists, BGG threads
    "noisy-posts-2026-12m": 27,  # r/rootgame, BGG threads, Discord lines
    "noisy-posts-2026-12n": 27,  # phone lines, BGG, non-native English
    "noisy-posts-2026-12o": 26,  # BGG turn recaps, Markdown lists, run-on chat
    "noisy-posts-2026-12p": 27,  # BGG rules threads, new players, run-on chat
    "noisy-posts-2026-12q": 85,  # BGG threads, Reddit and Discord, chat in a second language; their questions marked
    "noisy-posts-2026-12r": 25,  # first games' r/rootgame posts; experienced players' BGG and Discord threads
    "noisy-posts-2026-12s": 40,  # game nights mixed with off-rules asks; expansion threads; phone messages
    "noisy-posts-2026-12t": 41,  # Marauder and Underworld with hirelings; the Vagabond in depth; table arguments
    "noisy-posts-2026-12u": 38,  # bots, co-op and maps; a teacher's claims to confirm; run-on phone messages
    "noisy-posts-2026-12v": 36,  # first four-player games; expansion owners' BGG threads; phone messages, bots
    "noisy-posts-2026-12w": 35,  # first games with otters or lizards; BGG threads; phone lines without "?"
    "noisy-posts-2026-12x": 18,  # phone messages one question a line; posts written in one breath
    "noisy-posts-2026-12y": 38,  # new players' numbered posts; BGG threads, a second language; comma run-ons
    "noisy-posts-2026-12z": 22,  # posts after first games, numbered or in an "Edit:"; phone messages run together
    "noisy-posts-2026-12za": 11,  # new players' posts with claims; BGG threads in a second language (one writer)
    "noisy-posts-2026-12zb": 26,  # five-player game reports, disputes unsettled; phone posts after base games
    "numbered-posts-2026-12": 20,  # posts with numbered questions only
    "multi-posts-2026-12": 29,  # short messages of two or three questions, no story; base game, otters, lizards
    "multi-posts-2026-12b": 30,  # the same on the expansions, hirelings, maps and bots
}


def _checks(bench) -> dict:
    """Each check set's items, by name (bench.py names the sets)."""
    import yaml

    return {path.stem: yaml.safe_load(path.read_text("utf-8")) for path in bench.CHECK_SETS}


def test_no_curated_or_training_text_repeats_a_question_of_the_check_set(bench):
    """The check sets (checks/) measure questions nobody here fitted or indexed: bench.py's own repeat check,
    the one scripts/fit.py runs before training, finds none of its questions in our data."""
    checks = _checks(bench)
    assert len(checks) == len(SHORT_CHECKS) + len(POST_CHECKS) + 3
    assert all(len(checks[f"blind-2026-12{letter}"]) > 90 for letter in ("", "b", "c"))
    assert sum("parts" in i for i in checks["blind-2026-12"]) >= 10  # long posts, each question labelled
    for name, least in SHORT_CHECKS.items():
        assert len(checks[name]) >= least and not any("parts" in i for i in checks[name]), name
    for name, least in POST_CHECKS.items():
        assert len(checks[name]) >= least and all(i["parts"] for i in checks[name]), name
    assert all(bench.overlap_report(items) == [] for items in checks.values())
    items = checks["blind-2026-12"]
    planted = dict(items[0], q="sawmill wood cap?? can i stack more than 1 wood per sawmill")  # an asked question
    assert len(bench.overlap_report([planted])) == 1


def test_every_check_label_names_a_record_and_scores_as_that_record(index, bench):
    """A check question is judged by score.py on its `faq`, `sections` and `law_text` fields, kept beside the
    record ids its readers chose: each id must still be a record (a corpus change that renames one would
    turn a question unanswerable without a word), and the fields score.py reads must say the same records (a rule by
    its base section, which is all score.py reads of a hit: a sub-item's own number would match no hit)."""
    records = index.library.records
    labelled = [(name, unit) for name, items in _checks(bench).items()
                for item in items for unit in [item, *(item.get("parts") or [])]]
    assert len(labelled) > 3700
    wrong = []
    for name, unit in labelled:
        ids = unit["records"]
        if any(i not in records for i in ids):
            wrong.append((name, unit["records"]))
            continue
        laws = [records[i].text for i in ids if i.startswith("law-")]
        sections = {base_ref(records[i].section) for i in ids if i.startswith("rule-")}
        if (sorted(unit.get("faq") or []) != sorted(int(i.split("-")[1]) for i in ids if i.startswith("faq-"))
                or set(unit.get("sections") or []) != sections
                or len(unit.get("law_text") or []) != len(laws)
                or not all(any(t in law for law in laws) for t in unit.get("law_text") or [])
                or unit.get("answerable", True) != bool(ids)):
            wrong.append((name, unit.get("q") or unit.get("question")))
    assert wrong == []


def test_a_question_players_asked_finds_the_record_it_names_first(index):
    from rootfaq.search import answers

    answer = answers.ask(index, "sawmill wood cap?? can i stack more than 1 wood per sawmill", limit=3)
    assert answer.hits[0].record.id == "faq-104"
