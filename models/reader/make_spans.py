"""Span examples for the reader's span head: (question, candidate text, answer span).

The candidate text is the reader's `text_b` ("{subject} | {sender} | {prev} >>
{sentence} << {next}"), and the span lies inside the sentence. Sources, by split:

- TRAIN: the `gold` pairs of `pairs.train.jsonl` (real questions of t1-t4, d1, d2,
  enron_eval and the T5 even documents) whose sentence holds one of the question's
  answer strings; the `synthetic_question` groups (`groups.synth.jsonl`), whose value
  is the span.
- DEV: the strict evidence sentences of `dev_cands.jsonl` (d3, d4, d5) that hold an
  answer string of their question.

Writes spans.train.jsonl and spans.dev.jsonl under OUT, each row with its provenance
(`qid`, `source`, `msg`/`sent` or `doc`) and the span's character offsets in text_b.
"""
import json
import os
import sys
from collections import Counter

from common import ANS, OUT, T5, read_jsonl

PREV_MARK = " >> "
NEXT_MARK = " << "


def sentence_bounds(text_b):
    """Character range of the sentence in text_b: after the first " >> " that follows
    the subject and sender, up to the last " << "."""
    head = text_b.find(" | ")
    head = text_b.find(" | ", head + 3) if head >= 0 else -1
    start = text_b.find(PREV_MARK, max(head, 0))
    end = text_b.rfind(NEXT_MARK)
    if start < 0 or end < 0 or end <= start:
        return None
    return start + len(PREV_MARK), end


def locate(text_b, answers):
    """The first answer string found (case-insensitively) inside the sentence."""
    bounds = sentence_bounds(text_b)
    if bounds is None:
        return None
    s, e = bounds
    low = text_b.lower()
    for a in sorted({a.strip() for a in answers if a and a.strip()}, key=len):
        at = low.find(a.lower(), s, e)
        if at >= 0 and at + len(a) <= e:
            return at, at + len(a), a
    return None


def answers_by_qid():
    out = {}
    sets = [("train", f"t{i}") for i in range(1, 5)] + [("dev", f"d{i}") for i in range(1, 6)]
    for folder, name in sets:
        for q in read_jsonl(os.path.join(ANS, folder, f"{name}.jsonl")):
            out[f"{name}:{q['id']}"] = q.get("answer_any") or []
            out[q["id"]] = q.get("answer_any") or []
    for q in read_jsonl(os.path.join(ANS, "enron_eval.jsonl")):
        out[f"enron_eval:{q['id']}"] = q.get("answer_any") or []
    for q in read_jsonl(os.path.join(T5, "questions.jsonl")):
        out[f"t5:{q['qid']}"] = [a["text"] for a in q["answers"]]
    return out


def row(qid, question, text_b, span, source, answers=(), **prov):
    s, e, a = span
    return dict(qid=qid, question=question, text_b=text_b, start=s, end=e, answer=a,
                answers=sorted(set(answers) | {a}), source=source, **prov)


def main():
    answers = answers_by_qid()
    stats = Counter()
    train, seen = [], set()
    for l in open(os.path.join(OUT, "pairs.train.jsonl")):
        p = json.loads(l)
        if p["label"] != 1 or p["source"] != "gold":
            continue
        qid = p["qid"]
        ans = answers.get(qid)
        if ans is None:
            # enron_eval ids are stored as "eval:<id>" or bare; t-sets as "tN:<id>"
            ans = answers.get(qid.split(":", 1)[-1], [])
        span = locate(p["text_b"], ans)
        if span is None:
            stats["real_no_span"] += 1
            continue
        key = (qid, p["text_b"])
        if key in seen:
            continue
        seen.add(key)
        prov = {k: p[k] for k in ("msg", "sent", "doc") if k in p}
        train.append(row(qid, p["question"], p["text_b"], span, "real", **prov))
        stats["real"] += 1
    for l in open(os.path.join(OUT, "groups.synth.jsonl")):
        g = json.loads(l)
        if g["source"] != "synthetic_question" or not g["pos"]:
            continue
        span = locate(g["pos"][0], [g["value"]])
        if span is None:
            stats["synth_no_span"] += 1
            continue
        train.append(row(g["qid"], g["question"], g["pos"][0], span, "synthetic_question",
                         box=g["box"], msg=g["msg"], sent=g["sent"], kind=g["kind"]))
        stats["synthetic_question"] += 1

    dev = []
    for l in open(os.path.join(OUT, "dev_cands.jsonl")):
        c = json.loads(l)
        if not c.get("strict"):
            continue
        span = locate(c["text_b"], answers.get(c["qid"], []))
        if span is None:
            stats["dev_no_span"] += 1
            continue
        dev.append(row(c["qid"], c["question"], c["text_b"], span, "dev", answers.get(c["qid"], []), split=c["split"],
                       msg=c["msg"], sent=c["sent"]))
        stats["dev"] += 1
    for name, rows in (("spans.train.jsonl", train), ("spans.dev.jsonl", dev)):
        with open(os.path.join(OUT, name), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(json.dumps(stats), file=sys.stderr)


if __name__ == "__main__":
    main()
