"""Hard negatives mined with a trained reader, added to the training groups.

python mine.py MODEL.onnx [--synth N]
    groups.real.jsonl  -> groups.real.mined.jsonl
    groups.synth.jsonl -> groups.synth.mined.jsonl (mined for the first N/8 synthetic
                          questions of each training mailbox)

The negatives the pair builders draw (retrieved by word overlap, or at random from
the gold message) are mostly easy for a reader that has been trained once. Here a
trained reader scores a wider pool for each training question, and the non-answering
sentences it scores highest become `mined` negatives of the question's group:

- a real question with an answer: every sentence of its gold messages and of the top
  12 other BM25 messages of its mailbox group, minus those holding an answer string,
  the evidence (token overlap over 0.6) or a gold sentence; the 40 with the best BM25
  sentence score are read, the 5 the reader likes best are kept;
- a real near miss (no answer in the mail): the same over the top 12 messages;
- a synthetic question: the sentences of its message and of the top 10 BM25 messages
  of its mailbox, minus those holding the value or overlapping the answering sentence
  over 0.6; 30 read, 4 kept.

Synthetic questions beyond the first N/8 of each mailbox are left out of the mined
file; synthetic nulls and slot-changed questions are copied unchanged: a sentence of another
message might answer a null's question, so nothing is mined for them. Only TRAIN
questions and mailboxes are read (make_pairs.py and synth_questions.py say which).
"""
import argparse
import glob
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
from evaluate import Scorer  # noqa
import make_pairs as mp  # noqa

N_MSGS = 12
READ_REAL, KEEP_REAL = 40, 5
N_MSGS_SYN = 10
READ_SYN, KEEP_SYN = 30, 4


def top_by_bm25(question, cands, idf, n):
    """cands: [(msg, sent_index)] -> the n with the best BM25 sentence score."""
    sc = sentence_bm25(question, [m["sents"][i] for m, i in cands], idf)
    order = sorted(range(len(cands)), key=lambda k: -sc[k])
    return [cands[k] for k in order[:n]]


def keep_hardest(scorer, question, cands, keep):
    if not cands:
        return []
    tbs = [fit_pair(mp.tok, question, *mp.ctx(m, i)) for m, i in cands]
    sc = scorer([question] * len(tbs), tbs)
    order = sorted(range(len(tbs)), key=lambda k: -sc[k])
    return [(tbs[k], float(sc[k])) for k in order[:keep]]


def real_pool(q, msgs, index):
    question = question_text(q)
    answers = q.get("answer_any") or []
    evidence = q.get("evidence")
    gold = [bare_id(g) for g in q.get("gold_message_ids") or []]
    quoted = {bare_id(g) for g in q.get("quoted_copies") or []}
    gold_in = [g for g in gold if g in msgs]
    gold_sents = set()
    for g in gold_in:
        m = msgs[g]
        gold_sents |= {mp.nrm(m["sents"][i]) for i in mp.positives(m, evidence, answers)}
    hits = [h for h, _ in index.search(question, N_MSGS + len(gold) + len(quoted) + 4)
            if h not in gold and h not in quoted][:N_MSGS]
    cands = []
    for mid in gold_in + hits:
        m = msgs[mid]
        for i, s in enumerate(m["sents"][:80]):
            if mp.has_answer(s, answers) or mp.nrm(s) in gold_sents:
                continue
            if evidence and mp.overlap(s, evidence) > 0.6:
                continue
            cands.append((m, i))
    return question, cands


