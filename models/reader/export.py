"""Export a trained reader to ONNX (opset 17) and int8 (dynamic quantisation).

python export.py [RUN]   (default RUN=full) -> /tmp/quoth-selector/reader/reader-int8.onnx
Inputs input_ids, attention_mask and, for an encoder that has them (BERT, MiniLM),
token_type_ids (int64, [batch, seq]); output logits [batch, 1].
Checks int8 against torch on 50 dev pairs and prints the max abs logit difference and the sha256.
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import numpy as np  # noqa
import torch  # noqa
from transformers import AutoModelForSequenceClassification, AutoTokenizer  # noqa

from common import OUT, MAX_LEN, read_jsonl  # noqa


class Wrap(torch.nn.Module):
    def __init__(self, m, names):
        super().__init__()
        self.m = m
        self.names = names

    def forward(self, *inputs):
        return self.m(**dict(zip(self.names, inputs))).logits


def main():
    run = sys.argv[1] if len(sys.argv) > 1 else "full"
    torch.set_num_threads(1)
    src = os.path.join(OUT, "runs", run, "final")
    fp32 = os.path.join(OUT, f"reader-{run}-fp32.onnx")
    int8 = os.path.join(OUT, "reader-int8.onnx" if run == "full" else f"reader-{run}-int8.onnx")
    tok = AutoTokenizer.from_pretrained(src)
    model = AutoModelForSequenceClassification.from_pretrained(src, attn_implementation="eager").eval()
    # the inputs the encoder reads: MPNet's tokenizer gives no token_type_ids
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in tok.model_input_names]
    ex = tok(["what is the price?", "when?"], ["Re: offer | Dan J Hyvl |  >> The price is $15.00 per month. << ", "a | b |  >> c. << "],
             padding=True, truncation=True, max_length=MAX_LEN, return_tensors="pt")
    args = tuple(ex[n] for n in names)
    torch.onnx.export(Wrap(model, names).eval(), args, fp32, opset_version=17,
                      input_names=names, output_names=["logits"],
                      dynamic_axes={k: {0: "batch", 1: "sequence"} for k in names}
                      | {"logits": {0: "batch"}})
    model.eval()  # export restores the wrapper's mode; make sure dropout is off for the check
    from onnxruntime.quantization import QuantType, quantize_dynamic
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8)
    import onnxruntime as ort
    rows = []
    # the check's pairs: DEV candidates when `evaluate.py build` made them, else training pairs
    check = os.path.join(OUT, "dev_cands.jsonl")
    if not os.path.exists(check):
        check = os.path.join(OUT, "pairs.train.jsonl")
    with open(check) as f:
        for line in f:
            rows.append(json.loads(line))
    rows = rows[:: max(1, len(rows) // 50)][:50]
    enc = tok([r["question"] for r in rows], [r["text_b"] for r in rows], padding=True, truncation="longest_first",
              max_length=MAX_LEN, return_tensors="pt")
    with torch.inference_mode():
        ref = model(**enc).logits[:, 0].numpy()
    feed = {k: enc[k].numpy().astype(np.int64) for k in names}
    res = {}
    for name, path in (("fp32", fp32), ("int8", int8)):
        s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        out = s.run(["logits"], feed)[0][:, 0]
        res[name] = float(np.abs(out - ref).max())
    sha = hashlib.sha256(open(int8, "rb").read()).hexdigest()
    info = {"run": run, "int8": int8, "sha256": sha, "bytes": os.path.getsize(int8),
            "max_abs_diff_vs_torch_50_pairs": res, "pairs": os.path.basename(check), "torch_logit_range": [float(ref.min()), float(ref.max())]}
    print(json.dumps(info, indent=1))
    with open(os.path.join(OUT, f"export.{run}.json"), "w") as f:
        json.dump(info, f, indent=1)


if __name__ == "__main__":
    main()
