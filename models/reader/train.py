"""Fine-tune all-MiniLM-L6-v2 as a cross-encoder (one logit) on the reader pairs.

python train.py --run NAME [--exclude src1,src2] [--epochs 1] [--loss bce|listwise]

--loss listwise trains on groups (one question, its answering sentences and its
non-answering ones; `groups.py`): a softmax over the group's logits and a "no answer"
logit fixed at 0. A group with answers puts its mass on them; a group without any
(a near miss) puts it on "no answer". A logit above 0 thus reads as "this answers
the question better than nothing does", and the abstention threshold sits near 0.
With --teacher (a larger reader's logits, `teach.py`) each group also learns the
teacher's softmax over "no answer" and the group's pairs (distillation).
Checkpoints every --ckpt-every steps to /tmp/quoth-selector/reader/runs/NAME/ckpt.pt;
rerunning the same command resumes from there. Final model: runs/NAME/final/.
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import torch  # noqa
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup  # noqa

from common import MODEL_DIR, OUT, MAX_LEN, read_jsonl  # noqa
from reword import reword, word_forms  # noqa


def resume(ck, model, opt, sch):
    """Loads the run's checkpoint if there is one; returns the step to go on from."""
    if not os.path.exists(ck):
        return 0
    st = torch.load(ck, weights_only=False)
    model.load_state_dict(st["model"])
    opt.load_state_dict(st["opt"])
    sch.load_state_dict(st["sch"])
    print(f"resumed at step {st['step']}", flush=True)
    return st["step"]


def checkpoint(ck, model, opt, sch, step):
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sch": sch.state_dict(), "step": step}, ck + ".tmp")
    os.replace(ck + ".tmp", ck)


