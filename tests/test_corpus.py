"""The three sources parsed into records: counts measured on the files, provenance, flags, numbering."""

from __future__ import annotations

import collections
import hashlib
import re
from importlib import resources

import pytest

from rootfaq.corpus import refs, terms
from rootfaq.corpus.build import build_corpus
from rootfaq.corpus.curated import parse_factions, parse_questions, parse_rule_phrasings, parse_vocabulary
from rootfaq.corpus.faq import parse_faq
from rootfaq.corpus.files import CORPUS_FILES, read_corpus_files
from rootfaq.errors import CorpusError

# The seeds, byte for byte (shared/seeds/README.md names them by these hashes' files).
SEED_SHA256 = {
    "faq.txt": "8543534dbfabe88f2514f65e8cc3d1d209faf80c62a9350270b7d299886414ad",
    "outsiders-rulebook.txt": "f8e12fefc9e04577115f83c4569bdc361a726bf8f8290c04fe764b06ac840c7e",
    "law-excerpts.txt": "8f8387cc17527eea336ab19071d6a0ebe6c23997e1b251d6450ebf6f73972ced",
}


def by_source(corpus, source):
    return [r for r in corpus.records if r.source == source]


@pytest.mark.parametrize("name,digest", sorted(SEED_SHA256.items()))
def test_seed_copies_are_byte_for_byte(name, digest):
    data = resources.files("rootfaq.corpus_data").joinpath(name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest


def test_every_corpus_file_ships_with_the_package():
    texts = read_corpus_files()
    assert set(texts) == set(CORPUS_FILES)


def test_faq_counts_match_the_measured_file(corpus):
    faq = by_source(corpus, "faq")
    assert len(faq) == 284
    assert [r.id for r in faq[:2]] == ["faq-001", "faq-002"] and faq[-1].id == "faq-284"
    assert sum(r.is_answer for r in faq) == 283
    grades = collections.Counter(r.grade for r in faq)
    assert grades == {
        "designer": 135, "rulebook": 80, "ungraded": 43, "consensus": 16, "best-reading": 6,
        "disputed": 2, "publisher": 1, "community": 1,
    }
    assert corpus.faq_header.date == "2026-10-28"
    assert all(r.date == "2026-10-28" for r in faq)


def test_faq_grade_details_are_kept_verbatim(corpus):
    faq = {r.id: r for r in by_source(corpus, "faq")}
    designer = [r for r in faq.values() if r.grade == "designer"]
    assert {r.year for r in designer} <= set(range(2017, 2025)) and all(r.year for r in designer)
    rulebook = [r for r in faq.values() if r.grade == "rulebook"]
    assert len({(r.section, r.section_title) for r in rulebook}) == 53
    roll = next(r for r in rulebook if r.section == "4.3.2")
    assert roll.section_title == "Step 2: Roll Dice"
    assert roll.grade_sentence == 'The rulebook answers this in "4.3.2 Step 2: Roll Dice".'
    variant = next(r for r in rulebook if r.section_title == "Variant Maps")
    assert variant.section == "C"


def test_the_entry_that_lost_its_answer_is_kept_and_flagged(corpus):
    missing = [r for r in by_source(corpus, "faq") if not r.is_answer]
    assert len(missing) == 1
    assert "missing-answer" in missing[0].flags and missing[0].text == ""
    assert missing[0].grade == "designer"


def test_two_grade_lines_in_a_row_make_an_entry_without_answer():
    text = "T\nD\nUpdated 2026-01-01.\nD\nUpdated 2026-01-01.\n" + "\n".join([
        "The designer ruled on this directly on BGG in 2019.",
        "The designer ruled on this directly on BGG in 2020.",
        "Yes. It works.",
        "No grade here.",
    ])
    header, records = parse_faq(text)
    assert header.date == "2026-01-01"
    assert [(r.grade, r.year, r.is_answer) for r in records] == [
        ("designer", 2019, False), ("designer", 2020, True), ("ungraded", None, True)
    ]


def test_law_paragraphs_are_numbered_from_evidence(corpus):
    law = by_source(corpus, "law")
    assert len(law) == 14
    got = [(r.section, r.section_basis.split()[0]) for r in law]
    assert got == [
        ("1.1.1", "quoted"), ("1.1.2", "quoted"), ("1.1.3", "quoted"), ("1.2.1", "cited"),
        ("1.2.2", "cited"), ("1.3.1", "quoted"), ("1.3.2", "inferred"), ("1.4.1", "cited"),
        ("1.4.2", "cited"), ("1.5.1", "cited"), ("1.5.2", "inferred"), ("1.5.3", "inferred"),
        ("1.5.4", "cited"), ("1.5.5", "inferred"),
    ]
    # Titles only where a source gives one; the FAQ's other name for 1.1.3 is kept beside the quoted one.
    assert law[2].section_title == "Resolving Simultaneous Things"
    assert law[2].alt_titles == ["Unclear Resolutions and Choices"]
    assert law[6].section_title is None


def test_every_numbered_outsiders_section_is_a_record(corpus):
    text = resources.files("rootfaq.corpus_data").joinpath("outsiders-rulebook.txt").read_text("utf-8")
    body = text.split("Golden Reminders\n\nThis Law of Slug", 1)[1]
    # Read with a plain pattern of our own, not the parser's: "BP.2.5 Bone Tokens. ...", "6.2.3 Field ...".
    numbered = re.compile(r"^((?:[A-Z]{1,3}\.)?\d+(?:\.\d+)+)\s")
    printed = set()
    for line in body.splitlines():
        m = numbered.match(line.strip().lstrip("• ").strip())
        if m:
            printed.add(m[1])
    held = {r.section for r in by_source(corpus, "outsiders") if r.section}
    assert len(printed) > 150 and printed <= held, printed - held
    toc = {"BP.2", "WM.6", "OMT.4", "VG.1", "S.2", "C.1", "A.8"}
    assert toc <= held


def test_numbers_printed_twice_stay_two_flagged_records(corpus):
    outsiders = by_source(corpus, "outsiders")
    for number, copies in (("VG.1.1", 2), ("TC.3.4", 2), ("13.4.3", 3)):
        same = [r for r in outsiders if r.section == number and "fan-note" not in r.flags]
        assert len(same) == copies, number
        assert all("duplicate-number" in r.flags for r in same)
        assert len({r.id for r in same}) == copies


def test_truncated_passages_are_flagged_not_completed(corpus):
    records = corpus.by_id()
    assert "truncated" in records["rule-S.2.11"].flags
    assert records["rule-S.2.11"].text.endswith("Use the following priorities:")
    laws = records["rule-TC.2.3"]
    assert "truncated" in laws.flags  # TC.2.4 refers to law xvi; only i-ix are printed
    assert laws.children[-1] == "rule-TC.2.3.ix"


def test_sub_items_are_addressable_and_in_order(corpus):
    records = corpus.by_id()
    bones = records["rule-BP.2.5"]
    assert bones.children == ["rule-BP.2.5.i", "rule-BP.2.5.ii", "rule-BP.2.5.iii", "rule-BP.2.5.iv"]
    assert records["rule-BP.2.5.iv"].title == "Protective Breed"
    assert records["rule-BP.2.5.iv"].parent == "rule-BP.2.5"
    assert records["rule-9.2.9.iii.a"].title == "Infamy"


def test_golden_reminders_are_marked_as_quoted_law(corpus):
    records = corpus.by_id()
    assert "quotes-law" in records["rule-4.3.2"].flags and records["rule-4.3.2"].grade == "law"
    assert records["rule-4.3.2"].part == "Golden Reminders"
    corvige = records["rule-13.4.3-2"]
    assert "unofficial-rule" in corvige.flags and corvige.grade == "fan-rule"


MIXED_LAW_RECORDS = ("rule-1.3.1", "rule-8.4.1", "rule-8.6.1.iv", "rule-9.2.9.iii.a", "rule-11.5.6", "rule-13.4.3")


@pytest.mark.parametrize("record_id", MIXED_LAW_RECORDS)
def test_a_quoted_law_section_keeps_the_laws_words_and_its_fan_note_is_a_fan_rule(corpus, record_id):
    """The Outsiders quote Law sections verbatim and add their own note after a '*': the note is split
    off under its own badge (fan-rule), printed under the same number and line, never under the Law's."""
    records = corpus.by_id()
    law, note = records[record_id], records[f"{record_id}-note"]
    assert law.grade == "law" and "*" not in law.text
    assert note.grade == "fan-rule" and "fan-note" in note.flags and not note.official
    assert note.section == law.section and note.origin == law.origin and note.parent == law.id
    assert note.id not in law.children  # a note is no sub-item: sub-items show under the Law's badge
    assert note.text[0].isupper() and not note.text.startswith("*")


def test_no_law_grade_text_anywhere_holds_a_fan_note_or_fan_content(corpus):
    """Corpus-wide: a '*' note marker, a fan map or a fan faction's name never sits under the Law badge."""
    fan_words = re.compile(r"(?:^|\s)\*\w|Deep Woods|Wastelands|Twelve Colonies|Outsiders|Unofficial", re.I)
    mixed = [r.id for r in corpus.records if r.grade == "law" and fan_words.search(r.text)]
    assert mixed == []
    assert sorted(r.parent for r in corpus.records if "fan-note" in r.flags) == sorted(MIXED_LAW_RECORDS)


def test_table_of_contents_is_not_content(corpus):
    lines = {r.origin.line for r in by_source(corpus, "outsiders")}
    assert min(lines) > 58  # the contents end before the first part heading


def test_text_under_headings_is_kept(corpus):
    records = corpus.by_id()
    assert records["rule-part-bone-patrol"].text == "Bone Patrol! v2.1"
    assert records["rule-BP.1"].text.startswith('"Give us the bones!"')


@pytest.mark.parametrize(
    "text,expected",
    [
        ("(see BP.2.5iv for removal)", ["BP.2.5.iv"]),
        ("Lords of the Forest (7.2.2) AND", ["7.2.2"]),
        ("Contrary to 1.3.1 in the Law", ["1.3.1"]),
        ("(G.1.19 - Place.) (G.1.22 - Remove.)", ["G.1.19", "G.1.22"]),
        ("check for Infamy scoring (9.2.9.iiia).", ["9.2.9.iii.a"]),
        ("as per 9.2.10 and 9.2.1", ["9.2.10", "9.2.1"]),
        ("Bone Patrol! v2.1", []),
        ("(5 - Setup)", ["5"]),
    ],
)
def test_references_in_text(corpus, text, expected):
    numbers = refs.SectionNumbers(f.prefix for f in corpus.factions if f.prefix)
    assert numbers.in_text(text) == expected


def test_cross_references_become_exact_links(corpus):
    records = corpus.by_id()
    assert "BP.2.5.iv" in records["rule-BP.2.2"].xrefs
    assert "7.2.2" in records["rule-BP.2.2"].xrefs
    # Exact matching: 1.1 is not 1.1.3, 9.2.1 is not 9.2.10.
    assert "1.1" not in records["rule-4.3.3"].xrefs and "1.1.3" in records["rule-4.3.3"].xrefs
    assert "TC.2.3.xvi" in corpus.unresolved_refs


# A hand-checked sample of the tagging: (id, factions that must be first, topics that must be present).
TAGGING_SAMPLE = [
    ("rule-BP.2.2", ["bone-patrol"], []),
    ("rule-6.2.3", ["marquise"], []),
    ("rule-7.2.2", ["eyrie"], ["rule"]),
    ("rule-WM.2.5.i", ["winged-menace"], []),
    ("rule-OMT.4.0", ["old-man-tinker"], ["setup"]),
    ("faq-071", [], ["battle"]),
    ("faq-109", ["marquise"], ["battle"]),
    ("faq-165", ["vagabond"], ["ruins"]),
    ("faq-218", ["duchy"], []),
    ("faq-246", ["clockwork"], ["bots"]),
]


@pytest.mark.parametrize("record_id,factions,topics", TAGGING_SAMPLE)
def test_tagging_sample(corpus, record_id, factions, topics):
    record = corpus.by_id()[record_id]
    assert record.factions[: len(factions)] == factions
    assert set(topics) <= set(record.topics)


def test_every_faction_the_sources_name_is_curated(corpus):
    keys = {f.key for f in corpus.factions}
    assert {"marquise", "eyrie", "alliance", "vagabond", "lizards", "riverfolk", "duchy", "corvids", "hundreds",
            "keepers", "lilypad", "twilight", "knaves", "clockwork", "bone-patrol", "winged-menace",
            "order-of-the-forest", "croakers-coven", "twelve-colonies", "old-man-tinker", "grouch"} <= keys
    prefixes = {f.prefix for f in corpus.factions if f.prefix}
    assert prefixes == {"BP", "WM", "OF", "CC", "TC", "OMT", "VG"}


def test_curated_yaml_errors_name_file_and_line():
    with pytest.raises(CorpusError) as err:
        parse_factions("- key: cats\n  name: Marquise\n  group: base\n  names: Marquise\n", "factions.yaml")
    assert err.value.message.startswith("factions.yaml:1:") and "names" in err.value.message
    with pytest.raises(CorpusError) as err:
        parse_vocabulary("synonyms:\n  kill: [remove]\n bad: [", "vocabulary.yaml")
    assert "vocabulary.yaml:" in err.value.message
    with pytest.raises(CorpusError) as err:
        parse_questions('faq-001:\n  question: "Q?"\n  fingerprint: "x"\n  colour: red\n', "faq-questions.yaml")
    assert "faq-questions.yaml:2" in err.value.message and "colour" in err.value.message


@pytest.mark.parametrize(
    "parse, text, where, problem",
    [
        # An id that is no id, or an entry that is no mapping, in the id-keyed files: the line of the key.
        (parse_questions, 'faq-001:\n  question: "Q?"\n  fingerprint: "x"\nfaq-2:\n  question: "Q?"\n',
         "faq-questions.yaml:4:", "'faq-2' is not an id"),
        (parse_questions, 'faq-001:\n  question: "Q?"\n  fingerprint: "x"\nfaq-002: just text\n',
         "faq-questions.yaml:4:", "faq-002: expected"),
        (parse_rule_phrasings, 'rule-BP.2.5:\n  phrasings: [x]\n  fingerprint: "y"\nBP.2.6:\n  phrasings: [z]\n',
         "rule-phrasings.yaml:4:", "'BP.2.6' is not an id"),
        # YAML reads a bare yes, no, on or off as true or false: in the synonyms too.
        (parse_vocabulary, "synonyms:\n  kill: [remove]\n  yes: [agree]\n", "vocabulary.yaml:3:", "in quotes"),
        (parse_vocabulary, "synonyms:\n  kill: [remove]\n  agree: [yes]\n", "vocabulary.yaml:3:", "quote it"),
        # A short form is one word, and stands for words written out after it.
        (parse_vocabulary, "synonyms:\n  kill: [remove]\nabbreviations:\n  fh: field hospitals\n  f h: x\n",
         "vocabulary.yaml:5:", "one word"),
        (parse_vocabulary, "abbreviations:\n  fh: field hospitals\n  dom: [dominance]\n", "vocabulary.yaml:3:",
         "stand for words"),
    ],
)
def test_curated_yaml_mistakes_name_the_line_they_are_on(parse, text, where, problem):
    file = where.split(":")[0]
    with pytest.raises(CorpusError) as err:
        parse(text, file)
    assert err.value.message.startswith(where) and problem in err.value.message, err.value.message


def test_a_changed_answer_names_the_question_that_no_longer_fits():
    texts = read_corpus_files()
    texts["faq.txt"] = texts["faq.txt"].replace("Yes, within the confines", "Yes, inside the confines", 1)
    corpus = build_corpus(texts)
    assert len(corpus.question_problems) == 1
    assert "faq-001" in corpus.question_problems[0] and "faq-questions.yaml:" in corpus.question_problems[0]
    assert corpus.by_id()["faq-001"].title is None


def test_part_records_belong_to_their_own_part_and_faction(corpus):
    records = corpus.by_id()
    assert records["rule-part-bone-patrol"].part == "Bone Patrol"
    assert records["rule-part-bone-patrol"].factions == ["bone-patrol"]
    assert records["rule-part-golden-reminders"].factions == []


def test_quoted_law_sections_do_not_inherit_the_parts_mentions(corpus):
    records = corpus.by_id()
    assert records["rule-4.3.2"].factions == []  # the Golden Reminders intro mentions Croakers; 4.3.2 does not
    assert records["rule-6.2.3"].factions[0] == "marquise"


def test_the_official_grades_in_words_name_exactly_the_official_grades():
    from rootfaq.corpus.grades import GRADES, OFFICIAL_IN_WORDS, OFFICIAL_LIST

    official = {g.key for g in GRADES.values() if g.official}
    assert official == {"law", "rulebook", "designer", "publisher"}
    for words in (OFFICIAL_IN_WORDS, OFFICIAL_LIST):
        named = {g.key for g in GRADES.values() if g.word.split()[0].lower() in words.lower()}
        assert named == official, words


def test_headings_and_title_pages_without_a_rule_are_known(corpus):
    """A part's title page ("Bone Patrol! v2.1") and a heading with no text of its own answer nothing
    themselves; a section with a line of rule text does, however short."""
    records = {r.id: r for r in corpus.records}
    assert records["rule-part-bone-patrol"].holds_no_rule  # its name and a version
    assert records["rule-OMT.2"].holds_no_rule  # a heading over its sections
    assert not records["rule-BP.5.2"].holds_no_rule  # "Initiate a battle."
    assert not records["rule-TC.2.7"].holds_no_rule
    assert not any(r.holds_no_rule for r in corpus.records if r.source != "outsiders" and r.is_answer)


def test_known_terms_are_found_longest_first_without_overlaps():
    matcher = terms.TermMatcher({"field hospitals": ["fh"], "field": ["field"], "lords of the forest": ["lotf"],
                           "marquise": ["cats"], "mechanical marquise expand": ["mm"]})
    spans = matcher.spans(terms.words("field hospitals in a field, the Lords of the Forest and the Marquise's keep"))
    assert [(keys, start) for start, _, keys in spans] == [(["fh"], 0), (["field"], 4), (["lotf"], 6),
                                                           (["cats"], 12)]
    # a term still found with a possessive on its last word, whether it has one word or several
    assert matcher.find("the mechanical marquise expand's cost") == ["mm"]
    assert matcher.find("nothing here opens a term") == []


def test_a_phrase_that_says_what_a_word_is_not_gives_way_to_a_longer_name_inside_it():
    matcher = terms.TermMatcher({"the order of": ["-"], "order of the forest": ["of"], "the bird": ["-"],
                                 "bird bot": ["ee"], "the woodland": ["-"]}, yielding=frozenset({"-"}))
    assert matcher.find("the order of the forest") == ["of"]
    assert matcher.find("the order of play") == ["-"]
    assert matcher.find("the bird bot moves") == ["ee"]
    assert matcher.find("the woodland") == ["-"]
    # without `yielding` the first phrase found wins, as everywhere else
    assert terms.TermMatcher({"the order of": ["-"], "order of the forest": ["of"]}).find(
        "the order of the forest") == ["-"]
