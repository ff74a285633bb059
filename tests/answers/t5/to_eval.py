#!/usr/bin/env python3
"""Turns the T5-Enron question set (../shared/data/qa/t5-enron) into `quoth eval` items.

usage: to_eval.py T5_DIR train|test > OUT.jsonl

The split is by document: even `document_id` is the training half (it may be trained
and tuned on), odd `document_id` the test half (measured only). Each question is about
one email, so each item is scoped to that email's thread (`thread_of`); an
unanswerable question (`is_impossible`) becomes an abstain item. The answer span is
kept as written, trimmed of surrounding whitespace and punctuation, and its line
breaks collapsed (the scorer ignores case and whitespace).
"""
import json
import re
import sys


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("train", "test"):
        sys.exit(__doc__)
    root, half = sys.argv[1], sys.argv[2]
    want_odd = half == "test"
    with open(f"{root}/questions.jsonl", encoding="utf-8") as f:
        questions = [json.loads(line) for line in f if line.strip()]
    for q in questions:
        if (q["document_id"] % 2 == 1) != want_odd:
            continue
        mid = "<" + q["message_id"].strip("<>") + ">"
        spans = []
        for a in q.get("answers", []):
            text = re.sub(r"\s+", " ", a["text"]).strip(" \t\n.,;:!?\"'()<>‹›")
            if text and text not in spans:
                spans.append(text)
        answerable = not q["is_impossible"] and spans
        item = {
            "id": f"t5-{q['document_id']}-{q['qid']}",
            "kind": "fact" if answerable else "abstain",
            "question": q["question"],
            "gold_message_ids": [mid] if answerable else [],
            "answer_any": spans if answerable else [],
            "thread_of": mid,
            "note": f"T5-Enron document {q['document_id']} ({q['eml']})",
        }
        print(json.dumps(item, ensure_ascii=False))


if __name__ == "__main__":
    main()
