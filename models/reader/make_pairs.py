"""Build training pairs (question, text_b, label, source, qid) for the reader.

Writes /tmp/quoth-selector/reader/pairs.train.jsonl (and stats).
Sources: gold, in_message, retrieved, near_miss, synthetic_removed, synthetic_slot.
TRAIN only: tests/answers/train/t*.jsonl, d1, d2, enron_eval (lay-k mail; allen-p mail absent), T5 even docs.
"""
import email
import glob
import email.policy
import json
import os
import random
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa

from transformers import BertTokenizerFast

rng = random.Random(13)
tok = BertTokenizerFast.from_pretrained(MODEL_DIR)

N_RETR_MSGS = 6      # top non-gold messages per fact question
N_RETR_SENTS = 14    # retrieved negatives per fact question
N_NEAR_MSGS = 6
N_NEAR_SENTS = 18
N_INMSG = 8          # in-message negatives per gold message
SYN_REMOVED = 2
SYN_SLOT = 2


def overlap(a, b):
    ta, tb = set(terms(a)), set(terms(b))
    return len(ta & tb) / max(1, len(tb))


def positives(m, evidence, answers):
    """Indices of sentences that hold the evidence (containment either way, or the
    best token overlap >= 0.5); without evidence, those containing an answer."""
    ns = [nrm(s) for s in m["sents"]]
    pos = set()
    if evidence:
        ne = nrm(evidence)
        for i, s in enumerate(ns):
            if ne and (ne in s or (len(s.split()) >= 4 and s in ne)):
                pos.add(i)
        if not pos:
            sc = [overlap(s, evidence) for s in m["sents"]]
            if sc and max(sc) >= 0.5:
                pos.add(max(range(len(sc)), key=sc.__getitem__))
    else:
        for i, s in enumerate(ns):
            if any(nrm(a) and nrm(a) in s for a in answers):
                pos.add(i)
    return pos


def has_answer(s, answers):
    s = nrm(s)
    return any(nrm(a) and nrm(a) in s for a in answers)


# ------------------------------------------------------------ synthetic
MONTHS = "January February March April May June July August September October November December".split()
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
PLACES = ["Houston", "Portland", "Omaha", "Calgary", "London", "Dallas", "Denver", "Chicago", "Tulsa", "Sacramento"]
NAMES = ["Sara Whitfield", "Tom Alvarez", "Kevin Brandt", "Linda Cho", "Mark Oduya", "Janet Pruitt", "Greg Salas"]
AMOUNTS = ["$4,500", "$12.75 per MMBtu", "350 MW", "$2.3 million", "17%", "6,000 barrels"]
DATES = ["March 3, 2001", "next Tuesday", "June 14", "the end of the quarter", "October 2000"]


def ans_type(a):
    if re.search(r"\b(" + "|".join(MONTHS + DAYS) + r")\b", a) or re.search(r"\d{1,2}/\d{1,2}", a):
        return "date"
    if re.search(r"\d", a):
        return "amount"
    if re.match(r"^[A-Z][a-z]+( [A-Z][a-z]+)+$", a.strip()):
        return "name"
    return "other"


def removed_variants(sent, answers):
    out = []
    for a in sorted(set(answers), key=len, reverse=True):
        if not a or a not in sent:
            continue
        t = ans_type(a)
        repl = {"date": rng.choice(AMOUNTS), "amount": rng.choice(NAMES + PLACES),
                "name": rng.choice(PLACES), "other": rng.choice(DATES + AMOUNTS)}[t]
        s2 = sent.replace(a, repl)
        # strip any remaining answer string
        for b in answers:
            if b and b in s2:
                s2 = s2.replace(b, "")
        if not has_answer(s2, answers):
            out.append(norm_ws(s2))
        s3 = norm_ws(sent.replace(a, ""))
        if not has_answer(s3, answers):
            out.append(s3)
        break
    rng.shuffle(out)
    return out[:SYN_REMOVED]


SLOT_PATTERNS = [
    ("month", re.compile(r"\b(" + "|".join(MONTHS) + r")\b")),
    ("day", re.compile(r"\b(" + "|".join(DAYS) + r")\b")),
    ("number", re.compile(r"(?<![\w$])\$?\d[\d,]*(?:\.\d+)?%?")),
    ("name", re.compile(r"(?<!^)(?<![.?!] )\b[A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})*")),
]
NOT_NAMES = set(MONTHS + DAYS + ["What", "When", "Where", "Who", "How", "Which", "Why", "Did", "Does", "The", "Enron", "I"])


