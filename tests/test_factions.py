"""Faction names exactly or not at all: what --faction and :faction accept, the Clockwork bots as data,
and the checks on corpus/factions.yaml."""

from __future__ import annotations

import pytest

from rootfaq.corpus.curated import parse_factions
from rootfaq.corpus.factions import osa_distance, read_faction, read_factions
from rootfaq.errors import CorpusError, UsageError

BOTS = {
    "mechanical-marquise": ("Mechanical Marquise", "marquise"),
    "electric-eyrie": ("Electric Eyrie", "eyrie"),
    "automated-alliance": ("Automated Alliance", "alliance"),
    "vagabot": ("Vagabot", "vagabond"),
    "riverfolk-robots": ("Riverfolk Robots", "riverfolk"),
    "logical-lizards": ("Logical Lizards", "lizards"),
    "drillbit-duchy": ("Drillbit Duchy", "duchy"),
    "cogwheel-corvids": ("Cogwheel Corvids", "corvids"),
}


@pytest.fixture(scope="module")
def factions(index):
    return index.library.query_model.factions


# --- what is accepted ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, key",
    [
        ("marquise", "marquise"),  # key
        ("Marquise de Cat", "marquise"),  # printed name
        ("MARQUISE", "marquise"),  # a name the rules use, any case
        ("cats", "marquise"),  # nickname
        ("  Woodland   Alliance ", "alliance"),  # spacing does not matter
        ("WA", "alliance"),
        ("lord of hundreds", "hundreds"),
        ("bone-patrol", "bone-patrol"),
        ("otters", "riverfolk"),
    ],
)
def test_names_keys_and_nicknames_are_taken_exactly(factions, typed, key):
    reading = read_faction(factions, typed)
    assert (reading.key, reading.exact, reading.note) == (key, True, None)


@pytest.mark.parametrize("key, expected", sorted(BOTS.items()))
def test_every_clockwork_bot_is_its_own_name_and_plays_its_faction(factions, key, expected):
    name, played = expected
    assert read_faction(factions, name).key == key
    assert read_faction(factions, name.lower()).key == key
    assert factions[key].bot_of == played and factions[key].group == "clockwork"
    assert name.lower() not in [n.lower() for n in factions[played].names], "a bot's name is not its faction's"


@pytest.mark.parametrize(
    "typed, key",
    [("marquse", "marquise"), ("eyire", "eyrie"), ("vagabnd", "vagabond"), ("Vagabots", "vagabot"),
     ("lizzards", "lizards"), ("croakrs coven", "croakers-coven"), ("automated aliance", "automated-alliance")],
)
def test_a_close_misspelling_is_taken_only_when_one_faction_is_meant_and_says_so(factions, typed, key):
    reading = read_faction(factions, typed)
    assert reading.key == key and not reading.exact
    assert reading.note == f"read faction '{typed}' as {factions[key].name}"


# --- what is refused ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, message",
    [
        ("doggos", "unknown faction 'doggos'"),  # was Bone Patrol, silently
        ("automated", "unknown faction 'automated'"),  # was the Eyrie
        ("pirates", "unknown faction 'pirates'"),  # was the Lord of the Hundreds
        ("bird cards", "unknown faction 'bird cards'"),  # looks like a nickname, names no faction
        ("cats,birds", "is a list"),  # the birds were dropped
        ("cats; birds", "is a list"),
        ("", "empty faction name"),  # listed everything
        ("   ", "empty faction name"),
        ("frogs", "could be Lilypad Diaspora (lilypad) or Croakers Coven (croakers-coven)"),
        ("bats", "could be Twilight Council (twilight) or Winged Menace (winged-menace)"),
        ("cta", "unknown faction"),  # too short to read as a misspelling
    ],
)
def test_mistakes_are_usage_errors_that_list_the_valid_names(factions, typed, message):
    with pytest.raises(UsageError) as err:
        read_faction(factions, typed)
    assert message in err.value.message
    assert err.value.exit_code == 2
    hint = err.value.hint
    if "is a list" in message:
        assert "--faction cats --faction birds" in hint
    assert all(key in hint for key in factions), "every valid key is listed"


def test_a_refused_name_suggests_what_it_may_have_meant(factions):
    with pytest.raises(UsageError) as err:
        read_faction(factions, "automated")
    assert "did you mean Automated Alliance" in err.value.message


def test_several_names_read_without_repeats(factions):
    readings = read_factions(factions, ["cats", "Marquise", "birds"])
    assert [r.key for r in readings] == ["marquise", "eyrie"]


@pytest.mark.parametrize("a, b, distance", [("eyire", "eyrie", 1), ("doggos", "dogs", 2), ("", "abc", 3),
                                            ("marquse", "marquise", 1), ("abc", "abc", 0)])
def test_edit_distance_counts_a_swap_as_one_edit(a, b, distance):
    assert osa_distance(a, b) == distance == osa_distance(b, a)


# --- tags: bots as data -------------------------------------------------------------------------------------


