"""DEV evaluation of the reader (d3, d4, and d5 when present; never trained on).

python evaluate.py build                      # dev candidates -> /tmp/quoth-selector/reader/dev_cands.jsonl
python evaluate.py score MODEL NAME           # MODEL: a HF dir or an .onnx file; scores cached per NAME
python evaluate.py report NAME [NAME...]      # P@1, MRR, abstention (threshold chosen on one split, reported on the other)
                                              # NAME 'bm25' is the BM25 sentence-scoring baseline

Per fact/followup question the candidates are the sentences of its gold messages
plus those of the top-10 BM25 messages over all eight dev mailboxes (first 80
sentences of each message). A candidate is right when it is an evidence sentence
of a gold message (strict) or when its sentence holds the evidence text / an
answer string anywhere (lenient, e.g. a quoted copy). Near misses (abstain) get
the top-10 messages' sentences; the answerability signal is the max score.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import numpy as np  # noqa

from common import *  # noqa

CANDS = os.path.join(OUT, "dev_cands.jsonl")
MAX_SENTS = 80
TOPK = 10


def dev_files():
    fs = [("d3", f"{ANS}/dev/d3.jsonl"), ("d4", f"{ANS}/dev/d4.jsonl")]
    if os.path.exists(f"{ANS}/dev/d5.jsonl"):
        fs.append(("d5", f"{ANS}/dev/d5.jsonl"))
    return fs


def build():
    from transformers import BertTokenizerFast
    from make_pairs import positives, has_answer
    tok = BertTokenizerFast.from_pretrained(MODEL_DIR)
    msgs = load_boxes(DEV_BOXES)
    index = MailIndex(msgs)
    idf = index.bm.idf
    out = []
    qinfo = []
    for split, f in dev_files():
        for q in read_jsonl(f):
            kind = q.get("kind")
            if kind not in ("fact", "followup", "abstain"):
                continue
            question = question_text(q)
            gold = [bare_id(g) for g in q.get("gold_message_ids") or [] if bare_id(g) in msgs]
            answers = q.get("answer_any") or []
            ev = q.get("evidence")
            hits = [mid for mid, _ in index.search(question, TOPK)]
            mids = gold + [h for h in hits if h not in gold]
            n_pos = 0
            rows = []
            for mid in mids:
                m = msgs[mid]
                pos = positives(m, ev, answers) if mid in gold else set()
                for i, tb in msg_candidates(tok, question, m, MAX_SENTS):
                    s = m["sents"][i]
                    strict = int(i in pos)
                    lenient = int(strict or (kind != "abstain" and (
                        (ev and nrm(ev) in nrm(s)) or (ev and len(s.split()) >= 4 and nrm(s) in nrm(ev)))))
                    n_pos += strict
                    rows.append({"qid": q["id"], "split": split, "kind": kind, "question": question, "text_b": tb,
                                 "msg": mid, "sent": i, "gold_msg": int(mid in gold), "retrieved": int(mid in hits),
                                 "strict": strict, "lenient": lenient})
            bm = sentence_bm25(question, [msgs[r["msg"]]["sents"][r["sent"]] for r in rows], idf)
            for r, b in zip(rows, bm):
                r["bm25"] = b
            out += rows
            qinfo.append({"qid": q["id"], "split": split, "kind": kind, "n_cands": len(rows), "n_pos": n_pos,
                          "gold_retrieved": int(any(g in hits for g in gold))})
    with open(CANDS, "w") as f:
        for r in out:
            f.write(json.dumps(r) + "\n")
    with open(os.path.join(OUT, "dev_questions.json"), "w") as f:
        json.dump(qinfo, f, indent=0)
    print(len(out), "candidates,", len(qinfo), "questions,", sum(1 for q in qinfo if q["kind"] != "abstain" and q["n_pos"] == 0),
          "answerable without a located evidence sentence")


class Scorer:
    def __init__(self, path, threads=2):
        from transformers import BertTokenizerFast
        self.onnx = path.endswith(".onnx")
        tdir = MODEL_DIR
        if self.onnx:
            import onnxruntime as ort
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            self.sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        else:
            import torch
            from transformers import BertForSequenceClassification
            torch.set_num_threads(threads)
            self.model = BertForSequenceClassification.from_pretrained(path).eval()
            tdir = path
        self.tok = BertTokenizerFast.from_pretrained(tdir)

    def __call__(self, qs, tbs):
        enc = self.tok(qs, tbs, padding=True, truncation="longest_first", max_length=MAX_LEN,
                       return_tensors="np" if self.onnx else "pt")
        if self.onnx:
            feed = {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
            return self.sess.run(["logits"], feed)[0][:, 0]
        import torch
        with torch.inference_mode():
            return self.model(**enc).logits[:, 0].numpy()


def score(model, name, bs=64):
    rows = read_jsonl(CANDS)
    sc = Scorer(model)
    order = sorted(range(len(rows)), key=lambda i: len(rows[i]["question"]) + len(rows[i]["text_b"]))
    out = np.zeros(len(rows), dtype=np.float32)
    t0 = time.time()
    for k in range(0, len(order), bs):
        ix = order[k:k + bs]
        out[ix] = sc([rows[i]["question"] for i in ix], [rows[i]["text_b"] for i in ix])
        if (k // bs) % 50 == 0:
            print(f"{k}/{len(rows)} {time.time() - t0:.0f}s", flush=True)
    np.save(os.path.join(OUT, f"dev_scores.{name}.npy"), out)
    print("scored", len(rows), "in", round(time.time() - t0), "s")


def per_question(rows, scores):
    qs = {}
    for r, s in zip(rows, scores):
        qs.setdefault((r["split"], r["qid"]), {"kind": r["kind"], "rows": []})["rows"].append((float(s), r["strict"], r["lenient"]))
    res = []
    for (split, qid), d in qs.items():
        rs = sorted(d["rows"], key=lambda x: -x[0])
        e = {"split": split, "qid": qid, "kind": d["kind"], "max": rs[0][0] if rs else -1e9,
             "has_pos": any(x[1] for x in rs)}
        for key, j in (("strict", 1), ("lenient", 2)):
            rank = next((n + 1 for n, x in enumerate(rs) if x[j]), None)
            e[f"p1_{key}"] = int(rank == 1)
            e[f"rr_{key}"] = 1.0 / rank if rank else 0.0
        res.append(e)
    return res


def abst(res, t, key="p1_lenient"):
    ans = [e for e in res if e["kind"] != "abstain" and e["has_pos"]]
    nm = [e for e in res if e["kind"] == "abstain"]
    ra = sum(1 for e in ans if e["max"] >= t and e[key]) / max(1, len(ans))
    rn = sum(1 for e in nm if e["max"] < t) / max(1, len(nm))
    return ra, rn, len(ans), len(nm)


def pick_threshold(res):
    cands = sorted({e["max"] for e in res})
    best = None
    for i, t in enumerate(cands):
        ra, rn, _, _ = abst(res, t)
        v = (ra + rn) / 2
        if best is None or v > best[0]:
            # threshold halfway to the next lower value keeps it off the data points
            lo = cands[i - 1] if i > 0 else t - 1.0
            best = (v, (t + lo) / 2)
    return best[1]


def report(names):
    rows = read_jsonl(CANDS)
    splits = sorted({r["split"] for r in rows})
    lines = []
    for name in names:
        scores = np.array([r["bm25"] for r in rows]) if name == "bm25" else np.load(os.path.join(OUT, f"dev_scores.{name}.npy"))
        res = per_question(rows, scores)
        lines.append(f"## {name}")
        for sp in splits + ["+".join(splits)]:
            sub = [e for e in res if e["split"] in sp.split("+") and e["kind"] != "abstain" and e["has_pos"]]
            if not sub:
                continue
            f = lambda k: sum(e[k] for e in sub) / len(sub)  # noqa
            lines.append(f"{sp}: answerable n={len(sub)} P@1 strict {f('p1_strict'):.3f} lenient {f('p1_lenient'):.3f} "
                         f"MRR strict {f('rr_strict'):.3f} lenient {f('rr_lenient'):.3f}")
        for a in splits:
            for b in splits:
                if a == b:
                    continue
                t = pick_threshold([e for e in res if e["split"] == a])
                ra, rn, na, nn = abst([e for e in res if e["split"] == b], t)
                lines.append(f"threshold {t:.3f} chosen on {a}, reported on {b}: right answers {ra:.3f} of {na} answerable, "
                             f"right IDK {rn:.3f} of {nn} near misses")
    txt = "\n".join(lines)
    print(txt)
    return txt


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "build":
        build()
    elif cmd == "score":
        score(sys.argv[2], sys.argv[3])
    elif cmd == "report":
        report(sys.argv[2:])
