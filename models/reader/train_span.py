"""The reader's span head: which words of the chosen sentence answer the question.

python train_span.py --run NAME [--init DIR] [--epochs 2]

A BertForQuestionAnswering (start and end logits per token) on the reader's input
(`[CLS] question [SEP] text_b [SEP]`, text_b as in README "Input format"), started
from the reader's encoder (`--init`, default the shipped run lw2). The span always lies
inside the sentence (between " >> " and " << "), and both training and decoding
consider the sentence's tokens only.

Data (--data): spans.train.jsonl (make_spans.py) and spans.contrast.jsonl
(synth_spans.py); real examples are repeated --real-repeat times a pass. Checkpoints every --ckpt-every steps to runs/NAME/ckpt.pt; a rerun
resumes. Final model: runs/NAME/final/. Then `--eval` reports on spans.dev.jsonl
(DEV: d3, d4, d5 evidence sentences; never trained on).
"""
import argparse
import json
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import torch  # noqa
from transformers import BertForQuestionAnswering, BertTokenizerFast, get_linear_schedule_with_warmup  # noqa

from common import ANS, MAX_LEN, MODEL_DIR, OUT, read_jsonl  # noqa
from make_spans import sentence_bounds  # noqa
from train import checkpoint, finish, resume  # noqa

# Longest short answer, in tokens.
MAX_SPAN = 16
NEG = -1e4


def encode(tok, rows, null=False):
    """Tokenised pairs, the sentence mask and the gold token span of each row
    (None when truncation cut the span away). With `null`, [CLS] joins every mask,
    and a row without an answer (`null: true`) has its span on [CLS]."""
    enc = tok([r["question"] for r in rows], [r["text_b"] for r in rows], padding=True,
              truncation="longest_first", max_length=MAX_LEN, return_offsets_mapping=True,
              return_tensors="pt")
    n, length = enc["input_ids"].shape
    mask = torch.zeros(n, length, dtype=torch.bool)
    gold = []
    for b, r in enumerate(rows):
        seq = enc.sequence_ids(b)
        s0, s1 = sentence_bounds(r["text_b"])
        start = end = None
        for t in range(length):
            if seq[t] != 1:
                continue
            a, z = enc["offset_mapping"][b, t].tolist()
            if a >= s0 and z <= s1 and z > a:
                mask[b, t] = True
                # the tokens that overlap the answer's characters
                if "start" in r and a < r["end"] and z > r["start"]:
                    start = t if start is None else start
                    end = t
        if null:
            mask[b, 0] = True
            if r.get("null"):
                start = end = 0
        gold.append((start, end) if start is not None and end is not None and end >= start else None)
    return enc, mask, gold


def decode(start, end, mask, offsets):
    """Best (i, j), i <= j < i + MAX_SPAN, within the mask; its char range and score."""
    s = start.masked_fill(~mask, NEG)
    e = end.masked_fill(~mask, NEG)
    length = s.shape[0]
    scores = s[:, None] + e[None, :]
    tri = torch.triu(torch.ones(length, length, dtype=torch.bool)) & ~torch.triu(
        torch.ones(length, length, dtype=torch.bool), diagonal=MAX_SPAN)
    scores = scores.masked_fill(~tri, 2 * NEG)
    k = int(torch.argmax(scores))
    i, j = divmod(k, length)
    return offsets[i][0], offsets[j][1], float(scores[i, j])


WORD = re.compile(r"[a-z0-9$%]+")


def words(s):
    return WORD.findall(s.lower())


def f1(pred, gold):
    p, g = words(pred), words(gold)
    common = sum(min(p.count(w), g.count(w)) for w in set(p))
    if not common:
        return 0.0
    pr, rc = common / len(p), common / len(g)
    return 2 * pr * rc / (pr + rc)


