"""Write questions labelled by record id in ../shared/eval/score.py's by-record format, to score them
through the product as the judging scores its own sets.

    python scripts/score_format.py OUT.yaml training/blind-questions-AD.yaml [more files ...]

Input: training question files (`q`, `style`, `records`) or long-post files (`post`, each question in
`parts` with its own `records`). Output: one item per question or post, `records` kept beside score.py's
labels (faq entry numbers, rule sections by their base number as score.py reads a hit, the first 50
characters of a Law passage); a post's labels are its questions' labels together, each question's in
`parts`. The check sets in `checks/` are in this form. A record id score.py could not recognise a hit by
(one the corpus no longer holds, or a record with no section, such as a part's title page) is reported and
left out.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

from rootfaq.corpus.refs import base_ref

LAW_TEXT_CHARS = 50  # score.py finds a Law label by its text inside the hit's text
_FAQ_ID = re.compile(r"faq-0*(\d+)$")


def labels(records: dict, ids: list[str]) -> tuple[dict, list[str]]:
    """(score.py's labels for the record ids, the ids it cannot name: not in the corpus, or with no section)."""
    faq, sections, law, missing = [], [], [], []
    for record_id in ids:
        record = records.get(record_id)
        if record is None:
            missing.append(record_id)
        elif match := _FAQ_ID.match(record_id):
            faq.append(int(match.group(1)))
        elif record.source == "law":
            law.append(record.text[:LAW_TEXT_CHARS])
        elif record.section:
            # score.py judges a hit by its base section (9.2.9.iii.a is 9.2.9), so a sub-item is labelled by that:
            # its own number would never match any hit, not even the sub-item itself.
            if (base := base_ref(record.section)) not in sections:
                sections.append(base)
        else:
            missing.append(record_id)  # nothing score.py could recognise it by
    found = [i for i in ids if i not in missing]
    labelled = {"answerable": bool(found), "records": found}
    labelled |= {key: value for key, value in (("faq", faq), ("sections", sections), ("law_text", law)) if value}
    return labelled, missing


def converted(item: dict, records: dict) -> tuple[dict, list[str]]:
    """One training item in score.py's format, and the record ids of it that score.py cannot name."""
    if "post" not in item:
        labelled, missing = labels(records, item.get("records") or [])
        return {"q": item["q"], "style": item.get("style", "table"), **labelled}, missing
    parts, missing = [], []
    for part in item.get("parts") or []:
        labelled, lost = labels(records, part.get("records") or [])
        parts.append({"question": part["question"], **labelled})
        missing += lost
    every = list(dict.fromkeys(r for part in item.get("parts") or [] for r in part.get("records") or []))
    labelled, _ = labels(records, every)
    style = "long-multi" if len(parts) > 1 else "long"
    return {"q": item["post"], "style": style, **labelled, "parts": parts}, missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("sources", type=Path, nargs="+")
    args = parser.parse_args()
    from rootfaq.search.store import open_index

    records = open_index().library.records
    items, missing = [], []
    for source in args.sources:
        for item in yaml.safe_load(source.read_text(encoding="utf-8")) or []:
            done, lost = converted(item, records)
            items.append(done)
            missing += lost
    args.out.write_text(yaml.safe_dump(items, sort_keys=False, allow_unicode=True), encoding="utf-8")
    if missing:
        print(f"left out (not in the corpus, or no section to name them by): {', '.join(sorted(set(missing)))}",
              file=sys.stderr)
    print(f"{args.out}: {len(items)} items")
    return 0


if __name__ == "__main__":
    sys.exit(main())