def mine_real(scorer, out_path):
    groups = read_jsonl(os.path.join(OUT, "groups.real.jsonl"))
    by_qid = {}
    for tag, files, boxes in [("train", sorted(glob.glob(f"{ANS}/train/t[0-9]*.jsonl")), TRAIN_BOXES),
                              ("d12", [f"{ANS}/dev/d1.jsonl", f"{ANS}/dev/d2.jsonl"], D12_BOXES),
                              ("eval", [f"{ANS}/enron_eval.jsonl"], ["lay-k"])]:
        msgs = load_boxes(boxes)
        index = MailIndex(msgs)
        for f in files:
            for q in read_jsonl(f):
                if q.get("kind") in ("fact", "followup", "abstain"):
                    by_qid[f"{os.path.basename(f).replace('.jsonl', '')}:{q['id']}"] = (q, msgs, index)
    t0, n = time.time(), 0
    with open(out_path + ".tmp", "w") as out:
        for g in groups:
            hit = by_qid.get(g["qid"]) if g["source"] == "real" else None
            if hit:
                q, msgs, index = hit
                question, cands = real_pool(q, msgs, index)
                if question == g["question"]:
                    cands = top_by_bm25(question, cands, index.bm.idf, READ_REAL)
                    mined = keep_hardest(scorer, question, cands, KEEP_REAL)
                    g["neg"] = [["mined", tb] for tb, _ in mined] + g["neg"]
                    g["mined_scores"] = [round(s, 3) for _, s in mined]
                    n += 1
            out.write(json.dumps(g) + "\n")
            if n and n % 50 == 0:
                print(f"real {n} {time.time() - t0:.0f}s", flush=True)
    os.replace(out_path + ".tmp", out_path)
    print(f"real: mined for {n} groups in {time.time() - t0:.0f}s", flush=True)


def mine_synth(scorer, out_path, limit):
    groups = read_jsonl(os.path.join(OUT, "groups.synth.jsonl"))
    boxes = {}
    per_box, seen = limit // len(TRAIN_BOXES), {}
    t0, n = time.time(), 0
    with open(out_path + ".tmp", "w") as out:
        for g in groups:
            box = g.get("box")
            seen[box] = seen.get(box, 0) + (g["source"] == "synthetic_question")
            if g["source"] == "synthetic_question" and seen[box] <= per_box:
                assert box in TRAIN_BOXES, box
                if box not in boxes:
                    msgs = load_box(box)
                    boxes[box] = (msgs, MailIndex(msgs))
                msgs, index = boxes[box]
                m = msgs[g["msg"]]
                gold = m["sents"][g["sent"]]
                value = g["value"]
                cands = [(m, i) for i, s in enumerate(m["sents"]) if i != g["sent"] and value not in s]
                for h, _ in index.search(g["question"], N_MSGS_SYN + 1):
                    if h == g["msg"]:
                        continue
                    hm = msgs[h]
                    for i, s in enumerate(hm["sents"][:80]):
                        if value in s or mp.nrm(s) == mp.nrm(gold) or mp.overlap(s, gold) > 0.6:
                            continue
                        cands.append((hm, i))
                cands = top_by_bm25(g["question"], cands, index.bm.idf, READ_SYN)
                mined = keep_hardest(scorer, g["question"], cands, KEEP_SYN)
                g["neg"] = [["mined", tb] for tb, _ in mined] + g["neg"]
                g["mined_scores"] = [round(s, 3) for _, s in mined]
                n += 1
                if n % 100 == 0:
                    print(f"synthetic {n} {time.time() - t0:.0f}s", flush=True)
            elif g["source"] == "synthetic_question":
                continue
            out.write(json.dumps(g) + "\n")
    os.replace(out_path + ".tmp", out_path)
    print(f"synthetic: mined for {n} groups in {time.time() - t0:.0f}s", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--synth", type=int, default=1800)
    a = ap.parse_args()
    scorer = Scorer(a.model)
    real = os.path.join(OUT, "groups.real.mined.jsonl")
    if not os.path.exists(real):
        mine_real(scorer, real)
    synth = os.path.join(OUT, "groups.synth.mined.jsonl")
    if not os.path.exists(synth):
        mine_synth(scorer, synth, a.synth)


if __name__ == "__main__":
    main()