def train(a):
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rd = os.path.join(OUT, "runs", a.run)
    os.makedirs(rd, exist_ok=True)
    rows = []
    for f in a.data.split(","):
        rows += read_jsonl(f if os.path.isabs(f) else os.path.join(OUT, f))
    order = []
    for ep in range(a.epochs):
        idx = [i for i, r in enumerate(rows) for _ in range(a.real_repeat if r["source"] == "real" else 1)]
        random.Random(a.seed + ep).shuffle(idx)
        order += idx
    steps = (len(order) + a.bs - 1) // a.bs
    tok = BertTokenizerFast.from_pretrained(MODEL_DIR)
    # the reader's config says one label; the span head has two (start, end)
    model = BertForQuestionAnswering.from_pretrained(a.init, num_labels=2, ignore_mismatched_sizes=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    sch = get_linear_schedule_with_warmup(opt, int(a.warmup * steps), steps)
    ck = os.path.join(rd, "ckpt.pt")
    step = resume(ck, model, opt, sch)
    json.dump({**vars(a), "rows": len(rows), "steps": steps}, open(os.path.join(rd, "args.json"), "w"), indent=1)
    print(f"{len(rows)} rows, {len(order)} draws, {steps} steps", flush=True)
    model.train()
    t0 = time.time()
    run_loss = 0.0
    ce = torch.nn.CrossEntropyLoss()
    while step < steps:
        batch = [rows[i] for i in order[step * a.bs:(step + 1) * a.bs]]
        enc, mask, gold = encode(tok, batch, a.null)
        keep = [b for b, g in enumerate(gold) if g is not None]
        step += 1
        if not keep:
            continue
        out = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"],
                    token_type_ids=enc["token_type_ids"])
        k = torch.tensor(keep)
        s = out.start_logits[k].masked_fill(~mask[k], NEG)
        e = out.end_logits[k].masked_fill(~mask[k], NEG)
        ts = torch.tensor([gold[b][0] for b in keep])
        te = torch.tensor([gold[b][1] for b in keep])
        loss = (ce(s, ts) + ce(e, te)) / 2
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sch.step()
        opt.zero_grad()
        run_loss = 0.95 * run_loss + 0.05 * loss.item() if step > 1 else loss.item()
        if step % 25 == 0:
            print(f"step {step}/{steps} loss {run_loss:.4f} {time.time() - t0:.0f}s", flush=True)
        if step % a.ckpt_every == 0 and step < steps:
            checkpoint(ck, model, opt, sch, step)
    finish(rd, model, tok, steps, t0)


def evaluate(a):
    """Exact match, containment and word F1 of the decoded span on the dev rows (one
    per question and sentence text)."""
    torch.set_num_threads(a.threads)
    src = os.path.join(OUT, "runs", a.run, "final")
    tok = BertTokenizerFast.from_pretrained(src)
    model = BertForQuestionAnswering.from_pretrained(src).eval()
    rows, seen = [], set()
    for r in read_jsonl(os.path.join(OUT, "spans.dev.jsonl")):
        key = (r["qid"], r["text_b"][r["text_b"].find(" >> "):])
        if key not in seen:
            seen.add(key)
            rows.append(r)
    answers = {}
    for d in ("d3", "d4", "d5"):
        for q in read_jsonl(os.path.join(ANS, "dev", f"{d}.jsonl")):
            answers[q["id"]] = q.get("answer_any") or []
    per = {}
    for r in rows:
        enc, mask, _ = encode(tok, [r])
        with torch.inference_mode():
            out = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"],
                        token_type_ids=enc["token_type_ids"])
        a0, z0, _ = decode(out.start_logits[0], out.end_logits[0], mask[0], enc["offset_mapping"][0].tolist())
        pred = r["text_b"][a0:z0]
        golds = answers.get(r["qid"], [r["answer"]])
        norm = lambda s: " ".join(words(s))  # noqa
        m = per.setdefault(r["split"], {"n": 0, "exact": 0, "contains": 0, "f1": 0.0})
        m["n"] += 1
        m["exact"] += any(norm(pred) == norm(g) for g in golds)
        m["contains"] += any(norm(g) and norm(g) in norm(pred) for g in golds)
        m["f1"] += max(f1(pred, g) for g in golds)
        if a.show:
            print(f"{r['qid']}\t{pred!r}\t{golds}")
    tot = {"n": 0, "exact": 0, "contains": 0, "f1": 0.0}
    for m in per.values():
        for k in tot:
            tot[k] += m[k]
    per["all"] = tot
    report = {k: {"n": m["n"], "exact": round(m["exact"] / m["n"], 3), "contains": round(m["contains"] / m["n"], 3),
                  "f1": round(m["f1"] / m["n"], 3)} for k, m in per.items()}
    print(json.dumps(report))
    json.dump(report, open(os.path.join(OUT, "runs", a.run, "dev_spans.json"), "w"), indent=1)