def build_slot_pool(questions):
    pool = {k: set() for k, _ in SLOT_PATTERNS}
    for q in questions:
        for k, pat in SLOT_PATTERNS:
            for mm in pat.finditer(q):
                v = mm.group(0)
                if k == "name" and v in NOT_NAMES:
                    continue
                pool[k].add(v)
    pool["month"].update(MONTHS)
    pool["day"].update(DAYS)
    return {k: sorted(v) for k, v in pool.items()}


def slot_variants(question, pool, answers, pos_sent):
    cands = []
    for k, pat in SLOT_PATTERNS:
        for mm in pat.finditer(question):
            v = mm.group(0)
            if k == "name" and v in NOT_NAMES:
                continue
            # the changed slot must be grounded in the sentence, or the change is no change
            if v.lower() not in pos_sent.lower():
                continue
            cands.append((k, mm.start(), mm.end(), v))
    rng.shuffle(cands)
    out = []
    for k, a, b, v in cands[:SYN_SLOT]:
        choices = [x for x in pool[k] if x.lower() != v.lower() and x.lower() not in pos_sent.lower()]
        if not choices:
            continue
        out.append(question[:a] + rng.choice(choices) + question[b:])
    return out


# ------------------------------------------------------------ main
def pair(qid, question, text_b, label, source, **prov):
    d = {"qid": qid, "question": question, "text_b": text_b, "label": label, "source": source}
    d.update(prov)
    return d


def ctx(m, i, sent=None):
    prev = m["sents"][i - 1] if i > 0 else ""
    nxt = m["sents"][i + 1] if i + 1 < len(m["sents"]) else ""
    return m["subject"], m["sender"], prev, (m["sents"][i] if sent is None else sent), nxt


def mail_questions(qs, msgs, index, pool, out, tag):
    skipped = Counter()
    for q in qs:
        kind = q.get("kind")
        if kind not in ("fact", "followup", "abstain"):
            skipped[kind] += 1
            continue
        qid = f"{tag}:{q['id']}"
        question = question_text(q)
        answers = q.get("answer_any") or []
        gold = [bare_id(g) for g in q.get("gold_message_ids") or []]
        quoted = {bare_id(g) for g in q.get("quoted_copies") or []}
        if kind == "abstain":
            hits = index.search(question, N_NEAR_MSGS)
            cand = []
            for mid, _ in hits:
                m = msgs[mid]
                for i in range(len(m["sents"])):
                    cand.append((overlap(m["sents"][i], question), mid, i))
            cand.sort(key=lambda x: -x[0])
            for _, mid, i in cand[:N_NEAR_SENTS]:
                out.append(pair(qid, question, fit_pair(tok, question, *ctx(msgs[mid], i)), 0, "near_miss", msg=mid, sent=i))
            continue
        gold_in = [g for g in gold if g in msgs]
        if not gold_in:
            skipped["gold_missing"] += 1
            continue
        pos_sents = []
        gold_pairs = []
        for g in gold_in:
            m = msgs[g]
            pos = positives(m, q.get("evidence"), answers)
            for i in sorted(pos):
                gold_pairs.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i)), 1, "gold", msg=g, sent=i))
                pos_sents.append((m, i))
            negs = [i for i in range(len(m["sents"])) if i not in pos and not has_answer(m["sents"][i], answers)
                    and not (q.get("evidence") and overlap(m["sents"][i], q["evidence"]) > 0.6)]
            rng.shuffle(negs)
            for i in negs[:N_INMSG]:
                gold_pairs.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i)), 0, "in_message", msg=g, sent=i))
        if not pos_sents:
            # An answerable question whose answering sentence is not found gives no
            # pairs: its message's other sentences would make a "no answer" group of it.
            skipped["no_positive"] += 1
            continue
        out += gold_pairs
        # retrieved hard negatives
        hits = [h for h in index.search(question, N_RETR_MSGS + len(gold) + len(quoted) + 4) if h[0] not in gold and h[0] not in quoted][:N_RETR_MSGS]
        gold_sents = {nrm(m["sents"][i]) for m, i in pos_sents}
        cand = []
        for mid, _ in hits:
            m = msgs[mid]
            for i, s in enumerate(m["sents"]):
                if has_answer(s, answers) or nrm(s) in gold_sents:
                    continue
                if q.get("evidence") and overlap(s, q["evidence"]) > 0.6:
                    continue
                cand.append((overlap(s, question) + rng.random() * 0.2, mid, i))
        cand.sort(key=lambda x: -x[0])
        for _, mid, i in cand[:N_RETR_SENTS]:
            out.append(pair(qid, question, fit_pair(tok, question, *ctx(msgs[mid], i)), 0, "retrieved", msg=mid, sent=i))
        # synthetic
        m, i = pos_sents[0]
        for s2 in removed_variants(m["sents"][i], answers):
            out.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i, s2)), 0, "synthetic_removed", msg=m["id"], sent=i))
        for q2 in slot_variants(question, pool, answers, m["sents"][i]):
            out.append(pair(qid, q2, fit_pair(tok, q2, *ctx(m, i)), 0, "synthetic_slot", msg=m["id"], sent=i, orig_question=question))
    return skipped


