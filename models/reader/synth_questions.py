"""Synthetic questions over the training mailboxes' mail, as groups for listwise training.

python synth_questions.py [--per-box N]   -> /tmp/quoth-selector/reader/groups.synth.jsonl

A sentence of authored mail that holds a value of a kind a question asks for (a sum, a
percentage, a quantity, a date, a time, a person's name) becomes the answer of a short
question built from the value's kind and a few of the sentence's rarer words, the way
people type into a search box ("when gas transport meeting", "how much did Kim say the
deposit was"). Nothing is copied: at most four words of the sentence, never in a run.
With `--natural-share`, that share of the questions is written as a person asks:
the question words, an auxiliary verb and a subject, then the topic words, half of
them in another form that the mailbox uses ("what time does the coach leave" for
"the coach leaves at"), so that an answer need not repeat the question's words.

Each question is a group with provenance (`box`, `msg`, `sent`, `value`, `kind`):
- `pos`: the sentence in its message (label 1);
- `neg`: the same sentence with the value cut out or replaced by a value of another kind
  (`removed`), other sentences of its message that lack the value (`in_message`), and
  sentences of other messages that share the question's words (`retrieved`);
- a second group, `null`: the question asking for a kind of value that neither the
  sentence nor its neighbours hold, over the same sentences, with no answer among them.

Only the mailboxes in common.TRAIN_BOXES are read.
"""
import argparse
import json
import os
import random
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
from reword import AUX, SUBJECT, another_form, word_forms  # noqa

from transformers import BertTokenizerFast

rng = random.Random(29)

MONTHS = "January February March April May June July August September October November December".split()
MON_ABBR = "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec".split()
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
UNITS = r"(?:MW|MWh|mw|mwh|megawatts?|barrels?|bbls?|Bcf|bcf|MMBtu|mmbtu|MMcf|Dth|dth|therms?|tons?|miles?|acres?|" \
        r"feet|ft|square feet|sq ft|people|employees|days|weeks|months|years|hours|minutes|shares|units|contracts|" \
        r"copies|pages|seats|rooms|trucks|cars|turbines|customers|positions)"

KINDS = {
    "money": re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|mm|MM|k|K|M)\b)?"),
    "percent": re.compile(r"\b\d+(?:\.\d+)?\s?(?:%|percent\b)"),
    "quantity": re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?" + UNITS + r"\b"),
    "time": re.compile(r"\b(?:1[0-2]|0?[1-9])(?::[0-5]\d)?\s?(?:am|pm|a\.m\.|p\.m\.|AM|PM)(?![A-Za-z])|\b(?:noon|midnight)\b"),
    "date": re.compile(r"\b(?:(?:" + "|".join(MONTHS + MON_ABBR) + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?"
                       r"|\d{1,2}/\d{1,2}(?:/\d{2,4})?|(?:next\s+|this\s+|last\s+)?(?:" + "|".join(DAYS) + r"))\b"),
    "person": re.compile(r"(?<=[a-z,;:] )(?:[A-Z][a-z]+ ){1,2}[A-Z][a-z]+\b"),  # first word: a known first name
}
NOT_NAME_WORDS = set(MONTHS + DAYS + """Enron North America Energy Services Corp Inc Power Gas Company LLC
Street Road Avenue Texas Houston Portland Oregon California New York Please Thanks Thank The This That
Global Markets Trading Group Department Board Commission Federal State University Bank Capital Office
Conference Room Center Building Suite Re Fw Fwd Original Message Subject Sent Attached Dear Hello Hi
Management Risk Credit Legal Finance Agreement Contract Power Pipeline Natural Resources Project
Time Standard Central Eastern Pacific Mountain Daylight Date Description Chairperson Outlook Migration
Team Inc Ltd Co Division Services Systems""".split())

WH = {
    "money": ["how much", "what price", "what amount", "how much money", "what cost"],
    "percent": ["what percentage", "what percent", "how much", "what rate"],
    "quantity": ["how many", "how much", "what volume", "what quantity"],
    "time": ["what time", "when", "what hour"],
    "date": ["when", "what day", "what date", "by when", "which day"],
    "person": ["who", "which person", "who's", "whom"],
}
# nouns that name the kind in a search-box phrase without a question word
# ("gas transport meeting date", "price of the annuity")
NOUNS = {
    "money": ["price", "amount", "cost", "value", "total", "fee"],
    "percent": ["percentage", "rate", "percent"],
    "quantity": ["volume", "number", "quantity", "total", "count"],
    "time": ["time", "start time", "hour"],
    "date": ["date", "day", "deadline"],
    "person": ["contact", "person", "name of the person"],
}
NOUN_SHARE = 0.0  # share of questions written as such a phrase (--noun-share)
# share of questions written as a person asks them (--natural-share): an auxiliary
# verb and a subject between the question words and the topic ("what time does the
# coach leave?"), and topic words in another form than the sentence's ("leave" for
# "leaves", "leading" for "lead"), so that a question need not repeat the mail's words
NATURAL_SHARE = 0.0
# the kind a question asks when another kind is absent from the evidence
SWAP = {"money": ["date", "time", "person"], "percent": ["date", "person", "time"],
        "quantity": ["date", "person", "money"], "time": ["money", "person", "quantity"],
        "date": ["money", "person", "quantity"], "person": ["date", "money", "time"]}
