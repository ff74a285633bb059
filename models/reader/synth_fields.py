"""Synthetic questions answered by a labelled line, as groups for listwise training.

python synth_fields.py [--per-box N]   -> $QUOTH_READER_OUT/groups.fields.jsonl

Notices, invitations and forms give their facts as labelled lines ("Where: The
Boathouse", "Cost: $25 a head", "RSVP by: Friday"), which the product reads as
sentences of their own. A message of the training mailboxes with at least two such
lines gives a question for one of them, made of what the label asks for and the
subject's topic words ("where is the team lunch?", "team lunch cost", "what is the
rsvp deadline for the team lunch?"). Nothing is copied from the line but the label's
own words.

Each question is a group with provenance (`box`, `msg`, `sent`, `label`):
- `pos`: the labelled line in its message (label 1);
- `neg`: the message's other labelled lines (`other_field`), the line with its value
  taken out (`removed`), and up to two other sentences of the message (`in_message`);
- a second group, `field_null`: the same topic asking for a label that the message does
  not have (drawn from the labels of other messages of the mailbox), over its labelled
  lines: no answer among them.

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
from common import MODEL_DIR, OUT, STOP, TRAIN_BOXES, fit_pair, label_and_value, load_box, terms  # noqa
from synth_questions import ctx3  # noqa

from transformers import BertTokenizerFast

rng = random.Random(31)

# what a label asks for, by its words: question words for a label that names a kind
ASKS = [
    ({"where", "location", "venue", "place", "room", "address"}, ["where is", "where's", "what's the location of"]),
    ({"when", "date", "day", "deadline", "due"}, ["when is", "what day is", "what date is"]),
    ({"time", "start", "starts", "begins"}, ["what time is", "when does it start,"]),
    ({"cost", "price", "fee", "amount", "total", "rate", "charge"}, ["how much is", "what does it cost,"]),
    ({"who", "contact", "host", "speaker", "organizer", "presenter", "attendees"}, ["who is", "who's the contact for"]),
    ({"phone", "tel", "telephone", "cell", "fax", "mobile"}, ["what number for", "what's the phone number for"]),
]
# the lines of a forwarded or quoted message's header: not facts of the message
HEADER_LABELS = {"from", "to", "cc", "bcc", "subject", "sent", "date", "importance", "re", "fw", "fwd",
                 "reply-to", "attachments", "mailto"}
SUBJECT_NOISE = {"re", "fw", "fwd", "rsvp", "reminder", "update", "updated", "important", "please", "read", "new"}


def asks_of(label):
    words = set(re.findall(r"[a-z]+", label.lower()))
    for keys, wh in ASKS:
        if words & keys:
            return wh
    return None


def question(label, topic):
    """A question for the label's value about the topic, as people type or ask it."""
    t = " ".join(topic)
    lab = label.lower()
    wh = asks_of(label)
    r = rng.random()
    if wh and r < 0.5:
        q = f"{rng.choice(wh)} the {t}"
        return q + ("?" if rng.random() < 0.7 else "")
    if r < 0.8:
        return f"{t} {lab}" if rng.random() < 0.7 else f"{lab} for the {t}"
    return f"what is the {lab} for the {t}?"


def topic_words(subject):
    words = [w for w in re.findall(r"[a-z][a-z0-9'&-]+", subject.lower())
             if w not in STOP and w not in SUBJECT_NOISE and len(w) > 2]
    words = list(dict.fromkeys(words))
    if not words:
        return None
    return words[:rng.choice([2, 3, 3, 4])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-box", type=int, default=150)
    ap.add_argument("--out", default="groups.fields.jsonl")
    a = ap.parse_args()
    tok = BertTokenizerFast.from_pretrained(MODEL_DIR)
    out_path = os.path.join(OUT, a.out)
    stats = Counter()
    seen = set()
    with open(out_path + ".tmp", "w") as out:
        for box in TRAIN_BOXES:
            msgs = load_box(box)
            ids = sorted(msgs)
            rng.shuffle(ids)
            # the labels of the mailbox's labelled lines, to ask for one a message lacks
            fielded = []
            for mid in ids:
                m = msgs[mid]
                fields = []
                heads = {i for i, s in enumerate(m["sents"])
                         if (label_and_value(s) or ("",))[0].lower() in HEADER_LABELS - {"date"}}
                for i, s in enumerate(m["sents"]):
                    lv = label_and_value(s)
                    if not lv or not lv[1] or len(lv[1].split()) > 14 or len(s.split()) > 18:
                        continue
                    near_header = any(abs(i - h) <= 3 for h in heads)
                    if lv[0].lower() in HEADER_LABELS and (lv[0].lower() != "date" or near_header):
                        continue
                    if lv[0].lower().startswith(("x-", "content-", "mime-")):
                        continue
                    if re.search(r"https?:|www\.|@|\.com\b", lv[1]):
                        continue
                    fields.append((i, lv[0], lv[1]))
                if len({f[1].lower() for f in fields}) >= 2:
                    fielded.append((mid, fields))
            all_labels = Counter(f[1].lower() for _, fs in fielded for f in fs)
            common_labels = [l for l, n in all_labels.items() if n >= 3]
            made = 0
            for mid, fields in fielded:
                if made >= a.per_box:
                    break
                m = msgs[mid]
                topic = topic_words(m["subject"])
                if not topic:
                    continue
                i, label, value = rng.choice(fields)
                key = (label.lower(), value.lower())
                if key in seen or not set(terms(value)) or set(terms(value)) <= set(terms(label)):
                    continue
                seen.add(key)
                q = question(label, topic)
                prov = {"box": box, "msg": mid, "sent": i, "label": label, "value": value}

                def tb(j, sent=None, q=q):
                    return fit_pair(tok, q, *ctx3(m, j, sent))

                negs = [("other_field", tb(j)) for j, l2, v2 in fields
                        if j != i and l2.lower() != label.lower() and v2.lower() != value.lower()][:4]
                negs.append(("removed", tb(i, f"{label}:")))
                others = [j for j in range(len(m["sents"])) if j not in {f[0] for f in fields}]
                rng.shuffle(others)
                negs += [("in_message", tb(j)) for j in others[:2]]
                out.write(json.dumps({"qid": f"field:{box}:{made}", "question": q, "pos": [tb(i)], "neg": negs,
                                      "source": "synthetic_field", **prov}) + "\n")
                stats["synthetic_field"] += 1
                have = {f[1].lower() for f in fields}
                absent = [l for l in common_labels if l not in have and asks_of(l) != asks_of(label)]
                if absent:
                    l2 = rng.choice(absent)
                    q2 = question(l2, topic)
                    nn = [fit_pair(tok, q2, *ctx3(m, j)) for j, _, _ in fields[:4]]
                    out.write(json.dumps({"qid": f"field:{box}:{made}:null", "question": q2, "pos": [],
                                          "neg": [("asks_absent_field", t) for t in nn],
                                          "source": "field_null", **prov, "asks": l2}) + "\n")
                    stats["field_null"] += 1
                made += 1
            print(box, len(fielded), made, dict(stats), flush=True)
    os.replace(out_path + ".tmp", out_path)
    print(json.dumps(dict(stats)))


if __name__ == "__main__":
    main()