def finish(rd, model, tok, steps, t0):
    model.save_pretrained(os.path.join(rd, "final"))
    tok.save_pretrained(os.path.join(rd, "final"))
    with open(os.path.join(rd, "done.json"), "w") as f:
        json.dump({"steps": steps, "seconds_this_session": time.time() - t0}, f)
    print("done", time.time() - t0, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pairs", default=os.path.join(OUT, "pairs.train.jsonl"))
    ap.add_argument("--exclude", default="")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--warmup", type=float, default=0.06)
    ap.add_argument("--ckpt-every", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", default="", help="per-source keep fractions, e.g. in_message=0.5,near_miss=0.6")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--loss", default="bce", choices=["bce", "listwise"])
    ap.add_argument("--groups", default="", help="listwise: comma-separated group files (groups.py)")
    ap.add_argument("--group-size", type=int, default=6, help="listwise: pairs drawn per group")
    ap.add_argument("--groups-per-step", type=int, default=3)
    ap.add_argument("--repeat", default="", help="listwise: per-source repeats per epoch, e.g. real=2")
    ap.add_argument("--cap", default="", help="listwise: per-source group caps, e.g. synthetic_null=1000")
    ap.add_argument("--hard", type=int, default=0,
                    help="listwise: of a group's negatives, up to this many are drawn from its `mined` ones (mine.py)")
    ap.add_argument("--init", default="", help="start from this model directory instead of the base model")
    ap.add_argument("--base", default=MODEL_DIR,
                    help="listwise: the encoder to start from and its tokenizer (all-MiniLM-L6-v2 unless told)")
    ap.add_argument("--tie", type=float, default=0.0,
                    help="listwise: weight of a loss that ties a question's logit with an answering sentence "
                         "to the logit of the same pair under another wording of the question (reword.py)")
    ap.add_argument("--teacher", default="",
                    help="listwise: a teacher's logits (teach.py); the student also learns the teacher's "
                         "softmax over each drawn group and its \"no answer\" logit")
    ap.add_argument("--distill", type=float, default=1.0,
                    help="listwise: weight of the teacher's loss beside the labels' (with --teacher)")
    a = ap.parse_args()
    if a.loss == "listwise":
        return listwise(a)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rd = os.path.join(OUT, "runs", a.run)
    os.makedirs(rd, exist_ok=True)
    excl = set(x for x in a.exclude.split(",") if x)
    pairs = [p for p in read_jsonl(a.pairs) if p["source"] not in excl]
    keep = {k: float(v) for k, v in (x.split("=") for x in a.keep.split(",") if x)}
    krng = random.Random(a.seed)
    pairs = [p for p in pairs if krng.random() < keep.get(p["source"], 1.0)]
    order = []
    for ep in range(a.epochs):
        idx = list(range(len(pairs)))
        random.Random(a.seed + ep).shuffle(idx)
        order += idx
    steps = (len(order) + a.bs - 1) // a.bs
    tok = AutoTokenizer.from_pretrained(MODEL_DIR)
    model = AutoModelForSequenceClassification.from_pretrained(MODEL_DIR, num_labels=1)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    sch = get_linear_schedule_with_warmup(opt, int(a.warmup * steps), steps)
    ck = os.path.join(rd, "ckpt.pt")
    step = resume(ck, model, opt, sch)
    json.dump({**vars(a), "n_pairs": len(pairs), "steps": steps}, open(os.path.join(rd, "args.json"), "w"), indent=1)
    print(f"{len(pairs)} pairs, {steps} steps", flush=True)
    lossf = torch.nn.BCEWithLogitsLoss()
    model.train()
    t0 = time.time()
    run_loss = 0.0
    while step < steps:
        b = [pairs[i] for i in order[step * a.bs:(step + 1) * a.bs]]
        enc = tok([p["question"] for p in b], [p["text_b"] for p in b], padding=True, truncation="longest_first",
                  max_length=MAX_LEN, return_tensors="pt")
        y = torch.tensor([float(p["label"]) for p in b])
        logits = model(**enc).logits.squeeze(-1)
        loss = lossf(logits, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sch.step()
        opt.zero_grad()
        step += 1
        run_loss = 0.98 * run_loss + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 25 == 0:
            el = time.time() - t0
            print(f"step {step}/{steps} loss {run_loss:.4f} {el:.0f}s", flush=True)
        if step % a.ckpt_every == 0 and step < steps:
            checkpoint(ck, model, opt, sch, step)
    finish(rd, model, tok, steps, t0)


def listwise(a):
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rd = os.path.join(OUT, "runs", a.run)
    os.makedirs(rd, exist_ok=True)
    excl = set(x for x in a.exclude.split(",") if x)
    groups = []
    for f in a.groups.split(","):
        groups += [g for g in read_jsonl(f) if g["source"] not in excl]
    rep = {k: int(v) for k, v in (x.split("=") for x in a.repeat.split(",") if x)}
    cap = {k: int(v) for k, v in (x.split("=") for x in a.cap.split(",") if x)}
    rng = random.Random(a.seed)
    rng.shuffle(groups)
    seen = {}
    kept = []
    for g in groups:
        seen[g["source"]] = seen.get(g["source"], 0) + 1
        if seen[g["source"]] <= cap.get(g["source"], 10 ** 9):
            kept.append(g)
    order = []
    for ep in range(a.epochs):
        idx = [i for i, g in enumerate(kept) for _ in range(rep.get(g["source"], 1))]
        random.Random(a.seed + ep).shuffle(idx)
        order += idx
    steps = (len(order) + a.groups_per_step - 1) // a.groups_per_step
    tok = AutoTokenizer.from_pretrained(a.base)
    forms = word_forms(w for w in tok.get_vocab() if w.isalpha()) if a.tie else {}
    model = AutoModelForSequenceClassification.from_pretrained(a.init or a.base, num_labels=1)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    sch = get_linear_schedule_with_warmup(opt, int(a.warmup * steps), steps)
    ck = os.path.join(rd, "ckpt.pt")
    step = resume(ck, model, opt, sch)
    by_src = {}
    for g in kept:
        by_src[g["source"]] = by_src.get(g["source"], 0) + 1
    json.dump({**vars(a), "groups": by_src, "steps": steps}, open(os.path.join(rd, "args.json"), "w"), indent=1)
    print(f"{len(kept)} groups {by_src}, {len(order)} draws, {steps} steps", flush=True)
    teacher = {}
    if a.teacher:
        teacher = {(r["question"], r["text"]): r["logit"] for r in read_jsonl(a.teacher)}
        print(f"teacher: {len(teacher)} pairs", flush=True)
    model.train()
    t0 = time.time()
    run_loss = 0.0
    while step < steps:
        qs, tbs, spans, npos = [], [], [], []
        srng = random.Random(a.seed * 1000003 + step)
        for gi in order[step * a.groups_per_step:(step + 1) * a.groups_per_step]:
            g = kept[gi]
            pos = list(g["pos"])
            srng.shuffle(pos)
            pos = pos[:1]
            mined = [t for s, t in g["neg"] if s == "mined"]
            rest = [t for s, t in g["neg"] if s != "mined"]
            srng.shuffle(mined)
            srng.shuffle(rest)
            room = a.group_size - len(pos)
            neg = mined[:min(a.hard, room)]
            k = len(neg)
            neg += rest[:room - k]
            neg += mined[k:k + room - len(neg)]
            texts = pos + neg
            if not texts:
                continue
            spans.append((len(tbs), len(texts)))
            npos.append(len(pos))
            qs += [g["question"]] * len(texts)
            tbs += texts
        ties = []
        if a.tie:
            for (s0, _), p in zip(spans, npos):
                if p:
                    other = reword(qs[s0], srng, forms)
                    if other != qs[s0]:
                        ties.append((s0, len(tbs)))
                        qs.append(other)
                        tbs.append(tbs[s0])
        enc = tok(qs, tbs, padding=True, truncation="longest_first", max_length=MAX_LEN, return_tensors="pt")
        logits = model(**enc).logits.squeeze(-1)
        losses = []
        for (s0, n), p in zip(spans, npos):
            lg = torch.cat([torch.zeros(1), logits[s0:s0 + n]])
            lse = torch.logsumexp(lg, 0)
            target = torch.logsumexp(lg[1:1 + p], 0) if p else lg[0]
            losses.append(lse - target)
            if teacher:
                # cross-entropy to the teacher's distribution over "no answer" and the group
                tl = [teacher.get((qs[s0 + j], tbs[s0 + j])) for j in range(n)]
                if all(x is not None for x in tl):
                    p = torch.softmax(torch.tensor([0.0] + tl), 0)
                    losses[-1] = losses[-1] + a.distill * -(p * torch.log_softmax(lg, 0)).sum()
        loss = torch.stack(losses).mean()
        if ties:
            loss = loss + a.tie * torch.stack([(logits[i] - logits[j]) ** 2 for i, j in ties]).mean()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sch.step()
        opt.zero_grad()
        step += 1
        run_loss = 0.98 * run_loss + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 25 == 0:
            print(f"step {step}/{steps} loss {run_loss:.4f} {time.time() - t0:.0f}s", flush=True)
        if step % a.ckpt_every == 0 and step < steps:
            checkpoint(ck, model, opt, sch, step)
    finish(rd, model, tok, steps, t0)


if __name__ == "__main__":
    main()