FAKE = {"money": ["$3,150", "$48 million", "$0.35"], "percent": ["12%", "4.5 percent"],
        "quantity": ["220 MW", "9,000 barrels", "14 days"], "time": ["2:30 pm", "10 am"],
        "date": ["April 17", "next Thursday", "6/21"], "person": ["Maria Delgado", "Frank Osei"]}


FIRST_NAMES = set()  # filled from the senders of the mail read


def first_names(msgs):
    for m in msgs.values():
        sd = m["sender"]
        parts = sd.split(",")[-1].split() if "," in sd else sd.split()
        if parts and parts[0].isalpha() and parts[0][0].isupper() and len(parts[0]) > 2:
            FIRST_NAMES.add(parts[0].capitalize())


def find_values(s):
    out = []
    for kind, pat in KINDS.items():
        for m in pat.finditer(s):
            v = m.group(0).strip()
            if kind == "person" and ((set(v.split()) & NOT_NAME_WORDS) or v.split()[0] not in FIRST_NAMES):
                continue
            out.append((kind, m.start(), m.end(), v))
    return out


def kinds_in(text):
    return {k for k, *_ in find_values(text)}


def question_for(kind, sent, value, idf, sender, subject="", usable=None, forms=None):
    """A short question: the kind's question words and 2-4 rarer words of the sentence
    (the value's words excluded), in the sentence's order or shuffled."""
    vt = set(terms(value))
    lower = set(re.findall(r"\b[a-z][a-z0-9]+\b", sent))  # words written in lower case: the topic, not names
    words = [t for t in dict.fromkeys(terms(sent)) if t not in vt and not t.isdigit() and len(t) > 2 and t in lower
             and (usable is None or t in usable)]
    if len(words) < 2:
        return None
    subj = set(terms(subject))
    words.sort(key=lambda t: -(idf.get(t, 0.0) + (3.0 if t in subj else 0.0) + rng.random() * 2.0))
    n = rng.choice([2, 2, 3, 3, 4])
    pick = words[:n]
    order = [t for t in terms(sent) if t in pick]
    order = list(dict.fromkeys(order))
    if rng.random() < 0.4:
        rng.shuffle(order)
    if forms is not None and NATURAL_SHARE and rng.random() < NATURAL_SHARE:
        said = [another_form(t, forms, rng) if rng.random() < 0.5 else t for t in order]
        wh = rng.choice(WH[kind])
        aux = rng.choice(AUX)
        who = rng.choice(SUBJECT)
        q = f"{wh} {aux} {who} {' '.join(said)}"
        if rng.random() < 0.8:
            q += "?"
        return q[0].upper() + q[1:] if rng.random() < 0.5 else q
    if NOUN_SHARE and rng.random() < NOUN_SHARE:
        noun = rng.choice(NOUNS[kind])
        q = f"{' '.join(order)} {noun}" if rng.random() < 0.7 else f"{noun} for the {' '.join(order)}"
        return q + "?" if rng.random() < 0.2 else q
    wh = rng.choice(WH[kind])
    style = rng.random()
    first = sender.split(",")[-1].split()[0] if sender and sender.split(",")[-1].split() else ""
    if style < 0.55:
        q = f"{wh} {' '.join(order)}"
    elif style < 0.8:
        q = f"{wh} {'is' if wh.split()[0] in ('when', 'who', 'what') and len(wh.split()) == 1 else 'for'} the {' '.join(order)}"
    elif first and first[0].isupper() and first.isalpha() and "'" not in wh:
        q = f"{wh} did {first} say about {' '.join(order)}"
    else:
        q = f"{' '.join(order)} {wh}"
    if rng.random() < 0.6:
        q += "?"
    if rng.random() < 0.5:
        q = q[0].upper() + q[1:]
    return q


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-box", type=int, default=420)
    ap.add_argument("--noun-share", type=float, default=0.0,
                    help="share of questions written as a noun phrase naming the kind, no question word")
    ap.add_argument("--natural-share", type=float, default=0.0,
                    help="share of questions with an auxiliary verb, a subject and other word forms")
    ap.add_argument("--out", default="groups.synth.jsonl")
    a = ap.parse_args()
    global NOUN_SHARE, NATURAL_SHARE
    NOUN_SHARE = a.noun_share
    NATURAL_SHARE = a.natural_share
    tok = BertTokenizerFast.from_pretrained(MODEL_DIR)
    out_path = os.path.join(OUT, a.out)
    stats = Counter()
    seen_sents = set()
    with open(out_path + ".tmp", "w") as out:
        for box in TRAIN_BOXES:
            msgs = load_box(box)
            index = MailIndex(msgs)
            idf = index.bm.idf
            first_names(msgs)
            # topic words: neither among the 300 commonest nor seen in fewer than 3 messages
            df = sorted(((len(p), t) for t, p in index.bm.post.items()), reverse=True)
            usable = {t for n, t in df[300:] if n >= 3}
            forms = word_forms(t for n, t in df if n >= 2)
            ids = sorted(msgs)
            rng.shuffle(ids)
            made = 0
            for mid in ids:
                if made >= a.per_box:
                    break
                m = msgs[mid]
                sents = m["sents"]
                if len(sents) < 2 or len(sents) > 60:
                    continue
                cands = []
                for i, s in enumerate(sents):
                    n = len(s.split())
                    if n < 6 or n > 45 or nrm(s) in seen_sents:
                        continue
                    vals = find_values(s)
                    if vals:
                        cands.append((i, vals))
                if not cands:
                    continue
                i, vals = rng.choice(cands)
                kind, vs, ve, value = rng.choice(vals)
                s = sents[i]
                q = question_for(kind, s, value, idf, m["sender"], m["subject"], usable, forms)
                if not q:
                    continue
                seen_sents.add(nrm(s))
                prov = {"box": box, "msg": mid, "sent": i, "value": value, "kind": kind}

                def tb(j, sent=None):
                    return fit_pair(tok, q, *ctx3(m, j, sent))

                negs = []
                removed = norm_ws(s[:vs] + s[ve:]) if rng.random() < 0.5 else \
                    norm_ws(s[:vs] + rng.choice(FAKE[rng.choice(SWAP[kind])]) + s[ve:])
                if kind not in kinds_in(removed) or value not in removed:
                    negs.append(("removed", tb(i, removed)))
                others = [j for j in range(len(sents)) if j != i and value not in sents[j]]
                rng.shuffle(others)
                for j in others[:3]:
                    negs.append(("in_message", tb(j)))
                qt = set(terms(q))
                hits = [h for h, _ in index.search(q, 8) if h != mid]
                rc = []
                for h in hits:
                    hm = msgs[h]
                    for j, hs in enumerate(hm["sents"]):
                        if value in hs or len(set(terms(hs)) & set(terms(s))) / max(1, len(set(terms(s)))) > 0.6:
                            continue
                        ov = len(set(terms(hs)) & qt)
                        if ov:
                            rc.append((ov + rng.random() * 0.5, h, j))
                rc.sort(key=lambda x: -x[0])
                for _, h, j in rc[:3]:
                    negs.append(("retrieved", fit_pair(tok, q, *ctx3(msgs[h], j))))
                out.write(json.dumps({"qid": f"syn:{box}:{made}", "question": q, "pos": [tb(i)],
                                      "neg": negs, "source": "synthetic_question", **prov}) + "\n")
                stats["synthetic_question"] += 1
                # the same words asking for a kind the evidence does not hold: no answer here
                around = " ".join(sents[max(0, i - 1):i + 2])
                absent = [k for k in SWAP[kind] if k not in kinds_in(around)]
                if absent:
                    k2 = rng.choice(absent)
                    q2 = question_for(k2, s, value, idf, m["sender"], m["subject"], usable, forms)
                    if q2:
                        nn = [fit_pair(tok, q2, *ctx3(m, i))]
                        nn += [fit_pair(tok, q2, *ctx3(m, j)) for j in others[:2]]
                        out.write(json.dumps({"qid": f"syn:{box}:{made}:null", "question": q2, "pos": [],
                                              "neg": [("asks_absent_kind", t) for t in nn],
                                              "source": "synthetic_null", **prov, "asks": k2}) + "\n")
                        stats["synthetic_null"] += 1
                made += 1
            print(box, made, dict(stats), flush=True)
    os.replace(out_path + ".tmp", out_path)
    print(json.dumps(dict(stats)))


def ctx3(m, i, sent=None):
    prev = m["sents"][i - 1] if i > 0 else ""
    nxt = m["sents"][i + 1] if i + 1 < len(m["sents"]) else ""
    return m["subject"], m["sender"], prev, (m["sents"][i] if sent is None else sent), nxt


if __name__ == "__main__":
    main()
