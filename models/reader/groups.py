"""Group the reader's training pairs by question for listwise training.

python groups.py   # pairs.train.jsonl -> groups.real.jsonl

A group is one question with its answering sentences (`pos`, label 1) and its
non-answering ones (`neg`, `[source, text_b]`). A question with no answering
sentence among its pairs (a near miss, or a slot-changed question) is a group
with an empty `pos`: its target is "no answer". The group's `source` is `real`
for questions people wrote, `synthetic_slot` for questions changed by one slot.
"""
import json
import os
import sys
from collections import Counter, OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import OUT, read_jsonl  # noqa


def main():
    groups = OrderedDict()
    for p in read_jsonl(os.path.join(OUT, "pairs.train.jsonl")):
        key = (p["qid"], p["question"])
        src = "synthetic_slot" if p["source"] == "synthetic_slot" else "real"
        g = groups.setdefault(key, {"qid": p["qid"], "question": p["question"], "pos": [], "neg": [], "source": src})
        if p["label"] == 1:
            g["pos"].append(p["text_b"])
        else:
            g["neg"].append([p["source"], p["text_b"]])
    if not groups:
        sys.exit("no pairs")
    stats = Counter((g["source"], bool(g["pos"])) for g in groups.values())
    with open(os.path.join(OUT, "groups.real.jsonl"), "w") as f:
        for g in groups.values():
            f.write(json.dumps(g) + "\n")
    print({f"{s}/{'answerable' if a else 'no answer'}": n for (s, a), n in sorted(stats.items())})


if __name__ == "__main__":
    main()
