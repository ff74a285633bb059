"""How much a reader's logit depends on the wording of a question rather than on
what it asks: invented pairs, each sentence asked the same thing in several
wordings (another form of a word, function words, a search-box phrase), and a
sentence that does not answer.

python probe.py MEMBER.onnx [MEMBER.onnx ...]

Prints each pair's logit per member and their mean, and per sentence the spread
(highest minus lowest logit) over the wordings that ask for what it states. A
reader that reads the question for what it asks keeps the spread small and every
such logit above every logit of the sentence that does not answer. Needs
onnxruntime and tokenizers; the text is common.py's candidate text (no neighbours
here, so nothing is cut).
"""
import os
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import candidate_text  # noqa

TOKENIZER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "all-MiniLM-L6-v2.tokenizer.json")

# (subject, sender, sentence, [questions it answers], [questions it does not answer])
CASES = [
    ("Trip", "Dana Fox", "The ferry leaves the harbour at 9:30 am.",
     ["what time does the ferry leave?", "what time does the ferry leave the harbour?",
      "what time ferry leaves", "what time ferry leave", "when does the ferry depart?",
      "ferry departure time"],
     ["what time does the ferry come back?", "how much is a ferry ticket?"]),
    ("Audit", "Ravi Shah", "Maria Lopez will lead the audit next month.",
     ["who is leading the audit?", "who leads the audit?", "who will lead the audit?",
      "audit lead", "who's in charge of the audit?"],
     ["when does the audit finish?", "who is paying for the audit?"]),
    ("Venue", "Ines Marr", "The hall wants a deposit of $500 by Friday.",
     ["how much is the deposit?", "how much deposit does the hall want?",
      "what deposit did the hall ask for?", "hall deposit amount", "deposit for the hall"],
     ["how much is the full rent of the hall?", "who pays the hall's deposit?"]),
    ("Report", "Tom Okafor", "The quarterly report is due on March 3.",
     ["when is the quarterly report due?", "when's the report due?", "report deadline",
      "by when do we have to send the quarterly report?", "what date is the report due?"],
     ["who writes the quarterly report?", "how long is the quarterly report?"]),
]


def main():
    members = sys.argv[1:]
    if not members:
        sys.exit(__doc__)
    tok = Tokenizer.from_file(TOKENIZER)
    tok.enable_truncation(128)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sessions = [ort.InferenceSession(m, so) for m in members]

    def logits(q, text):
        e = tok.encode(q, text)
        feed = {"input_ids": np.array([e.ids], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids], dtype=np.int64)}
        out = []
        for s in sessions:
            names = [i.name for i in s.get_inputs()]
            out.append(float(s.run(None, {n: feed[n] for n in names})[0].reshape(-1)[0]))
        return out

    worst_spread, overlaps = 0.0, 0
    for subject, sender, sentence, asks, others in CASES:
        text = candidate_text(subject, sender, "", sentence, "")
        print(sentence)
        got = []
        for q in asks + others:
            ls = logits(q, text)
            mean = sum(ls) / len(ls)
            answers = q in asks
            if answers:
                got.append(mean)
            print(f"  {'answers' if answers else 'does not'} {mean:6.2f}  ({', '.join(f'{x:.2f}' for x in ls)})  {q}")
            if not answers and got and mean >= min(got):
                overlaps += 1
        spread = max(got) - min(got)
        worst_spread = max(worst_spread, spread)
        print(f"  spread over the wordings that ask it: {spread:.2f}")
    print(f"widest spread {worst_spread:.2f}; non-answers scored at or above an answer: {overlaps}")


if __name__ == "__main__":
    main()
