"""Replays `quoth bench selector` dumps with the reader's logit taken from other
readings of each candidate the reader reads: the pair as the product builds it
(subject, sender, neighbours cut to `NEIGHBOUR_WORDS` words), the sentence with its
subject and sender but no neighbours, the bare sentence, and the larger or the mean
of readings.

python readings.py --models DIR --sets A.jsonl,B.jsonl [--top-k 5] [--weight 0.5]
                   [--members A.onnx,B.onnx] [--only "as read"]

DIR holds the reader's members (reader-int8.onnx and the members beside it), or
--members names other files; the logit of a reading is the members' mean, as in the
product. --only limits the replay to the readings named (comma-separated). For each
reading and each gate of 0, 0.5 and 1 it prints `fusion.py`'s figures (cited a right
message, the quote holds the answer, a right "I don't know") over the given sets at
the given top_k and weight. Logits are cached in --cache between runs.
"""
import argparse
import os
import pickle
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import NEIGHBOUR_WORDS, candidate_text  # noqa: E402
from fusion import figures, load  # noqa: E402

MEMBERS = ["reader-int8.onnx", "reader-contrast-int8.onnx"]
TOKENIZER = os.path.join(HERE, "..", "all-MiniLM-L6-v2.tokenizer.json")


def pair_logit(session, tok, question, text):
    """One model's logit for one pair, fed the inputs its graph declares (MiniLM reads
    token_type_ids, MPNet does not)."""
    e = tok.encode(question, text)
    feed = {"input_ids": [e.ids], "attention_mask": [e.attention_mask], "token_type_ids": [e.type_ids]}
    ins = {i.name: np.array(feed[i.name], dtype=np.int64) for i in session.get_inputs()}
    return float(session.run(None, ins)[0].reshape(-1)[0])


def readings(r):
    prev = " ".join(r["prev"].split()[-NEIGHBOUR_WORDS:])
    nxt = " ".join(r["next"].split()[:NEIGHBOUR_WORDS])
    return {
        "as read": candidate_text(r["subject"], r["sender"], prev, r["sentence"], nxt),
        "no neighbours": candidate_text(r["subject"], r["sender"], "", r["sentence"], ""),
        "bare": candidate_text("", "", "", r["sentence"], ""),
    }


COMBINED = {
    "as read": lambda a: a["as read"],
    "no neighbours": lambda a: a["no neighbours"],
    "bare": lambda a: a["bare"],
    "larger of the first two": lambda a: max(a["as read"], a["no neighbours"]),
    "mean of the first two": lambda a: (a["as read"] + a["no neighbours"]) / 2,
    "mean of the three": lambda a: (a["as read"] + a["no neighbours"] + a["bare"]) / 3,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", required=True)
    ap.add_argument("--sets", required=True)
    ap.add_argument("--top-k", type=int, default=5)
    ap.add_argument("--weight", type=float, default=0.5)
    ap.add_argument("--members", default="")
    ap.add_argument("--only", default="")
    ap.add_argument("--cache", default="readings.cache.pkl")
    args = ap.parse_args()

    tok = Tokenizer.from_file(TOKENIZER)
    tok.enable_truncation(128)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    paths = args.members.split(",") if args.members else [os.path.join(args.models, m) for m in MEMBERS]
    sessions = [ort.InferenceSession(p, so) for p in paths if os.path.exists(p)]
    cache = {}
    if os.path.exists(args.cache):
        with open(args.cache, "rb") as f:
            cache = pickle.load(f)

    only = [r for r in args.only.split(",") if r]

    def logit(question, text):
        key = (tuple(paths), question, text)
        if key not in cache:
            cache[key] = float(np.mean([pair_logit(s, tok, question, text) for s in sessions]))
        return cache[key]

    qs = load(args.sets)
    for q in qs:
        cands = q["candidates"]
        read_here = set()
        for t in q["tries"]:
            read_here |= set(sorted(t["candidates"], key=lambda i: -cands[i]["score"])[: args.top_k])
        for i in read_here:
            c = cands[i]
            if c.get("read") and c["reader"] is not None:
                c["readings"] = {k: logit(q["question"], v) for k, v in readings(c["read"]).items()
                                 if not only or k in only}
    with open(args.cache, "wb") as f:
        pickle.dump(cache, f)

    for name, combine in COMBINED.items():
        if only and name not in only:
            continue
        replayed = []
        for q in qs:
            q2 = dict(q)
            q2["candidates"] = []
            for c in q["candidates"]:
                c2 = dict(c)
                if "readings" in c2:
                    c2["reader"] = combine(c2["readings"])
                q2["candidates"].append(c2)
            replayed.append(q2)
        for gate in (0.0, 0.5, 1.0):
            f = figures(replayed, (args.top_k, args.weight, gate))
            print(f"{name:<24} gate {gate:.1f}: cited {f['cited']:.3f}  answer {f['right']:.3f}  "
                  f"right IDK {f['idk']:.3f}  ({f['answerable']} + {f['near_misses']})")


if __name__ == "__main__":
    main()