def test_a_record_naming_a_bot_is_tagged_with_the_bot_its_faction_and_clockwork(corpus):
    records = corpus.by_id()
    assert records["faq-241"].factions[:2] == ["alliance", "clockwork"]  # the first tags read as before
    assert "automated-alliance" in records["faq-241"].factions
    assert records["faq-233"].factions == ["marquise", "clockwork", "mechanical-marquise"]
    assert "logical-lizards" in records["faq-252"].factions  # "the Lizard bot", as the FAQ calls it
    by_key = {f.key: f for f in corpus.factions}
    for record in corpus.records:
        for key in record.factions:
            if by_key[key].is_bot:
                assert by_key[key].bot_of in record.factions and "clockwork" in record.factions, record.id


def test_no_faq_ruling_is_about_a_fan_faction(corpus):
    """The FAQ answers the official game only: a word one fan faction also uses ("repair", the Vagabond's own
    action, was Old Man Tinker's term) must not tag an official ruling with it."""
    fan = {f.key for f in corpus.factions if f.group == "outsiders"}
    tagged = {r.id: sorted(fan & set(r.factions)) for r in corpus.records if r.source == "faq"}
    assert {record_id: keys for record_id, keys in tagged.items() if keys} == {}
    assert "old-man-tinker" not in corpus.by_id()["faq-162"].factions  # the Vagabond's Refresh repairs
    assert "croakers-coven" not in corpus.by_id()["rule-S.2.6"].factions  # a map's stone cat statues


def test_order_of_the_forest_order_cards_are_not_bot_rules(corpus):
    records = corpus.by_id()
    for record_id in ("rule-OF.2.8", "rule-OF.4.1", "rule-OF.5.2", "rule-OF.6.2"):
        assert "clockwork" not in records[record_id].factions, record_id
    assert "clockwork" in records["rule-S.2.11"].factions  # "Using Bots" is about bots


# --- corpus/factions.yaml is checked on load ----------------------------------------------------------------

BASE = "- key: marquise\n  name: Marquise de Cat\n  group: base\n  names: [Marquise]\n" \
       "- key: clockwork\n  name: Clockwork bots\n  group: clockwork\n  names: [Clockwork]\n"


@pytest.mark.parametrize(
    "extra, line, problem",
    [
        ("- key: cat-bot\n  name: Cat Bot\n  group: clockwork\n  bot_of: gnomes\n  names: [Cat Bot]\n", 9,
         "bot_of 'gnomes'"),
        ("- key: cat-bot\n  name: Cat Bot\n  group: robots\n  bot_of: marquise\n  names: [Cat Bot]\n", 9,
         "group 'robots'"),
        ("- key: cat-bot\n  name: Cat Bot\n  group: clockwork\n  bot_of: marquise\n  names: [Marquise]\n", 9,
         "'marquise' is a name of both marquise and cat-bot"),
        ("- key: Cat Bot\n  name: Cat Bot\n  group: clockwork\n  names: [Cat Bot]\n", 9, "lower-case"),
        ("- key: marquise\n  name: Cat\n  group: base\n  names: [Cat]\n", 9, "used twice"),
        ("- key: cat-bot\n  name: Cat Bot\n  group: clockwork\n  bot_of: [marquise]\n  names: [Cat Bot]\n", 9,
         "'bot_of' must be"),
        ("- key: cats\n  name: Cats\n  group: base\n  names: [Cats]\n  law_chapter: true\n", 9, "'law_chapter' must"),
        ("- key: cats\n  name: Cats\n  group: base\n  names: [Cats]\n  law_chapter: 6\n"
         "- key: dogs\n  name: Dogs\n  group: base\n  names: [Dogs]\n  law_chapter: 6\n", 14, "law_chapter 6 is also"),
        ("- key: bats\n  name: Bats\n  group: outsiders\n  names: [Bats]\n  prefix: bp\n", 9, "'prefix' must"),
        ("- key: bats\n  name: Bats\n  group: outsiders\n  names: [Bats]\n  prefix: [BP]\n", 9, "'prefix' must"),
        ("- key: bats\n  name: Bats\n  group: outsiders\n  names: [Bats]\n  prefix: G\n", 9, "Law appendix"),
        ("- key: bats\n  name: Bats\n  group: outsiders\n  names: [Bats]\n  prefix: BP\n"
         "- key: rats\n  name: Rats\n  group: outsiders\n  names: [Rats]\n  prefix: BP\n", 14, "prefix BP is also"),
        ("- key: bats\n  name: Bats\n  group: fan-stuff\n  names: [Bats]\n", 9, "group 'fan-stuff' is none of"),
    ],
)
def test_factions_yaml_mistakes_name_file_and_line(extra, line, problem):
    with pytest.raises(CorpusError) as err:
        parse_factions(BASE + extra, "factions.yaml")
    assert err.value.message.startswith(f"factions.yaml:{line}:"), err.value.message
    assert problem in err.value.message


def test_the_shipped_factions_file_loads_with_its_bots(corpus):
    bots = {f.key: (f.name, f.bot_of) for f in corpus.factions if f.is_bot}
    assert bots == BOTS
