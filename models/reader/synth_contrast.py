"""Contrast groups for the reader: a sentence that names what is asked and holds a
value of the asked kind, but not the value asked for.

python synth_contrast.py [--per-box N]   -> /tmp/quoth-selector/reader/groups.contrast.jsonl

A near miss often reads like an answer: "how much is the deposit?" against "the
deposit is still open and the full price is $4,200" names the deposit and holds a
sum, yet says nothing of the deposit's amount. The reader learns this only from
sentences where the asked value is bound to its words and another value of the same
kind stands beside it. The contrast rows of `synth_spans.py` are such sentences
(two values of one kind, each asked for by the words next to it), all from the
training mailboxes. From each row:

- `synthetic_contrast` (answered): the question, the sentence as written (the
  answer), and as negatives the sentence with the asked value taken out (deleted, or
  replaced by a phrase that leaves it open) while the other value stays, and up to
  two other sentences of the message without the value;
- `contrast_null` (no answer): the same question over the sentence with the value
  taken out and up to two other sentences of the message without it.

Each group keeps its row's provenance (`box`, `msg`, `sent`, `value`, `kind`).
"""
import argparse
import json
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MODEL_DIR, OUT, TRAIN_BOXES, fit_pair, load_box, norm_ws  # noqa
from synth_questions import ctx3  # noqa

from transformers import BertTokenizerFast  # noqa

rng = random.Random(37)
# phrases that leave a value open where it stood
OPEN = ["TBD", "to be confirmed", "not yet set", "still open", "unknown for now", "pending"]


def take_out(sent, value):
    """The sentence with `value` deleted or left open; None when it is not there once."""
    if sent.count(value) != 1:
        return None
    filler = "" if rng.random() < 0.4 else rng.choice(OPEN)
    i = sent.index(value)
    return norm_ws(sent[:i] + filler + sent[i + len(value):])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-box", type=int, default=200, help="rows used per mailbox")
    a = ap.parse_args()
    tok = BertTokenizerFast.from_pretrained(MODEL_DIR)
    rows = {}
    with open(os.path.join(OUT, "spans.contrast.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r["box"] in TRAIN_BOXES:
                rows.setdefault(r["box"], []).append(r)
    out_path = os.path.join(OUT, "groups.contrast.jsonl")
    stats = Counter()
    with open(out_path + ".tmp", "w") as out:
        for box in TRAIN_BOXES:
            msgs = load_box(box)
            box_rows = rows.get(box, [])
            rng.shuffle(box_rows)
            used = 0
            for r in box_rows:
                if used >= a.per_box:
                    break
                m = msgs.get(r["msg"])
                if m is None or r["sent"] >= len(m["sents"]):
                    stats["missing"] += 1
                    continue
                i, q, v = r["sent"], r["question"], r["value"]
                sent = m["sents"][i]
                cut = take_out(sent, v)
                if cut is None or not any(o in cut for o in r["other"]):
                    stats["not_cut"] += 1
                    continue
                # a neighbour that repeats the value would still answer
                if any(v in m["sents"][j] for j in (i - 1, i + 1) if 0 <= j < len(m["sents"])):
                    stats["value_beside"] += 1
                    continue
                others = [j for j in range(len(m["sents"])) if j != i and v not in m["sents"][j]]
                rng.shuffle(others)
                prov = {k: r[k] for k in ("box", "msg", "sent", "value", "kind")}
                removed = ("contrast_removed", fit_pair(tok, q, *ctx3(m, i, cut)))
                negs = [removed] + [("in_message", fit_pair(tok, q, *ctx3(m, j))) for j in others[:2]]
                out.write(json.dumps({"qid": f"con:{box}:{used}", "question": q,
                                      "pos": [fit_pair(tok, q, *ctx3(m, i))], "neg": negs,
                                      "source": "synthetic_contrast", **prov}) + "\n")
                nn = [removed] + [("in_message", fit_pair(tok, q, *ctx3(m, j))) for j in others[2:4]]
                out.write(json.dumps({"qid": f"con:{box}:{used}:null", "question": q, "pos": [], "neg": nn,
                                      "source": "contrast_null", **prov}) + "\n")
                stats["groups"] += 2
                used += 1
            print(box, used, dict(stats), flush=True)
    os.replace(out_path + ".tmp", out_path)
    print(json.dumps(dict(stats)))


if __name__ == "__main__":
    main()
