"""Rebuild a shipped reader member as a PyTorch model, to train it further on a
machine that lacks its training run.

python from_onnx.py reader-int8.onnx OUTDIR

Reads the dynamically quantised ONNX file export.py writes and writes OUTDIR as
a BertForSequenceClassification (one logit) with its tokenizer: each int8 weight
becomes (q - zero_point) * scale, so the model computes what the ONNX file computes
with float activations (dequantize.py), to float rounding; train.py takes OUTDIR as
--init. Needs torch, transformers, onnx and numpy."""
import os
import re
import sys
import numpy as np
import onnx
import torch
from onnx import numpy_helper
from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

src, out = sys.argv[1], sys.argv[2]
TOKENIZER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "all-MiniLM-L6-v2.tokenizer.json")
m = onnx.load(src)
g = m.graph
T = {i.name: numpy_helper.to_array(i) for i in g.initializer}
for n in g.node:
    if n.op_type == "Constant":
        for a in n.attribute:
            if a.name == "value":
                T[n.output[0]] = numpy_helper.to_array(a.t)

def deq(base):
    q = T[base + "_quantized"].astype(np.float32)
    zp = T[base + "_zero_point"].astype(np.float32)
    sc = T[base + "_scale"].astype(np.float32)
    return (q - zp) * sc

sd = {}
for name in T:
    if name.startswith("m.") and not any(name.endswith(s) for s in ("_quantized", "_scale", "_zero_point")):
        sd[name[2:]] = T[name]
    if name.startswith("m.") and name.endswith("_quantized"):
        base = name[: -len("_quantized")]
        sd[base[2:]] = deq(base)
for n in g.node:
    if n.op_type == "MatMulInteger" and n.input[1].startswith("m."):
        base = n.input[1][: -len("_quantized")]
        sd[base[2:]] = deq(base).T.copy()
    elif n.op_type == "MatMulInteger":
        w = n.input[1][: -len("_quantized")]
        mod = re.match(r"/m/(.*)/MatMul_output_0_output_quantized", n.output[0]).group(1)
        key = mod.replace("/", ".") + ".weight"
        sd[key] = deq(w).T.copy()
    elif n.op_type == "MatMul" and n.input[1] in T:
        mod = re.match(r"/m/(.*)/MatMul(_\d+)?_output_0", n.output[0]).group(1)
        sd[mod.replace("/", ".") + ".weight"] = T[n.input[1]].T.copy()
cfg = BertConfig(vocab_size=30522, hidden_size=384, num_hidden_layers=6, num_attention_heads=12,
                 intermediate_size=1536, max_position_embeddings=512, type_vocab_size=2, num_labels=1)
model = BertForSequenceClassification(cfg)
own = model.state_dict()
missing = [k for k in own if k not in sd]
extra = [k for k in sd if k not in own]
if missing or extra:
    sys.exit(f"not a reader of this shape: missing {missing[:5]}, unexpected {extra[:5]}")
state = {}
for k, v in own.items():
    if sd[k].size != v.numel():
        sys.exit(f"{k}: {sd[k].shape} does not fit {tuple(v.shape)}")
    state[k] = torch.tensor(sd[k]).reshape(v.shape)
model.load_state_dict(state)
model.save_pretrained(out)
tok = BertTokenizerFast(tokenizer_file=TOKENIZER, do_lower_case=True)
tok.save_pretrained(out)
print(f"{src} -> {out}")
