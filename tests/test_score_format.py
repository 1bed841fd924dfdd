"""scripts/score_format.py writes questions labelled by record in the judging scorer's by-record format: the
check sets in checks/ are in that form, so converting their record ids must give back their labels exactly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import score_format  # noqa: E402


@pytest.fixture(scope="module")
def records(corpus):
    return {r.id: r for r in corpus.records}


@pytest.mark.parametrize("name", ["blind-2026-12.yaml", "blind-2026-12b.yaml", "long-posts-2026-12.yaml"])
def test_the_check_sets_labels_come_back_from_their_record_ids(records, name):
    for item in yaml.safe_load((ROOT / "checks" / name).read_text("utf-8")):
        if "parts" in item:
            source = {"post": item["q"], "parts": [{"question": p["question"], "records": p["records"]}
                                                   for p in item["parts"]]}
        else:
            source = {"q": item["q"], "style": item["style"], "records": item["records"]}
        done, missing = score_format.converted(source, records)
        assert not missing
        assert done == item


def test_each_kind_of_record_gets_the_label_the_scorer_reads(records):
    law = next(r for r in records.values() if r.source == "law")
    rule = next(r for r in records.values() if r.source == "outsiders" and r.section)
    labelled, missing = score_format.labels(records, ["faq-019", rule.id, law.id, "faq-999999"])
    assert missing == ["faq-999999"]
    assert labelled == {"answerable": True, "records": ["faq-019", rule.id, law.id], "faq": [19],
                        "sections": [rule.section], "law_text": [law.text[:50]]}


def test_a_sub_item_is_labelled_by_its_base_section_as_the_scorer_reads_a_hit(records):
    """score.py cuts a hit's section to its base (9.2.9.iii.a is 9.2.9) before comparing it with the labels, so
    a label holding the sub-item's own number could never be matched, not even by that sub-item."""
    labelled, _ = score_format.labels(records, ["rule-9.2.9.iii.a", "rule-9.2.9", "rule-BP.2.5.iv"])
    assert [records[i].section for i in ("rule-9.2.9.iii.a", "rule-BP.2.5.iv")] == ["9.2.9.iii.a", "BP.2.5.iv"]
    assert labelled["sections"] == ["9.2.9", "BP.2.5"]


def test_a_question_no_record_answers_stays_unanswerable(records):
    done, missing = score_format.converted({"q": "who designed root", "style": "table", "records": []}, records)
    assert done == {"q": "who designed root", "style": "table", "answerable": False, "records": []}
    assert not missing
