"""A teacher's logits for every pair of the training groups, for distillation.

python teach.py --model RUNDIR --groups g1.jsonl,g2.jsonl --out teacher.NAME.jsonl [--threads 2]

RUNDIR is a trained reader (`runs/NAME/final`, any encoder `transformers` loads, such
as a larger one than the shipped MiniLM). Each output line is
`{"question", "text", "logit"}`, one per distinct (question, text) pair of the groups
(answering and not), read as `train.py` reads it (the pair truncated to MAX_LEN,
longest side first). Resumable: pairs already in --out are skipped, and lines are
written as they are scored. `train.py --teacher` reads the file.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import torch  # noqa
from transformers import AutoModelForSequenceClassification, AutoTokenizer  # noqa

from common import MAX_LEN, read_jsonl  # noqa


def pairs_of(paths):
    seen, out = set(), []
    for p in paths.split(","):
        for g in read_jsonl(p):
            for t in list(g["pos"]) + [t for _, t in g["neg"]]:
                k = (g["question"], t)
                if k not in seen:
                    seen.add(k)
                    out.append(k)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--groups", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=32)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    tok = AutoTokenizer.from_pretrained(a.model)
    model = AutoModelForSequenceClassification.from_pretrained(a.model).eval()
    done = set()
    if os.path.exists(a.out):
        done = {(r["question"], r["text"]) for r in read_jsonl(a.out)}
    todo = [k for k in pairs_of(a.groups) if k not in done]
    # similar lengths together: less padding
    todo.sort(key=lambda k: len(k[0]) + len(k[1]))
    print(f"{len(done)} scored, {len(todo)} to score", flush=True)
    t0 = time.time()
    with open(a.out, "a") as f, torch.inference_mode():
        for s in range(0, len(todo), a.batch):
            b = todo[s:s + a.batch]
            enc = tok([q for q, _ in b], [t for _, t in b], padding=True, truncation="longest_first",
                      max_length=MAX_LEN, return_tensors="pt")
            logits = model(**enc).logits[:, 0].tolist()
            for (q, t), l in zip(b, logits):
                f.write(json.dumps({"question": q, "text": t, "logit": l}) + "\n")
            f.flush()
            if (s // a.batch) % 50 == 0:
                print(f"{s + len(b)}/{len(todo)} {time.time() - t0:.0f}s", flush=True)
    print("done", time.time() - t0, flush=True)


if __name__ == "__main__":
    main()
