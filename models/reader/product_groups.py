"""Reader training groups from the product's own candidate lists.

python product_groups.py OUT.jsonl DUMP.jsonl...

Reads `quoth bench selector` dumps of training sets (`--split train`; a dump of
another split is refused) and writes one listwise group (train.py --loss listwise)
per fact or near miss, from the ask's first try: the read candidates that hold an
answer (label 1; at most three) as positives, the other read candidates among the
trees' best eight as negatives. A near miss's group has no positive; a fact whose
answer the reader was not given to read is left out. Each text is the pair's
text_b as `common.fit_pair` writes it from the dump's `read` fields, so it is what
the product reads; each group keeps its set and id."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
from transformers import BertTokenizerFast  # noqa

import common  # noqa

TOKENIZER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "all-MiniLM-L6-v2.tokenizer.json")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tok = BertTokenizerFast(tokenizer_file=TOKENIZER, do_lower_case=True)
    counts = {"product_answer": 0, "product_null": 0, "answer_not_read": 0}
    with open(sys.argv[1], "w") as out:
        for path in sys.argv[2:]:
            for line in open(path):
                q = json.loads(line)
                if q.get("split") != "train":
                    sys.exit(f"{path}: {q.get('id')} is of split {q.get('split')!r}, not train")
                if q["kind"] not in ("fact", "abstain") or not q["tries"]:
                    continue
                cands = q["candidates"]
                first = q["tries"][0]
                ranked = sorted(first["candidates"], key=lambda i: -cands[i]["score"])
                read = [i for i in ranked if cands[i].get("read")]
                pos = [i for i in read if cands[i]["label"] == 1]
                neg = [i for i in read[:8] if cands[i]["label"] == 0]
                if q["kind"] == "fact" and not pos:
                    counts["answer_not_read"] += 1
                    continue

                def text_b(i):
                    r = cands[i]["read"]
                    return common.fit_pair(tok, q["question"], r["subject"], r["sender"], r["prev"],
                                           r["sentence"], r["next"])

                source = "product_null" if q["kind"] == "abstain" else "product_answer"
                counts[source] += 1
                out.write(json.dumps({"question": q["question"], "source": source, "set": q.get("set"),
                                      "id": q.get("id"), "pos": [text_b(i) for i in pos[:3]],
                                      "neg": [["product", text_b(i)] for i in neg]}) + "\n")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