def t5_pairs(pool, out):
    qs = [q for q in read_jsonl(os.path.join(T5, "questions.jsonl")) if q["document_id"] % 2 == 0]
    docs = {}
    skipped = Counter()
    for q in qs:
        did = q["document_id"]
        if did not in docs:
            with open(os.path.join(T5, q["eml"]), "rb") as f:
                msg = email.message_from_binary_file(f)
            docs[did] = parse_message(msg)
        m = docs[did]
        qid = f"t5:{q['qid']}"
        question = q["question"]
        if q["is_impossible"]:
            idx = list(range(len(m["sents"])))
            rng.shuffle(idx)
            for i in idx[:6]:
                out.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i)), 0, "near_miss", doc=did, sent=i))
            continue
        answers = [a["text"] for a in q["answers"]]
        pos = [i for i, s in enumerate(m["sents"]) if has_answer(s, answers)]
        if not pos:
            skipped["no_positive"] += 1
            continue
        for i in pos[:3]:
            out.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i)), 1, "gold", doc=did, sent=i))
        negs = [i for i in range(len(m["sents"])) if i not in pos]
        rng.shuffle(negs)
        for i in negs[:6]:
            out.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i)), 0, "in_message", doc=did, sent=i))
        i = pos[0]
        for s2 in removed_variants(m["sents"][i], answers)[:1]:
            out.append(pair(qid, question, fit_pair(tok, question, *ctx(m, i, s2)), 0, "synthetic_removed", doc=did, sent=i))
    return skipped


def main():
    os.makedirs(OUT, exist_ok=True)
    sets = [
        ("train", sorted(glob.glob(f"{ANS}/train/t[0-9]*.jsonl")), TRAIN_BOXES),
        ("d12", [f"{ANS}/dev/d1.jsonl", f"{ANS}/dev/d2.jsonl"], D12_BOXES),
        ("eval", [f"{ANS}/enron_eval.jsonl"], ["lay-k"]),  # allen-p mail is not on this machine
    ]
    allq = []
    for _, files, _ in sets:
        for f in files:
            allq += [question_text(q) for q in read_jsonl(f) if "question" in q]
    pool = build_slot_pool(allq)
    out = []
    stats = {}
    for tag, files, boxes in sets:
        msgs = load_boxes(boxes)
        index = MailIndex(msgs)
        for f in files:
            qs = read_jsonl(f)
            n0 = len(out)
            sk = mail_questions(qs, msgs, index, pool, out, os.path.basename(f).replace(".jsonl", ""))
            stats[f] = {"pairs": len(out) - n0, "skipped": dict(sk)}
            print(f, stats[f], flush=True)
    n0 = len(out)
    sk = t5_pairs(pool, out)
    stats["t5-even"] = {"pairs": len(out) - n0, "skipped": dict(sk)}
    print("t5-even", stats["t5-even"], flush=True)
    src = Counter((p["source"], p["label"]) for p in out)
    stats["by_source"] = {f"{s}/{l}": n for (s, l), n in sorted(src.items())}
    stats["total"] = len(out)
    stats["questions"] = len({p["qid"] for p in out})
    print(json.dumps(stats, indent=1))
    with open(os.path.join(OUT, "pairs.train.jsonl"), "w") as f:
        for p in out:
            f.write(json.dumps(p) + "\n")
    with open(os.path.join(OUT, "pairs.stats.json"), "w") as f:
        json.dump(stats, f, indent=1)


if __name__ == "__main__":
    main()