class Wrap(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask, token_type_ids):
        out = self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
        return out.start_logits, out.end_logits


def export(a):
    """ONNX (opset 17) and int8 (dynamic quantisation, per channel) of runs/NAME/final: inputs as
    the reader's, outputs start_logits and end_logits [batch, sequence]. Checks int8
    against torch on 50 dev rows, one pair a run as the product runs it."""
    import hashlib

    import numpy as np
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic
    torch.set_num_threads(a.threads)
    src = os.path.join(OUT, "runs", a.run, "final")
    fp32 = os.path.join(OUT, f"span-{a.run}-fp32.onnx")
    int8 = os.path.join(OUT, f"span-{a.run}-int8.onnx")
    tok = BertTokenizerFast.from_pretrained(src)
    model = BertForQuestionAnswering.from_pretrained(src, attn_implementation="eager").eval()
    ex = tok(["what is the price?", "when?"], ["Re: offer | Dan J Hyvl |  >> The price is $15.00 per month. << ", "a | b |  >> c. << "],
             padding=True, truncation=True, max_length=MAX_LEN, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    wrap = Wrap(model).eval()
    torch.onnx.export(wrap, tuple(ex[k] for k in names), fp32, opset_version=17, input_names=names,
                      output_names=["start_logits", "end_logits"],
                      dynamic_axes={k: {0: "batch", 1: "sequence"} for k in names + ["start_logits", "end_logits"]})
    model.eval()
    # Per output channel: one scale per weight row keeps more of the head's logits
    # (dev: gold held 0.673 against 0.62 per tensor and 0.701 in fp32).
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)
    rows = read_jsonl(os.path.join(OUT, "spans.dev.jsonl"))
    rows = rows[:: max(1, len(rows) // 50)][:50]
    diff = {"fp32": 0.0, "int8": 0.0}
    sessions = {k: ort.InferenceSession(p, providers=["CPUExecutionProvider"]) for k, p in (("fp32", fp32), ("int8", int8))}
    for r in rows:
        enc = tok([r["question"]], [r["text_b"]], truncation="longest_first", max_length=MAX_LEN, return_tensors="pt")
        with torch.inference_mode():
            ref = model(**enc).start_logits[0].numpy()
        feed = {k: enc[k].numpy().astype(np.int64) for k in names}
        for k, s in sessions.items():
            diff[k] = max(diff[k], float(np.abs(s.run(["start_logits"], feed)[0][0] - ref).max()))
    info = {"run": a.run, "int8": int8, "sha256": hashlib.sha256(open(int8, "rb").read()).hexdigest(),
            "bytes": os.path.getsize(int8), "max_abs_start_logit_diff_vs_torch_50_dev_rows": diff}
    print(json.dumps(info, indent=1))
    json.dump(info, open(os.path.join(OUT, f"export.span-{a.run}.json"), "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--init", default=os.path.join(OUT, "runs", "lw2", "final"))
    ap.add_argument("--data", default="spans.train.jsonl", help="comma-separated span files under OUT")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--warmup", type=float, default=0.06)
    ap.add_argument("--real-repeat", type=int, default=3)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--null", action="store_true",
                    help="rows with `null: true` have no answer: their span is [CLS] (make_null_spans.py)")
    ap.add_argument("--eval", action="store_true")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--export", action="store_true")
    a = ap.parse_args()
    if a.export:
        export(a)
    elif a.eval:
        evaluate(a)
    else:
        train(a)


if __name__ == "__main__":
    main()
