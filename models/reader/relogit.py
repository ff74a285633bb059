"""Product dumps with the reader's logit of each read candidate replaced by other
members' mean, for `fusion.py` (the two-fold comparison of members).

python relogit.py OUTDIR A.onnx[@TOKENIZER.json],B.onnx[@...] d3.jsonl d4.jsonl ...

Each member reads the pair as the product builds it (`readings.py`, "as read"); a
member trained from another encoder than MiniLM (MPNet) names its own tokenizer after
`@` and is fed only the inputs its ONNX graph declares. Writes OUTDIR/<name of each
dump>; logits are cached in --cache between runs (keyed by the model's path, so a
changed file needs a new name). Then, for instance:

python fusion.py --choose OUT/d3.jsonl,OUT/d4.jsonl,OUT/d7.jsonl --report OUT/d5.jsonl,OUT/d6.jsonl,OUT/d8.jsonl
"""
import json
import os
import pickle
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from readings import TOKENIZER, pair_logit, readings  # noqa: E402
from common import MAX_LEN  # noqa: E402


def member(spec, threads):
    path, _, tok_path = spec.partition("@")
    tok = Tokenizer.from_file(tok_path or TOKENIZER)
    tok.enable_truncation(MAX_LEN)
    tok.no_padding()
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    return path, ort.InferenceSession(path, so), tok


def main():
    args = sys.argv[1:]
    cache_path = "relogit.cache.pkl"
    if "--cache" in args:
        i = args.index("--cache")
        cache_path = args[i + 1]
        del args[i:i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    out, specs, dumps = args[0], args[1].split(","), args[2:]
    members = [member(s, int(os.environ.get("THREADS", "1"))) for s in specs]
    cache = pickle.load(open(cache_path, "rb")) if os.path.exists(cache_path) else {}

    def logit(path, sess, tok, q, t):
        k = (path, q, t)
        if k not in cache:
            cache[k] = pair_logit(sess, tok, q, t)
        return cache[k]

    os.makedirs(out, exist_ok=True)
    for d in dumps:
        with open(d) as f, open(os.path.join(out, os.path.basename(d)), "w") as w:
            for line in f:
                q = json.loads(line)
                for c in q["candidates"]:
                    if c.get("read") and c.get("reader") is not None:
                        t = readings(c["read"])["as read"]
                        c["reader"] = float(np.mean([logit(p, s, tk, q["question"], t) for p, s, tk in members]))
                w.write(json.dumps(q) + "\n")
        print("done", d, flush=True)
    pickle.dump(cache, open(cache_path, "wb"))


if __name__ == "__main__":
    main()
