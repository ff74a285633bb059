"""Span rows with "no answer" rows, for a span head that also says when a sentence
holds no answer (a start and an end on [CLS], as for unanswerable SQuAD 2.0 questions).

python make_null_spans.py [--synth groups.synth3.jsonl] [--out spans.null.jsonl]

Answer rows: the gold sentences of the real training questions that hold an answer
string (`pairs.train.jsonl`), and the synthetic questions' sentences with their value
as the span. No-answer rows, each with `null: true`: of every synthetic question, the
sentence with its value taken out and one other of its negatives; of every synthetic
question asking for a kind the evidence lacks, one of its sentences; of every real
question, up to two of its negatives (sentences that do not answer it, near misses'
sentences among them). Every row keeps its group's provenance. Training mailboxes
only, as the groups are.
"""
import argparse
import json
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import OUT  # noqa
from make_spans import answers_by_qid, locate, row  # noqa


def null_row(qid, question, text_b, source, **prov):
    """A row whose sentence holds no answer to the question."""
    return dict(qid=qid, question=question, text_b=text_b, null=True, source=source, **prov)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--synth", default="groups.synth3.jsonl")
    ap.add_argument("--out", default="spans.null.jsonl")
    a = ap.parse_args()
    rng = random.Random(31)
    answers = answers_by_qid()
    stats = Counter()
    rows = []
    for line in open(os.path.join(OUT, "pairs.train.jsonl")):
        p = json.loads(line)
        if p["label"] != 1 or p["source"] != "gold":
            continue
        ans = answers.get(p["qid"]) or answers.get(p["qid"].split(":", 1)[-1], [])
        span = locate(p["text_b"], ans)
        if span:
            rows.append(row(p["qid"], p["question"], p["text_b"], span, "real"))
            stats["real"] += 1
    for line in open(os.path.join(OUT, "groups.real.jsonl")):
        g = json.loads(line)
        negs = list(g["neg"])
        rng.shuffle(negs)
        for src, text_b in negs[:2]:
            rows.append(null_row(g["qid"], g["question"], text_b, f"real_null/{src}"))
            stats["real_null"] += 1
    for line in open(os.path.join(OUT, a.synth)):
        g = json.loads(line)
        prov = {k: g[k] for k in ("box", "msg", "sent", "kind") if k in g}
        if g["source"] == "synthetic_question" and g["pos"]:
            span = locate(g["pos"][0], [g["value"]])
            if span:
                rows.append(row(g["qid"], g["question"], g["pos"][0], span, "synthetic_question", **prov))
                stats["synthetic_question"] += 1
            removed = [t for s, t in g["neg"] if s == "removed"]
            others = [t for s, t in g["neg"] if s != "removed"]
            for text_b in removed[:1] + rng.sample(others, min(1, len(others))):
                rows.append(null_row(g["qid"], g["question"], text_b, "synthetic_question_null", **prov))
                stats["synthetic_question_null"] += 1
        elif g["source"] == "synthetic_null" and g["neg"]:
            rows.append(null_row(g["qid"], g["question"], g["neg"][0][1], "synthetic_null", **prov))
            stats["synthetic_null"] += 1
    rng.shuffle(rows)
    with open(os.path.join(OUT, a.out), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
