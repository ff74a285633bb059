"""Contrast spans for the span head: sentences that hold two or more values of one
kind (two sums, two dates, two names), each value asked for by the words around it.

python synth_spans.py [--per-box N]   -> /tmp/quoth-selector/reader/spans.contrast.jsonl

A question made from a whole sentence's words cannot say which of its two sums it
wants; one made from the words next to a value can ("how much deposit" in "the
deposit of $850 is due Friday and the full price of $4,200 on the day"). For each
such sentence of the training mailboxes' authored mail, each of (at most) two values
becomes the answer of a short question: the kind's question words and one to three
lower-case words found within a few words of that value but not near the other
values of its kind. Nothing else of the sentence is copied.

Rows have the format of spans.train.jsonl, with provenance (`box`, `msg`, `sent`,
`value`, `kind`, `other`). Only the mailboxes in common.TRAIN_BOXES are read.
"""
import argparse
import json
import os
import random
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MODEL_DIR, OUT, STOP, TRAIN_BOXES, fit_pair, load_box  # noqa
from make_spans import locate  # noqa
from synth_questions import WH, ctx3, find_values, first_names  # noqa

from transformers import BertTokenizerFast  # noqa

rng = random.Random(31)
WORD = re.compile(r"[a-z][a-z0-9'-]+")
# words before / after a value that count as near it
BEFORE, AFTER = 6, 3


def near_words(sent, start, end):
    """Lower-case content words within BEFORE words before and AFTER words after
    the character range, nearest first."""
    before = [w for w in re.findall(r"\S+", sent[:start])][-BEFORE:]
    after = [w for w in re.findall(r"\S+", sent[end:])][:AFTER]
    out = []
    for w in list(reversed(before)) + after:
        t = w.strip(".,;:!?()[]\"'")
        # written in lower case: the topic, not a name or a value
        if WORD.fullmatch(t) and t not in STOP and len(t) > 2 and t not in out:
            out.append(t)
    return out


def apart(sent, vals):
    """Values at least three words apart: not parts of one expression ("Friday,
    October 6")."""
    spans = sorted((vs, ve) for vs, ve, _ in vals)
    return all(len(sent[a[1]:b[0]].split()) >= 3 for a, b in zip(spans, spans[1:]))


def question(kind, words, sender):
    wh = rng.choice(WH[kind])
    body = " ".join(words)
    style = rng.random()
    first = sender.split(",")[-1].split()[0] if sender and sender.split(",")[-1].split() else ""
    if style < 0.5:
        q = f"{wh} {body}"
    elif style < 0.75:
        q = f"{wh} is the {body}"
    elif style < 0.9 and first.isalpha():
        q = f"{wh} did {first} say for the {body}"
    else:
        q = f"{body} {wh}"
    if rng.random() < 0.6:
        q += "?"
    if rng.random() < 0.5:
        q = q[0].upper() + q[1:]
    return q


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-box", type=int, default=400)
    a = ap.parse_args()
    tok = BertTokenizerFast.from_pretrained(MODEL_DIR)
    out_path = os.path.join(OUT, "spans.contrast.jsonl")
    stats = Counter()
    with open(out_path + ".tmp", "w") as out:
        for box in TRAIN_BOXES:
            msgs = load_box(box)
            first_names(msgs)
            ids = sorted(msgs)
            rng.shuffle(ids)
            made, seen = 0, set()
            for mid in ids:
                if made >= a.per_box:
                    break
                m = msgs[mid]
                for i, s in enumerate(m["sents"]):
                    n = len(s.split())
                    # header lines of forwarded mail are lists of names, not sentences
                    if n < 8 or n > 60 or s in seen or "@" in s or s.count("/") > 3:
                        continue
                    by_kind = {}
                    for kind, vs, ve, v in find_values(s):
                        by_kind.setdefault(kind, []).append((vs, ve, v))
                    groups = [(k, vals) for k, vals in by_kind.items()
                              if len({v for _, _, v in vals}) >= 2 and all(s.count(v) == 1 for _, _, v in vals)
                              and apart(s, vals)]
                    if not groups:
                        continue
                    seen.add(s)
                    kind, vals = rng.choice(groups)
                    rng.shuffle(vals)
                    near = {v: near_words(s, vs, ve) for vs, ve, v in vals}
                    wrote = 0
                    for vs, ve, v in vals[:2]:
                        others = set(w for v2, ws in near.items() if v2 != v for w in ws)
                        own = [w for w in near[v] if w not in others and w not in v.lower()]
                        if not own:
                            stats["no_own_words"] += 1
                            continue
                        words = own[:rng.choice([1, 2, 2, 3])]
                        q = question(kind, words, m["sender"])
                        text_b = fit_pair(tok, q, *ctx3(m, i))
                        span = locate(text_b, [v])
                        if span is None:
                            stats["cut_away"] += 1
                            continue
                        out.write(json.dumps({
                            "qid": f"contrast:{box}:{made}:{wrote}", "question": q, "text_b": text_b,
                            "start": span[0], "end": span[1], "answer": span[2], "answers": [v],
                            "source": "synthetic_contrast", "box": box, "msg": mid, "sent": i,
                            "value": v, "kind": kind, "other": [x for _, _, x in vals if x != v]}) + "\n")
                        wrote += 1
                        stats[kind] += 1
                    made += 1 if wrote else 0
                    if made >= a.per_box:
                        break
            print(box, made, dict(stats), flush=True)
    os.replace(out_path + ".tmp", out_path)
    print(json.dumps(dict(stats)))


if __name__ == "__main__":
    main()
